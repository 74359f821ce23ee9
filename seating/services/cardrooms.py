"""The room's physical tables: the inventory the director keeps, and the tables an
event takes from it and gives back.

An event plays in the room its first draw finds (its house setting ``room``, else the venue's
first room with free tables enough; none kept: the event numbers its own tables as before) and keeps it
(``SeatingState.card_room``). Its draws take free tables of that room in the house's order
(``seating.engine.rooms``) and give the engine their numbers, so every page shows the number on
the felt. The seat map's write-back (``room.Room``) is the one place tables open and close:
there the event takes the tables it opens (``take``: refused, and the whole action with it, when
another event holds one) and gives back those it closes (``give_back``), so a broken table is
free for the next event at once. An event that finished or was cancelled holds nothing.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tdmanager import shown_text
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.transactions import service
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_event
from tournaments.models import Tournament
from tournaments.setup import lifecycle

from .. import engine
from ..models import ENDED_EVENTS as ENDED
from ..models import CardRoom, RoomTable, SeatingState, Table
from . import dealers


class RoomError(DomainError):
    """A draw the room's tables cannot hold; ``code`` says why."""


MIN_SEATS, MAX_SEATS = 2, 10  # heads-up tables to 10-max


def _available(room_id: int, tournament_id: int):
    """The tables of the room this event may take: in service, held by nobody else still
    playing, kept for nobody else still to play."""
    return (
        RoomTable.objects.filter(room_id=room_id, out_of_service="")
        .filter(Q(held_by__isnull=True) | Q(held_by_id=tournament_id) | Q(held_by__status__in=ENDED))
        .filter(Q(reserved_for__isnull=True) | Q(reserved_for_id=tournament_id) | Q(reserved_for__status__in=ENDED))
    )


def room_of_new_draw(tournament_id: int, rules, tables: int) -> int | None:
    """The room a tournament's first draw takes its ``tables`` from: its house setting ``room``,
    else the first room, in the staff's order, with that many free tables of its size (a main hall
    overflowing into the side room), else the first room (whose draw is then refused with the
    tables missing); None when the venue keeps no room."""
    if rules.room is not None:
        if not CardRoom.objects.filter(pk=rules.room).exists():
            raise RoomError("unknown_room", _("The room this tournament is set to play in does not exist."))
        return rules.room
    rooms = list(CardRoom.objects.filter(tables__isnull=False).distinct().order_by("position", "pk").values_list("pk", flat=True))
    for room_id in rooms:
        if _available(room_id, tournament_id).filter(seats__gte=rules.table_size).count() >= tables:
            return room_id
    return rooms[0] if rooms else None


def play_in(tournament_id: int, room_id: int) -> None:
    """The tournament plays in this room from now on (its first draw)."""
    SeatingState.objects.filter(tournament_id=tournament_id).update(card_room_id=room_id)


def numbers_for(tournament_id: int, room_id: int, count: int, *, seats: int, zone: str = "", exclude=()) -> list[int]:
    """The numbers of ``count`` free tables of the room for the tournament, those kept for it
    first, then in the house's order; refused (``room_full``, with how many are missing) when the room has too few."""
    if count <= 0:
        return []
    free = [
        engine.FreeTable(number, seats_, zone_, position, kept == tournament_id)
        for number, seats_, zone_, position, kept in _available(room_id, tournament_id).values_list("number", "seats", "zone", "position", "reserved_for_id")
    ]
    chosen, missing = engine.choose_tables(free, count, seats=seats, zone=zone, exclude=exclude)
    if missing:
        raise RoomError(
            "room_full",
            ngettext(
                "The room has not enough free tables of %(seats)s seats: %(missing)s is missing.",
                "The room has not enough free tables of %(seats)s seats: %(missing)s are missing.",
                missing,
            )
            % {"seats": seats, "missing": missing},
            missing=missing,
        )
    return chosen


def take(tournament_id: int, room_id: int, numbers) -> None:
    """The tournament now plays at these tables of its room. The rows are locked first, so two
    events drawing at once never both get one; refused (``table_taken``, naming the tables) when
    one is held or kept by another event still playing, out of service, or not in the room."""
    numbers = sorted(set(numbers))
    rows = list(RoomTable.objects.select_for_update().filter(room_id=room_id, number__in=numbers).order_by("pk"))
    ok = {r.number for r in _available(room_id, tournament_id).filter(pk__in=[r.pk for r in rows])}
    refused = [n for n in numbers if n not in ok]
    if refused:
        raise RoomError(
            "table_taken",
            _("Table %(tables)s of the room is not free (another event plays there, or it is out of service).") % {"tables": ", ".join(map(str, refused))},
            tables=refused,
        )
    RoomTable.objects.filter(pk__in=[r.pk for r in rows]).update(held_by_id=tournament_id, reserved_for=None)
    dealers.table_opened(room_id, numbers)  # a table that opens asks for a dealer


