"""Seat draws: the initial draw at the start (SEAT-01, SEAT-08), late seats from the seat
pool (SEAT-03, SEAT-05), and giving a seat back when an entry is cancelled."""

from __future__ import annotations

from typing import NamedTuple

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tdmanager.transactions import service
from tournaments.draws import RNG_NAME  # the seed is logged as "seed"
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_event
from tournaments.models import Entry, Tournament

from .. import engine, replay
from .. import predraw as engine_predraw
from ..models import Bust, ManualDraw, PendingMove, PreDrawSeat, Seat, SeatingState, SeatReservation
from . import cardrooms
from .busts import recompute_places, void_bust
from .plan import SeatingActionError, draw_seed, engine_errors, house, remove_players, settle
from .room import apart_of, lock


@service
def tournament_started(tournament, actor, now=None, seat_later_sessions: bool = False):
    """The tournament has started: draw every paid entry into seats (SEAT-01) and draw the
    button at every table (SEAT-08). Entries paid later are seated from the seat pool.

    SEAT-02: after a draw in advance, the players of its first session sit where it put them
    (``_start_as_predrawn``); paid players it put into a later session make the start a
    refusal (``predraw_later_session``) unless ``seat_later_sessions`` says to seat them now."""
    t, room = lock(tournament)
    if room.tables:
        room.release()
        return None
    return _initial_draw(t, room, actor, now=now, seat_later_sessions=seat_later_sessions)


@service
def draw(tournament, *, actor, redraw: bool = False, reason: str = "", now=None):
    """The director runs the initial draw by hand (it normally runs at the start), or draws
    everybody again (``redraw``) before the first bust, e.g. after a mistake in the room."""
    t, room = lock(tournament)
    if t.status != Tournament.RUNNING:
        raise SeatingActionError("not_running", _("Seats are drawn once the tournament is running."))
    if room.tables and not redraw:
        raise SeatingActionError("already_drawn", _("The seats are already drawn; ask for a redraw to draw again."))
    if redraw:
        if Bust.objects.filter(tournament=t, void="").exists():
            raise SeatingActionError("busts_recorded", _("Players are already out: the seats can no longer be drawn again."))
        if not reason.strip():
            raise SeatingActionError("reason_required", _("A redraw needs a reason."), status=400)
        for number in list(room.tables):
            room.close(number)
        PendingMove.objects.filter(tournament=t, status__in=(PendingMove.PROPOSED, PendingMove.WAITING)).update(status=PendingMove.SUPERSEDED)
        room.proposals.clear()
        room.held.clear()
    if not redraw and ManualDraw.objects.filter(tournament=t, kind=ManualDraw.INITIAL, status=ManualDraw.OPEN).exists():
        raise SeatingActionError("manual_draw_open", _("A manual draw is open: enter the seat cards the players drew."))
    # A redraw draws everybody again; the director's first draw by hand honours a draw in
    # advance as the start does, his asking for it being the confirmation for later sessions.
    return _initial_draw(t, room, actor, now=now, redraw=redraw, reason=reason, seat_later_sessions=True)


def reservations(t) -> dict[int, tuple[int, int]]:
    """Seats reserved by hand (SEAT-07): entry → (table, seat), for the active entries."""
    return {
        e: (tb, s)
        for e, tb, s in SeatReservation.objects.filter(tournament=t, entry__status=Entry.ACTIVE).values_list("entry_id", "table_number", "seat_number")
    }


