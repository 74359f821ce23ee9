"""The lobby screen through a Wi-Fi drop: it counts on by itself from the last state and the
structure, starts the next level at 0:00 with its blinds, marks itself not live, and is right
again within 2 s of the network's return (a pause made meanwhile by the director included)."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page  # noqa: F401 (fixtures)
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen, StructureItem
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_lobby_screen_offline_starts_the_next_level_and_converges_when_back(browser_page, make_tournament, make_person, director, cashier_user):
    page = browser_page
    page.route("**/live/*/stream/**", lambda route: route.abort())  # no ASGI here: the screen polls
    actor = Actor(director, "test")
    t = make_tournament(name="Offline Deepstack")  # registering
    for first, last in [("Mario", "Rossi"), ("Giulia", "Bianchi"), ("Luca", "Ferrari")]:
        cashier.register(t, make_person(first=first, last=last), method="CASH", actor=Actor(cashier_user, "desk"))
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor)
    items = list(t.structure.items.order_by("position"))
    assert items[0].kind == StructureItem.LEVEL and items[1].kind == StructureItem.LEVEL
    clock_services.set_time_left(t, 4, actor=actor, reason="the test's level ends soon")
    DisplayScreen.objects.create(name="Lobby TV", tournament=t, token="offline-tv", show={"sounds": False})
    page.goto(page.base_url + "/display/offline-tv/")
    expect(page.locator("#level-label")).to_have_text("Level 1")

    page.context.set_offline(True)
    # the level ends while the screen has no network: the next one starts on the screen at 0:00
    expect(page.locator("#level-label")).to_have_text("Level 2", timeout=10_000)
    expect(page.locator("#blinds")).to_have_text(f"{items[1].small_blind:,} / {items[1].big_blind:,}")
    expect(page.locator("#clock")).to_contain_text(f"{items[1].minutes - 1}:")  # counting down the new level
    expect(page.locator("#conn")).to_have_class("conn off")
    expect(page.locator("#conn")).to_have_attribute("title", "not live: the clock goes on from the last state this screen saw")

    clock_services.pause(t, actor=actor, reason="a dealer change")  # the director, meanwhile
    page.context.set_offline(False)
    expect(page.locator("#status")).to_have_text("PAUSED", timeout=2000)  # right within 2 s of the return
    expect(page.locator("#level-label")).to_have_text("Level 2")
