"""A lobby screen's link can be revoked and renewed (issue #30 item 9): from the screens page and
the API, by a director; the old link's page and state stop answering, and its open streams end."""

import asyncio
import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import AsyncRequestFactory, Client
from rest_framework.test import APIClient

from tdmanager import realtime
from tests.conftest import make_user
from tournaments.live import views as live
from tournaments.models import DisplayScreen, TournamentEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def screen(make_tournament):
    return DisplayScreen.objects.create(name="Lobby TV", tournament=make_tournament(), token="tv-" + uuid.uuid4().hex)


def shows(token, tournament_id):
    """What the old link still gets: its page and its polled state."""
    c = Client()
    return c.get(f"/display/{token}/").status_code, c.get(f"/live/{tournament_id}/state/", {"token": token}).status_code


def test_a_director_revokes_a_screens_link_through_the_api(screen, director, floor_user):
    old = screen.token
    assert shows(old, screen.tournament_id) == (200, 200)
    api = APIClient()
    api.force_authenticate(floor_user)
    assert api.post(f"/api/v1/screens/{screen.pk}/revoke-token/").status_code == 403
    api.force_authenticate(director)
    r = api.post(f"/api/v1/screens/{screen.pk}/revoke-token/")
    assert r.status_code == 200 and r.json()["token_revoked_at"]
    assert shows(old, screen.tournament_id) == (404, 403)
    assert TournamentEvent.objects.filter(action="tournaments.display.token_revoked").latest("id").actor == director


def test_a_new_link_works_and_the_old_one_stops(screen, director):
    old = screen.token
    api = APIClient()
    api.force_authenticate(director)
    assert api.post(f"/api/v1/screens/{screen.pk}/revoke-token/").status_code == 200
    r = api.post(f"/api/v1/screens/{screen.pk}/rotate-token/")
    new = r.json()["token"]
    assert r.status_code == 200 and new != old and r.json()["token_revoked_at"] is None and r.json()["url"] == f"/display/{new}/"
    assert shows(old, screen.tournament_id) == (404, 403)
    assert shows(new, screen.tournament_id) == (200, 200)


def test_the_screens_page_revokes_and_renews_a_link(screen, client, director):
    client.force_login(director)
    page = client.get("/displays/").content.decode()
    assert f"/display/{screen.token}/" in page and 'value="revoke"' in page and 'value="rotate"' in page
    old = screen.token
    assert client.post("/displays/", {"screen": screen.pk, "op": "revoke"}).status_code == 302
    page = client.get("/displays/").content.decode()
    assert "Link revoked" in page and f"/display/{old}/" not in page
    assert shows(old, screen.tournament_id) == (404, 403)
    client.post("/displays/", {"screen": screen.pk, "op": "rotate"})
    screen.refresh_from_db()
    assert screen.token != old and f"/display/{screen.token}/" in client.get("/displays/").content.decode()
    assert shows(screen.token, screen.tournament_id) == (200, 200)


def test_only_a_director_changes_a_link_on_the_page(screen, client):
    client.force_login(make_user("flo2", "floor"))
    assert client.post("/displays/", {"screen": screen.pk, "op": "revoke"}).status_code == 403
    screen.refresh_from_db()
    assert screen.token_revoked_at is None


def test_revoking_ends_the_old_tokens_streams_once_committed(screen, director, monkeypatch, django_capture_on_commit_callbacks):
    ended = []
    monkeypatch.setattr(realtime, "screen_revoked", ended.append)
    api = APIClient()
    api.force_authenticate(director)
    old = screen.token
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"/api/v1/screens/{screen.pk}/rotate-token/")
    assert ended == [old]


@pytest.fixture
def hub(settings, monkeypatch):
    """A fresh hub on the in-process path (no Redis), a fake builder, a fast heartbeat."""
    settings.REDIS_URL = ""
    listeners = list(realtime.changes._local_listeners)
    hub = realtime.Hub()
    hub.heartbeat = 0.05
    hub.snapshot_builder = lambda tid: {"tournament": tid, "state": 0}
    monkeypatch.setattr(realtime, "hub", hub)
    yield hub
    realtime.changes._local_listeners[:] = listeners


def test_an_open_stream_of_a_revoked_screen_ends(hub, screen):
    request = AsyncRequestFactory().get(f"/live/{screen.tournament_id}/stream/", {"token": screen.token})
    request.user = AnonymousUser()
    response = live.live_stream(request, screen.tournament_id)

    async def run():
        chunks = []
        async for chunk in response.streaming_content:
            chunks.append(chunk.decode())
            if chunk.startswith(b"event: state"):
                realtime.screen_revoked(screen.token)  # what the service sends once committed
        return chunks  # the stream ended by itself

    chunks = asyncio.run(asyncio.wait_for(run(), 10))
    assert chunks[0] == "retry: 2000\n" and chunks[1].startswith("event: state")
    assert hub.by_screen == {}
