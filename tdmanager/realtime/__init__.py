"""The realtime hub: tells every web process that a tournament changed.

Services call ``tournament_changed`` on commit; every web process hears it and pushes a fresh
snapshot to its connected displays, dashboards and phones. The parts: ``bus`` (the Redis
client, the names of the channel, of the counts of notices and of the open-streams hash),
``changes`` (the notices a service sends, and the thread that sends them), ``fanout`` (the hub:
one build per change, handed to every live stream and poll), ``frames`` (what a live stream
carries), ``admissions`` (the open public streams per address) and ``balance`` (the open
streams between web processes).

The names are gathered here for the callers, which write ``from tdmanager import realtime``.
A part's own state lives in its module, and is replaced there (a test's Redis client:
``bus._client``; the process's listeners: ``changes._local_listeners``; its publisher:
``changes.publisher``).
"""

from .admissions import TOO_MANY_STREAMS, Admissions
from .balance import BALANCE_SHARE, BALANCE_SLACK, report_streams, streams_to_shed
from .bus import changes_key, channel, redis_client, streams_key
from .changes import Publisher, add_local_listener, after_publish, login_ended, publisher, screen_revoked, tournament_changed
from .fanout import Hub, executor, hub
from .frames import CLOSE, KEEPALIVE, SnapshotText, expires_at, parsed, sse_event

__all__ = [
    "BALANCE_SHARE",
    "BALANCE_SLACK",
    "CLOSE",
    "KEEPALIVE",
    "TOO_MANY_STREAMS",
    "Admissions",
    "Hub",
    "Publisher",
    "SnapshotText",
    "add_local_listener",
    "after_publish",
    "changes_key",
    "channel",
    "executor",
    "expires_at",
    "hub",
    "login_ended",
    "parsed",
    "publisher",
    "redis_client",
    "report_streams",
    "screen_revoked",
    "sse_event",
    "streams_key",
    "streams_to_shed",
    "tournament_changed",
]
