"""The desk's answer to a sale shows the new entry's seat: none before the start (without reading
the seat table: the sale's lock is held until the answer is written), the seat drawn from the
pool once the tournament runs."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from seating.models import Seat
from tournaments.services import lifecycle
from tournaments.services.events import Actor

pytestmark = pytest.mark.django_db


def sell(client, tournament, person):
    return client.post("/api/v1/cashier/register/", {"tournament": tournament.pk, "person": person.pk, "method": "CASH"}, format="json")


def test_before_the_start_the_answer_has_no_seat_and_reads_none(api, cashier_user, tournament, make_person):
    with CaptureQueriesContext(connection) as sent:
        r = sell(api(cashier_user), tournament, make_person("Early"))
    assert r.status_code == 201, r.content
    assert r.data["entry"]["seat"] is None and r.data["entry"]["registration_state"] == "PAID"
    assert not [q["sql"] for q in sent.captured_queries if Seat._meta.db_table in q["sql"]]


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
