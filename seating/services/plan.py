"""What happens after every change of the seat map: final table, breaks, balancing, halts.

``settle`` is the common tail of every seating service: it forms the final table when it is
due (BAL-09), breaks the tables that are due (BAL-06, SEAT-04), clears halt waivers that are
no longer needed (BAL-02), writes the changed rows, writes the events, and re-plans the
balancing moves (BAL-01, 03, 04, 05) as PROPOSED move slips. During hand-for-hand (CLK-06)
they are made between hands: a move off or onto a table still playing the hand is WAITING.

House choice: break and final-table draws are applied to the seat map at once (the players
get up and go now: their slips are printed, and the floor confirms each when the player has
sat down); balancing moves are only proposed, and the seat map changes when the floor
confirms the move was made.
"""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tdmanager import compiled
from tdmanager.errors import DomainError
from tournaments.draws import RNG_NAME
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_event, log_events
from tournaments.house import HouseRules
from tournaments.models import Clock, HandForHandReport, TournamentEvent

from .. import engine, replay, sql
from ..models import ManualDraw, PendingMove
from .room import BATCH_SIZE, Proposal, Room, apart_of, clock_of, table_from_snapshot

_rng = None


def rng():
    """The random source of every draw: the OS CSPRNG (SEAT-01), unless a simulation seeds one."""
    return _rng if _rng is not None else secrets.SystemRandom()


def draw_seed() -> int:
    """A fresh seed for one draw, from the random source above; the draw runs on
    ``replay.rng_of(seed)`` and logs the seed (as a string) with its inputs, so anybody replays it."""
    return replay.new_seed(rng())


@contextlib.contextmanager
def seeded(random_source):
    """Use ``random_source`` for every draw inside the block (simulations and tests)."""
    global _rng
    old, _rng = _rng, random_source
    try:
        yield
    finally:
        _rng = old


class SeatingActionError(DomainError):
    """A seating action a rule forbids; ``code`` says which."""


ENGINE_MESSAGES = {
    "seat_taken": gettext_lazy("That seat is taken."),
    "seat_locked": gettext_lazy("That seat is locked."),
    "bad_seat": gettext_lazy("That table has no such seat."),
    "not_enough_seats": gettext_lazy("The other tables do not have enough open seats."),
    "unknown_setting": gettext_lazy("A seating setting of this tournament is not valid: %(detail)s"),
    "bad_trigger": gettext_lazy("balance_trigger_difference must be at least 2."),
    "reserved_seat_missing": gettext_lazy("A seat given by hand is not at a table the draw opens."),
    # Every other refusal of the engine, so none reaches a person in the engine's English.
    "already_seated": gettext_lazy("This player already has a seat."),
    "bad_break_draw": gettext_lazy("Every player of the breaking table needs exactly one seat card."),
    "bad_capacity": gettext_lazy("The number of seats per table is not valid."),
    "bad_table_numbers": gettext_lazy("The draw needs more distinct table numbers."),
    "capacity_needed": gettext_lazy("No table is open: give the number of seats of the new table."),
    "card_twice": gettext_lazy("Two players cannot hold the same card."),
    "duplicate_bust": gettext_lazy("A player is recorded out twice."),
    "duplicate_move": gettext_lazy("A player appears in more than one move."),
    "duplicate_player": gettext_lazy("A player appears twice in the seat map."),
    "duplicate_table": gettext_lazy("A table number appears twice."),
    "no_open_seat": gettext_lazy("That table has no open seat."),
    "no_players": gettext_lazy("No players are left to seat at the final table."),
    "player_not_at_seat": gettext_lazy("The seat map has changed: the player is no longer in that seat."),
    "reserved_twice": gettext_lazy("A seat is given by hand twice."),
    "table_exists": gettext_lazy("That table already exists."),
    "too_many_busts": gettext_lazy("More players out than entries."),
    "too_many_players": gettext_lazy("Too many players for the seats available."),
    "unknown_table": gettext_lazy("That table is not in play."),
    "winner_too_early": gettext_lazy("More than one player is still in: there is no winner yet."),
}


def engine_error(exc: engine.SeatingError) -> SeatingActionError:
    """The engine's refusal as a domain error (4xx), in the user's language where we know it."""
    message = ENGINE_MESSAGES.get(exc.code)
    if message is None:
        return SeatingActionError(exc.code, str(exc))
    return SeatingActionError(exc.code, str(message) % {"detail": str(exc)} if "%(detail)s" in str(message) else str(message))


