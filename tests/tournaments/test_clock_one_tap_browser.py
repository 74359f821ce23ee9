"""The clock page in Italian: pause, resume and a minute more are one tap each (a reason typed
beside the buttons goes with them, none is asked), every tap still a line of the event log; a
change of the clock's course (another level) asks its reason and is refused without one."""

import pytest
from playwright.sync_api import expect

from tests.browser import answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.test_axe_browser import problems
from tournaments.clock import services as clock_services
from tournaments.eventlog.actions import Action
from tournaments.models import Clock
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def logged(t, action):
    return [e.payload.get("reason", "") for e in t.events.filter(action=action).order_by("pk")]


def test_pause_resume_and_a_minute_are_one_tap_a_level_change_asks_why(browser_page, make_tournament, director, actor, api):
    t = make_tournament(name="Orologio")
    lifecycle.start(t, actor=actor, override_minimum=True, start_clock=False)
    clock_services.start_clock(t, actor=actor)
    page = browser_page
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, "dora", "pw-dora")
    page.goto(page.base_url + f"/tournaments/{t.pk}/clock/")
    dialogs = page.locator("dialog.tdm-dialog[open]")
    pause, resume = page.get_by_role("button", name="Pausa", exact=True), page.get_by_role("button", name="Riprendi", exact=True)

    with page.expect_response(lambda r: r.url.endswith("/clock/pause/")):
        pause.click()
    expect(resume).to_be_enabled()  # paused, and nothing asked
    expect(dialogs).to_have_count(0)
    page.get_by_label("Motivo (facoltativo").fill("disputa al tavolo 3")
    with page.expect_response(lambda r: r.url.endswith("/clock/resume/")):
        resume.click()
    expect(pause).to_be_enabled()
    expect(page.get_by_label("Motivo (facoltativo")).to_have_value("")
    with page.expect_response(lambda r: r.url.endswith("/clock/add-time/")) as added:
        page.get_by_role("button", name="+1′").click()
    assert added.value.ok
    expect(dialogs).to_have_count(0)
    assert (logged(t, Action.TOURNAMENTS_CLOCK_PAUSED), logged(t, Action.TOURNAMENTS_CLOCK_RESUMED)) == ([""], ["disputa al tavolo 3"])
    assert len(logged(t, Action.TOURNAMENTS_CLOCK_TIME_ADDED)) == 1

    page.get_by_role("button", name="Vai al livello…").click()
    page.locator("dialog.tdm-dialog[open] select[name=answer]").select_option(label="Livello 3")
    page.locator("dialog.tdm-dialog[open] button[value=ok]").click()
    reason = page.locator("dialog.tdm-dialog[open] textarea[name=answer]")
    expect(page.locator("dialog.tdm-dialog[open] label")).to_contain_text("Motivo della modifica")
    page.locator("dialog.tdm-dialog[open] button[value=ok]").click()  # empty: the dialog stays
    expect(reason).to_be_visible()
    assert problems(page, "the clock page asking a reason") == []
    answer_dialog(page, "partenza in ritardo")
    expect(page.locator("#c-level")).to_contain_text("Livello 3")
    assert logged(t, Action.TOURNAMENTS_CLOCK_JUMPED) == ["partenza in ritardo"]

    version = Clock.objects.get(tournament=t).version
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/clock/jump/", {"item_index": 0}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 400 and r.json()["code"] == "reason_required" and r.json()["field"] == "reason"
    assert r.json()["detail"].startswith("Motivo:")
    assert Clock.objects.get(tournament=t).version == version
