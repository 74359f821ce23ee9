"""The formats' draws replay from their logged seeds (SEAT-01, #39): equal stacks ranked by a
draw at a timed event's end, equal bags ordered by a draw for a flight's chip-leader prizes."""

import pytest
from django.utils import timezone

from tournaments.cashier import services as cashier
from tournaments.formats.models import TimedEvent
from tournaments.formats.services import multiday, timed
from tournaments.models import Tournament, TournamentEvent
from tournaments.setup import lifecycle

from .test_multiday import small_event
from .test_timed import timed_event  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def replayed(api, user, t, event) -> dict:
    r = api(user).get(f"/api/v1/tournaments/{t.pk}/draws/{event.pk}/replay/")
    assert r.status_code == 200, r.data
    return r.data


def tampered(event, **changes):
    return TournamentEvent.objects.create(tournament=event.tournament, action=event.action, payload={**event.payload, **changes})


def test_equal_stacks_ranked_by_a_draw_at_the_time_limit_replay(timed_event, field, actor, api, controller_user):  # noqa: F811
    t = timed_event(chip_tie="DRAW")
    es = field(t, 4)
    lifecycle.start(t, actor=actor)
    TimedEvent.objects.filter(tournament=t).update(ends_at=timezone.now())
    timed.finish_timed(t, actor=actor, counts=[{"entry": e.pk, "chips": 5000} for e in es])
    event = t.events.get(action="formats.timed.finished")
    answer = replayed(api, controller_user, t, event)
    assert answer["matches"] is True
    assert sorted(place for _n, place in answer["recomputed"]["places"]) == [1, 2, 3, 4]
    standings = [dict(s) for s in event.payload["standings"]]
    standings[0]["place"], standings[1]["place"] = standings[1]["place"], standings[0]["place"]
    assert replayed(api, controller_user, t, tampered(event, standings=standings))["matches"] is False
    # A log whose standings were struck out still replays the draw from its seed and counts:
    # the auditor sees the places drawn against none logged.
    struck = TournamentEvent.objects.create(tournament=t, action=event.action, payload={k: v for k, v in event.payload.items() if k != "standings"})
    answer_struck = replayed(api, controller_user, t, struck)
    assert answer_struck["matches"] is False
    assert answer_struck["logged"] == {"places": []} and answer_struck["recomputed"] == answer["recomputed"]


def test_equal_bags_ordered_by_a_draw_for_the_chip_leader_prizes_replay(structure, make_person, cashier_actor, actor, api, controller_user):
    event = small_event(structure, actor, chip_leader_ties="DRAW")
    t = event.flights.get(label="1A").tournament
    es = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    lifecycle.start(t, actor=actor)
    multiday.bag_chips(t, [{"entry": e.pk, "chips": 20000, "bag_number": str(n)} for n, e in enumerate(es, 1)], actor=actor)
    multiday.close_flight(t, actor=actor)
    closed = t.events.get(action="formats.flight.closed")
    answer = replayed(api, controller_user, t, closed)
    assert answer["matches"] is True
    assert sorted(rank for _n, rank, _amount in answer["recomputed"]["chip_leaders"]) == [1, 2, 3]
    leaders = [dict(c) for c in closed.payload["chip_leaders"]]
    leaders[0]["entry"], leaders[1]["entry"] = leaders[1]["entry"], leaders[0]["entry"]
    assert replayed(api, controller_user, t, tampered(closed, chip_leaders=leaders))["matches"] is False
    assert Tournament.objects.get(pk=t.pk).status == Tournament.FINISHED


def test_a_flights_own_chip_leader_prizes_replay_from_its_log(structure, make_person, cashier_actor, actor, api, controller_user):
    event = small_event(structure, actor, chip_leader_prizes=["300", "100"])
    t = event.flights.get(label="1A").tournament
    es = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    lifecycle.start(t, actor=actor)
    multiday.bag_chips(
        t, [{"entry": e.pk, "chips": chips, "bag_number": str(n)} for n, (e, chips) in enumerate(zip(es, (30000, 20000, 10000)), 1)], actor=actor
    )
    multiday.close_flight(t, actor=actor)
    closed = t.events.get(action="formats.flight.closed")
    answer = replayed(api, controller_user, t, closed)
    assert answer["matches"] is True
    assert sorted(answer["recomputed"]["chip_leaders"]) == [[es[0].number, 1, "300.00"], [es[1].number, 2, "100.00"]]
    # A log whose chip leaders were struck out still replays the prizes from its bags: the
    # auditor sees the leaders worked out against none logged.
    struck = TournamentEvent.objects.create(tournament=t, action=closed.action, payload={k: v for k, v in closed.payload.items() if k != "chip_leaders"})
    answer_struck = replayed(api, controller_user, t, struck)
    assert answer_struck["matches"] is False
    assert answer_struck["logged"] == {"chip_leaders": []} and answer_struck["recomputed"] == answer["recomputed"]
