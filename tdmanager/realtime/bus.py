"""Redis for the realtime hub: the client every part shares, and the names it uses there.

Redis pub/sub channels are global to a Redis server (the database number in REDIS_URL does
not separate them), so the channel carries the installation's namespace (``TDM_NAMESPACE``):
two installations sharing a Redis never hear each other; the open-streams hash and the
tournaments' counts of change notices too.

The client is made once per process, at its first use, and kept in ``_client``: a process
pointed at another Redis (a test, a benchmark) sets it back to None, or hands over its own.
"""

from django.conf import settings


def channel() -> str:
    return f"{settings.TDM_NAMESPACE}:tournament-changed"


def streams_key(namespace: str | None = None) -> str:
    """The hash where each web process writes its open streams (of ``namespace``: this
    process's own by default; a benchmark reading a fleet's names the fleet's)."""
    return f"{namespace or settings.TDM_NAMESPACE}:streams"


def changes_key() -> str:
    """The hash of each tournament's count of change notices sent, raised before each goes out
    (``changes``): pub/sub keeps nothing, and a hub that did not hear one (not subscribed at
    that moment, or the notice lost on its way) finds its last build behind the count
    (``fanout``)."""
    return f"{settings.TDM_NAMESPACE}:changes"


def change_counts(tournament_ids) -> dict[int, int]:
    """The tournaments' counts of change notices sent so far (0: none yet), in one command."""
    ids = list(tournament_ids)
    values = redis_client().hmget(changes_key(), [str(tid) for tid in ids]) if ids else []
    return {tid: int(value or 0) for tid, value in zip(ids, values, strict=True)}


_client = None


def redis_client():
    global _client
    if _client is None and settings.REDIS_URL:
        import redis

        _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    return _client
