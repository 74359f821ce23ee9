"""Issue #28 item 15: the clock page offers only what the clock's state allows (the engine's
list), the likely next action as the primary button, and the time left is typed as
minutes:seconds (typing 5 meant 5 seconds)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_buttons_follow_the_clock_and_the_time_left_is_minutes_and_seconds(browser_page, make_tournament, director, actor):
    from tournaments.setup import lifecycle

    t = make_tournament(name="Orologio")
    lifecycle.start(t, actor=actor, override_minimum=True, start_clock=False)
    page = browser_page
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, "dora", "pw-dora")
    page.goto(page.base_url + f"/tournaments/{t.pk}/clock/")
    start, pause, resume = (page.locator(f"button[data-op={op}]") for op in ("start", "pause", "resume"))
    expect(start).to_be_enabled()
    expect(start).to_have_class("primary")
    expect(pause).to_be_disabled()
    expect(resume).to_be_disabled()
    expect(page.locator("button[data-op=next-hand]")).to_be_disabled()

    start.click()
    expect(pause).to_be_enabled()
    expect(start).to_be_disabled()
    expect(start).not_to_have_class("primary")
    expect(page.locator("button[data-op=hand-for-hand]")).to_be_enabled()

    page.locator("button[data-op=set-time]").click()
    answer_dialog(page, "5")  # five minutes, not five seconds; no reason asked
    expect(page.locator("#c-msg")).to_have_text("Fatto")
    expect(page.locator("#c-time")).to_have_text(re.compile(r"^(04:5\d|05:00)$"))

    page.locator("button[data-op=set-time]").click()
    answer_dialog(page, "12:30")
    expect(page.locator("#c-time")).to_have_text(re.compile(r"^(12:2\d|12:30)$"))

    page.locator("button[data-op=set-time]").click()
    answer_dialog(page, "12,5")
    expect(page.locator("#c-msg")).to_have_text("Scrivi il tempo come minuti:secondi, per esempio 12:30.")

    pause.click()  # one tap
    expect(resume).to_be_enabled()
    expect(resume).to_have_class("primary")
    expect(pause).to_be_disabled()
