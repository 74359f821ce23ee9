"""Each statement of ``seating.sql`` called directly, and the rows it wrote read back.

On PostgreSQL these run the hand-written statements; on SQLite the ORM fallback of the same
function. Either way the rows must be the ones named here."""

from datetime import timedelta

import pytest
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from seating import sql
from seating.models import Bust, PendingMove, Seat, SeatingState, Table
from tdmanager.compiled import Updates
from tournaments.eventlog.actions import Action
from tournaments.models import Entry, TournamentEvent

from .test_support import seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

POSTGRESQL = "postgresql"


def _event(t, actor, **payload):
    return TournamentEvent(tournament=t, action=Action.SEATING_MOVES_CONFIRMED.value, actor=actor.user, actor_label="test", device="", payload=payload)


def _slip(t, entry, *, applied, status=PendingMove.PROPOSED, kind=PendingMove.BREAK):
    return PendingMove.objects.create(
        tournament=t, entry_id=entry, kind=kind, status=status, applied=applied, from_table=1, from_seat=2, to_table=2, to_seat=8
    ).pk


def _entries(t) -> list[int]:
    return list(Entry.objects.filter(tournament=t).order_by("pk").values_list("pk", flat=True))


# --- update_rows ---------------------------------------------------------------------------


def test_update_rows_writes_each_rows_own_values_and_nothing_else(started):
    t = started(12)
    e = _entries(t)
    sql.update_rows(Entry, ["place"], [(e[3], 12), (e[0], 11)])
    places = dict(Entry.objects.filter(tournament=t).values_list("pk", "place"))
    assert places[e[3]] == 12 and places[e[0]] == 11
    assert [places[pk] for pk in e if pk not in (e[0], e[3])] == [None] * 10


def test_update_rows_sets_several_columns_and_writes_null(started):
    t = started(12)
    one, two = Table.objects.filter(tournament=t).order_by("number")
    sql.update_rows(Table, ["capacity", "big_blind_seat"], [(one.pk, 8, None), (two.pk, 7, 4)])
    got = dict((pk, (cap, bb)) for pk, cap, bb in Table.objects.filter(tournament=t).values_list("pk", "capacity", "big_blind_seat"))
    assert got == {one.pk: (8, None), two.pk: (7, 4)}
    assert Table.objects.get(pk=one.pk).in_play  # a column not named stays as it was


def test_update_rows_of_nothing_sends_nothing(started):
    t = started(4)
    with CaptureQueriesContext(connection) as queries:
        sql.update_rows(Entry, ["place"], [])
    assert len(queries) == 0
    assert not Entry.objects.filter(tournament=t, place__isnull=False).exists()


# --- confirm_drawn_slips -------------------------------------------------------------------


def test_every_slip_drawn_is_marked_done_with_its_event(started, actor):
    t = started(12)
    e = _entries(t)
    a, b = _slip(t, e[0], applied=True), _slip(t, e[1], applied=True, kind=PendingMove.FINAL_TABLE)
    now = timezone.now() - timedelta(minutes=3)
    before = TournamentEvent.objects.count()
    event = _event(t, actor, moves=[a, b], applied_when_drawn=True)
    n, written = sql.confirm_drawn_slips(t.pk, [a, b], actor.user, now, event)
    assert n == 2
    rows = set(PendingMove.objects.filter(pk__in=[a, b]).values_list("status", "done_at", "done_by_id"))
    assert rows == {(PendingMove.DONE, now, actor.user.pk)}
    if connection.vendor == POSTGRESQL:  # the event goes out in the update's statement
        assert written and event.pk is not None and not event._state.adding
        stored = TournamentEvent.objects.get(pk=event.pk)
        assert (stored.tournament_id, stored.action, stored.actor_id, stored.payload) == (
            t.pk,
            "seating.moves.confirmed",
            actor.user.pk,
            {"moves": [a, b], "applied_when_drawn": True},
        )
        assert TournamentEvent.objects.count() == before + 1
    else:  # the caller writes it
        assert not written and event.pk is None
        assert TournamentEvent.objects.count() == before


