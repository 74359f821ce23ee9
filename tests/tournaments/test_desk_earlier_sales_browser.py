"""The desk's "Last sales" on a long shift, in Italian: fifteen at a time, the earlier ones a
click away (and back), each still reversible from there."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login, new_page  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_desk_shows_a_long_shifts_earlier_sales(browser_page, tournament, make_person):
    desk = make_user("desk", "cashier")
    sales = [cashier.register(tournament, make_person(), method="CASH", actor=Actor(desk)) for _ in range(17)]
    page = new_page(browser_page.context.browser, locale="it-IT")
    page.base_url = browser_page.base_url
    login(page, "desk", "pw-desk")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    expect(page.locator("#sales li")).to_have_count(15)
    expect(page.locator("#sales li").first).to_have_attribute("data-receipt", str(sales[-1].row.receipt_number))
    expect(page.locator("#sales-later")).to_be_hidden()
    page.get_by_role("button", name="Vendite precedenti").click()
    expect(page.locator("#sales li")).to_have_count(2)
    expect(page.locator("#sales li").last).to_have_attribute("data-receipt", str(sales[0].row.receipt_number))
    expect(page.locator("#sales li").last.get_by_role("button", name="Storna")).to_be_visible()
    expect(page.locator("#sales-earlier")).to_be_hidden()
    page.get_by_role("button", name="Vendite successive").click()
    expect(page.locator("#sales li")).to_have_count(15)
