"""SEAT-01 manual draw in a real browser: the director's tournament draws by hand, the floor
prints the seat cards, enters who drew which card, and the table map shows everybody seated."""

import pytest
from playwright.sync_api import expect

from seating.models import ManualDraw
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.eventlog.services import Actor
from tournaments.setup import lifecycle

from .test_support import add_entries, seat_map

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_floor_prints_the_seat_cards_enters_the_draw_and_the_map_shows_the_seats(browser_page, make_tournament):
    page = browser_page
    director = make_user("dir1", "director")
    make_user("floor1", "floor")
    t = make_tournament(settings={"draw_mode": "MANUAL"})
    entries = add_entries(t, 6)
    lifecycle.start(t, actor=Actor(director, "test"), prestart_report_sent=True)
    cards = [tuple(c) for c in ManualDraw.objects.get(tournament=t).cards]
    page.route("**/live/*/stream/**", lambda route: route.abort())
    login(page, "floor1", "pw-floor1")

    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    expect(page.locator(".manual-draw-open")).to_contain_text("6 cards left to enter")
    # The seat cards: one per seat, table and seat in big print; A4 sheets to cut too.
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/seat-cards/")
    expect(page.locator(".seat-card")).to_have_count(6)
    first = page.locator(".seat-card").first
    expect(first.locator(".card-table")).to_have_text(str(cards[0][0]))
    expect(first.locator(".card-seat")).to_have_text(str(cards[0][1]))
    page.screenshot(path=str(ARTIFACTS / "seating-seat-cards-80mm.png"), full_page=True)
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/seat-cards/?size=a4")
    expect(page.locator("body.cards-a4 .seat-card")).to_have_count(6)
    page.screenshot(path=str(ARTIFACTS / "seating-seat-cards-a4.png"), full_page=True)

    # The players drew the cards in reverse order; the floor enters them one by one.
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/manual-draw/")
    drawn = list(zip(entries, reversed(cards)))
    for entry, (table, seat) in drawn[:-1]:
        form = page.locator("form.enter-card")
        form.locator("[name=entry_number]").fill(str(entry.number))
        form.locator("[name=table]").fill(str(table))
        form.locator("[name=seat]").fill(str(seat))
        form.locator("button").click()
        expect(page.locator("ul.messages")).to_contain_text(f"#{entry.number}: table {table}, seat {seat}.")
    expect(page.locator(f'tr[data-card="{drawn[0][1][0]}-{drawn[0][1][1]}"]')).to_contain_text(entries[0].person.full_name)
    expect(page.locator(".manual-draw .badge")).to_have_text("1 card left")
    page.screenshot(path=str(ARTIFACTS / "seating-manual-draw-entry.png"), full_page=True)
    assert seat_map(t) == {}  # nobody sits until the last card
    entry, (table, seat) = drawn[-1]
    form = page.locator("form.enter-card")
    form.locator("[name=entry_number]").fill(str(entry.number))
    form.locator("[name=table]").fill(str(table))
    form.locator("[name=seat]").fill(str(seat))
    form.locator("button").click()
    expect(page.locator("ul.messages")).to_contain_text("the draw is applied")
    expect(page.locator("#no-manual-draw")).to_be_visible()

    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    expect(page.locator(".manual-draw-open")).to_have_count(0)
    for entry, (table, seat) in drawn:
        expect(page.locator(f'#table-{table} tr[data-seat="{seat}"]')).to_contain_text(entry.person.full_name)
    page.screenshot(path=str(ARTIFACTS / "seating-manual-draw-map.png"), full_page=True)
