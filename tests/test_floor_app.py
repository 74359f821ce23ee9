"""The floor's app through a Wi-Fi drop, on the server's side: its service worker and manifest
(public, no data, scoped to the floor's pages), the tap time a tablet's queue sends (believed only
within bounds, written in the event), the queued actions that honour an Idempotency-Key, and what
tells a tablet to forget a login: the session an answer was for, and every logout."""

import json
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from seating.models import Bust
from tests.conftest import make_user
from tests.seating.test_support import arrange, started  # noqa: F401 (fixture)
from tournaments.eventlog.services import tapped_at
from tournaments.models import BrowserSession, ChipCount, Penalty, TournamentEvent

pytestmark = pytest.mark.django_db


def test_the_floor_worker_is_served_to_anybody_scoped_to_the_floor_and_never_cached():
    r = Client().get("/tournaments/floor-sw.js")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/javascript")
    assert r["Service-Worker-Allowed"] == "/tournaments/"
    assert "no-cache" in r["Cache-Control"] or "max-age=0" in r["Cache-Control"]
    assert "script-src 'self'" in r["Content-Security-Policy"]
    text = r.content.decode()
    head = dict(line.removeprefix("const ").rstrip(";").split(" = ", 1) for line in text.splitlines()[:3])
    shell = json.loads(head["SHELL"])
    assert json.loads(head["SCOPE"]) == "/tournaments/" and len(json.loads(head["VERSION"])) == 16
    assert any(name.startswith("/static/floor-queue.") for name in shell) and all(name.startswith("/static/") for name in shell)
    assert Client().get("/tournaments/floor-sw.js").content.decode() == text  # one version until the build changes


def test_the_floor_manifest_opens_the_floor_overview_inside_its_scope():
    r = Client().get("/tournaments/floor.webmanifest")
    assert r.status_code == 200 and r["Content-Type"] == "application/manifest+json"
    data = json.loads(r.content)
    assert data["scope"] == "/tournaments/" and data["start_url"].startswith("/tournaments/") and data["display"] == "standalone"
    assert {"192x192", "512x512"} <= {i["sizes"] for i in data["icons"]}


def test_the_floor_pages_link_the_floor_manifest_and_its_queue(started):
    t = started(12)
    make_user("flo", "floor")
    client = Client()
    client.login(username="flo", password="pw-flo")
    for path in (f"/tournaments/{t.pk}/tables/", f"/tournaments/{t.pk}/floor/", f"/tournaments/{t.pk}/clock/"):
        page = client.get(path).content.decode()
        assert 'href="/tournaments/floor.webmanifest"' in page and 'id="floor-app"' in page and "floor-queue." in page, path


@pytest.mark.parametrize(
    "text, believed",
    [
        ("", False),
        ("yesterday", False),
        ("2026-01-01T10:00:00", False),  # no offset: whose 10:00?
        ("minutes ago", False),
        ("x" * 41, False),
    ],
)
def test_a_tap_time_that_cannot_be_read_is_not_believed(text, believed):
    assert (tapped_at(text) is not None) is believed


def test_a_tap_time_is_believed_within_the_last_hours_only():
    now = timezone.now()
    assert tapped_at((now - timedelta(minutes=3)).isoformat()) == now - timedelta(minutes=3)
    assert tapped_at((now - timedelta(hours=5, minutes=50)).isoformat()) is not None
    assert tapped_at((now - timedelta(hours=7)).isoformat()) is None  # too old to believe
    assert tapped_at((now + timedelta(hours=1)).isoformat()) is None  # the future
    soon = tapped_at((now + timedelta(seconds=30)).isoformat())  # a tablet's clock a little ahead: never later than now
    assert soon is not None and soon <= timezone.now()


def api_client(user):
    client = Client()
    client.force_login(user)
    return client


def started_an_hour_ago(started):
    """A tournament started an hour ago: a tap minutes ago was made while it ran (a tap before
    the start is not believed)."""
    with time_machine.travel(timezone.now() - timedelta(hours=1)):
        return started(18)


def test_a_queued_bust_logs_its_tap_time_beside_its_arrival_and_goes_once(started):
    t = started_an_hour_ago(started)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    client = api_client(make_user("tab", "floor"))
    tapped = (timezone.now() - timedelta(minutes=2)).isoformat()
    body = {"entries": [{"entry": layout[1][4]}], "table": 1}
    kwargs = {"content_type": "application/json", "HTTP_IDEMPOTENCY_KEY": "tap-1", "HTTP_X_TAPPED_AT": tapped}
    first = client.post(f"/api/v1/tournaments/{t.pk}/busts/", body, **kwargs)
    again = client.post(f"/api/v1/tournaments/{t.pk}/busts/", body, **kwargs)  # the answer was lost: sent again
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replay"] == "true" and again.json() == first.json()
    assert Bust.objects.filter(entry_id=layout[1][4]).count() == 1
    event = TournamentEvent.objects.filter(tournament=t, action="seating.player.busted").get()
    assert event.payload["tapped_at"] == tapped and event.created_at > timezone.datetime.fromisoformat(tapped)
    other = client.post(f"/api/v1/tournaments/{t.pk}/busts/", {"entries": [{"entry": layout[1][5]}], "table": 1}, content_type="application/json")
    assert other.status_code == 201
    assert "tapped_at" not in TournamentEvent.objects.filter(tournament=t, action="seating.player.busted").latest("id").payload  # not queued


