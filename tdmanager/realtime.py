"""The realtime hub: tells every web process that a tournament changed.

Services call ``tournament_changed`` on commit. With Redis configured the message goes out
on a pub/sub channel that every web process listens to; each pushes a fresh snapshot to its
connected displays and dashboards. Without Redis (tests, management commands) local
listeners registered in this process are still called.

Redis pub/sub channels are global to a Redis server (the database number in REDIS_URL does
not separate them), so the channel carries the installation's namespace (``TDM_NAMESPACE``):
two installations sharing a Redis never hear each other.
"""

import json
import logging

from asgiref.sync import sync_to_async
from django.conf import settings

log = logging.getLogger(__name__)


def channel() -> str:
    return f"{settings.TDM_NAMESPACE}:tournament-changed"


_local_listeners: list = []
_client = None


def redis_client():
    global _client
    if _client is None and settings.REDIS_URL:
        import redis

        _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    return _client


def add_local_listener(fn):
    _local_listeners.append(fn)


def tournament_changed(tournament_id: int, action: str = "") -> None:
    message = {"tournament": tournament_id, "action": action}
    for fn in list(_local_listeners):
        try:
            fn(message)
        except Exception:  # a broken listener must never undo a committed sale
            log.exception("local realtime listener failed")
    client = redis_client()
    if client is None:
        return
    try:
        client.publish(channel(), json.dumps(message))
    except Exception:
        # The change is committed; displays will catch up through their polling fallback.
        log.warning("could not publish %s for tournament %s", action, tournament_id)


class Hub:
    """One per web process: a single Redis subscription fanned out to every connected browser.

    For each change it builds the tournament's snapshot once and hands the same JSON text to
    every client queue of that tournament, so 500 displays cost one query set, not 500.
    """

    #: ``tournament id -> dict``: handed over by the tournaments app when it is ready
    #: (the transport imports no app).
    snapshot_builder = None

    def __init__(self):
        self.clients: dict[int, set] = {}
        self.task = None
        self.loop = None
        self.latest: dict[int, str] = {}

    async def connect(self, tournament_id: int):
        import asyncio

        self._ensure_started()
        queue = asyncio.Queue(maxsize=32)
        self.clients.setdefault(tournament_id, set()).add(queue)
        return queue

    def disconnect(self, tournament_id: int, queue) -> None:
        group = self.clients.get(tournament_id)
        if group is not None:
            group.discard(queue)
            if not group:
                self.clients.pop(tournament_id, None)

    def _ensure_started(self):
        import asyncio

        loop = asyncio.get_running_loop()
        if settings.REDIS_URL:
            if self.task is None or self.task.done():
                self.loop = loop
                self.task = loop.create_task(self._listen_redis())
        elif self.loop is not loop:
            # One process, no Redis: services call tournament_changed in a worker thread.
            # Register the listener once per event loop, not once per connecting browser.
            self.loop = loop
            add_local_listener(lambda m: loop.call_soon_threadsafe(self._schedule, m["tournament"]))

    def _schedule(self, tournament_id: int):
        if tournament_id in self.clients:
            self.loop.create_task(self.publish_snapshot(tournament_id))

    async def _listen_redis(self):
        import asyncio

        import redis.asyncio as aioredis

        while True:
            try:
                client = aioredis.Redis.from_url(settings.REDIS_URL)
                pubsub = client.pubsub()
                await pubsub.subscribe(channel())
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    tid = json.loads(message["data"]).get("tournament")
                    if tid in self.clients:
                        await self.publish_snapshot(tid)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("realtime: redis subscription lost, retrying in 1 s")
                await asyncio.sleep(1)

    async def publish_snapshot(self, tournament_id: int):
        if self.snapshot_builder is None:
            log.error("realtime: no snapshot builder was handed to the hub")
            return
        try:
            snap = await sync_to_async(self.snapshot_builder)(tournament_id)
        except Exception:
            log.exception("realtime: snapshot failed for %s", tournament_id)
            return
        text = json.dumps(snap, default=str)
        self.latest[tournament_id] = text
        for queue in list(self.clients.get(tournament_id, ())):
            if queue.full():  # a client that stopped reading gets only the newest state
                try:
                    queue.get_nowait()
                except Exception:
                    pass
            queue.put_nowait(text)


hub = Hub()
