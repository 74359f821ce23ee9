"""The pure format rules: bracket layout, places, lateness, priorities, chip ranking, prizes."""

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats import engine

T0 = datetime(2026, 7, 9, 20, 0, tzinfo=UTC)


def test_the_standard_layout_keeps_the_top_seeds_apart_until_the_final():
    order = engine.seeding_order(16)
    assert order == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    assert 1 in order[:8] and 2 in order[8:]  # 1 and 2 meet in the final
    assert {1, 4} <= set(order[:8]) and {2, 3} <= set(order[8:])  # 1 v 4 and 2 v 3 in the semi-finals
    assert engine.seeding_order(4) == [1, 4, 2, 3]


def test_byes_go_to_the_top_seeds():
    pairs = engine.first_round(list("ABCDEFGHIJKLM"), 16)  # 13 players, 3 byes
    byes = [a or b for a, b in pairs if a is None or b is None]
    assert sorted(byes) == ["A", "B", "C"]
    assert ("A", None) in pairs and sum(1 for a, b in pairs if a and b) == 5


@given(st.integers(min_value=9, max_value=16))
def test_every_player_appears_once_and_no_match_is_empty(n):
    players = list(range(n))
    pairs = engine.first_round(players, 16)
    seen = [p for pair in pairs for p in pair if p is not None]
    assert sorted(seen) == players
    assert all(a is not None or b is not None for a, b in pairs)


def test_places_of_the_losers_of_each_round():
    assert [engine.loser_place(16, r) for r in (1, 2, 3, 4)] == [9, 5, 3, 2]
    assert engine.next_slot(1, 5) == (2, 2, "b")


def test_lateness_counts_whole_levels_and_stops_at_the_match():
    # Scenario 35: 12-minute levels; 13 minutes late → game 1; 24 minutes → the match.
    assert engine.levels_late(T0, T0 + timedelta(minutes=11, seconds=59), 12) == 0
    assert engine.levels_late(T0, T0 + timedelta(minutes=13), 12) == 1
    assert engine.levels_late(T0, T0 + timedelta(minutes=24), 12) == 2
    assert engine.levels_late(T0, T0 + timedelta(minutes=90), 12) == 2


def test_the_replacement_window_is_level_one_plus_five_minutes():
    assert engine.replacement_deadline(T0, 10) == T0 + timedelta(minutes=15)


def test_the_match_clock_caps_at_500_1000():
    assert engine.match_level(T0, T0 + timedelta(minutes=25), 10)["level"] == 3
    capped = engine.match_level(T0, T0 + timedelta(hours=5), 10)
    assert (capped["small_blind"], capped["big_blind"], capped["capped"]) == (500, 1000, True)


def test_seat_priority_new_before_level_one_then_earliest_out_then_late_newcomers():
    start = T0 + timedelta(hours=2)
    requests = {
        "late-new": engine.seat_request_priority("NEW", start + timedelta(minutes=1), start, None),
        "B": engine.seat_request_priority("RETURNING", T0, start, T0 + timedelta(minutes=50)),
        "A": engine.seat_request_priority("RETURNING", T0 + timedelta(minutes=55), start, T0 + timedelta(minutes=35)),
        "new1": engine.seat_request_priority("NEW", start - timedelta(minutes=5), start, None),
        "new2": engine.seat_request_priority("NEW", start - timedelta(minutes=1), start, None),
    }
    assert sorted(requests, key=requests.get) == ["new1", "new2", "A", "B", "late-new"]


def test_equal_stacks_share_a_place_or_are_drawn():
    shared = engine.rank_by_chips([("a", 500), ("b", 900), ("c", 500), ("d", 100)])
    assert [(p.player, p.place, p.shared_with) for p in shared] == [("b", 1, 1), ("a", 2, 2), ("c", 2, 2), ("d", 4, 1)]
    drawn = engine.rank_by_chips([("a", 500), ("c", 500)], tie=engine.DRAW, rng=random.Random(1))
    assert sorted(p.place for p in drawn) == [1, 2]


def test_chip_leader_prizes_2000_1000_500_and_a_tie_shares():
    prizes = engine.chip_leader_prizes([("a", 90000), ("b", 120000), ("c", 40000), ("d", 70000)])
    assert [(p.player, p.amount) for p in prizes] == [("b", Decimal("2000")), ("a", Decimal("1000")), ("d", Decimal("500"))]
    tied = engine.chip_leader_prizes([("a", 90000), ("b", 90000), ("c", 40000)])
    assert [(p.player, p.amount, p.shared_with) for p in tied] == [("a", Decimal("1500.00"), 2), ("b", Decimal("1500.00"), 2), ("c", Decimal("500"), 1)]
    tie_for_third = engine.chip_leader_prizes([("a", 3), ("b", 2), ("c", 1), ("d", 1)])
    assert [(p.player, p.amount) for p in tie_for_third][2:] == [("c", Decimal("250.00")), ("d", Decimal("250.00"))]


