"""Seating engine: positions, balancing, breaking, draws, final table, finishing places.

RULES.md §3, §4, §8 and acceptance scenarios 3, 6, 10, 11, 12, 15, 17.
"""

from __future__ import annotations

import random

import pytest

from seating.engine import (
    DECK,
    Bust,
    Move,
    Place,
    Positions,
    ReasonCode,
    SeatingError,
    Table,
    advance_hand,
    apply_late_seat,
    apply_moves,
    draw_break,
    draw_late_seat,
    draw_seats,
    final_table_due,
    final_table_size,
    finishing_places,
    halted_tables,
    hands_until_big_blind,
    is_between_button_and_small_blind,
    keep_drawn_seats,
    next_hand_positions,
    plan_balance,
    plan_break,
    plan_final_table,
    seat_pool,
    table_to_break,
)

SUIT_RANK = {"♠": 3, "♥": 2, "♦": 1, "♣": 0}
R = ReasonCode


def clauses(reason) -> list[tuple[str, dict]]:
    """A move's reason as (code, parameters) clauses, in reading order (the engine writes codes, not words)."""
    return [(c.code, c.params) for c in reason.clauses()]


def codes(reason) -> list[str]:
    return [c.code for c in reason.clauses()]


RANK_VALUE = {"J": 11, "Q": 12, "K": 13, "A": 14}


def table(number, capacity, occupied, bb=None, prev=None, **extra) -> Table:
    """A table whose players are named after their seat: "T2S7" sits at table 2, seat 7."""
    seats = {s: f"T{number}S{s}" for s in occupied}
    return Table(number, capacity, seats, big_blind_seat=bb, previous_big_blind_seat=prev, **extra)


def full(number, capacity=10, bb=None, prev=None, **extra) -> Table:
    return table(number, capacity, range(1, capacity + 1), bb, prev, **extra)


def with_open(number, open_seats, capacity=10, bb=None, prev=None, **extra) -> Table:
    occupied = [s for s in range(1, capacity + 1) if s not in set(open_seats)]
    return table(number, capacity, occupied, bb, prev, **extra)


def counts(tables) -> dict[int, int]:
    return {t.number: len(t.seats) for t in tables}


def card_strength(card: str) -> tuple[int, int]:
    rank, suit = card[:-1], card[-1]
    return (RANK_VALUE.get(rank) or int(rank), SUIT_RANK[suit])


class StackedDeck(random.Random):
    """A seeded rng that deals the given cards and leaves seat cards in seat order."""

    def __init__(self, cards):
        super().__init__(0)
        self.cards = cards

    def sample(self, population, k, **kwargs):
        if population is DECK:
            return list(self.cards[:k])
        return sorted(population)[:k]

    def shuffle(self, x):
        return None


# ------------------------------------------------------------------ positions (POS-01)


def test_the_next_big_blind_is_the_first_occupied_seat_after_the_last_big_blind():
    assert next_hand_positions(full(1, 9, bb=4, prev=3)) == Positions(3, 4, 5)


def test_the_big_blind_wraps_from_the_last_seat_to_seat_one():
    assert next_hand_positions(full(1, 9, bb=9, prev=8)) == Positions(8, 9, 1)


def test_the_big_blind_skips_empty_seats():
    t = table(1, 9, [1, 2, 3, 6, 7, 8, 9], bb=3, prev=2)
    assert next_hand_positions(t) == Positions(2, 3, 6)


def test_004_case_2_the_big_blind_busts_so_the_next_player_posts_only_the_big_blind():
    # Seat 3 posted the big blind and busted: no small blind, the button moves on.
    t = table(1, 10, [1, 2, 4, 5, 6, 7], bb=3, prev=2)
    assert next_hand_positions(t) == Positions(2, None, 4)
    # Second hand: the button stays still (dead on seat 3, seat 2 acts last again).
    t = advance_hand(t)
    assert next_hand_positions(t) == Positions(3, 4, 5)
    assert 3 not in t.seats
    # Third hand: the button moves again.
    assert next_hand_positions(advance_hand(t)) == Positions(4, 5, 6)


def test_004_case_1_the_small_blind_busts_so_the_button_is_dead_for_one_hand():
    t = table(1, 10, [1, 3, 4, 5, 6], bb=3, prev=2)
    assert next_hand_positions(t) == Positions(2, 3, 4)
    assert 2 not in t.seats  # dead button: seat 1 acts last once more


def test_heads_up_the_button_posts_the_small_blind_and_the_big_blind_alternates():
    t = table(1, 9, [2, 7], bb=2, prev=7)
    assert next_hand_positions(t) == Positions(2, 2, 7)
    assert next_hand_positions(advance_hand(t)) == Positions(7, 7, 2)


def test_heads_up_after_the_big_blind_busts_nobody_posts_the_big_blind_twice():
    t = table(1, 9, [1, 5], bb=3, prev=1)
    assert next_hand_positions(t) == Positions(1, 1, 5)


def test_positions_are_unknown_without_a_big_blind_seat():
    assert next_hand_positions(full(1, 9)) == Positions(None, None, None)


def test_an_unknown_previous_big_blind_puts_the_button_on_the_seat_before_the_big_blind():
    assert next_hand_positions(full(1, 9, bb=5)) == Positions(4, 5, 6)


