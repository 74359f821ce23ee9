"""The realtime hub: tells every web process that a tournament changed.

Services call ``tournament_changed`` on commit. With Redis configured the message goes out
on a pub/sub channel that every web process listens to; each pushes a fresh snapshot to its
connected displays and dashboards. Without Redis (tests, management commands) local
listeners registered in this process are still called.
"""

import json
import logging

from django.conf import settings

log = logging.getLogger(__name__)
CHANNEL = "tdm:tournament-changed"
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
        client.publish(CHANNEL, json.dumps(message))
    except Exception:
        # The change is committed; displays will catch up through their polling fallback.
        log.warning("could not publish %s for tournament %s", action, tournament_id)
