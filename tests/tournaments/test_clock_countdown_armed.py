"""CLK-03: a new level starts when the clock reaches zero. The task that moves it is armed when
the level's end comes within five minutes (not before: the broker would keep it an hour), once
per clock version, with a marker that outlives the window by a minute; armed half a second
before the end, it goes half a second later."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from tdmanager import realtime
from tournaments import tasks
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.models import BlindStructure, Clock, StructureItem, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0) + timedelta(days=1)


class Markers:
    """The Redis calls arming makes (SET NX EX), in memory, each kept with its expiry."""

    def __init__(self):
        self.expiry = {}

    def set(self, key, value, nx=False, ex=None):
        if nx and key in self.expiry:
            return None
        self.expiry[key] = ex
        return True

    def armed(self):
        """The countdowns' markers (the players' announcements keep markers of their own)."""
        return {key: ex for key, ex in self.expiry.items() if ":armed:" in key}

    def hincrby(self, key, field, amount=1):
        return amount

    def publish(self, channel, message):
        return 0


@pytest.fixture
def armed(settings, monkeypatch, make_tournament, make_person, actor, cashier_actor):
    settings.REDIS_URL, settings.TDM_ARM_CLOCK_TASKS = "redis://127.0.0.1:1/0", True
    markers = Markers()
    monkeypatch.setattr(realtime.bus, "_client", markers)
    sent = []
    monkeypatch.setattr(tasks.clock_tick, "apply_async", lambda args, kwargs=None, countdown=None: sent.append((tuple(args), countdown)))
    t = make_tournament()
    for _ in range(3):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor)
    return t, markers, sent


def version(t):
    return Clock.objects.get(tournament=t).version


def test_a_levels_end_is_armed_once_it_is_five_minutes_away(armed, actor, settings, django_capture_on_commit_callbacks):
    t, markers, sent = armed
    with time_machine.travel(T0, tick=False), django_capture_on_commit_callbacks(execute=True):
        clock_services.start_clock(t, actor=actor, now=T0)  # level 1's 20 minutes: too far
        clock_services.set_time_left(t, 301, actor=actor, now=T0)
    assert sent == [] and markers.armed() == {}
    with time_machine.travel(T0, tick=False), django_capture_on_commit_callbacks(execute=True):
        clock_services.set_time_left(t, 300, actor=actor, now=T0)
    v = version(t)
    assert sent == [((t.pk, v), 300.0)]
    assert markers.armed() == {f"{settings.TDM_NAMESPACE}:armed:{t.pk}:{v}": 360}


def test_a_countdown_armed_half_a_second_before_the_end_goes_half_a_second_later(armed, actor, django_capture_on_commit_callbacks):
    """The director sets one minute left; the commit's countdown is armed (a slow commit) with
    half a second of that minute left: it is sent to go in half a second, not a second."""
    t, _markers, sent = armed
    with time_machine.travel(T0, tick=False), django_capture_on_commit_callbacks() as callbacks:
        clock_services.start_clock(t, actor=actor, now=T0)
        clock_services.set_time_left(t, 60, actor=actor, now=T0)
    with time_machine.travel(T0 + timedelta(seconds=59.5), tick=False):
        for callback in callbacks:
            callback()
    assert sent == [((t.pk, version(t)), 0.5)]


def test_a_level_the_sweep_moves_is_logged_as_the_systems_from_the_worker(armed, actor):
    """No countdown ran (a worker down): the beat's sweep moves level 1 on after its 20 minutes,
    and the log says who did it: no one, from the worker (celery)."""
    t, _markers, _sent = armed
    clock_services.start_clock(t, actor=actor, now=T0)
    assert clock_services.sweep(now=T0 + timedelta(minutes=21)) == 1
    started = t.events.get(action="tournaments.clock.level_started", payload__level=2)
    assert (started.actor_id, started.actor_label, started.device) == (None, "system", "celery")


def test_the_countdown_moves_the_level_and_arms_the_next_one_and_an_early_one_arms_nothing(
    settings, monkeypatch, make_tournament, actor, django_capture_on_commit_callbacks
):
    """Levels of 5 and 4 minutes: level 1's end is armed at the start (300 s). A countdown that
    comes a minute early changes nothing and arms nothing more; the one at the end starts level 2
    and arms its end, 240 s later."""
    settings.REDIS_URL, settings.TDM_ARM_CLOCK_TASKS = "redis://127.0.0.1:1/0", True
    monkeypatch.setattr(realtime.bus, "_client", Markers())
    sent = []
    monkeypatch.setattr(tasks.clock_tick, "apply_async", lambda args, kwargs=None, countdown=None: sent.append((tuple(args), countdown)))
    st = BlindStructure.objects.create(name="Turbo", is_template=False)
    for position, minutes in enumerate((5, 4, 4)):
        StructureItem.objects.create(structure=st, position=position, small_blind=100 * (position + 1), big_blind=200 * (position + 1), minutes=minutes)
    t = make_tournament(status=Tournament.RUNNING, structure=st)
    with time_machine.travel(T0, tick=False), django_capture_on_commit_callbacks(execute=True):
        clock_services.start_clock(t, actor=actor, now=T0)
    v = version(t)
    assert sent == [((t.pk, v), 300.0)]
    early = T0 + timedelta(minutes=4)
    with time_machine.travel(early, tick=False), django_capture_on_commit_callbacks(execute=True):
        assert clock_services.advance_clock(t.pk, expected_version=v, now=early) is False
    assert sent == [((t.pk, v), 300.0)]
    end = T0 + timedelta(minutes=5)
    with time_machine.travel(end, tick=False), django_capture_on_commit_callbacks(execute=True):
        assert clock_services.advance_clock(t.pk, expected_version=v, now=end) is True
    assert sent == [((t.pk, v), 300.0), ((t.pk, version(t)), 240.0)]


def test_the_sweep_moves_every_overdue_clock_each_its_own(make_tournament, actor):
    """Three events, the first without a clock yet; the other two started together and no
    countdown ran for 21 minutes: the sweep moves both past their 20-minute level 1 and counts two."""
    make_tournament(name="Tomorrow's event")
    late = [make_tournament(name=name, status=Tournament.RUNNING) for name in ("Main event", "Side event")]
    for t in reversed(late):  # each clock's row number differs from its event's
        clock_services.start_clock(t, actor=actor, now=T0)
    assert clock_services.sweep(now=T0 + timedelta(minutes=21)) == 2
    assert [Clock.objects.get(tournament=t).item_index for t in late] == [1, 1]