def _initial_draw(t, room, actor, *, now=None, redraw=False, reason="", seat_later_sessions=False):
    paid = Entry.objects.filter(tournament=t, status=Entry.ACTIVE)
    # REG-05: a person banned after paying is not seated (the desk refunds him, minus expenses);
    # REG-09: a paid no-show already removed is not either.
    skipped = list(paid.filter(person__banned=True).order_by("number").values_list("pk", flat=True))
    entries = list(paid.filter(person__banned=False, no_show_at__isnull=True).order_by("number").values_list("pk", flat=True))
    if not entries:
        room.release()
        return None
    rules = house(t)
    _join_room(t, room, rules, len(entries))
    if not redraw:
        plan = _predraw_plan(t, entries, seat_later_sessions)
        if plan is not None:
            return _start_as_predrawn(t, room, actor, entries, rules, plan, skipped, now=now)
    numbers = _room_numbers(t, room, rules, len(entries))
    reserved = _fitting(reservations(t), entries, rules, numbers)
    room.apart = None  # the entries may have changed since the pairs were read
    if rules.draw_mode == "MANUAL":
        return _open_manual_initial(t, room, actor, entries, reserved, rules, numbers, now=now, redraw=redraw, reason=reason)
    seed, apart = draw_seed(), apart_of(room)
    with engine_errors():
        result = engine.draw_seats(
            entries,
            capacity=rules.table_size,
            rng=replay.rng_of(seed),
            table_numbers=numbers,
            max_players_per_table=rules.start_players_per_table,
            apart=apart,
            reserved=reserved,
        )
    for table in result.tables:
        room.put(table, is_final=False, halt_waived=False)
    return settle(
        t,
        room,
        actor,
        Action.SEATING_DRAW_INITIAL,
        snapshots=False,
        replan=False,
        now=now,
        players=len(entries),
        tables=len(result.tables),
        capacity=t.table_size,
        rng=RNG_NAME,
        redraw=redraw,
        reason=reason,
        banned_not_seated=skipped,
        # The order of the tickets after the shuffle: player i (entries by number) drew ticket i.
        assignment=[[e, table, seat] for e, table, seat in result.assignments],
        reserved=[[e, table, seat] for e, (table, seat) in sorted(reserved.items())],  # SEAT-07: not drawn
        apart_swaps=result.apart_swaps,
        buttons={str(n): s for n, s in result.buttons.items()},
        button_cards={str(n): [list(c) for c in cards] for n, cards in result.button_cards.items()},
        # What replays the draw (seating.replay): the seed and the inputs not logged above.
        seed=str(seed),
        entries=entries,
        table_numbers=numbers,
        max_players_per_table=rules.start_players_per_table,
        apart=[list(pair) for pair in apart],
    )


def _join_room(t, room, rules, players: int) -> None:
    """The tournament's first draw: it plays in one of the venue's rooms from now on, when the
    venue keeps rooms; its tables will be that room's physical tables."""
    if room.card_room is None:
        found = cardrooms.room_of_new_draw(t.pk, rules, engine.tables_needed(players, per_table=rules.start_players_per_table or rules.table_size))
        if found is not None:
            cardrooms.play_in(t.pk, found)
            room.card_room = found


def _room_numbers(t, room, rules, players: int) -> list[int] | None:
    """The tables an initial draw opens: free tables of the tournament's room in the house's
    order (``room_full`` when there are too few); None when it numbers its own (from 1)."""
    if room.card_room is None:
        return None
    count = engine.tables_needed(players, per_table=rules.start_players_per_table or rules.table_size)
    return cardrooms.numbers_for(t.pk, room.card_room, count, seats=rules.table_size, zone=rules.room_zone)


class PredrawPlan(NamedTuple):
    """SEAT-02: what a draw in advance asks of the start."""

    session: str  # its first session, the one the start plays
    predrawn: dict[int, tuple[int, int]]  # entry → (table, seat) in that session
    held: set[tuple[int, int]]  # seats of that session pre-drawn for a player not paid yet
    later: list[tuple[int, str]]  # paid entries it put into a later session, with the session


def _predraw_plan(t, entries: list[int], seat_later_sessions: bool) -> PredrawPlan | None:
    """The draw in advance the start follows, or None when there is none or none of its first
    session's players is here (then the start draws as usual). Its rows were written session
    by session in the order the director named them, so the first row is the first session."""
    rows = list(PreDrawSeat.objects.filter(tournament=t).order_by("pk").values_list("entry_id", "session", "table", "seat", "entry__status"))
    if not rows:
        return None
    first = rows[0][1]
    playing = set(entries)
    predrawn = {e: (tb, s) for e, session, tb, s, _st in rows if session == first}
    held = {(tb, s) for e, session, tb, s, status in rows if session == first and status == Entry.RESERVED}
    later = sorted((e, session) for e, session, _tb, _s, _st in rows if session != first and e in playing)
    if later and not seat_later_sessions:
        sessions = ", ".join(dict.fromkeys(session for _e, session, *_rest in rows if session != first))
        raise SeatingActionError(
            "predraw_later_session",
            ngettext(
                "%(n)s paid player was drawn in advance into a later session (%(sessions)s) and the start seats the first "
                "session (%(first)s) only: draw the sessions again, or confirm that the later sessions' players are seated "
                "now by the draw.",
                "%(n)s paid players were drawn in advance into a later session (%(sessions)s) and the start seats the first "
                "session (%(first)s) only: draw the sessions again, or confirm that the later sessions' players are seated "
                "now by the draw.",
                len(later),
            )
            % {"n": len(later), "sessions": sessions, "first": first},
        )
    if not playing & predrawn.keys():
        return None
    return PredrawPlan(first, predrawn, held, later)