@contextlib.contextmanager
def engine_errors():
    try:
        yield
    except engine.SeatingError as exc:
        raise engine_error(exc) from None


# --- house settings -------------------------------------------------------------------------


# One object for every house rule (tournaments.house): the balancing settings, the break order,
# the final-table size (the same number payouts uses for deals) and the simultaneous-bust policy.
House = HouseRules


def house(t) -> HouseRules:
    """The tournament's house rules, read once per service call and passed down."""
    return HouseRules.of(t)


# --- the common tail of every service ---------------------------------------------------------


@dataclass
class Outcome:
    """What a service did to the room, for its caller and its tests."""

    event: object = None  # the primary event row
    broken: list[int] = field(default_factory=list)
    final_table: int | None = None
    slips: list[PendingMove] = field(default_factory=list)  # break / final-table slips drawn now
    proposed: list[PendingMove] = field(default_factory=list)  # new balancing proposals
    superseded: list[int] = field(default_factory=list)
    halted: list[int] = field(default_factory=list)
    tables: list = field(default_factory=list)  # engine tables after the change
    busts: list = field(default_factory=list)  # record_bust: the new Bust rows
    winner: int | None = None  # record_bust: the entry left alone, now first
    waiting: list[PendingMove] = field(default_factory=list)  # new balancing moves waiting for a hand-for-hand hand
    move: PendingMove | None = None  # confirm_move / move_player: the slip
    hand_for_hand: dict | None = None  # hand_completed during hand-for-hand: the clock's answer


@dataclass
class _Draw:
    kind: str
    table: int
    moves: list
    payload: dict


def settle(
    t,
    room: Room,
    actor,
    action: str,
    *,
    cause=None,
    replan: bool = True,
    structural: bool = True,
    snapshots: bool = True,
    now=None,
    event_rows=(),
    event_updates=(),
    drawn=(),
    between_hands: bool = False,
    **payload,
) -> Outcome:
    """Finish a seating service: structural changes, rows, events, balancing proposals.

    ``action``/``payload`` become the primary event (with the before/after snapshots of the
    tables that changed when ``snapshots``: the undo source). ``cause`` is the event whose
    undo should also undo what this call drew (defaults to the primary event).
    ``event_rows``: new rows that point at the primary event (``event``); they are written
    with the change's other rows and have their keys when this returns.
    ``event_updates``: ``(compiled.Updates, row, field)``: rows saved with the write-back, their
    ``field`` pointing at the primary event (on PostgreSQL in the write-back's statement).
    ``structural=False`` re-plans the balancing proposals only (nothing breaks or forms now).
    ``drawn``: draws the caller has applied to the room already (a manual break completed):
    logged and given slips like the ones this call draws. Keep-apart pairs (SEAT-07) that
    the change seats together are flagged (``seating.keep_apart.unmet``).
    ``between_hands``: during hand-for-hand, every table has finished the hand (the director
    closed it everywhere at once): the balancing moves waiting for it are made (``_propose``).
    """
    now = now or timezone.now()
    h = house(t)
    out = Outcome()
    draws: list[_Draw] = list(drawn)
    opened: list[dict] = []
    apart = apart_of(room)
    with engine_errors():
        if replan and structural:
            draws += _structural(t, room, h, apart, opened)
        unmet = _unmet(room, apart) if apart else []
        for number in [n for n, table in room.tables.items() if not table.seats]:
            room.close(number)  # a table nobody sits at is closed (the engine treats it so)
        halted = engine.halted_tables(room.table_list())
        for number in list(room.tables):
            info = room.info[number]
            if info.halt_waived and number not in halted:
                room.put(room.tables[number], halt_waived=False)  # balanced again: the waiver has done its job
        change = room.save(now)
        if snapshots:
            payload.update(change)
        names = _names([m.player for d in draws for m in d.moves])
        for d in draws:
            d.payload["moves"] = [_move_json(m, names) for m in d.moves]
        # The change's event and one per draw, in one statement, and the draws' slips: nothing
        # needs their keys before the end, so they go out with the write-back (room.insert, the
        # slips taking their events' keys there; flushed sooner if another event or a slip
        # follows them).
        out.event, *draw_events = log_events(
            t,
            actor,
            [(action, payload)]
            + [
                (Action.SEATING_FINAL_TABLE_FORMED if d.kind == engine.FINAL_TABLE else Action.SEATING_TABLE_BROKEN, {"table": d.table, **d.payload})
                for d in draws
            ],
            write=room.insert,
        )
        cause = cause or out.event
        if event_rows:
            for row in event_rows:
                row.event = out.event
            room.insert(event_rows)  # written with the token at the end (PostgreSQL: in its statement)
        for updates, row, field in event_updates:
            setattr(row, field, out.event)
            room.update_at_end(updates, row)  # saved with the token at the end, ditto
        for d, ev in zip(draws, draw_events, strict=True):  # one list per event (each list's rows point at one event)
            slips = _slips(t, [(m, ev) for m in d.moves], cause=cause, applied=True, now=now, write=room.insert)
            out.slips += slips
        for d in draws:
            if d.kind == engine.FINAL_TABLE:
                out.final_table = d.table
            else:
                out.broken.append(d.table)
        if any(d.kind == engine.FINAL_TABLE for d in draws):
            # Everyone was drawn again: older slips no longer say where anybody goes.
            # (the slips drawn now are still queued: not in the table yet)
            stale = PendingMove.objects.filter(tournament=t, status__in=(PendingMove.PROPOSED, PendingMove.WAITING)).exclude(
                pk__in=[s.pk for s in out.slips if s.pk is not None]
            )
            out.superseded += list(stale.values_list("pk", flat=True))
            stale.update(status=PendingMove.SUPERSEDED)
            room.proposals.clear()
            room.held.clear()
        if replan:
            _propose(t, room, h, actor, cause, out, now, apart, between_hands)
        if opened:
            room.flush(TournamentEvent)
            _open_manual_breaks(t, actor, opened, now)
        if apart:
            unmet += _unmet_proposals(room, apart, out.proposed)
        if unmet:
            room.flush(TournamentEvent)
            log_event(t, Action.SEATING_KEEP_APART_UNMET, actor, pairs=unmet, cause=out.event.pk)
    out.halted = [n for n in halted if not room.info[n].halt_waived]
    out.tables = room.table_list()
    room.done()
    return out


