"""The table map and the clock outside hand-for-hand (#39 item 9): the hand-for-hand buttons of a
table are not shown, and "Finish clock" is not in the row of "End hand-for-hand", one slip away."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_hand_for_hand_buttons_only_in_hand_for_hand(browser_page, make_tournament, make_person):
    page = browser_page
    page.route("**/live/*/stream/**", lambda route: route.abort())
    boss = make_user("boss", "director")
    actor = Actor(boss, "test")
    t = make_tournament(name="Evento", table_size=6)
    for _ in range(10):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    login(page, "boss", "pw-boss")

    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    expect(page.locator("button[name=op][value=hand]").first).to_be_visible()  # the table's own buttons are there
    expect(page.locator("button[name=op][value=h4h_hold]")).to_have_count(2)
    for button in page.locator("button[name=op][value=h4h_hold], button[name=op][value=h4h_in_hand]").all():
        expect(button).to_be_hidden()

    page.goto(page.base_url + f"/tournaments/{t.pk}/clock/")
    finish = page.locator("button[data-op=finish]")
    expect(finish).to_be_visible()
    same_row = page.locator("div.buttons", has=page.locator("button[data-op=end-hand-for-hand]")).locator("button[data-op=finish]")
    expect(same_row).to_have_count(0)


def test_tablet_targets_and_the_desks_focus_ring(browser_page, make_tournament, make_person):
    """At 1024×768 (a floor tablet) a table's Out button and its bust boxes are big enough for a
    finger (WCAG 2.5.8: 24 px at least; Out was 61×21, the boxes 13×13); the desk's search
    results keep a visible focus ring for the keyboard (#39 item 5)."""
    page = browser_page
    page.set_viewport_size({"width": 1024, "height": 768})
    page.route("**/live/*/stream/**", lambda route: route.abort())
    boss = make_user("boss", "director")
    actor = Actor(boss, "test")
    t = make_tournament(name="Evento", table_size=9)
    for _ in range(9):
        cashier.register(t, make_person(first="Giulia"), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    login(page, "boss", "pw-boss")

    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    out = page.locator("button.out").first.bounding_box()
    box = page.locator(".table-card input[type=checkbox][name=entries]").first.bounding_box()
    assert out["width"] >= 44 and out["height"] >= 24, out
    assert box["width"] >= 24 and box["height"] >= 24, box

    page.goto(page.base_url + f"/desk/?t={t.pk}")
    page.fill("#search", "Giulia")
    first = page.locator("#results li").first
    expect(first).to_be_visible()
    page.keyboard.press("End")  # the cashier is on the keyboard: a focus ring is due
    # The keyboard stays in the search (a combobox): its ring shows, and so does the line Enter takes.
    outline = page.evaluate("() => { const el = document.activeElement; const s = getComputedStyle(el); return [el.id, s.outlineStyle, s.outlineWidth]; }")
    assert outline[0] == "search" and outline[1] != "none" and outline[2] != "0px", outline
    marked = first.evaluate("(li) => [li.getAttribute('aria-selected'), getComputedStyle(li).boxShadow]")
    assert marked[0] == "true" and marked[1] != "none", marked