def test_advance_hand_returns_a_new_table_and_leaves_the_old_one_alone():
    t = full(1, 9, bb=4, prev=3)
    moved = advance_hand(t)
    assert (moved.big_blind_seat, moved.previous_big_blind_seat) == (5, 4)
    assert (t.big_blind_seat, t.previous_big_blind_seat) == (4, 3)
    assert moved.seats == t.seats and moved.seats is not t.seats


def test_hands_until_big_blind_counts_the_occupied_seats_in_between():
    t = table(1, 9, [1, 2, 4, 5, 7, 8], bb=2, prev=1)
    assert hands_until_big_blind(t, 3) == 1  # single big blind
    assert hands_until_big_blind(t, 6) == 3  # seats 4 and 5 post first
    assert hands_until_big_blind(t, 9) == 5
    assert hands_until_big_blind(t, 2) == 6  # the seat of the last big blind: a full lap
    assert hands_until_big_blind(table(1, 9, [1, 2]), 3) is None


def test_a_seat_between_the_button_and_the_small_blind_must_wait_for_the_button():
    t = table(1, 10, [1, 3, 5, 6, 8, 9], bb=3, prev=1)  # button 1, small blind 3, big blind 5
    assert is_between_button_and_small_blind(t, 2)
    assert not is_between_button_and_small_blind(t, 4)
    assert not is_between_button_and_small_blind(t, 10)


def test_nobody_waits_for_the_button_heads_up_or_with_unknown_positions():
    assert not is_between_button_and_small_blind(table(1, 10, [1], bb=3, prev=1), 2)
    assert not is_between_button_and_small_blind(table(1, 10, [1, 3, 5, 6]), 2)


# ------------------------------------------------------------------ balancing (BAL-01..05)


def scenario_10_tables():
    a = full(1, 10, bb=4, prev=3)  # next hand: button 3, small blind 4, big blind 5
    b = with_open(2, [3, 7], bb=2, prev=1)  # next hand: big blind 4; seat 3 would be it
    return [a, b]


def test_scenario_10_the_next_big_blind_moves_to_the_seat_that_posts_the_big_blind_soonest():
    moves = plan_balance(scenario_10_tables())
    assert [(m.player, m.from_table, m.from_seat, m.to_table, m.to_seat) for m in moves] == [("T1S5", 1, 5, 2, 3)]
    assert clauses(moves[0].reason)[:2] == [(R.MOVER_NEXT_BB, {"table": 1, "seat": 5}), (R.DEST_BB_NEXT_HAND, {"table": 2, "seat": 3})]
    after = apply_moves(scenario_10_tables(), moves)
    assert counts(after) == {1: 9, 2: 9}
    assert next_hand_positions(after[1]).big_blind == 3  # the mover posts the big blind
    assert next_hand_positions(after[0]).big_blind == 6  # the next player at table 1 does


def test_scenario_10_current_bb_mode_moves_the_player_in_the_big_blind_position():
    (move,) = plan_balance(scenario_10_tables(), mover_rule="CURRENT_BB")
    assert (move.from_table, move.from_seat, move.to_table, move.to_seat) == (1, 4, 2, 3)
    assert clauses(move.reason)[0] == (R.MOVER_CURRENT_BB, {"table": 1, "seat": 4})


def test_scenario_11_nine_and_eight_need_no_move():
    assert plan_balance([full(1, 9, bb=1), with_open(2, [5], 9, bb=1)]) == []


def test_scenario_11_nine_and_seven_move_one_player_with_trigger_two_only():
    tables = [full(1, 9, bb=1), with_open(2, [5, 6], 9, bb=1)]
    assert len(plan_balance(tables)) == 1
    assert plan_balance(tables, trigger_difference=3) == []


def test_scenario_11_nine_and_six_move_one_player_with_trigger_three():
    tables = [full(1, 9, bb=1), with_open(2, [5, 6, 7], 9, bb=1)]
    moves = plan_balance(tables, trigger_difference=3)
    assert counts(apply_moves(tables, moves)) == {1: 8, 2: 7}


def test_scenario_12_a_table_three_short_of_the_fullest_holds_play():
    tables = [full(1, 9, bb=1), full(2, 9, bb=1), with_open(3, [1, 2, 3], 9, bb=5)]
    assert halted_tables(tables) == [3]


def test_scenario_12_nine_nine_seven_holds_nobody_but_moves_one_player():
    tables = [full(1, 9, bb=1), full(2, 9, bb=1), with_open(3, [1, 2], 9, bb=5)]
    assert halted_tables(tables) == []
    moves = plan_balance(tables)
    assert [(m.from_table, m.to_table) for m in moves] == [(2, 3)]  # highest-numbered source
    assert sorted(counts(apply_moves(tables, moves)).values()) == [8, 8, 9]


def test_a_single_table_is_never_halted_and_never_balanced():
    assert halted_tables([with_open(1, [1, 2, 3, 4], 9, bb=5)]) == []
    assert plan_balance([with_open(1, [1, 2, 3, 4], 9, bb=5)]) == []


def test_a_second_move_from_the_same_table_takes_the_following_big_blind():
    tables = [
        full(1, 10, bb=4, prev=3),
        with_open(2, [1, 2, 3, 4], bb=6),
        with_open(3, [1, 2, 3, 4], bb=6),
    ]
    moves = plan_balance(tables)
    assert [(m.from_table, m.from_seat, m.to_table) for m in moves] == [(1, 5, 2), (1, 6, 3)]
    assert sorted(counts(apply_moves(tables, moves)).values()) == [7, 7, 8]


