"""Installations sharing a Redis never hear each other: every channel and key carries TDM_NAMESPACE.

Redis pub/sub ignores the database number in REDIS_URL, so without a namespace two
installations on one Redis (db 0 and db 1) would receive each other's "tournament changed".
"""

import asyncio
import json
import os
import time

import pytest
from django.conf import settings

from tdmanager import realtime

REDIS_URL = os.getenv("REDIS_URL", "")
needs_redis = pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL (a real Redis)")


def test_the_default_namespace_is_per_installation_and_can_be_set(monkeypatch):
    import tdmanager.settings as conf

    monkeypatch.delenv("TDM_NAMESPACE", raising=False)
    monkeypatch.setattr(conf, "SECRET_KEY", "installation-one")
    one = conf._namespace()
    monkeypatch.setattr(conf, "SECRET_KEY", "installation-two")
    two = conf._namespace()
    assert one != two and one.startswith("tdm-") and "installation" not in one
    monkeypatch.setattr(conf, "SECRET_KEY", "installation-one")
    assert conf._namespace() == one  # stable: every process of an installation agrees
    monkeypatch.setenv("TDM_NAMESPACE", "club-a")
    assert conf._namespace() == "club-a"


def test_every_redis_name_carries_the_namespace():
    ns = settings.TDM_NAMESPACE
    assert realtime.channel() == f"{ns}:tournament-changed"
    assert realtime.changes_key() == f"{ns}:changes"
    assert settings.CACHES["default"]["KEY_PREFIX"] == ns
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] == f"{ns}:"


def _subscriber(url, namespace):
    import redis

    pubsub = redis.Redis.from_url(url).pubsub()
    pubsub.subscribe(f"{namespace}:tournament-changed")
    assert pubsub.get_message(timeout=5)["type"] == "subscribe"  # subscribed before anyone publishes
    return pubsub


def _next(pubsub, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = pubsub.get_message(timeout=deadline - time.monotonic())
        if message is not None and message["type"] == "message":
            return json.loads(message["data"])
    raise AssertionError("no message")


@pytest.mark.redis
@needs_redis
def test_two_namespaces_on_one_redis_do_not_hear_each_other(settings):
    """Two installations on different databases of one Redis, as in the issue."""
    base = REDIS_URL.rsplit("/", 1)[0]
    url_a, url_b = f"{base}/5", f"{base}/6"
    sub_a, sub_b = _subscriber(url_a, "test-ns-a"), _subscriber(url_b, "test-ns-b")
    try:
        settings.REDIS_URL, settings.TDM_NAMESPACE = url_a, "test-ns-a"
        realtime.bus._client = None
        realtime.tournament_changed(41, "a.changed")
        assert _next(sub_a) == {"tournament": 41, "action": "a.changed"}

        settings.REDIS_URL, settings.TDM_NAMESPACE = url_b, "test-ns-b"
        realtime.bus._client = None
        realtime.tournament_changed(42, "b.changed")
        # B's first message is its own: A's notice, published earlier, never reached it
        # (one Redis delivers in publishing order, so it would have come first).
        assert _next(sub_b) == {"tournament": 42, "action": "b.changed"}
        assert sub_a.get_message(timeout=0) is None  # nor did B's reach A (it was published before this read)
    finally:
        realtime.bus._client = None
        sub_a.close()
        sub_b.close()


@pytest.mark.redis
@needs_redis
def test_a_web_process_hub_listens_to_its_own_namespace_only(settings):
    """The hub of installation A builds snapshots for A's changes and ignores B's."""
    import redis

    settings.REDIS_URL = REDIS_URL
    settings.TDM_NAMESPACE = "test-ns-hub-a"
    hub = realtime.Hub()
    seen = []

    async def run():
        got = asyncio.Event()

        async def publish_snapshot(tid):
            seen.append(tid)
            got.set()

        hub.publish_snapshot = publish_snapshot
        hub.clients = {7: set(), 8: set()}
        hub.loop = asyncio.get_running_loop()
        task = asyncio.create_task(hub._listen_redis())
        client = redis.Redis.from_url(REDIS_URL)
        try:
            # wait until the hub's subscription is in place (an event on the server, not a sleep)
            while client.pubsub_numsub("test-ns-hub-a:tournament-changed")[0][1] < 1:
                await asyncio.sleep(0.01)
            client.publish("test-ns-hub-b:tournament-changed", json.dumps({"tournament": 8}))
            client.publish("test-ns-hub-a:tournament-changed", json.dumps({"tournament": 7}))
            await asyncio.wait_for(got.wait(), 5)
        finally:
            task.cancel()
            client.close()

    asyncio.run(run())
    assert seen == [7]


@pytest.mark.redis
@needs_redis
def test_cache_keys_carry_the_namespace(settings):
    """The cache (login throttling) writes its keys under the namespace prefix."""
    import redis
    from django.core.cache import caches

    client = redis.Redis.from_url(REDIS_URL)
    caches["default"].set("namespace-probe", 1, 30)
    try:
        keys = [k.decode() for k in client.keys("*namespace-probe*")]
        assert keys and all(k.startswith(settings.TDM_NAMESPACE + ":") for k in keys)
    finally:
        caches["default"].delete("namespace-probe")
