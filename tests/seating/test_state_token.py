"""The seat map's state token is renewed by compare-and-set: a change made on a token that
is no longer in the database (someone else changed the room first) is refused, and nothing
of it is written."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from seating import services
from seating.models import Bust, SeatingState
from seating.services import busts as busts_module
from seating.services import room as room_module
from seating.services.plan import remove_players
from tournaments.models import Entry, TournamentEvent

from .test_support import seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def _two_players_at_two_tables(t):
    tables = seat_map(t)
    return tables[1][min(tables[1])], tables[2][min(tables[2])]


def test_the_second_of_two_changes_read_on_the_same_token_is_refused_and_writes_nothing(started):
    t = started(20)
    a, b = _two_players_at_two_tables(t)
    token = SeatingState.objects.get(tournament=t).token
    first = room_module.load_room(t.pk, token)  # two services read the room with the same token
    second = room_module.load_room(t.pk, token)

    with transaction.atomic():
        remove_players(first, [a])
        first.save()
        first.done()
    with pytest.raises(room_module.SeatMapChanged) as refused, transaction.atomic():
        remove_players(second, [b])
        second.save()  # b's seat is deleted here, in the transaction that is rolled back
        second.done()

    assert refused.value.code == "concurrent_change" and refused.value.status == 409
    assert SeatingState.objects.get(tournament=t).token == first.token != token
    seated = {e for seats in seat_map(t).values() for e in seats.values()}
    assert a not in seated and b in seated and len(seated) == 19
    assert room_module.kept(t.pk) is not second  # the stale room is not kept


def test_a_bust_that_loses_the_race_leaves_no_row_behind(started, actor, monkeypatch):
    t = started(20)
    a, _b = _two_players_at_two_tables(t)
    events = TournamentEvent.objects.filter(tournament=t).count()
    real_lock = room_module.lock

    def lock_then_lose_the_race(tournament):
        locked, room = real_lock(tournament)
        # Another writer changes the seat map between this service's read and its write.
        SeatingState.objects.filter(tournament=locked).update(token="written-by-someone-else")
        return locked, room

    monkeypatch.setattr(busts_module, "lock", lock_then_lose_the_race)
    with pytest.raises(room_module.SeatMapChanged):
        services.record_bust(t, [a], actor=actor)

    assert Entry.objects.get(pk=a).status == Entry.ACTIVE and Entry.objects.get(pk=a).place is None
    assert not Bust.objects.filter(tournament=t).exists()
    assert TournamentEvent.objects.filter(tournament=t).count() == events
    assert a in {e for seats in seat_map(t).values() for e in seats.values()}
    assert SeatingState.objects.get(tournament=t).bust_seq == 0

    monkeypatch.setattr(busts_module, "lock", real_lock)  # the next try reads the room again and succeeds
    out = services.record_bust(t, [a], actor=actor)
    assert [b.place for b in out.busts] == [20]


@pytest.mark.django_db(transaction=True)
def test_the_room_is_locked_only_inside_a_transaction(started):
    t = started(4)
    with pytest.raises(transaction.TransactionManagementError):
        room_module.lock(t)


def test_a_plain_bust_writes_in_few_statements(started, actor):
    """The lock and the write-back: the event, the bust row, the seat freed, the entry out and
    the token's compare-and-set in one statement on PostgreSQL (the two INSERTs WITH parts of
    it, the bust pointing at the event's new key), five statements on SQLite."""
    t = started(30)  # tables of 8, 8, 7 and 7: a player out at each table of 8 breaks or moves nothing
    fullest = sorted(seat_map(t).values(), key=len)[-2:]
    a, b = (min(seats.values()) for seats in fullest)
    services.record_bust(t, [a], actor=actor)  # the room is kept from here on
    with CaptureQueriesContext(connection) as queries:
        out = services.record_bust(t, [b], actor=actor)
    assert not out.proposed and not out.broken
    statements = [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]  # the test's transaction
    assert len(statements) == (2 if connection.vendor == "postgresql" else 6), [s[:60] for s in statements]
    assert Bust.objects.get(entry_id=b).event_id == out.event.pk == out.busts[0].event_id
    assert Entry.objects.get(pk=b).status == Entry.BUSTED and b not in {e for s in seat_map(t).values() for e in s.values()}


BUST_COLUMNS = (
    "tournament_id",
    "entry_id",
    "order",
    "kind",
    "table_number",
    "seat_number",
    "hand_group",
    "h4h_hand",
    "starting_stack",
    "simultaneous_group",
    "simultaneous_reason",
    "busted_at",
    "reported_by_id",
    "reason",
    "place",
    "shared_with",
    "event_id",
    "void",
    "voided_at",
)


