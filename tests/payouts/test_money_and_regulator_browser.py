"""Issue #13 in one real browser session, as a card room lives it: the cashier sells an entry
with the jackpot fee, tendered in CHF at the rate of the day, and prints the receipt; the
director signs the ranking, the administrative controller signs it in his own login; the
payments report carries both signatures."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from payouts import services
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, LedgerRow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_chf_sale_with_the_jackpot_fee_then_the_controller_signs_and_the_report_shows_both(browser_page, make_tournament, make_person, person):
    page = browser_page
    boss = make_user("boss", "director", first_name="Dora", last_name="Direttrice")
    make_user("cora", "controller", first_name="Cora", last_name="Conti")
    desk = make_user("desk", "cashier")
    t = make_tournament(buy_in=Decimal("100"), fee=Decimal("10"), settings={"jackpot": True})
    cashier.set_exchange_rate("CHF", Decimal("1.05"), actor=Actor(boss))

    # The desk: CHF tender, the jackpot box, the receipt.
    login(page, "desk", "pw-desk")
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    expect(page.locator("#jackpot-line")).to_be_visible()
    page.select_option("#tender", "CHF")
    page.fill("#search", "ro")
    page.click("#results li >> text=Mario Rossi")
    page.check("#jackpot")
    with page.expect_popup() as popup_info:
        page.click("button[data-op=register]")
    receipt = popup_info.value
    receipt.wait_for_load_state()
    assert receipt.inner_text("#receipt-jackpot") == "€5.00"
    assert receipt.inner_text("#receipt-total") == "€115.00"
    assert receipt.inner_text("#receipt-tendered") == "CHF\u00a0109.53"  # €115.00 / 1.05, rounded up to the cent
    assert receipt.inner_text("#receipt-rate") == "1 CHF = 1.05 EUR"
    receipt.screenshot(path=str(ARTIFACTS / "desk-receipt-chf-jackpot.png"))
    receipt.close()
    row = LedgerRow.objects.get(tournament=t)
    assert (row.tender_currency, row.jackpot_amount, row.prize_amount, row.fee_amount) == ("CHF", Decimal("5.00"), Decimal("100.00"), Decimal("10.00"))

    # The ranking: nine more entries, a winner, the director's signature.
    entries = [row.entry] + [cashier.register(t, make_person(), method="CARD", actor=Actor(desk)).entry for _ in range(9)]
    services.edit_payout_table(t, [{"place": 1, "amount": "700"}, {"place": 2, "amount": "300"}], actor=Actor(boss))
    services.lock_payout_table(t, actor=Actor(boss))
    winner = entries[0]
    Entry.objects.filter(pk=winner.pk).update(status=Entry.BUSTED, place=1)
    services.sign_off_ranking(t, actor=Actor(boss))

    # The controller signs in his own login.
    page.context.clear_cookies()
    login(page, "cora", "pw-cora")
    page.goto(page.base_url + f"/tournaments/{t.pk}/payouts/")
    expect(page.locator("#signoff-status")).not_to_contain_text("Released for payment")
    page.click("#sign-ranking")
    expect(page.locator("#signoff-status")).to_contain_text("Released for payment")
    expect(page.locator("#signatures")).to_contain_text("Dora Direttrice (director")
    expect(page.locator("#signatures")).to_contain_text("Cora Conti (administrative controller")

    winner.refresh_from_db()
    services.pay_prize(winner, method="TRANSFER", reference="IBAN-42", actor=Actor(desk))
    report = page.request.get(page.base_url + f"/tournaments/{t.pk}/payouts/reports/payments.csv")
    assert report.status == 200
    text = report.text()
    assert "Mario Rossi" in text and "IBAN-42" in text
    assert "Dora Direttrice,director," in text and "Cora Conti,administrative controller," in text