def test_a_player_in_several_flights_carries_the_best_or_the_first_bag():
    bags = [engine.FlightBag(0, "1A", 40000), engine.FlightBag(2, "1C", 90000), engine.FlightBag(1, "1B", 90000)]
    assert engine.day2_bag(bags).bag == "1B"
    assert engine.day2_bag(bags, engine.FIRST).bag == "1A"


def test_the_sanremo_daily_prices():
    assert engine.daily_price(4) == (Decimal("200"), Decimal("20"))  # Friday
    assert engine.daily_price(1) is None  # no daily tournament on Tuesday


def test_eliminated_players_rank_by_bust_time():
    out = engine.places_below([("a", T0), ("b", T0 + timedelta(minutes=5)), ("c", T0)], 3)
    assert [(p.player, p.place, p.shared_with) for p in out] == [("b", 3, 1), ("a", 4, 2), ("c", 4, 2)]


def test_a_bracket_needs_a_real_size():
    with pytest.raises(engine.FormatRuleError):
        engine.seeding_order(12)


def test_the_smallest_bracket_that_holds_the_field_is_chosen():
    assert [engine.bracket_size_for(n) for n in (2, 13, 16, 17, 32, 33, 64)] == [16, 16, 16, 32, 32, 64, 64]
    assert engine.bracket_size_for(5, sizes=(16, 8)) == 8
    with pytest.raises(engine.FormatRuleError) as refused:
        engine.bracket_size_for(65)
    assert refused.value.code == "too_many_players"
    assert str(refused.value) == "65 players do not fit a bracket of 64"


def test_a_bracket_refuses_a_field_it_cannot_pair():
    for players, size, code, said in (
        (list("ABCDE"), 4, "too_many_players", "5 players do not fit a bracket of 4"),
        (["A"], 16, "too_few_players", "a bracket needs at least two players"),
        (["A", "B", "A"], 4, "duplicate_player", "a player is drawn twice"),
        (["A", "B"], 12, "bad_bracket_size", "a bracket has 2, 4, 8, 16, 32 or 64 places, not 12"),
    ):
        with pytest.raises(engine.FormatRuleError) as refused:
            engine.first_round(players, size)
        assert (refused.value.code, str(refused.value)) == (code, said)
    assert engine.first_round(["A", "B"], 2) == [("A", "B")]
    assert engine.first_round(list("ABCD"), 4) == [("A", "D"), ("B", "C")]
    assert engine.seeding_order(2) == [1, 2]


def test_the_seeded_players_head_the_draw_and_the_others_follow():
    drawn = engine.bracket_order(["S1", "S2"], ["a", "b", "c"], random.Random(3))
    assert drawn[:2] == ["S1", "S2"]
    assert sorted(drawn[2:]) == ["a", "b", "c"]


def test_a_match_is_won_at_two_games_and_the_winner_moves_on():
    assert [engine.match_over(a, b) for a, b in ((2, 0), (1, 1), (1, 2), (0, 1))] == [True, False, True, False]
    assert engine.match_over(2, 1, games_to_win=3) is False
    assert engine.next_slot(1, 4) == (2, 2, "a")
    assert engine.next_slot(2, 3) == (3, 1, "b")
    assert [str(engine.loser_place(16, r)) for r in (1, 2, 3, 4)] == ["9", "5", "3", "2"]
    assert [engine.rounds_in(s) for s in (2, 16, 64)] == [1, 4, 6]


def test_a_replacement_may_sit_until_level_one_ends_plus_the_grace():
    assert engine.replacement_deadline(T0, 12) == datetime(2026, 7, 9, 20, 17, tzinfo=UTC)
    assert engine.replacement_deadline(T0, 12, grace_minutes=0) == datetime(2026, 7, 9, 20, 12, tzinfo=UTC)
    assert engine.level_one_ends(T0, 20) == datetime(2026, 7, 9, 20, 20, tzinfo=UTC)


def test_lateness_starts_at_a_whole_level():
    assert engine.levels_late(T0, T0 - timedelta(minutes=3), 12) == 0
    assert engine.levels_late(T0, T0, 12) == 0
    assert engine.levels_late(T0, T0 + timedelta(minutes=12), 12) == 1
    assert engine.levels_late(T0, T0 + timedelta(minutes=23, seconds=59), 12) == 1


def test_the_match_clock_shows_the_level_the_blinds_and_the_time_left():
    def shown(after):
        clock = engine.match_level(T0, T0 + after, 10)
        return clock["level"], clock["small_blind"], clock["big_blind"], clock["seconds_left"], clock["capped"]

    assert shown(timedelta(minutes=-1)) == (1, 100, 100, 600, False)
    assert shown(timedelta(0)) == (1, 100, 100, 600, False)
    assert shown(timedelta(minutes=10, seconds=5)) == (2, 100, 200, 595, False)
    assert shown(timedelta(minutes=25, milliseconds=400)) == (3, 100, 300, 300, False)
    assert shown(timedelta(minutes=69, seconds=59)) == (7, 400, 800, 1, False)
    assert shown(timedelta(minutes=70)) == (8, 500, 1000, None, True)
    short = engine.match_level(T0, T0 + timedelta(minutes=15), 10, levels=((25, 50), (50, 100), (75, 150)))
    assert (short["level"], short["small_blind"], short["big_blind"], short["seconds_left"], short["capped"]) == (2, 50, 100, 300, False)


