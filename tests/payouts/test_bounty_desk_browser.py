"""Bounties at the desk in a real browser (PAY-02): the payouts-due page lists what a player has
won, Pay hands it over once, the slip opens and names the player knocked out; Money returned
takes back a bounty paid whose bust is to be undone."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from payouts import services as payouts
from seating import services as seating
from tdmanager.errors import DomainError
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import LedgerRow
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_desk_pays_the_bounties_owed_and_the_slip_opens(browser_page, make_tournament, make_person):
    # FIXED €50 bounty: entry 0 knocks out entry 1 and entry 2: €100 owed, paid in cash.
    page = browser_page
    desk, director = make_user("desk", "cashier"), make_user("dir", "director")
    t = make_tournament(buy_in=Decimal("50"), fee=Decimal("10"), settings={"bounty": "FIXED", "bounty_amount": "50"})
    e = [cashier.register(t, make_person(), method="CASH", actor=Actor(desk, "test")).entry for _ in range(4)]
    lifecycle.start(t, actor=Actor(director, "test"), prestart_report_sent=True)
    for loser in (e[1], e[2]):
        seating.record_bust(t, [{"entry": loser.pk, "eliminators": [e[0].pk]}], actor=Actor(director, "test"))
    login(page, "desk", "pw-desk")
    page.goto(page.base_url + f"/payouts/due/?t={t.pk}")
    row = page.locator(f"tr.bounty-due[data-entry='{e[0].pk}']")
    expect(row.locator("td.amount")).to_have_text("€100.00")
    with page.expect_popup() as popup_info:
        row.locator("button").dblclick()  # a double click pays once
    slip = popup_info.value
    slip.wait_for_load_state()
    expect(slip.locator("#slip-amount")).to_have_text("€100.00")
    expect(slip.locator("dt.bounty-line").first).to_contain_text(e[1].person.full_name)
    slip.screenshot(path=str(ARTIFACTS / "bounty-slip.png"))
    expect(page.locator("#pay-message.ok")).to_contain_text("100.00")
    assert list(LedgerRow.objects.filter(tournament=t, kind=LedgerRow.BOUNTY).values_list("bounty_amount", flat=True)) == [Decimal("-100.00")]


def test_the_desk_takes_back_a_bounty_paid_and_the_bust_can_be_undone(browser_page, make_tournament, make_person):
    # PKO €50, half in cash: entry 0 knocks out entry 1 (€25 cash), the desk pays it. The bust
    # was a mistake: the undo is refused until the desk records the €25 given back.
    page = browser_page
    desk, director = make_user("desk", "cashier"), make_user("dir", "director")
    t = make_tournament(buy_in=Decimal("50"), fee=Decimal("10"), settings={"bounty": "PKO", "bounty_amount": "50"})
    e = [cashier.register(t, make_person(), method="CASH", actor=Actor(desk, "test")).entry for _ in range(4)]
    lifecycle.start(t, actor=Actor(director, "test"), prestart_report_sent=True)
    bust = seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=Actor(director, "test")).busts[0]
    paid = payouts.pay_bounties(e[0], method="CASH", actor=Actor(desk, "test"))
    with pytest.raises(DomainError) as refused:
        seating.undo_bust(t, bust, actor=Actor(director, "test"), reason="wrong player")
    assert refused.value.code == "bounty_paid"
    login(page, "desk", "pw-desk")
    page.goto(page.base_url + f"/payouts/due/?t={t.pk}")
    page.locator("details.bounties-paid summary").click()
    row = page.locator(f"tr.bounty-paid[data-entry-number='{e[0].number}']")
    expect(row.locator("td.amount")).to_have_text("€25.00")
    row.locator("input[name=reason]").fill("bust undone")
    row.locator("button").dblclick()  # a double click takes it back once
    expect(page.locator("#pay-message.ok")).to_contain_text("25.00")
    expect(row).to_contain_text("Money returned")
    rows = LedgerRow.objects.filter(tournament=t, reverses=paid)
    assert [(r.bounty_amount, r.cashier_id, r.reason) for r in rows] == [(Decimal("25.00"), desk.pk, "bust undone")]
    seating.undo_bust(t, bust, actor=Actor(director, "test"), reason="wrong player")
    assert not LedgerRow.objects.filter(tournament=t, cashier=director).exists()
