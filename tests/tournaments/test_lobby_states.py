"""Issue #14: the lobby screen has the right picture in every state of a tournament, starting
can start the clock in the same action, finishing stops it and names the winner, and "Next
break in" is given so that the browser counts it down with the level clock."""

from datetime import timedelta

import pytest
from django.utils import timezone

from seating import services as seating
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.live.snapshot import build_snapshot
from tournaments.models import Clock, StructureItem, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(make_tournament, make_person, cashier_actor):
    t = make_tournament(name="Lobby Cup")
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    return t, entries


def test_start_with_start_clock_runs_the_clock_in_the_same_action(field, actor):
    t, _entries = field
    now = timezone.now()
    lifecycle.start(t, actor=actor, start_clock=True, now=now)
    clock = Clock.objects.get(tournament=t)
    assert clock.status == Clock.RUNNING and clock.ends_at == now + timedelta(minutes=t.structure.items.order_by("position")[0].minutes)
    snap = build_snapshot(t, now=now)
    assert snap["lobby_state"] == "final_table" and snap["clock"]["status"] == "RUNNING"  # three players: one table
    assert t.events.filter(action="tournaments.clock.started").count() == 1


def test_start_without_the_clock_shows_the_first_level_in_full_not_zero(field, actor):
    t, _entries = field
    lifecycle.start(t, actor=actor)
    snap = build_snapshot(t)
    first = t.structure.items.order_by("position")[0]
    assert snap["lobby_state"] == "waiting"
    assert snap["clock"]["status"] == "NOT_STARTED" and snap["clock"]["seconds_left"] == first.minutes * 60
    assert Clock.objects.get(tournament=t).status == Clock.NOT_STARTED


def test_a_start_refused_starts_no_clock(make_tournament, make_person, actor, cashier_actor):
    t = make_tournament(min_players=5)
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    with pytest.raises(lifecycle.LifecycleError):
        lifecycle.start(t, actor=actor, start_clock=True)
    t.refresh_from_db()
    assert t.status == Tournament.REGISTERING and not Clock.objects.filter(tournament=t, status=Clock.RUNNING).exists()


def test_the_api_start_takes_start_clock(field, api, director):
    t, _entries = field
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/start/", {"start_clock": True}, format="json")
    assert r.status_code == 200, r.content
    assert Clock.objects.get(tournament=t).status == Clock.RUNNING


def test_the_page_start_starts_the_clock_when_ticked(field, client, director):
    t, _entries = field
    client.force_login(director)
    client.post(f"/tournaments/{t.pk}/", {"op": "start", "start_clock": "1"})
    assert Clock.objects.get(tournament=t).status == Clock.RUNNING


def test_finishing_stops_the_clock_and_the_lobby_names_the_winner(field, actor):
    t, entries = field
    lifecycle.start(t, actor=actor, start_clock=True)
    seating.record_bust(t, [{"entry": entries[0].pk}], actor=actor)
    seating.record_bust(t, [{"entry": entries[1].pk}], actor=actor)
    lifecycle.finish(t, actor=actor)
    assert Clock.objects.get(tournament=t).status == Clock.FINISHED
    snap = build_snapshot(t, now=timezone.now() + timedelta(hours=5))
    assert snap["lobby_state"] == "finished" and snap["clock"]["status"] == "FINISHED"
    assert snap["clock"]["ends_at"] is None and snap["clock"]["seconds_to_next_break"] is None
    winner = entries[2].person
    assert snap["results"][0] == {"place": 1, "player": f"{winner.first_name} {winner.last_name[0]}.", "entry": entries[2].pk}
    assert [r["place"] for r in snap["results"]] == [1, 2, 3]
    assert str(entries[2].pk) in snap["won"]  # what the winner won, from payouts


def test_the_api_finish_stops_the_clock(field, api, director, actor):
    t, _entries = field
    lifecycle.start(t, actor=actor, start_clock=True)
    assert api(director).post(f"/api/v1/tournaments/{t.pk}/finish/").status_code == 200
    assert Clock.objects.get(tournament=t).status == Clock.FINISHED


def test_cancelling_a_running_tournament_stops_its_clock(field, actor):
    t, _entries = field
    lifecycle.start(t, actor=actor, start_clock=True)
    lifecycle.cancel(t, actor=actor, reason="power cut")
    assert Clock.objects.get(tournament=t).status == Clock.FINISHED
    assert build_snapshot(t)["lobby_state"] == "cancelled"


def test_each_state_has_its_lobby_picture(make_tournament, make_person, actor, cashier_actor):
    t = make_tournament(status=Tournament.PLANNED)
    assert build_snapshot(t)["lobby_state"] == "planned"
    lifecycle.open_registration(t, actor=actor)
    assert build_snapshot(t)["lobby_state"] == "registering"
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(12)]
    now = timezone.now()
    lifecycle.start(t, actor=actor, start_clock=True, now=now)
    assert build_snapshot(t, now=now)["lobby_state"] == "running"  # two tables
    clock_services.pause(t, actor=actor, now=now)
    assert build_snapshot(t, now=now)["lobby_state"] == "paused"
    clock_services.resume(t, actor=actor, now=now)
    first_break = next(i for i, it in enumerate(t.structure.items.order_by("position")) if it.kind == StructureItem.BREAK)
    clock_services.jump_to(t, first_break, actor=actor, now=now)
    assert build_snapshot(t, now=now)["lobby_state"] == "break"
    clock_services.jump_to(t, first_break + 1, actor=actor, now=now)
    clock_services.start_hand_for_hand(t, actor=actor, now=now)
    assert build_snapshot(t, now=now)["lobby_state"] == "hand_for_hand"
    clock_services.end_hand_for_hand(t, actor=actor, now=now)
    for e in entries[:4]:
        seating.record_bust(t, [{"entry": e.pk}], actor=actor)
    snap = build_snapshot(t, now=now)
    assert snap["tables_in_play"] == 1 and snap["lobby_state"] == "final_table"


