"""Seating constraints (SEAT-07): keep-apart pairs and seats reserved by hand.

A keep-apart pair (relatives, partners) is two people who must not sit at one table: every
draw (start, late seat, break, final table) and every balancing move honours it when it
can (``seating.engine``), and a change that cannot is flagged in the event log
(``seating.keep_apart.unmet``, see ``plan.settle``). A pair belongs to one tournament or,
without one, to every tournament.

A reserved seat (special needs, TDA 9) is a table and seat the director gives one entry by
hand, with the reason: it is taken out of the initial draw, and the entry sits there when
it is seated (``draws``). Once the tournament runs, a seated player is moved there by hand
and a seat for a player not seated yet is held (locked) until he sits in it. Balancing
passes over the players in such seats.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from tdmanager.errors import ValidationFailed
from tdmanager.transactions import service
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_event
from tournaments.models import Entry, Person, Tournament

from ..models import KeepApart, Seat, SeatingState, SeatReservation
from .moves import move_player
from .plan import SeatingActionError, settle, with_changes
from .room import forget, lock


def _person(value) -> Person:
    pk = getattr(value, "pk", value)
    try:
        return Person.objects.get(pk=int(pk))
    except (Person.DoesNotExist, TypeError, ValueError):
        raise ValidationFailed("unknown_person", _("No such person.")) from None


def _pairs_changed(t: Tournament | None, *, added: bool = False):
    """The rooms must read the pairs again: this tournament's (its token renewed under its
    lock), or for a venue-wide pair every tournament's (their tokens renewed). ``added``: the
    state rows say there are constraints to read (a tournament without any never reads them)."""
    if added:
        states = SeatingState.objects.filter(tournament=t) if t is not None else SeatingState.objects.all()
        states.filter(constraints=False).update(constraints=True)
    if t is not None:
        _t, room = lock(t)
        room.apart = None
        room.done()
        return
    for state in SeatingState.objects.select_for_update().filter(tournament__status=Tournament.RUNNING):
        state.token = ""  # an empty token never matches a kept room: the next service reads the map again
        state.save(update_fields=["token"])
    forget()


@service
def add_keep_apart(tournament, person_a, person_b, *, actor, reason: str = "", everywhere: bool = False) -> KeepApart:
    """Keep two people at different tables, in this tournament or (``everywhere``) in every one."""
    a, b = _person(person_a), _person(person_b)
    if a.pk == b.pk:
        raise ValidationFailed("same_person", _("A pair needs two different people."))
    t = None if everywhere else tournament
    scope = Q(tournament__isnull=True) | Q(tournament=tournament) if tournament is not None else Q(tournament__isnull=True)
    if KeepApart.objects.filter(scope).filter(Q(person_a=a, person_b=b) | Q(person_a=b, person_b=a)).exists():
        raise SeatingActionError("pair_exists", _("These two are already kept apart."), status=400)
    pair = KeepApart.objects.create(tournament=t, person_a=a, person_b=b, reason=reason[:200], created_by=actor.user)
    if tournament is not None:
        log_event(
            tournament,
            Action.SEATING_KEEP_APART_ADDED,
            actor,
            pair=pair.pk,
            people=[a.pk, b.pk],
            names=[a.full_name, b.full_name],
            everywhere=everywhere,
            reason=reason,
        )
    _pairs_changed(t, added=True)
    _flag_if_together(tournament, a, b, actor)
    return pair


def _flag_if_together(tournament, a: Person, b: Person, actor):
    """A pair added while its two people sit at one table is flagged at once (the floor moves
    one of them by hand); the draws and moves from now on keep them apart."""
    if tournament is None:
        return
    tables: dict[int, set[int]] = {}
    for person, table in Seat.objects.filter(tournament=tournament, entry__person__in=[a, b]).values_list("entry__person_id", "table__number"):
        tables.setdefault(table, set()).add(person)
    together = [n for n, people in tables.items() if len(people) == 2]
    if together:
        entries = sorted(Seat.objects.filter(tournament=tournament, table__number=together[0], entry__person__in=[a, b]).values_list("entry_id", flat=True))
        log_event(tournament, Action.SEATING_KEEP_APART_UNMET, actor, pairs=[{"table": together[0], "entries": entries}], added=True)


@service
def remove_keep_apart(tournament, pair: KeepApart, *, actor, reason: str = ""):
    """Drop a pair (a venue-wide pair is dropped for every tournament)."""
    everywhere = pair.tournament_id is None
    if not everywhere and pair.tournament_id != getattr(tournament, "pk", None):
        raise SeatingActionError("not_found", _("No such pair in this tournament."), status=404)
    people = [pair.person_a_id, pair.person_b_id]
    pair.delete()
    if tournament is not None:
        log_event(tournament, Action.SEATING_KEEP_APART_REMOVED, actor, people=people, everywhere=everywhere, reason=reason)
    _pairs_changed(None if everywhere else tournament)


@service
def reserve_seat(tournament, entry, table: int, seat: int, *, actor, reason: str) -> SeatReservation:
    """Give an entry a seat by hand (special needs, SEAT-07), out of the draw, with the reason.

    Before the seats are drawn: the draw leaves that seat out and seats him there. Once the
    tournament runs: a seated player is moved there by hand (``move_player``, with his
    chips); a player not seated yet finds the seat held for him (locked, so the seat pool
    never gives it away) and sits there when he is seated. Balancing passes him over.
    """
    if not reason.strip():
        raise ValidationFailed("reason_required", _("A seat given by hand needs a reason."))
    t, room = lock(tournament)
    entry = Entry.objects.select_related("person").filter(pk=getattr(entry, "pk", entry), tournament=t).first()
    if entry is None:
        room.release()
        raise ValidationFailed("unknown_entry", _("No such entry number."))
    if table < 1 or not 1 <= seat <= t.table_size:
        room.release()
        raise ValidationFailed("bad_seat", _("%(what)s must be a seat from 1 to %(c)s.") % {"what": _("The seat"), "c": t.table_size})
    live = room.table(table)
    if live is not None and seat in live.seats and live.seats[seat] != entry.pk:
        room.release()
        raise SeatingActionError("seat_taken", _("That seat is taken."), status=400)
    if SeatReservation.objects.filter(tournament=t, table_number=table, seat_number=seat).exclude(entry=entry).exists():
        room.release()
        raise SeatingActionError("seat_reserved", _("That seat is reserved for another player."), status=400)
    res, _created = SeatReservation.objects.update_or_create(
        entry=entry, defaults={"tournament": t, "table_number": table, "seat_number": seat, "reason": reason.strip()[:200], "created_by": actor.user}
    )
    SeatingState.objects.filter(tournament=t).update(constraints=True)
    room.constraints, room.apart = True, None  # balancing reads the seats given by hand again
    payload = {"entry": entry.pk, "entry_number": entry.number, "name": entry.person.full_name, "table": table, "seat": seat, "reason": reason.strip()}
    where = room.seat_of(entry.pk)
    if live is None or where == (table, seat):
        log_event(t, Action.SEATING_SEAT_RESERVED, actor, **payload)
        room.done()
        return res
    if where is None:  # held for him until he is seated
        room.put(with_changes(live, locked_seats=live.locked_seats | {seat}))
        settle(t, room, actor, Action.SEATING_SEAT_RESERVED, snapshots=False, held=True, **payload)
        return res
    log_event(t, Action.SEATING_SEAT_RESERVED, actor, moved=True, **payload)
    room.done()
    move_player(t, entry, table, seat, actor=actor, reason=reason.strip())
    return res


@service
def remove_reservation(tournament, reservation: SeatReservation, *, actor, reason: str = ""):
    """The seat goes back into the draw (and, held for a player not seated yet, into the pool)."""
    data = {"entry": reservation.entry_id, "table": reservation.table_number, "seat": reservation.seat_number}
    t, room = lock(tournament)
    reservation.delete()
    room.apart = None
    live = room.table(data["table"])
    if live is not None and data["seat"] not in live.seats and data["seat"] in live.locked_seats:
        # The seat was held for a player not seated yet: back in the pool.
        room.put(with_changes(live, locked_seats=live.locked_seats - {data["seat"]}))
        settle(t, room, actor, Action.SEATING_SEAT_RESERVATION_REMOVED, snapshots=False, reason=reason, **data)
        return
    log_event(t, Action.SEATING_SEAT_RESERVATION_REMOVED, actor, reason=reason, **data)
    room.done()
