"""The live hub under load: bursts of changes are coalesced (one build per tournament per
``min_interval``, the newest state always delivered), connecting and reconnecting screens are
given the latest built snapshot instead of a build each, builds run in the hub's own threads
(never the ones serving the desk's sync views). The players' phones: test_phone_index.py.

Builders here are fakes that count their calls and read a "database" the test changes; time is
a clock the test moves (``Hub.clock`` / ``Hub.sleep``), so nothing waits on wall-clock sleeps.
"""

import asyncio
import json
import threading

import pytest
from asgiref.sync import ThreadSensitiveContext, sync_to_async

from tdmanager import realtime

TID = 7


@pytest.fixture
def local_hub(settings):
    """A fresh hub on the in-process path (no Redis); the process's listeners are restored after."""
    settings.REDIS_URL = ""
    listeners = list(realtime.changes._local_listeners)
    yield realtime.Hub()
    realtime.changes._local_listeners[:] = listeners


class FakeDatabase:
    """What a builder reads: a counter the test changes, and a record of every build."""

    def __init__(self):
        self.state = 0
        self.calls = []  # (state read, thread ident, thread name)
        self.gate = None  # a threading.Event a build waits on, after reading, when set
        self.entered = threading.Event()

    def build(self, tournament_id):
        state = self.state
        self.calls.append((state, threading.get_ident(), threading.current_thread().name))
        self.entered.set()
        if self.gate is not None:
            assert self.gate.wait(10), "the test never released the build"
        return {"tournament": tournament_id, "state": state}


class VirtualTime:
    """The hub's clock and sleep, moved by the test."""

    def __init__(self):
        self.now = 1000.0
        self.sleepers = []

    def clock(self):
        return self.now

    async def sleep(self, seconds):
        future = asyncio.get_running_loop().create_future()
        self.sleepers.append((self.now + seconds, future))
        await future

    def advance(self, seconds):
        self.now += seconds
        for at, future in list(self.sleepers):
            if at <= self.now + 1e-9 and not future.done():
                future.set_result(None)
                self.sleepers.remove((at, future))


async def idle(hub, db, vt, tid=TID):
    """Wait until every build started has been delivered and the hub builds no more without the
    clock moving (its builder is done, or sleeps on the virtual clock). An event, not a delay."""
    for _ in range(5000):
        task = hub._builders.get(tid)
        sleeping = task is not None and any(not f.done() for _at, f in vt.sleepers)
        if hub.builds == len(db.calls) and (task is None or task.done() or sleeping):
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the hub never settled")


def texts(queue):
    out = []
    while not queue.empty():
        text = queue.get_nowait()
        if text is not realtime.KEEPALIVE:  # the hub's heartbeat (15 s of real time): not a state
            out.append(json.loads(text)["state"])
    return out


def test_a_burst_of_50_changes_during_a_build_costs_one_more_build_and_delivers_the_last_state(local_hub):
    hub, db = local_hub, FakeDatabase()
    hub.snapshot_builder = db.build
    db.gate = threading.Event()

    async def run():
        queue = await hub.connect(TID)
        first = asyncio.create_task(hub.current(TID))
        assert await asyncio.to_thread(db.entered.wait, 10)  # the first build has read state 0 and is running
        for n in range(1, 51):  # 50 busts while it runs
            db.state = n
            hub.changed(TID)
        db.gate.set()
        assert json.loads(await first)["state"] == 0
        received = []
        while not received or received[-1] != 50:
            text = await asyncio.wait_for(queue.get(), 10)
            if text is not realtime.KEEPALIVE:
                received.append(json.loads(text)["state"])
        return received

    received = asyncio.run(run())
    assert [state for state, _t, _n in db.calls] == [0, 50]  # two builds for 51 states, not 51
    assert received == [0, 50]  # the screen ends on the newest state, nothing in between is queued


def test_changes_spread_over_time_build_at_most_once_per_interval_and_the_last_one_always(local_hub):
    """50 changes 10 ms apart (half a second of busts): a build every 250 ms at most, and the
    trailing build after the last change."""
    hub, db, vt = local_hub, FakeDatabase(), VirtualTime()
    hub.clock, hub.sleep = vt.clock, vt.sleep
    starts = []
    build = db.build

    def timed(tournament_id):
        starts.append(vt.now)
        return build(tournament_id)

    hub.snapshot_builder = timed

    async def run():
        queue = await hub.connect(TID)
        await hub.current(TID)
        await idle(hub, db, vt)
        for n in range(1, 51):
            vt.advance(0.010)
            db.state = n
            hub.changed(TID)
            await idle(hub, db, vt)
        for _ in range(100):  # let the virtual clock run on until the hub is quiet
            vt.advance(0.010)
            await idle(hub, db, vt)
        return texts(queue)

    received = asyncio.run(run())
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert all(gap >= hub.min_interval - 1e-9 for gap in gaps), gaps
    assert len(db.calls) <= 1 + 0.5 / hub.min_interval + 1  # the first, one per interval, the trailing one
    assert received[-1] == 50 and db.calls[-1][0] == 50
    assert received == sorted(received)  # newer states only


