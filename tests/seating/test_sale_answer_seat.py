"""The desk's answer to a sale shows the new entry's seat: none before the start, the seat drawn
from the pool once the tournament runs; and an entry sold before the start and kept in memory
shows the seat the start gave it."""

import pytest

from seating.models import Seat
from tournaments.eventlog.services import Actor
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


def sell(client, tournament, person):
    return client.post("/api/v1/cashier/register/", {"tournament": tournament.pk, "person": person.pk, "method": "CASH"}, format="json")


def test_before_the_start_the_answer_has_no_seat(api, cashier_user, tournament, make_person):
    r = sell(api(cashier_user), tournament, make_person("Early"))
    assert r.status_code == 201, r.content
    assert r.data["entry"]["seat"] is None and r.data["entry"]["registration_state"] == "PAID"


def test_an_entry_sold_before_the_start_shows_the_seat_the_start_gave_it(tournament, make_person, cashier_actor, director):
    from tournaments.cashier import services as cashier
    from tournaments.setup.selectors import seat_of

    sold = [cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    assert seat_of(sold[0]) is None
    lifecycle.start(tournament, actor=Actor(director, "test"))
    seat = Seat.objects.select_related("table").get(entry_id=sold[0].pk)
    assert seat_of(sold[0]) == {"table": seat.table.number, "seat": seat.number}  # the same instance, asked again


def test_once_running_the_answer_has_the_seat_drawn_for_the_late_entry(api, cashier_user, director, tournament, make_person):
    client = api(cashier_user)
    for i in range(4):
        assert sell(client, tournament, make_person(f"P{i}")).status_code == 201
    lifecycle.start(tournament, actor=Actor(director, "test"))
    r = sell(client, tournament, make_person("Late"))
    assert r.status_code == 201, r.content
    seat = Seat.objects.select_related("table").get(entry_id=r.data["entry"]["id"])
    assert r.data["entry"]["seat"] == {"table": seat.table.number, "seat": seat.number}
    assert r.data["entry"]["registration_state"] == "SEATED"
