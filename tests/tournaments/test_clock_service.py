"""Clock services, the Celery tick and sweep, and the rule effects at level boundaries."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.live.snapshot import build_snapshot, clock_snapshot
from tournaments.models import Clock, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0) + timedelta(days=1)


@pytest.fixture
def running(make_tournament, make_person, actor, cashier_actor):
    t = make_tournament(
        late_reg_closes_after_level=3, addon_price=5, addon_chips=10000, addon_after_level=4, format=Tournament.REENTRY, max_entries_per_player=2
    )
    for _ in range(3):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor)
    return t


def clock_of(t):
    return Clock.objects.get(tournament=t)


def test_starting_the_tournament_copies_its_structure(running, structure):
    running.refresh_from_db()
    assert running.structure_id != structure.pk and running.structure.is_template is False
    assert running.structure.items.count() == structure.items.count()


def test_every_action_bumps_the_version_and_is_logged_with_actor_and_reason(running, actor):
    clock_services.start_clock(running, actor=actor, now=T0)
    v1 = clock_of(running).version
    clock_services.pause(running, actor=actor, reason="dealer change", now=T0 + timedelta(seconds=30))
    c = clock_of(running)
    assert c.version == v1 + 1 and c.status == Clock.PAUSED and c.remaining == 20 * 60 - 30
    ev = running.events.filter(action="tournaments.clock.paused").get()
    assert ev.actor == actor.user and ev.payload["reason"] == "dealer change"
    clock_services.add_time(running, 60, actor=actor, now=T0 + timedelta(minutes=5))
    assert clock_of(running).remaining == 20 * 60 - 30 + 60
    # Every other action the same way: one version more, one row with who and why.
    later = T0 + timedelta(minutes=6)
    steps = [
        ("resumed", lambda why: clock_services.resume(running, actor=actor, reason=why, now=later)),
        ("time_added", lambda why: clock_services.add_time(running, -30, actor=actor, reason=why, now=later)),
        ("time_set", lambda why: clock_services.set_time_left(running, 300, actor=actor, reason=why, now=later)),
        ("jumped", lambda why: clock_services.jump_to(running, 2, actor=actor, reason=why, now=later)),
        ("break_inserted", lambda why: clock_services.insert_break(running, 10, actor=actor, reason=why, now=later)),
        ("finished", lambda why: clock_services.finish_clock(running, actor=actor, reason=why, now=later)),
    ]
    for action, act in steps:
        before, logged = clock_of(running).version, running.events.filter(action=f"tournaments.clock.{action}").count()
        act(f"why {action}")
        assert clock_of(running).version == before + 1, action
        rows = running.events.filter(action=f"tournaments.clock.{action}").order_by("pk")
        assert rows.count() == logged + 1, action
        assert (rows.last().actor, rows.last().payload["reason"]) == (actor.user, f"why {action}"), action


def test_a_refused_action_is_a_clear_error_and_changes_nothing(running, actor):
    with pytest.raises(DomainError) as e:
        clock_services.pause(running, actor=actor, now=T0)
    assert e.value.code == "not_running"
    clock_services.start_clock(running, actor=actor, now=T0)
    with pytest.raises(DomainError) as e:
        clock_services.set_time_left(running, 0, actor=actor, now=T0)
    assert e.value.code == "bad_time"
    assert clock_of(running).status == Clock.RUNNING


def test_the_tick_with_a_stale_version_does_nothing(running, actor):
    clock_services.start_clock(running, actor=actor, now=T0)
    stale = clock_of(running).version
    clock_services.add_time(running, 30, actor=actor, now=T0)
    assert clock_services.advance_clock(running.pk, expected_version=stale, now=T0 + timedelta(minutes=25)) is False
    assert clock_of(running).item_index == 0


def test_the_tick_moves_the_level_and_carries_the_overshoot(running, actor):
    clock_services.start_clock(running, actor=actor, now=T0)
    v = clock_of(running).version
    # The worker runs 3 s late: level 2 still ends exactly 20 minutes after level 1 ended.
    assert clock_services.advance_clock(running.pk, expected_version=v, now=T0 + timedelta(minutes=20, seconds=3))
    c = clock_of(running)
    assert c.item_index == 1 and c.ends_at == T0 + timedelta(minutes=40)
    assert running.events.filter(action="tournaments.clock.level_started", payload__level=2).exists()


def test_the_sweep_recovers_every_missed_transition(running, actor):
    clock_services.start_clock(running, actor=actor, now=T0)
    # No task ran for 65 minutes (worker down): three levels ended.
    assert clock_services.sweep(now=T0 + timedelta(minutes=65)) == 1
    c = clock_of(running)
    assert c.item_index == 3 and c.ends_at == T0 + timedelta(minutes=80)
    assert running.events.filter(action="tournaments.late_registration.closed", payload__after_level=3).exists()


class MarkerRedis:
    """The few Redis calls arming a countdown makes (SET NX, HINCRBY, PUBLISH), in memory."""

    def __init__(self):
        self.keys = set()

    def set(self, key, value, nx=False, ex=None):
        if nx and key in self.keys:
            return None
        self.keys.add(key)
        return True

    def hincrby(self, key, field, amount=1):
        return amount

    def publish(self, channel, message):
        return 0


def test_a_starting_worker_arms_again_the_countdown_a_killed_worker_took_along(running, actor, settings, monkeypatch, django_capture_on_commit_callbacks):
    """A level's end is armed once per clock version (a marker in Redis). A worker killed while
    holding that countdown takes it along (the broker gives it back after an hour), and the beat's
    sweep does not arm it again: the level would change only once the sweep finds it overdue.
    A worker that starts arms it anew, so the level changes on time."""
    from celery.signals import worker_ready

    from tdmanager import realtime
    from tournaments import tasks

    settings.REDIS_URL, settings.TDM_ARM_CLOCK_TASKS = "redis://127.0.0.1:1/0", True
    redis = MarkerRedis()
    monkeypatch.setattr(realtime.bus, "_client", redis)
    armed = []
    # The clock arms the task by its name; the name leads to this task.
    monkeypatch.setattr(tasks.clock_tick, "apply_async", lambda args, kwargs=None, countdown=None: armed.append((tuple(args), round(countdown))))
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        clock_services.start_clock(running, actor=actor, now=now)
        clock_services.set_time_left(running, 60, actor=actor, now=now)
    version = clock_of(running).version
    assert armed == [((running.pk, version), 60)]  # the countdown of this level's end

    clock_services.sweep(now=now + timedelta(seconds=10))  # the worker holding it was killed: the beat sweeps
    assert len(armed) == 1

    sent = []
    monkeypatch.setattr(tasks.catch_up_clocks, "apply_async", lambda **kw: sent.append(kw))
    worker_ready.send(sender=None)  # a worker starts: it sends itself the catch-up, first thing
    assert len(sent) == 1
    clock_services.catch_up(now=now + timedelta(seconds=10))  # which the worker runs
    assert armed[1:] == [((running.pk, version), 50)]  # the countdown, armed again for the same end


def test_the_beats_backlog_never_holds_up_a_countdown_or_a_returning_workers_catch_up(settings):
    """A beat that ran while no worker did leaves its periodic tasks queued: they go out at the
    lowest priority (on Redis, 9; 0 is the default and the highest), so the countdowns and the
    catch-up (default priority) are served first; stale clock sweeps are dropped."""
    from tournaments import tasks

    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        assert entry.get("options", {}).get("priority") == 9, name
    assert settings.CELERY_BEAT_SCHEDULE["sweep-clocks"]["options"]["expires"] <= 10
    assert tasks.clock_tick.priority in (None, 0) and tasks.catch_up_clocks.priority in (None, 0)


def test_late_registration_closes_with_its_level_on_the_clock(running, actor, make_person, cashier_actor):
    clock_services.start_clock(running, actor=actor, now=T0)
    with time_machine.travel(T0 + timedelta(minutes=59, seconds=50), tick=False):
        assert cashier.register(running, make_person(), method="CASH", actor=cashier_actor).entry.is_late
        assert build_snapshot(running)["late_registration_open"] is True
    with time_machine.travel(T0 + timedelta(minutes=60, seconds=1), tick=False):
        with pytest.raises(DomainError) as e:
            cashier.register(running, make_person(), method="CASH", actor=cashier_actor)
        assert e.value.code == "late_registration_closed"
        assert build_snapshot(running)["late_registration_open"] is False


def test_the_addon_window_opens_and_closes_with_its_break(running, actor):
    clock_services.start_clock(running, actor=actor, now=T0)
    clock_services.sweep(now=T0 + timedelta(minutes=81))  # level 4 ended: the break after level 4
    assert running.events.filter(action="tournaments.addon.opened").exists()
    with time_machine.travel(T0 + timedelta(minutes=81), tick=False):
        assert build_snapshot(running)["addon_open"] is True
    clock_services.sweep(now=T0 + timedelta(minutes=96))
    assert running.events.filter(action="tournaments.addon.closed").exists()


def test_a_scheduled_color_up_is_announced_at_its_break(running, actor):
    clock_services.start_clock(running, actor=actor, now=T0)
    clock_services.sweep(now=T0 + timedelta(hours=3))
    # The shipped structure says which chips leave (issue #14): no English note, the chips.
    chips = list(running.events.filter(action="tournaments.colorup.announced").values_list("payload__denominations", flat=True))
    assert chips and chips[0] == [100]


def test_an_inserted_break_resumes_the_level_with_its_time(running, actor):
    clock_services.start_clock(running, actor=actor, now=T0)
    clock_services.insert_break(running, 10, actor=actor, reason="TV final table", now=T0 + timedelta(minutes=5))
    snap = build_snapshot(running, now=T0 + timedelta(minutes=5))["clock"]
    assert snap["is_break"] and snap["seconds_left"] == 600 and snap["level_number"] == 1
    clock_services.sweep(now=T0 + timedelta(minutes=15, seconds=1))
    snap = build_snapshot(running, now=T0 + timedelta(minutes=15, seconds=1))["clock"]
    assert not snap["is_break"] and snap["level_number"] == 1 and 14 * 60 < snap["seconds_left"] <= 15 * 60


def test_hand_for_hand_takes_two_minutes_per_hand_when_every_table_reports(running, actor, monkeypatch):
    # RULES scenario 1: 17:30 at the announcement → 15:30 → 13:30.
    from seating import selectors

    monkeypatch.setattr(selectors, "table_numbers", lambda t: [1, 2])
    clock_services.start_clock(running, actor=actor, now=T0)
    clock_services.start_hand_for_hand(running, actor=actor, now=T0 + timedelta(minutes=2, seconds=30))
    assert clock_of(running).remaining == 17 * 60 + 30
    r = clock_services.report_hand_complete(running, 1, actor=actor)
    assert r == {"hand": 1, "waiting": [2], "next_hand_started": False, "hand_for_hand_ended": False}
    assert clock_of(running).remaining == 17 * 60 + 30  # frozen: no real-time countdown
    r = clock_services.report_hand_complete(running, 2, actor=actor)
    assert r["next_hand_started"] and clock_of(running).remaining == 15 * 60 + 30 and clock_of(running).h4h_hand == 2
    for table in (1, 2):
        clock_services.report_hand_complete(running, table, actor=actor)
    assert clock_of(running).remaining == 13 * 60 + 30
    with pytest.raises(DomainError) as e:
        clock_services.report_hand_complete(running, 9, actor=actor)
    assert e.value.code == "unknown_table"


def test_hand_for_hand_announced_at_ninety_seconds_a_hand_takes_ninety_seconds_off(running, actor, monkeypatch):
    from seating import selectors

    monkeypatch.setattr(selectors, "table_numbers", lambda t: [1, 2])
    clock_services.start_clock(running, actor=actor, now=T0)
    clock_services.start_hand_for_hand(running, actor=actor, seconds_per_hand=90, now=T0 + timedelta(minutes=2, seconds=30))
    for table in (1, 2):
        clock_services.report_hand_complete(running, table, actor=actor)
    assert (clock_of(running).remaining, clock_of(running).h4h_hand) == (16 * 60, 2)  # 17:30 less 1:30


def test_the_clock_api_checks_roles(api, director, floor_user, cashier_user, running):
    assert api(cashier_user).post(f"/api/v1/tournaments/{running.pk}/clock/start/").status_code == 403
    assert api(floor_user).post(f"/api/v1/tournaments/{running.pk}/clock/start/").status_code == 403
    r = api(director).post(f"/api/v1/tournaments/{running.pk}/clock/start/")
    assert r.status_code == 200 and r.data["clock"]["status"] == "RUNNING" and r.data["clock"]["level_number"] == 1
    r = api(director).post(f"/api/v1/tournaments/{running.pk}/clock/set-time/", {}, format="json")
    assert r.status_code == 400 and r.data["code"] == "missing_field"
    assert api(floor_user).get(f"/api/v1/tournaments/{running.pk}/clock/").data["clock"]["status"] == "RUNNING"


@pytest.mark.django_db(transaction=True)  # the hub hears of a change when it commits
def test_what_a_display_holds_after_a_sequence_of_actions_equals_a_snapshot_built_from_scratch(settings, make_tournament, make_person, actor, cashier_actor):
    """Zulip's habit: apply the stream of pushed states and the screen ends where a snapshot
    rebuilt from the database stands. A real hub in its own event loop, a real client queue:
    sales, the start (the seat draw), the clock started, paused and resumed, time added, a bust."""
    import asyncio
    import json
    import threading

    from seating import services as seating
    from tdmanager import realtime

    settings.REDIS_URL = ""  # the hub's in-process path: it hears the services directly
    listeners = list(realtime.changes._local_listeners)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    hub = realtime.Hub()
    hub.snapshot_builder = build_snapshot
    t = make_tournament()

    async def connect():
        return await hub.connect(t.pk)

    queue = asyncio.run_coroutine_threadsafe(connect(), loop).result(timeout=10)
    held = None

    def settle():
        """Read what the screen receives until it shows the last logged change."""
        nonlocal held
        last = t.events.order_by("-id").values_list("id", flat=True).first()
        while held is None or held["seq"] != last:
            text = asyncio.run_coroutine_threadsafe(asyncio.wait_for(queue.get(), 20), loop).result(timeout=30)
            if text is not realtime.KEEPALIVE:  # the hub's heartbeat, every 15 s: not a state
                held = json.loads(text)

    try:
        with time_machine.travel(T0, tick=False):
            people = [make_person() for _ in range(12)]
            for p in people:
                cashier.register(t, p, method="CASH", actor=cashier_actor)
            settle()
            lifecycle.start(t, actor=actor)
            clock_services.start_clock(t, actor=actor)
            settle()
            assert held["clock"]["status"] == "RUNNING" and held["players_left"] == 12
            clock_services.pause(t, actor=actor, reason="dealer change")
            clock_services.add_time(t, 60, actor=actor, reason="late start")
            clock_services.resume(t, actor=actor, reason="back")
            out = t.entries.get(person=people[0])
            seating.record_bust(t, [{"entry": out.pk}], actor=actor)
            settle()
            fresh = json.loads(json.dumps(build_snapshot(Tournament.objects.get(pk=t.pk)), default=str))
    finally:

        async def drain():  # let the builds still queued finish before the loop stops (the heartbeat never does)
            hub.stop_heartbeat()
            await asyncio.gather(*(task for task in asyncio.all_tasks() if task is not asyncio.current_task()), return_exceptions=True)

        asyncio.run_coroutine_threadsafe(drain(), loop).result(timeout=60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()
        realtime.changes._local_listeners[:] = listeners
    assert held == fresh
    assert held["players_left"] == 11 and held["clock"]["status"] == "RUNNING"


def test_calling_the_clock_uses_the_preset_and_is_logged(api, floor_user, running):
    # RULES scenario 33: TDA 25 + 5 s; Sanremo 60 + 10 s, dead hand.
    r = api(floor_user).post(f"/api/v1/tournaments/{running.pk}/clock/call-clock/", {"table": 3, "preset": "TDA", "player": "seat 4"}, format="json")
    assert r.status_code == 200 and (r.data["seconds"], r.data["countdown"]) == (25, 5)
    assert "facing a bet" in r.data["outcome"]
    r = api(floor_user).post(f"/api/v1/tournaments/{running.pk}/clock/call-clock/", {"table": 3, "preset": "SANREMO"}, format="json")
    assert (r.data["seconds"], r.data["countdown"]) == (60, 10) and "dead hand" in r.data["outcome"]
    # CLK-10: a call never sets its own time (the director sets a player's: tests/tournaments/test_clock_call.py)
    r = api(floor_user).post(f"/api/v1/tournaments/{running.pk}/clock/call-clock/", {"table": 3, "preset": "HEADS_UP", "seconds": 5}, format="json")
    assert r.status_code == 400 and r.data["code"] == "clock_call_time_per_player"
    assert running.events.filter(action="tournaments.clock.called", payload__table=3).count() == 2


def test_the_clock_page_renders_for_floor_and_director(client, floor_user, director, running):
    client.force_login(floor_user)
    r = client.get(f"/tournaments/{running.pk}/clock/")
    assert r.status_code == 200 and b"Hand-for-hand tables" in r.content and b"Announce hand-for-hand" not in r.content
    client.force_login(director)
    assert b"Announce hand-for-hand" in client.get(f"/tournaments/{running.pk}/clock/").content


def test_clk05_the_clock_page_is_told_to_hold_the_push_in_the_last_90_seconds_of_a_level(make_tournament, actor, client, director):
    """The shipped structure's level 1 lasts 20 minutes: the staff's clock page reads "hold the
    dealer push" from 18:30 into it (a minute and a half before level 2), not at 18:29."""
    t = make_tournament()
    clock_services.start_clock(t, actor=actor, now=T0)
    assert clock_snapshot(t, now=T0 + timedelta(minutes=18, seconds=29))["hold_dealer_push"] is False
    assert clock_snapshot(t, now=T0 + timedelta(minutes=18, seconds=30))["hold_dealer_push"] is True
    client.force_login(director)
    assert "Hold the dealer push" in client.get(f"/tournaments/{t.pk}/clock/").content.decode()