def test_connecting_and_reconnecting_screens_share_one_build_and_then_reuse_it(local_hub):
    hub, db, vt = local_hub, FakeDatabase(), VirtualTime()
    hub.snapshot_builder, hub.clock, hub.sleep = db.build, vt.clock, vt.sleep
    db.gate = threading.Event()

    async def connect_all(n):
        queues = [await hub.connect(TID) for _ in range(n)]
        got = asyncio.gather(*(hub.current(TID) for _ in range(n)))
        return queues, got

    async def run():
        queues, got = await connect_all(100)  # 100 screens at once, nothing built yet
        await asyncio.to_thread(db.entered.wait, 10)
        db.gate.set()
        first = await got
        assert len(db.calls) == 1 and all(text is first[0] for text in first)  # one build, the same text for all
        for q in queues:  # a network blip: every screen drops ...
            hub.disconnect(TID, q)
        assert not hub.clients
        queues, got = await connect_all(100)  # ... and reconnects
        again = await got
        assert len(db.calls) == 1 and all(text is first[0] for text in again)  # no build at all
        for q in queues:
            hub.disconnect(TID, q)

        vt.advance(1)
        db.state = 1  # a change while no screen is connected: the latest text is stale now
        hub.changed(TID)
        assert TID not in hub.latest
        q = await hub.connect(TID)
        assert json.loads(await hub.current(TID))["state"] == 1 and len(db.calls) == 2
        hub.disconnect(TID, q)

        vt.advance(hub.max_age + 1)  # old enough for time-dependent parts to have changed
        q = await hub.connect(TID)
        assert json.loads(await hub.current(TID))["state"] == 1 and len(db.calls) == 3
        assert await hub.current(TID) is hub.latest[TID] and len(db.calls) == 3

    asyncio.run(run())


@pytest.mark.django_db(transaction=True)
def test_builds_run_in_the_hubs_own_threads_and_a_sync_view_is_served_meanwhile(local_hub):
    """Under ASGI, Django runs a request's sync code on the thread of the request's
    ThreadSensitiveContext, or on one shared thread: a build uses neither, so a cashier's sale
    is served while a long build runs. The build thread gives its database connection back."""
    from django.db import connections

    hub, db = local_hub, FakeDatabase()
    db.gate = threading.Event()
    held = {}

    def build(tournament_id):
        from tournaments.models import Tournament

        Tournament.objects.exists()  # a real query from the build thread
        held["connection"] = connections["default"]  # this thread's own connection
        return db.build(tournament_id)

    hub.snapshot_builder = build

    async def run():
        async with ThreadSensitiveContext():  # what Django's ASGI handler opens for each request
            view_thread = await sync_to_async(threading.get_ident)()
            queue = await hub.connect(TID)
            first = asyncio.create_task(hub.current(TID))
            assert await asyncio.to_thread(db.entered.wait, 10)
            # the build is running and held: a sync view of this request, and one outside any
            # request context, are served anyway
            assert await asyncio.wait_for(sync_to_async(lambda: "sale")(), 5) == "sale"
        shared_thread = await asyncio.wait_for(sync_to_async(threading.get_ident)(), 5)
        db.gate.set()
        await first
        filter_thread = await hub.run_sync(lambda: threading.current_thread().name)
        hub.disconnect(TID, queue)
        return view_thread, shared_thread, threading.get_ident(), filter_thread

    view_thread, shared_thread, loop_thread, filter_thread = asyncio.run(run())
    ((_state, build_thread, build_name),) = db.calls
    assert build_thread not in (view_thread, shared_thread, loop_thread)
    assert build_name.startswith("tdm-live-build") and filter_thread.startswith("tdm-live-client")
    if held["connection"].settings_dict["CONN_MAX_AGE"] == 0:  # SQLite, PostgreSQL with its pool
        assert held["connection"].connection is None  # closed (given back to the pool) after the build
