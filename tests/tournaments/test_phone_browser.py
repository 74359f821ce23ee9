"""The player's phone page in a real browser at 390×844: it shows the seat and the clock
counting, then updates itself — a move to make, the new seat, the place once out — with no
reload and no login."""

import pytest
from playwright.sync_api import expect

from seating import services as seating
from seating.models import PendingMove
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.models import Entry
from tournaments.setup import lifecycle

from ..seating.test_support import arrange

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_phone_page_follows_a_move_and_a_bust_by_itself(browser_page, make_tournament, make_person, cashier_actor, actor):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    t = make_tournament(table_size=10)
    for n in range(18):
        cashier.register(t, make_person(f"Player{n:02d}", "Rossi"), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    layout = arrange(t, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    clock_services.start_clock(t, actor=actor)
    mover = Entry.objects.select_related("person").get(pk=layout[1][4])

    page.goto(page.base_url + f"/p/{mover.phone_token}/")
    expect(page.locator("#who")).to_contain_text(mover.person.full_name)
    expect(page.locator("#seat-table")).to_have_text("1")
    expect(page.locator("#seat-seat")).to_have_text("4")
    expect(page.locator("#move-box")).to_be_hidden()
    expect(page.locator("#level-label")).to_have_text("Level 1")
    first = page.locator("#clock").text_content()
    assert first != "--:--"
    expect(page.locator("#clock")).not_to_have_text(first)  # counting down, locally
    expect(page.locator("#players")).to_have_text("18 / 18")
    expect(page.locator("#payouts li").first).to_contain_text("1")
    # Fits the phone: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "phone-seated.png"), full_page=True)

    # The floor proposes a balancing move: the page shows where to go without a reload.
    seating.set_big_blind(t, 1, 3, previous_big_blind_seat=2, actor=actor, reason="confirmed at the table")
    move = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    assert move.entry_id == mover.pk
    expect(page.locator("#move-box")).to_be_visible()
    expect(page.locator("#move-text")).to_have_text(f"Go to table 2, seat {move.to_seat}")
    expect(page.locator("#move-from")).to_contain_text("from table 1, seat 4")
    page.screenshot(path=str(ARTIFACTS / "phone-move.png"), full_page=True)

    seating.confirm_move(t, move, actor=actor)
    expect(page.locator("#move-box")).to_be_hidden()
    expect(page.locator("#seat-table")).to_have_text("2")
    expect(page.locator("#seat-seat")).to_have_text(str(move.to_seat))

    # Out: the place, no seat, and the ladder.
    seating.record_bust(t, [mover], actor=actor)
    expect(page.locator("#out-box")).to_be_visible()
    expect(page.locator("#out-place")).to_have_text("Place 18")
    expect(page.locator("#seat-box")).to_be_hidden()
    expect(page.locator("#out-prize")).to_have_text("Outside the prizes. Thank you for playing!")
    expect(page.locator("#players")).to_have_text("17 / 18")
    page.screenshot(path=str(ARTIFACTS / "phone-out.png"), full_page=True)


def test_the_phone_page_speaks_italian(browser_page, tournament, person, cashier_actor):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    sale = cashier.register(tournament, person, method="CASH", actor=cashier_actor)
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    page.goto(page.base_url + f"/p/{sale.entry.phone_token}/")
    expect(page.locator("#wait-box")).to_contain_text("I posti si sorteggiano all'inizio del torneo")
    expect(page.locator(".stats")).to_contain_text("Giocatori rimasti")
    page.screenshot(path=str(ARTIFACTS / "phone-it-before-start.png"), full_page=True)


def test_the_receipt_carries_the_qr_code_and_the_link(browser_page, tournament, person, cashier_actor):
    page = browser_page
    sale = cashier.register(tournament, person, method="CASH", actor=cashier_actor)
    make_user("desk1", "cashier")
    login(page, "desk1", "pw-desk1")
    page.goto(page.base_url + f"/desk/receipt/{sale.row.receipt_number}/")
    link = page.locator("#receipt-phone-link")
    expect(link).to_have_text(f"{page.base_url}/p/{sale.entry.phone_token}/")
    img = page.locator("#receipt-phone img")
    expect(img).to_be_visible()
    assert page.evaluate("document.querySelector('#receipt-phone img').naturalWidth") > 0  # the SVG loaded under the CSP
    page.locator("#receipt").screenshot(path=str(ARTIFACTS / "receipt-qr.png"))
    page.goto(link.text_content())  # what the phone opens: no login needed
    expect(page.locator("#who")).to_contain_text("Mario Rossi")


def test_the_schedule_drawn_in_advance_gives_way_to_the_seat_at_the_start(browser_page, make_tournament, make_person, cashier_actor, actor):
    # SEAT-02 (issue 38): a phone opened before the start shows the schedule; when the start
    # seats the player (where the draw in advance put him) the page shows that seat alone.
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    t = make_tournament()
    for n in range(6):
        cashier.register(t, make_person(f"Player{n:02d}", "Rossi"), method="CASH", actor=cashier_actor)
    seating.predraw(t, ["1A"], actor=actor)
    entry = Entry.objects.select_related("predraw_seat").get(tournament=t, number=3)
    told = entry.predraw_seat
    page.goto(page.base_url + f"/p/{entry.phone_token}/")
    expect(page.locator("#schedule-box")).to_be_visible()
    expect(page.locator("#schedule-table")).to_have_text(str(told.table))
    expect(page.locator("#seat-box")).to_be_hidden()

    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    expect(page.locator("#seat-box")).to_be_visible()
    expect(page.locator("#seat-table")).to_have_text(str(told.table))
    expect(page.locator("#seat-seat")).to_have_text(str(told.seat))
    expect(page.locator("#schedule-box")).to_be_hidden()
