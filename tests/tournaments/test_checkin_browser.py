"""REG-02 / REG-05 at the desk in a real browser: a bank-transfer booking is paid only once the
cashier confirms the funds cleared, check-in asks for the identity document (003), and a player
banned after paying is offered the refund minus expenses."""

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, LedgerRow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_transfer_cleared_check_in_with_the_document_and_the_banned_payer_refunded(browser_page, make_tournament, person, make_person):
    page = browser_page
    t = make_tournament(rule_set="SANREMO_003")
    boss = make_user("boss", "director")
    banned = make_person("Bruno", "Vietato")
    cashier.register(t, banned, method="CASH", actor=Actor(boss))
    banned.banned, banned.banned_reason = True, "casino exclusion list"
    banned.save()
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    expect(page.locator("#banned-list")).to_contain_text("Bruno Vietato")
    page.fill("#search", "ro")
    page.click("#results li >> text=Mario Rossi")
    page.select_option("#channel", "transfer")
    page.click("button[data-op=preregister]")
    expect(page.locator("#player-state")).to_contain_text("Pre-registered (by bank transfer)")
    expect(page.locator("button[data-desk=check-in]")).to_be_hidden()
    with page.expect_popup() as popup:
        page.click("button[data-desk=transfer-cleared]")
        page.fill("dialog.tdm-dialog input[name=answer]", "CRO 0042")
        page.click("dialog.tdm-dialog button[value=ok]")
    popup.value.close()
    expect(page.locator("#player-state")).to_contain_text("Paid")
    row = LedgerRow.objects.get(entry__person=person)
    assert (row.method, row.reference) == ("TRANSFER", "CRO 0042")
    expect(page.locator("#sales")).to_contain_text(f"#{row.receipt_number}")
    page.click("button[data-desk=check-in]")
    expect(page.locator("dialog.tdm-dialog")).to_contain_text("identity document")
    page.click("dialog.tdm-dialog button[value=ok]")
    expect(page.locator("#player-state")).to_contain_text("Checked in")
    entry = Entry.objects.get(tournament=t, person=person)
    assert entry.checked_in_at is not None and entry.id_checked
    page.screenshot(path=str(ARTIFACTS / "desk-checkin.png"))
    page.click("#banned-list button")
    page.fill("dialog.tdm-dialog input[name=answer]", "10")
    page.click("dialog.tdm-dialog button[value=ok]")
    expect(page.locator("#message")).to_contain_text("Refunded")
    expect(page.locator("#banned-paid")).to_be_hidden()
    refund = LedgerRow.objects.get(entry__person=banned, kind="REFUND")
    assert refund.total == -100
