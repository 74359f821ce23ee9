"""Chip race and colour-up (tournaments/floor/chiprace.py): RULES §6 and scenario 30."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.floor import chiprace
from tournaments.floor.chiprace import (
    FIRST_DEALT,
    FLOOR,
    LAST_HAND_SB,
    ROUND_HALF_UP,
    SEAT_1,
    SUIT_ORDER,
    ChipRaceError,
    RacePlayer,
)

T25_TO_T100 = {"removed_denomination": 25, "new_denomination": 100}


def refused(code, fn, *args, **kwargs):
    with pytest.raises(ChipRaceError) as info:
        fn(*args, **kwargs)
    assert info.value.code == code


def scenario_30_table():
    """Odd T25s: seat 1 = 75, seat 4 = 50, seat 7 = 25, seat 9 = 75; seat 3 has none."""
    return [
        RacePlayer(1, 75, 4000),
        RacePlayer(3, 0, 6500),
        RacePlayer(4, 50, 2300),
        RacePlayer(7, 25, 900),
        RacePlayer(9, 75, 12000),
    ]


def test_exchange_keeps_the_value_and_leaves_the_odd_chips():
    assert chiprace.exchange(175, 100) == (100, 75)
    assert chiprace.exchange(400, 100) == (400, 0)
    assert chiprace.exchange(0, 100) == (0, 0)


def test_004_race_gives_two_t100_and_removes_the_last_t25_scenario_30():
    result = chiprace.race(
        scenario_30_table(),
        **T25_TO_T100,
        conversion=FLOOR,
        start=LAST_HAND_SB,
        last_hand_small_blind_seat=4,
        tie=FIRST_DEALT,
        cards=[
            {4: "KH", 7: "KS", 9: "2C", 1: "5D"},  # kings tie: seat 4 got his first
            {7: "3H", 9: "QD", 1: "QC"},  # starts left of seat 4; seat 9 before seat 1
        ],
    )
    assert result.total_odd_value == 225
    assert result.race_chips == 2
    assert result.discarded_value == 25
    assert result.added_value == 0
    assert result.winners == [4, 9]
    assert result.awarded == {4: 100, 9: 100}
    assert result.rounds[0]["order"] == [4, 7, 9, 1]
    assert result.rounds[1]["order"] == [7, 9, 1]
    assert result.final_stacks == {1: 4000, 3: 6500, 4: 2400, 7: 900, 9: 12100}


def test_with_suit_order_the_king_of_spades_beats_the_king_of_hearts():
    result = chiprace.race(
        scenario_30_table(),
        **T25_TO_T100,
        conversion=FLOOR,
        start=LAST_HAND_SB,
        last_hand_small_blind_seat=4,
        tie=SUIT_ORDER,
        cards=[{4: "KH", 7: "KS", 9: "2C", 1: "5D"}, {4: "3H", 9: "QD", 1: "QC"}],
    )
    assert result.winners == [7, 9]
    assert result.rounds[1]["order"] == [9, 1, 4]


def test_the_tda_race_starts_at_seat_one():
    result = chiprace.race(
        scenario_30_table(),
        **T25_TO_T100,
        conversion=FLOOR,
        tie=FIRST_DEALT,
        cards=[{1: "AH", 4: "AS", 7: "2C", 9: "3D"}, {4: "9H", 7: "9S", 9: "4D"}],
    )
    assert result.rounds[0]["order"] == [1, 4, 7, 9]
    assert result.winners == [1, 4]


def test_rounding_half_up_can_add_a_chip_to_play():
    players = [RacePlayer(2, 50, 1000), RacePlayer(5, 75, 1000), RacePlayer(8, 25, 1000)]
    result = chiprace.race(players, **T25_TO_T100, conversion=ROUND_HALF_UP, rng=random.Random(1))
    assert result.race_chips == 2  # 150 / 100 = 1.5 rounds up
    assert result.added_value == 50
    assert result.discarded_value == 0
    floor = chiprace.race(players, **T25_TO_T100, conversion=FLOOR, rng=random.Random(1))
    assert (floor.race_chips, floor.discarded_value) == (1, 50)


def test_no_cards_are_needed_when_there_is_a_chip_for_everyone_left():
    players = [RacePlayer(1, 75, 500), RacePlayer(2, 75, 500)]
    result = chiprace.race(players, **T25_TO_T100, conversion=ROUND_HALF_UP, cards=[])
    assert sorted(result.winners) == [1, 2]
    assert result.rounds[0]["no_cards_needed"] is True


def test_a_player_who_loses_his_last_chips_gets_one_chip_of_the_lowest_denomination():
    players = [RacePlayer(1, 25, 0), RacePlayer(2, 25, 3000)]
    result = chiprace.race(players, **T25_TO_T100, conversion=FLOOR, rng=random.Random(3))
    assert result.race_chips == 0
    assert result.raced_out_rescued == [1]
    assert result.final_stacks[1] == 100
    assert result.added_value == 100
    assert result.discarded_value == 50


def test_the_rescue_chip_can_be_a_different_lowest_denomination():
    players = [RacePlayer(1, 25, 0), RacePlayer(2, 25, 3000)]
    result = chiprace.race(players, **T25_TO_T100, conversion=FLOOR, lowest_denomination_in_play=50, cards=[])
    assert result.final_stacks[1] == 50


def test_manual_result_is_recorded_and_checked():
    table = scenario_30_table()
    result = chiprace.race_from_result(table, [9, 1], **T25_TO_T100, conversion=FLOOR)
    assert result.winners == [9, 1]
    assert result.final_stacks[9] == 12100
    refused("duplicate_winner", chiprace.race_from_result, table, [9, 9], **T25_TO_T100, conversion=FLOOR)
    refused("wrong_winner_count", chiprace.race_from_result, table, [9], **T25_TO_T100, conversion=FLOOR)
    refused("not_a_participant", chiprace.race_from_result, table, [3, 9], **T25_TO_T100, conversion=FLOOR)


def test_physical_cards_must_go_to_the_players_still_in_the_race():
    table = scenario_30_table()
    kwargs = dict(**T25_TO_T100, conversion=FLOOR, tie=FIRST_DEALT)
    refused("bad_cards", chiprace.race, table, cards=[{1: "AH", 4: "KS"}], **kwargs)
    refused("bad_cards", chiprace.race, table, cards=[{1: "AH", 4: "AH", 7: "2C", 9: "3D"}, {4: "9H", 7: "9S", 9: "4D"}], **kwargs)
    refused("bad_cards", chiprace.race, table, cards=[{1: "AH", 4: "KS", 7: "2C", 9: "3D"}], **kwargs)
    refused("bad_cards", chiprace.race, table, cards=[{1: "ZZ", 4: "KS", 7: "2C", 9: "3D"}, {4: "9H", 7: "9S", 9: "4D"}], **kwargs)


def test_impossible_tables_are_refused():
    refused("bad_player", chiprace.race, [RacePlayer(1, 100, 0)], **T25_TO_T100)
    refused("bad_player", chiprace.race, [RacePlayer(1, 30, 100)], **T25_TO_T100)
    refused("bad_player", chiprace.race, [RacePlayer(1, 25, 0), RacePlayer(1, 25, 0)], **T25_TO_T100)
    refused("bad_player", chiprace.race, [RacePlayer(1, 0, 0)], **T25_TO_T100)
    refused("bad_denomination", chiprace.race, [RacePlayer(1, 0, 100)], removed_denomination=100, new_denomination=25)
    refused("bad_setting", chiprace.race, [RacePlayer(1, 25, 100)], **T25_TO_T100, start=LAST_HAND_SB)
    refused("bad_setting", chiprace.race, [RacePlayer(1, 25, 100)], **T25_TO_T100, conversion="CEIL")


# ---------------------------------------------------------------- colour-up planning


def test_the_t25_can_go_once_every_blind_and_ante_is_a_multiple_of_100():
    assert chiprace.color_up_suggestion([25, 100, 500], 75, big_blind=150) == []
    assert chiprace.color_up_suggestion([25, 100, 500], 100, ante=200, big_blind=200) == [25]


def test_several_small_denominations_can_go_at_once_but_one_always_stays():
    assert chiprace.color_up_suggestion([25, 100, 500], 1000, 2000, 2000) == [25, 100]
    assert chiprace.color_up_suggestion([500], 1000, big_blind=2000) == []


def test_a_starting_stack_is_made_up_with_small_chips_for_the_blinds():
    chip_set = {25: 20, 100: 30, 500: 20, 1000: 20}
    stack = chiprace.make_up_stack(10000, chip_set)
    assert chiprace.stack_value(stack) == 10000
    assert all(stack[d] <= chip_set[d] for d in stack)
    assert stack.get(25, 0) > 0 and stack.get(100, 0) > 0


def test_a_stack_the_chip_set_cannot_make_is_reported_as_none():
    assert chiprace.make_up_stack(10000, {25: 8, 100: 10, 500: 4}) is None
    assert chiprace.make_up_stack(1010, {25: 100, 100: 100}) is None


def test_a_stack_needing_an_unusual_mix_is_still_found():
    # 25, 100, 250 are not a divisibility chain: largest-first fails on 300.
    assert chiprace.make_up_stack(300, {25: 0, 100: 3, 250: 1}) == {100: 3}


def test_a_five_denomination_stack_keeps_some_of_every_small_chip():
    chip_set = {25: 30, 100: 40, 500: 20, 1000: 20, 5000: 5}
    stack = chiprace.make_up_stack(20000, chip_set)
    assert chiprace.stack_value(stack) == 20000
    assert all(stack.get(d, 0) > 0 for d in (25, 100, 500, 1000))


def test_chips_needed_for_the_field():
    assert chiprace.chips_needed(120, {25: 8, 100: 18, 500: 6}) == {25: 960, 100: 2160, 500: 720}


# ---------------------------------------------------------------- properties

seats = st.lists(st.integers(1, 10), min_size=1, max_size=10, unique=True)


@st.composite
def tables(draw):
    players = []
    for seat in draw(seats):
        odd = draw(st.sampled_from([0, 25, 50, 75]))
        stack = draw(st.integers(0, 50)) * 100
        if odd + stack == 0:
            stack = 100
        players.append(RacePlayer(seat, odd, stack))
    return players


@settings(max_examples=300)
@given(
    tables(),
    st.sampled_from([ROUND_HALF_UP, FLOOR]),
    st.sampled_from([SEAT_1, LAST_HAND_SB]),
    st.sampled_from([SUIT_ORDER, FIRST_DEALT]),
    st.integers(1, 10),
    st.integers(0, 2**32),
)
def test_a_race_conserves_chips_and_races_nobody_out(players, conversion, start, tie, sb, seed):
    result = chiprace.race(
        players,
        **T25_TO_T100,
        conversion=conversion,
        start=start,
        last_hand_small_blind_seat=sb,
        tie=tie,
        rng=random.Random(seed),
    )
    before = sum(p.odd_value + p.stack_after_exchange for p in players)
    after = sum(result.final_stacks.values())
    assert before == after + result.discarded_value - result.added_value
    participants = {p.seat for p in players if p.odd_value > 0}
    assert len(result.winners) == len(set(result.winners)) == result.race_chips
    assert set(result.winners) <= participants
    assert result.race_chips <= len(participants)
    assert all(stack > 0 for stack in result.final_stacks.values())
    assert set(result.final_stacks) == {p.seat for p in players}


@settings(max_examples=200)
@given(
    st.integers(1, 400).map(lambda n: n * 25),
    st.dictionaries(st.sampled_from([25, 100, 250, 500, 1000]), st.integers(0, 40), min_size=1),
)
def test_a_made_up_stack_is_exact_and_within_the_chip_set(stack, chip_set):
    made = chiprace.make_up_stack(stack, chip_set)
    if made is not None:
        assert chiprace.stack_value(made) == stack
        assert all(0 < count <= chip_set[d] for d, count in made.items())
    else:
        assert stack not in reachable_values(chip_set)


def reachable_values(chip_set):
    """Every value a chip set can make exactly (plain bounded subset sums)."""
    values = {0}
    for denomination, count in chip_set.items():
        values = {v + k * denomination for v in values for k in range(count + 1)}
    return values
