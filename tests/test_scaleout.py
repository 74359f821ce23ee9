"""Scale-out, proven with real processes (issue #15): two web processes, one Celery worker and one
beat, on PostgreSQL and Redis, as docs/operating.md ("Scaling out") deploys them.

- A director's change made through one web process reaches a lobby screen connected to the other.
- The worker is killed (SIGKILL) in the middle of a level, holding the countdown of its end, and
  comes back after the level should have ended: while it is down every screen shows the right
  time (the countdown counts to the level's end, then the next level with its full time, derived
  from the clock row, which nothing writes meanwhile); the level changes within 2 s of the
  restarted worker being ready, both moments taken from the processes' own records (the worker's
  "ready." log line, the event log row of the level change), and the screens' countdown does not
  jump when it does.
- A phone subscribed through one web process hears an announcement made through the other,
  sent by the worker started without ``-Q`` (the notices' own queue is among those it serves).
- A web process a slow network hop from Redis subscribes again after a blip, and the director
  acts the moment it has built its screens' state anew: the screens of both processes show it.

On SQLite it is skipped: SQLite is for one machine and one web process.
"""

import queue
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
import pytest
from django.conf import settings
from django.utils import timezone

from tests.pushservice import Phone, PushService
from tests.servers import (
    ROOT,
    SCALED_OUT,
    EmbeddedRedis,
    SlowSubscriptions,
    database_env,
    sse_states,
    start_beat,
    start_web,
    start_worker,
    stop,
    wait_for,
)
from tournaments.cashier import services as cashier
from tournaments.clock import rules as clock_rules
from tournaments.clock import services as clock_services
from tournaments.clock.selectors import structure_items
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor
from tournaments.models import Clock, DisplayScreen, TournamentEvent
from tournaments.setup import lifecycle

pytestmark = SCALED_OUT

WAIT = 30  # seconds: generous, for a loaded 2-core machine; every wait ends on its event


@pytest.fixture
def scaled(transactional_db, settings):
    """Redis, then beat, a worker and two web processes, all on the test database."""
    import os

    from tdmanager import realtime

    redis_server = None
    url = os.getenv("REDIS_URL")
    if not url:
        redis_server = EmbeddedRedis()
        url = redis_server.url
    namespace = f"tdm-scaleout-test-{os.getpid()}"  # no other run's notices on these channels and queues
    settings.REDIS_URL, settings.TDM_NAMESPACE = url, namespace
    settings.TDM_ARM_CLOCK_TASKS = False  # this process never arms a countdown: the stack does
    realtime.bus._client = None
    env = database_env()
    env.update(REDIS_URL=url, TDM_NAMESPACE=namespace, TDM_PUSH_ENDPOINTS="127.0.0.1")  # the tests' own push service
    procs = []
    try:
        with ThreadPoolExecutor(4) as pool:  # they start side by side: a 2-core machine waits less
            beat = pool.submit(start_beat, env)
            worker = pool.submit(start_worker, env, beat=False)
            webs = [pool.submit(start_web, env) for _ in range(2)]
            for future in (beat, worker, *webs):
                try:
                    proc = future.result()
                except Exception:
                    continue
                procs.append(proc[0] if isinstance(proc, tuple) else proc)
            for future in (beat, worker, *webs):
                future.result()  # raises the first failure, once every started process is known
        yield {"env": env, "webs": [f"http://127.0.0.1:{web.result().port}" for web in webs], "worker": worker.result()[0], "procs": procs}
    finally:
        for proc in reversed(procs):
            # A web server would wait for its open live streams to end: nothing is at stake here.
            stop(proc, sig_kill="uvicorn" in proc.args)
        realtime.bus._client = None
        if redis_server:
            redis_server.stop()
        else:  # a shared Redis keeps nothing of this run: queues, the killed worker's countdown, markers
            import redis

            client = redis.Redis.from_url(url)
            for key in client.scan_iter(f"{namespace}:*"):
                client.delete(key)
        for leftover in Path(env.get("TDM_VAR_DIR", ROOT / "var")).glob(f"beat-{os.getpid()}-beat*"):
            leftover.unlink(missing_ok=True)