def _structural(t, room: Room, h: House, apart=(), opened=None) -> list[_Draw]:
    """Final table if due, else every break that is due, applied to the room now.

    Under ``draw_mode`` MANUAL a break is not drawn here: its seat cards are chosen and
    locked with the breaking table (``opened``, written as a ``ManualDraw`` by the caller)
    and the floor enters the cards the players drew (``manual.enter_card``)."""
    draws = []
    tables = room.table_list()
    if engine.final_table_due(tables, h.final_table_size):
        if h.draw_mode == "MANUAL":  # the final table draws everybody: open manual breaks end
            ManualDraw.objects.filter(tournament=t, kind=ManualDraw.BREAK, status=ManualDraw.OPEN).update(status=ManualDraw.CANCELLED, done_at=timezone.now())
        seed = draw_seed()
        draw = engine.plan_final_table(tables, replay.rng_of(seed))
        for number in list(room.tables):
            if number != draw.table.number:
                room.close(number)
        room.put(draw.table, is_final=True, halt_waived=False)
        for m in draw.moves:
            room.wait[m.player] = m.wait_for_button
        draws.append(
            _Draw(
                engine.FINAL_TABLE,
                draw.table.number,
                draw.moves,
                {
                    "seat_order": [list(s) for s in draw.seat_order],
                    "card_order": [[p, c] for p, c in draw.card_order],
                    "button_seat": draw.button_seat,
                    "button_cards": [list(c) for c in draw.button_cards],
                    "capacity": draw.table.capacity,
                    "players": len(draw.moves),
                    "seed": str(seed),
                    "tables": [replay.table_json(t) for t in tables],  # the draw's input
                },
            )
        )
        return draws
    for _guard in range(len(tables)):
        number = engine.table_to_break(tables, break_order=h.break_order, final_table_size=h.final_table_size)
        if number is None:
            break
        if h.draw_mode == "MANUAL" and opened is not None:
            opened.append(_hold_for_manual_break(room, tables, number))
            tables = room.table_list()
            continue
        seed = draw_seed()
        draw = engine.draw_break(tables, number, replay.rng_of(seed), apart=apart)
        room.put_all(engine.apply_moves(tables, draw.moves))
        room.close(number)
        for m in draw.moves:
            room.wait[m.player] = m.wait_for_button
        draws.append(
            _Draw(
                engine.BREAK,
                number,
                draw.moves,
                {
                    "seat_order": [list(s) for s in draw.seat_order],
                    "card_order": [[p, c] for p, c in draw.card_order],
                    **({"apart_swaps": draw.apart_swaps} if draw.apart_swaps else {}),
                    "seed": str(seed),
                    "tables": [replay.table_json(t) for t in tables],  # the draw's input
                    "apart": [list(pair) for pair in apart],
                },
            )
        )
        tables = room.table_list()
    return draws


