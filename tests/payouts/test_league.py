"""League formulas and season standings (issue "Bounties and leagues"), against worked examples."""

from decimal import Decimal as D

import pytest

from payouts.leaderboard import BEST_PLACE, FEWER_TOURNAMENTS, MORE_TOURNAMENTS, NONE
from payouts.league import LINEAR, SQRT, SQRT_BUYIN, TABLE, Formula, LeagueError, event_points, standings


def test_the_square_root_formula():
    """10 · √(40 / 1) = 63.2456 → 63.25; 10 · √(40 / 4) = 31.6228 → 31.62; √(40/40) · 10 = 10."""
    f = Formula(SQRT)
    assert event_points(f, entries=40, place=1) == D("63.25")
    assert event_points(f, entries=40, place=4) == D("31.62")
    assert event_points(f, entries=40, place=40) == D("10.00")


def test_the_square_root_formula_weighted_by_the_buy_in():
    """100 entries, 1st, €10: 10 · √100 · (1 + log₁₀ 10.25) = 100 · 2.0107239 = 201.07;
    the same place in a €100 event: 100 · (1 + log₁₀ 100.25) = 300.11."""
    f = Formula(SQRT_BUYIN)
    assert event_points(f, entries=100, place=1, buy_in=D("10")) == D("201.07")
    assert event_points(f, entries=100, place=1, buy_in=D("100")) == D("300.11")
    with pytest.raises(LeagueError) as err:
        event_points(f, entries=100, place=1)
    assert err.value.code == "needs_buy_in"


def test_a_points_table_with_participation_and_knockouts():
    """Table 100/70/50: 2nd → 70; 4th → the 5 participation points; 2 knockouts at 3 points add 6."""
    f = Formula(TABLE, table=(D(100), D(70), D(50)), participation=D(5), knockout_points=D(3))
    assert event_points(f, entries=30, place=2) == D("70.00")
    assert event_points(f, entries=30, place=4) == D("5.00")
    assert event_points(f, entries=30, place=2, knockouts=2) == D("76.00")


def test_the_linear_formula():
    f = Formula(LINEAR, participation=D(2))
    assert event_points(f, entries=40, place=1) == D("42.00")  # 40 − 1 + 1 + 2
    assert event_points(f, entries=40, place=40) == D("3.00")


def test_shared_places_score_the_average_of_their_places_or_the_best():
    """Table 100/70/50/30, two tied for 2nd (places 2 and 3): (70 + 50) / 2 = 60 each, or 70 each."""
    f = Formula(TABLE, table=(D(100), D(70), D(50), D(30)))
    assert event_points(f, entries=10, place=2, shared_with=2) == D("60.00")
    assert event_points(f, entries=10, place=2, shared_with=2, shared_rule=BEST_PLACE) == D("70.00")
    with pytest.raises(LeagueError):
        event_points(f, entries=10, place=10, shared_with=2)


def test_best_n_results_count():
    """Ann: 50, 10, 30, 40 → best 3 = 120; Bob: 100, 15 → 115. Ann leads on the best 3."""
    f = Formula(SQRT, best_of=3)
    rows = standings([("Ann", D(50)), ("Bob", D(100)), ("Ann", D(10)), ("Ann", D(30)), ("Ann", D(40)), ("Bob", D(15))], f)
    assert [(r.rank, r.player, r.total, r.events) for r in rows] == [(1, "Ann", D("120.00"), 4), (2, "Bob", D("115.00"), 2)]
    assert rows[0].counted == (D(50), D(40), D(30))


def test_ties_follow_the_house_setting():
    """Ann 0.10 + 0.20 and Bob 0.30 print the same total: equal, whatever floats would say.
    Best result: Bob's 0.30 beats Ann's 0.20; more events: Ann; none: they share 1st."""
    results = [("Ann", D("0.10")), ("Ann", D("0.20")), ("Bob", D("0.30"))]
    assert [r.player for r in standings(results, Formula(SQRT))] == ["Bob", "Ann"]
    assert [r.player for r in standings(results, Formula(SQRT, tie_break=MORE_TOURNAMENTS))] == ["Ann", "Bob"]
    assert [r.player for r in standings(results, Formula(SQRT, tie_break=FEWER_TOURNAMENTS))] == ["Bob", "Ann"]
    assert [(r.rank, r.player) for r in standings(results, Formula(SQRT, tie_break=NONE))] == [(1, "Ann"), (1, "Bob")]


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"name": "CUBE"}, "bad_formula"),
        ({"name": TABLE}, "empty_table"),
        ({"name": SQRT, "multiplier": D(0)}, "bad_points"),
        ({"name": SQRT, "best_of": 0}, "bad_best_of"),
        ({"name": SQRT, "tie_break": "COIN"}, "bad_tie_break"),
    ],
)
def test_a_formula_the_director_cannot_use_is_refused(kwargs, code):
    with pytest.raises(LeagueError) as err:
        Formula(**kwargs)
    assert err.value.code == code


def test_a_place_outside_the_field_is_refused():
    with pytest.raises(LeagueError):
        event_points(Formula(SQRT), entries=10, place=11)