def test_a_destination_seat_is_never_handed_out_twice_in_one_plan():
    tables = [
        full(1, 10, bb=1),
        with_open(2, [10], bb=1),
        with_open(3, [2, 3, 4, 5, 6], bb=1, prev=10),
    ]
    moves = plan_balance(tables)
    assert [m.from_table for m in moves] == [1, 2, 1]
    assert all(m.to_table == 3 for m in moves)
    assert len({m.to_seat for m in moves}) == 3
    assert counts(apply_moves(tables, moves)) == {1: 8, 2: 8, 3: 8}


def test_table_order_ties_take_the_highest_source_and_the_lowest_destination():
    tables = [
        full(1, 9, bb=1),
        full(2, 9, bb=1),
        with_open(3, [1, 2], 9, bb=5),
        with_open(4, [1, 2], 9, bb=5),
    ]
    moves = plan_balance(tables)
    assert [(m.from_table, m.to_table) for m in moves] == [(2, 3), (1, 4)]


def test_random_draw_ties_are_drawn_with_the_rng():
    tables = [
        full(1, 9, bb=1),
        full(2, 9, bb=1),
        with_open(3, [1, 2], 9, bb=5),
        with_open(4, [1, 2], 9, bb=5),
    ]
    pairs = set()
    for seed in range(40):
        first = plan_balance(tables, tie_break="RANDOM_DRAW", rng=random.Random(seed))[0]
        pairs.add((first.from_table, first.to_table))
    assert pairs == {(1, 3), (1, 4), (2, 3), (2, 4)}
    again = [plan_balance(tables, tie_break="RANDOM_DRAW", rng=random.Random(7)) for _ in range(2)]
    assert again[0] == again[1]


def test_a_locked_table_neither_gives_nor_receives_players():
    tables = [
        full(1, 10, bb=1, locked=True),
        with_open(2, [1, 2], bb=5),
        with_open(3, [1, 2, 3, 4], bb=7),
    ]
    moves = plan_balance(tables)
    assert [(m.from_table, m.to_table) for m in moves] == [(2, 3)]
    assert plan_balance([full(1, 10, bb=1), with_open(2, [1, 2, 3, 4], bb=7, locked=True)]) == []


def test_a_locked_seat_is_never_offered():
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [3, 7], bb=2, prev=1, locked_seats={3})]
    (move,) = plan_balance(tables)
    assert move.to_seat == 7


def test_the_seat_the_big_blind_just_left_is_not_offered_by_default():
    # Seat 2 posted the big blind and busted; the mover must not become the small blind.
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [2, 7], bb=2, prev=1)]
    (move,) = plan_balance(tables)
    assert move.to_seat == 7 and not move.single_big_blind
    after = apply_moves(tables, [move])[1]
    assert next_hand_positions(after).small_blind != 7


def test_single_bb_mode_seats_the_mover_in_the_vacated_big_blind_seat_as_big_blind_twice():
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [2, 7], bb=2, prev=1)]
    (move,) = plan_balance(tables, vacated_bb_seat="SINGLE_BB")
    assert (move.to_seat, move.single_big_blind) == (2, True)
    assert (R.DEST_VACATED_BB, {"table": 2, "seat": 2}) in clauses(move.reason)
    dest = apply_moves(tables, [move])[1]
    assert next_hand_positions(dest) == Positions(1, None, 2)  # big blind alone
    dest = advance_hand(dest)
    assert next_hand_positions(dest) == Positions(1, 2, 3)  # button stays, both blinds
    assert next_hand_positions(advance_hand(dest)) == Positions(2, 3, 4)


def test_single_bb_mode_prefers_an_ordinary_single_big_blind_seat():
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [2, 3], bb=2, prev=1)]
    (move,) = plan_balance(tables, vacated_bb_seat="SINGLE_BB")
    assert (move.to_seat, move.single_big_blind) == (3, False)


def test_the_vacated_big_blind_seat_is_used_as_single_big_blind_when_it_is_the_only_seat():
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [2, 7], bb=2, prev=1, locked_seats={7})]
    (move,) = plan_balance(tables)
    assert (move.to_seat, move.single_big_blind) == (2, True)
    assert next_hand_positions(apply_moves(tables, [move])[1]).big_blind == 2


def test_a_seat_between_button_and_small_blind_is_chosen_only_when_nothing_else_is_open():
    dest = with_open(2, [2, 10], bb=3, prev=1)  # button 1, small blind 3: seat 2 waits
    (move,) = plan_balance([full(1, 10, bb=4, prev=3), dest])
    assert (move.to_seat, move.wait_for_button) == (10, False)
    dest = with_open(2, [2, 10], bb=3, prev=1, locked_seats={10})
    (move,) = plan_balance([full(1, 10, bb=4, prev=3), dest])
    assert (move.to_seat, move.wait_for_button) == (2, True)
    assert R.DEST_WAITS_FOR_BUTTON in codes(move.reason)