def replan_between_hands(t, room: Room, actor, now=None) -> Outcome:
    """The balancing plan made again with every table between hands (the director closed the
    hand-for-hand hand everywhere at once): the moves that waited for a table's hand are made
    now. The seat map is as it was: only the slips change (``settle``'s last step alone; the
    slips of the moves made, BAL-08)."""
    out = Outcome()
    with engine_errors():
        _propose(t, room, house(t), actor, None, out, now or timezone.now(), apart_of(room), between_hands=True)
    out.tables = room.table_list()
    room.done()
    return out


def hand_in_play(t, room: Room, *, between_hands: bool = False) -> frozenset[int] | None:
    """CLK-06: the tables still playing the hand-for-hand hand (not reported complete); None
    outside hand-for-hand. The clock is the one read with the lock, so the hand is the one the
    change belongs to: when the last table reports it, every table has finished it (none is
    playing), though the clock has moved on to the next hand. ``between_hands``: the director
    has closed the hand at every table at once."""
    clock = clock_of(t)
    if clock is None or clock.status != Clock.HAND_FOR_HAND:
        return None
    if between_hands:
        return frozenset()
    done = set(
        HandForHandReport.objects.filter(tournament_id=t.pk, hand=clock.h4h_hand, state=HandForHandReport.COMPLETE).values_list("table_number", flat=True)
    )
    return frozenset(n for n in room.tables if n not in done)


