"""Item 11a (issue #39): the director refunds the picked player's entry from the desk, in one
click and a reason; what REG-12 refuses is refused with the server's words."""

import pytest
from playwright.sync_api import expect

from tests.browser import answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, LedgerRow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _pick(page, tournament, name):
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    page.fill("#search", name[:3])
    page.click(f"#results li >> text={name}")
    expect(page.locator("#player-status")).to_contain_text("#")


def test_the_director_refunds_an_entry_from_the_desk_and_the_receipt_opens(browser_page, tournament, person, make_person):
    page = browser_page
    boss = make_user("boss", "director")
    sale = cashier.register(tournament, person, method=LedgerRow.CASH, actor=Actor(boss, "test"))
    busted = make_person("Luigi", "Verdi")
    out = cashier.register(tournament, busted, method=LedgerRow.CASH, actor=Actor(boss, "test")).entry
    Entry.objects.filter(pk=out.pk).update(status=Entry.BUSTED)
    login(page, "boss", "pw-boss")

    _pick(page, tournament, "Mario Rossi")
    with page.expect_popup() as popup_info:
        page.click("#player button[data-refund]")
        answer_dialog(page, "Family emergency before the start")
    receipt = popup_info.value
    receipt.wait_for_load_state()
    assert receipt.inner_text("#receipt-player") == "Mario Rossi"
    assert receipt.inner_text("#receipt-total") == "-€110.00"
    expect(page.locator("#message")).to_contain_text("Refunded")
    expect(page.locator("#message")).to_contain_text("€110.00")
    sale.entry.refresh_from_db()
    assert sale.entry.status == Entry.CANCELLED
    assert LedgerRow.objects.get(entry=sale.entry, kind=LedgerRow.REFUND).reason == "Family emergency before the start"

    # REG-12: a player who has played and busted gets nothing back, and the desk says why.
    _pick(page, tournament, "Luigi Verdi")
    page.click("#player button[data-refund]")
    answer_dialog(page, "Asked for the money back")
    expect(page.locator("#message.error")).to_contain_text("No refund for a player who has played and busted")
    assert not LedgerRow.objects.filter(entry=out, kind=LedgerRow.REFUND).exists()


def test_a_cashier_is_not_offered_the_directors_refund(browser_page, tournament, person):
    page = browser_page
    make_user("till", "cashier")
    cashier.register(tournament, person, method=LedgerRow.CASH, actor=Actor(make_user("boss2", "director"), "test"))
    login(page, "till", "pw-till")
    _pick(page, tournament, "Mario Rossi")
    expect(page.locator("#player button[data-op=register]")).to_be_visible()
    expect(page.locator("#player button[data-refund]")).to_have_count(0)
