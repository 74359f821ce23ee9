"""Leaderboard points and the 20-tournament cycle (LB-01..LB-03, scenario 39)."""

import math
import random

import pytest

from payouts.leaderboard import (
    SeriesStanding,
    cycle_awards,
    leaderboard_constant,
    leaderboard_points,
    series_standings,
)


def test_scenario_39_reading_a_points_for_forty_players():
    assert leaderboard_constant("A") == pytest.approx(30.0108, abs=1e-4)
    assert round(leaderboard_points(40, 1), 2) == 189.81
    assert round(leaderboard_points(40, 2), 2) == 134.21
    assert round(leaderboard_points(40, 4), 2) == 94.90
    assert round(leaderboard_points(40, 40), 2) == 30.01


def test_scenario_39_reading_b_points_for_forty_players():
    assert leaderboard_constant("B") == pytest.approx(24.3068, abs=1e-4)
    assert round(leaderboard_points(40, 1, mode="B"), 2) == 153.73
    assert round(leaderboard_points(40, 40, mode="B"), 2) == 24.31


def test_reading_c_and_reading_d_constants():
    assert leaderboard_constant("C") == pytest.approx(16.9897, abs=1e-4)
    # D: the day's buy-in, 10 · (1 + log10(b + 0.25)); b = 100 gives reading A back.
    assert leaderboard_constant("D", buy_in=100) == pytest.approx(leaderboard_constant("A"))
    # LB-02 table: 27.01 for the €50 days, 33.02 for the €200 day.
    assert round(leaderboard_constant("D", buy_in=50), 2) == 27.01
    assert round(leaderboard_constant("D", buy_in=200), 2) == 33.02
    with pytest.raises(ValueError):
        leaderboard_constant("D")


def test_scores_are_stored_unrounded():
    assert leaderboard_points(40, 1) == leaderboard_constant("A") * math.sqrt(40)


def test_the_standings_are_the_same_under_readings_a_b_and_c():
    rng = random.Random(39)
    results = {mode: [] for mode in "ABC"}
    for _ in range(20):
        field = rng.randint(15, 60)
        players = rng.sample(range(100), field)
        for place, player in enumerate(players, start=1):
            for mode in "ABC":
                results[mode].append((player, leaderboard_points(field, place, mode=mode)))
    orders = {mode: [s.player for s in series_standings(results[mode])] for mode in "ABC"}
    assert orders["A"] == orders["B"] == orders["C"]


def test_tied_players_score_at_the_average_of_their_places():
    # Two players tied for 3rd–4th score at place 3.5; or at 3 with BEST_PLACE.
    average = leaderboard_points(40, 3, shared_with=2)
    assert average == pytest.approx(leaderboard_constant("A") * math.sqrt(40 / 3.5))
    best = leaderboard_points(40, 3, shared_with=2, shared_rule="BEST_PLACE")
    assert best == leaderboard_points(40, 3)
    with pytest.raises(ValueError):
        leaderboard_points(40, 40, shared_with=2)  # places 40–41 do not exist


def test_series_standings_add_up_scores_and_share_ranks():
    standings = series_standings(
        [("ann", 100.0), ("bob", 60.0), ("cid", 80.0), ("bob", 40.0), ("dan", 80.0)],
        tie_break="NONE",
    )
    assert [(s.rank, s.player, s.total) for s in standings] == [
        (1, "ann", 100.0),
        (1, "bob", 100.0),
        (3, "cid", 80.0),
        (3, "dan", 80.0),
    ]


def test_best_result_breaks_a_tie_on_totals():
    standings = series_standings([("ann", 100.0), ("bob", 60.0), ("bob", 40.0)])
    assert [(s.rank, s.player) for s in standings] == [(1, "ann"), (2, "bob")]
    assert standings[1] == SeriesStanding(2, "bob", 100.0, 2, 60.0)


def test_the_top_four_win_the_cycle_tickets():
    totals = {"ann": 900.0, "bob": 700.0, "cid": 650.0, "dan": 600.0, "eve": 590.0}
    awards = cycle_awards(totals)
    assert awards.winners == ["ann", "bob", "cid", "dan"]
    assert awards.undecided == []


def test_a_tie_for_the_last_ticket_is_left_to_the_director():
    totals = {"ann": 900.0, "bob": 700.0, "cid": 650.0, "dan": 600.0, "eve": 600.0}
    awards = cycle_awards(totals)
    assert awards.winners == ["ann", "bob", "cid"]
    assert awards.undecided == ["dan", "eve"]
    assert awards.tickets_undecided == 1


def test_a_tie_break_can_settle_the_last_ticket():
    scores = [("ann", 900.0), ("bob", 700.0), ("cid", 650.0)]
    scores += [("dan", 300.0), ("dan", 300.0), ("eve", 400.0), ("eve", 200.0)]
    assert cycle_awards(scores).winners == ["ann", "bob", "cid", "eve"]
    assert cycle_awards(scores, tie_break="MORE_TOURNAMENTS").undecided == ["dan", "eve"]
