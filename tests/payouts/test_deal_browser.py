"""The director works out a final-table deal in a real browser and gets it approved."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from payouts import selectors as sel
from payouts import services
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
D = Decimal


def test_the_deal_calculator_compares_and_records_a_deal(browser_page, make_tournament, make_person):
    page = browser_page
    boss = make_user("boss", "director")
    t = make_tournament(buy_in=D("100"), fee=D("10"))
    desk = Actor(make_user("desk", "cashier"))
    entries = [cashier.register(t, make_person(), method="CARD", actor=desk).entry for _ in range(20)]
    services.edit_payout_table(t, [{"place": 1, "amount": "1000"}, {"place": 2, "amount": "600"}, {"place": 3, "amount": "400"}], actor=Actor(boss))
    services.lock_payout_table(t, actor=Actor(boss))
    for place, e in zip(range(20, 3, -1), entries[3:]):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + f"/tournaments/{t.pk}/payouts/deal/")
    for e, chips in zip(entries[:3], (300000, 180000, 120000)):  # the 600,000 chips in play
        page.fill(f"input[name=stack-{e.pk}]", str(chips))
    page.click("#calculate")
    expect(page.locator("#results")).to_be_visible()
    first = page.locator(f"#compare tbody tr[data-entry='{entries[0].pk}']")
    expect(first.locator("td.chip")).to_have_text("800.00")
    expect(first.locator("td.even")).to_have_text("666.67")
    icm = Decimal(first.locator("td.icm").inner_text())
    assert D("666.67") < icm < D("800.00")  # ICM sits between the even and the chip chop for the leader
    expect(page.locator("#policy")).to_contain_text("Even chop")  # an even chop breaks the house policy (by its name, not EVEN)
    page.screenshot(path=str(ARTIFACTS / "deal-calculator.png"))

    page.click("button.propose[data-method=CHIP_CHOP]")
    expect(page.locator("#open-deal")).to_be_visible()
    for e in entries[:3]:
        page.click(f"button.accept[data-entry='{e.pk}']")
        expect(page.locator(f"button.accept[data-entry='{e.pk}']")).to_have_count(0)
    page.click("#approve")
    expect(page.locator("#deal-message")).to_contain_text("approved")
    expect(page.locator("#open-deal")).to_have_count(0)
    assert [p["amount"] for p in sel.table_prizes(t)] == [D("800.00"), D("640.00"), D("560.00")]


def test_the_cashier_pays_a_prize_from_the_due_list(browser_page, make_tournament, make_person):
    page = browser_page
    boss, desk_user = make_user("boss", "director"), make_user("desk", "cashier")
    t = make_tournament(buy_in=D("500"), fee=D("50"))
    entries = [cashier.register(t, make_person(), method="CARD", actor=Actor(desk_user)).entry for _ in range(10)]
    services.edit_payout_table(t, [{"place": 1, "amount": "3500"}, {"place": 2, "amount": "1500"}], actor=Actor(boss))
    services.lock_payout_table(t, actor=Actor(boss))
    e = entries[0]
    e.status, e.place = Entry.BUSTED, 1
    e.save()
    services.sign_off_ranking(t, actor=Actor(boss))
    services.sign_off_ranking(t, actor=Actor(make_user("ctrl", "controller")))
    login(page, "desk", "pw-desk")
    page.goto(page.base_url + f"/payouts/due/?t={t.pk}")
    row = page.locator(f"tr[data-entry='{e.pk}']")
    expect(row.locator("option[value=CASH]")).to_be_disabled()  # €3,500 is above the cash limit
    row.locator("input[name=reference]").fill("CHQ-9")
    with page.expect_popup() as popup:
        row.locator("button").click()
    slip = popup.value
    slip.wait_for_load_state()
    assert slip.inner_text("#slip-amount") == "€3,500.00" and slip.inner_text("#slip-payee") == e.person.full_name
    expect(page.locator("#pay-message")).to_contain_text("3,500.00")  # money as the page's language writes it
    slip.screenshot(path=str(ARTIFACTS / "payout-slip.png"))
