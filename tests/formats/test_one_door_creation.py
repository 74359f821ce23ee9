"""A heads-up or timed event is created by one service (``create_headsup_event``,
``create_timed_event``): the page and the API give the same tournament and log the same events,
in the same order, with the same payloads."""

from decimal import Decimal

import pytest
from django.test import Client

from tournaments.formats.models import Bracket, TimedEvent
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def page_client(user):
    c = Client()
    c.force_login(user)
    return c


def _log(t):
    return [(e.action, e.payload, e.actor_label) for e in t.events.order_by("id")]


def _same_events(page_t, api_t):
    page_log, api_log = _log(page_t), _log(api_t)
    assert [a for a, _p, _l in page_log] == [a for a, _p, _l in api_log]
    for (action, page_payload, _l), (_a, api_payload, _l2) in zip(page_log, api_log):
        if action == "tournaments.tournament.created":
            assert page_payload == {"name": "Page event"} and api_payload == {"name": "API event"}
        else:
            assert page_payload == api_payload, action


def test_a_heads_up_event_from_the_page_and_from_the_api_logs_the_same_events(director, api, structure):
    r = page_client(director).post(
        "/formats/headsup/new/",
        {
            "name": "Page event",
            "start_at": "2026-07-09T19:00",
            "buy_in": "50",
            "fee": "10",
            "starting_stack": "10000",
            "structure": structure.pk,
            "size": "16",
            "level_minutes": "10",
            "punctuality": Bracket.NO_SHOW,
            "paid_players": "8",
        },
    )
    assert r.status_code == 302
    page_t = Tournament.objects.get(name="Page event")
    res = api(director).post(
        "/api/v1/formats/headsup/",
        {
            "name": "API event",
            "start_at": "2026-07-09T19:00:00+02:00",
            "buy_in": "50",
            "fee": "10",
            "starting_stack": 10000,
            "structure": structure.pk,
            "size": 16,
            "level_minutes": 10,
            "punctuality": Bracket.NO_SHOW,
            "paid_players": 8,
        },
        format="json",
    )
    assert res.status_code == 201, res.content
    api_t = Tournament.objects.get(name="API event")
    assert res.json()["tournament"]["id"] == api_t.pk
    for t in (page_t, api_t):
        assert (t.format, t.status, t.table_size, t.field_cap, t.min_players) == (Tournament.HEADS_UP, Tournament.REGISTERING, 2, 16, 2)
        assert (t.bracket.size, t.fee) == (16, Decimal("10.00"))
    # created, the typed fee (10 on a 50 buy-in: statutory 5) kept as an override, the bracket
    assert [a for a, _p, _l in _log(page_t)] == ["tournaments.tournament.created", "tournaments.fee.overridden", "formats.bracket.created"]
    _same_events(page_t, api_t)


def test_a_refused_heads_up_event_leaves_no_tournament_behind(director, api, structure):
    res = api(director).post(
        "/api/v1/formats/headsup/",
        {"name": "API event", "buy_in": "50", "fee": "5", "starting_stack": 10000, "structure": structure.pk, "size": 12},
        format="json",
    )
    assert res.status_code == 400 and res.json()["code"] == "bad_bracket_size"
    assert not Tournament.objects.filter(name="API event").exists()  # the tournament went with the bracket


def test_a_timed_event_from_the_page_and_from_the_api_logs_the_same_events(director, api, structure):
    r = page_client(director).post(
        "/formats/timed/new/",
        {
            "name": "Page event",
            "start_at": "2026-07-09T19:00",
            "buy_in": "20",
            "fee": "2",
            "starting_stack": "5000",
            "structure": structure.pk,
            "minutes": "90",
            "end_condition": TimedEvent.LAST_PLAYER,
            "chip_tie": "DRAW",
            "field_cap": "8",
        },
    )
    assert r.status_code == 302
    page_t = Tournament.objects.get(name="Page event")
    res = api(director).post(
        "/api/v1/formats/timed/",
        {
            "name": "API event",
            "start_at": "2026-07-09T19:00:00+02:00",
            "buy_in": "20",
            "fee": "2",
            "starting_stack": 5000,
            "structure": structure.pk,
            "minutes": 90,
            "end_condition": TimedEvent.LAST_PLAYER,
            "chip_tie": "DRAW",
            "field_cap": 8,
        },
        format="json",
    )
    assert res.status_code == 201, res.content
    api_t = Tournament.objects.get(name="API event")
    assert res.json()["tournament"] == api_t.pk
    for t in (page_t, api_t):
        assert (t.format, t.status, t.field_cap) == (Tournament.TIMED, Tournament.REGISTERING, 8)
        assert (t.timed.ends_at - t.start_at).total_seconds() == 90 * 60
        assert (t.timed.end_condition, t.timed.chip_tie) == (TimedEvent.LAST_PLAYER, "DRAW")
    # 2 is the statutory fee of a 20 buy-in: no override
    assert [a for a, _p, _l in _log(page_t)] == ["tournaments.tournament.created", "formats.timed.configured"]
    _same_events(page_t, api_t)


def test_only_a_director_creates_a_timed_event_through_the_api(floor_user, api, structure):
    res = api(floor_user).post(
        "/api/v1/formats/timed/", {"name": "X", "buy_in": "20", "starting_stack": 5000, "structure": structure.pk, "minutes": 90}, format="json"
    )
    assert res.status_code == 403
