"""A cashier registers a player at the desk in a real browser and opens the receipt."""

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.models import Entry, LedgerRow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_cashier_registers_a_player_and_the_receipt_opens(browser_page, tournament, person):
    page = browser_page
    make_user("desk", "cashier")
    login(page, "desk", "pw-desk")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    page.fill("#search", "ro")  # two letters
    page.click("#results li >> text=Mario Rossi")
    expect(page.locator("#player-status")).to_contain_text("Not registered")
    with page.expect_popup() as popup_info:
        page.click("button[data-op=register]")
    receipt = popup_info.value
    receipt.wait_for_load_state()
    assert receipt.inner_text("#receipt-player") == "Mario Rossi"
    assert receipt.inner_text("#receipt-total") == "€110.00"
    receipt.screenshot(path=str(ARTIFACTS / "desk-receipt.png"))
    expect(page.locator("#player-status")).to_contain_text("Playing")
    expect(page.locator("#message")).to_contain_text("Sold")
    entry = Entry.objects.get(tournament=tournament, person=person)
    row = LedgerRow.objects.get(entry=entry)
    assert receipt.inner_text("#receipt-number") == f"#{row.receipt_number}"
    # No second sale: the button is refused with the reason beside it, and nothing is charged.
    expect(page.locator("button[data-op=register]")).to_be_disabled()
    expect(page.locator("#not-now-register")).to_contain_text("already playing")
    assert LedgerRow.objects.filter(tournament=tournament).count() == 1
    page.screenshot(path=str(ARTIFACTS / "desk.png"))


def test_a_sale_whose_answer_is_lost_is_not_charged_twice(browser_page, tournament, person):
    """The server sells, the answer never reaches the desk; the cashier clicks again: the desk
    sends the same idempotency key, gets the first sale back, and the player paid once."""
    page = browser_page
    make_user("desk2", "cashier")
    login(page, "desk2", "pw-desk2")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    page.fill("#search", "ro")
    page.click("#results li >> text=Mario Rossi")
    keys = []

    def lose_the_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        route.fetch()  # the server handles the sale...
        route.abort("connectionreset")  # ...and the answer is lost on the way back

    page.route("**/api/v1/cashier/register/", lose_the_answer)
    page.click("button[data-op=register]")
    expect(page.locator("#message.error")).to_contain_text("No answer from the server")
    expect(page.locator("button[data-op=register]")).to_be_enabled()
    page.unroute("**/api/v1/cashier/register/")
    assert LedgerRow.objects.filter(tournament=tournament).count() == 1

    def remember(route):
        keys.append(route.request.headers.get("idempotency-key"))
        route.continue_()

    page.route("**/api/v1/cashier/register/", remember)
    with page.expect_popup() as popup_info:
        page.click("button[data-op=register]")
    popup_info.value.wait_for_load_state()
    expect(page.locator("#message")).to_contain_text("Sold")
    assert keys[0] and keys[0] == keys[1]
    assert LedgerRow.objects.filter(tournament=tournament).count() == 1
    assert Entry.objects.filter(tournament=tournament, person=person).count() == 1
