"""FMT-02 on a real lobby screen: a published event's change is announced with its reason."""

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page  # noqa: F401 (fixtures)
from tournaments.models import DisplayScreen
from tournaments.services import setup
from tournaments.services.events import Actor


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_lobby_screen_announces_a_change_of_the_start_time(browser_page, make_tournament, director):
    t = make_tournament()
    DisplayScreen.objects.create(name="Lobby", tournament=t, token="fmt02-tv", show={"sounds": False})
    setup.update_tournament(t, {"start_at": t.start_at + timedelta(minutes=30)}, actor=Actor(director, "test"), override_reason="the room opens late")
    page = browser_page
    page.route("**/live/*/stream/**", lambda route: route.abort())  # the polling fallback is enough here
    page.goto(page.base_url + "/display/fmt02-tv/")
    expect(page.locator("#announce")).to_contain_text("Changed: Start: ")
    expect(page.locator("#announce")).to_contain_text("(the room opens late)")
    page.screenshot(path=str(ARTIFACTS / "fmt02-lobby-announcement.png"))
