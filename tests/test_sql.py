"""tdmanager.sql: the plain statements of the hot paths write what the ORM would."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tdmanager import sql
from tournaments.models import Person, TournamentEvent

pytestmark = pytest.mark.django_db


def test_insert_sets_the_keys_and_writes_every_field_as_the_orm_reads_it(tournament):
    now = timezone.now()
    rows = sql.insert([TournamentEvent(tournament=tournament, action=f"test.{i}", payload={"n": i, "names": ["Å", None]}, created_at=now)
                       for i in range(3)])
    assert all(r.pk for r in rows) and len({r.pk for r in rows}) == 3
    back = {e.pk: e for e in TournamentEvent.objects.filter(pk__in=[r.pk for r in rows])}
    for i, r in enumerate(rows):
        assert (back[r.pk].action, back[r.pk].payload, back[r.pk].created_at) == (f"test.{i}", {"n": i, "names": ["Å", None]}, now)


def test_update_and_delete_by_equality_and_in_lists():
    people = [Person.objects.create(first_name=f"P{i}", last_name="Sql") for i in range(4)]
    assert sql.update(Person, {"pk__in": [p.pk for p in people[:3]], "last_name": "Sql"}, nickname="x") == 3
    assert sorted(Person.objects.filter(nickname="x").values_list("first_name", flat=True)) == ["P0", "P1", "P2"]
    assert sql.update(Person, {"pk__in": []}, nickname="never") == 0
    assert sql.delete(Person, {"pk": people[3].pk}) == 1
    assert not Person.objects.filter(pk=people[3].pk).exists()


def test_a_batch_keeps_its_order_and_keys_its_new_rows(tournament):
    a = Person.objects.create(first_name="Ann", last_name="Batch")
    batch = sql.Batch()
    batch.update(Person, {"pk": a.pk}, nickname="first")
    batch.update(Person, {"pk": a.pk}, nickname="second")  # the later write wins
    events = [TournamentEvent(tournament=tournament, action="test.batch", payload={"i": i}) for i in range(2)]
    batch.insert(events)
    assert all(e.pk is None for e in events)  # nothing is written before the flush
    assert not TournamentEvent.objects.filter(action="test.batch").exists()
    with CaptureQueriesContext(connection) as queries:
        batch.flush()
    if connection.vendor == "postgresql":
        assert len(queries) == 1  # one round trip
    a.refresh_from_db()
    assert a.nickname == "second"
    assert [TournamentEvent.objects.get(pk=e.pk).payload for e in events] == [{"i": 0}, {"i": 1}]
    assert not batch