def test_an_unknown_big_blind_at_the_source_moves_the_highest_occupied_seat():
    (move,) = plan_balance([table(1, 10, range(1, 10)), with_open(2, [3, 7, 8], bb=2, prev=1)])
    assert move.from_seat == 9
    assert clauses(move.reason)[0] == (R.MOVER_BB_UNKNOWN, {"table": 1, "seat": 9})


def test_an_unknown_big_blind_at_the_destination_draws_a_random_open_seat():
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [3, 7])]
    seats = {plan_balance(tables, rng=random.Random(seed))[0].to_seat for seed in range(30)}
    assert seats == {3, 7}
    assert R.DEST_BB_UNKNOWN in codes(plan_balance(tables, rng=random.Random(1))[0].reason)


def test_button_cash_mode_moves_the_button():
    (move,) = plan_balance(scenario_10_tables(), mover_rule="BUTTON_CASH")
    assert move.from_seat == 3 and clauses(move.reason)[0] == (R.MOVER_BUTTON, {"table": 1, "seat": 3})


def test_button_cash_mode_with_a_dead_button_moves_the_player_acting_last():
    tables = [with_open(1, [3], bb=4, prev=3), with_open(2, [3, 7, 8], bb=2, prev=1)]
    (move,) = plan_balance(tables, mover_rule="BUTTON_CASH")
    assert move.from_seat == 2


def test_current_bb_mode_moves_the_next_big_blind_when_the_big_blind_has_left():
    tables = [with_open(1, [4], bb=4, prev=3), with_open(2, [3, 7, 8], bb=2, prev=1)]
    (move,) = plan_balance(tables, mover_rule="CURRENT_BB")
    assert move.from_seat == 5 and clauses(move.reason)[0] == (R.MOVER_CURRENT_BB_LEFT, {"table": 1, "left_seat": 4, "seat": 5})


def test_nearest_bb_mode_takes_the_open_seat_physically_nearest_the_big_blind():
    # Next hand at table 2: button 3, small blind 4, big blind 5; open seats 2 and 9.
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [2, 9], bb=4, prev=3)]
    assert plan_balance(tables)[0].to_seat == 9  # worst position: big blind in 5 hands
    (move,) = plan_balance(tables, dest_rule="NEAREST_BB")
    assert move.to_seat == 2 and (R.DEST_NEAREST_BB, {"seat": 5}) in clauses(move.reason)


def test_same_relative_position_mode_keeps_the_movers_distance_to_the_big_blind():
    tables = [full(1, 10, bb=4, prev=3), with_open(2, [3, 7], bb=2, prev=1)]
    (move,) = plan_balance(tables, mover_rule="CURRENT_BB", dest_rule="SAME_RELATIVE_POSITION")
    assert move.to_seat == 7  # he was a full lap from the big blind; seat 3 is 1 hand away
    (move,) = plan_balance(tables, dest_rule="SAME_RELATIVE_POSITION")
    assert move.to_seat == 3  # the next big blind keeps posting it next


def test_unknown_settings_are_refused_with_a_code():
    with pytest.raises(SeatingError) as error:
        plan_balance(scenario_10_tables(), mover_rule="SMALL_BLIND")
    assert error.value.code == "unknown_setting"
    with pytest.raises(SeatingError):
        plan_balance(scenario_10_tables(), trigger_difference=1)


def test_apply_moves_returns_new_tables_and_never_changes_its_inputs():
    tables = scenario_10_tables()
    snapshot = [(t.number, dict(t.seats), t.big_blind_seat) for t in tables]
    extra = full(3, 9, bb=2)
    after = apply_moves([*tables, extra], plan_balance(tables))
    assert [(t.number, dict(t.seats), t.big_blind_seat) for t in tables] == snapshot
    assert after[0] is not tables[0] and after[1] is not tables[1]
    assert after[2] is extra


def test_apply_moves_refuses_a_taken_seat_and_a_player_who_is_not_there():
    tables = scenario_10_tables()
    with pytest.raises(SeatingError) as error:
        apply_moves(tables, [Move("T1S5", 1, 5, 2, 4, "test")])
    assert error.value.code == "seat_taken"
    with pytest.raises(SeatingError) as error:
        apply_moves(tables, [Move("T1S6", 1, 5, 2, 3, "test")])
    assert error.value.code == "player_not_at_seat"


def test_a_table_may_not_seat_a_player_twice_or_outside_its_seats():
    with pytest.raises(SeatingError):
        Table(1, 9, {1: "A", 2: "A"})
    with pytest.raises(SeatingError):
        Table(1, 9, {10: "A"})


def test_table_helpers_report_open_seats_and_counts():
    t = with_open(1, [2, 5, 9], 9, locked_seats={5})
    assert t.open_seats() == [2, 9]
    assert (t.player_count, t.free_seat_count, t.is_full) == (6, 2, False)
    assert t.seat_of("T1S4") == 4 and t.seat_of("nobody") is None


# ------------------------------------------------------------------- breaking (BAL-06)


def scenario_15_tables():
    return [
        with_open(1, [9, 10], bb=3, prev=2),
        with_open(2, [4, 5], bb=7, prev=6),
        table(3, 10, [1, 4, 6, 8], bb=4, prev=1),
    ]


