"""The staff browsers that reached the room's secure address lately: a count for the director.

What is counted: a staff login in a browser (one session) that used a page over HTTPS in the last
``WINDOW`` seconds, noted when the login's last activity is written (``tdmanager.idle``: at its
first page, then at most once a minute), so it costs nothing on the other requests. A device
logged in twice in the day counts twice; a lobby screen or a player's phone (no login) is not
counted. Kept in Redis (a sorted set, shared by every process, by the session's keyed hash: never
the session's key); without Redis, in this process's memory.
"""

import threading
import time

import redis
from django.conf import settings
from django.dispatch import receiver

from tdmanager.idle import session_used
from tdmanager.realtime.bus import redis_client
from tdmanager.sitedata import session_marker

WINDOW = 24 * 3600

_seen: dict[str, float] = {}  # without Redis: marker → when
_lock = threading.Lock()


def key() -> str:
    return f"{settings.TDM_NAMESPACE}:secure-browsers"


@receiver(session_used, dispatch_uid="tdmanager-reached-secure")
def note(sender=None, *, request, **_kw) -> None:
    """Receiver of ``session_used``: a login used a page over HTTPS."""
    if not request.is_secure():
        return
    marker = session_marker(request)
    if marker:
        seen(marker)


def seen(marker: str, now: float | None = None) -> None:
    now = time.time() if now is None else now
    client = redis_client()
    if client is None:
        with _lock:
            _seen[marker] = now
            for old in [m for m, when in _seen.items() if when < now - WINDOW]:
                del _seen[old]
        return
    try:
        # at most once a minute per login (``session_used``): three commands, no pipeline needed
        client.zadd(key(), {marker: now})
        client.zremrangebyscore(key(), "-inf", now - WINDOW)
        client.expire(key(), 2 * WINDOW)
    except redis.RedisError:
        pass  # a count missed is a number on the dashboard, never a page refused


def count(now: float | None = None) -> int | None:
    """Staff browsers on the secure address in the last ``WINDOW`` seconds; None when Redis did
    not answer."""
    now = time.time() if now is None else now
    client = redis_client()
    if client is None:
        with _lock:
            return sum(1 for when in _seen.values() if when >= now - WINDOW)
    try:
        return client.zcount(key(), now - WINDOW, "+inf")
    except redis.RedisError:
        return None


def forget() -> None:
    """Nothing counted any more (a test's fresh start)."""
    with _lock:
        _seen.clear()
    client = redis_client()
    if client is not None:
        client.delete(key())
