"""The desk through a Wi-Fi drop: money is never taken without the server. Offline, the cashier's
page says so and takes no sale; a sale whose answer was lost is settled by its idempotency key
when the network returns, and shown as done only once the server said so."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_axe_browser import problems
from tests.tournaments.test_desk_event_select_browser import CHOSEN
from tournaments.models import LedgerRow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_desk(page, tournament, user):
    make_user(user, "cashier")
    login(page, user, f"pw-{user}")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    page.fill("#search", "ro")
    page.click("#results li >> text=Mario Rossi")
    expect(page.locator("#player-status")).to_contain_text("Not registered")


def test_the_desk_offline_says_so_and_takes_no_sale(browser_page, tournament, person):
    page = browser_page
    open_desk(page, tournament, "desk")
    page.context.set_offline(True)
    expect(page.locator("#desk-offline")).to_contain_text("No server: the desk takes no sale")
    expect(page.locator("button[data-op=register]")).to_be_disabled()
    assert problems(page, "the desk offline") == []
    page.locator("button[data-op=register]").dispatch_event("click")  # even a click that gets through
    expect(page.locator("#message.error")).to_contain_text("No server: no sale is taken")
    assert LedgerRow.objects.filter(tournament=tournament).count() == 0
    page.context.set_offline(False)
    expect(page.locator("#desk-offline")).to_be_hidden()
    expect(page.locator("button[data-op=register]")).to_be_enabled()


def test_a_sale_whose_answer_was_lost_is_settled_when_the_network_returns(browser_page, tournament, person):
    page = browser_page
    open_desk(page, tournament, "desk2")
    keys = []

    def lose_the_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        route.fetch()  # the server sells...
        route.abort("connectionreset")  # ...and the answer is lost on the way back

    page.route("**/api/v1/cashier/register/", lose_the_answer)
    # counts the sale's requests once the page's route is gone (the page's, while set, comes first)
    page.context.route("**/api/v1/cashier/register/", lambda route: (keys.append(route.request.headers.get("idempotency-key")), route.continue_()))
    page.click("button[data-op=register]")
    lost = page.locator("#desk-lost")
    expect(lost).to_contain_text("not done until the server says so")  # never "done" before the server says it
    page.unroute("**/api/v1/cashier/register/")
    page.context.set_offline(True)
    page.context.set_offline(False)  # the network returns: the sale is settled by its key
    row = LedgerRow.objects.get(tournament=tournament)
    expect(lost).to_contain_text(f"The sale whose answer was lost is done — Receipt #{row.receipt_number}")
    assert len(keys) == 2 and keys[0] == keys[1]  # the same key: the first answer, not a second sale
    assert LedgerRow.objects.filter(tournament=tournament).count() == 1
    expect(page.locator("#player-status")).to_contain_text("Playing")


def test_the_desk_offline_at_1024_px_shows_its_notice_above_the_event_read_in_full(browser_page, make_tournament, person):
    page = browser_page
    page.set_viewport_size({"width": 1024, "height": 800})
    t = make_tournament(
        name="Torneo del Giovedì Deepstack Bounty", buy_in=Decimal("100"), fee=Decimal("15"), settings={"bounty": "PKO", "bounty_amount": "100"}
    )
    open_desk(page, t, "desk3")
    page.context.set_offline(True)
    notice = page.locator("#desk-offline")
    expect(notice).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "desk-offline-1024.png"))
    chosen = page.evaluate(CHOSEN)
    assert chosen["width"] <= chosen["room"], chosen  # the notice takes no room from the event's line
    above, event = notice.bounding_box(), page.locator("#tournament").bounding_box()
    assert above["y"] + above["height"] <= event["y"]  # read first, above the event
    assert above["width"] >= event["width"]  # across the page, not squeezed into a column
