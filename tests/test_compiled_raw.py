"""``tdmanager.compiled.Raw`` and ``rows_together``: a statement its caller compiles, alone or
sent with ``Compiled`` queries in one round trip on PostgreSQL, gives the rows the same
statements give one by one (the seat map's lock and a confirm's slip are read this way)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tdmanager.compiled import Compiled, Raw, rows_together
from tournaments.models import Person

pytestmark = pytest.mark.django_db

_PERSON = Compiled(lambda pk: Person.objects.filter(pk=pk).order_by(), Person)


def _raw_sql():
    q = connection.ops.quote_name
    return f"SELECT {q('id')}, {q('first_name')} FROM {q(Person._meta.db_table)} WHERE {q('id')} = %s OR {q('last_name')} = %s ORDER BY {q('id')}"


_NAMES = Raw(_raw_sql, Person)


def test_raw_rows_are_the_fetched_tuples(make_person):
    a, b, c = make_person("Ann", "Same"), make_person("Bob", "Other"), make_person("Cy", "Same")
    assert _NAMES.rows(b.pk, "Same") == [(a.pk, "Ann"), (b.pk, "Bob"), (c.pk, "Cy")]
    assert _NAMES.rows(0, "Nobody") == []


def test_sent_together_they_read_what_they_read_one_by_one(make_person):
    a, b = make_person("Ann", "Same"), make_person("Bob", "O'Brien %s")  # a quote and a %s in a value
    alone = [_NAMES.rows(b.pk, "Same"), _PERSON.rows(b.pk)]
    with CaptureQueriesContext(connection) as sent:
        together = rows_together((_NAMES, (b.pk, "Same")), (_PERSON, (b.pk,)))
    assert together[0] == alone[0] == [(a.pk, "Ann"), (b.pk, "Bob")]
    assert [p.pk for p in together[1]] == [b.pk] and together[1][0].last_name == "O'Brien %s"
    assert len(sent.captured_queries) == (1 if connection.vendor == "postgresql" else 2)
