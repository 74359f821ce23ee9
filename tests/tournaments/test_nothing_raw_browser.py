"""Issue #14, "nothing raw, all translated", in a real browser: the event log reads as sentences (in
English and Italian), the clock's "go to level" is an in-page dialog offering levels by the names
players use, and the chip race is entered from the table's own seated players with the result shown
as stacks before and after. Screenshots: test-artifacts/eventlog-*.png, clock-dialog-*.png,
chiprace-*.png."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor
from tournaments.floor import services as floor
from tournaments.models import ChipRaceRecord, Clock
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def running(make_tournament, make_person, director, cashier_user):
    t = make_tournament(name="Nothing Raw")
    desk = Actor(cashier_user, "desk-1")
    names = [("Mario", "Rossi"), ("Anna", "Verdi"), ("Luca", "Neri"), ("Sara", "Bianchi")]
    entries = [cashier.register(t, make_person(first, last), method="CASH", actor=desk).entry for first, last in names]
    lifecycle.start(t, actor=Actor(director, "test"))
    floor.issue_penalty(t, entries[1], actor=Actor(director, "test"), kind="MISSED_ROUNDS", reason_code="SOFT_PLAY", rounds=1)
    return t, entries


def test_the_event_log_reads_as_sentences_in_english_and_italian(browser_page, running):
    t, entries = running
    page = browser_page
    login(page, "dora", "pw-dora")
    page.set_viewport_size({"width": 1366, "height": 1400})
    page.goto(page.base_url + f"/tournaments/{t.pk}/")
    log = page.locator("#event-log")
    expect(log).to_contain_text("Carl sold entry #1 to Mario Rossi — €110.00 cash")
    expect(log).to_contain_text("Dora gave Anna Verdi a penalty: Missed rounds — Soft play")
    expect(log.locator("td.sentence", has_text="Seats drawn")).to_have_text("Seats drawn: 4 players at 1 table")
    text = log.inner_text()
    assert "{" not in text and "MISSED_ROUNDS" not in text and "in_play" not in text and "cashier.buyin" not in text
    log.screenshot(path=str(ARTIFACTS / "eventlog-en.png"))

    page.select_option("select[name=language]", "it")  # the language picker submits by itself
    page.wait_for_load_state()
    log = page.locator("#event-log")
    expect(log).to_contain_text("Carl ha venduto l'entry #1 a Mario Rossi — 110,00\u00a0€ contanti")
    expect(log).to_contain_text("Dora ha inflitto a Anna Verdi una penalità: Giri saltati — Soft play")
    expect(log).to_contain_text("Posti sorteggiati: 4 giocatori a 1 tavolo")
    log.screenshot(path=str(ARTIFACTS / "eventlog-it.png"))


def test_go_to_level_is_a_dialog_of_levels_as_players_say_them(browser_page, running):
    t, _ = running
    page = browser_page
    login(page, "dora", "pw-dora")
    page.goto(page.base_url + f"/tournaments/{t.pk}/clock/")
    expect(page.locator("#structure thead")).to_contain_text("Blinds")
    expect(page.locator("#structure tbody tr").first.locator("th")).to_have_text("Level 1")
    expect(page.locator("#structure tbody tr.break").first.locator("th")).to_have_text(re.compile(r"^Break after level \d+$"))
    page.click("button[data-op=start]")
    expect(page.locator("#c-level")).to_contain_text("Level 1 · Running")

    page.click("button[data-op=jump]")
    dialog = page.locator("dialog.tdm-dialog[open]")
    expect(dialog.locator("select[name=answer] option").nth(1)).to_have_text("Level 2")
    dialog.locator("select[name=answer]").select_option(label="Level 3")
    page.screenshot(path=str(ARTIFACTS / "clock-dialog-level.png"))
    dialog.locator("button[value=ok]").click()
    reason = page.locator("dialog.tdm-dialog[open] textarea[name=answer]")
    expect(reason).to_be_visible()
    expect(page.locator("dialog.tdm-dialog[open] label")).to_contain_text("Reason")
    reason.fill("late start")
    page.screenshot(path=str(ARTIFACTS / "clock-dialog-reason.png"))
    with page.expect_response(lambda r: r.url.endswith("/clock/jump/")) as jumped:
        page.locator("dialog.tdm-dialog[open] button[value=ok]").click()
    assert jumped.value.ok
    expect(page.locator("#c-level")).to_contain_text("Level 3")
    ev = t.events.filter(action=Action.TOURNAMENTS_CLOCK_JUMPED).get()
    assert ev.payload["reason"] == "late start" and ev.payload["level"] == 3

    # Cancel asks nothing more and changes nothing.
    version = Clock.objects.get(tournament=t).version
    page.click("button[data-op=finish]")  # a change of the clock's course: its reason is asked
    answer_dialog(page, ok=False)
    expect(page.locator("#c-level")).to_contain_text("Running")
    assert Clock.objects.get(tournament=t).version == version


def test_the_chip_race_is_entered_from_the_table_and_answers_with_stacks(browser_page, running):
    t, entries = running
    make_user("floorie", "floor")
    page = browser_page
    login(page, "floorie", "pw-floorie")
    page.goto(page.base_url + f"/tournaments/{t.pk}/floor/")
    rows = page.locator("#race-players tbody tr[data-seat]")
    expect(rows).to_have_count(4)  # the four players seated at table 1, by name
    expect(page.locator("#race-players")).to_contain_text("Mario Rossi (#1)")
    page.fill("#raceform input[name=removed]", "25")
    page.fill("#raceform input[name=new]", "100")
    removed = [75, 50, 25, 0]  # odd chips: 150 in the middle, 2 chips of 100 (rounded half up)
    for i, value in enumerate(removed):
        rows.nth(i).locator("input[name=stack]").fill("30000")
        rows.nth(i).locator("input[name=removed_value]").fill(str(value))
    rows.nth(0).locator("input[name=won]").check()
    rows.nth(1).locator("input[name=won]").check()
    seats = [int(rows.nth(i).get_attribute("data-seat")) for i in range(4)]
    page.screenshot(path=str(ARTIFACTS / "chiprace-entry.png"), full_page=True)
    page.click("#raceform button.primary")

    result = page.locator("#race-result")
    expect(result).to_be_visible()
    expect(result.locator("#race-summary")).to_contain_text("Chip race recorded at table 1 — 50 added to play by rounding")
    after = {seats[0]: ("30,025", "+25"), seats[1]: ("30,050", "+50"), seats[2]: ("29,975", "-25"), seats[3]: ("30,000", "0")}
    for seat, (stack, diff) in after.items():
        row = result.locator(f"tbody tr[data-seat='{seat}']")
        expect(row.locator("td").nth(2)).to_have_text("30,000")
        expect(row.locator("td").nth(3)).to_have_text(stack)
        expect(row.locator("td").nth(4)).to_have_text(diff)
    assert "{" not in result.inner_text()
    rec = ChipRaceRecord.objects.get(tournament=t)
    assert rec.mode == "MANUAL" and rec.result["winners"] == seats[:2]
    result.screenshot(path=str(ARTIFACTS / "chiprace-result.png"))
