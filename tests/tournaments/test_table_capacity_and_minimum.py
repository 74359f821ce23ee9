"""FMT-14 / C20: tables seat at most `max_seats_per_table` (default 10, 003 Art. 4.5), so an
11-seat table is refused unless the house plays 004's 11; under the Sanremo rules (003 Art. 4) a
tournament's minimum is at least 10 players, and its start below that needs the director's override."""

import pytest

from tournaments.cashier import services as cashier
from tournaments.models import Tournament
from tournaments.setup import lifecycle
from tournaments.setup.lifecycle import LifecycleError

pytestmark = pytest.mark.django_db


@pytest.fixture
def base(structure):
    return {"name": "T", "start_at": "2026-07-09T19:00:00Z", "buy_in": "100", "fee": "10", "starting_stack": 30000, "structure": structure.pk}


def test_an_eleven_seat_table_is_refused_unless_the_house_allows_eleven(api, director, base):
    r = api(director).post("/api/v1/tournaments/", {**base, "table_size": 11}, format="json")
    assert r.status_code == 400 and "table_size" in r.data["fields"] and "10" in r.data["fields"]["table_size"][0]
    r = api(director).post("/api/v1/tournaments/", {**base, "name": "Montegalda", "table_size": 11, "settings": {"max_seats_per_table": 11}}, format="json")
    assert r.status_code == 201 and r.data["table_size"] == 11


def test_a_sanremo_tournament_has_a_minimum_of_ten_players(api, director, base, make_person, actor, cashier_actor):
    r = api(director).post("/api/v1/tournaments/", {**base, "rule_set": "SANREMO_003", "min_players": 8}, format="json")
    assert r.status_code == 400 and "min_players" in r.data["fields"]
    r = api(director).post("/api/v1/tournaments/", {**base, "name": "Sanremo", "rule_set": "SANREMO_003"}, format="json")
    assert r.status_code == 201 and r.data["min_players"] == 10
    t = Tournament.objects.get(pk=r.data["id"])
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.REGISTERING)
    for _ in range(9):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    with pytest.raises(LifecycleError) as err:
        lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert err.value.code == "below_minimum"
    assert lifecycle.start(t, actor=actor, prestart_report_sent=True, override_minimum=True).status == Tournament.RUNNING


def test_a_multi_day_event_is_refused_eleven_seat_tables_too(api, director, structure):
    from django.utils import timezone

    now = timezone.now()
    r = api(director).post(
        "/api/v1/formats/multiday/",
        {
            "name": "Main",
            "flights": [{"label": "1A", "start_at": now.isoformat()}],
            "day2_start_at": now.isoformat(),
            "buy_in": "500",
            "fee": "50",
            "starting_stack": 20000,
            "structure": structure.pk,
            "table_size": 11,
        },
        format="json",
    )
    assert r.status_code == 400 and not Tournament.objects.filter(name__startswith="Main").exists()
