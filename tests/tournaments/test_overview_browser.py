"""The floor overview in a real browser: two running tournaments side by side, the clock
counting, a new move appearing by itself, one click into a tournament; and a copy made from
the tournament page."""

import pytest
from playwright.sync_api import expect

from seating import services as seating
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.clock import services as clock_services
from tournaments.models import Tournament

from ..seating.test_support import arrange, started  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_floor_overview_follows_every_running_tournament(browser_page, started, actor):
    page = browser_page
    a = started(18, table_size=10, name="Main Event")
    arrange(a, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    clock_services.start_clock(a, actor=actor)
    b = started(9, name="Turbo")
    make_user("floor1", "floor")
    login(page, "floor1", "pw-floor1")
    page.click("nav.top >> text=Floor overview")
    rows = page.locator("#ov-rows tr")
    expect(rows).to_have_count(2)
    main = page.locator(f'#ov-rows tr[data-id="{a.pk}"]')
    expect(main.locator("td").nth(1)).to_have_text("1")
    first = main.locator("td.time").text_content()
    expect(main.locator("td.time")).not_to_have_text(first)  # counting
    expect(page.locator(f'#ov-rows tr[data-id="{b.pk}"] td.time')).to_have_text("clock not started")
    seating.set_big_blind(a, 1, 3, previous_big_blind_seat=2, actor=actor, reason="confirmed")
    expect(main.locator("td").nth(5)).to_have_text("1", timeout=15000)  # refreshed by itself
    page.screenshot(path=str(ARTIFACTS / "floor-overview.png"), full_page=True)
    main.locator("td a", has_text="Main Event").click()
    page.wait_for_url(f"**/tournaments/{a.pk}/")


def test_the_director_copies_a_tournament_from_its_page(browser_page, make_tournament):
    page = browser_page
    t = make_tournament(name="Sunday Special")
    make_user("boss", "director")
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + f"/tournaments/{t.pk}/")
    page.fill("#copy-form input[name=name]", "Sunday Special — next week")
    page.fill("#copy-form input[name=start_at]", "2030-06-02T20:00")
    page.click("#copy-form button[value=copy]")
    expect(page.locator("h1")).to_contain_text("Sunday Special — next week")
    expect(page.locator("ul.messages")).to_contain_text("Tournament created as a copy")
    copy = Tournament.objects.get(name="Sunday Special — next week")
    assert copy.structure_id != t.structure_id and copy.buy_in == t.buy_in
    page.screenshot(path=str(ARTIFACTS / "tournament-copied.png"), full_page=True)
