"""Fault test: the Celery worker dies in the middle of a level and comes back after the level
should have ended. The display shows the right time throughout (it is derived from the clock
row), and the level changes within two seconds of the worker's return (the beat sweep)."""

import time

import httpx
import pytest

from tests.servers import live_stack, start_worker, stop  # noqa: F401 (fixture)
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.models import Clock
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_restarted_worker_changes_the_overdue_level(live_stack, make_tournament, make_person, director):
    actor = Actor(director, "test")
    t = make_tournament(name="Fault Test")
    for _ in range(2):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor)
    worker, _ready = start_worker(live_stack["env"])
    clock_services.start_clock(t, actor=actor)
    clock_services.set_time_left(t, 4, actor=actor, reason="fault test")
    # The worker is up: the countdown its sweep arms changes the level (generous: the wait ends on
    # the change; how soon is docs/benchmarks.md's clock figure, not this test's).
    deadline = time.monotonic() + 30
    while Clock.objects.get(tournament=t).item_index != 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert Clock.objects.get(tournament=t).item_index == 1, "the countdown task did not change the level"

    # Now the worker dies in the middle of level 2, with 3 seconds left.
    clock_services.set_time_left(t, 3, actor=actor, reason="fault test")
    stop(worker, sig_kill=True)
    state_url = live_stack["base"] + f"/live/{t.pk}/state/"
    with httpx.Client() as client:
        client.get(live_stack["base"] + "/login/")
        from tournaments.models import DisplayScreen

        DisplayScreen.objects.create(name="TV", tournament=t, token="fault-tv")
        levels = []
        deadline = time.monotonic() + 60  # generous: the watch ends when the display shows level 3
        while time.monotonic() < deadline and (not levels or levels[-1] != 3):
            snap = client.get(state_url, params={"token": "fault-tv"}).json()
            levels.append(snap["clock"]["level_number"])
            time.sleep(0.25)
        row = Clock.objects.get(tournament=t)
        assert row.item_index == 1, "nothing should have written the row while the worker was down"
        # ...yet the display already shows level 3, derived from the row: its full time less
        # what has passed since level 2 ended.
        assert snap["clock"]["level_number"] == 3 and 0 < snap["clock"]["seconds_left"] <= 20 * 60
        assert levels == sorted(levels) and levels[0] == 2 and levels[-1] == 3

    worker, ready_at = start_worker(live_stack["env"])
    try:
        while Clock.objects.get(tournament=t).item_index != 2 and time.monotonic() < ready_at + 60:  # generous: ends on the change
            time.sleep(0.05)
        row = Clock.objects.get(tournament=t)
        assert row.item_index == 2, "the sweep did not recover the missed transition"
        assert row.version > 1 and t.events.filter(action="tournaments.clock.level_started", payload__level=3).exists()
    finally:
        stop(worker)
