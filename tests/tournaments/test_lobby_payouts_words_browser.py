"""Item 10 (issue #39): the lobby screen's payouts heading agrees in Italian ("Premi provvisori",
not "Premi provvisoria") and shows no rule id to the public."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page  # noqa: F401 (fixtures)
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_lobby_payouts_heading_reads_right_in_italian(browser_page, tournament, make_person, cashier_user):
    for _ in range(3):
        cashier.register(tournament, make_person(), method="CASH", actor=Actor(cashier_user, "desk"))
    DisplayScreen.objects.create(name="TV", tournament=tournament, token="payout-words-tv", show={"sounds": False})
    context = browser_page.context.browser.new_context(locale="it-IT", viewport={"width": 1920, "height": 1080})
    try:
        page = context.new_page()
        page.route("**/live/*/stream/**", lambda route: route.abort())
        page.goto(browser_page.base_url + "/display/payout-words-tv/")
        expect(page.locator(".payouts.not-cancelled h2")).to_have_text("Premi provvisori")
    finally:
        context.close()
