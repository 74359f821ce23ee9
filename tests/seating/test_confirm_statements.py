"""Confirming a move slip sends few statements on PostgreSQL (the slip's UPDATE and its event's
INSERT in one) and writes what the ORM wrote: the same slip columns, the same event row, the
event log in the order of the actions."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from seating import services
from seating.models import PendingMove
from seating.services.plan import SeatingActionError
from tournaments.models import TournamentEvent

from .test_support import seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

EVENT_COLUMNS = ("tournament_id", "action", "actor_id", "actor_label", "device", "created_at", "payload")
DONE_COLUMNS = ("status", "done_at", "done_by_id", "applied", "done_event_id")


def _statements(queries):
    return [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]  # the test's transaction


def _bust_until_a_break(t, actor):
    """Busts at the smallest table (balancing slips confirmed as they come) until a table breaks."""
    for _ in range(30):
        smallest = min(seat_map(t).items(), key=lambda kv: (len(kv[1]), -kv[0]))[1]
        out = services.record_bust(t, [next(iter(smallest.values()))], actor=actor)
        if out.broken:
            return out
        for slip in out.proposed:
            services.confirm_move(t, slip.pk, actor=actor)
    raise AssertionError("no table broke")


def test_confirming_a_drawn_slip_writes_the_slip_and_its_event_in_one_statement(started, actor):
    t = started(19)
    out = _bust_until_a_break(t, actor)
    first, second = sorted((s for s in out.slips if s.applied), key=lambda s: s.pk)[:2]
    services.confirm_move(t, first.pk, actor=actor)  # the room is kept from here on
    now = timezone.now() - timedelta(seconds=5)
    last = TournamentEvent.objects.filter(tournament=t).order_by("pk").last()
    with CaptureQueriesContext(connection) as queries:
        done = services.confirm_move(t, second.pk, actor=actor, now=now)
    statements = _statements(queries)
    if connection.vendor == "postgresql":  # the lock with the slip's read, the slip's UPDATE with the event's INSERT
        assert len(statements) <= 2, [s[:60] for s in statements]
    assert sum("INSERT INTO" in s for s in statements) == 1

    row = PendingMove.objects.filter(pk=second.pk).values(*DONE_COLUMNS).get()
    assert row == {"status": PendingMove.DONE, "done_at": now, "done_by_id": actor.user.pk, "applied": True, "done_event_id": None}
    assert done.event.pk is not None and not done.event._state.adding and done.event.pk > last.pk
    assert TournamentEvent.objects.filter(tournament=t, pk__gt=last.pk).count() == 1
    stored = TournamentEvent.objects.get(pk=done.event.pk)
    assert stored.action == "seating.move.confirmed" and stored.payload == {
        "move": second.pk,
        "entry": second.entry_id,
        "kind": second.kind,
        "from_table": second.from_table,
        "from_seat": second.from_seat,
        "to_table": second.to_table,
        "to_seat": second.to_seat,
        "applied_when_drawn": True,
    }
    twin = TournamentEvent.objects.bulk_create([TournamentEvent(**{f: getattr(done.event, f) for f in EVENT_COLUMNS})])[0]
    mine, theirs = (TournamentEvent.objects.filter(pk=pk).values(*EVENT_COLUMNS).get() for pk in (done.event.pk, twin.pk))
    assert mine == theirs

    # What save(update_fields=...) writes for the same values on another open slip.
    other = PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED, applied=True).first()
    other.status, other.done_at, other.done_by = PendingMove.DONE, now, actor.user
    other.save(update_fields=["status", "done_at", "done_by"])
    assert PendingMove.objects.filter(pk=other.pk).values(*DONE_COLUMNS).get() == row

    with pytest.raises(SeatingActionError) as refused:  # no longer open: refused, nothing written
        services.confirm_move(t, second.pk, actor=actor)
    assert refused.value.code == "move_done"
    assert TournamentEvent.objects.filter(tournament=t, pk__gt=twin.pk).count() == 0


def test_confirming_a_balancing_move_reads_the_slip_with_the_lock(started, actor):
    t = started(30)
    tables = sorted(seat_map(t).values(), key=len)
    services.record_bust(t, [min(tables[-1].values())], actor=actor)
    for entry in sorted(sorted(seat_map(t).values(), key=len)[0].values()):  # out at a small table until a move is proposed
        out = services.record_bust(t, [entry], actor=actor)
        if out.proposed:
            break
    assert out.proposed, "the test needs a balancing move"
    slip = out.proposed[0]
    with CaptureQueriesContext(connection) as queries:
        done = services.confirm_move(t, slip.pk, actor=actor)
    statements = _statements(queries)
    if connection.vendor == "postgresql":  # lock and slip, write-back with the seat freed and taken, the event and the slip
        assert len(statements) <= 2, [s[:60] for s in statements]
    row = PendingMove.objects.filter(pk=slip.pk).values(*DONE_COLUMNS).get()
    assert row == {"status": PendingMove.DONE, "done_at": done.move.done_at, "done_by_id": actor.user.pk, "applied": True, "done_event_id": done.event.pk}
    assert seat_map(t)[slip.to_table][slip.to_seat] == slip.entry_id
    with pytest.raises(PendingMove.DoesNotExist):  # a slip of another tournament is not found
        services.confirm_move(started(4), slip.pk, actor=actor)


def test_every_confirmed_slip_points_at_its_own_event(started, actor):
    """Balancing moves confirmed as they come (some confirms propose moves of their own, so the
    event goes out before the write-back): each done slip points at its confirm's event."""
    t = started(40)
    for _ in range(25):
        smallest = min(seat_map(t).items(), key=lambda kv: (len(kv[1]), -kv[0]))[1]
        services.record_bust(t, [next(iter(smallest.values()))], actor=actor)
        for slip in PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED).order_by("pk"):
            services.confirm_move(t, slip.pk, actor=actor)
    done = list(PendingMove.objects.filter(tournament=t, status=PendingMove.DONE, applied=True).select_related("done_event"))
    balancing = [m for m in done if m.done_event_id is not None]
    assert balancing, "the test needs confirmed balancing moves"
    for m in balancing:
        assert m.done_event.action == "seating.move.confirmed" and m.done_event.payload["move"] == m.pk
    confirmed = [e for e in TournamentEvent.objects.filter(tournament=t, action="seating.move.confirmed") if not e.payload.get("applied_when_drawn")]
    assert sorted(e.payload["move"] for e in confirmed) == sorted(m.pk for m in balancing)
