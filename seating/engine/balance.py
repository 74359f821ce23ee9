"""Balancing (BAL-01..08): who moves where so the tables stay within one player, and which tables halt."""

from __future__ import annotations

import random
import secrets
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import replace
from typing import NamedTuple

from .apart import _meets_partner, _partners
from .data import (
    BALANCE,
    DEST_RULES,
    MOVER_RULES,
    TIE_BREAKS,
    VACATED_BB_SEAT_MODES,
    Move,
    R,
    Reason,
    SeatingError,
    Table,
    _check_setting,
    _free_seats,
    _playing_counts,
    _why,
    _Workbench,
)
from .positions import _clockwise_from, _occupied_before, _waits_for_button, hands_until_big_blind, next_hand_positions

HALT_SHORT_BY = 3  # BAL-02: play halts 3 or more players short of the fullest table


def plan_balance(
    tables: Sequence[Table],
    *,
    trigger_difference: int = 2,
    mover_rule: str = "NEXT_BB",
    dest_rule: str = "WORST_POSITION",
    tie_break: str = "TABLE_ORDER",
    rng: random.Random | None = None,
    vacated_bb_seat: str = "EXCLUDED",
    apart: Iterable[tuple[Hashable, Hashable]] = (),
    fixed: Collection[Hashable] = (),
) -> list[Move]:
    """Moves that bring every table within one player of the others (BAL-01, 03, 04, 05).

    Nothing moves until the fullest and the shortest table differ by ``trigger_difference``
    (2 under 003 and 004 Art. 8.2, 3 under 004 Art. 16.2). Then, one move at a time, a
    player moves from the fullest to the shortest table until no two tables differ by more
    than one; this is the smallest number of moves that reaches the most even spread.
    The plan is built on a working copy, so a second move from the same table takes that
    table's next mover and no destination seat is handed out twice. Locked and empty
    tables are left out. Apply the plan with :func:`apply_moves`.

    ``apart`` (SEAT-07): pairs of players kept at different tables. A mover whose partner
    sits at the chosen destination goes to another short table instead, or the move comes
    from another of the fullest tables; when no choice avoids it the move stands (the
    service flags it: :func:`apart_conflicts`). ``fixed`` players sit in a seat given by
    hand (SEAT-07, special needs): the rule's mover is passed over for the next player
    clockwise at his table.
    """
    _check_setting("mover_rule", mover_rule, MOVER_RULES)
    _check_setting("dest_rule", dest_rule, DEST_RULES)
    _check_setting("tie_break", tie_break, TIE_BREAKS)
    _check_setting("vacated_bb_seat", vacated_bb_seat, VACATED_BB_SEAT_MODES)
    if trigger_difference < 2:
        # A trigger of 1 would move a player back and forth between a 9 and an 8.
        raise SeatingError("bad_trigger", "trigger_difference must be at least 2")
    if len(tables) < 2:
        return []
    # Leaving out locked and empty tables can only narrow the spread, so one look at all
    # tables settles the common case (called after every bust, a thousand tables).
    counts = [len(t.seats) for t in tables]
    if max(counts) - min(counts) < trigger_difference:
        return []
    _, counts, _, _, _ = _playing_counts(tables, counts)
    if len(counts) < 2 or max(counts) - min(counts) < trigger_difference:
        return []
    rng = rng if rng is not None else secrets.SystemRandom()
    bench = _Workbench(tables)
    live = {t.number: len(t.seats) for t in tables if t.seats and not t.locked}
    moves: list[Move] = []
    while True:
        most, fewest = max(live.values()), min(live.values())
        if most - fewest <= 1:
            return moves
        source = _pick_table([n for n, c in live.items() if c == most], "source", tie_break, rng)
        receivers = {n: c for n, c in live.items() if c <= most - 2 and _free_seats(bench.table(n)) > 0}
        if not receivers:
            return moves  # only locked seats are left where players are short
        low = min(receivers.values())
        dest = _pick_table([n for n, c in receivers.items() if c == low], "destination", tie_break, rng)
        move = _balance_move(bench.table(source), bench.table(dest), mover_rule, dest_rule, vacated_bb_seat, rng, fixed)
        if apart:
            partners = _partners(apart)
            if _meets_partner(move.player, bench.table(dest), partners):
                source, dest, move = _apart_balance_move(
                    bench,
                    live,
                    most,
                    receivers,
                    (source, dest, move),
                    partners,
                    (mover_rule, dest_rule, vacated_bb_seat, tie_break),
                    rng,
                    fixed,
                )
        bench.move(move)
        live[source] -= 1
        live[dest] += 1
        moves.append(move)


