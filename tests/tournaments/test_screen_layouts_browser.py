"""Issue #43 in a real browser, in Italian: the director builds a layout with the editor (drag,
resize, the keyboard, a colour, a logo, undo), gives it to a screen and the TV shows it; the break
layout appears at the break; no block of a built-in layout overflows at 1920×1080 and 1280×720
with a full league and a long announcement; the speaker screen says each event once, in words."""

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.formats.test_league import play, score
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.floor import chipsets
from tournaments.formats.services import series as series_service
from tournaments.models import DisplayScreen, ScreenLayout
from tournaments.screens import rules as layouts
from tournaments.screens import services as screen_services
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = (
    "Stasera cena al bar dalle 21:00 con menu del torneo; il tavolo 7 chiude alla pausa; "
    "ricordiamo ai giocatori che il telefono al tavolo non è ammesso durante la mano e che le puntate "
    "si annunciano a voce chiara; premiazione alle 2:00 nella sala principale, con foto dei finalisti."
)


def italian(page):
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])


def running(make_tournament, make_person, actor, cashier_actor, players=12, **kw):
    t = make_tournament(**kw)
    for _ in range(players):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor)
    t.refresh_from_db()
    return t


def blocks(page) -> list[dict]:
    """Every block the TV shows, with whether its content spills out of it."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#screen .block')].filter((b) => !b.hidden && b.getClientRects().length)
            .map((b) => ({kind: b.dataset.kind, over: b.scrollHeight > b.clientHeight + 1 || b.scrollWidth > b.clientWidth + 1,
                          size: [b.scrollWidth, b.clientWidth, b.scrollHeight, b.clientHeight], font: b.style.fontSize}))"""
    )


def test_no_block_of_a_built_in_layout_overflows_with_a_full_league_and_a_long_announcement(browser_page, make_tournament, make_person, actor, cashier_actor):
    people = {f"P{n:02d}": make_person(first=f"Massimiliano{n:02d}", last="Bartolomeo della Rovere di Montefeltro") for n in range(12)}
    league = series_service.create_series(name="Lega del giovedì sera, stagione d'autunno", scoring="LINEAR", cycle_length=None, actor=actor)
    score(league, play(make_tournament, people, sorted(people), actor, cashier_actor), actor)
    t = running(
        make_tournament,
        make_person,
        actor,
        cashier_actor,
        players=40,
        name="Main Event del Casinò di Sanremo — Day 1",
        settings={"bounty": "PKO", "bounty_amount": "20"},
    )
    series_service.attach(league, t, actor=actor)
    screen = DisplayScreen.objects.create(name="TV", tournament=t, token="fit-tv", announcement=LONG)
    page = browser_page
    italian(page)
    for name, built in layouts.BUILTIN.items():
        screen.layouts = {"live": layouts.builtin_key(name)}
        screen.save(update_fields=["layouts"])
        sizes = [(1080, 1920), (720, 1280)] if built["portrait"] else [(1920, 1080), (1280, 720)]
        for width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(page.base_url + "/display/fit-tv/")
            expect(page.locator(f'#screen[data-layout="builtin:{name}"]')).to_have_count(1)
            expect(page.locator("#announce")).to_have_text(LONG)
            if "league" in {b["kind"] for b in built["design"]["blocks"]}:
                expect(page.locator("#league li")).to_have_count(10)
            page.wait_for_function("() => [...document.querySelectorAll('#screen .block')].every((b) => b.hidden || b.dataset.fitted)")
            page.wait_for_timeout(600)  # three ticks of the clock: the countdowns drawn, their blocks fitted
            shown = blocks(page)
            page.screenshot(path=str(ARTIFACTS / f"lobby-layout-{name}-{width}x{height}.png"))
            kinds = {b["kind"] for b in shown}
            assert {"clock", "announcements"} <= kinds, (name, kinds)
            assert [b for b in shown if b["over"]] == [], (name, width, height)


