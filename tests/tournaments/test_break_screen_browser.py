"""Issue #28 item 13: on a 1920×1080 lobby TV a break's colour-up note has a line of its own in
type that fits; it was drawn in the blinds' slot in the blinds' huge type, under "BLINDS" beside
an empty "ANTE", and pushed the announcement strip off the bottom of the screen."""

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page  # noqa: F401 (fixtures)
from tournaments.models import DisplayScreen, StructureItem

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

NOTE = "Race off the T25 chips: one T100 for every four, the odd ones raced at each table before the next level"


def test_a_breaks_colour_up_note_fits_the_tv_and_the_announcements_stay_on_screen(browser_page, make_tournament, make_person, cashier_actor, actor):
    from tournaments.cashier import services as cashier
    from tournaments.clock import services as clock_services
    from tournaments.setup import lifecycle

    t = make_tournament(name="Serale")
    for _ in range(6):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor)
    clock_services.insert_break(t, 10, actor=actor, color_up=NOTE)
    t.refresh_from_db()
    brk = next(i for i, it in enumerate(StructureItem.objects.filter(structure=t.structure).order_by("position")) if it.color_up == NOTE)
    clock_services.jump_to(t, brk, actor=actor)
    DisplayScreen.objects.create(name="TV", tournament=t, token="break-tv", show={"sounds": False}, announcement="Cena servita al bar dalle 21:00")

    page = browser_page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(page.base_url + "/display/break-tv/")
    note = page.locator("#break-note")
    expect(note).to_have_text("Color-up: " + NOTE)
    expect(page.locator("#blinds-row")).to_be_hidden()
    announce = page.locator("#announce")
    expect(announce).to_have_text("Cena servita al bar dalle 21:00")
    page.screenshot(path=str(ARTIFACTS / "lobby-break-colour-up.png"))
    strip = announce.bounding_box()
    assert strip is not None and strip["y"] + strip["height"] <= 1080
    box = note.bounding_box()
    assert box["height"] <= 1080 * 0.22 + 1 and box["y"] + box["height"] < strip["y"]
