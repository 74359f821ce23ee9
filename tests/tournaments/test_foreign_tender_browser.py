"""REG-06 in a real browser: the supervisor sets today's CHF rate on the desk, the cashier picks
CHF, sees what the player pays, sells, and the receipt prints the tender and the rate."""

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.models import LedgerRow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_sale_in_chf_at_the_rate_of_the_day(browser_page, tournament, person):
    page = browser_page
    make_user("boss", "director")
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    page.select_option("#tender", "CHF")
    expect(page.locator("#tender-converted")).to_contain_text("No exchange rate")
    page.click("#rates summary")
    page.select_option("#rateform select[name=currency]", "CHF")
    page.fill("#rateform input[name=rate]", "1.05")
    page.click("#rateform button")
    expect(page.locator("#tender-converted")).to_contain_text("Exchange rate set: 1 CHF = 1.05 EUR")
    page.select_option("#tender", "")
    page.select_option("#tender", "CHF")
    expect(page.locator("#tender-converted")).to_contain_text("CHF\u00a0104.77")  # €110.00 / 1.05, rounded up
    page.fill("#search", "ro")
    page.click("#results li >> text=Mario Rossi")
    with page.expect_popup() as popup_info:
        page.click("button[data-op=register]")
    receipt = popup_info.value
    receipt.wait_for_load_state()
    assert receipt.inner_text("#receipt-total") == "€110.00"
    assert receipt.inner_text("#receipt-tendered") == "CHF\u00a0104.77"
    assert receipt.inner_text("#receipt-rate") == "1 CHF = 1.05 EUR"
    receipt.screenshot(path=str(ARTIFACTS / "desk-receipt-chf.png"))
    row = LedgerRow.objects.get(tournament=tournament)
    assert (row.tender_currency, str(row.tender_amount), row.prize_amount + row.fee_amount) == ("CHF", "104.77", 110)