def test_scenario_15_the_short_table_breaks_into_the_four_open_seats():
    tables = scenario_15_tables()
    assert table_to_break(tables) == 3
    draw = draw_break(tables, 3, random.Random(15))
    assert len(draw.seat_order) == len(draw.card_order) == len(draw.moves) == 4
    assert sorted(draw.seat_order) == [(1, 9), (1, 10), (2, 4), (2, 5)]
    assert {m.player for m in draw.moves} == {"T3S1", "T3S4", "T3S6", "T3S8"}
    after = apply_moves(tables, draw.moves)
    assert counts(after) == {1: 10, 2: 10, 3: 0}


def test_a_break_logs_the_shuffled_seat_cards_and_the_players_by_card():
    draw = draw_break(scenario_15_tables(), 3, random.Random(3))
    cards = [card for _, card in draw.card_order]
    assert len(set(cards)) == 4
    strengths = [card_strength(c) for c in cards]
    assert strengths == sorted(strengths, reverse=True)
    for i, move in enumerate(draw.moves):
        assert (move.to_table, move.to_seat) == draw.seat_order[i]
        assert (move.player, move.card) == draw.card_order[i]
        assert move.kind == "BREAK" and move.reason.code == R.BREAK_DRAW
        assert (move.reason.params["rank"], move.reason.params["of"], move.reason.params["card"]) == (i + 1, 4, move.card)


def test_the_highest_card_by_suit_takes_the_first_seat_card():
    tables = [with_open(1, [8, 9, 10], bb=1), table(2, 10, [1, 2, 3], bb=1)]
    draw = draw_break(tables, 2, StackedDeck([(14, 0), (14, 3), (13, 2)]))  # A♣ A♠ K♥
    assert draw.card_order == [("T2S2", "A♠"), ("T2S1", "A♣"), ("T2S3", "K♥")]
    assert [(m.player, m.to_seat) for m in draw.moves] == [("T2S2", 8), ("T2S1", 9), ("T2S3", 10)]


def test_a_ten_is_written_10_and_every_card_comes_from_one_deck():
    draw = draw_break([with_open(1, [9], bb=1), table(2, 10, [1], bb=1)], 2, StackedDeck([(10, 1)]))
    assert draw.card_order == [("T2S1", "10♦")]
    assert len(set(DECK)) == 52


def test_no_break_is_due_while_the_other_tables_lack_seats():
    tables = [
        with_open(1, [9, 10], bb=1),
        with_open(2, [9, 10], bb=1),
        table(3, 10, range(1, 6), bb=1),
    ]
    assert table_to_break(tables) is None


def test_a_break_fills_the_tables_with_fewest_players_first():
    tables = [
        with_open(1, [9, 10], bb=1),
        with_open(2, [8, 9, 10], bb=1),
        table(3, 10, [1, 2, 3], bb=1),
    ]
    assert table_to_break(tables) == 3
    after = apply_moves(tables, plan_break(tables, 3, random.Random(1)))
    assert counts(after) == {1: 9, 2: 9, 3: 0}


def test_the_default_break_order_takes_the_fewest_players_then_the_highest_number():
    tables = [with_open(1, [7, 8, 9, 10]), with_open(2, [9, 10]), with_open(3, [7, 8, 9, 10])]
    assert table_to_break(tables) == 3


def test_an_explicit_break_order_takes_precedence():
    tables = [with_open(1, [7, 8, 9, 10]), with_open(2, [9, 10]), with_open(3, [7, 8, 9, 10])]
    assert table_to_break(tables, break_order=[1, 3]) == 1
    assert table_to_break(tables, break_order=[5, 2, 1]) == 2  # table 5 no longer exists


def test_an_explicit_break_order_waits_until_its_next_table_fits():
    tables = [with_open(1, [9, 10]), table(2, 6, [1, 2]), table(3, 6, [1, 2, 3, 4])]
    assert table_to_break(tables) == 2
    assert table_to_break(tables, break_order=[1, 2]) is None


def test_the_last_table_is_never_broken():
    assert table_to_break([table(1, 10, [1, 2])]) is None


def test_only_the_next_table_in_the_break_order_is_considered():
    # Table 1 (8 players) would fit the others' 8 seats, but table 3 is next and does not.
    tables = scenario_15_tables()
    tables[0] = with_open(1, [9, 10], bb=3, prev=2, locked_seats={9})
    assert table_to_break(tables) is None


def test_locked_seats_and_locked_tables_do_not_count_as_free_seats():
    tables = scenario_15_tables()
    tables[0] = with_open(1, [9, 10], bb=3, prev=2, locked_seats={9})
    assert table_to_break(tables) is None
    tables = scenario_15_tables()
    tables[0] = with_open(1, [9, 10], bb=3, prev=2, locked=True)
    assert table_to_break(tables) is None


def test_the_last_two_tables_are_not_merged_by_a_break_before_the_final_table_bust():
    five_five = [table(1, 10, range(1, 6), bb=1), table(2, 10, range(1, 6), bb=1)]
    assert table_to_break(five_five) == 2
    assert table_to_break(five_five, final_table_size=9) is None
    assert not final_table_due(five_five, 9)


def test_a_player_from_a_broken_table_landing_before_the_small_blind_waits_for_the_button():
    tables = [with_open(1, [2], bb=3, prev=1), table(2, 10, [5], bb=5)]
    (move,) = plan_break(tables, 2, random.Random(2))
    assert (move.to_table, move.to_seat, move.wait_for_button) == (1, 2, True)
    assert R.WAIT_FOR_BUTTON in codes(move.reason)


