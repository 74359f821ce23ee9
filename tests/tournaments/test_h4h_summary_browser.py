"""Issue #39 item 10: the clock's hand-for-hand line said "Ancora in gioco: tavoli 2" for one table;
one table is "tavolo 2", two are "tavoli 1, 2"."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_hand_for_hand_line_names_one_table_in_the_singular(browser_page, make_tournament, make_person):
    page = browser_page
    boss = make_user("boss", "director")
    actor = Actor(boss, "test")
    t = make_tournament(name="Evento", table_size=6)
    for _ in range(10):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor)
    clock_services.start_hand_for_hand(t, actor=actor)
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, "boss", "pw-boss")

    page.goto(page.base_url + f"/tournaments/{t.pk}/clock/")
    summary = page.locator("#h4h-summary")
    expect(summary).to_contain_text("Ancora in gioco: tavoli 1, 2")
    clock_services.report_hand_complete(t, 1, actor=actor)
    page.reload()
    expect(summary).to_contain_text("Ancora in gioco: tavolo 2")
    expect(summary).not_to_contain_text("tavoli")