def test_the_bust_rows_written_with_the_token_are_what_bulk_create_writes(started, actor):
    """A bust's rows go out with the write-back (on PostgreSQL a WITH part of its statement):
    every column as ``bulk_create`` writes it, the keys set on the rows in their order."""
    t = started(30)
    table = max(seat_map(t).values(), key=len)
    a, b = sorted(table.values())[:2]
    services.record_bust(t, [sorted(table.values())[2]], actor=actor)  # the room is kept from here on
    out = services.record_bust(t, [{"entry": a, "starting_stack": 5000}, {"entry": b, "starting_stack": 9000}], actor=actor, same_hand=True, reason="all in")
    assert [r.entry_id for r in out.busts] == [a, b]
    assert all(r.pk is not None and not r._state.adding for r in out.busts)
    assert out.busts[0].pk < out.busts[1].pk
    stored = {r["entry_id"]: r for r in Bust.objects.filter(pk__in=[r.pk for r in out.busts]).values("pk", *BUST_COLUMNS)}
    assert {e: r["pk"] for e, r in stored.items()} == {r.entry_id: r.pk for r in out.busts}
    assert {r["place"] for r in stored.values()} == {28, 29} and all(r["event_id"] == out.event.pk for r in stored.values())
    twins = Bust.objects.bulk_create([Bust(**{f: getattr(r, f) for f in BUST_COLUMNS}) for r in out.busts])
    Bust.objects.filter(pk__in=[r.pk for r in twins]).update(void=Bust.UNDONE)  # written only to compare
    for mine, theirs in zip(out.busts, twins, strict=True):
        row, twin = (Bust.objects.filter(pk=pk).values(*BUST_COLUMNS).get() for pk in (mine.pk, theirs.pk))
        assert {**twin, "void": row["void"]} == row


EVENT_COLUMNS = ("tournament_id", "action", "actor_id", "actor_label", "device", "created_at", "payload")


def test_the_event_written_with_the_token_is_what_log_events_writes_and_keeps_the_log_in_order(started, actor):
    """The change's event goes out with the write-back unless something needs its key sooner:
    the row is what ``bulk_create`` writes, and the event log's keys keep the order of the
    actions (a bust's event before the proposal it leads to)."""
    t = started(30)
    tables = sorted(seat_map(t).values(), key=len)
    services.record_bust(t, [min(tables[-1].values())], actor=actor)
    small = sorted(seat_map(t).values(), key=len)[0]
    for entry in sorted(small.values()):  # players out at a table of 7 until a balancing move is proposed
        with CaptureQueriesContext(connection) as queries:
            out = services.record_bust(t, [entry], actor=actor)
        if out.proposed:
            break
    assert out.proposed, "the test needs a bust that leads to a proposal"
    # The bust's event and the proposal's in one INSERT (keys in order); on PostgreSQL the bust
    # row still goes out with the write-back: lock, names, events, slips, write-back.
    statements = [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]
    assert sum(q.startswith('INSERT INTO "tournaments_tournamentevent"') for q in statements) == 1
    if connection.vendor == "postgresql":
        assert len(statements) == 5, [q[:60] for q in statements]
    assert out.event.pk is not None and not out.event._state.adding and out.busts[0].event_id == out.event.pk
    proposal = TournamentEvent.objects.get(pk=out.proposed[0].event_id)
    assert proposal.pk > out.event.pk and proposal.action == "seating.moves.proposed"
    assert out.proposed[0].cause_id == out.event.pk
    actions = list(TournamentEvent.objects.filter(tournament=t).order_by("pk").values_list("action", flat=True))
    assert actions[-2:] == ["seating.player.busted", "seating.moves.proposed"]
    twin = TournamentEvent.objects.bulk_create([TournamentEvent(**{f: getattr(out.event, f) for f in EVENT_COLUMNS})])[0]
    mine, theirs = (TournamentEvent.objects.filter(pk=pk).values(*EVENT_COLUMNS).get() for pk in (out.event.pk, twin.pk))
    assert mine == theirs


def test_the_lock_reads_the_tournament_its_state_and_its_clock_as_the_orm_would(started):
    """The lock statement is compiled once and its rows mapped by hand: what a service gets
    back must be the row the ORM gives (loaded fields, deferred ones read on demand), the
    state's sequence numbers and the clock as stored."""
    from tournaments.models import Clock, Tournament

    t = started(20)
    stored = Tournament.objects.get(pk=t.pk)
    Tournament.objects.filter(pk=t.pk).update(settings={"balance_threshold": 2})
    Clock.objects.update_or_create(tournament=t, defaults={"status": Clock.HAND_FOR_HAND, "h4h_hand": 3})
    SeatingState.objects.filter(tournament=t).update(bust_seq=41, group_seq=7)
    for _ in range(2):  # the second call runs the statement the first compiled
        with transaction.atomic():
            locked, room = room_module.lock(t)
            assert (locked.pk, locked.name, locked.status, locked.table_size) == (t.pk, stored.name, stored.status, stored.table_size)
            assert locked.settings == {"balance_threshold": 2}
            assert locked.buy_in == stored.buy_in  # deferred: read when asked
            assert room_module.clock_of(locked) == room_module.ClockView(Clock.HAND_FOR_HAND, 3)
            assert (room.bust_seq, room.group_seq) == (41, 7)
            room.release()


def test_the_lock_knows_a_tournament_without_a_clock(started):
    from tournaments.models import Clock

    t = started(20)
    Clock.objects.filter(tournament=t).delete()
    with transaction.atomic():
        locked, room = room_module.lock(t)
        assert room_module.clock_of(locked) is None
        room.release()
