"""Item 11e (issue #39): the receipt of a cancelled event's refund tells the player what is given
back and in which currency; it does not send the player to a table for chips nor print chips
below zero."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_journey_italian_browser import login_in_italian, submit_login
from tournaments.cashier import receipts
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import LedgerRow, Tournament
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refund_receipt_lists_the_parts_and_the_currency_and_no_chips(browser_page, make_tournament, person):
    page = browser_page
    desk, director = Actor(make_user("desk", "cashier"), "test"), Actor(make_user("dir", "director"), "test")
    t = make_tournament(format=Tournament.REBUY, rebuy_price=Decimal("50"), rebuy_fee=Decimal("0"), rebuy_chips=50000, rebuy_until_level=3)
    cashier.set_exchange_rate("CHF", Decimal("1.05"), actor=director)
    entry = cashier.register(t, person, method=LedgerRow.CASH, actor=desk, tender_currency="CHF").entry
    lifecycle.start(t, actor=director, prestart_report_sent=True, override_minimum=True)
    cashier.rebuy(entry, method=LedgerRow.CASH, actor=desk, stack=0)
    lifecycle.cancel(t, actor=director, reason="Power cut")
    row = cashier.pay_refund(entry, method=LedgerRow.CASH, actor=desk)
    assert row.total == Decimal("-160.00")
    lines = dict(receipts.receipt_lines(row))  # the PDF's lines say the same
    assert (lines["Buy-in"], lines["Rebuy"], lines["Fee"]) == ("-€100.00", "-€50.00", "-€10.00")
    assert "Chips" not in lines and "CHF" in lines["Currency"]

    login_in_italian(page, page.base_url, "desk")
    submit_login(page)
    page.goto(page.base_url + f"/desk/receipt/{row.receipt_number}/")
    receipt = page.locator("#receipt")
    expect(page.locator("dt.refund-part")).to_have_text(["Buy-in", "Rebuy"])
    expect(page.locator("dd.refund-part")).to_have_text(["-100,00\u00a0€", "-50,00\u00a0€"])
    expect(page.locator("#receipt-total")).to_have_text("-160,00\u00a0€")
    expect(page.locator("#receipt-refund-currency")).to_have_text("L'iscrizione è stata pagata in CHF: il rimborso è pagato in EUR, la valuta del torneo.")
    expect(page.locator("#receipt-chips")).to_have_count(0)
    expect(receipt).not_to_contain_text("Chip")
    expect(page.locator("#receipt-footer")).to_have_text("Conserva questa ricevuta: attesta il denaro che ti è stato restituito.")
    expect(receipt).not_to_contain_text("tavolo")