def _propose(t, room: Room, h: House, actor, cause, out: Outcome, now, apart=(), between_hands=False):
    """Re-plan balancing from the live map; keep identical proposals, supersede the others.

    During hand-for-hand (CLK-06) balancing is done between hands: a move off or onto a table
    still playing the hand is a WAITING slip (its tables shown, its player and seat chosen once
    that hand is over there, the same slip then proposed), and a slip the floor has been shown
    stands (``engine.plan_balance_between_hands``)."""
    tables = room.table_list()
    have = {p.key for p in room.proposals.values()}
    # BAL-04/05: which table gives or takes a player and which open seat can be drawn; the seed
    # and the inputs go into the proposal's event so that seating.replay draws it again.
    seed, kwargs = draw_seed(), h.balance_kwargs()
    playing = hand_in_play(t, room, between_hands=between_hands)
    if playing is None:
        plan = engine.plan_balance(tables, rng=replay.rng_of(seed), apart=apart, fixed=room.fixed, **kwargs)
        plan = engine.keep_drawn_seats(plan, have, tables)  # a drawn seat is not drawn again
        waiting, stands, h4h = [], set(), None
    else:
        kept = [p.key for p in sorted(room.proposals.values(), key=lambda p: p.id)]
        between = engine.plan_balance_between_hands(tables, playing=playing, kept=kept, rng=replay.rng_of(seed), apart=apart, fixed=room.fixed, **kwargs)
        plan, waiting, stands = between.moves, between.waiting, set(between.kept)
        h4h = {"playing": sorted(playing), "kept": [list(k) for k in kept]}
    wanted = {(m.player, m.from_table, m.from_seat, m.to_table, m.to_seat): m for m in plan}
    stale = [p.id for p in room.proposals.values() if p.key not in wanted and p.key not in stands]
    new = [m for key, m in wanted.items() if key not in have]
    # The slips waiting between two tables: proposed in place when the plan makes such a move now
    # (a tablet that kept the slip confirms it then), kept while such a move still waits, else
    # withdrawn. Their player and seat were never shown.
    held: dict[tuple[int, int], list[int]] = {}
    for p in sorted(room.held.values(), key=lambda p: p.id):
        held.setdefault((p.from_table, p.to_table), []).append(p.id)
    promoted: dict[int, int] = {}  # index in ``new`` → the waiting slip it takes over
    for i, m in enumerate(new):
        ids = held.get((m.from_table, m.to_table))
        if ids:
            promoted[i] = ids.pop(0)
    added = []  # moves that wait and have no slip yet
    for m in waiting:
        ids = held.get((m.from_table, m.to_table))
        if ids:
            ids.pop(0)  # its slip waits on
        else:
            added.append(m)
    dropped = [pk for ids in held.values() for pk in ids]
    if not stale and not new and not added and not dropped:
        return
    withdrawn = stale + dropped
    if withdrawn:
        PendingMove.objects.filter(pk__in=withdrawn).update(status=PendingMove.SUPERSEDED)
        for pk in stale:
            room.proposals.pop(pk, None)
        for pk in dropped:
            room.held.pop(pk, None)
        out.superseded += withdrawn
    if new or added:
        names = _names([m.player for m in new])
        payload = {"moves": [_move_json(m, names) for m in new], "superseded": withdrawn}
        if added:
            payload["waiting"] = [{"from_table": m.from_table, "to_table": m.to_table} for m in added]
        if promoted:
            payload["promoted"] = sorted(promoted.values())
        inputs = balance_inputs(seed, tables, apart, room.fixed, kwargs, have)
        if h4h is not None:
            inputs["hand_for_hand"] = h4h
        # after the change's event (if still queued, both rows go in one INSERT, keys in order)
        (ev,) = log_events(t, actor, [(Action.SEATING_MOVES_PROPOSED, {**payload, **inputs})], write=room.insert)
        room.flush(TournamentEvent)  # the slips need the keys (their cause and event)
        room.flush(PendingMove)  # a draw's slips before these (their keys in that order)
        rows = _slips(t, [(m, ev) for i, m in enumerate(new) if i not in promoted], cause=cause, applied=False, now=now)
        if promoted:
            for i, pk in promoted.items():
                _propose_in_place(pk, new[i], ev, now)
                room.held.pop(pk, None)
            rows += list(PendingMove.objects.filter(pk__in=promoted.values()))
        for row in rows:
            room.proposals[row.pk] = Proposal(row.pk, row.entry_id, row.from_table, row.from_seat, row.to_table, row.to_seat)
        out.proposed += rows
        if added:
            rows = _slips(t, [(m, ev) for m in added], cause=cause, applied=False, now=now, status=PendingMove.WAITING)
            for row in rows:
                room.held[row.pk] = Proposal(row.pk, row.entry_id, row.from_table, row.from_seat, row.to_table, row.to_seat)
            out.waiting += rows
    else:
        room.flush(TournamentEvent)  # the change's event before this one
        log_event(t, Action.SEATING_MOVES_SUPERSEDED, actor, superseded=withdrawn)


def _propose_in_place(pk: int, m, event, now) -> None:
    """A slip that waited for a hand-for-hand hand, proposed now with the player and the seat
    chosen now (its tables are the same)."""
    PendingMove.objects.filter(pk=pk).update(
        status=PendingMove.PROPOSED,
        entry_id=m.player,
        from_seat=m.from_seat,
        to_seat=m.to_seat,
        reason="" if isinstance(m.reason, engine.Reason) else m.reason,
        reason_data=m.reason.as_dict() if isinstance(m.reason, engine.Reason) else None,
        wait_for_button=m.wait_for_button,
        single_big_blind=m.single_big_blind,
        created_at=now,
        event=event,
    )


def balance_inputs(seed, tables, apart, fixed, kwargs, open_slips) -> dict:
    """What replays a balancing plan (``seating.replay``): its seed and inputs."""
    return {
        "seed": str(seed),
        "tables": [replay.table_json(t) for t in tables],
        "apart": [list(pair) for pair in apart],
        "fixed": sorted(fixed),
        "rules": kwargs,
        "open_slips": sorted(list(k) for k in open_slips),
    }