def _start_as_predrawn(t, room, actor, entries, rules, plan: PredrawPlan, skipped, *, now=None):
    """SEAT-02: the start after a draw in advance. Its first session's players sit where it put
    them (the schedule they were sent), at as many tables as the initial draw would open; the
    others (registered since, of a later session, at a table refunds made unneeded, or whose
    seat is gone) are drawn into the free seats (``predraw.seat_as_predrawn``). Whatever the
    draw mode: the draw in advance was the draw, and the others are drawn as late registrants
    are. A refund since may have left a table short: the balancing moves are proposed at once
    (slips; nobody moves until the floor confirms), but, as at any start, no table breaks and
    no final table forms before a hand is played."""
    room.apart = None
    seed, apart, reserved = draw_seed(), apart_of(room), reservations(t)
    with engine_errors():
        result = engine_predraw.seat_as_predrawn(
            entries,
            plan.predrawn,
            capacity=rules.table_size,
            rng=replay.rng_of(seed),
            max_players_per_table=rules.start_players_per_table,
            reserved=reserved,
            held=plan.held,
            apart=apart,
        )
    for table in result.tables:
        room.put(table, is_final=False, halt_waived=False)
    return settle(
        t,
        room,
        actor,
        Action.SEATING_DRAW_INITIAL,
        snapshots=False,
        structural=False,
        now=now,
        players=len(entries),
        tables=len(result.tables),
        capacity=t.table_size,
        rng=RNG_NAME,
        redraw=False,
        reason="",
        banned_not_seated=skipped,
        predraw_session=plan.session,
        predrawn=[[e, table, seat] for e, table, seat in result.kept],  # sat where the draw in advance put them
        predraw_redrawn=[[e, why] for e, why in result.not_kept],
        later_sessions=[[e, session] for e, session in plan.later],
        # The others, by ticket as in the initial draw: player i (entries by number) drew ticket i.
        assignment=[[e, table, seat] for e, table, seat in result.assignments],
        reserved=[[e, table, seat] for e, table, seat in result.reserved],
        apart_swaps=result.apart_swaps,
        buttons={str(n): s for n, s in result.buttons.items()},
        button_cards={str(n): [list(c) for c in cards] for n, cards in result.button_cards.items()},
        # What replays the draw (seating.replay): the seed and the inputs not logged above.
        seed=str(seed),
        entries=entries,
        predraw_seats=[[e, tb, s] for e, (tb, s) in sorted(plan.predrawn.items())],
        reservations=[[e, tb, s] for e, (tb, s) in sorted(reserved.items())],
        held=sorted([tb, s] for tb, s in plan.held),
        max_players_per_table=rules.start_players_per_table,
        apart=[list(pair) for pair in apart],
    )


def _fitting(held: dict, entries: list[int], rules, numbers=None) -> dict:
    """The seats given by hand that the draw can honour: entries being drawn, at a table the
    draw opens (``numbers``: the room's tables it opens), one reservation a seat. The others are
    drawn like everybody (the director sees no seat card for them and can move the player by hand)."""
    playing = set(entries)
    layout = engine.seat_layout(len(entries), capacity=rules.table_size, table_numbers=numbers, max_players_per_table=rules.start_players_per_table)
    tables = {tb for tb, _s in layout}
    out, taken = {}, set()
    for e, (tb, s) in sorted(held.items()):
        if e in playing and tb in tables and 1 <= s <= rules.table_size and (tb, s) not in taken:
            out[e] = (tb, s)
            taken.add((tb, s))
    return out


def _open_manual_initial(t, room, actor, entries, reserved, rules, numbers=None, *, now=None, redraw=False, reason=""):
    """SEAT-01 manual draw: the seat tickets are printed as cards; nobody is seated until the
    floor has entered the card each player drew (``manual.enter_card``). The room's tables the
    cards name are kept for the tournament until then."""
    with engine_errors():
        cards = engine.seat_layout(
            len(entries), capacity=rules.table_size, table_numbers=numbers, max_players_per_table=rules.start_players_per_table, reserved=reserved.values()
        )
    if numbers is not None:
        cardrooms.keep_for(t.pk, room.card_room, sorted({tb for tb, _s in cards}))
    ManualDraw.objects.filter(tournament=t, kind=ManualDraw.INITIAL, status=ManualDraw.OPEN).update(status=ManualDraw.CANCELLED, done_at=timezone.now())
    drawers = [e for e in entries if e not in reserved]
    ev = log_event(
        t,
        Action.SEATING_MANUAL_DRAW_OPENED,
        actor,
        kind=ManualDraw.INITIAL,
        cards=[list(c) for c in cards],
        players=drawers,
        reserved=[[e, tb, s] for e, (tb, s) in sorted(reserved.items())],
        redraw=redraw,
        reason=reason,
    )
    ManualDraw.objects.create(
        tournament=t,
        kind=ManualDraw.INITIAL,
        cards=[list(c) for c in cards],
        players=drawers,
        locks={"reserved": [[e, tb, s] for e, (tb, s) in sorted(reserved.items())]},
        created_at=now or timezone.now(),
        event=ev,
    )
    if redraw:  # the tables it closed are written: their players have no seat until the new cards are in
        room.save(now)
        room.done()
    else:
        room.release()
    return None


