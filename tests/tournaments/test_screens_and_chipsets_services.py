"""Lobby screens and chip sets change only through their services (tournaments.screens.services,
tournaments.floor.chipsets): the API, and the pages that use it or post their own forms,
write the same logged event, and a screen's change is announced to every tournament it shows."""

import uuid

import pytest
from django.test import Client

from tdmanager import realtime
from tournaments.models import ChipSet, DisplayScreen, TournamentEvent

pytestmark = pytest.mark.django_db


def events(action):
    return [(e.tournament_id, e.payload, e.actor_id) for e in TournamentEvent.objects.filter(action=action).order_by("id")]


@pytest.fixture
def announced(monkeypatch, settings):
    """The tournaments announced (realtime.tournament_changed) once each change is committed."""
    seen = []
    monkeypatch.setattr(realtime, "tournament_changed", lambda tid, action="": seen.append((tid, action)))
    return seen


def test_a_screen_added_through_the_api_is_logged_with_its_link(api, director, make_tournament):
    t = make_tournament()
    r = api(director).post("/api/v1/screens/", {"name": "Lobby TV", "tournament": t.pk, "announcement": "Benvenuti", "show": {"payouts": False}}, format="json")
    assert r.status_code == 201, r.content
    screen = DisplayScreen.objects.get(pk=r.json()["id"])
    assert len(screen.token) >= 32 and r.json()["url"] == f"/display/{screen.token}/"
    assert (screen.announcement, screen.show) == ("Benvenuti", {"payouts": False})
    assert events("tournaments.display.created") == [(t.pk, {"screen": "Lobby TV"}, director.pk)]
    assert Client().get(f"/display/{screen.token}/").status_code == 200


def test_a_screens_change_is_logged_and_announced_to_every_tournament_it_shows(api, director, make_tournament, announced, django_capture_on_commit_callbacks):
    main, old_rotation, new_rotation = make_tournament(name="Main"), make_tournament(name="Old"), make_tournament(name="New")
    screen = DisplayScreen.objects.create(name="Lobby TV", tournament=main, token="tv-" + uuid.uuid4().hex)
    screen.rotate.set([old_rotation])
    with django_capture_on_commit_callbacks(execute=True):
        r = api(director).patch(f"/api/v1/screens/{screen.pk}/", {"announcement": "Pausa alle 22", "rotate": [new_rotation.pk]}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["announcement"] == "Pausa alle 22" and r.json()["rotate"] == [new_rotation.pk]
    assert events("tournaments.display.updated") == [(main.pk, {"screen": "Lobby TV", "fields": ["announcement", "rotate"]}, director.pk)]
    # its own tournament, the one it now rotates to, and the one it no longer shows
    assert sorted(tid for tid, _a in announced) == sorted([main.pk, old_rotation.pk, new_rotation.pk])
    assert {a for _t, a in announced} == {"tournaments.display.updated"}


def test_a_screen_removed_through_the_api_is_logged_and_its_link_stops(api, director, make_tournament):
    t = make_tournament()
    screen = DisplayScreen.objects.create(name="Bar TV", tournament=t, token="tv-" + uuid.uuid4().hex)
    assert api(director).delete(f"/api/v1/screens/{screen.pk}/").status_code == 204
    assert events("tournaments.display.deleted") == [(t.pk, {"screen": "Bar TV"}, director.pk)]
    assert Client().get(f"/display/{screen.token}/").status_code == 404


def test_revoking_a_link_on_the_page_and_through_the_api_logs_the_same_event(api, director, make_tournament):
    t = make_tournament()
    by_page = DisplayScreen.objects.create(name="Lobby TV", tournament=t, token="tv-" + uuid.uuid4().hex)
    by_api = DisplayScreen.objects.create(name="Lobby TV", tournament=t, token="tv-" + uuid.uuid4().hex)
    page = Client()
    page.force_login(director)
    assert page.post("/displays/", {"screen": by_page.pk, "op": "revoke"}).status_code == 302
    assert api(director).post(f"/api/v1/screens/{by_api.pk}/revoke-token/").status_code == 200
    logged = events("tournaments.display.token_revoked")
    assert logged == [(t.pk, {"screen": "Lobby TV"}, director.pk)] * 2


def test_a_chip_set_saved_and_changed_through_the_api_is_logged(api, director):
    r = api(director).post(
        "/api/v1/chipsets/",
        {"name": "Club set", "denominations": [{"value": 25, "colour": "verde", "quantity": 300}, {"value": 100, "colour": "nero", "quantity": 200}]},
        format="json",
    )
    assert r.status_code == 201, r.content
    cs = ChipSet.objects.get(pk=r.json()["id"])
    assert cs.as_mapping() == {25: 300, 100: 200}
    r = api(director).patch(f"/api/v1/chipsets/{cs.pk}/", {"name": "Club set 2"}, format="json")
    assert r.status_code == 200, r.content
    r = api(director).patch(f"/api/v1/chipsets/{cs.pk}/", {"denominations": [{"value": 500, "colour": "viola", "quantity": 50}]}, format="json")
    assert r.status_code == 200 and [d["value"] for d in r.json()["denominations"]] == [500]
    first = [{"value": 25, "colour": "verde", "quantity": 300}, {"value": 100, "colour": "nero", "quantity": 200}]
    assert events("tournaments.chipset.saved") == [
        (None, {"chip_set": cs.pk, "name": "Club set", "denominations": first}, director.pk),
        (None, {"chip_set": cs.pk, "name": "Club set 2", "denominations": first}, director.pk),  # the name only: the chips kept
        (None, {"chip_set": cs.pk, "name": "Club set 2", "denominations": [{"value": 500, "colour": "viola", "quantity": 50}]}, director.pk),
    ]
    assert api(director).delete(f"/api/v1/chipsets/{cs.pk}/").status_code == 204
    assert events("tournaments.chipset.deleted") == [(None, {"chip_set": cs.pk, "name": "Club set 2"}, director.pk)]
    assert not ChipSet.objects.exists()


def test_a_refused_chip_set_writes_nothing(api, director):
    r = api(director).post("/api/v1/chipsets/", {"name": "x" * 81, "denominations": [{"value": 25, "colour": "verde", "quantity": 1}]}, format="json")
    assert r.status_code == 400 and "name" in r.json()["fields"]
    assert not ChipSet.objects.exists() and not TournamentEvent.objects.filter(action="tournaments.chipset.saved").exists()
