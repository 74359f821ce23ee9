"""REG-09 at the desk in a real browser: a 004 booking that did not show owes its entry; picking
the player shows what is owed, and "Pay what is owed" takes it (a SETTLEMENT ledger row pointing
at the RECEIVABLE row, in the cashier's shift), after which nothing is owed."""

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.cashier.services import registration
from tournaments.eventlog.services import Actor
from tournaments.models import LedgerRow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_desk_shows_what_a_no_show_owes_and_takes_the_payment(browser_page, make_tournament, person):
    page = browser_page
    t = make_tournament(rule_set="MONTEGALDA_004")
    desk = make_user("cassa", "cashier")
    entry = cashier.pre_register(t, person, actor=Actor(desk), channel="email")
    registration.mark_no_show(entry, actor=Actor(desk), reason="not here at the first game")
    owed = LedgerRow.objects.get(kind=LedgerRow.RECEIVABLE)
    login(page, "cassa", "pw-cassa")
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    expect(page.locator("#owed")).to_be_hidden()
    page.fill("#search", "ro")
    page.click("#results li >> text=Mario Rossi")
    expect(page.locator("#owed-list")).to_contain_text(f"€110.00 still owed (Receipt #{owed.receipt_number})")
    page.select_option("#method", "CARD")
    with page.expect_popup() as popup:
        page.click("#owed-list button.settle")
        answer_dialog(page)
    popup.value.close()
    paid = LedgerRow.objects.get(kind=LedgerRow.SETTLEMENT)
    assert (paid.settles_id, paid.method, paid.total, paid.owed_amount) == (owed.pk, "CARD", 110, -110)
    expect(page.locator("#message")).to_contain_text(f"#{paid.receipt_number}")
    expect(page.locator("#owed")).to_be_hidden()
    page.screenshot(path=str(ARTIFACTS / "desk-owed.png"))
    assert registration.owed_by(person) == []


def test_a_german_desk_reads_what_is_owed_and_its_question_as_whole_german_sentences(browser_page, make_tournament, person):
    from tournaments.staff.services import choose_language

    page = browser_page
    t = make_tournament(rule_set="MONTEGALDA_004")
    desk = make_user("kasse", "cashier")
    choose_language(desk, "de")
    entry = cashier.pre_register(t, person, actor=Actor(desk), channel="email")
    registration.mark_no_show(entry, actor=Actor(desk), reason="nicht erschienen")
    owed = LedgerRow.objects.get(kind=LedgerRow.RECEIVABLE)
    login(page, "kasse", "pw-kasse")
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    page.fill("#search", "ro")
    page.click("#results li >> text=Mario Rossi")
    expect(page.locator("#owed-list")).to_contain_text(f"110,00\u00a0€ noch offen (Beleg #{owed.receipt_number})")
    page.click("#owed-list button.settle")
    expect(page.locator("dialog.tdm-dialog[open]")).to_contain_text("Die offenen 110,00\u00a0€ jetzt kassieren?")
    answer_dialog(page, ok=False)
    assert not LedgerRow.objects.filter(kind=LedgerRow.SETTLEMENT).exists()
