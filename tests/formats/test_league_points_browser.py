"""Issue #39 item 10: league points read with the same two decimals everywhere. The lobby TV and
the player's phone wrote "4" or "32,5" where the pages write "4.00" and "47,06"."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page  # noqa: F401 (fixtures)
from tournaments.cashier import services as cashier
from tournaments.formats.services import series as series_service
from tournaments.models import DisplayScreen

from .test_league import four, play, score  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_tv_and_the_phone_show_league_points_with_two_decimals(browser_page, make_tournament, four, actor, cashier_actor):  # noqa: F811
    league = series_service.create_series(name="Tuesday league", scoring="LINEAR", cycle_length=None, actor=actor)
    score(league, play(make_tournament, four, "ABCD", actor, cashier_actor), actor)  # A 4, B 3, C 2, D 1
    nxt = make_tournament(name="Next week")
    series_service.attach(league, nxt, actor=actor)
    c = cashier.register(nxt, four["C"], method="CASH", actor=cashier_actor).entry
    DisplayScreen.objects.create(name="TV", tournament=nxt, token="league-tv", show={"sounds": False})

    page = browser_page
    page.goto(page.base_url + "/display/league-tv/")
    expect(page.locator("#league li")).to_have_text(["1. A T.4.00", "2. B T.3.00", "3. C T.2.00", "4. D T.1.00"])  # names in the public style
    page.goto(page.base_url + f"/p/{c.phone_token}/")
    expect(page.locator("#league-text")).to_contain_text("2.00 points")
