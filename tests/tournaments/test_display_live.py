"""Lobby displays end to end: the real ASGI server, Redis pub/sub, SSE and a real browser."""

import re
import threading
import time

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser  # noqa: F401 (fixture)
from tests.servers import live_stack, sse_states  # noqa: F401 (live_stack: fixture)
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def started(make_tournament, make_person, director):
    actor = Actor(director, "test")
    t = make_tournament(name="Live Test Event")
    for _ in range(4):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor)
    screen = DisplayScreen.objects.create(name="TV 1", tournament=t, token="tv-token-1", show={"sounds": False})
    return t, actor, screen


def read_events(base, path, done, out, stop):
    """The stream's states into ``out`` until ``done(state)`` or ``stop``."""
    with httpx.stream("GET", base + path, timeout=20) as r:
        out.append(("status", r.status_code))
        for state in sse_states(r):
            out.append(("state", state, time.monotonic()))
            if done(state) or stop.is_set():
                return


def test_sse_pushes_the_new_level(live_stack, started):
    """The screen's stream sends the new level after the jump, in order (how fast: benchmarks/display_fanout.py).

    The same state may come twice before the jump: a web process that was not yet subscribed
    to the change notices when the screen connected builds the state again once it is."""
    t, actor, screen = started
    out, stop = [], threading.Event()
    path = f"/live/{t.pk}/stream/?token={screen.token}"
    reader = threading.Thread(target=read_events, args=(live_stack["base"], path, lambda s: s["clock"]["level_number"] != 1, out, stop))
    reader.start()
    deadline = time.monotonic() + 10
    while not any(o[0] == "state" for o in out) and time.monotonic() < deadline:
        time.sleep(0.02)
    first = next(o for o in out if o[0] == "state")[1]
    assert first["clock"]["level_number"] == 1 and first["players_left"] == 4 and first["average_stack"] == 30000
    clock_services.jump_to(t, 1, actor=actor, reason="test")
    reader.join(30)  # generous: it ends on the first state of another level
    stop.set()
    states = [o[1] for o in out if o[0] == "state"]
    levels = [s["clock"]["level_number"] for s in states]
    assert levels[-1] == 2 and set(levels[:-1]) == {1}, out
    versions = [s["version"] for s in states]
    assert versions == sorted(versions) and versions[-1] > first["version"]


def test_a_display_needs_its_token(live_stack, started):
    t, _actor, _screen = started
    assert httpx.get(live_stack["base"] + f"/live/{t.pk}/state/?token=wrong").status_code == 403
    assert httpx.get(live_stack["base"] + f"/live/{t.pk}/state/?token=tv-token-1").json()["clock"]["status"] == "RUNNING"


@pytest.mark.browser
def test_the_display_shows_the_level_and_follows_the_director_without_a_reload(live_stack, started, browser):
    t, actor, screen = started
    page = browser
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(live_stack["base"] + f"/display/{screen.token}/")
    expect(page.locator("#level-label")).to_have_text("Level 1")
    expect(page.locator("#blinds")).to_have_text("100 / 100")
    expect(page.locator("#clock")).to_have_text(re.compile(r"^\d+:\d\d$"))  # the local countdown has started
    clock_text = page.locator("#clock").inner_text()
    minutes, seconds = (int(x) for x in clock_text.split(":"))
    assert 19 * 60 <= minutes * 60 + seconds <= 20 * 60
    expect(page.locator("#players")).to_have_text("4")
    page.evaluate("window.__marker = 'same page'")
    clock_services.jump_to(t, 1, actor=actor, reason="advance")
    expect(page.locator("#level-label")).to_have_text("Level 2", timeout=5000)
    expect(page.locator("#blinds")).to_have_text("100 / 200")
    assert page.evaluate("window.__marker") == "same page"  # no reload happened
    page.screenshot(path=str(ARTIFACTS / "display-1920x1080.png"))