def give_back(tournament_id: int, room_id: int, numbers) -> None:
    """The tournament no longer plays at these tables: free for the next event at once."""
    RoomTable.objects.filter(room_id=room_id, number__in=list(numbers), held_by_id=tournament_id).update(held_by=None)
    dealers.table_closed(room_id, numbers)  # its dealer goes to the pool
    lifecycle.tables_freed()  # an event waiting for tables may start now


def event_ended(tournament_id: int) -> None:
    """An event that finished or was cancelled holds no table: the room has them back, their
    dealers wait in the pool."""
    held = list(RoomTable.objects.filter(held_by_id=tournament_id).values_list("room_id", "number"))
    if held:
        RoomTable.objects.filter(held_by_id=tournament_id).update(held_by=None)
        for room_id in {r for r, _n in held}:
            dealers.table_closed(room_id, [n for r, n in held if r == room_id])
    if held or RoomTable.objects.filter(reserved_for_id=tournament_id).exists():
        lifecycle.tables_freed()


def keep_for(tournament_id: int, room_id: int, numbers) -> None:
    """A draw in advance put the tournament's players at these tables: kept for it until it
    plays there (or ends)."""
    RoomTable.objects.filter(room_id=room_id, reserved_for=tournament_id).exclude(number__in=list(numbers)).update(reserved_for=None)
    RoomTable.objects.filter(room_id=room_id, number__in=list(numbers)).update(reserved_for_id=tournament_id)


# --- the inventory (the director) -----------------------------------------------------------


def _locked_table(room_id: int, number: int) -> RoomTable:
    row = RoomTable.objects.select_for_update().filter(room_id=room_id, number=number).select_related("room").first()
    if row is None:
        raise DomainError("not_found", _("The room has no table %(n)s.") % {"n": number}, status=404)
    return row


def _playing(t_id: int | None) -> Tournament | None:
    """The event behind a hold or a reservation, unless it ended (then it holds nothing)."""
    if t_id is None:
        return None
    return Tournament.objects.exclude(status__in=ENDED).filter(pk=t_id).only("id", "name", "status").first()


def _check_seats(seats) -> int:
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValidationFailed("invalid", _("Seats: a number from %(lo)s to %(hi)s.") % {"lo": MIN_SEATS, "hi": MAX_SEATS}, field="seats")
    return seats


def _check_text(value, field: str, limit: int) -> str:
    if not isinstance(value, str) or len(value.strip()) > limit or "\n" in value:
        raise ValidationFailed("invalid", _("%(field)s: at most %(n)s characters on one line.") % {"field": field, "n": limit}, field=field)
    labels = {"name": _("Name"), "zone": _("Zone"), "reason": _("Reason")}
    return shown_text.check(value, field, labels.get(field, field)).strip()


@service
def save_room(name: str, *, actor, room: CardRoom | None = None, position: int | None = None) -> CardRoom:
    """Add a room (``room`` None) or rename one."""
    name = _check_text(name, "name", 60)
    if not name:
        raise ValidationFailed("invalid", _("A room needs a name."), field="name")
    row = CardRoom() if room is None else CardRoom.objects.select_for_update().get(pk=room.pk)
    row.name = name
    if position is not None:
        row.position = position
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:
        raise DomainError("room_exists", _("A room of that name already exists."), field="name") from None
    log_event(None, Action.ROOM_SAVED, actor, room=row.pk, name=row.name)
    return row