def test_next_break_in_is_the_time_left_plus_the_levels_before_the_break(field, actor):
    t, _entries = field
    now = timezone.now()
    lifecycle.start(t, actor=actor, start_clock=True, now=now)
    items = list(t.structure.items.order_by("position"))
    first_break = next(i for i, it in enumerate(items) if it.kind == StructureItem.BREAK)
    between = sum(it.minutes * 60 for it in items[1:first_break])  # the levels after this one, before the break
    later = now + timedelta(seconds=100)
    c = build_snapshot(t, now=later)["clock"]
    assert c["next_break_after_item"] == between
    assert c["seconds_to_next_break"] == items[0].minutes * 60 - 100 + between
    # What display.js computes each second: the level's own countdown plus the fixed part.
    # Ten seconds on, the same snapshot's inputs give ten seconds less.
    ends_at = timezone.datetime.fromisoformat(c["ends_at"])
    at = later + timedelta(seconds=10)
    assert (ends_at - at).total_seconds() + c["next_break_after_item"] == c["seconds_to_next_break"] - 10
    # Paused, the inputs stand still: the same value whenever it is read.
    clock_services.pause(t, actor=actor, now=later)
    p1 = build_snapshot(t, now=later + timedelta(seconds=30))["clock"]
    p2 = build_snapshot(t, now=later + timedelta(seconds=90))["clock"]
    assert p1["seconds_to_next_break"] == p2["seconds_to_next_break"] == c["seconds_to_next_break"]
    assert p1["ends_at"] is None and p1["seconds_left"] + p1["next_break_after_item"] == p1["seconds_to_next_break"]


def test_the_director_sets_a_screens_rotation_through_the_api(make_tournament, api, director, floor_user, client):
    from tournaments.models import DisplayScreen

    a, b = make_tournament(name="Main"), make_tournament(name="Side")
    screen = DisplayScreen.objects.create(name="Lobby", token="rot-api")
    url = f"/api/v1/screens/{screen.pk}/"
    assert api(floor_user).patch(url, {"rotate": [a.pk]}, format="json").status_code == 403
    r = api(director).patch(url, {"rotate": [a.pk, b.pk], "rotate_seconds": 15}, format="json")
    assert r.status_code == 200 and sorted(r.json()["rotate"]) == sorted([a.pk, b.pk]) and r.json()["rotate_seconds"] == 15
    bad = api(director).patch(url, {"rotate_seconds": 2}, format="json")
    assert bad.status_code == 400 and bad.json()["code"]
    assert api(director).patch(url, {"rotate": [987654]}, format="json").status_code == 400
    # The screen's page rotates between them and its token reads both (and nothing else).
    config = client.get("/display/rot-api/?config=1").json()
    assert [x["name"] for x in config["tournaments"]] == ["Main", "Side"] and config["seconds"] == 15
    other = make_tournament(name="Elsewhere")
    assert client.get(f"/live/{b.pk}/state/?token=rot-api").status_code == 200
    assert client.get(f"/live/{other.pk}/state/?token=rot-api").status_code == 403


def test_the_displays_page_lists_screens_with_their_rotation(make_tournament, client, director):
    from tournaments.models import DisplayScreen

    a = make_tournament(name="Main")
    screen = DisplayScreen.objects.create(name="Bar TV", token="rot-page")
    screen.rotate.set([a])
    client.force_login(director)
    html = client.get("/displays/").content.decode()
    assert "Bar TV" in html and f'name="rotate" value="{a.pk}" class="w-auto" checked' in html


def test_the_lobby_pictures_speak_italian(make_tournament, client):
    from tournaments.models import DisplayScreen

    t = make_tournament(name="Main")
    DisplayScreen.objects.create(name="Lobby", token="it-tv", tournament=t)
    client.cookies["django_language"] = "it"
    html = client.get("/display/it-tv/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    for text in ("IN PROGRAMMA", "ISCRIZIONI APERTE", "TAVOLO FINALE", "Si parte tra", "Vincitore", "Prossima pausa tra"):
        assert text in html, text


def test_the_tournament_page_asks_to_start_the_clock_and_to_confirm_the_finish(field, client, director, actor):
    t, _entries = field
    client.force_login(director)
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'name="start_clock" value="1" class="w-auto" checked' in html
    lifecycle.start(t, actor=actor)
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-confirm="Finish the tournament? The clock stops' in html
    client.post(f"/tournaments/{t.pk}/", {"op": "finish"})
    assert Clock.objects.get(tournament=t).status == Clock.FINISHED


def test_a_running_tournament_whose_clock_was_finished_shows_a_clock_standing_still(field, actor):
    t, _entries = field
    lifecycle.start(t, actor=actor, start_clock=True)
    clock_services.finish_clock(t, actor=actor, reason="last hands")
    assert build_snapshot(t)["lobby_state"] == "paused"


def test_a_rotating_screens_announcement_shows_with_the_tournaments_it_rotates(make_tournament):
    from tournaments.models import DisplayScreen

    a, b = make_tournament(name="Main"), make_tournament(name="Side")
    screen = DisplayScreen.objects.create(name="Bar TV", token="rot-ann", announcement="Dinner at 21:00")
    screen.rotate.set([a])
    assert build_snapshot(a)["announcements"][:1] == ["Dinner at 21:00"]
    assert "Dinner at 21:00" not in build_snapshot(b)["announcements"]
