"""The jackpot in a real browser (REG-11, PAY-12): the cashier ticks Jackpot and the receipt
prints its line, the floor records the royal flush, the desk pays it and the slip opens."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from payouts.models import JackpotClaim
from payouts.services import set_jackpot_base
from tests.browser import ARTIFACTS, answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.eventlog.services import Actor
from tournaments.models import LedgerRow, Tournament

from ..tournaments.helpers import item_index_of_level, run_clock_at

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sold_at_the_desk_claimed_on_the_floor_paid_with_a_slip(browser_page, make_tournament, person):
    page = browser_page
    t = make_tournament(settings={"jackpot": True}, late_reg_closes_after_level=6)
    cashier, floor = make_user("desk", "cashier"), make_user("flo2", "floor")
    set_jackpot_base(Decimal("1000"), actor=Actor(cashier, "test"))
    login(page, "desk", "pw-desk")
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    expect(page.locator("#jackpot-line")).to_be_visible()
    expect(page.locator("#jackpot-fee")).to_have_text("€5.00")
    page.fill("#search", "ro")
    page.click("#results li >> text=Mario Rossi")
    page.check("#jackpot")
    with page.expect_popup() as popup_info:
        page.click("button[data-op=register]")
    receipt = popup_info.value
    receipt.wait_for_load_state()
    assert receipt.inner_text("#receipt-jackpot") == "€5.00"
    assert receipt.inner_text("#receipt-total") == "€115.00"
    receipt.screenshot(path=str(ARTIFACTS / "jackpot-receipt.png"))
    receipt.close()
    assert LedgerRow.objects.get(tournament=t).jackpot_amount == Decimal("5.00")

    Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
    t.refresh_from_db()
    run_clock_at(t, item_index_of_level(t, 1), seconds_left=600)
    page.context.clear_cookies()
    login(page, "flo2", "pw-flo2")
    page.goto(page.base_url + f"/tournaments/{t.pk}/floor/")
    entry = LedgerRow.objects.get(tournament=t).entry
    page.select_option("#jackpotform select[name=entries]", value=str(entry.pk))
    page.click("#jackpotform button")
    expect(page.locator("#jackpot-msg.error")).to_contain_text("both hole cards")  # not ticked: refused
    page.check("#jackpotform input[name=both_hole_cards]")
    page.click("#jackpotform button")
    expect(page.locator("#jackpot-msg.ok")).to_contain_text("1005.00")
    claim = JackpotClaim.objects.get()
    assert claim.win.verified_by == floor and claim.win.level == 1

    page.context.clear_cookies()
    login(page, "desk", "pw-desk")
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    expect(page.locator("#jackpot-claims li")).to_contain_text("Mario Rossi")
    page.select_option("#method", "TRANSFER")
    with page.expect_popup() as popup_info:
        page.click("#jackpot-claims button")
        answer_dialog(page, "TR-77")
    slip = popup_info.value
    slip.wait_for_load_state()
    expect(slip.locator("body")).to_contain_text("1,005.00")
    slip.screenshot(path=str(ARTIFACTS / "jackpot-slip.png"))
    expect(page.locator("#jackpot-msg.ok")).to_contain_text("1,005.00")  # written the page's way, as the slip is
    claim.refresh_from_db()
    assert claim.paid and claim.payment.row.reference == "TR-77" and claim.payment.row.jackpot_amount == Decimal("-1005.00")