def _hold_for_manual_break(room: Room, tables, number: int) -> dict:
    """A break under a manual draw: choose step 1's seat cards, lock them and the breaking
    table (nobody else takes those seats, nobody balances that table) until the floor has
    entered every card."""
    # Step 1 (which open seats the breaking table's players draw from) is the machine's draw:
    # its seed and input are logged with the manual draw; step 2, the cards, is by hand.
    seed = draw_seed()
    cards = engine.break_seat_cards(tables, number, replay.rng_of(seed))
    by_table: dict[int, set[int]] = {}
    for to_table, seat in cards:
        by_table.setdefault(to_table, set()).add(seat)
    for to_table, seats in by_table.items():
        room.put(with_changes(room.tables[to_table], locked_seats=room.tables[to_table].locked_seats | seats))
    broken = room.tables[number]
    room.put(with_changes(broken, locked=True))
    return {
        "table": number,
        "cards": [list(c) for c in cards],
        "players": [[entry, seat] for seat, entry in sorted(broken.seats.items())],
        "seed": str(seed),
        "tables": [replay.table_json(t) for t in tables],
    }


def with_changes(table: engine.Table, **changes) -> engine.Table:
    """The engine table with these fields changed (seats stay)."""
    fields = {
        "big_blind_seat": table.big_blind_seat,
        "previous_big_blind_seat": table.previous_big_blind_seat,
        "locked_seats": table.locked_seats,
        "locked": table.locked,
        "big_blind_twice": table.big_blind_twice,
    }
    fields.update(changes)
    return engine.Table(table.number, table.capacity, table.seats, **fields)


def _open_manual_breaks(t, actor, opened: list[dict], now):
    for item in opened:
        # A draw left open for this table by a break that was undone is void now.
        ManualDraw.objects.filter(tournament=t, kind=ManualDraw.BREAK, status=ManualDraw.OPEN, table=item["table"]).update(
            status=ManualDraw.CANCELLED, done_at=now
        )
        ev = log_event(
            t,
            Action.SEATING_MANUAL_DRAW_OPENED,
            actor,
            kind=ManualDraw.BREAK,
            table=item["table"],
            cards=item["cards"],
            players=[e for e, _s in item["players"]],
            rng=RNG_NAME,
            seed=item["seed"],
            tables=item["tables"],
        )
        ManualDraw.objects.create(
            tournament=t, kind=ManualDraw.BREAK, table=item["table"], cards=item["cards"], players=item["players"], created_at=now, event=ev
        )


def _unmet(room: Room, apart) -> list[dict]:
    """Keep-apart pairs this change seated together (SEAT-07): a player new at a table
    where his partner sits. Read before the room is saved (it compares with ``before``)."""
    partners = engine.partners_of(apart)
    out, seen = [], set()
    for number in room.touched():
        new = room.tables.get(number)
        if new is None:
            continue
        old = room.before[number][0]
        here = set(new.seats.values())
        for player in here - (set(old.seats.values()) if old is not None else set()):
            for other in partners.get(player, ()):
                key = frozenset((player, other))
                if other in here and key not in seen:
                    seen.add(key)
                    out.append({"table": number, "entries": sorted(key)})
    return out


def _unmet_proposals(room: Room, apart, proposed) -> list[dict]:
    """Balancing proposals that send a player to a partner's table (no other choice was left)."""
    partners = engine.partners_of(apart)
    out = []
    for m in proposed:
        table = room.tables.get(m.to_table)
        mine = partners.get(m.entry_id, ())
        for other in table.seats.values() if table is not None and mine else ():
            if other in mine:
                out.append({"table": m.to_table, "entries": sorted((m.entry_id, other)), "move": m.pk})
    return out


def _slips(t, moves, *, cause, applied: bool, now, write=None, status=PendingMove.PROPOSED) -> list[PendingMove]:
    """One slip per (move, the event that made it), in one statement (``write``: written by the
    caller, as ``log_events``'s): what the floor, the lobby and the player's phone read (BAL-08)."""
    rows = [
        PendingMove(
            tournament=t,
            entry_id=m.player,
            kind=m.kind,
            status=status,
            applied=applied,
            from_table=m.from_table,
            from_seat=m.from_seat,
            to_table=m.to_table,
            to_seat=m.to_seat,
            card=m.card or "",
            wait_for_button=m.wait_for_button,
            # the engine's reason as codes (put into words when shown), a person's words as typed
            reason="" if isinstance(m.reason, engine.Reason) else m.reason,
            reason_data=m.reason.as_dict() if isinstance(m.reason, engine.Reason) else None,
            single_big_blind=m.single_big_blind,
            created_at=now,
            event=event,
            cause=cause,
        )
        for m, event in moves
    ]
    if write is not None:
        write(rows)
        return rows
    return compiled.insert(rows, batch_size=BATCH_SIZE)  # keys come back with the insert (compiled once per row count)


