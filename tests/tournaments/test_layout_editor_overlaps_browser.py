"""The layout editor in Italian, on a copy of the Classic layout: columns and rows counted from 1
in the panel as on the block, the blocks that take turns shown as such (their names one under the
other, never printed over each other), and a logo placed over "Giocatori" warned at once and
refused on saving, naming both blocks and their cells; on the TV, once the tournament has ended,
the results take the place of the blocks they cover."""

import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from seating import services as seating
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.test_axe_browser import problems
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.models import DisplayScreen, Entry, ScreenLayout, Tournament
from tournaments.screens import services as screen_services
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_turns_are_shown_as_turns_and_a_block_over_another_is_refused(browser_page, director, actor):
    logo = io.BytesIO()
    Image.new("RGB", (64, 32), (200, 20, 40)).save(logo, format="PNG")
    screen_services.upload_image(name="Logo", content=logo.getvalue(), actor=actor)
    copy = screen_services.save_layout(name="Classico serale", design=screen_services.resolve("builtin:default")["design"], actor=actor)
    page = browser_page
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, "dora", "pw-dora")
    page.goto(page.base_url + f"/screens/layouts/{copy.pk}/")

    players = page.locator('.eblock[data-index="5"]')  # "Giocatori rimasti" at the 18th column, 3rd row
    players.focus()
    page.keyboard.press("Enter")
    expect(players).to_have_attribute("aria-label", "Giocatori rimasti e iscrizioni: colonna 18, riga 3, 7 per 3 celle")
    expect(page.get_by_label("Colonna", exact=True)).to_have_value("18")  # the same count as the block's
    expect(page.get_by_label("Riga", exact=True)).to_have_value("3")

    payouts, league = page.locator('.eblock[data-index="8"] .name'), page.locator('.eblock[data-index="9"] .name')
    expect(payouts).to_have_text("⇄ Tabella dei premi")
    expect(league).to_have_text("⇄ Classifica della lega")
    above, below = payouts.bounding_box(), league.bounding_box()
    assert above["y"] + above["height"] <= below["y"]  # one under the other, not printed over each other
    expect(page.locator('.eblock[data-index="9"]')).to_have_attribute(
        "aria-label", "Classifica della lega: colonna 18, riga 12, 7 per 10 celle — a turno con Tabella dei premi"
    )
    expect(page.locator("#f-overlaps-box")).to_be_hidden()  # Classic itself: nothing overlaps

    page.select_option("#f-add-kind", label="Logo")
    page.click("#f-add")
    for field, value in (("Larghezza", "2"), ("Altezza", "2"), ("Colonna", "18"), ("Riga", "3")):
        page.get_by_label(field, exact=True).fill(value)
        page.get_by_label(field, exact=True).dispatch_event("change")
    warning = page.locator("#f-overlaps li")
    expect(warning).to_have_text(["Logo: colonna 18, riga 3, 2 per 2 celle si sovrappone a Giocatori rimasti e iscrizioni: colonna 18, riga 3, 7 per 3 celle"])
    page.screenshot(path=str(ARTIFACTS / "layout-editor-overlap-it.png"))
    assert problems(page, "the layout editor warning of an overlap") == []
    page.click("#editor-form button.primary")
    expect(page.locator("#f-msg")).to_have_text(
        "blocks[14]: Logo (colonna 18, riga 3, 2 per 2 celle) si sovrappone a Giocatori rimasti e iscrizioni (colonna 18, riga 3, 7 per 3 celle): "
        "mettili separati, o esattamente sulle stesse celle perché si diano il turno"
    )
    assert len(ScreenLayout.objects.get(pk=copy.pk).design["blocks"]) == 14  # nothing saved


def test_at_the_end_the_results_take_the_place_of_the_blocks_they_cover(browser_page, make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(name="Finale")
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4)]
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor)
    for out in entries[1:]:
        seating.record_bust(t, [Entry.objects.get(pk=out.pk)], actor=actor)
    if Tournament.objects.get(pk=t.pk).status != Tournament.FINISHED:
        lifecycle.finish(Tournament.objects.get(pk=t.pk), actor=actor)
    DisplayScreen.objects.create(name="TV", tournament=t, token="end-tv", layouts={"live": "builtin:final"})
    page = browser_page
    page.goto(page.base_url + "/display/end-tv/")
    expect(page.locator('#screen[data-state="finished"]')).to_have_count(1)
    expect(page.locator('.block[data-kind="results"]')).to_be_visible()
    for covered in ("payouts", "pool", "players", "clock"):  # the final table's blocks the results lie over
        expect(page.locator(f'.block[data-kind="{covered}"]')).to_be_hidden()
    expect(page.locator('.block[data-kind="name"]')).to_be_visible()  # above the results: stays
