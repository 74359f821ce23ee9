"""A lobby screen as a stream's overlay (``/overlay/<token>/``, OBS's browser source): the same
key, the same layout and live state, drawn on a transparent page of the overlay's size, with no
sound and the stream's delay; the director sets it on the screens page and through the API; the
lobby's snapshot carries the last busts for its lower third, named as every public list names
players."""

import json
import re
import uuid

import pytest
from rest_framework.test import APIClient

from seating import services as seating
from seating.models import Bust
from tournaments.live.snapshot import build_snapshot
from tournaments.models import DisplayScreen, Entry
from tournaments.people.names import public_name

from ..seating.test_support import arrange, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def screen(make_tournament):
    return DisplayScreen.objects.create(name="Stream", tournament=make_tournament(), token="tv-" + uuid.uuid4().hex, speaker=True)


def page_config(html: str) -> dict:
    return json.loads(re.search(r'<script id="display-rotation" type="application/json">(.*?)</script>', html, re.S).group(1))


def test_the_overlay_is_the_screen_drawn_for_a_stream(client, screen):
    screen.overlay_delay, screen.overlay_width, screen.overlay_height = 30, 1280, 720
    screen.save()
    html = client.get(f"/overlay/{screen.token}/").content.decode()
    assert re.search(r"<html lang=\"\w+\" data-colon=\"[^\"]*\" class=\"overlay\">", html)
    assert re.search(r'<link rel="stylesheet" href="/static/overlay[.\w]*\.css">', html)
    assert 'id="sound-test"' not in html and 'data-part="lastbust"' in html
    config = page_config(html)
    assert config["overlay"] == {"width": 1280, "height": 720, "delay": 30, "bust_seconds": 12}
    assert config["design"]["speaker"] is False  # the speaker screen never speaks through the stream
    assert client.get(f"/overlay/{screen.token}/", {"config": 1}).json() == config  # its look for changes sees no change
    # the lobby's TV at the same key is unchanged: its speaker speaks, no overlay
    tv = page_config(client.get(f"/display/{screen.token}/").content.decode())
    assert "overlay" not in tv and tv["design"]["speaker"] is True


def test_a_revoked_or_unknown_key_shows_no_overlay(client, screen):
    assert client.get("/overlay/not-a-screen/").status_code == 404
    api = APIClient()
    from tests.conftest import make_user

    api.force_authenticate(make_user("dir-ov", "director"))
    assert api.post(f"/api/v1/screens/{screen.pk}/revoke-token/").status_code == 200
    assert client.get(f"/overlay/{screen.token}/").status_code == 404


def test_the_director_sets_the_overlay_and_the_api_names_a_bad_field(screen, director):
    api = APIClient()
    api.force_authenticate(director)
    r = api.patch(f"/api/v1/screens/{screen.pk}/", {"overlay_width": 1280, "overlay_height": 720, "overlay_delay": 45, "bust_seconds": 8}, format="json")
    assert r.status_code == 200, r.json()
    body = r.json()
    assert (body["overlay_width"], body["overlay_height"], body["overlay_delay"], body["bust_seconds"]) == (1280, 720, 45, 8)
    assert body["overlay_url"] == f"/overlay/{screen.token}/"
    for field, value in (("overlay_delay", 901), ("overlay_width", 100), ("bust_seconds", 2)):
        r = api.patch(f"/api/v1/screens/{screen.pk}/", {field: value}, format="json")
        assert r.status_code == 400 and field in json.dumps(r.json()), r.json()
    screen.refresh_from_db()
    assert (screen.overlay_delay, screen.overlay_width, screen.bust_seconds) == (45, 1280, 8)


def test_the_screens_page_gives_the_overlays_address_size_and_delay(client, screen, director):
    client.force_login(director)
    html = client.get("/displays/").content.decode()
    assert f"/overlay/{screen.token}/" in html and f"/overlay/{screen.token}/#checkerboard" in html
    for name in ("overlay_width", "overlay_height", "overlay_delay", "bust_seconds"):
        assert f'name="{name}"' in html


def test_the_lobby_snapshot_carries_the_last_busts_newest_first_with_public_names(started, actor):  # noqa: F811
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)})
    first, second = layout[1][3], layout[2][5]
    seating.record_bust(t, [first], actor=actor)
    seating.record_bust(t, [second], actor=actor)
    busts = build_snapshot(t)["last_busts"]
    names = [public_name(p.first_name, p.last_name) for p in (Entry.objects.get(pk=e).person for e in (second, first))]
    assert [b["player"] for b in busts] == names
    assert [b["place"] for b in busts] == [17, 18]
    # a bust undone leaves the lower third's list
    seating.undo_bust(t, Bust.objects.get(entry_id=second, void=""), actor=actor)
    assert [b["place"] for b in build_snapshot(t)["last_busts"]] == [18]
    assert seat_map(t)[2][5] == second


def test_the_final_table_carries_its_seats_and_the_chips_counted_on_the_floor_tools(started, actor):  # noqa: F811
    from tournaments.floor import services as floor

    t = started(14)
    layout = arrange(t, {1: range(1, 8), 2: range(1, 8)})
    assert build_snapshot(t)["final_table"] == []  # two tables: no final table to draw
    t2 = started(8)
    layout = arrange(t2, {1: range(1, 9)})
    assert [(s["seat"], s["chips"]) for s in build_snapshot(t2)["final_table"]] == [(n, None) for n in range(1, 9)]  # no stack guessed
    leader = layout[1][4]
    floor.record_chip_counts(t2, [{"entry": leader, "chips": 90000}, {"entry": layout[1][2], "chips": 15000}], occasion="FINAL_TABLE", actor=actor)
    floor.record_chip_counts(t2, [{"entry": leader, "chips": 120000}], occasion="MANUAL", actor=actor)
    seats = {s["seat"]: s for s in build_snapshot(t2)["final_table"]}
    p = Entry.objects.get(pk=leader).person
    assert seats[4] == {"seat": 4, "player": public_name(p.first_name, p.last_name), "chips": 120000}
    assert seats[2]["chips"] == 15000 and seats[1]["chips"] is None


def test_a_block_over_the_picture_may_paint_no_background():
    from tdmanager.errors import ValidationFailed
    from tournaments.screens import rules as screen_rules

    design = {
        "theme": {"background": "#101828", "text": "#fafafa", "accent": "#ffcc00"},
        "blocks": [{"kind": "clock", "x": 0, "y": 0, "w": 6, "h": 4, "bg": "transparent"}],
    }
    assert screen_rules.clean_design(design)["blocks"][0]["bg"] == "transparent"
    design["blocks"][0]["bg"] = "red"
    with pytest.raises(ValidationFailed) as refused:
        screen_rules.clean_design(design)
    assert refused.value.as_dict()["field"] == "blocks[0].bg"
