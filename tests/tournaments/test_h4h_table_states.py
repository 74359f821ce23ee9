"""CLK-06: during hand-for-hand each table has a state the floor sets from the tablet (IN_HAND,
ALL_IN_HOLD: an all-in is called and the cards wait face down, RP-8-F; done), the clock's view
shows which tables still play, and the announcement says the places paid ("20 left, 3 paid")."""

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.live.snapshot import build_snapshot
from tournaments.models import Clock
from tournaments.oversight.selectors import event_sentences
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0) + timedelta(days=1)


@pytest.fixture
def h4h(make_tournament, make_person, actor, cashier_actor):
    """20 players at three 9-max tables, hand-for-hand announced with 17:30 left in level 1."""
    t = make_tournament()
    for _ in range(20):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor, now=T0)
    clock_services.start_hand_for_hand(t, actor=actor, now=T0 + timedelta(minutes=2, seconds=30))
    return t


def clock_of(t):
    return Clock.objects.get(tournament=t)


def test_clk06_a_table_holding_an_all_in_keeps_the_hand_for_hand_hand_open(h4h, api, floor_user):
    t = h4h
    snap = build_snapshot(t)
    assert snap["h4h_tables"] == [1, 2, 3] and snap["h4h_done"] == [] and snap["h4h_hold"] == []
    url = f"/api/v1/tournaments/{t.pk}/tables/{{n}}/h4h-state/"
    r = api(floor_user).post(url.format(n=2), {"state": "ALL_IN_HOLD"}, format="json")
    assert r.status_code == 200, r.data
    assert r.data["hand_for_hand"]["holding"] == [2] and r.data["hand_for_hand"]["waiting"] == [1, 2, 3]
    for n in (1, 3):
        r = api(floor_user).post(url.format(n=n), {"state": "COMPLETE"}, format="json")
        assert r.status_code == 200, r.data
    snap = build_snapshot(t)
    assert snap["h4h_done"] == [1, 3] and snap["h4h_hold"] == [2]
    # Table 2 holds the cards face down: the next hand has not started, the clock has not moved.
    assert clock_of(t).h4h_hand == 1 and clock_of(t).remaining == 17 * 60 + 30
    r = api(floor_user).post(url.format(n=2), {"state": "IN_HAND"}, format="json")  # the director released it
    assert r.status_code == 200 and r.data["hand_for_hand"]["holding"] == [] and r.data["hand_for_hand"]["waiting"] == [2]
    r = api(floor_user).post(url.format(n=2), {"state": "COMPLETE"}, format="json")
    assert r.status_code == 200 and r.data["hand_for_hand"]["next_hand_started"] is True
    assert clock_of(t).h4h_hand == 2 and clock_of(t).remaining == 15 * 60 + 30  # RP-8-B: 2 minutes a hand
    snap = build_snapshot(t)
    assert snap["h4h_done"] == [] and snap["h4h_hold"] == []
    states = [e.payload["state"] for e in t.events.filter(action="tournaments.clock.h4h_table_state").order_by("id")]
    assert states == ["ALL_IN_HOLD", "IN_HAND"]


def test_clk06_a_bad_state_or_a_finished_table_is_refused(h4h, api, floor_user, cashier_user):
    t = h4h
    url = f"/api/v1/tournaments/{t.pk}/tables/1/h4h-state/"
    r = api(floor_user).post(url, {"state": "ASLEEP"}, format="json")
    assert r.status_code == 400 and "state" in r.data.get("fields", {})
    assert api(cashier_user).post(url, {"state": "ALL_IN_HOLD"}, format="json").status_code == 403
    api(floor_user).post(url, {"state": "COMPLETE"}, format="json")
    r = api(floor_user).post(url, {"state": "ALL_IN_HOLD"}, format="json")
    assert r.status_code == 409 and r.data["code"] == "hand_already_complete"


def test_clk06_the_floor_sets_the_state_on_the_table_map(h4h, client, floor_user):
    client.force_login(floor_user)
    page = client.get(f"/tournaments/{h4h.pk}/tables/")
    assert b'value="h4h_hold"' in page.content and b'value="h4h_in_hand"' in page.content
    client.post(f"/tournaments/{h4h.pk}/tables/", {"op": "h4h_hold", "table": "3"})
    assert build_snapshot(h4h)["h4h_hold"] == [3]
    client.post(f"/tournaments/{h4h.pk}/tables/", {"op": "h4h_in_hand", "table": "3"})
    assert build_snapshot(h4h)["h4h_hold"] == []


def test_clk06_the_announcement_gives_players_left_and_places_paid(h4h):
    # 20 entries, MAIN category: 15 % paid, 3 places.
    event = h4h.events.get(action="tournaments.clock.hand_for_hand_started")
    assert event.payload["players_left"] == 20 and event.payload["places_paid"] == 3
    with translation.override("en"):
        (row,) = event_sentences([event])
    assert row.sentence.endswith("started hand-for-hand with 20 players left, 3 paid")
    with translation.override("it"):
        (row,) = event_sentences([event])
    assert row.sentence.endswith("20 giocatori rimasti, 3 pagati")
