"""ELM-07 in a real browser: the administrative controller logs in, signs the ranking the
director signed, and the payments report carries both signatures."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from payouts import services
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_controller_signs_the_ranking_and_the_payments_report_shows_both_signatures(browser_page, make_tournament, make_person):
    page = browser_page
    boss = make_user("boss", "director", first_name="Dora", last_name="Direttrice")
    make_user("cora", "controller", first_name="Cora", last_name="Conti")
    desk = make_user("desk", "cashier")
    t = make_tournament(buy_in=Decimal("100"), fee=Decimal("10"))
    entries = [cashier.register(t, make_person(), method="CARD", actor=Actor(desk)).entry for _ in range(10)]
    services.edit_payout_table(t, [{"place": 1, "amount": "700"}, {"place": 2, "amount": "300"}], actor=Actor(boss))
    services.lock_payout_table(t, actor=Actor(boss))
    winner = entries[0]
    winner.status, winner.place = Entry.BUSTED, 1
    winner.save()
    services.sign_off_ranking(t, actor=Actor(boss))

    login(page, "cora", "pw-cora")
    page.goto(page.base_url + f"/tournaments/{t.pk}/payouts/")
    expect(page.locator("#signoff-status")).not_to_contain_text("Released for payment")
    page.click("#sign-ranking")
    expect(page.locator("#signoff-status")).to_contain_text("Released for payment")
    expect(page.locator("#signatures")).to_contain_text("Dora Direttrice (director")
    expect(page.locator("#signatures")).to_contain_text("Cora Conti (administrative controller")
    page.screenshot(path=str(ARTIFACTS / "ranking-signed-by-the-controller.png"))

    services.pay_prize(winner, method="TRANSFER", reference="IBAN-42", actor=Actor(desk))
    report = page.request.get(page.base_url + f"/tournaments/{t.pk}/payouts/reports/payments.csv")
    assert report.status == 200
    text = report.text()
    assert winner.person.full_name in text and "IBAN-42" in text
    assert "Dora Direttrice,director," in text and "Cora Conti,administrative controller," in text
    pdf = page.request.get(page.base_url + f"/tournaments/{t.pk}/payouts/reports/payments.pdf")
    assert pdf.status == 200 and pdf.body().startswith(b"%PDF")