class HandPlan(NamedTuple):
    """A balancing plan during hand-for-hand (:func:`plan_balance_between_hands`)."""

    kept: list[tuple]  # the open slips that stand, as given: (player, from_table, from_seat, to_table, to_seat)
    moves: list[Move]  # new moves between tables that have finished the hand: proposed now
    waiting: list[Move]  # moves off or onto a table still playing the hand: their player and seat are chosen once it is over


def plan_balance_between_hands(
    tables: Sequence[Table],
    *,
    playing: Collection[int],
    kept: Sequence[tuple] = (),
    trigger_difference: int = 2,
    rng: random.Random | None = None,
    **rules,
) -> HandPlan:
    """Balancing during hand-for-hand (CLK-06): moves are made between hands (BAL-01..05).

    Under hand-for-hand every table plays one hand and waits for the others. The player who
    moves is the next big blind at his table (BAL-03) and his seat is chosen from the big
    blind at the table he goes to (BAL-04); while a table still plays the hand, the positions
    known are those of the hand being played (a table's blinds move on when it reports the
    hand complete), so neither its mover nor its open seat is known yet. A move off or onto a
    table in ``playing`` therefore waits (``waiting``: the table and the plan's count are
    known, the player and the seat are not); once both tables have finished the hand it is
    proposed (``moves``).

    ``kept``: the open slips, oldest first. A slip the floor has been shown is never swapped
    for another player when a hand ends: it stands while its player still sits in its seat,
    its seat is still open and it is still a step of a balancing plan (from one of the fullest
    tables to the shortest ones, two players or more apart; BAL-01 once triggered). The rest
    of the plan is made around the slips that stand. ``rules`` are :func:`plan_balance`'s.
    """
    playing = frozenset(playing)
    plan = plan_balance(tables, trigger_difference=trigger_difference, rng=rng, **rules)
    if not plan:
        return HandPlan([], [], [])
    stood: list[tuple] = []
    if kept:
        bench = _Workbench(tables)
        live = {t.number: len(t.seats) for t in tables if t.seats and not t.locked}
        for key in kept:
            player, from_table, from_seat, to_table, to_seat = key
            if from_table == to_table or from_table not in live or to_table not in live:
                continue
            source, dest = bench.table(from_table), bench.table(to_table)
            if source.seats.get(from_seat) != player or to_seat not in dest.open_seats():
                continue
            most = max(live.values())
            short = [c for n, c in live.items() if c <= most - 2 and _free_seats(bench.table(n)) > 0]
            if live[from_table] != most or not short or live[to_table] != min(short):
                continue
            bench.move(Move(player, from_table, from_seat, to_table, to_seat, ""))
            live[from_table] -= 1
            live[to_table] += 1
            stood.append(key)
        if stood:  # the plan was triggered: the rest brings every table within one player
            plan = plan_balance(bench.result(), trigger_difference=2, rng=rng, **rules)
    ready = [m for m in plan if m.from_table not in playing and m.to_table not in playing]
    waiting = [m for m in plan if m.from_table in playing or m.to_table in playing]
    return HandPlan(stood, ready, waiting)


