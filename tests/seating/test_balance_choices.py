"""Balancing choices the other tests never try (BAL-01..05, FMT-16, SEAT-07).

Pure engine tests, no database: a house setting's other value, a seat next to the blinds, a
stud table, ties between tables, a short table whose open seats are locked, a slip's words.
"""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from seating.engine import SeatingError, Table, halted_tables, plan_balance
from seating.labels import reason_text

from .test_engine import full, table, with_open


def slip(move) -> tuple:
    """What the floor reads on the slip: who, from where, to where, and the flags."""
    return (move.player, move.from_table, move.from_seat, move.to_table, move.to_seat, move.wait_for_button, move.single_big_blind)


def words(move) -> str:
    with translation.override("en"):
        return reason_text(move.reason)


def test_bal05_an_unknown_setting_is_refused_naming_the_setting():
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [3, 7], bb=2, prev=1)]
    for name in ("mover_rule", "dest_rule", "tie_break", "vacated_bb_seat"):
        with pytest.raises(SeatingError) as error:
            plan_balance(tables, **{name: "NONSENSE"})
        assert error.value.code == "unknown_setting"
        assert str(error.value).startswith(f"{name} must be one of ") and str(error.value).endswith(", not 'NONSENSE'")
    with pytest.raises(SeatingError) as error:
        plan_balance(tables, trigger_difference=1)
    assert error.value.code == "bad_trigger"


def test_bal01_no_move_when_the_short_tables_open_seats_are_all_locked():
    # 10, 9, 8: table 3 is two short but its two open seats are locked; table 2 is only one short.
    tables = [full(1, 10, bb=1), with_open(2, [5], bb=1), with_open(3, [1, 2], bb=5, locked_seats={1, 2})]
    assert plan_balance(tables) == []


def test_bal05_equally_short_tables_the_lowest_number_receives():
    tables = [full(1, 9, bb=1), with_open(2, [1, 2], 9, bb=5), with_open(3, [1, 2], 9, bb=5)]
    (move,) = plan_balance(tables)
    assert slip(move) == ("T1S2", 1, 2, 2, 1, False, False)
    assert words(move) == (
        "next big blind at table 1 (seat 2); seat 1 at table 2 posts the big blind in 5 hands (balancing: table 1 had 9 players, table 2 had 7)"
    )


def test_bal04_an_unknown_big_blind_draws_the_seat_without_a_random_source_given():
    (move,) = plan_balance([full(1, 10, bb=4, prev=3), with_open(2, [3, 7])])
    assert move.to_seat in (3, 7) and not move.wait_for_button and not move.single_big_blind
    (move,) = plan_balance([full(1, 10, bb=4, prev=3), with_open(2, [3, 7])], rng=random.Random(1))
    assert slip(move) == ("T1S5", 1, 5, 2, 3, False, False)
    assert words(move) == (
        "next big blind at table 1 (seat 5); big-blind position unknown at table 2: seat 3 drawn at random from the open seats "
        "(fallback); confirm the button before the player is dealt in (balancing: table 1 had 10 players, table 2 had 8)"
    )


def test_seat07_a_pair_kept_apart_sends_the_fixed_seats_neighbour_to_the_other_short_table():
    # T1S5 (next big blind) sits by hand, so T1S6 moves; his partner is at table 2, so table 3.
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [3, 7], bb=2, prev=1), with_open(3, [3, 7])]
    (move,) = plan_balance(tables, rng=random.Random(1), apart=[("T1S6", "T2S1")], fixed={"T1S5"})
    assert slip(move) == ("T1S6", 1, 6, 3, 3, False, False)
    assert "seat 5 was given by hand (special needs), so the next player clockwise moves: seat 6" in words(move)


def test_seat07_a_pair_kept_apart_takes_the_mover_of_the_other_full_table():
    # Tables 1 and 2 both have 10: table 2 gives (TABLE_ORDER), but T2S5's partner sits at table 3.
    tables = [full(1, 10, bb=4, prev=3), full(2, 10, bb=4, prev=3), with_open(3, [3, 7], bb=2, prev=1)]
    (move,) = plan_balance(tables)
    assert slip(move) == ("T2S5", 2, 5, 3, 3, False, False)
    (move,) = plan_balance(tables, apart=[("T2S5", "T3S1")])
    assert slip(move) == ("T1S5", 1, 5, 3, 3, False, False)


def test_fmt16_stud_passes_over_a_player_seated_by_hand():
    full_table = Table(1, 10, {s: f"a{s}" for s in range(1, 11)}, big_blind_seat=3)
    short = Table(2, 10, {s: f"b{s}" for s in (1, 3, 4, 5, 8, 9, 10)}, big_blind_seat=5)  # open 2, 6, 7
    (move,) = plan_balance([full_table, short], mover_rule="STUD_POSITION")
    assert (move.player, move.from_seat, move.to_seat, move.kind) == ("a7", 7, 7, "BALANCE")
    (move,) = plan_balance([full_table, short], mover_rule="STUD_POSITION", fixed={"a7"})
    assert slip(move) == ("a8", 1, 8, 2, 7, False, False)
    assert move.kind == "BALANCE"
    assert words(move) == (
        "stud, by position: the player in seat 8 at table 1, the seat number filled (7) or the next after it; "
        "stud: the last open seat at table 2, seat 7 (balancing: table 1 had 10 players, table 2 had 7)"
    )