def test_the_director_builds_a_layout_and_the_tv_shows_it(browser_page, director, make_tournament, make_person, actor, cashier_actor):
    t = running(make_tournament, make_person, actor, cashier_actor, name="Serata del venerdì")
    DisplayScreen.objects.create(name="TV bar", tournament=t, token="tv-bar")
    page = browser_page
    italian(page)
    login(page, "dora", "pw-dora")
    page.goto(page.base_url + "/screens/layouts/")
    logo = io.BytesIO()
    Image.new("RGB", (320, 120), (200, 20, 40)).save(logo, format="PNG")
    page.fill("#image-form input[name=name]", "Logo del casinò")
    page.set_input_files("#image-form input[name=image]", files=[{"name": "logo.png", "mimeType": "image/png", "buffer": logo.getvalue()}])
    page.click("#image-form button")
    expect(page.locator("main")).to_contain_text("Immagine Logo del casinò caricata (320 × 120).")
    page.fill("#new-layout input[name=name]", "Serata TV")
    page.select_option("#new-layout select[name=from]", "builtin:default")
    page.click("#new-layout button")
    expect(page.locator("#layout-title")).to_have_text("Serata TV")
    stage = page.locator("#stage")

    # the mouse: the clock, two cells narrower, two cells to the right (clear of the figures on
    # its right: a block may not cover another), the name's corner four cells to the left
    clock = page.locator('.eblock[data-index="1"]')
    clock.focus()  # the results share the clock's cells: the block chosen comes to the top
    page.keyboard.press("Enter")
    expect(page.locator("#f-block-name")).to_have_text("Orologio e livello")
    page.keyboard.press("Shift+ArrowLeft")
    page.keyboard.press("Shift+ArrowLeft")
    expect(page.locator("#f-w")).to_have_value("15")
    # a cell measured now, with the block's panel drawn beside the stage: measured on arrival, a
    # loaded machine could read the stage before the panel took its part of the width
    cell = stage.bounding_box()["width"] / layouts.GRID
    box = clock.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 2 * cell, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()
    expect(page.locator("#f-x")).to_have_value("3")  # the third column: counted from 1, as the block says
    handle = page.locator('.eblock[data-index="0"] .handle').bounding_box()
    page.mouse.move(handle["x"] + 4, handle["y"] + 4)
    page.mouse.down()
    page.mouse.move(handle["x"] + 4 - 4 * cell, handle["y"] + 4, steps=8)
    page.mouse.up()
    expect(page.locator("#f-w")).to_have_value("20")
    # the keyboard: the blinds a row shorter and one row down; a move undone
    blinds = page.locator('.eblock[data-index="2"]')
    blinds.focus()
    page.keyboard.press("Shift+ArrowUp")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#f-x")).to_have_value("2")
    page.click("#f-undo")
    expect(page.locator("#f-x")).to_have_value("1")
    expect(page.locator('.eblock[data-index="2"]')).to_have_attribute("aria-label", "Bui e ante: colonna 1, riga 14, 17 per 3 celle")
    # a colour of its own for the blinds, and the logo in the top right corner
    page.locator("#f-bg-theme").uncheck()
    page.locator("#f-bg").fill("#123456")
    page.select_option("#f-add-kind", "logo")
    page.click("#f-add")
    for field, value in (("#f-w", "4"), ("#f-h", "2"), ("#f-x", "21"), ("#f-y", "1")):  # narrower first: then it fits at column 21
        page.fill(field, value)
        page.locator(field).dispatch_event("change")
    page.click("#editor-form button.primary")
    expect(page.locator("#f-msg")).to_have_text("Salvato: gli schermi con questo layout si aggiornano entro mezzo minuto.")
    page.screenshot(path=str(ARTIFACTS / "layout-editor-it.png"))

    saved = ScreenLayout.objects.get(name="Serata TV")
    by_kind = {b["kind"]: b for b in saved.design["blocks"]}
    assert (by_kind["clock"]["x"], by_kind["name"]["w"]) == (2, 20)
    assert (by_kind["blinds"]["x"], by_kind["blinds"]["y"], by_kind["blinds"]["w"], by_kind["blinds"]["bg"]) == (0, 13, 17, "#123456")
    assert (by_kind["logo"]["x"], by_kind["logo"]["y"], by_kind["logo"]["w"], by_kind["logo"]["h"]) == (20, 0, 4, 2)

    # the live preview: the screen itself on the event's data, following the editor as it goes
    with page.expect_popup() as opened:
        page.click("#preview-open")
    preview = opened.value
    expect(preview.locator('#screen .block[data-kind="logo"] img')).to_have_count(1)
    expect(preview.locator("#t-name")).to_have_text("Serata del venerdì")
    page.locator('.eblock[data-index="2"]').focus()
    page.keyboard.press("ArrowUp")  # not saved: the preview shows it all the same
    preview.wait_for_function("() => getComputedStyle(document.querySelector('#screen .block[data-kind=blinds]')).gridRowStart === '13'")
    preview.close()

    # the screen shows it from now on
    page.goto(page.base_url + "/displays/")
    form = page.locator("form.screen-edit")
    form.locator("select[name=layout-live]").select_option(f"layout:{saved.pk}")
    form.locator("button.primary").click()
    expect(form.locator("[data-msg]")).to_contain_text("Salvato")
    assert DisplayScreen.objects.get(token="tv-bar").layouts == {"live": f"layout:{saved.pk}"}
    page.goto(page.base_url + "/display/tv-bar/")
    expect(page.locator(f'#screen[data-layout="layout:{saved.pk}"]')).to_have_count(1)
    placed = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#screen .block')].map((b) => {
            const s = getComputedStyle(b);
            return [b.dataset.kind, [s.gridColumnStart, s.gridRowStart, s.backgroundColor]];
        }))"""
    )
    assert placed["clock"][:2] == ["3", "3"] and placed["blinds"] == ["1", "14", "rgb(18, 52, 86)"] and placed["logo"][:2] == ["21", "1"]
    expect(page.locator('.block[data-kind="logo"] img')).to_have_js_property("naturalWidth", 320)  # re-encoded, shown
    page.screenshot(path=str(ARTIFACTS / "lobby-layout-made-in-the-editor.png"))


def test_the_break_layout_shows_at_the_break(browser_page, make_tournament, make_person, actor, cashier_actor):
    chips = chipsets.save_chip_set(
        name="Casa", denominations=[{"value": 25, "colour": "verde", "quantity": 100}, {"value": 100, "colour": "#111111", "quantity": 100}], actor=actor
    )
    t = running(make_tournament, make_person, actor, cashier_actor, chip_set=chips)
    DisplayScreen.objects.create(name="TV", tournament=t, token="break-layout-tv", layouts={"live": "builtin:default", "break": "builtin:break"})
    page = browser_page
    italian(page)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(page.base_url + "/display/break-layout-tv/")
    expect(page.locator('#screen[data-layout="builtin:default"]')).to_have_count(1)
    clock_services.jump_to(t, 4, actor=actor, reason="pausa")  # the structure's first break
    expect(page.locator('#screen[data-layout="builtin:break"]')).to_have_count(1, timeout=20000)
    expect(page.locator('.block[data-kind="chips"] li')).to_have_text([re.compile(r"^25\s*verde$"), re.compile(r"^100\s*#111111$")])
    page.screenshot(path=str(ARTIFACTS / "lobby-break-layout.png"))
    clock_services.jump_to(t, 5, actor=actor, reason="si riprende")
    expect(page.locator('#screen[data-layout="builtin:default"]')).to_have_count(1, timeout=20000)


def test_the_speaker_says_each_event_once_in_words(browser_page, make_tournament, make_person, actor, cashier_actor):
    t = running(make_tournament, make_person, actor, cashier_actor, name="Torneo parlato")
    speaker = screen_services.create_screen({"name": "Altoparlante", "tournament": t, "speaker": True}, actor=actor)
    DisplayScreen.objects.filter(pk=speaker.pk).update(token="speaker-tv")
    DisplayScreen.objects.create(name="Muto", tournament=t, token="quiet-tv")
    page = browser_page
    italian(page)
    quiet = page.context.new_page()
    quiet.goto(page.base_url + "/display/quiet-tv/")
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page.base_url + "/display/speaker-tv/")
    expect(page.locator("#sound-test")).to_be_visible()
    expect(quiet.locator("#sound-test")).to_be_hidden()
    expect(page.locator("#clock")).not_to_have_text("--:--")
    log = page.locator("#announcer-log li")
    expect(log).to_have_count(0)  # opening the page announces nothing that happened before

    clock_services.jump_to(t, 2, actor=actor, reason="avanti")  # level 3: 100/200, ante 200
    expect(log).to_have_text(["Livello tre: bui cento e duecento, ante duecento"], timeout=20000)
    assert page.locator("#announcer-log li").first.get_attribute("data-event") == "level"
    screen_services.update_screen(DisplayScreen.objects.get(pk=speaker.pk), {"announcement": "Cena servita al bar"}, actor=actor)
    expect(log).to_have_text(["Livello tre: bui cento e duecento, ante duecento", "Cena servita al bar"], timeout=20000)
    clock_services.set_time_left(t, 63, actor=actor, reason="un minuto")
    expect(log.nth(2)).to_have_text("Manca un minuto alla fine del livello", timeout=20000)
    assert log.nth(2).get_attribute("data-event") == "minutes_left"

    page.reload()  # a reconnect, and more: the page starts again; nothing is said twice
    expect(page.locator("#clock")).not_to_have_text("--:--")
    page.wait_for_timeout(4000)  # a few polls of the same state
    expect(log).to_have_count(3)
    clock_services.jump_to(t, 4, actor=actor, reason="pausa")  # a break of the structure
    expect(log.nth(3)).to_have_text(re.compile(r"^Pausa: \w+ minuti$"), timeout=20000)
    expect(quiet.locator("#announcer-log li")).to_have_count(0)  # the other screen stays quiet
    assert errors == []
