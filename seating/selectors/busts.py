"""Busts, what their knockouts won, and the finishing places so far (ELM)."""

from tournaments.models import Entry
from tournaments.signals import ask_one

from .. import signals
from ..models import Bust


def busts(tournament, limit: int | None = None) -> list[dict]:
    """Busts, newest first, with place, tie size, where and when; in a bounty event (PAY-02)
    ``knocked_out_by``: the knockouts of each (``knockouts``), the eliminators in the order named."""
    qs = Bust.objects.filter(tournament=tournament).select_related("entry__person", "reported_by").order_by("-order")
    if limit:
        qs = qs[:limit]
    rows = [
        {
            "id": b.pk,
            "entry": b.entry_id,
            "entry_number": b.entry.number,
            "player": b.entry.person.full_name,
            "table": b.table_number,
            "seat": b.seat_number,
            "order": b.order,
            "place": b.place,
            "shared_with": b.shared_with,
            "starting_stack": b.starting_stack,
            "hand_group": b.hand_group,
            "h4h_hand": b.h4h_hand,
            "kind": b.kind,
            "busted_at": b.busted_at.isoformat(),
            "reported_by": b.reported_by.get_username() if b.reported_by_id else None,
            "void": b.void,
            "reason": b.reason,
            "simultaneous": b.simultaneous_group is not None,
            "simultaneous_reason": b.simultaneous_reason,
        }
        for b in qs
    ]
    won = knockouts(tournament, [r["id"] for r in rows]) if rows else None
    if won is not None:  # a bounty event (PAY-02): who knocked each one out, and what it won
        by_bust: dict[int, list[dict]] = {}
        for k in won:
            by_bust.setdefault(k["bust"], []).append(k)
        for r in rows:
            r["knocked_out_by"] = by_bust.get(r["id"], [])
    return rows


def knockouts(tournament, busts, winner: int | None = None) -> list[dict] | None:
    """What the knockouts of these busts (ids) won in a bounty event, and with ``winner`` the
    last player's own bounty (``signals.knockouts_wanted``, payouts answers); None in any
    other event."""
    return ask_one(signals.knockouts_wanted, tournament=tournament, busts=list(busts), winner=winner)


def standings(tournament) -> list[dict]:
    """Finishing places so far (ELM): the winner once one player is left, then every bust
    that counts, best place first; a shared place lists all its players with ``shared_with``."""
    rows = []
    for b in Bust.objects.filter(tournament=tournament, void="").select_related("entry__person").order_by("place", "order"):
        rows.append({"entry": b.entry_id, "entry_number": b.entry.number, "player": b.entry.person.full_name, "place": b.place, "shared_with": b.shared_with})
    winner = Entry.objects.filter(tournament=tournament, status=Entry.ACTIVE, place=1).select_related("person").first()
    if winner:
        rows.insert(0, {"entry": winner.pk, "entry_number": winner.number, "player": winner.person.full_name, "place": 1, "shared_with": 1})
    return rows
