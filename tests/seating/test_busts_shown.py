"""The busts as the floor sees them: ``GET …/busts/`` (newest first: who, where, when, the place,
and in a bounty event who knocked each one out and what it won, PAY-02), the finishing places
``GET …/standings/`` and the table map page's lists of the latest busts and places."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from seating import services
from tests.payouts.bounty_setup import bounty_event
from tournaments.eventlog.services import Actor
from tournaments.models import Entry

from .test_support import arrange, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def busts_url(t):
    return f"/api/v1/tournaments/{t.pk}/busts/"


def standings_url(t):
    return f"/api/v1/tournaments/{t.pk}/standings/"


def by_number(t) -> dict:
    return {e.number: e for e in Entry.objects.filter(tournament=t)}


def at(minute):
    return datetime(2026, 3, 14, 21, minute, tzinfo=UTC)


def row(e, **shown) -> dict:
    """A bust as the list shows it: the player, and what this test sets (the rest as a plain bust)."""
    plain = {"h4h_hand": None, "hand_group": None, "kind": "BUST", "reported_by": "dora", "void": "", "reason": "", "starting_stack": None}
    return {**plain, "entry": e.pk, "entry_number": e.number, "player": f"Player{e.number:03d} Test", "simultaneous_reason": "", **shown}


def test_pay02_the_bust_list_shows_the_newest_first_with_who_where_when_and_the_place(api, floor_user, started, actor):
    t = started(10, table_size=5)
    arrange(t, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4, 5]}, big_blinds={1: (2, 1), 2: (2, 1)})  # #1-#5 at table 1, #6-#10 at 2
    e = by_number(t)
    first = services.record_bust(t, [{"entry": e[3], "starting_stack": 4000}], actor=actor, reason="river", now=at(5)).busts[0]
    undone = services.record_bust(t, [e[8]], actor=actor, now=at(9)).busts[0]
    services.undo_bust(t, undone, actor=actor, reason="wrong player")
    both = services.record_bust(t, [e[1], e[7]], actor=actor, simultaneous=True, reason="all in at both tables", now=at(12)).busts

    # 10 players: #3 out 10th; #8's bust, undone, keeps the 9th it had; #1 and #7 out at once
    # share 8th and 9th: 8th, shared by 2
    together = {"place": 8, "shared_with": 2, "busted_at": "2026-03-14T21:12:00+00:00", "simultaneous": True}
    together |= {"reason": "all in at both tables", "simultaneous_reason": "all in at both tables"}
    assert api(floor_user).get(busts_url(t)).json() == [
        row(e[7], id=both[1].pk, order=4, table=2, seat=2, **together),
        row(e[1], id=both[0].pk, order=3, table=1, seat=1, **together),
        row(e[8], id=undone.pk, order=2, table=2, seat=3, place=9, shared_with=1, busted_at="2026-03-14T21:09:00+00:00", simultaneous=False, void="UNDONE"),
        row(
            e[3],
            id=first.pk,
            order=1,
            table=1,
            seat=3,
            place=10,
            shared_with=1,
            busted_at="2026-03-14T21:05:00+00:00",
            simultaneous=False,
            reason="river",
            starting_stack=4000,
        ),
    ]


def test_pay02_in_a_bounty_event_each_bust_lists_who_knocked_the_player_out_and_what_it_won(
    api, floor_user, make_tournament, make_person, cashier_actor, actor
):
    # FIXED €50 bounties: a lone eliminator wins €50 cash; two share it equally, in the order named
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED")
    client = api(floor_user)
    assert client.post(busts_url(t), {"entries": [{"entry": e[1].pk, "eliminators": [e[0].pk]}]}, format="json").status_code == 201
    assert client.post(busts_url(t), {"entries": [{"entry": e[2].pk, "eliminators": [e[3].pk, e[0].pk]}]}, format="json").status_code == 201

    rows = client.get(busts_url(t)).json()
    shown = [(r["player"], [(k["name"], k["entry_number"], k["cash"], k["added"]) for k in r["knocked_out_by"]]) for r in rows]
    assert shown == [
        (e[2].person.full_name, [(e[3].person.full_name, e[3].number, "25.00", "0.00"), (e[0].person.full_name, e[0].number, "25.00", "0.00")]),
        (e[1].person.full_name, [(e[0].person.full_name, e[0].number, "50.00", "0.00")]),
    ]
    assert [k["bust"] for r in rows for k in r["knocked_out_by"]] == [rows[0]["id"], rows[0]["id"], rows[1]["id"]]
    # a player disqualified, by nobody at the table, and out by the clock: nobody to list
    services.remove_entry(t, e[3], actor=Actor(None, "clock"), reason="disqualified")
    removed = client.get(busts_url(t)).json()[0]
    assert (removed["player"], removed["kind"], removed["reported_by"], removed["knocked_out_by"]) == (e[3].person.full_name, "REMOVED", None, [])


def test_the_standings_list_the_places_best_first_and_the_winner_once_one_is_left(api, floor_user, started, actor):
    t = started(5)  # one table
    e = by_number(t)
    wrong = services.record_bust(t, [e[4]], actor=actor).busts[0]
    services.undo_bust(t, wrong, actor=actor, reason="wrong player")
    services.record_bust(t, [e[2], e[5]], actor=actor, same_hand=True)  # no stacks: they share 4th and 5th
    services.record_bust(t, [e[3]], actor=actor)

    def place(n, p, shared=1):
        return {"entry": e[n].pk, "entry_number": n, "player": f"Player{n:03d} Test", "place": p, "shared_with": shared}

    # another event, played to its end: none of its places here
    other = started(2)
    services.record_bust(other, [other.entries.get(number=2)], actor=actor)
    client = api(floor_user)
    assert client.get(standings_url(t)).json() == [place(3, 3), place(2, 4, 2), place(5, 4, 2)]
    services.record_bust(t, [e[4]], actor=actor)
    assert client.get(standings_url(t)).json() == [place(1, 1), place(4, 2), place(3, 3), place(2, 4, 2), place(5, 4, 2)]


def test_pay02_the_table_map_page_shows_the_twelve_latest_busts_and_the_ten_best_places(floor_user, started, actor):
    t = started(15)
    e = by_number(t)
    for n in range(1, 14):  # #1 out first (15th) … #13 last (3rd)
        services.record_bust(t, [e[n]], actor=actor)
    browser = Client()
    browser.force_login(floor_user)
    page = browser.get(f"/tournaments/{t.pk}/tables/")
    assert page.status_code == 200
    assert [b["player"] for b in page.context["busts"]] == [f"Player{n:03d} Test" for n in range(13, 1, -1)]
    assert [(s["player"], s["place"]) for s in page.context["standings"]] == [(f"Player{n:03d} Test", 16 - n) for n in range(13, 3, -1)]
    html = page.content.decode()
    assert "Player002 Test #2" in html and "Player001 Test" not in html


def test_pay02_the_bust_list_and_the_places_read_the_same_few_queries_however_many_busts(api, floor_user, started, actor):
    t = started(12)
    e = by_number(t)

    def queries(url) -> int:
        with CaptureQueriesContext(connection) as read:
            assert api(floor_user).get(url).status_code == 200
        return len(read)

    services.record_bust(t, [e[1]], actor=actor)
    queries(busts_url(t)), queries(standings_url(t))  # the first reads also cache what the later ones reuse
    few = queries(busts_url(t)), queries(standings_url(t))
    for n in range(2, 7):
        services.record_bust(t, [e[n]], actor=actor)
    assert (queries(busts_url(t)), queries(standings_url(t))) == few  # no query per bust
    for n in range(7, 12):
        services.record_bust(t, [e[n]], actor=actor)
    winner_few = queries(standings_url(t))
    assert winner_few == few[1]  # the winner is asked for whether or not there is one: his name read with him
