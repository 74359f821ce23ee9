"""``tdmanager.compiled.Updates``: ``save(update_fields=...)`` with the UPDATE compiled once (a
confirmed move slip): the same statement, the same row afterwards, the same refusal."""

from contextlib import contextmanager

import pytest
from django.db import DatabaseError, connection
from django.utils import timezone

from seating.models import PendingMove
from tdmanager.compiled import Updates

pytestmark = pytest.mark.django_db

FIELDS = ["status", "done_at", "done_by"]


def slip(t, n=1):
    entry = t.entries.create(
        person=t.entries.model.person.field.related_model.objects.create(first_name=f"A{n}", last_name="B"), number=n, status="ACTIVE", chips=100
    )
    return PendingMove.objects.create(tournament=t, entry=entry, kind=PendingMove.BREAK, from_table=1, from_seat=n, to_table=2, to_seat=n)


@contextmanager
def sent():
    """The statements sent meanwhile, as (SQL, parameters) before any binding (client-side or
    prepared on the server, as ``compiled.prepared_cursor`` may send them)."""
    out = []

    def record(execute, sql, params, many, context):
        out.append((sql, list(params or ())))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield out


def row(mv):
    return PendingMove.objects.filter(pk=mv.pk).values().get()


def test_it_writes_what_save_with_update_fields_writes(tournament, director):
    a, b = slip(tournament, 1), slip(tournament, 2)
    updates = Updates(PendingMove, FIELDS)
    now = timezone.now()
    for mv in (a, b):
        mv.status, mv.done_at, mv.done_by = PendingMove.DONE, now, director
        mv.reason = "changed in memory, not written"
    with sent() as mine:
        updates.save(a)
    with sent() as theirs:
        a.save(update_fields=FIELDS)  # the same slip again, by the ORM: the same statement, the same parameters
    assert len(mine) == 1 and mine == theirs
    b.save(update_fields=FIELDS)
    assert {k: v for k, v in row(a).items() if k not in ("id", "entry_id", "from_seat", "to_seat", "created_at")} == {
        k: v for k, v in row(b).items() if k not in ("id", "entry_id", "from_seat", "to_seat", "created_at")
    }
    assert row(a)["reason"] == "" and row(a)["done_by_id"] == director.pk and row(a)["status"] == PendingMove.DONE


def test_a_none_is_written_as_null_before_and_after_it_is_compiled(tournament, director):
    a, b, c = slip(tournament, 1), slip(tournament, 2), slip(tournament, 3)
    updates = Updates(PendingMove, FIELDS)
    a.status, a.done_at, a.done_by = PendingMove.DONE, None, None  # first call with a None: save() itself
    updates.save(a)
    assert not updates._sql and row(a)["status"] == PendingMove.DONE and row(a)["done_by_id"] is None
    b.status, b.done_at, b.done_by = PendingMove.DONE, timezone.now(), director
    updates.save(b)
    assert updates._sql
    c.status, c.done_at, c.done_by = PendingMove.DONE, timezone.now(), None  # a None once compiled: a NULL parameter
    updates.save(c)
    assert row(c)["done_by_id"] is None and row(c)["status"] == c.status and row(c)["done_at"] == c.done_at


def test_no_row_changed_is_refused_as_save_refuses_it(tournament, director):
    a = slip(tournament, 1)
    updates = Updates(PendingMove, FIELDS)
    a.status, a.done_at, a.done_by = PendingMove.DONE, timezone.now(), director
    updates.save(a)
    gone = PendingMove.objects.get(pk=a.pk)
    PendingMove.objects.filter(pk=a.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        updates.save(gone)
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        gone.save(update_fields=FIELDS)