def test_a_queued_hand_completed_and_penalty_act_once(started):
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    client = api_client(make_user("tab2", "floor"))
    kwargs = {"content_type": "application/json", "HTTP_IDEMPOTENCY_KEY": "hand-1"}
    first = client.post(f"/api/v1/tournaments/{t.pk}/tables/1/hand-completed/", {}, **kwargs)
    again = client.post(f"/api/v1/tournaments/{t.pk}/tables/1/hand-completed/", {}, **kwargs)
    assert first.status_code == again.status_code == 200 and again["Idempotent-Replay"] == "true"
    assert TournamentEvent.objects.filter(tournament=t, action__contains="hand").count() == 1  # the blinds moved once
    body = {"entry": layout[2][3], "kind": "MISSED_HANDS", "hands": 1, "reason_code": "SOFT_PLAY", "between_hands": True}
    kwargs["HTTP_IDEMPOTENCY_KEY"] = "penalty-1"
    first = client.post(f"/api/v1/tournaments/{t.pk}/floor/penalties/", body, **kwargs)
    again = client.post(f"/api/v1/tournaments/{t.pk}/floor/penalties/", body, **kwargs)
    assert first.status_code == again.status_code == 201, first.content
    assert again["Idempotent-Replay"] == "true" and Penalty.objects.filter(tournament=t).count() == 1


def test_a_queued_chip_count_counts_once_and_logs_its_tap_time(started):
    t = started_an_hour_ago(started)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    client = api_client(make_user("tab3", "floor"))
    tapped = (timezone.now() - timedelta(minutes=3)).isoformat()
    body = {"occasion": "BREAK", "counts": [{"entry": layout[1][s], "chips": 41000 + s} for s in range(1, 10)]}
    kwargs = {"content_type": "application/json", "HTTP_IDEMPOTENCY_KEY": "count-1", "HTTP_X_TAPPED_AT": tapped}
    first = client.post(f"/api/v1/tournaments/{t.pk}/floor/counts/", body, **kwargs)
    again = client.post(f"/api/v1/tournaments/{t.pk}/floor/counts/", body, **kwargs)  # the answer was lost: sent again
    assert first.status_code == again.status_code == 201, first.content
    assert again["Idempotent-Replay"] == "true" and again.json() == first.json() and first.json()["counted_players"] == 9
    assert ChipCount.objects.filter(tournament=t).count() == 9  # counted once
    (event,) = TournamentEvent.objects.filter(tournament=t, action="tournaments.chips.counted")
    assert event.payload["tapped_at"] == tapped and event.payload["players"] == 9


def test_every_logout_tells_the_browser_to_forget_what_it_kept():
    make_user("out", "floor")
    client = Client()
    client.login(username="out", password="pw-out")
    r = client.post("/logout/")
    assert r.status_code == 302 and r["Clear-Site-Data"] == '"cache", "storage"'  # from any page: the dashboard's form too
    client.login(username="out", password="pw-out")
    assert "Clear-Site-Data" not in client.get("/")  # a page, not a logout
    own = BrowserSession.objects.get(session_key=client.session.session_key)
    r = client.post(reverse("devices"), {"session": own.pk})  # this browser's own login ended on the devices page: a logout
    assert r.status_code == 302 and r["Clear-Site-Data"] == '"cache", "storage"'


def test_the_floor_and_the_api_say_whose_session_an_answer_was_for(started):
    t = started(12)
    make_user("mark", "floor")
    client = Client()
    client.login(username="mark", password="pw-mark")
    page = client.get(f"/tournaments/{t.pk}/tables/")
    api = client.get(f"/api/v1/tournaments/{t.pk}/tables/")
    marker = page["X-TDM-Session"]
    assert len(marker) == 32 and api["X-TDM-Session"] == marker
    assert client.session.session_key not in marker  # a keyed hash, never the session's key
    assert "X-TDM-Session" not in client.get(f"/live/{t.pk}/state/")  # the live state names nobody's session
    other = Client()
    other.login(username="mark", password="pw-mark")  # another login: another session
    assert other.get(f"/tournaments/{t.pk}/tables/")["X-TDM-Session"] not in ("", marker)
    client.logout()
    gone = client.get(f"/api/v1/tournaments/{t.pk}/tables/")
    assert gone.status_code in (401, 403) and gone["X-TDM-Session"] == ""
    assert Client().get(f"/tournaments/{t.pk}/tables/")["X-TDM-Session"] == ""  # sent to the login page
