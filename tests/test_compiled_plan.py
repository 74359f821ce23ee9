"""``tdmanager.compiled.Compiled``, the one compile-once mechanism: a queryset with joined rows,
annotations, a text parameter or rows read as fetched gives, compiled once and sent again with
other values, what the ORM gives for those values."""

import pytest
from django.db import connection
from django.db.models import F, Value
from django.db.models.functions import Concat
from django.test.utils import CaptureQueriesContext

from tdmanager.compiled import FETCHED, TEXT, Compiled, instance
from tournaments.models import Entry, Person

pytestmark = pytest.mark.django_db


def _entries(pk):
    return (
        Entry.objects.filter(tournament_id=pk)
        .select_related("person", "tournament")
        .order_by("number")
        .annotate(full=Concat(F("person__first_name"), Value(" "), F("person__last_name")))
    )


_ENTRIES = Compiled(_entries, Entry)
_BY_LAST = Compiled(lambda name: Person.objects.filter(last_name=name).order_by("id"), Person, kinds=(TEXT,))
_FETCHED = Compiled(
    lambda pk: Entry.objects.filter(tournament_id=pk).select_related("person").only("number", "person__last_name").order_by("number"), Entry, shape=FETCHED
)


def _entry(tournament, person, number):
    return Entry.objects.create(tournament=tournament, person=person, number=number)


def test_joined_rows_and_annotations_come_as_the_orm_makes_them(make_tournament, make_person):
    first, second = make_tournament(), make_tournament()
    ann, bob = make_person("Ann", "Able"), make_person("Bob", "Baker")
    _entry(first, ann, 1), _entry(first, bob, 2), _entry(second, bob, 1)
    for t, names in ((first, ["Ann Able", "Bob Baker"]), (second, ["Bob Baker"])):
        with CaptureQueriesContext(connection) as sent:
            got = _ENTRIES.rows(t.pk)
            assert [e.full for e in got] == names
            assert [e.person.last_name for e in got] == [n.split()[1] for n in names]
            assert {e.tournament.name for e in got} == {t.name}
        assert len(sent.captured_queries) == 1  # the person and the tournament came along
        expected = list(_entries(t.pk))
        for mine, orm in zip(got, expected, strict=True):
            assert {k: v for k, v in vars(mine).items() if k != "_state"} == {k: v for k, v in vars(orm).items() if k != "_state"}
            assert not mine._state.adding and mine._state.db == "default"


def test_a_text_parameter_takes_its_value(make_person):
    a, b, c = make_person("Ann", "O'Hara %s"), make_person("Bob", "Other"), make_person("Cy", "O'Hara %s")
    assert [p.pk for p in _BY_LAST.rows("O'Hara %s")] == [a.pk, c.pk]
    assert [p.pk for p in _BY_LAST.rows("Other")] == [b.pk]
    assert _BY_LAST.first("Nobody") is None
    assert _BY_LAST.first("Other").first_name == "Bob"


def test_fetched_rows_are_read_by_the_columns_positions(make_tournament, make_person):
    t = make_tournament()
    _entry(t, make_person("Ann", "Able"), 7), _entry(t, make_person("Bob", "Baker"), 9)
    plan = _FETCHED.plan()
    number, last = plan.position("Entry", "number"), plan.position("Person", "last_name")
    assert [(row[number], row[last]) for row in _FETCHED.rows(t.pk)] == [(7, "Able"), (9, "Baker")]
    with pytest.raises(KeyError):
        plan.position("Person", "nickname")


def test_an_instance_made_without_init_reads_as_from_db(make_person):
    p = make_person("Ann", "Able")
    made = instance(Person, ["id", "first_name", "last_name"], [p.pk, "Ann", "Able"], "default")
    assert (made.pk, made.first_name, made.last_name) == (p.pk, "Ann", "Able")
    assert not made._state.adding and made._state.db == "default"
    assert made.nickname == p.nickname  # not given: deferred, read when asked
