"""A state published is never missed by a live stream, whatever the moment it connects at.

A web process's hub hears the change notices on a Redis channel, and Redis pub/sub keeps
nothing: a notice published while a hub is not yet, or no longer, subscribed never reaches it.
Here the hub's subscription goes through a slow hop to Redis (``SlowSubscriptions``: a web
process on another machine) and the director's change is published the very moment the hub
builds the state for the screens connecting: as the web process starts, with screens
connecting, and as its subscription comes back after a network blip. A notice may also be lost
on its way (its PUBLISH failed). Every screen must end on the newest state within the bound:
the hub's look at the tournaments' counts of notices (``Hub.recheck``) and a build, and never
step back to an older one.

Builders are fakes reading a counter the test changes ("the database"); the screens are the
lobby screens' stream (``live.stream_response``), read as a browser reads it.
"""

import asyncio
import json
import os
import threading
from types import SimpleNamespace

import pytest
import redis
from django.test import AsyncRequestFactory

from tdmanager import realtime
from tests.servers import EmbeddedRedis, SlowSubscriptions
from tournaments.live import views as live

pytestmark = pytest.mark.redis

TID = 23
SCREENS = 3
HOP = 0.02  # seconds a subscription takes to reach Redis through the slow hop
RECHECK = 0.5  # seconds between two looks of a hub at the counts (shortened for the test)
BOUND = 2.0  # every screen on the newest state within: a look and a build, room for a loaded machine


@pytest.fixture
def redis_url():
    url, server = os.getenv("REDIS_URL"), None
    if not url:
        server = EmbeddedRedis()
        url = server.url
    yield url
    if server is not None:
        server.stop()


class Database:
    """What the builder reads: a counter the director's change moves, committed then published."""

    def __init__(self):
        self.state = 0
        self.read = threading.Event()  # a build has read the state

    def build(self, tournament_id):
        state = self.state
        self.read.set()
        return {"tournament": tournament_id, "seq": state, "state": state}

    def change_once_read(self):
        """The director's change, committed as soon as a build has read the state, and published
        on commit as the services publish theirs (through the process's publisher)."""
        assert self.read.wait(10), "no build read the state"
        self.state += 1
        realtime.tournament_changed(TID, "tournaments.clock.paused")


@pytest.fixture
def room(settings, redis_url, monkeypatch):
    """This process publishes straight to Redis; its hub subscribes through the slow hop. The
    coalescing delays are shortened: they are not what is tested, and the rounds are many."""
    hop = SlowSubscriptions(redis_url, hold=HOP)
    namespace = f"tdm-published-test-{os.getpid()}"
    settings.REDIS_URL, settings.TDM_NAMESPACE = hop.url, namespace
    settings.TDM_STREAM_BALANCE_SECONDS, settings.TDM_PUBLISH_GAP_MS = 0, 0
    direct = redis.Redis.from_url(redis_url, socket_timeout=2, socket_connect_timeout=2)
    monkeypatch.setattr(realtime.bus, "_client", direct)
    monkeypatch.setattr(realtime.changes, "publisher", realtime.Publisher())
    try:
        yield SimpleNamespace(hop=hop, db=Database(), redis=direct, monkeypatch=monkeypatch)
    finally:
        hop.close()
        for key in direct.scan_iter(f"{namespace}:*"):
            direct.delete(key)
        direct.close()


def new_hub(room):
    """A web process's hub, as it starts (the view's: ``realtime.hub``)."""
    hub = realtime.Hub()
    hub.snapshot_builder = room.db.build
    hub.min_interval, hub.recheck, hub.resubscribe_after = 0.01, RECHECK, 0.05
    room.monkeypatch.setattr(realtime, "hub", hub)
    return hub


class Screen:
    """A lobby screen's stream, read as a browser reads it: every state it is sent, in order."""

    def __init__(self):
        self.shown = []
        self._new = asyncio.Event()
        self.task = asyncio.create_task(self._follow())

    async def _follow(self):
        response = live.stream_response(AsyncRequestFactory().get(f"/live/{TID}/stream/"), TID)
        async for chunk in response.streaming_content:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            for line in text.splitlines():
                if line.startswith("data: "):
                    self.shown.append(json.loads(line[6:])["state"])
                    self._new.set()

    async def until(self, state):
        while not self.shown or self.shown[-1] != state:
            self._new.clear()
            await self._new.wait()