def test_a_newcomer_asking_as_level_one_starts_is_still_early():
    start = T0 + timedelta(hours=2)
    assert engine.seat_request_priority("NEW", start, start, None) == (0, start, start)
    asked = T0 + timedelta(minutes=40)
    assert engine.seat_request_priority("RETURNING", asked, start, None) == (1, asked, asked)
    assert engine.seat_request_priority("NEW", start + timedelta(seconds=1), start, None)[0] == 2


def test_chip_ranking_refuses_what_it_cannot_rank_and_starts_where_asked():
    for stacks, kwargs, code, said in (
        ([("a", 1)], {"tie": "COIN"}, "bad_tie_rule", "unknown tie rule 'COIN'"),
        ([("a", -1)], {}, "bad_chips", "a stack cannot be negative"),
        ([("a", 5), ("b", 5)], {"tie": engine.DRAW}, "rng_required", "a draw needs a random source"),
    ):
        with pytest.raises(engine.FormatRuleError) as refused:
            engine.rank_by_chips(stacks, **kwargs)
        assert (refused.value.code, str(refused.value)) == (code, said)
    ranked = engine.rank_by_chips([("a", "0"), ("b", "700"), ("c", 300)], first_place=5)
    assert [(p.player, p.place, p.shared_with) for p in ranked] == [("b", 5, 1), ("c", 6, 1), ("a", 7, 1)]
    alone = engine.rank_by_chips([("a", 5), ("b", 3)], tie=engine.DRAW)
    assert [(p.player, p.place, p.shared_with) for p in alone] == [("a", 1, 1), ("b", 2, 1)]
    drawn = engine.rank_by_chips([("a", 500), ("c", 500), ("d", 100)], tie=engine.DRAW, rng=random.Random(1))
    assert sorted((p.place, p.shared_with) for p in drawn) == [(1, 1), (2, 1), (3, 1)]
    assert drawn[2].player == "d"


def test_chip_leader_prizes_by_draw_few_bags_and_a_custom_list():
    drawn = engine.chip_leader_prizes([("a", 5), ("b", 5), ("c", 1)], tie=engine.DRAW, rng=random.Random(2))
    assert sorted((p.rank, p.amount, p.shared_with) for p in drawn) == [(1, Decimal("2000"), 1), (2, Decimal("1000"), 1), (3, Decimal("500"), 1)]
    assert {p.player for p in drawn[:2]} == {"a", "b"}
    two = engine.chip_leader_prizes([("a", 800), ("b", 1200)])
    assert [(p.player, p.rank, p.chips, p.amount) for p in two] == [("b", 1, 1200, Decimal("2000")), ("a", 2, 800, Decimal("1000"))]
    three_way = engine.chip_leader_prizes([("a", 5), ("b", 5), ("c", 5), ("d", 1)], prizes=("100",))
    assert [(p.player, p.amount, p.shared_with) for p in three_way] == [("a", Decimal("33.34"), 3), ("b", Decimal("33.33"), 3), ("c", Decimal("33.33"), 3)]
    nothing_for_second = engine.chip_leader_prizes([("a", 9), ("b", 5)], prizes=("300", "0"))
    assert [(p.player, p.amount) for p in nothing_for_second] == [("a", Decimal("300"))]


def test_a_day2_bag_needs_a_known_rule_and_a_bag():
    for bags, rule, code, said in (
        ([engine.FlightBag(0, "1A", 100)], "BIGGEST", "bad_flight_stack_rule", "unknown rule 'BIGGEST'"),
        ([], engine.BEST, "no_bag", "the player has no bag"),
    ):
        with pytest.raises(engine.FormatRuleError) as refused:
            engine.day2_bag(bags, rule)
        assert (refused.value.code, str(refused.value)) == (code, said)
    bags = [engine.FlightBag(3, "1D", 20000), engine.FlightBag(1, "1B", 15000), engine.FlightBag(2, "1C", 60000)]
    assert engine.day2_bag(bags).bag == "1C"
    assert engine.day2_bag(bags, engine.FIRST).bag == "1B"


def test_a_series_may_set_its_own_daily_prices():
    assert [str(v) for v in engine.daily_price(4)] == ["200.00", "20.00"]
    assert [str(v) for v in engine.daily_price("6")] == ["80.00", "20.00"]
    own = {"2": ("30", "5"), "0": ("45", "15")}
    assert [str(v) for v in engine.daily_price(2, own)] == ["30.00", "5.00"]
    assert engine.daily_price(4, own) is None


def test_a_refusal_without_words_shows_its_code():
    assert str(engine.FormatRuleError("no_bag")) == "no_bag"
    assert engine.FormatRuleError("no_bag", "the player has no bag").code == "no_bag"