class Screen:
    """A lobby screen's live stream (SSE) on one web process: every state it is sent, in order."""

    def __init__(self, base, tournament_id, token):
        self.states, self._new = [], queue.Queue()
        self._more = threading.Condition()
        self.url = f"{base}/live/{tournament_id}/stream/?token={token}"
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            with httpx.stream("GET", self.url, timeout=httpx.Timeout(WAIT, read=60)) as r:
                for state in sse_states(r):
                    with self._more:
                        self.states.append(state)
                        self._more.notify_all()
                    self._new.put(state)
        except httpx.HTTPError:
            pass  # the server stopped at the end of the test

    def more_than(self, count, what, timeout=WAIT):
        """Until it has been sent more than ``count`` states."""
        with self._more:
            assert self._more.wait_for(lambda: len(self.states) > count, timeout), f"{self.url}: no state after the {count}th: {what}"

    def wait(self, predicate, what, timeout=WAIT):
        """The first state from now on (or already received) that satisfies ``predicate``."""
        for state in list(self.states):
            if predicate(state):
                return state
        deadline = timezone.now() + timedelta(seconds=timeout)
        while (left := (deadline - timezone.now()).total_seconds()) > 0:
            try:
                state = self._new.get(timeout=left)
            except queue.Empty:
                break
            if predicate(state):
                return state
        raise AssertionError(f"{self.url}: no state where {what} within {timeout}s; last: {self.states[-1:]}")


