"""FMT-02 (issue #16): every change of a published event (time, structure, buy-in, guarantee) is
a version with who and why, shown in the event's history (page and API) and announced on its
lobby screens."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from tdmanager.errors import DomainError
from tournaments.eventlog.services import Actor
from tournaments.live.snapshot import build_snapshot
from tournaments.models import Tournament, TournamentChange
from tournaments.setup import changes
from tournaments.setup import services as setup
from tournaments.structures import services as structures


@pytest.mark.django_db
def test_a_planned_event_changes_freely_a_published_one_is_versioned_with_who_and_why(make_tournament, director):
    actor = Actor(director, "test")
    draft = make_tournament(status=Tournament.PLANNED)
    setup.update_tournament(draft, {"start_at": draft.start_at + timedelta(hours=1)}, actor=actor)
    assert not TournamentChange.objects.filter(tournament=draft).exists()

    t = make_tournament()  # registration open: published
    old_start = t.start_at
    new_start = old_start + timedelta(minutes=30)
    with pytest.raises(DomainError) as err:
        setup.update_tournament(t, {"start_at": new_start}, actor=actor)
    assert err.value.code == "change_reason_required"
    setup.update_tournament(t, {"start_at": new_start}, actor=actor, override_reason="the room opens late")
    v1 = TournamentChange.objects.get(tournament=t)
    assert (v1.version, v1.changed_by, v1.reason) == (1, director, "the room opens late")
    assert v1.changes == {"start_at": [old_start.isoformat(), new_start.isoformat()]}
    assert t.events.filter(action="tournaments.tournament.versioned", payload__version=1).exists()
    # The lobby screens announce it; the reason once the director shows it to the players.
    local = timezone.localtime(new_start).strftime("%d/%m/%Y %H:%M")
    (announced,) = build_snapshot(t)["changes"]["en"]
    assert announced.startswith("Changed: Start: ") and local in announced and "opens late" not in announced
    changes.set_reason_public(t, 1, True, actor=actor)
    snap = build_snapshot(t)
    announced = snap["changes"]["en"]
    assert len(announced) == 1 and announced[0].startswith("Changed: Start: ") and local in announced[0]
    assert announced[0].endswith("(the room opens late)")
    # an Italian lobby reads it in Italian (#39 item 7), the director's reason as he wrote it
    (italian,) = snap["changes"]["it"]
    assert italian.startswith("Modificato: Inizio: ") and local in italian and "Changed" not in italian, italian
    assert italian.endswith("(the room opens late)")
    # A change that players do not read (the name) is no new version.
    setup.update_tournament(t, {"name": "Sunday Special II"}, actor=actor)
    assert TournamentChange.objects.filter(tournament=t).count() == 1


@pytest.mark.django_db
def test_the_api_changes_the_buy_in_and_guarantee_and_lists_the_versions(api, make_tournament, director, display_user):
    t = make_tournament()
    r = api(director).patch(f"/api/v1/tournaments/{t.pk}/", {"buy_in": "120", "guarantee": "5000", "override_reason": "sponsor added"}, format="json")
    assert r.status_code == 200, r.data
    r = api(director).patch(f"/api/v1/tournaments/{t.pk}/", {"start_at": (t.start_at + timedelta(hours=2)).isoformat()}, format="json")
    assert r.status_code == 400 and r.data["code"] == "change_reason_required"
    listed = api(display_user).get(f"/api/v1/tournaments/{t.pk}/changes/")
    assert listed.status_code == 200 and [c["version"] for c in listed.data] == [1]
    v = listed.data[0]
    assert (v["changed_by"], v["reason"]) == (director.get_username(), "")  # a screen reads the reason once shown
    assert api(director).get(f"/api/v1/tournaments/{t.pk}/changes/").data[0]["reason"] == "sponsor added"
    assert "Buy-in: 100.00 → 120.00" in v["lines"] and "Guarantee: — → 5000.00" in v["lines"]
    assert any(line.startswith("Fee: 10.00 → 12.00") for line in v["lines"])  # the fee follows the buy-in (REG-03)
    it = api(display_user).get(f"/api/v1/tournaments/{t.pk}/changes/", HTTP_ACCEPT_LANGUAGE="it").data[0]["lines"]
    assert "Garantito: — → 5000.00" in it


@pytest.mark.django_db
def test_a_structure_edit_is_a_version_of_every_published_event_that_plays_it(api, make_tournament, director):
    actor = Actor(director, "test")
    items = [{"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "minutes": 20}, {"kind": "LEVEL", "small_blind": 200, "big_blind": 400, "minutes": 20}]
    st = structures.save_structure(name="Friday", items=items, actor=actor)
    t = make_tournament(structure=st)
    draft = make_tournament(structure=st, status=Tournament.PLANNED)
    edited = [items[0], {"kind": "LEVEL", "small_blind": 200, "big_blind": 400, "ante": 400, "minutes": 25}]
    body = {"name": "Friday", "items": edited}
    r = api(director).put(f"/api/v1/structures/{st.pk}/", body, format="json")
    assert r.status_code == 400 and r.data["code"] == "change_reason_required"
    r = api(director).put(f"/api/v1/structures/{st.pk}/", {**body, "reason": "longer level 2"}, format="json")
    assert r.status_code == 200
    v = TournamentChange.objects.get(tournament=t)
    assert (v.kind, v.reason) == ("STRUCTURE", "longer level 2")
    assert v.changes == {"structure_rows": [[2, "200/400 · 20 min", "200/400 ante 400 · 25 min"]]}
    assert not TournamentChange.objects.filter(tournament=draft).exists()
    assert build_snapshot(t)["changes"]["en"] == ["Changed: Structure, row 2: 200/400 · 20 min → 200/400 ante 400 · 25 min"]
    changes.set_reason_public(t, 1, True, actor=actor)
    assert build_snapshot(t)["changes"]["en"] == ["Changed: Structure, row 2: 200/400 · 20 min → 200/400 ante 400 · 25 min (longer level 2)"]


@pytest.mark.django_db
def test_the_tournament_page_shows_the_history_and_old_changes_leave_the_lobby(make_tournament, director):
    actor = Actor(director, "test")
    t = make_tournament()
    setup.update_tournament(t, {"guarantee": Decimal("2000"), "buy_in": t.buy_in}, actor=actor, override_reason="more players expected")
    client = Client()
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="changes"' in page and "Guarantee: — → 2000.00" in page and "more players expected" in page
    later = timezone.now() + timedelta(hours=13)
    assert build_snapshot(t, now=later)["changes"]["en"] == []  # change_notice_hours: 12
    Tournament.objects.filter(pk=t.pk).update(settings={"change_notice_hours": 24})
    assert len(build_snapshot(t, now=later)["changes"]["en"]) == 1


@pytest.mark.django_db
def test_fmt02_a_running_event_is_published_too_its_change_says_why_and_is_a_version(make_tournament, director):
    """Once the clock runs the event is still the one players read: a change (here late
    registration kept open two levels longer) needs its reason and becomes the next version,
    announced on the lobby, as before the start."""
    actor = Actor(director, "test")
    t = make_tournament(status=Tournament.RUNNING, late_reg_closes_after_level=4)
    with pytest.raises(DomainError) as err:
        setup.update_tournament(t, {"late_reg_closes_after_level": 6}, actor=actor)
    assert err.value.code == "change_reason_required"
    setup.update_tournament(t, {"late_reg_closes_after_level": 6}, actor=actor, override_reason="the room is still filling")
    (v1,) = TournamentChange.objects.filter(tournament=t)
    assert (v1.version, v1.changed_by, v1.reason) == (1, director, "the room is still filling")
    assert v1.changes == {"late_reg_closes_after_level": [4, 6]}
    (announced,) = build_snapshot(t)["changes"]["en"]
    assert announced.startswith("Changed: ") and "6" in announced
