"""PAY-02 on a real lobby screen: the prize pool is labelled net (or gross) and, with
``display_pool`` BOTH, the gross is shown on a line of its own (text written by display.js)."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page  # noqa: F401 (fixtures)
from tournaments.cashier import services as cashier
from tournaments.models import DisplayScreen

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
D = Decimal


def test_the_lobby_labels_the_pool_gross_and_net(browser_page, make_tournament, make_person, cashier_user):
    from tournaments.eventlog.services import Actor

    page = browser_page
    t = make_tournament(
        buy_in=D("100"), fee=D("10"), guarantee=D("1000"), deductions=[{"name": "staff service", "percent": "4"}], settings={"display_pool": "BOTH"}
    )
    for _ in range(5):
        cashier.register(t, make_person(), method="CARD", actor=Actor(cashier_user))
    DisplayScreen.objects.create(name="Lobby", tournament=t, token="pay02-tv", show={"sounds": False})
    page.route("**/live/*/stream/**", lambda route: route.abort())  # the polling fallback is enough here
    page.goto(page.base_url + "/display/pay02-tv/")
    expect(page.locator("#pool")).to_contain_text("960")
    expect(page.locator("#pool-label")).to_have_text("(net)")
    expect(page.locator("#pool-gross-box")).to_be_visible()
    expect(page.locator("#pool-gross")).to_contain_text("1,000")
    expect(page.locator("#pool-gross-label")).to_have_text("(gross)")