def stored_reason(reason):
    """A reason as rows and event payloads keep it: the engine's codes as a dict (put into words
    when shown, ``seating.labels``), a person's words as they are."""
    return reason.as_dict() if isinstance(reason, engine.Reason) else reason


def _names(entry_ids) -> dict[int, str]:
    """Each entry's player as a draw's moves show him: "First Last (#number)"."""
    names = {}
    for pk, number, first, last in _name_rows(entry_ids):
        names[pk] = f"{first} {last}".strip() + f" (#{number})"
    return names


def _name_rows(entry_ids) -> list[tuple]:
    """(entry, number, first name, last name) of these entries (in no order)."""
    return sql.entry_names(entry_ids)


def _move_json(m, names) -> dict:
    return {
        "entry": m.player,
        "name": names.get(m.player, ""),
        "from_table": m.from_table,
        "from_seat": m.from_seat,
        "to_table": m.to_table,
        "to_seat": m.to_seat,
        "reason": stored_reason(m.reason),
        "kind": m.kind,
        "card": m.card,
        "wait_for_button": m.wait_for_button,
        "single_big_blind": m.single_big_blind,
    }


def without(table: engine.Table, entries) -> engine.Table:
    """The table with these players gone (busted, cancelled); positions stay (POS-01)."""
    gone = set(entries)
    return engine.Table(
        table.number,
        table.capacity,
        {s: e for s, e in table.seats.items() if e not in gone},
        table.big_blind_seat,
        table.previous_big_blind_seat,
        table.locked_seats,
        table.locked,
        table.big_blind_twice and table.seats.get(table.big_blind_seat) not in gone,
    )


def remove_players(room: Room, entries) -> None:
    """Take players out of their seats (a table left with nobody closes when the change settles)."""
    by_table: dict[int, list[int]] = {}
    for e in entries:
        number, _seat = room.seat_of(e)
        by_table.setdefault(number, []).append(e)
    for number, gone in by_table.items():
        room.put(without(room.tables[number], gone))


def restore(room: Room, payload: dict) -> list[int]:
    """Put the tables of an event back as they were before it (undo of a bust, ELM-01, or of a
    confirmed move, BAL-08).

    Refused when any of those tables no longer holds exactly the players the event left
    there (a later change must be undone first). Positions and locks are restored where
    nobody changed them since; otherwise the newer ones stay (a hand completed since the
    bust moved the blinds on for real).
    """
    after = {snap["number"]: snap for snap in payload.get("after", [])}
    changed = []
    for number, snap in after.items():
        cur = room.table(number)
        if snap["in_play"] != (cur is not None) or (cur is not None and cur.seats != {s: e for s, e, *_r in snap["seats"]}):
            changed.append(number)
    if changed:
        raise SeatingActionError(
            "seat_map_changed",
            _("Table(s) %(tables)s changed since; undo the later changes first.") % {"tables": ", ".join(map(str, changed))},
        )

    for snap in payload.get("before", []):
        number = snap["number"]
        if not snap["in_play"]:
            if number in room.tables:
                room.close(number)
            continue
        table = table_from_snapshot(snap)
        cur, was = room.table(number), after.get(number)
        if cur is not None and was is not None and was["in_play"] and _positions(cur) != _snap_positions(was):
            table = engine.Table(
                number, table.capacity, table.seats, cur.big_blind_seat, cur.previous_big_blind_seat, cur.locked_seats, cur.locked, cur.big_blind_twice
            )
        room.put(table, is_final=snap["is_final"], halt_waived=snap["halt_waived"])
        for _seat, entry, wait in snap["seats"]:
            room.wait[entry] = wait
    return sorted(after)


def _positions(t: engine.Table):
    return (t.big_blind_seat, t.previous_big_blind_seat, t.big_blind_twice, t.locked, sorted(t.locked_seats))


def _snap_positions(s: dict):
    return (s["big_blind_seat"], s["previous_big_blind_seat"], s["big_blind_twice"], s["locked"], sorted(s["locked_seats"]))
