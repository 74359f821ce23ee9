"""The clock actions a state allows (``clock.allowed_actions``, in every snapshot as
``clock.actions``): what the clock page offers, and exactly what the engine then accepts."""

from datetime import UTC, datetime

import pytest

from tournaments.clock import rules as clock_rules

ITEMS = [
    clock_rules.Level(small_blind=100, big_blind=200, minutes=20),
    clock_rules.Break(minutes=10),
    clock_rules.Level(small_blind=200, big_blind=400, minutes=20),
]
NOW = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def states():
    fresh = clock_rules.new_clock(ITEMS)
    running = clock_rules.start(fresh, ITEMS, NOW)
    return {
        "not started": fresh,
        "running": running,
        "paused": clock_rules.pause(running, ITEMS, NOW),
        "hand-for-hand": clock_rules.start_hand_for_hand(running, ITEMS, NOW),
        "finished": clock_rules.finish(running, ITEMS, NOW),
    }


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("not started", ["start", "add-time", "set-time", "jump", "insert-break", "finish"]),
        ("running", ["pause", "add-time", "set-time", "jump", "insert-break", "hand-for-hand", "finish"]),
        ("paused", ["resume", "add-time", "set-time", "jump", "insert-break", "hand-for-hand", "finish"]),
        ("hand-for-hand", ["add-time", "set-time", "jump", "next-hand", "end-hand-for-hand", "finish"]),
        ("finished", []),
    ],
)
def test_each_state_allows_what_a_director_may_do_then(name, expected):
    state = states()[name]
    assert clock_rules.allowed_actions(state, ITEMS, NOW) == expected
    assert clock_rules.snapshot(state, ITEMS, NOW)["actions"] == expected
