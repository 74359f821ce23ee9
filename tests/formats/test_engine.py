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
