"""CLK-06: two events in hand-for-hand side by side, with tables of the same numbers: each
event's tables still playing and holding an all-in are its own, and only of the hand in play."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0) + timedelta(days=1)


@pytest.fixture
def two_in_h4h(make_tournament, make_person, actor, cashier_actor):
    """Two events of 20 players at three 9-max tables each, both in hand-for-hand."""
    events = []
    for name in ("Main event", "Side event"):
        t = make_tournament(name=name)
        for _ in range(20):
            cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
        lifecycle.start(t, actor=actor)
        clock_services.start_clock(t, actor=actor, now=T0)
        clock_services.start_hand_for_hand(t, actor=actor, now=T0 + timedelta(minutes=2))
        events.append(t)
    return events


def test_each_events_tables_are_its_own_and_of_the_hand_in_play(two_in_h4h, api, floor_user, actor):
    main, side = two_in_h4h

    def state(t, table, value):
        r = api(floor_user).post(f"/api/v1/tournaments/{t.pk}/tables/{table}/h4h-state/", {"state": value}, format="json")
        assert r.status_code == 200, r.data
        return r.data["hand_for_hand"]

    state(side, 2, "ALL_IN_HOLD")
    state(side, 1, "COMPLETE")
    assert (state(main, 3, "IN_HAND")["holding"], state(main, 3, "IN_HAND")["waiting"]) == ([], [1, 2, 3])
    state(main, 2, "ALL_IN_HOLD")
    clock_services.h4h_next_hand(main, actor=actor)  # the director moves on with table 2's cards still down
    now = state(main, 3, "IN_HAND")
    assert (now["hand"], now["holding"], now["waiting"]) == (2, [], [1, 2, 3])