def test_seat07_a_player_seated_by_hand_elsewhere_changes_nothing():
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [3, 7], bb=2, prev=1)]
    (move,) = plan_balance(tables, fixed={"T1S9"})
    assert slip(move) == ("T1S5", 1, 5, 2, 3, False, False)
    assert words(move) == (
        "next big blind at table 1 (seat 5); seat 3 at table 2 posts the big blind next hand (balancing: table 1 had 10 players, table 2 had 8)"
    )


def test_bal03_button_mode_with_a_dead_button_says_so_on_the_slip():
    tables = [with_open(1, [3], bb=4, prev=3), with_open(2, [3, 7, 8], bb=2, prev=1)]
    (move,) = plan_balance(tables, mover_rule="BUTTON_CASH")
    assert slip(move) == ("T1S2", 1, 2, 2, 3, False, False)
    assert words(move) == (
        "dead button at table 1 (seat 3): moved seat 2, who acts last in the next hand; "
        "seat 3 at table 2 posts the big blind next hand (balancing: table 1 had 9 players, table 2 had 7)"
    )


def test_bal04_single_bb_takes_the_vacated_seat_before_a_seat_two_hands_away():
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [2, 4], bb=2, prev=1)]
    (move,) = plan_balance(tables, vacated_bb_seat="SINGLE_BB")
    assert slip(move) == ("T1S5", 1, 5, 2, 2, False, True)


def test_bal04_the_only_open_seat_is_the_vacated_big_blind_and_the_slip_says_so():
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [2, 7], bb=2, prev=1, locked_seats={7})]
    (move,) = plan_balance(tables)
    assert slip(move) == ("T1S5", 1, 5, 2, 2, False, True)
    assert words(move) == (
        "next big blind at table 1 (seat 5); seat 2 at table 2 is the only open seat and the big blind just left it: the player "
        "posts the big blind alone next hand, never the small blind (fallback) (balancing: table 1 had 10 players, table 2 had 8)"
    )


def test_bal04_two_seats_both_next_big_blind_across_seat_ten_the_first_after_the_blind_wins():
    # Table 2's big blind was seat 9; seats 10 and 1 are open: either would post the big blind next.
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [10, 1], bb=9, prev=8)]
    (move,) = plan_balance(tables)
    assert slip(move) == ("T1S5", 1, 5, 2, 10, False, False)
    (move,) = plan_balance(tables, dest_rule="SAME_RELATIVE_POSITION")
    assert slip(move) == ("T1S5", 1, 5, 2, 10, False, False)
    assert words(move) == (
        "next big blind at table 1 (seat 5); seat 10 at table 2 posts the big blind next hand "
        "(nearest to the old position: big blind in 1 hand) (balancing: table 1 had 10 players, table 2 had 8)"
    )


def test_bal04_nearest_bb_between_two_seats_as_near():
    tables = [table(1, 10, range(1, 6), bb=2, prev=1), table(2, 10, [4, 5, 6], bb=4, prev=3)]
    (move,) = plan_balance(tables, dest_rule="NEAREST_BB")
    assert slip(move) == ("T1S3", 1, 3, 2, 7, False, False)
    assert words(move) == (
        "next big blind at table 1 (seat 3); seat 7 at table 2 posts the big blind in 3 hands "
        "(the open seat nearest the big blind, seat 5) (balancing: table 1 had 5 players, table 2 had 3)"
    )


def test_bal04_same_relative_position_with_the_movers_big_blind_unknown_aims_at_one_hand():
    tables = [table(1, 10, range(1, 10)), with_open(2, [3, 7, 8], bb=2, prev=1)]
    (move,) = plan_balance(tables, dest_rule="SAME_RELATIVE_POSITION")
    assert slip(move) == ("T1S9", 1, 9, 2, 3, False, False)
    assert "(nearest to the old position: big blind in 1 hand)" in words(move)


def test_bal04_a_seat_before_the_small_blind_waits_for_the_button_and_the_slip_says_so():
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [2, 10], bb=3, prev=1, locked_seats={10})]
    (move,) = plan_balance(tables)
    assert slip(move) == ("T1S5", 1, 5, 2, 2, True, False)
    assert words(move) == (
        "next big blind at table 1 (seat 5); seat 2 at table 2 posts the big blind in 8 hands; it lies between the button "
        "and the small blind, so the player waits for the button (no other open seat) (balancing: table 1 had 10 players, table 2 had 8)"
    )


