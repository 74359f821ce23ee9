"""The player's phone stream end to end: the real ASGI server and Redis pub/sub. A bust at the
table reaches the busted player's phone within a second, filtered for that entry."""

import threading
import time

import httpx
import pytest

from seating import services as seating
from tests.servers import live_stack  # noqa: F401 (fixture)
from tournaments.services import cashier, clockctl, lifecycle
from tournaments.services.events import Actor

from .test_display_live import read_events

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_phone_stream_pushes_the_bust_to_that_player_only(live_stack, make_tournament, make_person, director):
    actor = Actor(director, "test")
    t = make_tournament(name="Phone Live Event")
    entries = [cashier.register(t, make_person(), method="CASH", actor=actor).entry for _ in range(4)]
    lifecycle.start(t, actor=actor)
    clockctl.start_clock(t, actor=actor)
    victim = entries[2]
    out, stop = [], threading.Event()
    reader = threading.Thread(target=read_events, args=(live_stack["base"], f"/p/{victim.phone_token}/stream/", 2, out, stop))
    reader.start()
    deadline = time.monotonic() + 10
    while not any(o[0] == "state" for o in out) and time.monotonic() < deadline:
        time.sleep(0.02)
    first = next(o for o in out if o[0] == "state")[1]
    assert first["entry"]["status"] == "ACTIVE" and first["seat"] and first["players_left"] == 4
    assert "seats" not in first and "moves" not in first
    acted = time.monotonic()
    seating.record_bust(t, [victim], actor=actor)
    reader.join(10)
    stop.set()
    states = [o for o in out if o[0] == "state"]
    assert len(states) == 2, out
    second, at = states[1][1], states[1][2]
    assert second["entry"]["status"] == "BUSTED" and second["entry"]["place"] == 4 and second["seat"] is None
    assert second["players_left"] == 3 and "seats" not in second
    assert at - acted < 1.0
    assert httpx.get(live_stack["base"] + "/p/not-a-token/stream/").status_code == 404
