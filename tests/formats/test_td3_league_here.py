"""A league brought in from The Tournament Director goes on here with TD3's own points formula.

The league of the suite's small save file (``club.tdt``) keeps its points formula; an event played
here afterwards in that league is scored by it: the event and each player's result given as TD3's
variables (the field, the place, the knockouts, the rebuys and add-ons, the money paid and won).
"""

from decimal import Decimal

import pytest

from seating import services as seating
from tdmanager.errors import DomainError
from tests.tournaments import td3_files as td3
from tournaments.cashier import services as cashier
from tournaments.formats import selectors
from tournaments.formats.models import Series, SeriesResult
from tournaments.formats.services import series as series_service
from tournaments.imports import services as import_services
from tournaments.imports.td3 import files
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db

#: n − r + 1; ten points a knockout; a point a rebuy and one an add-on; a point for every 100 won,
#: and the money paid (buy-ins, rebuys, add-ons with their fees) off the points a hundredth at a time.
FORMULA = 'assign("base", n - r + 1)\nbase + nh * 10 + nr + numberOfAddOns + pw / 100 - totalCost / 100'


def imported_league(actor, formula=FORMULA) -> Series:
    data = files.bundle([("club.tdt", td3.club_night(formula=formula).encode())])
    import_services.run_import("td3", data, "club.zip", actor=actor)
    return Series.objects.get(name="Thursday League")


def played_here(league, make_tournament, make_person, actor, cashier_actor):
    """Three players here, a €20 bounty on each: buy-in 100 + 10 fee + 20 bounty; B buys a rebuy
    (100 + 5 fee); C is out to A, then B to A, who wins the pool of 400."""
    people = {name: make_person(first=name, last="Here") for name in "ABC"}
    t = make_tournament(
        name="Club Night here",
        format="REBUY",
        settings={"bounty": "FIXED", "bounty_amount": "20"},
        rebuy_price=Decimal(100),
        rebuy_chips=30000,
        rebuy_fee=Decimal(5),
    )
    series_service.attach(league, t, actor=actor)
    e = {name: cashier.register(t, people[name], method="CASH", actor=cashier_actor).entry for name in "ABC"}
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    cashier.rebuy(e["B"], method="CASH", actor=cashier_actor, stack=0)
    seating.record_bust(t, [{"entry": e["C"].pk, "eliminators": [e["A"].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e["B"].pk, "eliminators": [e["A"].pk]}], actor=actor)
    lifecycle.finish(t, actor=actor)
    return t


def test_an_event_played_here_in_a_td3_league_scores_by_its_td3_formula(make_tournament, make_person, actor, cashier_actor):
    """By hand, n = 3:
    A 1st: 3 + 2 knockouts × 10 + 400 won / 100 − 130 paid / 100 = 25.70
    B 2nd: 2 + 1 rebuy − (130 + 105) / 100 = 0.65
    C 3rd: 1 − 130 / 100 = −0.30"""
    league = imported_league(actor)
    imported = SeriesResult.objects.count()
    t = played_here(league, make_tournament, make_person, actor, cashier_actor)
    results = {r.person.first_name: (r.place, r.knockouts, round(r.points, 6)) for r in series_service.score_tournament(t, actor=actor)}
    assert results == {"A": (1, 2, 25.7), "B": (2, 0, 0.65), "C": (3, 0, -0.3)}
    assert SeriesResult.objects.count() == imported + 3
    league.refresh_from_db()
    data = selectors.leaderboard_data(league)
    season = {line["name"].split()[0]: line["points"] for line in data["standings"]}
    assert season["A"] == 25.7
    assert data["series"]["formula"].startswith("The Tournament Director's points formula, brought in with the league")


def scored_with(td3_formula, make_tournament, make_person, actor, cashier_actor):
    """The imported league given ``td3_formula``, an event played here, and the refusal to
    score it: the event and the refusal."""
    league = imported_league(actor)
    Series.objects.filter(pk=league.pk).update(td3_formula=td3_formula)
    t = played_here(league, make_tournament, make_person, actor, cashier_actor)
    with pytest.raises(DomainError) as refused:
        series_service.score_tournament(t, actor=actor)
    return t, refused.value


def test_a_td3_formula_that_gives_no_number_here_is_refused_by_name(make_tournament, make_person, actor, cashier_actor):
    t, refused = scored_with('IF(r = 1, "winner", 0)', make_tournament, make_person, actor, cashier_actor)
    assert refused.code == "td3_formula" and "gives no number" in str(refused)
    assert str(refused).startswith("The Tournament Director's formula of this league gives no points: ")
    assert not SeriesResult.objects.filter(tournament=t).exists()


def test_a_td3_league_without_its_formula_asks_for_a_formula_of_its_own_here(make_tournament, make_person, actor, cashier_actor):
    t, refused = scored_with("", make_tournament, make_person, actor, cashier_actor)
    assert refused.code == "td3_formula"
    assert str(refused) == (
        "This league keeps The Tournament Director's points for the events imported from it: choose one of the formulas here to score the events played here."
    )
    assert not SeriesResult.objects.filter(tournament=t).exists()