def test_bal04_every_house_rule_for_the_seat_passes_over_a_seat_that_waits_for_the_button():
    # Table 2: button 1, small blind 3; seat 2 waits, seat 10 does not.
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [2, 10], bb=3, prev=1)]
    (move,) = plan_balance(tables, mover_rule="CURRENT_BB", dest_rule="SAME_RELATIVE_POSITION")
    assert slip(move) == ("T1S4", 1, 4, 2, 10, False, False)
    (move,) = plan_balance(tables, dest_rule="NEAREST_BB")
    assert slip(move) == ("T1S5", 1, 5, 2, 10, False, False)


def test_bal04_nearest_bb_measures_both_ways_round_the_table():
    # Table 2's next big blind is seat 3: seat 4 is one seat away, seat 7 four.
    (move,) = plan_balance([full(1, 10, bb=4, prev=3), with_open(2, [4, 7], bb=2, prev=1)], dest_rule="NEAREST_BB")
    assert slip(move) == ("T1S5", 1, 5, 2, 4, False, False)


def test_bal04_single_bb_with_nearest_or_same_position_prefers_the_sooner_big_blind_on_a_tie():
    # Nearest: seats 2 (vacated) and 4 are both one seat from the coming big blind (3).
    (move,) = plan_balance([full(1, 10, bb=4, prev=3), with_open(2, [2, 4], bb=2, prev=1)], dest_rule="NEAREST_BB", vacated_bb_seat="SINGLE_BB")
    assert slip(move) == ("T1S5", 1, 5, 2, 2, False, True)
    # Same position: T1S6 moves (T1S5 sits by hand), 2 hands from the big blind; seat 2 is 1, seat 5 is 3.
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [2, 5], bb=2, prev=1)]
    (move,) = plan_balance(tables, dest_rule="SAME_RELATIVE_POSITION", vacated_bb_seat="SINGLE_BB", fixed={"T1S5"})
    assert slip(move) == ("T1S6", 1, 6, 2, 2, False, True)


def test_bal04_waiting_for_the_button_counts_the_mover_among_the_players():
    # Two players at table 2: with the mover three, so seat 2 (before the small blind) waits.
    tables = [table(1, 10, [1, 2, 3, 4], bb=2, prev=1), table(2, 10, [1, 5], bb=5, prev=1, locked_seats=frozenset({3, 4, 6, 7, 8, 9, 10}))]
    (move,) = plan_balance(tables)
    assert slip(move) == ("T1S3", 1, 3, 2, 2, True, False)
    # One player at table 2 (button 2, big blind 5): with the mover two, heads-up: seat 3 does not wait.
    tables = [table(1, 10, [1, 2, 3], bb=2, prev=1), table(2, 10, [5], bb=5, prev=2, locked_seats=frozenset({1, 2, 4, 6, 7, 8, 9, 10}))]
    (move,) = plan_balance(tables)
    assert slip(move) == ("T1S3", 1, 3, 2, 3, False, False)


def test_bal04_a_second_mover_to_a_single_big_blind_table_waits_one_hand_more():
    # 10, 10, 5: table 3's big blind (seat 4) has left. Under SINGLE_BB the first mover takes
    # seat 4 and posts the big blind alone next hand; the big blind then goes on to seats 5 and
    # 6, so the second mover's seat 7 posts it in the fourth hand, the third mover's seat 8 in
    # the fifth.
    tables = [full(1, 10, bb=4, prev=3), full(2, 10, bb=4, prev=3), with_open(3, [4, 7, 8, 9, 10], bb=4, prev=3)]
    plan = plan_balance(tables, vacated_bb_seat="SINGLE_BB")
    assert [slip(m) for m in plan] == [
        ("T2S5", 2, 5, 3, 4, False, True),
        ("T1S5", 1, 5, 3, 7, False, False),
        ("T2S6", 2, 6, 3, 8, False, False),
    ]
    assert words(plan[1]) == (
        "next big blind at table 1 (seat 5); seat 7 at table 3 posts the big blind in 4 hands (balancing: table 1 had 10 players, table 3 had 6)"
    )
    assert "seat 8 at table 3 posts the big blind in 5 hands" in words(plan[2])


def test_bal01_an_empty_table_does_not_trigger_a_move_the_playing_tables_do_not_need():
    # 004 Art. 16.2's trigger of 3: 9 and 7 players are two apart, no move. The empty table
    # (its players moved out) and a locked table are not short tables: the room is as balanced as it was.
    tables = [full(1, 9, bb=1), with_open(2, [1, 2], 9, bb=5), table(3, 9, [])]
    assert plan_balance(tables, trigger_difference=3) == []
    assert plan_balance([*tables[:2], table(3, 9, [1, 2], locked=True)], trigger_difference=3) == []
    assert [slip(m)[:4] for m in plan_balance(tables)] == [("T1S2", 1, 2, 2)]


def test_bal02_of_two_tables_the_one_three_short_halts():
    # 9 and 6: the short table waits for a player; 9 and 7 play on; one table alone never halts.
    assert halted_tables([full(1, 9, bb=1), with_open(2, [1, 2, 3], 9, bb=5)]) == [2]
    assert halted_tables([full(1, 9, bb=1), with_open(2, [1, 2], 9, bb=5)]) == []
    assert halted_tables([with_open(2, [1, 2, 3], 9, bb=5)]) == []
