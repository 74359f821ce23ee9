"""Item 11c (issue #39): before the payout table is locked, the prizes-due page of a bounty event
does not say in red that nothing can be paid: the prizes wait for the lock, the bounties are
paid now."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from seating import services as seating
from tests.browser import browser, browser_page  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_journey_italian_browser import login_in_italian, submit_login
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_bounties_payable_under_an_unlocked_table_are_not_an_error(browser_page, make_tournament, make_person):
    page = browser_page
    desk, director = make_user("desk", "cashier"), make_user("dir", "director")
    t = make_tournament(buy_in=Decimal("50"), fee=Decimal("10"), settings={"bounty": "FIXED", "bounty_amount": "50"})
    e = [cashier.register(t, make_person(), method="CASH", actor=Actor(desk, "test")).entry for _ in range(4)]
    lifecycle.start(t, actor=Actor(director, "test"), prestart_report_sent=True)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=Actor(director, "test"))
    login_in_italian(page, page.base_url, "desk")
    submit_login(page)
    page.goto(page.base_url + f"/payouts/due/?t={t.pk}")
    expect(page.locator(f"tr.bounty-due[data-entry='{e[0].pk}'] button")).to_have_text("Paga")
    note = page.locator(f"#prizes-wait-{t.pk}")
    expect(note).to_have_text("I premi si pagano quando la tabella dei premi è bloccata; le taglie qui sotto si possono pagare già ora.")
    expect(note).not_to_have_class("error")
    expect(page.get_by_text("i premi non possono essere pagati")).to_have_count(0)