@service
def save_table(
    room: CardRoom, number: int, *, actor, seats: int | None = None, zone: str | None = None, position: int | None = None, create: bool = True
) -> RoomTable:
    """Add table ``number`` to the room (unless ``create`` is False: a change only), or change
    its seats, zone or place in the house's order. A table an event plays at keeps its seats
    until the event gives it back."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 9999:
        raise ValidationFailed("invalid", _("Table number: from 1 to 9999."), field="number")
    row = RoomTable.objects.select_for_update().filter(room_id=room.pk, number=number).first()
    if row is None and not create:
        raise DomainError("not_found", _("The room has no table %(n)s.") % {"n": number}, status=404)
    if row is None:
        row = RoomTable(room_id=room.pk, number=number, seats=9, position=number)
    if seats is not None:
        seats = _check_seats(seats)
        holder = _playing(row.held_by_id)
        if row.pk and seats != row.seats and holder is not None:
            raise DomainError(
                "table_in_use", _("Table %(n)s is in use by %(event)s: its seats change once the event gives it back.") % {"n": number, "event": holder.name}
            )
        row.seats = seats
    if zone is not None:
        row.zone = _check_text(zone, "zone", 30)
    if position is not None:
        if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= 99999:
            raise ValidationFailed("invalid", _("Order: a whole number from 0 to 99999."), field="position")
        row.position = position
    row.save()
    lifecycle.tables_freed()
    log_event(None, Action.ROOM_TABLE_SAVED, actor, room=room.pk, room_name=room.name, table=row.number, seats=row.seats, zone=row.zone)
    return row


MAX_RANGE = 200  # tables added at once: a large casino's floor, not a typo's 1–9999


@service
def add_tables(room: CardRoom, first: int, last: int, *, actor, seats: int = 9, zone: str = "") -> dict:
    """Tables ``first`` to ``last`` added to the room in one step (a new room's floor: 1–12, nine
    seats), each in the house's order by its number. A table of the range the room already has is
    left as it is and named in the answer: ``{"added": [...], "kept": [...]}``. Refused whole
    (nothing added) when the range or the seats are not valid."""
    for field, value in (("first", first), ("last", last)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 9999:
            raise ValidationFailed("invalid", _("%(field)s: %(problem)s") % {"field": _("Table number"), "problem": _("from 1 to 9999.")}, field=field)
    if last < first:
        raise ValidationFailed("invalid", _("%(field)s: %(problem)s") % {"field": _("Last table"), "problem": _("not before the first.")}, field="last")
    if last - first + 1 > MAX_RANGE:
        raise ValidationFailed(
            "invalid", _("%(field)s: %(problem)s") % {"field": _("Last table"), "problem": _("at most %(n)s tables at once.") % {"n": MAX_RANGE}}, field="last"
        )
    seats, zone = _check_seats(seats), _check_text(zone or "", "zone", 30)
    room = CardRoom.objects.select_for_update().get(pk=room.pk)  # two ranges at once: one after the other
    kept = set(RoomTable.objects.filter(room_id=room.pk, number__range=(first, last)).values_list("number", flat=True))
    added = [n for n in range(first, last + 1) if n not in kept]
    RoomTable.objects.bulk_create([RoomTable(room_id=room.pk, number=n, seats=seats, zone=zone, position=n) for n in added])
    if added:
        lifecycle.tables_freed()  # an event waiting for tables may start now
        log_event(None, Action.ROOM_TABLES_ADDED, actor, room=room.pk, room_name=room.name, first=first, last=last, seats=seats, zone=zone, added=len(added))
    return {"added": added, "kept": sorted(kept)}


@service
def remove_table(room: CardRoom, number: int, *, actor) -> None:
    """Take a table out of the inventory (sold, moved to another room). Refused while an event
    plays there or a draw in advance put players there."""
    row = _locked_table(room.pk, number)
    holder = _playing(row.held_by_id) or _playing(row.reserved_for_id)
    if holder is not None:
        raise DomainError("table_in_use", _("Table %(n)s is in use by %(event)s.") % {"n": number, "event": holder.name})
    row.delete()
    log_event(None, Action.ROOM_TABLE_REMOVED, actor, room=room.pk, room_name=room.name, table=number)


@service
def set_out_of_service(room: CardRoom, number: int, reason: str, *, actor) -> RoomTable:
    """A table nobody may play at (a torn felt, a broken shuffler): why, in a few words. Refused
    while an event plays there (the floor breaks it first)."""
    reason = _check_text(reason, "reason", 120)
    if not reason:
        raise ValidationFailed("reason_required", _("Say why the table is out of service."), field="reason")
    row = _locked_table(room.pk, number)
    holder = _playing(row.held_by_id)
    if holder is not None:
        raise DomainError("table_in_use", _("Table %(n)s is in use by %(event)s: break it first.") % {"n": number, "event": holder.name})
    row.out_of_service = reason
    row.save(update_fields=["out_of_service"])
    log_event(None, Action.ROOM_TABLE_OUT, actor, room=room.pk, room_name=room.name, table=number, reason=reason)
    return row


@service
def back_in_service(room: CardRoom, number: int, *, actor) -> RoomTable:
    row = _locked_table(room.pk, number)
    if row.out_of_service:
        row.out_of_service = ""
        row.save(update_fields=["out_of_service"])
        lifecycle.tables_freed()
        log_event(None, Action.ROOM_TABLE_BACK, actor, room=room.pk, room_name=room.name, table=number)
    return row


@service
def reserve(room: CardRoom, number: int, tournament, *, actor) -> RoomTable:
    """Keep a free table for an event still to start (it takes it at its draw, before any
    other table); refused when the table is not free."""
    t = Tournament.objects.filter(pk=getattr(tournament, "pk", tournament)).first()
    if t is None:
        raise DomainError("not_found", _("There is no such tournament."), status=404, field="tournament")
    if t.status in ENDED or t.status == Tournament.RUNNING:
        raise DomainError("bad_status", _("A table is kept only for an event that has not started."))
    row = _locked_table(room.pk, number)
    other = _playing(row.held_by_id) or (_playing(row.reserved_for_id) if row.reserved_for_id != t.pk else None)
    if other is not None or row.out_of_service:
        raise DomainError("table_taken", _("Table %(n)s is not free.") % {"n": number}, tables=[number])
    row.reserved_for = t
    row.save(update_fields=["reserved_for"])
    log_event(t, Action.ROOM_TABLE_RESERVED, actor, room=room.pk, room_name=room.name, table=number)
    return row


@service
def lift_reservation(room: CardRoom, number: int, *, actor) -> RoomTable:
    row = _locked_table(room.pk, number)
    if row.reserved_for_id is not None:
        t_id = row.reserved_for_id
        row.reserved_for = None
        row.save(update_fields=["reserved_for"])
        lifecycle.tables_freed()
        log_event(Tournament.objects.filter(pk=t_id).first(), Action.ROOM_TABLE_RELEASED, actor, room=room.pk, room_name=room.name, table=number)
    return row


# --- events that started before the room had tables ------------------------------------------


def playing_without_a_room():
    """The running events that number their own tables (they started before the venue kept a
    room, or in a room of none): the events ``bring_in`` can bring to a room's tables."""
    return Tournament.objects.filter(status=Tournament.RUNNING, seating_state__card_room__isnull=True).order_by("pk")


