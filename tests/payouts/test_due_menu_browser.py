"""Item 11b (issue #39): the cashier reaches the prizes and bounties due from the menu; a role
that may not open that page is not offered the link."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_cashier_opens_payouts_due_from_the_menu_the_floor_has_no_such_link(browser_page, tournament):
    page = browser_page
    make_user("till", "cashier")
    make_user("pit", "floor")
    login(page, "till", "pw-till")
    page.click("nav.top >> text=Payouts due")
    expect(page.locator("h1")).to_have_text("Payouts due")
    assert page.url.endswith("/payouts/due/")

    page.click("nav.top button:has-text('Log out')")
    login(page, "pit", "pw-pit")
    expect(page.locator("nav.top a", has_text="Tournaments")).to_be_visible()
    expect(page.locator("nav.top a", has_text="Payouts due")).to_have_count(0)
