"""The seating reads other apps ask for: a seat, the tables in play, hand-for-hand busts, the phone's view.

Asked through ``seating.receivers`` (the receipts and the desk, the clock's hand-for-hand
reporting, the floor tools and overview, the player's phone, the tournament page); payouts
may import them too. They read the database, never the services' in-memory room.
"""

from django.urls import reverse
from django.utils.translation import gettext as _

from tdmanager.compiled import Compiled

from .. import engine
from ..models import Bust, PendingMove, PreDrawSeat, Seat, Table
from .predraw import schedule_of, shows_schedule
from .tables import engine_tables

# Every sale's answer asks it (the entry's seat): compiled once (tdmanager.compiled).
_SEAT_OF = Compiled(lambda pk: Seat.objects.filter(pk=pk).order_by().values_list("table__number", "number")[:1], Seat)


def seat_of(entry):
    """``{"table": n, "seat": s}`` for a seated entry, else None."""
    if entry is None or getattr(entry, "pk", None) is None:
        return None
    rows = _SEAT_OF.rows(int(entry.pk))
    return {"table": rows[0][0], "seat": rows[0][1]} if rows else None


def players_at_table(tournament, table_number: int) -> int:
    """PEN-03: the players seated at table ``table_number`` in play (a penalty of one round lasts
    that many hands)."""
    return Seat.objects.filter(tournament=tournament, table__number=table_number, table__in_play=True).count()


def table_numbers(tournament) -> list[int]:
    """CLK-06: the numbers of the tables in play (with players), in order: the tables that report
    each hand-for-hand hand."""
    return list(Table.objects.filter(tournament=tournament, in_play=True, seats__isnull=False).distinct().order_by("number").values_list("number", flat=True))


def h4h_hand_busts(tournament, hand: int) -> int:
    """CLK-06: how many players went out in hand-for-hand hand ``hand`` of the session in play: the run
    of the latest standing busts that carry its number (each session numbers its hands from 1,
    ``services.busts._engine_busts``)."""
    out = 0
    for number in Bust.objects.filter(tournament=tournament, void="").order_by("-order").values_list("h4h_hand", flat=True)[:1000]:
        if number != hand:
            break
        out += 1
    return out


def last_bust_h4h_hand(tournament) -> int | None:
    """CLK-06: the hand-for-hand hand number of the latest standing bust (None: none, or out in
    normal play)."""
    return Bust.objects.filter(tournament=tournament, void="").order_by("-order").values_list("h4h_hand", flat=True).first()


def tv_table(tournament) -> dict | None:
    """ROLE-08 / SEAT-07: the TV table in play, ``{"table": n, "is_final": bool}``, or None."""
    row = Table.objects.filter(tournament=tournament, in_play=True, tv=True).values("number", "is_final").first()
    return {"table": row["number"], "is_final": row["is_final"]} if row else None


def room_for_entry(tournament) -> dict:
    """REG-04 / BAL-09: whether the final table is formed and whether a new player would find an
    open seat at a table in play (else the seat pool opens a new table), ``{"final_table_formed",
    "free_seat"}``. A seat counts open unless it is taken, locked, at a locked table, or about to
    be filled by a proposed balancing move (as ``seat_new_entry`` draws). Before the final table
    (every late sale of the evening) one read answers: ``free_seat`` is then None, not looked at."""
    tables = list(Table.objects.filter(tournament=tournament, in_play=True).values("id", "number", "capacity", "locked", "locked_seats", "is_final"))
    if not any(tb["is_final"] for tb in tables):
        return {"final_table_formed": False, "free_seat": None}
    taken: dict[int, set[int]] = {}
    for table_id, number in Seat.objects.filter(tournament=tournament, table__in_play=True).values_list("table_id", "number"):
        taken.setdefault(table_id, set()).add(number)
    coming: dict[int, set[int]] = {}
    for to_table, to_seat in PendingMove.objects.filter(tournament=tournament, status=PendingMove.PROPOSED).values_list("to_table", "to_seat"):
        coming.setdefault(to_table, set()).add(to_seat)
    free = any(
        not tb["locked"]
        and any(
            s not in taken.get(tb["id"], set()) and s not in set(tb["locked_seats"] or []) and s not in coming.get(tb["number"], set())
            for s in range(1, tb["capacity"] + 1)
        )
        for tb in tables
    )
    return {"final_table_formed": any(tb["is_final"] for tb in tables), "free_seat": free}


def tournament_links(tournament) -> list[dict]:
    """Buttons the tournament page shows for this app: [{"label", "url"}]."""
    return [
        {"label": _("Tables"), "url": reverse("seating-tables", args=[tournament.pk])},
        {"label": _("Seat lookup"), "url": reverse("seating-lookup", args=[tournament.pk])},
        {"label": _("Sessions drawn in advance"), "url": reverse("seating-predraw", args=[tournament.pk])},
    ]


def entry_view(entry) -> dict:
    """What the player's phone page shows of seating, for this entry alone: his or her seat and
    the move still to make (where to go), never anybody else's; before the start, the schedule
    drawn in advance (SEAT-02)."""
    move = (
        PendingMove.objects.filter(tournament_id=entry.tournament_id, entry=entry, status=PendingMove.PROPOSED)
        .order_by("id")
        .values("kind", "from_table", "from_seat", "to_table", "to_seat")
        .first()
    )
    schedule = schedule_of(entry.pk) if shows_schedule(entry.tournament) else None
    return {"seat": seat_of(entry), "move": move, "schedule": schedule}


def entries_view(tournament) -> dict[int, dict]:
    """``entry_view`` for every entry of the tournament in three queries: ``{entry id: {"seat",
    "move", "schedule"}}`` for the entries seated, with a move to make or pre-drawn (SEAT-02)."""
    seats = {
        entry: {"table": table, "seat": seat}
        for entry, table, seat in Seat.objects.filter(tournament=tournament).values_list("entry_id", "table__number", "number")
    }
    moves: dict[int, dict] = {}
    for move in (
        PendingMove.objects.filter(tournament=tournament, status=PendingMove.PROPOSED)
        .order_by("-id")
        .values("entry_id", "kind", "from_table", "from_seat", "to_table", "to_seat")
    ):
        moves[move.pop("entry_id")] = move  # read newest first: the oldest slip of an entry is kept, as entry_view shows
    schedules = (
        {
            entry: {"session": session, "table": table, "seat": seat}
            for entry, session, table, seat in PreDrawSeat.objects.filter(tournament=tournament).values_list("entry_id", "session", "table", "seat")
        }
        if shows_schedule(tournament)
        else {}
    )
    return {
        entry: {"seat": seats.get(entry), "move": moves.get(entry), "schedule": schedules.get(entry)}
        for entry in seats.keys() | moves.keys() | schedules.keys()
    }


def overview(tournament) -> dict:
    """BAL-02: the floor overview's seating columns: tables in play, moves pending, halted tables."""
    tables, rows = engine_tables(tournament)
    halted = [n for n in engine.halted_tables(tables) if not rows[n].halt_waived]
    return {
        "tables": sum(1 for t in tables if t.seats),
        "moves_pending": PendingMove.objects.filter(tournament=tournament, status=PendingMove.PROPOSED).count(),
        "halted_tables": halted,
    }
