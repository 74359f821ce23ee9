"""Hand-for-hand × breaking tables × the dealer's table (issue 38, found by the simulated days).

19 players at three tables (7, 6, 6), hand-for-hand on the bubble. In one hand a player goes out
at table 1 and another at table 3. The first bust left 18 players, two tables' worth, so table 3
was broken on the spot and its players drawn to the other tables while table 3 was still playing
the hand: its dealer, reporting his player out, was refused ("This player sits at table 2, not 3",
409 not_at_table), and the floor had moved a player who was busting in that very hand.

Every table plays the hand-for-hand hand to its end: the breaks (and a final table) wait until
the last table has reported the hand complete."""

import pytest

from tests.conftest import client_for, make_user
from tournaments.clock import services as clock_services
from tournaments.models import Entry

from .test_support import seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def test_no_table_breaks_before_every_table_has_finished_the_hand(started, actor):
    t = started(19)
    clock_services.start_clock(t, actor=actor)
    clock_services.start_hand_for_hand(t, actor=actor, reason="bubble")
    before = seat_map(t)
    assert sorted(len(s) for s in before.values()) == [6, 6, 7]
    dealer = client_for(make_user("deal", "dealer"))
    first, last = min(before), max(before)
    out_first = next(iter(before[first].values()))
    out_last = next(iter(before[last].values()))

    r = dealer.post(f"/api/v1/tournaments/{t.pk}/busts/", {"table": first, "entries": [{"entry": out_first}]}, format="json")
    assert r.status_code == 201, r.content
    assert sorted(seat_map(t)) == sorted(before)  # 18 left, still three tables: the hand goes on
    r = dealer.post(f"/api/v1/tournaments/{t.pk}/busts/", {"table": last, "entries": [{"entry": out_last}]}, format="json")
    assert r.status_code == 201, r.content  # his player, at his table
    assert Entry.objects.get(pk=out_first).place == Entry.objects.get(pk=out_last).place  # one hand: shared (ELM-04)

    for number in sorted(before)[:-1]:
        r = dealer.post(f"/api/v1/tournaments/{t.pk}/tables/{number}/hand-completed/", {}, format="json")
        assert r.status_code == 200, r.content
        assert len([n for n, s in seat_map(t).items() if s]) == 3  # a table still plays the hand
    r = dealer.post(f"/api/v1/tournaments/{t.pk}/tables/{last}/hand-completed/", {}, format="json")
    assert r.status_code == 200, r.content
    after = {n: s for n, s in seat_map(t).items() if s}
    assert sorted(len(s) for s in after.values()) == [8, 9]  # the hand is over: 17 players, two tables
    assert out_first not in {e for s in after.values() for e in s.values()}
