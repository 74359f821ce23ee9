"""The event log's rows are written by an INSERT compiled once (``tdmanager.compiled.Inserts``):
what lands in the table is what ``bulk_create`` writes, keys included, in one statement."""

from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tdmanager.compiled import Inserts
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_events
from tournaments.models import TournamentEvent

COLUMNS = ("tournament_id", "action", "actor_id", "actor_label", "device", "created_at", "payload")


def _row(pk):
    return TournamentEvent.objects.filter(pk=pk).values(*COLUMNS).get()


def test_log_events_writes_what_bulk_create_writes_in_one_statement(tournament, director):
    payload = {"name": "Anna «Zia» O'Hara", "amount": str(Decimal("110.00")), "seats": [[1, 5, False]], "nested": {"none": None}}
    actor = Actor(director, "10.0.0.1 desk")
    with CaptureQueriesContext(connection) as q:
        rows = log_events(tournament, actor, [(Action.CASHIER_BUYIN_SOLD, payload), (Action.CASHIER_BUYIN_SOLD, {"n": 2})])
    inserts = [x["sql"] for x in q.captured_queries if x["sql"].startswith("INSERT")]
    assert len(inserts) == 1
    assert all(r.pk is not None and not r._state.adding for r in rows)
    assert rows[0].pk < rows[1].pk  # the keys come back in the order of the rows
    twins = TournamentEvent.objects.bulk_create(
        [
            TournamentEvent(
                tournament=tournament, action=r.action, actor=director, actor_label=r.actor_label, device=r.device, created_at=r.created_at, payload=r.payload
            )
            for r in rows
        ]
    )
    for mine, theirs in zip(rows, twins, strict=True):
        assert _row(mine.pk) == _row(theirs.pk)
    assert _row(rows[0].pk)["payload"] == payload


def test_the_statement_is_compiled_once_per_row_count(tournament):
    inserts = Inserts(TournamentEvent)

    def event(n):
        return TournamentEvent(tournament=tournament, action=Action.CASHIER_BUYIN_SOLD.value, actor_label="system", payload={"n": n})

    inserts.insert([event(1)])
    inserts.insert([event(2)])
    inserts.insert([event(3), event(4)])
    if connection.features.can_return_rows_from_bulk_insert:
        assert sorted(n for _alias, n in inserts._sql) == [1, 2]
    assert list(
        TournamentEvent.objects.filter(tournament=tournament, action=Action.CASHIER_BUYIN_SOLD.value).order_by("id").values_list("payload__n", flat=True)
    ) == [1, 2, 3, 4]
    assert inserts.insert([]) == []


def test_a_reference_taking_the_fields_own_value_keeps_it_in_place(tournament):
    """``statement(refs={field: "… %s …"})``: the field's value is still sent, at the expression's
    ``%s``, the other parameters around it unchanged; for one row only."""
    import pytest

    inserts = Inserts(TournamentEvent)

    def event(n):
        return TournamentEvent(tournament=tournament, action=Action.CASHIER_BUYIN_SOLD.value, actor_label="system", payload={"n": n})

    found = inserts.statement([event(1)], refs={"payload": "(COALESCE(%s, NULL))"})
    if not connection.features.can_return_rows_from_bulk_insert:
        assert found is None
        return
    plain = inserts.statement([event(1)])
    sql, params = found
    assert "(COALESCE(%s, NULL))" in sql and sql.count("%s") == plain[0].count("%s") and len(params) == len(plain[1])
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ((pk,),) = cursor.fetchall()
    assert TournamentEvent.objects.get(pk=pk).payload == {"n": 1}
    if connection.vendor == "postgresql":  # two rows in one INSERT (UNNEST): refused, not silently misplaced
        with pytest.raises(ValueError):
            inserts.statement([event(2), event(3)], refs={"payload": "(%s)"})
