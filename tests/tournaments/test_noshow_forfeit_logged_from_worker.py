"""REG-09 FORFEIT_AT by the clock: the players not arrived, forfeited by the beat's sweep once
the grace is over, are logged as the system's, from the worker (celery)."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from tournaments import tasks
from tournaments.cashier import services as cashier
from tournaments.cashier.services import registration
from tournaments.clock import services as clock_services
from tournaments.eventlog.actions import Action
from tournaments.models import Clock
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0) + timedelta(days=1)


def test_the_sweeps_forfeit_is_logged_from_the_worker(make_tournament, make_person, cashier_actor, actor):
    """Level 1 of 20 minutes, 5 of grace: four of six checked in. The countdown starts level 2 on
    time; the sweep, 25 minutes and a second after the start (inside level 2), forfeits the
    other two, in the system's name, from the worker."""
    t = make_tournament(settings={"no_show_policy": "FORFEIT_AT", "no_show_level": 1, "no_show_grace_minutes": 5, "check_in_used": True})
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(6)]
    for e in entries[:4]:
        registration.check_in(e, actor=cashier_actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor, now=T0)
    with time_machine.travel(T0 + timedelta(minutes=20, seconds=1), tick=False):
        tasks.clock_tick(t.pk, Clock.objects.get(tournament=t).version)
    assert not t.events.filter(action=Action.CASHIER_NO_SHOWS_FORFEITED).exists()
    with time_machine.travel(T0 + timedelta(minutes=25, seconds=1), tick=False):
        tasks.sweep_clocks()
    ev = t.events.get(action=Action.CASHIER_NO_SHOWS_FORFEITED)
    assert (ev.actor_id, ev.actor_label, ev.device) == (None, "system", "celery")
    assert sorted(x["entry"] for x in ev.payload["entries"]) == sorted(e.pk for e in entries[4:])