def apply_moves(tables: Sequence[Table], moves: Sequence[Move]) -> list[Table]:
    """New tables with the moves carried out; the inputs are left untouched.

    All movers leave their seats first, then all take their new seats, so a plan that
    re-seats players at the same table (the final table) works as well as a balancing plan.
    Untouched tables are returned as the same objects. A single-big-blind move marks the
    destination so the mover posts the big blind alone on the next hand.
    """
    if not moves:
        return list(tables)
    if len({m.player for m in moves}) != len(moves):
        raise SeatingError("duplicate_move", "a player appears in more than one move")
    bench = _Workbench(tables)
    for move in moves:
        bench.take_out(move.player, move.from_table, move.from_seat)
    for move in moves:
        bench.seat(move.player, move.to_table, move.to_seat, move.single_big_blind)
    return bench.result()


def halted_tables(tables: Sequence[Table], *, short_by: int = HALT_SHORT_BY) -> list[int]:
    """Tables that hold play: ``short_by`` (3) or more players short of the fullest (BAL-02).

    Locked and empty tables are left out; a single table is never halted.
    """
    playing, counts, _, _, _ = _playing_counts(tables)
    if len(playing) < 2:
        return []
    fullest = max(counts)
    return sorted(t.number for t, c in zip(playing, counts, strict=True) if fullest - c >= short_by)


def _pick_table(candidates: list[int], role: str, tie_break: str, rng: random.Random) -> int:
    """BAL-05 tie-break between equally full (source) or equally short (destination) tables."""
    if len(candidates) == 1:
        return candidates[0]
    if tie_break == "RANDOM_DRAW":
        return rng.choice(sorted(candidates))
    return max(candidates) if role == "source" else min(candidates)


def keep_drawn_seats(plan: Sequence[Move], open_slips: Iterable[tuple], tables: Sequence[Table]) -> list[Move]:
    """``plan`` with the seats the floor already holds slips for, where the seat was a draw.

    BAL-04 with the destination's big blind unknown: the open seat is drawn at random. The
    plan is made again after every confirmed move, and each time it drew the open slips'
    seats anew: every other slip was superseded and written again with a new seat, under
    the hands of the floor carrying them (a bust with several balancing moves made as many
    rounds). A drawn move of the same player from the same
    seat to the same table as an open slip (``(player, from_table, from_seat, to_table,
    to_seat)``) keeps the slip's seat while it is open and no move whose seat the big blind
    chose takes it; a drawn move whose own draw is now a kept slip's takes a seat that a kept
    move gave up at that table (a draw as good as its own). No seat is handed out twice."""
    held = {(p, ft, fs, tt): ts for p, ft, fs, tt, ts in open_slips}
    if not held:
        return list(plan)
    by_number = {t.number: t for t in tables}
    chosen = {(m.to_table, m.to_seat) for m in plan if not _seat_drawn(m)}
    kept: dict[int, int] = {}
    claimed: set[tuple[int, int]] = set()
    for i, m in enumerate(plan):
        seat = held.get((m.player, m.from_table, m.from_seat, m.to_table))
        if seat is None or not _seat_drawn(m) or (m.to_table, seat) in chosen or (m.to_table, seat) in claimed:
            continue
        dest = by_number.get(m.to_table)
        if dest is not None and seat in dest.open_seats():
            kept[i] = seat
            claimed.add((m.to_table, seat))
    given_up = [(plan[i].to_table, plan[i].to_seat) for i in kept if (plan[i].to_table, plan[i].to_seat) not in claimed]
    out = []
    for i, m in enumerate(plan):
        seat = kept.get(i)
        if seat is None and (m.to_table, m.to_seat) in claimed:  # its draw is a kept slip's: one given up instead
            seat = next(s for table, s in given_up if table == m.to_table)
            given_up.remove((m.to_table, seat))
        if seat is None or seat == m.to_seat:
            out.append(m)
        else:
            out.append(replace(m, to_seat=seat, reason=_drawn_seat_is(m.reason, seat)))
    return out


def _seat_drawn(m: Move) -> bool:
    return isinstance(m.reason, Reason) and any(n.code == R.DEST_BB_UNKNOWN for n in m.reason.notes)


def _drawn_seat_is(reason: Reason, seat: int) -> Reason:
    notes = tuple(replace(n, args=tuple((k, seat if k == "seat" else v) for k, v in n.args)) if n.code == R.DEST_BB_UNKNOWN else n for n in reason.notes)
    return replace(reason, notes=notes)


