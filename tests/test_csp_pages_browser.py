"""What used to be inline code still works from static/ under the CSP (#11): the language
picker, the structure import, the chip-set editor, the clock buttons and the shot clock, the
confirmations before cancelling a tournament or drawing the seats again, and printing."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser import answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_xss_browser import Watch
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import ChipSet, Tournament
from tournaments.setup import lifecycle
from tournaments.structures import services as structures

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PRINT_COUNTER = "window.print = () => { window.__printed = (window.__printed || 0) + 1; };"


def test_the_moved_scripts_still_work(browser_page, structure, make_tournament, make_person):
    page = browser_page
    page.context.add_init_script(PRINT_COUNTER)
    watch = Watch(page.context, dialogs=False)
    watch.attach(page)
    boss = make_user("boss", "director")
    actor = Actor(boss, "test")
    t = make_tournament(name="Clock Test")
    sales = [cashier.register(t, make_person(), method="CASH", actor=actor) for _ in range(4)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    login(page, "boss", "pw-boss")
    page.route("**/live/*/stream/**", lambda route: route.abort())

    # The language picker submits itself on change.
    page.goto(page.base_url + "/")
    with page.expect_navigation():
        page.select_option("select[name=language]", "it")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    with page.expect_navigation():
        page.select_option("select[name=language]", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    watch.check(page, "dashboard (language picker)", texts=("Clock Test",))

    # Structures: a JSON file imported through the page.
    page.goto(page.base_url + "/structures/")
    doc = json.loads(structures.export_json(structure))
    page.set_input_files("#import input[type=file]", files=[{"name": "copy.json", "mimeType": "application/json", "buffer": json.dumps(doc).encode()}])
    page.fill("#import input[name=name]", "Imported copy")
    with page.expect_navigation():
        page.click("#import button.primary")
    expect(page.locator("h2", has_text="Imported copy")).to_be_visible()
    watch.check(page, "structures (import)", texts=("Imported copy",))

    # Chip sets: one denomination per line.
    page.goto(page.base_url + "/chipsets/")
    page.fill("#chipsetform input[name=name]", "Club set")
    page.fill("#chipsetform textarea[name=rows]", "25 dark green 300\n100 black 500")
    with page.expect_navigation():
        page.click("#chipsetform button.primary")
    expect(page.locator("section.card", has_text="Club set")).to_contain_text("dark green")
    assert ChipSet.objects.get(name="Club set").denominations.count() == 2
    watch.check(page, "chip sets (new set)", texts=("Club set",))

    # The clock: start it, add a minute (one tap, the reason typed beside), call the clock at a table.
    page.goto(page.base_url + f"/tournaments/{t.pk}/clock/")
    page.click("button[data-op=start]")
    expect(page.locator("#c-msg")).to_have_text("Done")
    expect(page.locator("#c-time")).not_to_have_text("--:--")
    expect(page.locator("#c-level")).to_contain_text("Level 1")
    page.fill("#c-reason", "floor asked")
    with page.expect_response(lambda r: r.url.endswith("/clock/add-time/")) as added:
        page.click("button[data-op=add-time][data-seconds='60']")
    assert added.value.ok
    expect(page.locator("#c-msg")).to_have_text("Done")
    assert t.events.filter(action__startswith="tournaments.clock.").count() >= 2
    page.fill("#shot-table", "1")
    page.click("#shot-start")
    expect(page.locator("#shot-time")).to_have_text(re.compile(r"^\d+ s$"))
    expect(page.locator("#shot-outcome")).not_to_be_empty()
    watch.check(page, "clock (start, +1 minute, shot clock)", texts=("Clock Test",))

    # Drawing the seats again asks first; "no" draws nothing.
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    draws = t.events.filter(action__startswith="seating.draw").count()
    page.click("button[name=op][value=redraw]")
    answer_dialog(page, ok=False)
    expect(page.locator("ul.messages")).to_have_count(0)
    assert t.events.filter(action__startswith="seating.draw").count() == draws
    page.locator("button[name=op][value=redraw]").locator("xpath=..").locator("input[name=reason]").fill("wrong seats")
    with page.expect_navigation():
        page.click("button[name=op][value=redraw]")
        answer_dialog(page)
    expect(page.locator("ul.messages")).to_contain_text("Seats drawn.")
    watch.check(page, "tables (redraw confirmed)", texts=("Seats drawn.",))

    # Cancelling a tournament asks first.
    other = make_tournament(name="To Cancel")
    page.goto(page.base_url + f"/tournaments/{other.pk}/")
    page.fill("form[data-confirm] input[name=reason]", "no players")
    page.click("button[name=op][value=cancel]")
    answer_dialog(page, ok=False)
    expect(page.locator("h1 .badge")).not_to_have_text("Cancelled")
    other.refresh_from_db()
    assert other.status != Tournament.CANCELLED
    with page.expect_navigation():
        page.click("button[name=op][value=cancel]")
        answer_dialog(page)
    expect(page.locator("h1 .badge")).to_have_text("Cancelled")
    watch.check(page, "tournament (cancel confirmed)", texts=("To Cancel",))

    # Printing: ?print prints once on load; the Print button prints again.
    page.goto(page.base_url + f"/desk/receipt/{sales[0].row.receipt_number}/?print=1")
    page.wait_for_function("window.__printed === 1")
    page.click("button[data-print]")
    page.wait_for_function("window.__printed === 2")
    watch.check(page, "receipt (printed)", texts=(sales[0].entry.person.full_name,))
    page.goto(page.base_url + f"/desk/receipt/{sales[0].row.receipt_number}/")
    page.wait_for_load_state("load")
    assert page.evaluate("window.__printed") is None  # no ?print: no dialog