def test_breaking_into_too_few_seats_is_refused():
    tables = [with_open(1, [10], bb=1), table(2, 10, [1, 2], bb=1)]
    with pytest.raises(SeatingError) as error:
        plan_break(tables, 2, random.Random(1))
    assert error.value.code == "not_enough_seats"


# ----------------------------------------------------------------- final table (BAL-09)


def test_final_table_size_defaults_follow_rp9():
    assert [final_table_size(c) for c in (10, 9, 8, 7, 6)] == [9, 9, 9, 7, 7]


def test_the_final_table_is_due_when_the_players_left_fit_it():
    assert final_table_due([table(1, 9, range(1, 6)), table(2, 9, range(1, 5))], 9)
    assert not final_table_due([table(1, 9, range(1, 6)), table(2, 9, range(1, 6))], 9)
    assert not final_table_due([table(1, 9, range(1, 9))], 9)


def test_scenario_17_ten_left_balance_five_five_then_the_tenth_bust_forms_the_final_table():
    rng = random.Random(17)
    tables = [table(1, 9, range(1, 7), bb=2, prev=1), table(2, 9, range(1, 6), bb=3, prev=2)]
    # The next bust is at the five-player table: 6/4 must become 5/5.
    tables[1] = table(2, 9, [1, 2, 4, 5], bb=3, prev=2)
    assert table_to_break(tables, final_table_size=9) is None
    assert not final_table_due(tables, 9)
    tables = apply_moves(tables, plan_balance(tables, rng=rng))
    assert counts(tables) == {1: 5, 2: 5}
    # The tenth-place player busts: both tables break into a 9-handed final table.
    gone = tables[0].players()[0]
    tables[0] = Table(1, 9, {s: p for s, p in tables[0].seats.items() if p != gone}, 3, 2)
    assert final_table_due(tables, 9)
    assert table_to_break(tables, final_table_size=9) is None
    draw = plan_final_table(tables, rng)
    final = draw.table
    assert final.number == 1 and len(final.seats) == 9 and final.capacity == 9
    assert {m.player for m in draw.moves} == {p for t in tables for p in t.seats.values()}
    assert all(m.kind == "FINAL_TABLE" and m.to_table == 1 for m in draw.moves)
    assert draw.button_seat in final.seats
    assert next_hand_positions(final).button == draw.button_seat
    assert max(draw.button_cards, key=lambda sc: card_strength(sc[1]))[0] == draw.button_seat
    assert apply_moves(tables, draw.moves)[0].seats == final.seats


def test_the_final_table_can_take_another_number_and_more_seats():
    tables = [table(3, 6, range(1, 5), bb=1), table(4, 6, range(1, 4), bb=1)]
    draw = plan_final_table(tables, random.Random(1), final_table_number=9)
    assert (draw.table.number, draw.table.capacity, len(draw.table.seats)) == (9, 7, 7)
    draw = plan_final_table(tables, random.Random(1), capacity=10)
    assert sorted(draw.table.seats) == [1, 2, 3, 5, 6, 8, 9]  # spread round ten seats


# ------------------------------------------------------------- seat draws (SEAT-01, 03, 08)


def test_the_initial_draw_opens_as_few_tables_as_needed_and_fills_them_evenly():
    draw = draw_seats([f"P{i}" for i in range(100)], capacity=9, rng=random.Random(1))
    assert [len(t.seats) for t in draw.tables] == [9, 9, 9, 9] + [8] * 8
    assert len(draw.assignments) == 100
    seated = {(t.number, s): p for t in draw.tables for s, p in t.seats.items()}
    assert all(seated[(t, s)] == p for p, t, s in draw.assignments)


def test_a_short_table_uses_seats_spread_round_the_table():
    draw = draw_seats(["A", "B", "C", "D", "E"], capacity=10, rng=random.Random(1))
    assert sorted(draw.tables[0].seats) == [1, 3, 5, 7, 9]


def test_every_table_gets_a_button_by_high_card_and_matching_blinds():
    draw = draw_seats(range(40), capacity=10, rng=random.Random(8))
    for t in draw.tables:
        button = draw.buttons[t.number]
        assert button in t.seats
        positions = next_hand_positions(t)
        assert positions.button == button
        occupied = sorted(t.seats)
        after = occupied[(occupied.index(button) + 1) % len(occupied)]
        assert positions.small_blind == after
        high = max(draw.button_cards[t.number], key=lambda sc: card_strength(sc[1]))
        assert high[0] == button


def test_a_heads_up_draw_puts_the_small_blind_on_the_button():
    draw = draw_seats(["A", "B"], capacity=9, rng=random.Random(2))
    positions = next_hand_positions(draw.tables[0])
    assert positions.button == positions.small_blind == draw.buttons[1]
    assert positions.big_blind != positions.button


def test_the_draw_honours_table_numbers_and_a_lower_seat_limit():
    draw = draw_seats(range(20), capacity=10, rng=random.Random(3), table_numbers=[7, 8, 9])
    assert [t.number for t in draw.tables] == [7, 8]
    draw = draw_seats(range(20), capacity=10, rng=random.Random(3), max_players_per_table=8)
    assert [len(t.seats) for t in draw.tables] == [7, 7, 6]