class _SeatChoice(NamedTuple):
    seat: int
    why: tuple[Reason, ...]  # the clauses of the move's reason about the destination
    wait_for_button: bool
    single_big_blind: bool


def _balance_move(
    source: Table,
    dest: Table,
    mover_rule: str,
    dest_rule: str,
    vacated_bb_seat: str,
    rng: random.Random,
    fixed: Collection[Hashable] = (),
) -> Move:
    if mover_rule == "STUD_POSITION":
        return _stud_balance_move(source, dest, fixed)
    from_seat, mover = _pick_mover(source, mover_rule)
    notes: list[Reason] = []
    if fixed and source.seats[from_seat] in fixed:
        free = [s for s in _clockwise_from(source, from_seat) if source.seats[s] not in fixed]
        if free:
            notes.append(_why(R.MOVER_FIXED_SEAT, fixed_seat=from_seat, seat=free[0]))
            from_seat = free[0]
    mover_hands = hands_until_big_blind(source, from_seat)
    choice = _pick_destination_seat(dest, dest_rule, vacated_bb_seat, rng, mover_hands)
    notes.extend(choice.why)
    notes.append(_why(R.BALANCE_COUNTS, from_table=source.number, from_players=len(source.seats), to_table=dest.number, to_players=len(dest.seats)))
    reason = Reason(mover.code, mover.args, tuple(notes))
    return Move(
        source.seats[from_seat],
        source.number,
        from_seat,
        dest.number,
        choice.seat,
        reason,
        choice.wait_for_button,
        BALANCE,
        choice.single_big_blind,
    )


def _stud_balance_move(source: Table, dest: Table, fixed: Collection[Hashable] = ()) -> Move:
    """BAL-03 / FMT-16, TDA 11-A for stud-only events: there is no button, and «players move
    by position (last seat open at the short table is the seat filled)». The seat filled is
    the last open seat of the short table, the highest-numbered one [INFERENCE: seats are
    numbered from the dealer's left, so "last" is read as the highest number]; the player who
    moves is the one in that seat number at the fuller table, else the next player clockwise
    after that seat (a player seated by hand, SEAT-07, is passed over). No big blind, so no
    wait for the button and no single big blind."""
    open_seats = dest.open_seats()
    if not open_seats:
        raise SeatingError("no_open_seat", f"table {dest.number} has no open seat")
    to_seat = open_seats[-1]
    order = [to_seat] if to_seat in source.seats else []
    order += [s for s in _clockwise_from(source, to_seat) if s != to_seat]
    free = [s for s in order if source.seats[s] not in fixed] or order
    from_seat = free[0]
    notes = (
        _why(R.DEST_STUD_LAST_OPEN, table=dest.number, seat=to_seat),
        _why(R.BALANCE_COUNTS, from_table=source.number, from_players=len(source.seats), to_table=dest.number, to_players=len(dest.seats)),
    )
    reason = Reason(R.MOVER_STUD_POSITION, (("table", source.number), ("seat", from_seat), ("to_seat", to_seat)), notes)
    return Move(source.seats[from_seat], source.number, from_seat, dest.number, to_seat, reason, False, BALANCE, False)


def _pick_mover(table: Table, mover_rule: str) -> tuple[int, Reason]:
    """BAL-03: the seat of the player who moves, and why (a reason code)."""
    n = table.number
    if table.big_blind_seat is None:
        seat = max(table.seats)
        return seat, _why(R.MOVER_BB_UNKNOWN, table=n, seat=seat)
    positions = next_hand_positions(table)
    if mover_rule == "NEXT_BB":
        return positions.big_blind, _why(R.MOVER_NEXT_BB, table=n, seat=positions.big_blind)
    if mover_rule == "CURRENT_BB":
        bb = table.big_blind_seat
        if bb in table.seats:
            return bb, _why(R.MOVER_CURRENT_BB, table=n, seat=bb)
        return positions.big_blind, _why(R.MOVER_CURRENT_BB_LEFT, table=n, left_seat=bb, seat=positions.big_blind)
    button = positions.button
    if button in table.seats:
        return button, _why(R.MOVER_BUTTON, table=n, seat=button)
    seat = _occupied_before(table.seats, table.capacity, button)
    return seat, _why(R.MOVER_DEAD_BUTTON, table=n, button=button, seat=seat)