def at(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def logged_at(line: str) -> datetime:
    """The moment a Celery log line was written, by the process itself (Django sets the process's
    local time zone to TIME_ZONE)."""
    m = re.search(r"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3})", line)
    assert m, f"no timestamp in {line!r}"
    return datetime.strptime(m[1], "%Y-%m-%d %H:%M:%S").replace(microsecond=int(m[2]) * 1000, tzinfo=ZoneInfo(settings.TIME_ZONE))


def test_two_web_processes_a_worker_and_a_beat(scaled, make_tournament, make_person, director):
    from tournaments.staff.logins import issue_token

    actor = Actor(director, "test")
    t = make_tournament(name="Scale-out")
    for _ in range(3):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor)
    screen = DisplayScreen.objects.create(name="Lobby", tournament=t, token="scale-out-lobby")
    web_a, web_b = scaled["webs"]
    api = httpx.Client(headers={"Authorization": f"Token {issue_token(director, device='test')[1]}"}, timeout=WAIT)

    def act(base, op, **data) -> dict:
        r = api.post(f"{base}/api/v1/tournaments/{t.pk}/clock/{op}/", json={"reason": "scale-out test", **data})
        assert r.status_code == 200, r.text
        return r.json()

    def newer(snap, **clock):
        """States announced after ``snap`` whose clock shows ``clock``."""
        return lambda s: s["seq"] > snap["seq"] and all(s["clock"][k] == v for k, v in clock.items())

    started = act(web_a, "start")
    on_a, on_b = Screen(web_a, t.pk, screen.token), Screen(web_b, t.pk, screen.token)
    for s in (on_a, on_b):
        s.wait(lambda s: s["clock"]["status"] == "RUNNING", "the clock runs")

    # 1. A director's change through one web process reaches the screens of the other, and back.
    paused = act(web_a, "pause")
    on_b.wait(newer(started, status="PAUSED"), "the pause made through the other web process")
    resumed = act(web_b, "resume")
    on_a.wait(newer(paused, status="RUNNING"), "the resume made through the other web process")

    # 2. The worker changes the level when its countdown ends; both processes' screens follow.
    short = act(web_a, "set-time", seconds=2)
    assert short["seq"] > resumed["seq"]
    for s in (on_a, on_b):
        s.wait(newer(short, item_index=1), "the worker's level change")

    # 3. The worker is killed in the middle of level 2, holding the countdown of its end.
    received = len([line for line in scaled["worker"].lines if "Task tournaments.tasks.clock_tick[" in line and "received" in line])
    level2 = act(web_b, "set-time", seconds=8)
    ends_2 = at(level2["clock"]["ends_at"])
    wait_for(
        lambda: len([line for line in scaled["worker"].lines if "Task tournaments.tasks.clock_tick[" in line and "received" in line]) > received,
        WAIT,
        "the countdown of level 2's end reaching the worker",
    )
    stop(scaled["worker"], sig_kill=True)
    killed_at = timezone.now()
    assert killed_at < ends_2, "the machine was too slow: the worker was killed after the level's end"
    level3_seconds = clock_rules.item_seconds(structure_items(t)[2])
    ends_3 = ends_2 + timedelta(seconds=level3_seconds)

    def shows_the_right_time(snap):
        """The clock a screen is sent at ``server_time``: level 2 counting to its end, then level 3
        with its full time counting from level 2's end (the countdown is drawn from ends_at)."""
        now, c = at(snap["server_time"]), snap["clock"]
        want_index, want_end = (1, ends_2) if now < ends_2 else (2, ends_3)
        assert (c["status"], c["item_index"], at(c["ends_at"])) == ("RUNNING", want_index, want_end), (now, c)
        assert abs(c["seconds_left"] - (want_end - now).total_seconds()) < 1, (now, c)  # as shown: whole seconds

    # 4. No worker: the screens still show the right time, then the next level, from either process.
    polled = []

    def both_show_level_3():
        answers = []
        for base in (web_a, web_b):  # what a screen asks when its countdown reaches zero
            r = httpx.get(f"{base}/live/{t.pk}/state/", params={"token": screen.token}, timeout=WAIT)
            if r.status_code == 429:  # faster than a screen asks: its token's rate limit; ask again later
                return False
            answers.append(r.json())
        polled.extend(answers)
        return all(snap["clock"]["item_index"] == 2 for snap in answers)

    wait_for(both_show_level_3, (ends_2 - timezone.now()).total_seconds() + WAIT, "level 3 on the screens")
    # A poll may be answered from the build before the set-time while its rebuild is under way
    # (``Hub.screen_state``): right as of its own server_time, older than the set-time, and
    # dropped by a screen that already shows a newer seq. Judged: what carries the set-time.
    since_set = [s for s in polled if s["seq"] >= level2["seq"]]
    for snap in since_set + [s for s in on_a.states + on_b.states if at(s["server_time"]) >= killed_at]:
        shows_the_right_time(snap)
    assert any(at(s["server_time"]) < ends_2 for s in since_set), "no screen was asked before the level's end"
    row = Clock.objects.get(tournament=t)
    assert (row.item_index, row.ends_at) == (1, ends_2), "something changed the clock row while no worker ran"

    # 5. The worker comes back: the level changes within 2 s of its being ready.
    before = TournamentEvent.objects.filter(tournament=t).order_by("-id").values_list("id", flat=True).first()
    restarted_at = timezone.now()
    worker, _ = start_worker(scaled["env"], beat=False)
    scaled["procs"].append(worker)
    ready_at = logged_at(worker.ready_line)
    assert abs((ready_at - timezone.now()).total_seconds()) < WAIT * 2, f"the worker's log time is off: {worker.ready_line}"
    pushed = [s.wait(lambda s: s["seq"] > before and s["clock"]["item_index"] == 2, "the restarted worker's level change") for s in (on_a, on_b)]
    change = TournamentEvent.objects.get(tournament=t, id__gt=before, action=Action.TOURNAMENTS_CLOCK_LEVEL_STARTED)
    assert change.payload["item_index"] == 2 and change.actor is None and change.device == "celery"
    assert change.created_at >= restarted_at, "the level changed before the worker came back"
    after_ready = (change.created_at - ready_at).total_seconds()
    print(
        f"\nlevel changed {after_ready:+.3f} s after the restarted worker's 'ready' "
        f"({(change.created_at - ends_2).total_seconds():.1f} s after the level's end; the worker was down "
        f"{(ready_at - killed_at).total_seconds():.1f} s)"
    )
    assert after_ready <= 2.0, f"the level changed {after_ready:.2f} s after the worker was ready"
    row = Clock.objects.get(tournament=t)
    assert (row.item_index, row.ends_at) == (2, ends_3)
    for snap in pushed:  # the countdown the screens show goes on without a jump
        shows_the_right_time(snap)
        assert snap["version"] > level2["version"]

    # 6. The players' notices have a queue of their own; a worker started without -Q, as this
    # deployment starts it, serves it too: a phone subscribed through one web process hears the
    # director's announcement made through the other.
    service = PushService()
    try:
        phone = Phone(service, "/ok/scale-out")
        entry = t.entries.order_by("number").first()
        r = httpx.post(f"{web_a}/p/{entry.phone_token}/push/", json=phone.subscription, headers={"Accept-Language": "it"}, timeout=WAIT)
        assert r.status_code == 201, r.text
        r = api.post(f"{web_b}/api/v1/tournaments/{t.pk}/clock/tell-players/", json={"text": "Cena alle 21"})
        assert r.status_code == 200, r.text
        service.wait_for(1, WAIT)
        assert phone.read(service.to("/ok/scale-out")[0])["body"] == "Cena alle 21"
    finally:
        service.close()


