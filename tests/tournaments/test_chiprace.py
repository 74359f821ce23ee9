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


# ---------------------------------------------------------------- what the floor reads


def test_a_refused_seat_is_named_to_the_floor():
    from tournaments.floor.services import chip_race_refusal

    for player in (RacePlayer(4, 150, 0), RacePlayer(4, 30, 100), RacePlayer(4, 0, 0), RacePlayer(4, -25, 100), RacePlayer(4, 25.0, 100)):
        with pytest.raises(ChipRaceError) as info:
            chiprace.race([RacePlayer(1, 25, 100), player], **T25_TO_T100)
        assert info.value.params == {"seat": 4}
        assert chip_race_refusal(info.value).startswith("Seat 4: its chips cannot be raced as entered")


def test_the_denominations_and_the_settings_of_a_race_are_checked():
    table = [RacePlayer(1, 25, 100), RacePlayer(2, 50, 100)]
    refused("bad_denomination", chiprace.race, table, removed_denomination=0, new_denomination=100)
    refused("bad_denomination", chiprace.race, table, removed_denomination=True, new_denomination=100)
    refused("bad_denomination", chiprace.race, table, removed_denomination=25, new_denomination=25)
    refused("bad_denomination", chiprace.race, table, **T25_TO_T100, lowest_denomination_in_play=0)
    refused("bad_player", chiprace.race, [RacePlayer(0, 25, 100)], **T25_TO_T100)
    refused("bad_player", chiprace.race, [RacePlayer(True, 25, 100)], **T25_TO_T100)
    refused("bad_player", chiprace.race, [RacePlayer(1, 25, -100)], **T25_TO_T100)
    refused("bad_setting", chiprace.race, table, **T25_TO_T100, tie="HIGHEST_SEAT")
    refused("bad_setting", chiprace.race, table, **T25_TO_T100, start="DEALER")
    refused("bad_setting", chiprace.race, table, **T25_TO_T100, start=LAST_HAND_SB, last_hand_small_blind_seat=0)
    refused("bad_setting", chiprace.race_chip_count, 150, 100, "CEIL")
    assert [chiprace.race_chip_count(v, 100, ROUND_HALF_UP) for v in (49, 50, 149, 150)] == [0, 1, 1, 2]
    assert [chiprace.race_chip_count(v, 100, FLOOR) for v in (99, 100, 175)] == [0, 1, 1]


def test_an_exchange_needs_whole_chips_and_a_real_denomination():
    refused("bad_player", chiprace.exchange, -25, 100)
    refused("bad_player", chiprace.exchange, 25.0, 100)
    refused("bad_denomination", chiprace.exchange, 100, 0)
    refused("bad_denomination", chiprace.exchange, 100, 100.0)
    assert chiprace.exchange(125, 1) == (125, 0)


def test_the_deal_log_shows_each_round_its_cards_and_its_winner():
    result = chiprace.race(
        scenario_30_table(),
        **T25_TO_T100,
        conversion=FLOOR,
        tie=FIRST_DEALT,
        cards=[{1: "10h", 4: " as ", 7: "2C", 9: "3D"}, {1: "9H", 7: "9S", 9: "4D"}],
    )
    assert result.rounds == [
        {"round": 1, "order": [1, 4, 7, 9], "cards": {1: "TH", 4: "AS", 7: "2C", 9: "3D"}, "winners": [4], "no_cards_needed": False},
        {"round": 2, "order": [7, 9, 1], "cards": {7: "9S", 9: "4D", 1: "9H"}, "winners": [7], "no_cards_needed": False},
    ]
    assert (result.start_seat, result.new_denomination, result.rescue_chip_value) == (1, 100, 100)
    assert result.final_stacks == {1: 4000, 3: 6500, 4: 2400, 7: 1000, 9: 12000}


def test_a_race_from_the_last_small_blind_past_the_last_seat_starts_at_the_first():
    result = chiprace.race(
        scenario_30_table(),
        **T25_TO_T100,
        conversion=FLOOR,
        start=LAST_HAND_SB,
        last_hand_small_blind_seat=10,
        tie=FIRST_DEALT,
        cards=[{1: "2H", 4: "3S", 7: "2C", 9: "AD"}, {1: "4D", 4: "9H", 7: "9S"}],
    )
    assert [r["order"] for r in result.rounds] == [[1, 4, 7, 9], [1, 4, 7]]
    assert (result.winners, result.start_seat) == ([9, 4], 10)


