"""The public seat lookup in a real browser at 390×844: it searches as you type (no button),
shows the tournament's clock, and after the end the finishing places."""

import uuid
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from seating import selectors, services
from tests.browser import ARTIFACTS, browser, browser_page  # noqa: F401 (fixtures)
from tournaments.clock import services as clock_services
from tournaments.setup import lifecycle

from .test_support import started  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_seat_lookup_searches_as_you_type_and_shows_the_clock(browser_page, started, actor):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    t = started(12)
    clock_services.start_clock(t, actor=actor)
    entry = t.entries.get(number=4)
    entry.person.first_name, entry.person.last_name = "Giulia", "Bianchi"
    entry.person.save()
    seat = selectors.seat_of(entry)
    page.goto(page.base_url + f"/seats/{t.pk}/")
    expect(page.locator("h1")).to_have_text(t.name)
    expect(page.locator("#lookup-clock")).to_be_visible()
    expect(page.locator("#lc-level")).to_have_text("Level 1")
    first = page.locator("#lc-time").text_content()
    expect(page.locator("#lc-time")).not_to_have_text(first)  # counting
    expect(page.locator("#find-button")).to_be_hidden()
    page.locator("#q").press_sequentially("bia", delay=60)  # typed, never submitted
    row = page.locator("#found li")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Giulia B.")  # first name and initial: the house's default (issue #30)
    expect(row.locator(".where")).to_have_text(f"Table {seat['table']} · Seat {seat['seat']}")
    assert "q=" not in page.url
    page.screenshot(path=str(ARTIFACTS / "seat-lookup-typing.png"), full_page=True)
    page.locator("#q").press_sequentially("nchizz", delay=30)
    expect(row).to_have_count(0)
    expect(page.locator("#lookup-note")).to_have_text("Nobody seated with that name.")


def test_after_the_end_the_lookup_shows_the_result(browser_page, started, actor):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    t = started(3)
    first, second, third = (t.entries.get(number=n) for n in (1, 2, 3))
    services.record_bust(t, [third], actor=actor)
    services.record_bust(t, [second], actor=actor)
    lifecycle.finish(t, actor=actor)
    page.goto(page.base_url + f"/seats/{t.pk}/")
    expect(page.locator("#lookup-note")).to_have_text("The tournament is over.")
    expect(page.locator("#standings li").first).to_contain_text(f"{first.person.first_name} T.")
    expect(page.locator("body")).not_to_contain_text("Seats are drawn")
    page.locator("#q").press_sequentially(second.person.first_name, delay=30)
    expect(page.locator("#found li")).to_have_count(1)
    expect(page.locator("#found li .where")).to_have_text("Place 2")
    page.screenshot(path=str(ARTIFACTS / "seat-lookup-finished.png"), full_page=True)


def test_the_lookup_asks_for_three_letters_and_lists_no_roster(browser_page, started, actor, settings, monkeypatch):
    """Two letters answer nobody, three that begin every name list none, and an address past its
    names a minute is told to wait. The lookup counts names by the clock's minute: its clock is
    held at one instant, so that a minute ending between two names never resets the count (on a
    busy machine the names took long enough for that)."""
    import seating.views

    monkeypatch.setattr(seating.views, "time", SimpleNamespace(time=lambda: 1_900_000_010.0))
    settings.TDM_SEAT_LOOKUP_PER_MINUTE = 2
    settings.TDM_TRUSTED_PROXIES = ["127.0.0.1"]  # an address of its own: no other test's names count
    page = browser_page
    page.set_extra_http_headers({"X-Forwarded-For": f"198.19.{uuid.uuid4().int % 250}.7"})
    page.set_viewport_size({"width": 390, "height": 844})
    t = started(12)  # Player001 Test … Player012 Test
    page.goto(page.base_url + f"/seats/{t.pk}/")
    note, rows = page.locator("#lookup-note"), page.locator("#found li")
    page.locator("#q").press_sequentially("pl", delay=60)
    expect(note).to_have_text("Type at least three letters of your name.")
    page.locator("#q").press_sequentially("a", delay=60)
    expect(note).to_have_text("More than one name begins like that: type more of your name.")
    expect(rows).to_have_count(0)
    page.locator("#q").fill("player007")
    page.locator("#q").dispatch_event("input")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Player007 T.")
    page.locator("#q").fill("player008")
    page.locator("#q").dispatch_event("input")
    expect(note).to_have_text("Too many names looked up from this address. Try again in a minute.")
    expect(rows).to_have_count(0)
    page.screenshot(path=str(ARTIFACTS / "seat-lookup-limited.png"), full_page=True)
