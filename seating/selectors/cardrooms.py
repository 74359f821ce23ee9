"""The room's physical tables at a glance: free, in use by an event, kept, out of service."""

from django.db.models import Count
from django.utils.translation import gettext as _

from tdmanager.errors import DomainError
from tournaments.house import HouseRules
from tournaments.models import Tournament

from .. import engine
from ..models import ENDED_EVENTS, CardRoom, RoomTable, Seat
from .dealers import room_dealers
from .tables import engine_tables

#: A physical table's state on the room map.
FREE, IN_USE, RESERVED, OUT_OF_SERVICE = "FREE", "IN_USE", "RESERVED", "OUT_OF_SERVICE"


def rooms() -> list[dict]:
    """The venue's rooms, in the staff's order, each with how many tables it has."""
    return [{"id": r.pk, "name": r.name, "tables": r.n} for r in CardRoom.objects.annotate(n=Count("tables")).order_by("position", "pk")]


def room_map(room_id: int) -> dict:
    """Every table of the room at a glance: its state (free, in use by an event, kept for an event
    still to start, out of service and why), the event and how many play there, and whether it
    breaks next in its event; with the counts of each state. An event that ended holds nothing."""
    room = CardRoom.objects.filter(pk=room_id).first()
    if room is None:
        raise DomainError("not_found", _("There is no such room."), status=404)
    rows = list(
        RoomTable.objects.filter(room=room)
        .select_related("held_by", "reserved_for")
        .only(
            "number",
            "seats",
            "zone",
            "position",
            "out_of_service",
            "held_by__name",
            "held_by__status",
            "reserved_for__name",
            "reserved_for__status",
            "reserved_for__start_at",
        )
        .order_by("position", "number")
    )
    playing = {r.held_by_id for r in rows if r.held_by_id and r.held_by.status not in ENDED_EVENTS}
    players: dict[tuple[int, int], int] = {}
    for tid, number, n in (
        Seat.objects.filter(tournament_id__in=playing, table__in_play=True).values_list("tournament_id", "table__number").annotate(n=Count("pk")).order_by()
    ):
        players[(tid, number)] = n
    breaks_next = {}
    for tid in playing:
        t = Tournament.objects.only("id", "settings", "table_size", "rule_set", "game").get(pk=tid)
        tables, _rows = engine_tables(t)
        breaks_next[tid] = engine.next_table_to_break(tables, HouseRules.of(t).break_order)
    out = []
    for r in rows:
        event = r.held_by if r.held_by_id in playing else None
        kept = r.reserved_for if r.reserved_for_id and r.reserved_for.status not in ENDED_EVENTS else None
        if r.out_of_service:
            state = OUT_OF_SERVICE
        elif event is not None:
            state = IN_USE
        elif kept is not None:
            state = RESERVED
        else:
            state = FREE
        out.append(
            {
                "number": r.number,
                "seats": r.seats,
                "zone": r.zone,
                "position": r.position,
                "state": state,
                "out_of_service": r.out_of_service,
                "event": {"id": event.pk, "name": event.name} if event else None,
                "players": players.get((event.pk, r.number), 0) if event else 0,
                "breaks_next": bool(event) and breaks_next.get(event.pk) == r.number,
                "reserved_for": {"id": kept.pk, "name": kept.name, "start_at": kept.start_at.isoformat() if kept.start_at else None} if kept else None,
            }
        )
    dealing = room_dealers(room.pk)
    for tb in out:
        tb["dealer"] = dealing.get(tb["number"])
    counts = {s: sum(1 for t in out if t["state"] == s) for s in (FREE, IN_USE, RESERVED, OUT_OF_SERVICE)}
    return {"room": {"id": room.pk, "name": room.name}, "tables": out, "counts": counts, "players": sum(t["players"] for t in out)}
