"""PEN-05 at its edges: a time suspension runs on its own event's clock, not another's; paused
half a second before its end it keeps that half second; paused at its very end it is served;
a suspension lifted stays lifted whatever the clock does; reading one event's penalties
changes nothing of another's."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.floor import selectors as floor_selectors
from tournaments.floor import services as floor
from tournaments.models import Penalty, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_events(make_tournament, make_person, cashier_actor):
    """Two Sanremo events playing side by side, a player in each."""
    events = []
    for name in ("Main event", "Side event"):
        t = make_tournament(name=name, status=Tournament.RUNNING, rule_set="SANREMO_003")
        events.append((t, cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry))
    return events


def _suspend(t, entry, actor, now, minutes=10):
    return floor.issue_penalty(t, entry, kind="TIME_SUSPENSION", reason_code="LATE_SEAT_TAKING", minutes=minutes, actor=actor, now=now)


def test_a_suspension_runs_on_its_own_events_clock_and_not_on_another_one(two_events, actor):
    """The side event's clock runs; the main event's has not started: a 10-minute suspension
    given in the main event waits with its 600 seconds. Its own clock starts: it ends 10 minutes
    later, and pausing the side event's clock leaves it running."""
    (main, player), (side, _) = two_events
    t0 = timezone.now()
    clock_services.start_clock(side, actor=actor, now=t0)
    p = _suspend(main, player, actor, t0)
    assert (p.ends_at, p.seconds_left, p.status) == (None, 600, Penalty.ACTIVE)
    clock_services.start_clock(main, actor=actor, now=t0 + timedelta(minutes=1))
    p.refresh_from_db()
    assert (p.ends_at, p.seconds_left) == (t0 + timedelta(minutes=11), None)
    clock_services.pause(side, actor=actor, now=t0 + timedelta(minutes=2))
    p.refresh_from_db()
    assert (p.ends_at, p.seconds_left, p.status) == (t0 + timedelta(minutes=11), None, Penalty.ACTIVE)


def test_a_suspension_paused_half_a_second_before_its_end_keeps_that_half_second(two_events, actor):
    """Paused with 0.5 s left, the suspension is still on (the floor sees 0:00 left, clock
    paused) and, the clock running again a minute later, ends half a second after."""
    (main, player), _ = two_events
    t0 = timezone.now()
    clock_services.start_clock(main, actor=actor, now=t0)
    p = _suspend(main, player, actor, t0)
    paused_at = t0 + timedelta(minutes=9, seconds=59.5)
    clock_services.pause(main, actor=actor, now=paused_at)
    p.refresh_from_db()
    assert (p.ends_at, p.seconds_left, p.status) == (None, 0.5, Penalty.ACTIVE)
    assert floor_selectors.penalty_progress(p, now=paused_at)["label"] == "Time suspension: 0:00 left · clock paused"
    resumed_at = paused_at + timedelta(minutes=1)
    clock_services.resume(main, actor=actor, now=resumed_at)
    p.refresh_from_db()
    assert (p.ends_at, p.seconds_left, p.status) == (resumed_at + timedelta(seconds=0.5), None, Penalty.ACTIVE)


def test_a_suspension_paused_at_its_very_end_is_served(two_events, actor):
    (main, player), _ = two_events
    t0 = timezone.now()
    clock_services.start_clock(main, actor=actor, now=t0)
    p = _suspend(main, player, actor, t0)
    clock_services.pause(main, actor=actor, now=t0 + timedelta(minutes=10))
    p.refresh_from_db()
    assert (p.ends_at, p.seconds_left, p.status) == (None, 0, Penalty.SERVED)
    clock_services.resume(main, actor=actor, now=t0 + timedelta(minutes=12))
    p.refresh_from_db()
    assert (p.ends_at, p.seconds_left, p.status) == (None, 0, Penalty.SERVED)


def test_a_lifted_suspension_stays_lifted_and_one_events_list_leaves_the_others_alone(two_events, actor, api, floor_user):
    """The main event's suspension is lifted after two minutes; the side event's runs out. Past
    both ends, the main event's clock pauses and its penalties are listed: the lifted one stays
    lifted, with the end it had; the side event's, not listed yet, is untouched until its own
    list is read."""
    (main, player), (side, other) = two_events
    t0 = timezone.now() - timedelta(minutes=30)
    clock_services.start_clock(main, actor=actor, now=t0)
    clock_services.start_clock(side, actor=actor, now=t0)
    lifted = _suspend(main, player, actor, t0)
    floor.cancel_penalty(lifted, actor=actor, reason="seated after all")
    ran_out = _suspend(side, other, actor, t0)
    clock_services.pause(main, actor=actor, now=t0 + timedelta(minutes=15))
    assert list(floor.active_penalties(main)) == []
    lifted.refresh_from_db()
    assert (lifted.status, lifted.ends_at, lifted.seconds_left) == (Penalty.CANCELLED, t0 + timedelta(minutes=10), None)
    ran_out.refresh_from_db()
    assert ran_out.status == Penalty.ACTIVE
    assert api(floor_user).get(f"/api/v1/tournaments/{side.pk}/floor/penalties/").json() == []
    ran_out.refresh_from_db()
    assert ran_out.status == Penalty.SERVED
