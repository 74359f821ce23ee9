"""SEAT-02 (004): registrants drawn in advance into sessions (evenings, Day 1A / 1B) and tables,
evenly and at random, logged as the other draws; each player's phone page shows the schedule
and the staff print or export the list (CSV cells never start a formula)."""

import csv
import io
import random
from collections import Counter

import pytest
from django.test import Client

from seating.predraw import predraw
from tournaments.models import Tournament
from tournaments.services import cashier, lifecycle
from tournaments.services.events import Actor


def test_seat02_the_draw_fills_the_sessions_evenly_and_seats_everyone_once():
    players = list(range(1, 20))  # 19 registrants, 9-max tables, two sessions
    out, order = predraw(players, ["1A", "1B"], capacity=9, rng=random.Random(7))
    assert sorted(a.player for a in out) == players and sorted(order) == players
    sizes = Counter(a.session for a in out)
    assert sizes == {"1A": 10, "1B": 9}  # 19 over 2: 10 and 9, the first session one more
    tables = Counter((a.session, a.table) for a in out)
    assert tables == {("1A", 1): 5, ("1A", 2): 5, ("1B", 1): 9}  # as few tables as needed, filled evenly
    assert len({(a.session, a.table, a.seat) for a in out}) == 19 and all(1 <= a.seat <= 9 for a in out)
    # The first session takes the 1st, 3rd, 5th … players of the shuffle: the shuffle alone decides.
    assert {a.player for a in out if a.session == "1A"} == set(order[0::2])
    other, _ = predraw(players, ["1A", "1B"], capacity=9, rng=random.Random(8))
    assert {(a.player, a.session, a.table, a.seat) for a in other} != {(a.player, a.session, a.table, a.seat) for a in out}


@pytest.fixture
def registered(make_tournament, make_person, cashier_actor):
    t = make_tournament()
    for i in range(11):
        cashier.register(t, make_person("Anna" if i else "=HYPERLINK(x)", f"Rossi{i}"), method="CASH", actor=cashier_actor)
    return t


@pytest.mark.django_db
def test_seat02_the_director_draws_by_the_api_and_it_is_logged(registered, api, director, floor_user, cashier_user):
    t = registered
    url = f"/api/v1/tournaments/{t.pk}/seating/predraw/"
    assert api(floor_user).post(url, {"sessions": ["1A", "1B"]}, format="json").status_code == 403
    r = api(director).post(url, {"sessions": ["1A", "1B"], "reason": "004: schedule sent to the registrants"}, format="json")
    assert r.status_code == 201, r.data
    assert len(r.data) == 11 and Counter(row["session"] for row in r.data) == {"1A": 6, "1B": 5}
    event = t.events.get(action="seating.predraw")
    assert event.payload["players"] == 11 and event.payload["rng"].startswith("secrets.SystemRandom")
    assert sorted(event.payload["order"]) == sorted(t.entries.values_list("pk", flat=True))
    assert api(cashier_user).get(url).data == r.data  # the desk reads it to tell a player
    # A registrant refunded since is no longer on the list.
    refunded = t.entries.order_by("number").first()
    cashier.refund(refunded, reason="cannot come", actor=Actor(director, "test"))
    assert len(api(director).get(url).data) == 10 and refunded.number not in [row["entry"] for row in api(director).get(url).data]
    bad = api(director).post(url, {"sessions": ["1A", "1A"]}, format="json")
    assert bad.status_code == 400 and "sessions" in bad.data["fields"]
    # Drawing again replaces the draw (one row per registrant).
    r = api(director).post(url, {"sessions": ["Mon", "Tue", "Wed"]}, format="json")
    assert Counter(row["session"] for row in r.data) == {"Mon": 4, "Tue": 3, "Wed": 3}  # the 10 registrants left


@pytest.mark.django_db
def test_seat02_the_player_sees_the_schedule_on_the_phone(registered, api, director):
    t = registered
    api(director).post(f"/api/v1/tournaments/{t.pk}/seating/predraw/", {"sessions": ["1A", "1B"]}, format="json")
    entry = t.entries.select_related("predraw_seat").order_by("number").last()
    mine = entry.predraw_seat
    state = Client().get(f"/p/{entry.phone_token}/state/").json()
    assert state["schedule"] == {"session": mine.session, "table": mine.table, "seat": mine.seat}
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/p/{entry.phone_token}/").content.decode()
    assert "Your schedule" in page and f'id="schedule-session">{mine.session}<' in page


@pytest.mark.django_db
def test_seat02_the_list_prints_and_exports_without_formulas(registered, client, director):
    t = registered
    client.force_login(director)
    r = client.post(f"/tournaments/{t.pk}/tables/predraw/", {"sessions": "1A, 1B", "reason": ""})
    assert r.status_code == 302
    page = client.get(f"/tournaments/{t.pk}/tables/predraw/").content.decode()
    assert page.count("<tr><td>1A</td>") == 6 and page.count("<tr><td>1B</td>") == 5
    exported = client.get(f"/tournaments/{t.pk}/tables/predraw/?format=csv")
    rows = list(csv.reader(io.StringIO(exported.content.decode())))
    assert len(rows) == 12 and rows[0][0] in ("Session", "Sessione")
    names = [row[4] for row in rows[1:]]
    assert "'=HYPERLINK(x) Rossi0" in names and not any(n.startswith("=") for n in names)


@pytest.mark.django_db
def test_seat02_once_the_tournament_runs_it_is_too_late(registered, api, director, actor):
    lifecycle.start(registered, actor=actor, prestart_report_sent=True)
    assert Tournament.objects.get(pk=registered.pk).status == Tournament.RUNNING
    r = api(director).post(f"/api/v1/tournaments/{registered.pk}/seating/predraw/", {"sessions": ["1A"]}, format="json")
    assert r.status_code == 409 and r.data["code"] == "predraw_too_late"