def test_a_change_made_as_a_web_process_subscribes_again_reaches_its_screens(transactional_db, settings, make_tournament, make_person, director):
    """Two web processes; the second's Redis is a slow hop away: its SUBSCRIBE takes 0.3 s to get
    there, as from another machine. Ten times a network blip cuts that process's subscription;
    it subscribes again and builds its screen's state anew (what it may have missed meanwhile),
    and the director pauses or resumes the clock the moment that state reaches the screen. Both
    processes' screens show the change within the bound (a look at the counts of notices and a
    build): the second process, not subscribed yet when it was told, must not miss it."""
    import os

    from tdmanager import realtime

    redis_server = None
    url = os.getenv("REDIS_URL")
    if not url:
        redis_server = EmbeddedRedis()
        url = redis_server.url
    namespace = f"tdm-scaleout-resubscribe-{os.getpid()}"
    settings.REDIS_URL, settings.TDM_NAMESPACE, settings.TDM_ARM_CLOCK_TASKS = url, namespace, False
    realtime.bus._client = None
    hop = SlowSubscriptions(url, hold=0.3)
    env = database_env()
    env.update(REDIS_URL=url, TDM_NAMESPACE=namespace, TDM_STREAM_BALANCE_SECONDS="0", TDM_ARM_CLOCK_TASKS="false")
    bound = realtime.Hub.recheck + 3
    webs = []
    try:
        with ThreadPoolExecutor(2) as pool:
            started = [pool.submit(start_web, env), pool.submit(start_web, {**env, "REDIS_URL": hop.url})]
            for future in started:
                try:
                    webs.append(future.result())
                except Exception:
                    continue
            for future in started:
                future.result()
        actor = Actor(director, "test")
        t = make_tournament(name="Resubscribe")
        for _ in range(3):
            cashier.register(t, make_person(), method="CASH", actor=actor)
        lifecycle.start(t, actor=actor)
        clock_services.start_clock(t, actor=actor)
        token = DisplayScreen.objects.create(name="Lobby", tournament=t, token="resubscribe-lobby").token
        near, far = (Screen(f"http://127.0.0.1:{web.port}", t.pk, token) for web in webs)
        for screen in (near, far):
            screen.wait(lambda s: s["clock"]["status"] == "RUNNING", "the clock runs")
        for n in range(10):
            seen = len(far.states)
            hop.drop()
            far.more_than(seen, "the state built anew after the blip")
            change = (clock_services.pause, clock_services.resume)[n % 2]
            change(t, actor=actor, reason="resubscribe test")
            seq = TournamentEvent.objects.filter(tournament=t).order_by("-id").values_list("id", flat=True).first()
            status = ("PAUSED", "RUNNING")[n % 2]
            for screen in (near, far):
                screen.wait(lambda s: s["seq"] >= seq and s["clock"]["status"] == status, f"round {n}: the clock {status}", timeout=bound)
    finally:
        for web in webs:
            stop(web, sig_kill=True)
        hop.close()
        realtime.bus._client = None
        if redis_server:
            redis_server.stop()
        else:
            import redis

            client = redis.Redis.from_url(url)
            for key in client.scan_iter(f"{namespace}:*"):
                client.delete(key)