def test_the_same_seed_gives_the_same_draw():
    a = draw_seats(range(50), capacity=9, rng=random.Random(42))
    b = draw_seats(range(50), capacity=9, rng=random.Random(42))
    assert a.assignments == b.assignments and a.buttons == b.buttons


def test_a_player_cannot_be_in_the_draw_twice():
    with pytest.raises(SeatingError):
        draw_seats(["A", "A"], capacity=9, rng=random.Random(1))


def test_the_seat_pool_is_the_open_seats_of_the_shortest_tables_not_the_next_to_break():
    tables = [full(1, 9, bb=1), with_open(2, [4], 9, bb=1), with_open(3, [6], 9, bb=1)]
    assert seat_pool(tables) == [(2, 4)]  # table 3 breaks next
    assert seat_pool(tables, break_order=[2, 3]) == [(3, 6)]
    assert seat_pool(tables, exclude_tables=[2]) == [(3, 6)]


def test_the_table_breaking_next_is_in_the_pool_only_when_no_other_table_has_an_open_seat():
    tables = [full(1, 9, bb=1), full(2, 9, bb=1), with_open(3, [6], 9, bb=1)]
    assert seat_pool(tables) == [(3, 6)]


def test_the_table_breaking_next_is_left_out_even_when_it_alone_is_shortest():
    # SEAT-03: «excluding tables scheduled to break next», by default; the house's "ON_TIE"
    # leaves it out only when another table has as few players.
    tables = [full(1, 9, bb=1), with_open(2, [4], 9, bb=1), with_open(3, [5, 6], 9, bb=1)]
    assert seat_pool(tables, break_order=[3, 2]) == [(2, 4)]
    assert seat_pool(tables, break_order=[3, 2], next_break="ON_TIE") == [(3, 5), (3, 6)]
    late = draw_late_seat(tables, "NEW", random.Random(1), break_order=[3, 2])
    assert (late.table, late.seat) == (2, 4)
    with pytest.raises(SeatingError):
        seat_pool(tables, next_break="NEVER")


def test_a_late_seat_avoids_the_gap_between_button_and_small_blind():
    tables = [full(1, 10, bb=1), with_open(2, [2, 10], bb=3, prev=1)]
    seats = {draw_late_seat(tables, "NEW", random.Random(s)).seat for s in range(20)}
    assert seats == {10}
    tables[1] = with_open(2, [2], bb=3, prev=1)
    late = draw_late_seat(tables, "NEW", random.Random(1))
    assert (late.table, late.seat, late.wait_for_button) == (2, 2, True)
    assert counts(apply_late_seat(tables, late)) == {1: 10, 2: 10}


def test_a_late_seat_opens_a_new_table_when_every_table_is_full():
    tables = [full(1, 9, bb=1), full(2, 9, bb=1)]
    late = draw_late_seat(tables, "NEW", random.Random(4))
    assert (late.opens_new_table, late.table, late.capacity) == (True, 3, 9)
    assert 1 <= late.seat <= 9
    after = apply_late_seat(tables, late)
    assert after[2].seats == {late.seat: "NEW"} and after[2].number == 3


def test_a_seated_player_cannot_draw_a_second_seat():
    with pytest.raises(SeatingError):
        draw_late_seat([with_open(1, [3], 9, bb=1)], "T1S1", random.Random(1))


# ------------------------------------------------------------ finishing places (ELM)


def singles(count, start=0):
    return [Bust(f"X{i}", 1 + i % 5, 1, order=i) for i in range(start, start + count)]


def test_the_first_player_out_finishes_last_and_the_winner_first():
    places = finishing_places(singles(3), 4, winner="W")
    assert [(p.player, p.place) for p in places] == [("W", 1), ("X2", 2), ("X1", 3), ("X0", 4)]


def test_scenario_3_three_busts_on_the_hand_for_hand_hand_share_fiftieth():
    busts = singles(48) + [
        Bust("A", 1, 3, order=100, h4h_hand=1, starting_stack=5_000),
        Bust("B", 4, 6, order=101, h4h_hand=1, starting_stack=9_000),
        Bust("C", 4, 8, order=102, h4h_hand=1, starting_stack=2_000),
    ]
    places = {p.player: p for p in finishing_places(busts, 100)}
    assert [(places[x].place, places[x].shared_with) for x in "ABC"] == [(50, 3)] * 3
    assert places["X47"].place == 53


def test_hand_for_hand_busts_can_be_ranked_by_starting_stack_instead():
    busts = singles(48) + [
        Bust("A", 1, 3, order=100, h4h_hand=1, starting_stack=5_000),
        Bust("B", 4, 6, order=101, h4h_hand=1, starting_stack=3_000),
        Bust("C", 4, 8, order=102, h4h_hand=1, starting_stack=3_000),
    ]
    places = {p.player: p for p in finishing_places(busts, 100, h4h_policy="RANK_BY_STARTING_STACK")}
    assert (places["A"].place, places["A"].shared_with) == (50, 1)
    assert [(places[x].place, places[x].shared_with) for x in "BC"] == [(51, 2)] * 2


def test_scenario_6_two_busts_on_one_hand_at_one_table_are_ranked_by_starting_stack():
    busts = singles(40) + [
        Bust("B", 3, 2, order=200, hand_group="h1", starting_stack=8_000),
        Bust("A", 3, 7, order=200, hand_group="h1", starting_stack=12_000),
    ]
    places = {p.player: p.place for p in finishing_places(busts, 100)}
    assert (places["A"], places["B"]) == (59, 60)