@service
def bring_in(room: CardRoom, *, actor) -> dict:
    """The events playing without a room (``playing_without_a_room``) play at this room's tables
    of the same numbers, so nobody moves: each whose tables in play are all in the room, free
    and with seats enough takes them (held, a dealer asked for, on the room map); one that
    cannot keeps numbering its own, named with why (``not_in_room``, ``taken`` or
    ``too_small``, and the tables). Returns ``{"brought_in": [...], "left": [...]}``."""
    brought, left = [], []
    for t in playing_without_a_room():
        tables = dict(Table.objects.filter(tournament=t, in_play=True).values_list("number", "capacity"))
        if not tables:
            continue
        rows = {r.number: r for r in RoomTable.objects.select_for_update().filter(room_id=room.pk, number__in=list(tables)).order_by("pk")}
        free = set(_available(room.pk, t.pk).filter(number__in=list(rows)).values_list("number", flat=True))
        problems = (
            ("not_in_room", sorted(n for n in tables if n not in rows)),
            ("taken", sorted(n for n in rows if n not in free)),
            ("too_small", sorted(n for n, r in rows.items() if r.seats < tables[n])),
        )
        code, numbers = next(((c, ns) for c, ns in problems if ns), (None, []))
        if code is not None:
            left.append({"id": t.pk, "name": t.name, "code": code, "tables": numbers})
            continue
        RoomTable.objects.filter(pk__in=[r.pk for r in rows.values()]).update(held_by_id=t.pk, reserved_for=None)
        play_in(t.pk, room.pk)
        dealers.table_opened(room.pk, sorted(tables))
        numbers = ", ".join(map(str, sorted(tables)))
        log_event(t, Action.ROOM_EVENT_BROUGHT_IN, actor, room=room.pk, room_name=room.name, tables=sorted(tables), numbers=numbers)
        brought.append({"id": t.pk, "name": t.name, "tables": sorted(tables)})
    return {"brought_in": brought, "left": left}