def _pick_destination_seat(
    dest: Table,
    dest_rule: str,
    vacated_bb_seat: str,
    rng: random.Random,
    mover_hands: int | None,
) -> _SeatChoice:
    """BAL-04: the open seat at the destination, never the next small blind."""
    n = dest.number
    open_seats = dest.open_seats()
    if not open_seats:
        raise SeatingError("no_open_seat", f"table {n} has no open seat")
    bb = dest.big_blind_seat
    if bb is None:
        seat = rng.choice(open_seats)
        return _SeatChoice(seat, (_why(R.DEST_BB_UNKNOWN, table=n, seat=seat),), False, False)
    capacity = dest.capacity
    players_after = len(dest.seats) + 1
    options = []  # (seat, hands until big blind, waits for button, is the vacated BB seat)
    for seat in open_seats:
        if seat == bb:
            if vacated_bb_seat == "SINGLE_BB":
                options.append((seat, 1, False, True))
            continue
        hands = hands_until_big_blind(dest, seat)
        options.append((seat, hands, _waits_for_button(dest, seat, players_after), False))
    if not options:
        return _SeatChoice(bb, (_why(R.DEST_ONLY_VACATED_BB, table=n, seat=bb),), False, True)

    def clockwise(seat: int) -> int:
        return (seat - bb) % capacity

    note: tuple[Reason, ...] = ()
    if dest_rule == "NEAREST_BB":
        target = next_hand_positions(dest).big_blind

        def key(o):
            distance = min((o[0] - target) % capacity, (target - o[0]) % capacity)
            return (o[2], distance, o[1], o[3], clockwise(o[0]))

        note = (_why(R.DEST_NEAREST_BB, seat=target),)
    elif dest_rule == "SAME_RELATIVE_POSITION":
        wanted = mover_hands if mover_hands is not None else 1

        def key(o):
            return (o[2], abs(o[1] - wanted), o[1], o[3], clockwise(o[0]))

        note = (_why(R.DEST_SAME_POSITION, hands=wanted),)
    else:

        def key(o):
            return (o[2], o[1], o[3], clockwise(o[0]))

    seat, hands, wait, vacated = min(options, key=key)
    if vacated:
        first = _why(R.DEST_VACATED_BB, table=n, seat=seat)
    elif hands == 1:
        first = _why(R.DEST_BB_NEXT_HAND, table=n, seat=seat)
    else:
        first = _why(R.DEST_BB_IN_HANDS, table=n, seat=seat, hands=hands)
    why = (first, *note, *((_why(R.DEST_WAITS_FOR_BUTTON),) if wait else ()))
    return _SeatChoice(seat, why, wait, vacated)


def _apart_balance_move(bench, live, most, receivers, first, partners, rules, rng, fixed=()):
    """A balancing move that keeps a pair apart: another short table for the same mover,
    else a mover from another of the fullest tables; else the first choice (flagged)."""
    mover_rule, dest_rule, vacated_bb_seat, _tie_break = rules
    source = first[0]
    for dest in sorted(receivers, key=lambda n: (receivers[n], n)):
        if dest == first[1]:
            continue
        move = _balance_move(bench.table(source), bench.table(dest), mover_rule, dest_rule, vacated_bb_seat, rng, fixed)
        if not _meets_partner(move.player, bench.table(dest), partners):
            return source, dest, move
    for other in sorted(n for n, c in live.items() if c == most and n != source):
        for dest in sorted(receivers, key=lambda n: (receivers[n], n)):
            if dest == other:
                continue
            move = _balance_move(bench.table(other), bench.table(dest), mover_rule, dest_rule, vacated_bb_seat, rng, fixed)
            if not _meets_partner(move.player, bench.table(dest), partners):
                return other, dest, move
    return first
