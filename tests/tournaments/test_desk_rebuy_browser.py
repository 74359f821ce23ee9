"""The desk does not ask the stack for a rebuy the event does not have: it offers none. A rebuy
event still asks it (FMT-04)."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser import answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import LedgerRow, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _pick_mario(page, t):
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    page.fill("#search", "ro")
    page.click("#results li >> text=Mario Rossi")
    expect(page.locator("#player-status")).to_contain_text("Playing")


def test_a_freezeout_offers_no_rebuy_and_a_rebuy_event_asks_the_stack(browser_page, make_tournament, person):
    page = browser_page
    boss = make_user("desk", "cashier")
    freezeout = make_tournament()  # the default format: a freezeout, no rebuys
    rebuys = make_tournament(
        name="Rebuy Night", status=Tournament.RUNNING, format=Tournament.REBUY, rebuy_price=Decimal("50"), rebuy_chips=30000, rebuy_until_level=3
    )
    for t in (freezeout, rebuys):
        cashier.register(t, person, method=LedgerRow.CASH, actor=Actor(boss, "test"))
    login(page, "desk", "pw-desk")

    _pick_mario(page, freezeout)  # no rebuy offered where the event has none (cashier.desk_offers)
    expect(page.locator("button[data-op=rebuy]")).to_be_hidden()
    expect(page.locator("button[data-op=declare-rebuy]")).to_be_hidden()

    _pick_mario(page, rebuys)
    page.click("button[data-op=rebuy]")
    expect(page.locator("dialog.tdm-dialog[open]")).to_contain_text("Current stack of the player")
    answer_dialog(page, ok=False)
    assert not LedgerRow.objects.filter(kind=LedgerRow.REBUY).exists()
