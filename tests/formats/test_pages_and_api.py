"""The formats from the dashboard pages and through /api/v1/formats/: roles, errors, flows."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tournaments.cashier import services as cashier
from tournaments.formats.models import Bag, Match, MultiDayEvent
from tournaments.formats.services import headsup
from tournaments.formats.services import series as series_service
from tournaments.models import Entry, Tournament
from tournaments.setup import lifecycle

from .conftest import scored_event
from .test_multiday import small_event

pytestmark = pytest.mark.django_db


def page_client(user):
    c = Client()
    c.force_login(user)
    return c


def test_a_director_creates_a_sit_and_go_from_the_form(director, structure):
    c = page_client(director)
    assert c.get("/formats/").status_code == 200
    r = c.post(
        "/formats/sit-and-go/new/",
        {"name": "S&G 19:00", "start_at": "2026-07-09T19:00", "buy_in": "50", "fee": "5", "starting_stack": "5000", "structure": structure.pk, "tables": "2"},
    )
    t = Tournament.objects.get(name="S&G 19:00")
    assert r.status_code == 302 and r["Location"] == f"/tournaments/{t.pk}/"
    assert (t.format, t.field_cap, t.status, t.table_size) == (Tournament.SNG, 20, Tournament.REGISTERING, 10)
    assert t.events.filter(action="formats.sitandgo.created").exists()


def test_only_directors_create_formats(floor_user, cashier_user, outsider):
    for user in (floor_user, cashier_user):
        assert page_client(user).get("/formats/sit-and-go/new/").status_code == 403
    assert page_client(outsider).get("/formats/").status_code == 403
    assert Client().get("/formats/").status_code == 302  # log in first


def test_the_multiday_pages_bag_a_room_and_build_day2(director, floor_user, structure, make_person, cashier_actor):
    c = page_client(director)
    r = c.post(
        "/formats/multiday/new/",
        {
            "name": "Main",
            "start_at": "2026-07-09T12:00",
            "buy_in": "1000",
            "fee": "100",
            "starting_stack": "30000",
            "structure": structure.pk,
            "flights": "1A 2026-07-09 12:00\n1B 2026-07-10 12:00",
            "day2_start_at": "2026-07-11T12:00",
            "max_entries_per_player": "2",
            "late_reg_closes_after_level": "6",
            "multi_flight_stack": "BEST",
            "surrender_allowed": "on",
            "chip_leader_prizes": "2000 1000 500",
        },
    )
    event = MultiDayEvent.objects.get(name="Main")
    assert r.status_code == 302 and event.flights.count() == 2
    t = event.flights.get(label="1A").tournament
    es = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    lifecycle.start(t, actor=cashier_actor)
    floor = page_client(floor_user)
    page = f"/formats/multiday/{event.pk}/"
    bags = f"{es[0].number} 50000 A1\n{es[1].number} 25000 A2\n{es[2].number} 15000 A3 S"
    r = floor.post(page, {"op": "bag", "tournament": t.pk, "bags": bags}, follow=True)
    assert "Bags recorded" in r.content.decode()
    assert floor.post(page, {"op": "close", "tournament": t.pk}).status_code == 403  # refused by the role table
    assert event.flights.get(label="1A").closed_at is None  # the floor cannot close a flight
    c.post(page, {"op": "close", "tournament": t.pk})
    r = c.post(page, {"op": "build"}, follow=True)
    assert "Close every flight first" in r.content.decode()  # 1B is still open
    t1b = event.flights.get(label="1B").tournament
    lifecycle.cancel(t1b, actor=cashier_actor, reason="no players")
    c.post(page, {"op": "build"})
    assert sorted(event.day2.entries.values_list("chips", flat=True)) == [25000, 50000]
    body = c.get(page).content.decode()
    assert "2,000.00" in body and "Chip leaders" in body  # money in the page's language (issue #28, item 10)


def test_the_api_runs_a_heads_up_bracket(api, director, floor_user, make_tournament, make_person, cashier_actor):
    t = make_tournament(format=Tournament.HEADS_UP, table_size=2)
    d = api(director)
    r = d.post("/api/v1/formats/headsup/", {"tournament": t.pk, "size": 4, "level_minutes": 10}, format="json")
    assert r.status_code == 201 and r.json()["size"] == 4
    for _ in range(4):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    f = api(floor_user)
    assert f.post(f"/api/v1/formats/headsup/{t.pk}/draw/", {}, format="json").status_code == 403  # director only
    r = d.post(f"/api/v1/formats/headsup/{t.pk}/draw/", {}, format="json")
    assert r.status_code == 200 and len(r.json()["rounds"]) == 2
    for round_data in r.json()["rounds"][:1]:
        for m in round_data["matches"]:
            base = f"/api/v1/formats/matches/{m['id']}/"
            assert f.post(base + "start/", {}, format="json").status_code == 200
            f.post(base + "seat/", {"entry": m["a"]["entry"]}, format="json")
            r = f.post(base + "game/", {"winner": m["a"]["entry"]}, format="json")
            assert r.status_code == 409 and r.json()["code"] == "player_absent" and r.json()["detail"]
            f.post(base + "seat/", {"entry": m["b"]["entry"]}, format="json")
            f.post(base + "game/", {"winner": m["b"]["entry"]}, format="json")
            r = f.post(base + "game/", {"winner": m["b"]["entry"]}, format="json")
            assert r.json()["status"] == "DONE" and r.json()["result"] == "PLAYED"
    final = Match.objects.get(bracket__tournament=t, round=2)
    assert final.status == Match.READY
    r = f.post(f"/api/v1/formats/matches/{final.pk}/game/", {}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "missing_field"
    assert f.post(f"/api/v1/formats/matches/{final.pk}/explode/", {}, format="json").status_code == 404


def test_the_bracket_and_the_leaderboard_are_public_lobby_pages(make_tournament, field, actor):
    t = make_tournament(format=Tournament.HEADS_UP, name="HU Sunday")
    headsup.create_bracket(t, actor=actor, size=4)
    players = field(t, 4)
    headsup.draw_bracket(t, actor=actor)
    anon = Client()
    r = anon.get(f"/formats/headsup/{t.pk}/bracket/")
    assert r.status_code == 200 and "HU Sunday" in r.content.decode() and "Semi-finals" in r.content.decode()
    data = anon.get(f"/formats/headsup/{t.pk}/bracket/?format=json").json()
    assert len(data["rounds"]) == 2
    # issue #39 item 12: the lobby names players as every public page does ("Mario R."), never in full
    shown = sorted(m[side]["name"] for m in data["rounds"][0]["matches"] for side in ("a", "b"))
    assert shown == sorted(f"{e.person.first_name} {e.person.last_name[0]}." for e in players)
    assert not any(e.person.last_name in r.content.decode() for e in players)
    s = series_service.create_series(name="Dailies", actor=actor)
    es = scored_event(s, make_tournament, field, actor, "Monday")
    r = anon.get(f"/formats/series/{s.pk}/leaderboard/")
    assert r.status_code == 200 and f"{es[2].person.first_name} {es[2].person.last_name[0]}." in r.content.decode()  # the public name style
    data = anon.get(f"/formats/series/{s.pk}/leaderboard/?format=json").json()
    assert data["standings"][0]["name"] == f"{es[2].person.first_name} {es[2].person.last_name[0]}." and data["tournaments_played"] == 1
    assert "person" not in data["standings"][0]  # issue #40 item 4: no person id links a player across seasons
    # Writes are never public.
    assert anon.post(f"/formats/series/{s.pk}/", {"op": "score", "tournament": es[0].tournament_id}).status_code == 302


def test_the_api_creates_and_scores_a_series_and_runs_a_timed_event(api, director, display_user, make_tournament, field, structure, actor):
    d = api(director)
    r = d.post("/api/v1/formats/series/", {"name": "Spring", "lb_constant_mode": "B"}, format="json")
    assert r.status_code == 201
    sid = r.json()["series"]["id"]
    r = d.post(f"/api/v1/formats/series/{sid}/schedule-daily/", {"date": "2010-03-05", "structure": structure.pk, "starting_stack": 8000}, format="json")
    assert r.status_code == 200 and (r.json()["buy_in"], r.json()["fee"]) == ("200.00", "20.00")  # Friday
    r = d.post(f"/api/v1/formats/series/{sid}/schedule-daily/", {"date": "2010-03-02", "structure": structure.pk, "starting_stack": 8000}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "no_daily_tournament"  # Tuesday
    assert api(display_user).get(f"/api/v1/formats/series/{sid}/").status_code == 403  # full names: the lobby reads the public leaderboard
    assert api(display_user).post(f"/api/v1/formats/series/{sid}/score/", {"tournament": 1}, format="json").status_code == 403
    t = make_tournament(name="Timed", format=Tournament.TIMED)
    r = d.post(f"/api/v1/formats/timed/{t.pk}/configure/", {"ends_at": (timezone.now() - timedelta(minutes=1)).isoformat()}, format="json")
    assert r.status_code == 200 and r.json()["end_condition"] == "TIME_LIMIT_CHIPCOUNT"
    es = field(t, 3)
    lifecycle.start(t, actor=actor)
    r = d.post(f"/api/v1/formats/timed/{t.pk}/finish/", {"counts": [{"entry": es[0].pk, "chips": 10000}]}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "counts_missing"
    r = d.post(f"/api/v1/formats/timed/{t.pk}/finish/", {"counts": [{"entry": e.pk, "chips": c} for e, c in zip(es, (5000, 15000, 10000))]}, format="json")
    assert r.status_code == 200 and [s["place"] for s in r.json()["standings"]] == [1, 2, 3]


def test_the_api_sells_a_stack_choice_once_per_idempotency_key(api, director, cashier_user, make_tournament, person):
    t = make_tournament(status=Tournament.PLANNED)
    r = api(director).post(f"/api/v1/formats/tournaments/{t.pk}/stack-options/", {"label": "Deep", "buy_in": "150", "fee": "15", "chips": 45000}, format="json")
    assert r.status_code == 201
    option = r.json()["id"]
    lifecycle.open_registration(t, actor=cashier_actor_for(director))
    c = api(cashier_user)
    url = f"/api/v1/formats/tournaments/{t.pk}/stack-choice/"
    first = c.post(url, {"person": person.pk, "option": option, "method": "CASH"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    again = c.post(url, {"person": person.pk, "option": option, "method": "CASH"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 201 and again.status_code == 201 and again["Idempotent-Replay"] == "true"
    assert first.json()["entry"]["chips"] == 45000 and first.json()["receipt"]["prize_amount"] == "150.00"
    assert t.ledger.count() == 1


def cashier_actor_for(user):
    from tournaments.eventlog.services import Actor

    return Actor(user, "test")


def test_the_multiday_api_bags_and_closes(api, director, floor_user, structure, make_person, cashier_actor):
    now = timezone.now()
    d = api(director)
    r = d.post(
        "/api/v1/formats/multiday/",
        {
            "name": "API Main",
            "flights": [{"label": "1A", "start_at": now.isoformat()}],
            "day2_start_at": (now + timedelta(days=1)).isoformat(),
            "buy_in": "500",
            "fee": "50",
            "starting_stack": 20000,
            "structure": structure.pk,
        },
        format="json",
    )
    assert r.status_code == 201
    event = MultiDayEvent.objects.get(pk=r.json()["id"])
    t = event.flights.get().tournament
    es = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(2)]
    lifecycle.start(t, actor=cashier_actor)
    f = api(floor_user)
    r = f.post(
        f"/api/v1/formats/flights/{t.pk}/bag/",
        {"rows": [{"entry": es[0].pk, "chips": 30000, "bag_number": "1"}, {"entry": es[1].pk, "chips": 10000, "bag_number": "2"}]},
        format="json",
    )
    assert r.status_code == 200 and r.json()["difference"] == 0
    assert f.post(f"/api/v1/formats/flights/{t.pk}/close/", {}, format="json").status_code == 403
    r = d.post(f"/api/v1/formats/flights/{t.pk}/close/", {}, format="json")
    assert r.status_code == 200 and [a["amount"] for a in r.json()["flights"][0]["chip_leaders"]] == ["2000.00", "1000.00"]
    r = d.post(f"/api/v1/formats/multiday/{event.pk}/build-day2/", {}, format="json")
    assert r.status_code == 200 and r.json()["day2"]["players"] == 2
    r = d.post(f"/api/v1/formats/multiday/{event.pk}/build-day2/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "day2_built"


def test_the_director_pages_render_and_run_a_match(director, floor_user, make_tournament, field, actor):
    t = make_tournament(format=Tournament.HEADS_UP, name="HU page")
    headsup.create_bracket(t, actor=actor, size=2)
    field(t, 2)
    c = page_client(director)
    page = f"/formats/headsup/{t.pk}/"
    assert "Draw the bracket" in c.get(page).content.decode()
    c.post(page, {"op": "draw"})
    m = Match.objects.get(bracket__tournament=t)
    floor = page_client(floor_user)
    floor.post(page, {"op": "start", "match": m.pk})
    for e in (m.player_a_id, m.player_b_id):
        floor.post(page, {"op": "seat", "match": m.pk, "entry": e})
    assert "A wins a game" in floor.get(page).content.decode()
    for _ in range(2):
        floor.post(page, {"op": "game", "match": m.pk, "entry": m.player_b_id})
    assert Entry.objects.get(pk=m.player_b_id).place == 1
    for url in ("/formats/timed/new/", "/formats/headsup/new/", "/formats/multiday/new/", "/formats/series/new/", "/formats/qualifiers/new/"):
        assert c.get(url).status_code == 200, url
    s = series_service.create_series(name="Page series", actor=actor)
    assert "General ranking" in c.get(f"/formats/series/{s.pk}/").content.decode()
    timed_t = make_tournament(format=Tournament.TIMED, name="Timed page")
    assert c.get(f"/formats/timed/{timed_t.pk}/").status_code == 200


def test_a_lobby_screen_on_a_heads_up_event_shows_its_bracket(make_tournament, make_person, cashier_actor, actor):
    """A display screen assigned to a heads-up tournament shows the bracket through its token."""
    from tournaments.models import DisplayScreen

    t = make_tournament(format=Tournament.HEADS_UP, table_size=2, name="Heads-up Group 1")
    headsup.create_bracket(t, actor=actor, size=4)
    for n in ("Ann", "Bob", "Cid", "Dan"):
        cashier.register(t, make_person(n, "Rossi"), method="CASH", actor=cashier_actor)
    headsup.draw_bracket(t, actor=actor)
    DisplayScreen.objects.create(name="TV 3", tournament=t, token="hu-tv")
    page = Client().get("/display/hu-tv/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="bracket"' in html and "Ann R." in html and "Dan R." in html and "Rossi" not in html  # the public name style
    assert Client().get("/display/wrong-token/").status_code == 404


def test_a_tournament_that_is_not_a_flight_has_no_bagging_and_says_so(api, director, floor_user, make_tournament, field, actor):
    t = make_tournament(name="Tuesday freezeout")
    es = field(t, 2)
    lifecycle.start(t, actor=actor)
    for r in (
        api(director).get(f"/api/v1/formats/flights/{t.pk}/"),
        api(floor_user).post(f"/api/v1/formats/flights/{t.pk}/bag/", {"rows": [{"entry": es[0].pk, "chips": 30000, "bag_number": "1"}]}, format="json"),
    ):
        assert (r.status_code, r.json()["code"], r.json()["detail"]) == (409, "not_a_flight", "This tournament is not a Day 1 flight.")


def test_a_flight_bags_only_its_own_players_found_by_id_or_by_a_number_beside_a_blank_id(api, floor_user, structure, make_person, cashier_actor, actor):
    event = small_event(structure, actor, flights=("1A", "1B"))
    a, b = (event.flights.get(label=label).tournament for label in ("1A", "1B"))
    mine, _other = (cashier.register(a, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(2))
    theirs, _another = (cashier.register(b, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(2))
    lifecycle.start(a, actor=actor)
    lifecycle.start(b, actor=actor)
    f = api(floor_user)
    r = f.post(f"/api/v1/formats/flights/{a.pk}/bag/", {"rows": [{"entry": theirs.pk, "chips": 20000, "bag_number": "9"}]}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "not_playing")
    r = f.post(f"/api/v1/formats/flights/{a.pk}/bag/", {"rows": [{"entry": "", "number": mine.number, "chips": 20000, "bag_number": "1"}]}, format="json")
    assert r.status_code == 200 and r.json()["bagged"] == 1
    assert list(Bag.objects.values_list("entry__tournament", "bag_number", "chips")) == [(a.pk, "1", 20000)]


def test_fmt12_a_heads_up_events_page_takes_the_director_to_its_bracket_and_its_leaderboard(director, make_tournament, actor):
    plain = make_tournament(name="Tuesday freezeout")
    t = make_tournament(format=Tournament.HEADS_UP, name="HU Monday")
    c = page_client(director)

    def format_buttons(tournament):
        return [link for link in c.get(f"/tournaments/{tournament.pk}/").context["section_links"] if link["url"].startswith("/formats/")]

    assert format_buttons(plain) == []
    headsup.create_bracket(t, actor=actor, size=4)
    assert format_buttons(t) == [{"label": "Bracket", "url": f"/formats/headsup/{t.pk}/"}]
    s = series_service.create_series(name="HU league", actor=actor)
    series_service.attach(s, t, actor=actor)
    assert format_buttons(t) == [{"label": "Bracket", "url": f"/formats/headsup/{t.pk}/"}, {"label": "Leaderboard", "url": f"/formats/series/{s.pk}/"}]


def test_fmt11_the_formats_page_lists_every_event_and_each_days_page_takes_the_director_to_its_event(director, structure, make_tournament, actor):
    """The director's formats page lists the multi-day events (with Day 2's state), the heads-up
    brackets and the timed events (the latest first), the qualifying groups and the series. A
    flight's page and Day 2's take him to their multi-day event; a timed event's, a qualifying
    table's and its final's to the timed and qualifiers page."""
    from tournaments.formats.services import timed

    now = timezone.now()
    event = small_event(structure, actor)
    flight = event.flights.get().tournament
    early, late = (make_tournament(format=Tournament.HEADS_UP, name=name, start_at=now + timedelta(days=d)) for name, d in (("HU early", 1), ("HU late", 2)))
    for t in (early, late):
        headsup.create_bracket(t, actor=actor, size=4)
    slow, quick = (
        timed.create_timed_event(
            name=name, start_at=now + timedelta(days=d), buy_in=100, fee=10, starting_stack=10000, structure=structure, actor=actor, minutes=90
        )
        for name, d in (("Timed Monday", 1), ("Timed Friday", 5))
    )
    qualifier, final = make_tournament(name="Satellite table"), make_tournament(name="Grand final")
    timed.create_qualifier_group(name="Road to the final", final=final, qualifiers=[qualifier], actor=actor)
    series_service.create_series(name="Winter leaderboard", actor=actor)
    c = page_client(director)

    page = c.get("/formats/").content.decode()
    lists = {h: section.split("</ul>", 1)[0] for h, section in (part.split("</h2>", 1) for part in page.split("<h2>")[1:] if "</h2>" in part)}
    assert f'href="/formats/multiday/{event.pk}/">Small Main</a> — Day 2: Planned' in lists["Multi-day events"]
    brackets = lists["Heads-up brackets"]
    assert brackets.index("HU late") < brackets.index("HU early") and f'href="/formats/headsup/{late.pk}/bracket/"' in brackets
    timed_list = lists["Timed events and qualifying tables"]
    assert timed_list.index("Timed Friday") < timed_list.index("Timed Monday") < timed_list.index("Road to the final")
    assert f'href="/formats/timed/{final.pk}/">Road to the final</a> — final: Grand final' in timed_list
    assert "Winter leaderboard" in lists["Leaderboard series"]

    def format_buttons(tournament):
        return [link for link in c.get(f"/tournaments/{tournament.pk}/").context["section_links"] if link["url"].startswith("/formats/")]

    assert format_buttons(flight) == format_buttons(event.day2) == [{"label": "Multi-day event", "url": f"/formats/multiday/{event.pk}/"}]
    for t in (quick, qualifier, final):
        assert format_buttons(t) == [{"label": "Timed / qualifiers", "url": f"/formats/timed/{t.pk}/"}]