async def all_on(screens, state) -> int:
    """How many of ``screens`` are not on ``state`` within the bound (0: all are)."""
    try:
        await asyncio.wait_for(asyncio.gather(*(s.until(state) for s in screens)), BOUND)
    except TimeoutError:
        pass
    return sum(not s.shown or s.shown[-1] != state for s in screens)


async def closed(screens, hub):
    for s in screens:
        s.task.cancel()
    await asyncio.gather(*(s.task for s in screens), return_exceptions=True)
    await hub.stop()


def verdict(rounds, results):
    """Every screen of every round on the newest state, none ever sent an older one."""
    missed = [(n, [s.shown for s in screens]) for n, (left, screens) in enumerate(results) if left]
    print(f"{len(missed)} of {rounds} rounds left a screen on an older state")
    assert all(s.shown == sorted(s.shown) for _left, screens in results for s in screens), "a screen stepped back"
    assert not missed, f"{len(missed)} of {rounds} rounds left a screen on an older state, the first: {missed[:3]}"


def test_screens_connecting_as_their_hub_subscribes_get_the_change_published_at_that_moment(room):
    """200 times: a hub starts (a web process coming up), three screens connect to it at once,
    and the director's change is committed and published the moment their first state is read."""
    rounds = 200

    async def one_round():
        hub = new_hub(room)
        room.db.read.clear()
        target = room.db.state + 1
        director = threading.Thread(target=room.db.change_once_read)
        director.start()
        screens = [Screen() for _ in range(SCREENS)]
        try:
            return await all_on(screens, target), screens
        finally:
            await closed(screens, hub)
            await asyncio.to_thread(director.join, 10)
            room.hop.drop()  # the stopped hub's subscription

    async def run():
        return [await one_round() for _ in range(rounds)]

    verdict(rounds, asyncio.run(run()))


def test_a_change_published_as_the_hubs_subscription_comes_back_reaches_its_screens(room):
    """30 times: a network blip cuts the hub's subscription under its connected screens; it
    subscribes again, and the director's change is committed and published the moment the hub
    rebuilds the state (what it may have missed while it heard nothing)."""
    rounds = 30

    async def run():
        hub = new_hub(room)
        screens = [Screen() for _ in range(SCREENS)]
        results = []
        try:
            assert await all_on(screens, room.db.state) == 0
            for _ in range(rounds):
                room.db.read.clear()
                target = room.db.state + 1
                director = threading.Thread(target=room.db.change_once_read)
                director.start()
                room.hop.drop()
                left = await all_on(screens, target)
                await asyncio.to_thread(director.join, 10)
                results.append((left, screens))
                if left:  # the next round starts from the state shown
                    room.db.state -= 1
        finally:
            await closed(screens, hub)
        return results

    verdict(rounds, asyncio.run(run()))


def test_a_notice_lost_on_its_way_reaches_the_screens_at_the_hubs_next_look(room):
    """The director's change is committed but its notice's PUBLISH fails (a timeout, Redis away
    for a moment): no hub hears it. The tournament's count of notices was raised first: the
    hubs' next look finds their build behind it and builds again."""
    publish = room.redis.publish
    failed = []

    def lost_once(channel, message):
        if not failed:
            failed.append(message)
            raise redis.TimeoutError("Timeout reading from socket")
        return publish(channel, message)

    room.monkeypatch.setattr(room.redis, "publish", lost_once)

    async def run():
        hub = new_hub(room)
        screens = [Screen() for _ in range(SCREENS)]
        try:
            assert await all_on(screens, 0) == 0
            room.db.state = 1
            realtime.tournament_changed(TID, "tournaments.clock.paused")
            left = await all_on(screens, 1)
        finally:
            await closed(screens, hub)
        return [(left, screens)]

    verdict(1, asyncio.run(run()))
    assert failed, "the notice was not lost"
