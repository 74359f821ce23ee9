"""Seating engine: balancing in a room with a keep-apart pair (SEAT-07 with BAL-03..05), pure.

A mover whose partner sits at the chosen short table goes to the next short table (fewest
players first, then the lowest number), else the move comes from another of the fullest
tables. Either way the house's rules hold as on the ordinary path: the mover (BAL-03, a
player seated by hand passed over), his seat by the destination rule (BAL-04: the worst
position, the nearest to the big blind, the vacated big blind's seat, a draw when the big
blind is not known). Players are named "p" + table + seat: p105 sits at table 1 seat 5.
"""

from __future__ import annotations

import random

import pytest

from seating.engine import Move, SeatingError, Table, apply_moves, plan_balance


def table(number: int, seats, bb: int | None) -> Table:
    """A 10-seat table, the player in seat s named p<number><0s>, the big blind in ``bb``."""
    return Table(number, 10, {s: f"p{number * 100 + s}" for s in seats}, big_blind_seat=bb, previous_big_blind_seat=bb - 1 if bb else None)


def first_move(tables, apart, **rules) -> tuple:
    m = plan_balance(tables, apart=apart, rng=random.Random(3), **rules)[0]
    return (m.player, m.from_table, m.from_seat, m.to_table, m.to_seat, m.single_big_blind)


def next_short_table(bb4: int | None = 5) -> list[Table]:
    """9 at table 1; 7, 5 and 6 at tables 2, 3 and 4. Table 1's next big blind is seat 5 (p105),
    whose partner p301 sits at table 3, the shortest: he goes to table 4 (6 players) before
    table 2 (7 players)."""
    return [table(1, range(1, 10), 4), table(2, range(1, 8), 3), table(3, range(1, 6), 2), table(4, [1, 2, 3, 4, 6, 7], bb4)]


APART_1 = [("p105", "p301"), ("p106", "p301")]


def test_seat07_a_mover_kept_apart_goes_to_the_next_fewest_table_worst_position():
    assert first_move(next_short_table(), APART_1) == ("p105", 1, 5, 4, 8, False)


def test_seat07_a_mover_kept_apart_takes_the_seat_the_big_blind_left_under_single_bb():
    assert first_move(next_short_table(), APART_1, vacated_bb_seat="SINGLE_BB") == ("p105", 1, 5, 4, 5, True)


def test_seat07_a_mover_kept_apart_takes_the_seat_nearest_the_big_blind_by_setting():
    assert first_move(next_short_table(bb4=7), APART_1) == ("p105", 1, 5, 4, 8, False)
    assert first_move(next_short_table(bb4=7), APART_1, dest_rule="NEAREST_BB") == ("p105", 1, 5, 4, 10, False)


def test_seat07_a_mover_kept_apart_passes_over_a_player_seated_by_hand():
    assert first_move(next_short_table(), APART_1, fixed={"p105"}) == ("p106", 1, 6, 4, 8, False)


def test_seat07_a_mover_kept_apart_draws_his_seat_when_the_big_blind_is_not_known():
    tables = next_short_table(bb4=None)
    tables[2] = table(3, range(1, 6), None)  # table 3's seat is drawn too before the partner is seen
    assert first_move(tables, APART_1) == ("p105", 1, 5, 4, 8, False)


def test_seat07_a_mover_kept_apart_skips_a_second_short_table_with_another_partner():
    """p105's partners sit at tables 3 and 4: he goes to table 2, the third choice."""
    apart = [("p105", "p301"), ("p105", "p401")]
    assert first_move(next_short_table(), apart) == ("p105", 1, 5, 2, 8, False)


def other_fullest_table(bb4: int | None = 5) -> list[Table]:
    """7 at table 1, 9 at tables 2 and 3, 6 at table 4. Table 3 gives first (the highest of the
    fullest), but its next big blind p305 has partners at both short tables: the move comes from
    table 2 (p205, its next big blind) to table 4, the fewest."""
    return [table(1, range(1, 8), 3), table(2, range(1, 10), 4), table(3, range(1, 10), 4), table(4, [1, 2, 3, 4, 6, 7], bb4)]


APART_3 = [("p305", "p401"), ("p305", "p101")]


def test_seat07_the_move_comes_from_another_fullest_table_worst_position():
    assert first_move(other_fullest_table(), APART_3) == ("p205", 2, 5, 4, 8, False)


def test_seat07_the_move_from_another_fullest_table_takes_the_vacated_big_blind_under_single_bb():
    assert first_move(other_fullest_table(), APART_3, vacated_bb_seat="SINGLE_BB") == ("p205", 2, 5, 4, 5, True)


def test_seat07_the_move_from_another_fullest_table_takes_the_seat_nearest_the_big_blind():
    assert first_move(other_fullest_table(bb4=7), APART_3, dest_rule="NEAREST_BB") == ("p205", 2, 5, 4, 10, False)


def test_seat07_the_move_from_another_fullest_table_passes_over_a_player_seated_by_hand():
    assert first_move(other_fullest_table(), APART_3, fixed={"p205"}) == ("p206", 2, 6, 4, 8, False)


def test_seat07_the_move_from_another_fullest_table_draws_the_seat_when_the_big_blind_is_not_known():
    assert first_move(other_fullest_table(bb4=None), APART_3) == ("p205", 2, 5, 4, 8, False)


def test_seat07_the_other_fullest_tables_mover_kept_apart_too_goes_to_the_next_short_table():
    """p205 too has a partner at table 4: he goes to table 1."""
    apart = [*APART_3, ("p205", "p402")]
    assert first_move(other_fullest_table(), apart) == ("p205", 2, 5, 1, 8, False)


def test_apply_moves_refuses_a_player_moved_twice_with_its_code():
    tables = [table(1, range(1, 10), 4), table(2, range(1, 6), 3)]
    moves = [Move("p105", 1, 5, 2, 6, "by hand"), Move("p105", 1, 5, 2, 7, "by hand")]
    with pytest.raises(SeatingError) as caught:
        apply_moves(tables, moves)
    assert caught.value.code == "duplicate_move"


def test_seat07_a_mover_is_kept_apart_from_a_partner_moved_earlier_in_the_same_plan():
    """9, 9, 5 and 7 players: p205 (table 2's next big blind) goes to table 3, the shortest.
    Table 1's next big blind p105 would follow him there, but they are kept apart: he goes to
    table 4 (7 players), which then gives its next big blind p404 to table 3."""
    tables = [table(1, range(1, 10), 4), table(2, range(1, 10), 4), table(3, range(1, 6), 2), table(4, range(1, 8), 3)]
    plan = plan_balance(tables, apart=[("p105", "p205")], rng=random.Random(3))
    assert [(m.player, m.from_table, m.from_seat, m.to_table, m.to_seat) for m in plan] == [
        ("p205", 2, 5, 3, 6),
        ("p105", 1, 5, 4, 8),
        ("p404", 4, 4, 3, 7),
    ]