def test_equal_or_unknown_starting_stacks_on_one_hand_share_the_better_place():
    equal = [
        Bust("A", 3, 2, 1, "h", starting_stack=8_000),
        Bust("B", 3, 5, 1, "h", starting_stack=8_000),
    ]
    unknown = [Bust("A", 3, 2, 1, "h", starting_stack=8_000), Bust("B", 3, 5, 1, "h")]
    for busts in (equal, unknown):
        assert finishing_places(busts, 10) == [Place("A", 9, 2), Place("B", 9, 2)]


def test_the_same_hand_group_at_different_tables_is_not_one_hand():
    busts = [Bust("A", 1, 2, 1, "h", starting_stack=1), Bust("B", 2, 5, 2, "h", starting_stack=9)]
    assert {p.player: p.place for p in finishing_places(busts, 10)} == {"A": 10, "B": 9}


def test_busts_whose_order_cannot_be_told_apart_share():
    busts = [Bust("A", 1, 2, order=5), Bust("B", 2, 5, order=5), Bust("C", 2, 6, order=6)]
    assert finishing_places(busts, 10) == [Place("C", 8, 1), Place("A", 9, 2), Place("B", 9, 2)]


def test_a_player_cannot_bust_twice_and_places_cannot_outnumber_entries():
    with pytest.raises(SeatingError):
        finishing_places([Bust("A", 1, 1, 1), Bust("A", 1, 1, 2)], 10)
    with pytest.raises(SeatingError):
        finishing_places(singles(3), 2)
    with pytest.raises(SeatingError):
        finishing_places(singles(2), 4, winner="W")


def test_the_fast_table_copy_keeps_every_field():
    from dataclasses import fields

    from seating.engine.data import _copy

    original = table(4, 9, [1, 5], bb=5, prev=1, locked_seats={3}, locked=True, big_blind_twice=True)
    copy = _copy(original)
    assert all(getattr(copy, f.name) == getattr(original, f.name) for f in fields(Table))
    assert copy.seats is not original.seats


def _drawn_seat(move) -> int:
    (note,) = [n for n in move.reason.notes if n.code == R.DEST_BB_UNKNOWN]
    return note.params["seat"]


def test_a_replanned_move_keeps_the_seat_its_open_slip_drew_when_the_big_blind_is_unknown():
    """BAL-04 with the destination's big blind unknown draws the seat: planned again (after each
    confirmed move), an open slip of the same player and route keeps the seat it drew while the
    seat is free, and the slip's words name that seat (issue #15: no slip written again)."""
    tables = [table(1, 10, range(1, 11), bb=3, prev=2), table(2, 10, range(1, 6))]
    first, second = plan_balance(tables, rng=random.Random(1))
    assert first.to_table == second.to_table == 2 and _drawn_seat(first) == first.to_seat
    held = next(s for s in range(6, 11) if s not in (first.to_seat, second.to_seat))
    slips = [(first.player, first.from_table, first.from_seat, first.to_table, held)]
    kept, same = keep_drawn_seats([first, second], slips, tables)
    assert (kept.player, kept.from_seat, kept.to_table, kept.to_seat) == (first.player, first.from_seat, 2, held)
    assert _drawn_seat(kept) == held and kept.reason.code == first.reason.code
    assert same == second
    # the slip's seat is the other move's draw now: the slip keeps it, the other takes the draw given up
    swapped = keep_drawn_seats([first, second], [(first.player, first.from_table, first.from_seat, 2, second.to_seat)], tables)
    assert [(m.player, m.to_seat) for m in swapped] == [(first.player, second.to_seat), (second.player, first.to_seat)]
    assert [_drawn_seat(m) for m in swapped] == [second.to_seat, first.to_seat]
    # the slip's seat is taken at the table: the plan's own draw stands
    occupied = [(first.player, first.from_table, first.from_seat, 2, 3)]
    assert keep_drawn_seats([first, second], occupied, tables) == [first, second]


def test_a_seat_chosen_by_the_known_big_blind_is_never_replaced_by_an_open_slips():
    tables = [table(1, 10, range(1, 11), bb=3, prev=2), table(2, 10, range(1, 6), bb=2, prev=1)]
    first, second = plan_balance(tables, rng=random.Random(1))
    other = next(s for s in range(6, 11) if s not in (first.to_seat, second.to_seat))
    slips = [(first.player, first.from_table, first.from_seat, 2, other)]
    assert keep_drawn_seats([first, second], slips, tables) == [first, second]


def test_elm04_a_lone_bust_in_a_hand_for_hand_hand_keeps_his_own_place_and_the_next_hand_shares_apart():
    busts = singles(47) + [
        Bust("A", 1, 3, order=100, h4h_hand=1, starting_stack=5_000),  # out alone in the first hand
        Bust("B", 2, 6, order=101, h4h_hand=2, starting_stack=9_000),
        Bust("C", 4, 8, order=102, h4h_hand=2, starting_stack=2_000),
    ]
    places = {p.player: p for p in finishing_places(busts, 100)}
    assert (places["A"].place, places["A"].shared_with) == (53, 1)
    assert [(places[x].place, places[x].shared_with) for x in "BC"] == [(51, 2)] * 2