def test_a_balancing_or_closed_slip_among_them_is_left_alone_and_no_event_is_written(started, actor, make_tournament):
    t = started(12)
    e = _entries(t)
    drawn = _slip(t, e[0], applied=True)
    balancing = _slip(t, e[1], applied=False, kind=PendingMove.BALANCE)
    earlier = timezone.now() - timedelta(hours=1)
    closed = _slip(t, e[2], applied=True, status=PendingMove.DONE)
    PendingMove.objects.filter(pk=closed).update(done_at=earlier)
    other = make_tournament(name="Other")
    elsewhere = PendingMove.objects.create(
        tournament=other, entry_id=e[3], kind=PendingMove.BREAK, applied=True, from_table=1, from_seat=1, to_table=2, to_seat=2
    ).pk
    before = TournamentEvent.objects.count()
    now = timezone.now()
    event = _event(t, actor, moves=[drawn, balancing, closed, elsewhere])
    n, written = sql.confirm_drawn_slips(t.pk, [drawn, balancing, closed, elsewhere], actor.user, now, event)
    assert (n, written) == (1, False) and event.pk is None
    got = {pk: (status, done_at) for pk, status, done_at in PendingMove.objects.values_list("pk", "status", "done_at")}
    assert got[drawn] == (PendingMove.DONE, now)
    assert got[balancing] == (PendingMove.PROPOSED, None)
    assert got[closed] == (PendingMove.DONE, earlier)
    assert got[elsewhere] == (PendingMove.PROPOSED, None)
    assert TournamentEvent.objects.count() == before


# --- write_back ----------------------------------------------------------------------------


def _state(t):
    return SeatingState.objects.filter(tournament=t).values_list("token", "bust_seq", "group_seq", "seats_seq").get()


def test_a_bust_is_written_back_with_the_token(started, actor):
    t = started(12)
    token, _bust_seq, _group_seq, seats_seq = _state(t)
    (number, seats), *_ = sorted(seat_map(t).items())
    seat, out = min(seats.items())
    now = timezone.now() - timedelta(seconds=30)
    queue = sql.Queue(1000)
    event = _event(t, actor, entry=out)
    bust = Bust(tournament=t, entry_id=out, order=1, table_number=number, seat_number=seat, place=12, event=event)
    queue.inserts += [[event], [bust]]  # the bust points at the event queued before it
    n = sql.write_back(
        queue,
        tournament_id=t.pk,
        token=token,
        new_token="b" * 32,
        freed=[out],
        seated={},
        closed={},
        out=[([out], 12, now)],
        bust_seq=1,
        group_seq=0,
        seats_moved=True,
    )
    assert n == 1
    assert _state(t) == ("b" * 32, 1, 0, seats_seq + 1)
    assert not Seat.objects.filter(entry_id=out).exists() and Seat.objects.filter(tournament=t).count() == 11
    assert Entry.objects.filter(pk=out).values_list("status", "busted_at", "place").get() == (Entry.BUSTED, now, 12)
    assert Entry.objects.filter(tournament=t, status=Entry.ACTIVE).count() == 11
    assert event.pk is not None and bust.pk is not None and queue.inserts == []
    assert Bust.objects.filter(pk=bust.pk).values_list("entry_id", "event_id", "place").get() == (out, event.pk, 12)
    assert TournamentEvent.objects.get(pk=event.pk).payload == {"entry": out}


