"""The draw in advance (SEAT-02): its sessions and rows, and the seat it gave an entry."""

from tournaments.models import Entry, Tournament

from ..models import PreDrawSeat


def shows_schedule(tournament) -> bool:
    """SEAT-02: the schedule drawn in advance is what is still to come only before the start.
    From the start the seat is the one place a player is told (the start seats the first
    session where it was drawn; a later session's players are seated by the draw, and moves
    change seats), so a phone never shows two seats."""
    return tournament.status in (Tournament.PLANNED, Tournament.REGISTERING)


def schedule_of(entry_id: int) -> dict | None:
    """SEAT-02: the session, table and seat the pre-event draw gave the entry, else None."""
    return PreDrawSeat.objects.filter(entry_id=entry_id).values("session", "table", "seat").first()


def predraw_sessions(tournament) -> list[str]:
    """SEAT-02: the sessions of the draw in advance in the order the director named them (its
    rows are written session by session in that order), so the first is the one the start plays."""
    rows = PreDrawSeat.objects.filter(tournament=tournament).order_by("pk").values_list("session", flat=True)
    return list(dict.fromkeys(rows))


def predraw_rows(tournament) -> list[dict]:
    """SEAT-02: the pre-draw by session, table and seat, with each registrant's name and entry
    (an entry cancelled since is left out)."""
    return [
        {"session": s, "table": tb, "seat": seat, "entry": number, "name": f"{first} {last}".strip()}
        for s, tb, seat, number, first, last in PreDrawSeat.objects.filter(tournament=tournament)
        .exclude(entry__status=Entry.CANCELLED)  # refunded since: the seat is left empty, not given away
        .order_by("session", "table", "seat")
        .values_list("session", "table", "seat", "entry__number", "entry__person__first_name", "entry__person__last_name")
    ]