@service
def seat_new_entry(tournament, entry, actor, *, revived: bool = False, now=None):
    """Seat an entry paid after the start (late registration, alternate, re-entry, or a rebuy
    after a bust) from the seat pool (SEAT-03): a random open seat at the tables with the
    fewest players, never between the button and the small blind if another seat exists
    (SEAT-05); a new table opens when every table is full. Before the start: nothing."""
    if isinstance(tournament, Tournament) and tournament.status != Tournament.RUNNING:
        return None  # the desk passes its locked, fresh row: no seat map to load before the start
    t, room = lock(tournament)
    if t.status != Tournament.RUNNING:
        return None
    if room.seat_of(entry.pk) is not None or (
        not room.tables and ManualDraw.objects.filter(tournament=t, kind=ManualDraw.INITIAL, status=ManualDraw.OPEN).exists()
    ):
        room.release()  # seated already, or a manual initial draw is open (seated from the pool when it completes)
        return None
    if Entry.objects.filter(pk=entry.pk, person__banned=True).exists():
        room.release()  # REG-05: a person banned after paying is never seated (the desk refunds him)
        return None
    room.apart = None  # a new entry: the pairs are read again with it
    apart = apart_of(room)
    held = SeatReservation.objects.filter(entry_id=entry.pk).values_list("table_number", "seat_number").first()
    if held is not None and room.table(held[0]) is not None and held[1] not in room.table(held[0]).seats and 1 <= held[1] <= room.table(held[0]).capacity:
        return _seat_reserved(t, room, actor, entry, held, revived=revived, now=now)
    # Seats a proposed balancing move is about to fill are not in the pool.
    reserved: dict[int, set[int]] = {}
    for p in room.proposals.values():
        reserved.setdefault(p.to_table, set()).add(p.to_seat)
    view = [
        engine.Table(
            tb.number,
            tb.capacity,
            tb.seats,
            tb.big_blind_seat,
            tb.previous_big_blind_seat,
            tb.locked_seats | reserved[tb.number],
            tb.locked,
            tb.big_blind_twice,
        )
        if tb.number in reserved
        else tb
        for tb in room.table_list()
    ]
    seed, rules, new_number = draw_seed(), house(t), room.free_number()

    def draw_late():
        return engine.draw_late_seat(
            view,
            entry.pk,
            replay.rng_of(seed),
            capacity=t.table_size,
            new_table_number=new_number,
            break_order=rules.break_order,
            apart=apart,
            next_break=rules.seat_pool_next_break,
        )

    with engine_errors():
        late = draw_late()
        if late.opens_new_table and room.card_room is not None:
            # every table is full: the room's next free table opens, drawn again with its number
            (new_number,) = cardrooms.numbers_for(t.pk, room.card_room, 1, seats=t.table_size, zone=rules.room_zone, exclude=list(room.tables))
            late = draw_late()
        if late.opens_new_table:
            room.put(engine.Table(late.table, late.capacity, {late.seat: entry.pk}), is_final=False, halt_waived=False)
        else:
            room.put(engine.apply_late_seat([room.table(late.table)], late)[0])
    room.wait[entry.pk] = late.wait_for_button
    if revived:
        void_bust(t, entry.pk, Bust.REBOUGHT, now)
    if Bust.objects.filter(tournament=t, void="").exists() or revived:
        recompute_places(t)
    return settle(
        t,
        room,
        actor,
        Action.SEATING_PLAYER_SEATED,
        now=now,
        entry=entry.pk,
        name=entry.person.full_name,
        entry_number=entry.number,
        table=late.table,
        seat=late.seat,
        reason=late.reason.as_dict(),
        new_table=late.opens_new_table,
        wait_for_button=late.wait_for_button,
        revived=revived,
        rng=RNG_NAME,
        # What replays the draw (seating.replay): the seed and the inputs.
        seed=str(seed),
        tables=[replay.table_json(tb) for tb in view],
        capacity=t.table_size,
        new_table_number=new_number,
        break_order=rules.break_order,
        next_break=rules.seat_pool_next_break,
        apart=[list(pair) for pair in apart],
    )


