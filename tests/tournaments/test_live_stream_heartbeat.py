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
    listeners = list(realtime.changes._local_listeners)
    hub = realtime.Hub()
    hub.heartbeat = 0.05
    state = {"n": 0}
    hub.snapshot_builder = lambda tid: {"tournament": tid, "seq": state["n"], "state": state["n"]}
    hub.state = state
    monkeypatch.setattr(realtime, "hub", hub)
    yield hub
    realtime.changes._local_listeners[:] = listeners


async def _chunks(response, count):
    out = []
    async for chunk in response.streaming_content:
        out.append(chunk.decode())
        if len(out) == count:
            return out
    return out


def test_an_idle_stream_sends_keep_alive_comments_then_the_next_state(hub):
    from django.test import AsyncRequestFactory

    from tournaments.live import views as live

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


def _stream_request(path):
    from django.contrib.auth.models import AnonymousUser
    from django.test import RequestFactory

    request = RequestFactory().get(path, **{"tdmanager.async_streaming": True})  # as the web app's pool marks it
    request.user = AnonymousUser()
    return request


@pytest.mark.django_db
def test_a_screen_of_its_own_tournament_is_checked_with_one_query(make_tournament, django_assert_max_num_queries):
    """500 screens reconnect at once: the screen's row is the one query; the tournament it names
    exists (its key is cleared when the tournament is deleted)."""
    from tournaments.live import views as live
    from tournaments.models import DisplayScreen

    t = make_tournament(name="Own")
    DisplayScreen.objects.create(name="TV", tournament=t, token="own-tv")
    with django_assert_max_num_queries(1):
        response = live.live_stream(_stream_request(f"/live/{t.pk}/stream/?token=own-tv"), t.pk)
    assert response.status_code == 200 and response.streaming


@pytest.mark.django_db
def test_a_screen_following_the_running_event_still_gets_a_404_for_an_unknown_tournament(make_tournament):
    from django.http import Http404

    from tournaments.live import views as live
    from tournaments.models import DisplayScreen

    t = make_tournament(name="Any")
    DisplayScreen.objects.create(name="Follows", tournament=None, token="any-tv")
    assert live.live_stream(_stream_request(f"/live/{t.pk}/stream/?token=any-tv"), t.pk).status_code == 200
    with pytest.raises(Http404):
        live.live_stream(_stream_request("/live/987654/stream/?token=any-tv"), 987654)
    own = DisplayScreen.objects.create(name="Own", tournament=t, token="own-tv")
    t.delete()
    own.refresh_from_db()
    assert own.tournament_id is None  # what the one-query check relies on
