"""Floor actions on a table: blinds, hand completed (and the hand-for-hand hand closed everywhere), locks, break order, halt waivers.

Every action is logged with who did it and why, and the balancing plan is made again.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tdmanager.errors import ValidationFailed
from tdmanager.transactions import service
from tournaments.clock import services as clock_services
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import judged, log_event
from tournaments.floor import services as floor
from tournaments.models import Clock, Tournament

from .. import engine
from ..models import PendingMove, Seat, Table
from . import dealers
from .plan import Outcome, SeatingActionError, engine_errors, house, replan_between_hands, settle
from .room import clock_of, lock


def _table(room, number: int) -> engine.Table:
    table = room.table(number)
    if table is None:
        raise SeatingActionError("unknown_table", _("Table %(n)s is not in play.") % {"n": number}, status=404)
    return table


def _check_seat(table: engine.Table, seat, what: str):
    if seat is None:
        return
    if not isinstance(seat, int) or not 1 <= seat <= table.capacity:
        raise ValidationFailed("bad_seat", _("%(what)s must be a seat from 1 to %(c)s.") % {"what": what, "c": table.capacity})


def _copy(table: engine.Table, **changes) -> engine.Table:
    fields = {
        "big_blind_seat": table.big_blind_seat,
        "previous_big_blind_seat": table.previous_big_blind_seat,
        "locked_seats": table.locked_seats,
        "locked": table.locked,
        "big_blind_twice": table.big_blind_twice,
    }
    fields.update(changes)
    return engine.Table(table.number, table.capacity, table.seats, **fields)


@service
def set_big_blind(tournament, table_number: int, big_blind_seat: int, *, actor, previous_big_blind_seat: int | None = None, reason: str = "", now=None):
    """Set or correct where the big blind was on the last hand dealt at a table (POS-01).

    ``previous_big_blind_seat`` is the big blind of the hand before (the button of the
    next hand); leave it out when there was no dead blind, and it is taken as the occupied
    seat before the big blind.
    """
    t, room = lock(tournament)
    table = _table(room, table_number)
    _check_seat(table, big_blind_seat, _("The big blind"))
    _check_seat(table, previous_big_blind_seat, _("The big blind of the hand before"))
    old = (table.big_blind_seat, table.previous_big_blind_seat)
    room.put(_copy(table, big_blind_seat=big_blind_seat, previous_big_blind_seat=previous_big_blind_seat, big_blind_twice=False))
    nxt = engine.next_hand_positions(room.table(table_number))
    return settle(
        t,
        room,
        actor,
        Action.SEATING_BIG_BLIND_SET,
        now=now,
        snapshots=False,
        table=table_number,
        big_blind_seat=big_blind_seat,
        previous_big_blind_seat=previous_big_blind_seat,
        was=list(old),
        reason=reason,
        next_hand={"button": nxt.button, "small_blind": nxt.small_blind, "big_blind": nxt.big_blind},
    )


@service
def hand_completed(tournament, table_number: int, *, actor, now=None):
    """A table finished a hand: the blinds move on (POS-01). Players waiting for the button
    are dealt in once it has passed them (SEAT-05). During hand-for-hand this also reports
    the table's hand to the clock (CLK-06), and the balancing moves off or onto the table that
    waited for its hand are proposed, their players chosen from the blinds moved on."""
    t, room = lock(tournament)
    actor = judged(t, actor)  # a tap time before the start is not believed
    table = _table(room, table_number)
    if room.card_room is not None and actor.user is not None and dealers.reports_as_dealer(actor.user):
        dealers.check_dealer_at(t, room.card_room, table_number, actor.user, actor.tapped_at)  # a rostered dealer: his table only (then)
    clock = clock_of(t)
    hand_for_hand = clock is not None and clock.status == Clock.HAND_FOR_HAND
    # PEN-03: the table's own hand counts the penalties of the players sitting there.
    floor.hands_completed(t, table_number, list(table.seats.values()), actor=actor)
    # CLK-06: the clock hears of the table's hand first; when it was the last table still
    # playing, the hand is over everywhere (the next one starts, or hand-for-hand ends with the
    # hand that reached the money) and the breaks and the final table the hand's busts held
    # back are made now (``busts.record_bust``).
    report = clock_services.report_hand_complete(t, table_number, actor=actor, now=now) if hand_for_hand else None
    structural = report is None or report["next_hand_started"] or report["hand_for_hand_ended"]
    if table.big_blind_seat is None:
        if hand_for_hand:  # the blinds cannot move yet, but the tables may break and the moves that waited for this hand are made
            out = settle(t, room, actor, Action.SEATING_HAND_COMPLETED, now=now, structural=structural, table=table_number)
            out.hand_for_hand = report
            return out
        raise SeatingActionError("big_blind_unknown", _("Set the big blind of table %(n)s first.") % {"n": table_number})
    new = engine.advance_hand(table)
    room.put(new)
    dealt_in = []
    for entry, seat in Seat.objects.filter(tournament=t, table__number=table_number, table__in_play=True, wait_for_button=True).values_list(
        "entry_id", "number"
    ):
        if not engine.is_between_button_and_small_blind(new, seat):
            room.wait[entry] = False
            dealt_in.append(entry)
    nxt = engine.next_hand_positions(new)
    out = settle(
        t,
        room,
        actor,
        Action.SEATING_HAND_COMPLETED,
        now=now,
        snapshots=False,
        structural=structural,
        table=table_number,
        big_blind_seat=new.big_blind_seat,
        dealt_in=dealt_in,
        next_hand={"button": nxt.button, "small_blind": nxt.small_blind, "big_blind": nxt.big_blind},
    )
    out.hand_for_hand = report
    return out


@service
def hand_closed_everywhere(tournament, *, actor, now=None):
    """CLK-06: the director closed the hand-for-hand hand at every table at once (the next
    hand, or hand-for-hand ended): the balancing moves that waited for a table's hand are made
    now, the player chosen from the blinds as they stand. Nothing to do (no read of the seat
    map) when no move waits."""
    tid = int(getattr(tournament, "pk", tournament))
    if not PendingMove.objects.filter(tournament_id=tid, status=PendingMove.WAITING).exists():
        return None
    t, room = lock(tid)
    return replan_between_hands(t, room, actor, now)


@service
def misdeal(tournament, table_number: int, *, actor, reason: str = ""):
    """A misdeal at a table: logged; the blinds stay and the re-deal is the same hand, so no
    penalty hand is served (TDA 35-C, PEN-03): only the "hand completed" after it counts."""
    t, room = lock(tournament)
    _table(room, table_number)
    room.release()
    event = log_event(t, Action.SEATING_MISDEAL_REPORTED, actor, table=table_number, reason=reason)
    return Outcome(event=event)


@service
def lock_table(tournament, table_number: int, locked: bool, *, actor, reason: str = "", now=None):
    """Lock a table (a TV table, a table being serviced): it neither gives nor receives
    players and is never broken; or unlock it."""
    t, room = lock(tournament)
    table = _table(room, table_number)
    room.put(_copy(table, locked=bool(locked)))
    return settle(
        t, room, actor, Action.SEATING_TABLE_LOCKED if locked else Action.SEATING_TABLE_UNLOCKED, now=now, snapshots=False, table=table_number, reason=reason
    )


@service
def set_tv_table(tournament, table_number: int, tv: bool, *, actor, reason: str = ""):
    """Mark the TV (feature) table (ROLE-08, SEAT-07), or unmark it. One TV table at a time:
    marking one unmarks the others. The seat map does not change."""
    t, room = lock(tournament)
    _table(room, table_number)
    room.release()
    if tv:
        Table.objects.filter(tournament=t, tv=True).exclude(number=table_number).update(tv=False)
    Table.objects.filter(tournament=t, number=table_number).update(tv=bool(tv))
    event = log_event(t, Action.SEATING_TABLE_TV_MARKED if tv else Action.SEATING_TABLE_TV_UNMARKED, actor, table=table_number, reason=reason)
    return Outcome(event=event)


@service
def lock_seat(tournament, table_number: int, seat: int, locked: bool, *, actor, reason: str = "", now=None):
    """Lock a seat (broken chair, reserved for special needs): never offered by a draw or a
    balancing move; or unlock it."""
    t, room = lock(tournament)
    table = _table(room, table_number)
    _check_seat(table, seat, _("The seat"))
    seats = set(table.locked_seats)
    if locked:
        seats.add(seat)
    else:
        seats.discard(seat)
    room.put(_copy(table, locked_seats=frozenset(seats)))
    return settle(
        t,
        room,
        actor,
        Action.SEATING_SEAT_LOCKED if locked else Action.SEATING_SEAT_UNLOCKED,
        now=now,
        snapshots=False,
        table=table_number,
        seat=seat,
        reason=reason,
    )


@service
def set_break_order(tournament, order, *, actor, reason: str = "", now=None):
    """Publish the order in which tables break (BAL-06); ``None`` or [] = the default (the
    table with the fewest players, ties the highest number). Stored in the tournament's
    settings as ``break_order``."""
    t, room = lock(tournament)
    if t.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise SeatingActionError("tournament_closed", _("This tournament has ended."))
    try:
        order = [int(n) for n in (order or [])]
    except (TypeError, ValueError):
        raise ValidationFailed("bad_break_order", _("The break order is a list of table numbers.")) from None
    if len(set(order)) != len(order) or any(n < 1 for n in order):
        raise ValidationFailed("bad_break_order", _("The break order lists each table once."))
    was = house(t).break_order
    t.settings = {**(t.settings if isinstance(t.settings, dict) else {}), "break_order": order or None}
    t.save(update_fields=["settings"])
    return settle(t, room, actor, Action.SEATING_BREAK_ORDER_SET, now=now, break_order=order or None, was=was, reason=reason)


@service
def waive_halt(tournament, table_number: int, *, actor, reason: str, now=None):
    """The TD lets a short table play on although it is 3 or more players short (BAL-02,
    TDA 11-D); the waiver ends when the table is no longer short."""
    if not reason.strip():
        raise ValidationFailed("reason_required", _("A waiver needs a reason."))
    t, room = lock(tournament)
    table = _table(room, table_number)
    with engine_errors():
        halted = engine.halted_tables(room.table_list())
    if table_number not in halted:
        raise SeatingActionError("not_halted", _("Table %(n)s is not halted.") % {"n": table_number})
    room.put(table, halt_waived=True)
    return settle(t, room, actor, Action.SEATING_HALT_WAIVED, now=now, snapshots=False, table=table_number, reason=reason.strip())
