"""Seating engine: balancing during hand-for-hand (CLK-06 with BAL-01..05), pure.

While a table plays the hand-for-hand hand, its positions are those of the hand being played:
the next big blind there (BAL-03's mover) and the best open seat (BAL-04) are known only once it
has reported the hand. A move off or onto such a table waits; a move once shown stands.
"""

from __future__ import annotations

import random

from seating.engine import Move, Table, advance_hand, apply_moves, plan_balance, plan_balance_between_hands


def table(number: int, seats: list[int], bb: int, first: int = 100) -> Table:
    """A 9-seat table, the players numbered from ``first`` in seat order, BB(h) = ``bb``."""
    return Table(number, 9, {s: first + s for s in seats}, big_blind_seat=bb, previous_big_blind_seat=bb - 1)


def key(m: Move) -> tuple:
    return (m.player, m.from_table, m.from_seat, m.to_table, m.to_seat)


def bubble() -> list[Table]:
    """Table 1: five players (a bust left it short), table 2: seven; 5 against 7 needs a move."""
    return [table(1, [2, 3, 4, 5, 6], bb=3, first=100), table(2, [1, 2, 3, 4, 5, 6, 7], bb=4, first=200)]


def test_h4h_balancing_move_off_a_table_playing_the_hand_waits():
    plan = plan_balance_between_hands(bubble(), playing={2}, rng=random.Random(1))
    assert plan.moves == [] and plan.kept == []
    (waiting,) = plan.waiting
    assert (waiting.from_table, waiting.to_table) == (2, 1)


def test_h4h_balancing_move_onto_a_table_playing_the_hand_waits():
    """The destination's open seat follows from its big blind (BAL-04), which moves on when it
    reports the hand: a seat chosen mid-hand would be chosen from the hand being played."""
    plan = plan_balance_between_hands(bubble(), playing={1}, rng=random.Random(1))
    assert plan.moves == [] and [(m.from_table, m.to_table) for m in plan.waiting] == [(2, 1)]


def test_h4h_balancing_move_is_proposed_once_both_tables_have_finished_the_hand():
    finished = [advance_hand(t) for t in bubble()]  # both reported: the blinds moved on
    plan = plan_balance_between_hands(finished, playing=set(), rng=random.Random(1))
    (move,) = plan.moves
    assert plan.waiting == []
    # the next big blind at table 2 now: seat 6 (seat 5 posted the big blind in the hand played)
    assert (move.player, move.from_table, move.from_seat, move.to_table) == (206, 2, 6, 1)
    assert move == plan_balance(finished, rng=random.Random(1))[0]  # between hands, TDA's rules as ever


def test_h4h_balancing_move_shown_stands_when_the_blinds_move_on():
    finished = [advance_hand(t) for t in bubble()]
    (shown,) = plan_balance_between_hands(finished, playing=set(), rng=random.Random(1)).moves
    later = [advance_hand(t) for t in finished]  # the next hand is played before the floor moves him
    assert key(plan_balance(later, rng=random.Random(1))[0]) != key(shown)  # a plan made afresh would swap him
    plan = plan_balance_between_hands(later, playing={1, 2}, kept=[key(shown)], rng=random.Random(1))
    assert plan == ([key(shown)], [], [])


def test_h4h_balancing_move_shown_goes_when_its_player_is_gone_or_it_is_no_longer_needed():
    finished = [advance_hand(t) for t in bubble()]
    (shown,) = plan_balance_between_hands(finished, playing=set(), rng=random.Random(1)).moves
    # his own table's player out: 5 against 6, no move needed any more
    t1, t2 = finished
    busted = [t1, Table(2, 9, {s: p for s, p in t2.seats.items() if s != 2}, t2.big_blind_seat, t2.previous_big_blind_seat)]
    assert plan_balance_between_hands(busted, playing=set(), kept=[key(shown)], rng=random.Random(1)) == ([], [], [])
    # the player shown is out himself and table 1 loses one more: 4 against 6, another player moves
    gone = [Table(1, 9, {s: p for s, p in t1.seats.items() if s != 2}, t1.big_blind_seat, t1.previous_big_blind_seat)]
    gone.append(Table(2, 9, {s: p for s, p in t2.seats.items() if s != shown.from_seat}, t2.big_blind_seat, t2.previous_big_blind_seat))
    plan = plan_balance_between_hands(gone, playing=set(), kept=[key(shown)], rng=random.Random(1))
    assert plan.kept == [] and len(plan.moves) == 1 and plan.moves[0].player != shown.player


def test_h4h_balancing_moves_between_finished_tables_go_ahead_while_another_waits():
    """Three tables: 5, 8 and 8 need two moves onto table 1; table 2 still plays the hand, so
    the move off table 3 is proposed now and the one off table 2 waits, its place in the plan
    kept: once table 2 has finished, the shown move stands and table 2's is made around it."""
    tables = [table(1, [1, 2, 3, 4, 5], bb=2), table(2, [1, 2, 3, 4, 5, 6, 7, 8], bb=3, first=200), table(3, [1, 2, 3, 4, 5, 6, 7, 8], bb=5, first=300)]
    plan = plan_balance_between_hands(tables, playing={2}, rng=random.Random(1))
    assert [(m.from_table, m.to_table) for m in plan.moves] == [(3, 1)]
    assert [(m.from_table, m.to_table) for m in plan.waiting] == [(2, 1)]
    (shown,) = plan.moves
    tables[1] = advance_hand(tables[1])  # table 2 reports the hand
    after = plan_balance_between_hands(tables, playing=set(), kept=[key(shown)], rng=random.Random(1))
    assert after.kept == [key(shown)] and after.waiting == []
    (move,) = after.moves
    assert (move.from_table, move.to_table) == (2, 1) and move.to_seat != shown.to_seat
    assert sorted(len(t.seats) for t in apply_moves(tables, [shown, move])) == [7, 7, 7]


def test_clk06_between_hands_the_house_trigger_and_rules_hold():
    """004 Art. 16.2's trigger of 3: 7 against 5 waits for one more bust; under SINGLE_BB the
    mover takes the seat the big blind left (table 1's seat 3, its BB(h) now empty)."""
    finished = [advance_hand(t) for t in bubble()]
    assert plan_balance_between_hands(finished, playing=set(), trigger_difference=3, rng=random.Random(1)) == ([], [], [])
    left = [table(1, [2, 4, 5, 6], bb=3, first=100), finished[1]]
    plan = plan_balance_between_hands(left, playing=set(), vacated_bb_seat="SINGLE_BB", rng=random.Random(1))
    assert [(key(m), m.single_big_blind) for m in plan.moves] == [((206, 2, 6, 1, 3), True)]


def test_clk06_between_hands_a_seat_drawn_comes_from_the_events_seed():
    """Table 1's big blind is not known: the open seat is drawn, the first draw of the seed
    logged for the plan, so a replay of the log gives the same seat."""
    tables = [Table(1, 9, {2: 102, 3: 103, 4: 104, 5: 105}), advance_hand(bubble()[1])]
    for seed in range(8):
        plan = plan_balance_between_hands(tables, playing=set(), rng=random.Random(seed))
        assert [(m.player, m.to_table, m.to_seat) for m in plan.moves] == [(206, 1, random.Random(seed).choice([1, 6, 7, 8, 9]))]
