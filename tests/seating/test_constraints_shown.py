"""SEAT-07 as the floor sees it: the keep-apart pairs and the seats given by hand listed by
``GET …/seating/keep-apart/`` and on the constraints page, and the table map's mark on each
player seated at one table with someone he is to be kept apart from."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from seating import services
from tournaments.models import Entry

from .test_support import add_entries, arrange, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def keep_apart_url(t):
    return f"/api/v1/tournaments/{t.pk}/seating/keep-apart/"


def marked(api, user, t) -> set[int]:
    """The entry numbers the table map marks as sitting with someone kept apart from them."""
    tables = api(user).get(f"/api/v1/tournaments/{t.pk}/tables/").json()["tables"]
    return {s["entry_number"] for table in tables for s in table["seats"] if s["entry"] is not None and s["keep_apart"]}


def test_seat07_the_keep_apart_list_shows_this_events_and_the_venue_wide_pairs_and_the_seats_given(
    api, floor_user, director, make_tournament, make_person, actor
):
    t = make_tournament()
    ann, bob, cid, dan = (make_person(first, "Rossi") for first in ("Ann", "Bob", "Cid", "Dan"))
    e = add_entries(t, 3)  # Player001…003 Test, entries #1…#3
    here = services.add_keep_apart(t, ann, bob, actor=actor, reason="married")
    everywhere = services.add_keep_apart(None, cid, dan, actor=actor, reason="business partners", everywhere=True)
    other = make_tournament(name="Monday Deepstack")
    services.add_keep_apart(other, ann, cid, actor=actor, reason="only on Monday")
    seat = services.reserve_seat(t, e[1], 2, 4, actor=actor, reason="wheelchair access")
    services.reserve_seat(other, add_entries(other, 1)[0], 1, 1, actor=actor, reason="another event")

    r = api(floor_user).get(keep_apart_url(t))
    assert r.status_code == 200
    assert r.json() == {
        "keep_apart": [
            {"id": here.pk, "people": [ann.pk, bob.pk], "names": ["Ann Rossi", "Bob Rossi"], "everywhere": False, "reason": "married"},
            {"id": everywhere.pk, "people": [cid.pk, dan.pk], "names": ["Cid Rossi", "Dan Rossi"], "everywhere": True, "reason": "business partners"},
        ],
        "reservations": [
            {"id": seat.pk, "entry": e[1].pk, "entry_number": 2, "name": "Player002 Test", "table": 2, "seat": 4, "reason": "wheelchair access"},
        ],
    }
    # the director's page lists the same
    browser = Client()
    browser.force_login(director)
    page = browser.get(f"/tournaments/{t.pk}/tables/constraints/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Ann Rossi — Bob Rossi" in html and "Cid Rossi — Dan Rossi" in html and "only on Monday" not in html
    assert "Player002 Test #2" in html and "wheelchair access" in html and "another event" not in html


def test_seat07_an_event_without_pairs_or_seats_given_lists_none(api, floor_user, make_tournament, make_person, actor):
    t = make_tournament()
    services.add_keep_apart(make_tournament(name="Monday Deepstack"), make_person(), make_person(), actor=actor, reason="elsewhere")
    assert api(floor_user).get(keep_apart_url(t)).json() == {"keep_apart": [], "reservations": []}


def test_seat07_the_table_map_marks_the_players_sitting_with_someone_kept_apart_from_them(api, floor_user, started, make_tournament, make_person, actor):
    t = started(10)
    arrange(t, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4, 5]}, big_blinds={1: (2, 1), 2: (2, 1)})
    e = {x.number: x for x in Entry.objects.filter(tournament=t).select_related("person")}  # #1-#5 at table 1, #6-#10 at 2
    assert marked(api, floor_user, t) == set()
    # apart, at tables 1 and 2: nobody marked
    services.add_keep_apart(t, e[1].person, e[6].person, actor=actor, reason="siblings")
    assert marked(api, floor_user, t) == set()
    # a pair of another event seated together here: nothing to mark here
    services.add_keep_apart(make_tournament(name="Monday Deepstack"), e[2].person, e[3].person, actor=actor, reason="only on Monday")
    assert marked(api, floor_user, t) == set()
    # this event's pair at table 2 (named second first) and a venue-wide one at table 1
    services.add_keep_apart(t, e[9].person, e[7].person, actor=actor, reason="partners")
    assert marked(api, floor_user, t) == {7, 9}
    services.add_keep_apart(None, e[4].person, e[5].person, actor=actor, reason="father and son", everywhere=True)
    assert marked(api, floor_user, t) == {4, 5, 7, 9}
    # venue-wide pairs with someone not playing here, named first or second: nobody more marked
    services.add_keep_apart(None, make_person(), e[2].person, actor=actor, reason="ex-partners", everywhere=True)
    services.add_keep_apart(None, e[3].person, make_person(), actor=actor, reason="ex-partners", everywhere=True)
    assert marked(api, floor_user, t) == {4, 5, 7, 9}


def test_seat07_the_keep_apart_list_reads_the_same_few_queries_however_long(api, floor_user, make_tournament, make_person, actor):
    t = make_tournament()
    e = add_entries(t, 6)

    def queries() -> int:
        with CaptureQueriesContext(connection) as read:
            assert api(floor_user).get(keep_apart_url(t)).status_code == 200
        return len(read)

    services.add_keep_apart(t, make_person(), make_person(), actor=actor, reason="one")
    services.reserve_seat(t, e[0], 1, 1, actor=actor, reason="one")
    queries()  # the first read also caches what every later one reuses
    few = queries()
    for n in range(1, 4):
        services.add_keep_apart(t, make_person(), make_person(), actor=actor, reason="more")
        services.reserve_seat(t, e[n], 1, n + 1, actor=actor, reason="more")
    assert queries() == few  # no query per pair or per seat
