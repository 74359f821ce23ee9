"""``tdmanager.compiled.prepared_cursor``: on PostgreSQL the hot statements are kept prepared by
the server (``TDM_PG_PREPARE`` runs, then one generic plan) and give the very rows the ORM gives;
with it off, or on SQLite, they are sent as before."""

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from tdmanager import compiled
from tdmanager.compiled import Compiled
from tournaments.models import Person

pytestmark = pytest.mark.django_db
on_postgresql = pytest.mark.skipif("connection.vendor != 'postgresql' or not settings.TDM_PG_PREPARE", reason="PostgreSQL with TDM_PG_PREPARE on")

_PERSON = Compiled(lambda pk: Person.objects.filter(pk=pk).order_by(), Person)


def _prepared(text_start):
    with connection.cursor() as cursor:
        cursor.execute("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE %s", [text_start + "%"])
        return cursor.fetchall()


def test_a_hot_query_gives_the_rows_the_orm_gives_before_and_after_it_is_prepared():
    people = [Person.objects.create(first_name=f"Ada{i}", last_name="Lovelace", nickname="é ' \\ %s") for i in range(8)]
    for person in people:  # more runs than the threshold: the later ones prepared on PostgreSQL
        (mine,) = _PERSON.rows(person.pk)
        theirs = Person.objects.get(pk=person.pk)
        assert [getattr(mine, f.attname) for f in Person._meta.concrete_fields] == [getattr(theirs, f.attname) for f in Person._meta.concrete_fields]
        assert mine.created_at.tzinfo is not None and mine.created_at == theirs.created_at
    if connection.vendor == "postgresql" and settings.TDM_PG_PREPARE:
        plans = _prepared(_PERSON._plan(connection).sql[:60])
        assert plans and plans[0][0] >= 1 and plans[0][1] == 0, "prepared, one generic plan, never planned per call"


@on_postgresql
def test_prepared_statements_are_planned_once_with_a_generic_plan():
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone()[0] == "force_generic_plan"


def test_turned_off_the_cursor_binds_on_the_client(settings):
    options = connection.settings_dict.setdefault("OPTIONS", {})
    kept = options.get("prepare_threshold")
    options["prepare_threshold"] = None
    try:
        person = Person.objects.create(first_name="Grace", last_name="Hopper")
        with compiled.prepared_cursor(connection) as cursor:
            assert type(cursor.cursor) is type(connection.cursor().cursor)  # the usual cursor
            cursor.execute(_PERSON._plan(connection).sql, [person.pk])
            assert cursor.fetchone()[0] == person.pk
    finally:
        if kept is None:
            options.pop("prepare_threshold", None)
        else:
            options["prepare_threshold"] = kept


@on_postgresql
def test_a_seat_map_lock_and_write_back_stay_prepared_across_busts(make_tournament, director):
    """The busts of a running tournament: after a few, the seat map's lock runs prepared (the
    statement every bust and move sends first), and the room is still exactly the seat rows."""
    from seating import services
    from seating.models import PendingMove, Seat
    from seating.services import room as room_module
    from tournaments.eventlog.services import Actor
    from tournaments.models import Entry
    from tournaments.setup import lifecycle

    t = make_tournament(start_at=timezone.now())
    people = Person.objects.bulk_create([Person(first_name=f"P{i}", last_name="Prepared") for i in range(40)])
    Entry.objects.bulk_create([Entry(tournament=t, person=p, number=i, status=Entry.ACTIVE, chips=t.starting_stack) for i, p in enumerate(people, 1)])
    actor = Actor(director, "test")
    lifecycle.start(t, actor=actor)
    for entry in list(t.entries.filter(status=Entry.ACTIVE).order_by("number").values_list("pk", flat=True))[:12]:
        out = services.record_bust(t, [{"entry": entry}], actor=actor)
        slips = [s.pk for s in list(out.slips) + list(out.proposed)]
        while slips:
            services.confirm_moves(t, slips, actor=actor)
            slips = list(PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED).values_list("pk", flat=True))
    assert _prepared(room_module._LOCK.plan().sql[:60]), "the seat map's lock is prepared"
    kept = room_module.kept(t.pk)
    seats = {(n, s): e for e, n, s in Seat.objects.filter(tournament=t).values_list("entry_id", "table__number", "number")}
    assert kept is not None and {(n, s): e for n, tb in kept.tables.items() for s, e in tb.seats.items()} == seats
    assert len(seats) == 28