def _seat_reserved(t, room, actor, entry, held, *, revived=False, now=None):
    """SEAT-07: an entry with a seat reserved by hand sits there (not drawn); the seat's
    lock, if the director locked it to keep it, is lifted for him."""
    number, seat = held
    table = room.table(number)
    room.put(
        engine.Table(
            number,
            table.capacity,
            {**table.seats, seat: entry.pk},
            table.big_blind_seat,
            table.previous_big_blind_seat,
            table.locked_seats - {seat},
            table.locked,
            table.big_blind_twice,
        )
    )
    wait = engine.is_between_button_and_small_blind(room.table(number), seat)
    room.wait[entry.pk] = wait
    if revived:
        void_bust(t, entry.pk, Bust.REBOUGHT, now)
    if Bust.objects.filter(tournament=t, void="").exists() or revived:
        recompute_places(t)
    return settle(
        t,
        room,
        actor,
        Action.SEATING_PLAYER_SEATED,
        now=now,
        entry=entry.pk,
        name=entry.person.full_name,
        entry_number=entry.number,
        table=number,
        seat=seat,
        new_table=False,
        wait_for_button=wait,
        revived=revived,
        reason=engine.Reason(engine.ReasonCode.SEAT_RESERVED, (("table", number), ("seat", seat))).as_dict(),
        reserved=True,
    )


@service
def undo_revival(tournament, entry, actor, now=None):
    """A rebuy that bought a busted entry back was reversed: the player is out again. His seat
    is free, the bust the rebuy had voided (REBOUGHT) counts again, with its time and order,
    and places are recomputed (ELM-01)."""
    t, room = lock(tournament)
    seat = room.seat_of(entry.pk)
    bust = Bust.objects.filter(tournament=t, entry_id=entry.pk, void=Bust.REBOUGHT).order_by("-voided_at", "-order").first()
    if seat is None and bust is None:
        room.release()
        return None
    if seat is not None:
        remove_players(room, [entry.pk])
        PendingMove.objects.filter(tournament=t, entry=entry, status=PendingMove.PROPOSED, applied=True).update(status=PendingMove.SUPERSEDED)
    if bust is not None:
        Bust.objects.filter(pk=bust.pk).update(void="", voided_at=None)
        Entry.objects.filter(pk=entry.pk).update(status=Entry.BUSTED, busted_at=bust.busted_at, place=bust.place)
    recompute_places(t)
    return settle(
        t,
        room,
        actor,
        Action.SEATING_SEAT_RELEASED,
        now=now or timezone.now(),
        replan=t.status == Tournament.RUNNING,
        entry=entry.pk,
        table=seat[0] if seat else None,
        seat=seat[1] if seat else None,
        revival_undone=True,
        bust=bust.pk if bust else None,
    )


@service
def release_seat(tournament, entry, actor, now=None):
    """An entry was cancelled (a reversed buy-in, a refund): its seat is free again, its
    slips are void, and places are recomputed if it had busted."""
    t, room = lock(tournament)
    seat = room.seat_of(entry.pk)
    voided = void_bust(t, entry.pk, "CANCELLED", now)
    if seat is None and not voided:
        if Bust.objects.filter(tournament=t, void="").exists():
            recompute_places(t)  # a player without a seat (a flight's surrendered bag) left the field: the places move up
        room.release()
        return None
    if seat is not None:
        remove_players(room, [entry.pk])
        PendingMove.objects.filter(tournament=t, entry=entry, status=PendingMove.PROPOSED, applied=True).update(status=PendingMove.SUPERSEDED)
    if Bust.objects.filter(tournament=t, void="").exists() or voided:
        recompute_places(t)
    # A cancelled tournament gives every seat back: nothing to balance or break any more.
    return settle(
        t,
        room,
        actor,
        Action.SEATING_SEAT_RELEASED,
        now=now or timezone.now(),
        replan=t.status == Tournament.RUNNING,
        entry=entry.pk,
        table=seat[0] if seat else None,
        seat=seat[1] if seat else None,
    )


def names_changed(person) -> None:
    """A player's name was corrected or erased (``tournaments.signals.person_changed``): the seat
    lists that show it are built again, their version moving on (the lobby screens fetch their
    seat pages again then, ``selectors.seat_list``)."""
    ids = list(Seat.objects.filter(entry__person=person).values_list("tournament_id", flat=True).distinct())
    if ids:
        SeatingState.objects.filter(tournament_id__in=ids).update(seats_seq=F("seats_seq") + 1)