def test_cards_for_more_rounds_than_were_dealt_are_refused():
    table = scenario_30_table()
    cards = [{1: "AH", 4: "KS", 7: "2C", 9: "3D"}, {4: "9H", 7: "9S", 9: "4D"}, {4: "8H", 7: "8S"}]
    with pytest.raises(ChipRaceError) as info:
        chiprace.race(table, **T25_TO_T100, conversion=FLOOR, cards=cards)
    assert info.value.code == "bad_cards"
    refused("bad_cards", chiprace.race, table, **T25_TO_T100, conversion=FLOOR, cards=[{1: 14, 4: "KS", 7: "2C", 9: "3D"}, {4: "9H", 7: "9S", 9: "4D"}])
    refused("bad_cards", chiprace.race, table, **T25_TO_T100, conversion=FLOOR, cards=[{1: "1H", 4: "KS", 7: "2C", 9: "3D"}, {4: "9H", 7: "9S", 9: "4D"}])


def test_a_recorded_race_keeps_its_winners_and_its_discard():
    result = chiprace.race_from_result(scenario_30_table(), [9, 1], **T25_TO_T100, conversion=FLOOR)
    assert result.awarded == {9: 100, 1: 100}
    assert (result.race_chips, result.discarded_value, result.added_value, result.total_odd_value) == (2, 25, 0, 225)
    assert result.final_stacks == {1: 4100, 3: 6500, 4: 2300, 7: 900, 9: 12100}
    assert (result.rounds, result.start_seat, result.raced_out_rescued) == ([], None, [])
    rescued = chiprace.race_from_result([RacePlayer(1, 25, 0), RacePlayer(2, 25, 3000)], [], **T25_TO_T100, conversion=FLOOR, lowest_denomination_in_play=50)
    assert (rescued.final_stacks, rescued.added_value, rescued.discarded_value) == ({1: 50, 2: 3000}, 50, 50)


def test_colour_up_and_stack_planning_refuse_impossible_chip_sets():
    refused("bad_denomination", chiprace.color_up_suggestion, [], 100)
    refused("bad_denomination", chiprace.color_up_suggestion, [0, 100], 100)
    refused("bad_denomination", chiprace.color_up_suggestion, [25.0, 100], 100)
    assert chiprace.color_up_suggestion([100, 25, 25, 500], 100, ante=0, big_blind=200) == [25]
    assert chiprace.color_up_suggestion([25, 100, 500], 100, ante=25, big_blind=200) == []
    refused("bad_chip_set", chiprace.make_up_stack, 0, {25: 10})
    refused("bad_chip_set", chiprace.make_up_stack, 1000.0, {25: 10})
    refused("bad_chip_set", chiprace.make_up_stack, 1000, {0: 10})
    refused("bad_chip_set", chiprace.make_up_stack, 1000, {100: -1})
    refused("bad_chip_set", chiprace.make_up_stack, 1000, {100: 2.0})
    assert chiprace.make_up_stack(1000, {100: 0, 500: 0}) is None
    assert chiprace.make_up_stack(1000, {100: 10}) == {100: 10}
    assert chiprace.make_up_stack(600, {100: 5, 500: 1}) == {100: 1, 500: 1}
    refused("bad_chip_set", chiprace.chips_needed, -1, {25: 8})
    assert chiprace.chips_needed(0, {100: 8, 25: 4}) == {25: 0, 100: 0}
    assert chiprace.stack_value({25: 8, 100: 18, 500: 6}) == 5000


def test_a_structure_without_antes_can_colour_up_its_t25_once_the_blinds_are_hundreds():
    assert chiprace.color_up_suggestion([25, 100, 500], 100, big_blind=200) == [25]


def test_a_chip_set_with_t1_chips_is_planned_and_colours_up_like_any_other():
    assert chiprace.color_up_suggestion([1, 5, 25], 5, ante=0, big_blind=10) == [1]
    assert chiprace.make_up_stack(1, {1: 5}) == {1: 1}
    assert chiprace.make_up_stack(7, {1: 10, 5: 10}) == {1: 2, 5: 1}


