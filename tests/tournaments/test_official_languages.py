"""ROLE-06 (TDA 6): the tables' official languages are posted on the lobby screens — a house
setting, Italian and English by default (000, 003), none when the house clears it."""

import secrets

import pytest

from tournaments.live.snapshot import build_snapshot
from tournaments.models import DisplayScreen, Tournament

pytestmark = pytest.mark.django_db


def test_the_lobby_posts_the_official_languages(client, make_tournament):
    t = make_tournament()
    assert build_snapshot(t)["official_languages"] == "Italiano, English"
    screen = DisplayScreen.objects.create(name="TV 1", tournament=t, token=secrets.token_urlsafe(24))
    html = client.get(f"/display/{screen.token}/").content.decode()
    assert 'id="languages"' in html and "Official languages" in html
    Tournament.objects.filter(pk=t.pk).update(settings={"official_languages": "English"})
    t.refresh_from_db()
    assert build_snapshot(t)["official_languages"] == "English"
