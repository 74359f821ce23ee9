"""FMT-02 and #40 item 12: a published event's change is announced to the players, but why it
changed is the staff's free text until the director shows it to them: the public rules page,
its change feed, the lobby screens and a screen's login read the reason only then."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from tests.conftest import make_user
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor
from tournaments.live.snapshot import build_snapshot
from tournaments.setup import services as setup

pytestmark = pytest.mark.django_db

PRIVATE = "Rossi's side deal with the sponsor"


@pytest.fixture
def changed(make_tournament, director):
    t = make_tournament()  # registering: published
    setup.update_tournament(t, {"guarantee": Decimal("1000")}, actor=Actor(director, "test"), override_reason=PRIVATE)
    return t


def public_texts(t) -> list[str]:
    """Everything a player or a lobby screen reads about the event's changes."""
    with translation.override("en"):
        lobby = str(build_snapshot(t.pk)["changes"])
    screen = get_user_model().objects.filter(username="tv-login").first() or make_user("tv-login", "display")
    tv = APIClient()
    tv.force_authenticate(screen)
    return [
        Client().get(f"/rules/{t.pk}/").content.decode(),
        Client().get(f"/rules/{t.pk}/changes/").content.decode(),
        lobby,
        tv.get(f"/api/v1/tournaments/{t.pk}/changes/").content.decode(),
    ]


def test_a_reason_is_the_staffs_until_the_director_shows_it(changed, director, api):
    t = changed
    texts = public_texts(t)
    assert all("1000" in text or "1,000" in text for text in texts)  # the change itself is announced everywhere
    assert not any(PRIVATE in text for text in texts)
    staff = api(director).get(f"/api/v1/tournaments/{t.pk}/changes/").json()
    assert staff[0]["reason"] == PRIVATE and staff[0]["reason_public"] is False

    r = api(director).post(f"/api/v1/tournaments/{t.pk}/changes/1/reason/", {"public": True}, format="json")
    assert r.status_code == 200 and r.json()["reason_public"] is True
    t.refresh_from_db()
    assert all(PRIVATE.replace("'", "&#x27;") in text or PRIVATE in text for text in public_texts(t))
    assert t.events.filter(action=Action.TOURNAMENTS_CHANGE_REASON_SHOWN, payload__version=1).exists()

    r = api(director).post(f"/api/v1/tournaments/{t.pk}/changes/1/reason/", {"public": False}, format="json")
    assert r.status_code == 200
    assert not any(PRIVATE in text for text in public_texts(t))


def test_only_the_director_shows_a_reason_and_only_one_that_exists(changed, api, cashier_user, floor_user, director):
    t = changed
    for user in (cashier_user, floor_user):
        assert api(user).post(f"/api/v1/tournaments/{t.pk}/changes/1/reason/", {"public": True}, format="json").status_code == 403
    assert api(director).post(f"/api/v1/tournaments/{t.pk}/changes/9/reason/", {"public": True}, format="json").json()["code"] == "unknown_version"
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/changes/1/reason/", {"public": "yes please"}, format="json")
    assert r.status_code == 400 and "public" in r.json()["fields"]
    assert not t.changes.get(version=1).reason_public


def test_the_director_shows_a_reason_from_the_tournament_page(changed, client, director, cashier_user):
    t = changed
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Staff only." in page and 'value="reason-public"' in page
    r = client.post(f"/tournaments/{t.pk}/", {"op": "reason-public", "version": "1"})
    assert r.status_code == 302
    assert "Shown to the players." in client.get(f"/tournaments/{t.pk}/").content.decode()
    assert PRIVATE in Client().get(f"/rules/{t.pk}/changes/").json()["changes"][0]["reason"]
    client.force_login(cashier_user)
    assert 'value="reason-private"' not in client.get(f"/tournaments/{t.pk}/").content.decode()
