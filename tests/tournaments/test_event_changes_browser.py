"""FMT-02 on a real lobby screen: a published event's change is announced with its reason."""

import json
from datetime import timedelta

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import translation
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page  # noqa: F401 (fixtures)
from tournaments.eventlog.services import Actor
from tournaments.live.snapshot import build_snapshot
from tournaments.models import DisplayScreen
from tournaments.setup import changes
from tournaments.setup import services as setup


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_lobby_screen_announces_a_change_of_the_start_time(browser_page, make_tournament, director):
    t = make_tournament()
    DisplayScreen.objects.create(name="Lobby", tournament=t, token="fmt02-tv", show={"sounds": False})
    setup.update_tournament(t, {"start_at": t.start_at + timedelta(minutes=30)}, actor=Actor(director, "test"), override_reason="the room opens late")
    changes.set_reason_public(t, 1, True, actor=Actor(director, "test"))  # the director shows the players why
    page = browser_page
    page.route("**/live/*/stream/**", lambda route: route.abort())  # the polling fallback is enough here
    page.goto(page.base_url + "/display/fmt02-tv/")
    expect(page.locator("#announce")).to_contain_text("Changed: Start: ")
    expect(page.locator("#announce")).to_contain_text("(the room opens late)")
    page.screenshot(path=str(ARTIFACTS / "fmt02-lobby-announcement.png"))
    # an Italian lobby TV reads the change in Italian (#39 item 7), beside the screen's own notice
    DisplayScreen.objects.filter(token="fmt02-tv").update(announcement="Cena alle 21")
    # the snapshot every screen receives is built once, outside any request (the hub, a worker):
    # in the server's language, not the TV's
    with translation.override("en"):
        once = json.dumps(build_snapshot(t), cls=DjangoJSONEncoder)
    italian = page.context.browser.new_context(locale="it-IT").new_page()  # a TV set to Italian
    italian.route("**/live/*/stream/**", lambda route: route.abort())
    italian.route("**/live/*/state/**", lambda route: route.fulfill(status=200, content_type="application/json", body=once))
    italian.goto(page.base_url + "/display/fmt02-tv/")
    page = italian
    expect(page.locator("#announce")).to_contain_text("Modificato: Inizio: ")
    expect(page.locator("#announce")).to_contain_text("Cena alle 21")
    expect(page.locator("#announce")).not_to_contain_text("Changed")