def test_a_colour_the_chip_set_lacks_takes_no_share_of_the_starting_stack():
    # 1500 shared by T100 and T500: 750 each, so 7.5 T100; the rest must be T500s, so 5 or 10 T100;
    # equally near, the stack takes the more small chips: 10 T100 and one T500.
    assert chiprace.make_up_stack(1500, {100: 20, 500: 20}) == {100: 10, 500: 1}
    assert chiprace.make_up_stack(1500, {25: 0, 100: 20, 500: 20}) == {100: 10, 500: 1}


def test_a_make_up_never_uses_more_chips_of_a_colour_than_the_set_has():
    # one T50 only: 950 cannot be made with T100s, so the stack is ten T100 (never two T50)
    assert chiprace.make_up_stack(1000, {50: 1, 100: 20}) == {100: 10}


def test_a_t1_odd_chip_is_a_share_in_the_race_and_can_win_it():
    # T1 coloured up into T5: seat 1 has one odd T1, seat 2 three: 4 rounds half up to one T5.
    table = [RacePlayer(1, 1, 100), RacePlayer(2, 3, 100)]
    result = chiprace.race_from_result(table, [1], removed_denomination=1, new_denomination=5, conversion=ROUND_HALF_UP)
    assert result.final_stacks == {1: 105, 2: 100}
    assert (result.race_chips, result.added_value, result.discarded_value) == (1, 1, 0)
    dealt = chiprace.race(table, removed_denomination=1, new_denomination=5, cards=[{1: "AS", 2: "KS"}])
    assert dealt.rounds[0]["order"] == [1, 2]
    assert (dealt.winners, dealt.final_stacks) == ([1], {1: 105, 2: 100})


def test_a_race_simulated_without_a_given_shuffle_still_deals_its_chips():
    result = chiprace.race(scenario_30_table(), **T25_TO_T100, conversion=FLOOR)
    assert len(result.winners) == len(set(result.winners)) == 2
    assert set(result.winners) <= {1, 4, 7, 9}
    assert [len(r["cards"]) for r in result.rounds] == [4, 3]
    assert sum(result.final_stacks.values()) == 4000 + 6500 + 2300 + 900 + 12000 + 200


def test_each_later_round_starts_at_the_seat_left_of_the_last_winner():
    table = [RacePlayer(3, 75, 1000), RacePlayer(4, 50, 1000), RacePlayer(5, 50, 1000), RacePlayer(6, 25, 1000)]
    result = chiprace.race(
        table,
        **T25_TO_T100,
        conversion=FLOOR,
        tie=FIRST_DEALT,
        cards=[{3: "2C", 4: "AH", 5: "3C", 6: "4C"}, {5: "QH", 6: "2C", 3: "QD"}],
    )
    # seat 4 wins the first round; the second is dealt from seat 5, so seat 5's queen came first
    assert [r["order"] for r in result.rounds] == [[3, 4, 5, 6], [5, 6, 3]]
    assert result.winners == [4, 5]
    assert result.final_stacks == {3: 1000, 4: 1100, 5: 1100, 6: 1000}


def test_a_race_with_a_chip_for_everyone_logs_one_round_without_cards():
    players = [RacePlayer(1, 75, 500), RacePlayer(2, 75, 500)]
    result = chiprace.race(players, **T25_TO_T100, conversion=ROUND_HALF_UP, cards=[])
    assert result.rounds == [{"round": 1, "order": [1, 2], "cards": {}, "winners": [1, 2], "no_cards_needed": True}]
    assert result.final_stacks == {1: 600, 2: 600}


def test_a_player_with_odd_chips_and_a_t50_equal_in_value_races_like_anyone():
    # two odd T25 (50) and one T50 (50) still in play: he has chips, and he can win the race
    table = [RacePlayer(1, 50, 50), RacePlayer(2, 50, 1000)]
    result = chiprace.race_from_result(table, [1], **T25_TO_T100, conversion=FLOOR, lowest_denomination_in_play=50)
    assert result.final_stacks == {1: 150, 2: 1000}
    assert (result.race_chips, result.discarded_value, result.added_value) == (1, 0, 0)


def test_a_player_raced_out_can_be_given_a_t1_when_the_t1_is_the_lowest_chip_in_play():
    table = [RacePlayer(1, 5, 0), RacePlayer(2, 5, 300)]
    result = chiprace.race_from_result(table, [], removed_denomination=5, new_denomination=25, conversion=FLOOR, lowest_denomination_in_play=1)
    assert result.final_stacks == {1: 1, 2: 300}
    assert (result.raced_out_rescued, result.added_value, result.discarded_value) == ([1], 1, 10)