def test_seats_moved_and_a_table_closed_are_written_back(started, actor):
    t = started(12)
    token, bust_seq, group_seq, seats_seq = _state(t)
    (one, at_one), (two, at_two) = sorted(seat_map(t).items())
    rows = {row.number: row for row in Table.objects.filter(tournament=t)}
    spare = Table.objects.create(tournament=t, number=3, capacity=9)
    seat, mover = min(at_one.items())
    free = min(set(range(1, 10)) - set(at_two))
    now = timezone.now() - timedelta(seconds=10)
    queue = sql.Queue(1000)
    n = sql.write_back(
        queue,
        tournament_id=t.pk,
        token=token,
        new_token="c" * 32,
        freed=[mover],
        seated={mover: (rows[two].pk, free, True, now)},
        closed={spare.pk: now},
        out=[],
        bust_seq=bust_seq,
        group_seq=group_seq + 1,
        seats_moved=True,
    )
    assert n == 1
    assert _state(t) == ("c" * 32, bust_seq, group_seq + 1, seats_seq + 1)
    assert Seat.objects.filter(entry_id=mover).values_list("tournament_id", "table_id", "number", "wait_for_button", "seated_at").get() == (
        t.pk,
        rows[two].pk,
        free,
        True,
        now,
    )
    after = seat_map(t)
    assert seat not in after[one] and after[two][free] == mover and sum(map(len, after.values())) == 12
    assert Table.objects.filter(pk=spare.pk).values_list("in_play", "closed_at", "is_final", "halt_waived").get() == (False, now, False, False)
    assert Table.objects.filter(tournament=t, in_play=True).count() == 2
    assert Entry.objects.filter(tournament=t, status=Entry.ACTIVE).count() == 12


def test_a_seat_freed_and_taken_again_in_one_write_back_is_held_once(started, actor):
    t = started(12)
    token, *_ = _state(t)
    (one, at_one), (two, at_two) = sorted(seat_map(t).items())
    table_one = Table.objects.get(tournament=t, number=one)
    seat, out = min(at_one.items())
    _seat, mover = min(at_two.items())
    now = timezone.now()
    n = sql.write_back(
        sql.Queue(1000),
        tournament_id=t.pk,
        token=token,
        new_token="d" * 32,
        freed=[out, mover],
        seated={mover: (table_one.pk, seat, False, now)},
        closed={},
        out=[([out], 12, now)],
        bust_seq=1,
        group_seq=0,
        seats_moved=True,
    )
    assert n == 1
    assert seat_map(t)[one][seat] == mover and Seat.objects.filter(table=table_one, number=seat).count() == 1


def test_a_write_back_with_a_token_not_ours_changes_no_state(started, actor):
    t = started(6)
    before = _state(t)
    n = sql.write_back(
        sql.Queue(1000),
        tournament_id=t.pk,
        token="0" * 32,
        new_token="e" * 32,
        freed=[],
        seated={},
        closed={},
        out=[],
        bust_seq=9,
        group_seq=9,
        seats_moved=True,
    )
    assert n == 0 and _state(t) == before


# --- save_with_queue -----------------------------------------------------------------------


def test_a_row_saved_with_the_queue_writes_the_queued_rows_too(started, actor):
    t = started(6)
    e = _entries(t)
    pk = _slip(t, e[0], applied=True)
    slip = PendingMove.objects.get(pk=pk)
    now = timezone.now() - timedelta(seconds=7)
    slip.status, slip.done_at = PendingMove.DONE, now
    queue = sql.Queue(1000)
    event = _event(t, actor, move=pk)
    queue.inserts.append([event])
    sql.save_with_queue(queue, Updates(PendingMove, ["status", "done_at"]), slip)
    assert PendingMove.objects.filter(pk=pk).values_list("status", "done_at", "applied").get() == (PendingMove.DONE, now, True)
    assert event.pk is not None and queue.inserts == []
    assert TournamentEvent.objects.get(pk=event.pk).payload == {"move": pk}


def test_a_row_saved_with_the_queue_that_is_gone_is_refused(started, actor):
    t = started(6)
    e = _entries(t)
    pk = _slip(t, e[0], applied=True)
    slip = PendingMove.objects.get(pk=pk)
    PendingMove.objects.filter(pk=pk).delete()
    slip.status, slip.done_at = PendingMove.DONE, timezone.now()
    with pytest.raises(DatabaseError):
        sql.save_with_queue(sql.Queue(1000), Updates(PendingMove, ["status", "done_at"]), slip)


# --- the simulation's setting --------------------------------------------------------------


def test_commits_stop_waiting_for_the_disk_on_postgresql_only(db):
    if connection.vendor != POSTGRESQL:
        with pytest.raises(DatabaseError):
            sql.commit_without_waiting_for_disk()
        return
    sql.commit_without_waiting_for_disk()  # inside the test's transaction: rolled back with it
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "off"
