"""A lobby screen's stream between changes: the hub hands every open stream a keep-alive at its
heartbeat (one timer for every screen, not one per screen and frame), which the stream sends as
an SSE comment, then the next state as before; a screen that stopped reading is not handed one
(it would only push a state out of its queue)."""

import asyncio

import pytest

from tdmanager import realtime

TID = 11


@pytest.fixture
def hub(settings, monkeypatch):
    """A fresh hub on the in-process path (no Redis), a fake builder, a fast heartbeat."""
    settings.REDIS_URL = ""
    listeners = list(realtime._local_listeners)
    hub = realtime.Hub()
    hub.heartbeat = 0.05
    state = {"n": 0}
    hub.snapshot_builder = lambda tid: {"tournament": tid, "seq": state["n"], "state": state["n"]}
    hub.state = state
    monkeypatch.setattr(realtime, "hub", hub)
    yield hub
    realtime._local_listeners[:] = listeners


async def _chunks(response, count):
    out = []
    async for chunk in response.streaming_content:
        out.append(chunk.decode())
        if len(out) == count:
            return out
    return out


def test_an_idle_stream_sends_keep_alive_comments_then_the_next_state(hub):
    from django.test import AsyncRequestFactory

    from tournaments import live

    async def run():
        response = live.stream_response(AsyncRequestFactory().get(f"/live/{TID}/stream/"), TID)
        first = await _chunks(response, 3)  # retry, the state, then (idle) a keep-alive
        hub.state["n"] = 1
        hub.changed(TID)
        rest = []
        async for chunk in response.streaming_content:
            rest.append(chunk.decode())
            if chunk.startswith(b"event: state"):
                break
        return first, rest

    first, rest = asyncio.run(asyncio.wait_for(run(), 10))
    assert first[0] == "retry: 2000\n"
    assert first[1].startswith("event: state\n") and '"state": 0' in first[1]
    assert first[2].startswith(": keep-alive ") and first[2].endswith("\n\n")
    assert '"state": 1' in rest[-1]
    assert all(c.startswith(": keep-alive ") for c in rest[:-1])


def test_a_full_queue_is_not_handed_a_keep_alive(hub):
    async def run():
        queue = await hub.connect(TID)
        for i in range(queue.maxsize):
            queue.put_nowait(f"state {i}")
        await asyncio.sleep(hub.heartbeat * 3)
        held = [queue.get_nowait() for _ in range(queue.qsize())]
        await asyncio.sleep(hub.heartbeat * 3)
        later = queue.get_nowait()
        hub.disconnect(TID, queue)
        return held, later

    held, later = asyncio.run(run())
    assert held == [f"state {i}" for i in range(32)]  # no state pushed out
    assert later is realtime.KEEPALIVE  # read again: handed one
