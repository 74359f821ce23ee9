"""Open live streams between web processes: each reports its own in Redis and sheds its excess.

Streams stay on the web process where they were opened; the hub (``fanout``) compares its
count with the others' now and then and ends a few past its fair share, whose browsers
reconnect, through the balancer, to any process.
"""

import time

from .bus import redis_client, streams_key

#: two processes' open streams this close are left as they are: reconnecting a few browsers
#: saves nothing
BALANCE_SLACK = 2
#: the most of its streams a process ends in one look (``streams_to_shed``): every one ended
#: reconnects and is sent a whole state, so a process back after a restart takes its share over
#: a few looks rather than at once
BALANCE_SHARE = 0.2


def streams_to_shed(mine: int, others: list[int], ratio: float = 1.5) -> int:
    """How many of this web process's ``mine`` open live streams to end (their browsers
    reconnect, through the balancer, to any process) when the other processes hold ``others``.

    Streams stay where they were opened: after a web process restarts, every browser that
    reconnected meanwhile stays on the others, which then carry its load for the rest of the
    day. A process holding more than ``ratio`` times the least loaded one's (and more than
    ``BALANCE_SLACK`` above it) ends the streams it holds above the fair share, at most
    ``BALANCE_SHARE`` of them a look."""
    if not others:
        return 0
    least = min(others)
    if mine <= max(ratio * least, least + BALANCE_SLACK):
        return 0
    fair = (mine + sum(others)) / (len(others) + 1)
    return max(0, min(int(mine - fair), max(1, int(mine * BALANCE_SHARE))))


def report_streams(me: str, count: int, every: float) -> list[int]:
    """Write this web process's open streams (``me``: host and pid) to Redis and return the
    other live processes' counts; a process not heard of for three looks is gone (forgotten)."""
    client = redis_client()
    key, now = streams_key(), time.time()
    client.hset(key, me, f"{count} {now:.3f}")
    others = []
    for field, value in client.hgetall(key).items():
        if field.decode() == me:
            continue
        count_, at = value.decode().split()
        if now - float(at) > 3 * every:
            client.hdel(key, field)
        else:
            others.append(int(count_))
    return others
