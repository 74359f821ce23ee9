"""A bust that breaks a table sends few statements on PostgreSQL (the lock, the players' names,
and one write-back with the events, the slips, the bust, the seats and the closed table) and
writes what the ORM wrote: the same seat, table, slip and bust rows, the events in order."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from seating import services
from seating.models import Bust, PendingMove, Seat, Table
from seating.services import plan
from seating.services.plan import SeatingActionError
from tournaments.models import Entry, TournamentEvent

from .test_support import seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

EVENT_COLUMNS = ("tournament_id", "action", "actor_id", "actor_label", "device", "created_at", "payload")
SEAT_COLUMNS = ("entry_id", "tournament_id", "table_id", "number", "wait_for_button", "seated_at")
TABLE_COLUMNS = ("in_play", "closed_at", "is_final", "halt_waived")
SLIP_COLUMNS = (
    "tournament_id",
    "entry_id",
    "kind",
    "status",
    "applied",
    "from_table",
    "from_seat",
    "to_table",
    "to_seat",
    "reason",
    "reason_data",
    "card",
    "wait_for_button",
    "single_big_blind",
    "created_at",
    "done_at",
    "done_by_id",
    "event_id",
    "cause_id",
    "done_event_id",
)


def _statements(queries):
    # (a statement the server keeps prepared may be logged without its text: None)
    return [q["sql"] or "" for q in queries if not (q["sql"] or "").startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]  # the test's transaction


def _break(t, actor, pick):
    """Busts (``pick(seat map)`` names the player) until a table breaks; balancing slips are
    confirmed as they come. Returns the breaking bust's outcome, its statements and its time."""
    for _ in range(30):
        now, entry = timezone.now() - timedelta(seconds=7), pick(seat_map(t))
        with CaptureQueriesContext(connection) as queries:
            out = services.record_bust(t, [entry], actor=actor, now=now)
        if out.broken:
            return out, _statements(queries), now
        for slip in out.proposed:
            services.confirm_move(t, slip.pk, actor=actor)
    raise AssertionError("no table broke")


def test_a_break_is_written_with_the_bust_as_the_orm_writes_it(started, actor):
    t = started(30)
    services.record_bust(t, [next(iter(seat_map(t)[1].values()))], actor=actor)  # the room is kept from here on
    broken_before = set(Table.objects.filter(tournament=t, in_play=False).values_list("pk", flat=True))
    out, statements, now = _break(t, actor, lambda m: next(iter(min(m.items(), key=lambda kv: (len(kv[1]), -kv[0]))[1].values())))
    if connection.vendor == "postgresql":  # the lock, the names, the write-back with everything else
        assert len(statements) <= 3, [s[:60] for s in statements]
    (table,) = out.broken
    slips = sorted(out.slips, key=lambda s: s.pk)
    assert slips and all(s.pk is not None and not s._state.adding for s in slips)

    # The events: the bust's, then the break's; the slips and the bust point at theirs.
    bust_event, break_event = TournamentEvent.objects.filter(tournament=t).order_by("-pk")[:2][::-1]
    assert (bust_event.action, break_event.action) == ("seating.player.busted", "seating.table.broken")
    assert out.event.pk == bust_event.pk and break_event.payload["table"] == table
    names = {
        e.pk: f"{e.person.first_name} {e.person.last_name}".strip() + f" (#{e.number})"
        for e in Entry.objects.filter(pk__in=[s.entry_id for s in slips]).select_related("person")
    }
    assert {m["entry"]: m["name"] for m in break_event.payload["moves"]} == names
    assert [m["entry"] for m in break_event.payload["moves"]] == [s.entry_id for s in slips]  # keys in the order drawn
    (bust,) = out.busts
    assert Bust.objects.filter(pk=bust.pk).values_list("event_id", flat=True).get() == bust_event.pk

    # The slips as bulk_create writes the same values.
    mine = list(PendingMove.objects.filter(pk__in=[s.pk for s in slips]).order_by("pk").values(*SLIP_COLUMNS))
    assert all(row["event_id"] == break_event.pk and row["cause_id"] == bust_event.pk for row in mine)
    twins = PendingMove.objects.bulk_create([PendingMove(**row) for row in mine])
    assert list(PendingMove.objects.filter(pk__in=[s.pk for s in twins]).order_by("pk").values(*SLIP_COLUMNS)) == mine

    # The seats of the moved players as bulk_create writes them from the slips.
    ids = {n: pk for n, pk in Table.objects.filter(tournament=t).values_list("number", "pk")}
    moved = [s.entry_id for s in slips]
    mine = list(Seat.objects.filter(pk__in=moved).order_by("pk").values(*SEAT_COLUMNS))
    Seat.objects.filter(pk__in=moved).delete()
    Seat.objects.bulk_create(
        [
            Seat(entry_id=s.entry_id, tournament_id=t.pk, table_id=ids[s.to_table], number=s.to_seat, wait_for_button=s.wait_for_button, seated_at=now)
            for s in slips
        ]
    )
    assert list(Seat.objects.filter(pk__in=moved).order_by("pk").values(*SEAT_COLUMNS)) == mine
    assert not Seat.objects.filter(pk=bust.entry_id).exists()

    # The broken table as the ORM's update closes it; no other table closed.
    row = Table.objects.filter(pk=ids[table]).values(*TABLE_COLUMNS).get()
    Table.objects.filter(pk=ids[table]).update(in_play=False, closed_at=now, is_final=False, halt_waived=False)
    assert Table.objects.filter(pk=ids[table]).values(*TABLE_COLUMNS).get() == row
    assert set(Table.objects.filter(tournament=t, in_play=False).values_list("pk", flat=True)) == broken_before | {ids[table]}

    # Confirming the slips: the lock, then the slips' UPDATE with the event's INSERT.
    last = TournamentEvent.objects.filter(tournament=t).order_by("pk").last()
    later = timezone.now() - timedelta(seconds=3)
    with CaptureQueriesContext(connection) as queries:
        assert services.confirm_moves(t, [s.pk for s in slips], actor=actor, now=later) == len(slips)
    if connection.vendor == "postgresql":
        assert len(_statements(queries)) <= 2, [s[:60] for s in _statements(queries)]
    done = list(PendingMove.objects.filter(pk__in=[s.pk for s in slips]).order_by("pk").values(*SLIP_COLUMNS))
    assert {(r["status"], r["done_at"], r["done_by_id"]) for r in done} == {(PendingMove.DONE, later, actor.user.pk)}
    # ... as the ORM's update marks the twins (drawn slips of the same values) done.
    PendingMove.objects.filter(pk__in=[s.pk for s in twins], status=PendingMove.PROPOSED, applied=True).update(
        status=PendingMove.DONE, done_at=later, done_by=actor.user
    )
    assert list(PendingMove.objects.filter(pk__in=[s.pk for s in twins]).order_by("pk").values(*SLIP_COLUMNS)) == done
    (event,) = TournamentEvent.objects.filter(tournament=t, pk__gt=last.pk)
    assert event.action == "seating.moves.confirmed" and event.payload == {"moves": [s.pk for s in slips], "applied_when_drawn": True}
    twin = TournamentEvent.objects.bulk_create([TournamentEvent(**{f: getattr(event, f) for f in EVENT_COLUMNS})])[0]
    assert TournamentEvent.objects.filter(pk=twin.pk).values(*EVENT_COLUMNS).get() == TournamentEvent.objects.filter(pk=event.pk).values(*EVENT_COLUMNS).get()
    assert event.actor_id == actor.user.pk


def test_confirming_slips_that_are_not_all_drawn(started, actor):
    """A balancing move among them: confirmed on its own (with its own event), the drawn ones
    with one event naming only them; a slip no longer open: refused, nothing written."""
    t = started(30)
    out, _statements_, _now = _break(t, actor, lambda m: next(iter(min(m.items(), key=lambda kv: (len(kv[1]), -kv[0]))[1].values())))
    drawn = sorted(s.pk for s in out.slips)
    others = sorted(p.pk for p in out.proposed)
    last = TournamentEvent.objects.filter(tournament=t).order_by("pk").last()
    services.confirm_moves(t, drawn[1:], actor=actor)
    (event,) = TournamentEvent.objects.filter(tournament=t, pk__gt=last.pk)
    assert event.payload == {"moves": drawn[1:], "applied_when_drawn": True}
    with pytest.raises(SeatingActionError) as refused:  # one is done already: nothing written
        services.confirm_moves(t, drawn, actor=actor)
    assert refused.value.code == "move_done"
    assert not TournamentEvent.objects.filter(tournament=t, pk__gt=event.pk).exists()
    assert PendingMove.objects.get(pk=drawn[0]).status == PendingMove.PROPOSED
    # A drawn slip with a balancing move: the drawn one's event first, then the move's own.
    for _ in range(30):
        if others:
            break
        smallest = min(seat_map(t).items(), key=lambda kv: (len(kv[1]), -kv[0]))[1]
        others = [p.pk for p in services.record_bust(t, [next(iter(smallest.values()))], actor=actor).proposed]
    assert others, "the test needs a balancing move"
    last = TournamentEvent.objects.filter(tournament=t).order_by("pk").last()
    services.confirm_moves(t, [drawn[0], others[0]], actor=actor)
    actions = list(TournamentEvent.objects.filter(tournament=t, pk__gt=last.pk).order_by("pk").values_list("action", "payload"))
    assert actions[0] == ("seating.moves.confirmed", {"moves": [drawn[0]], "applied_when_drawn": True})
    assert actions[1][0] == "seating.move.confirmed" and actions[1][1]["move"] == others[0]
    assert PendingMove.objects.get(pk=others[0]).status == PendingMove.DONE


def test_a_seat_freed_by_the_bust_is_taken_by_the_break_in_one_change(started, actor):
    """19 players at three tables: one out leaves 18, two full tables after the break, so the
    bust's seat (at a table that stays) is taken again by a player of the broken table."""
    t = started(19)
    by_size = sorted(seat_map(t).items(), key=lambda kv: -len(kv[1]))
    number, seats = by_size[0]
    seat, entry = min(seats.items())
    out = services.record_bust(t, [entry], actor=actor)
    assert out.broken and out.broken != [number], "the test needs a break at another table"
    after = seat_map(t)
    assert sorted(len(s) for s in after.values()) == [9, 9]
    taken = after[number][seat]
    assert taken != entry and any(s.entry_id == taken and (s.to_table, s.to_seat) == (number, seat) for s in out.slips)
    assert services.room.load_room(t.pk).tables == services.room.kept(t.pk).tables


def test_the_names_of_a_draw_are_the_players_with_their_numbers(started, actor):
    t = started(12)
    ids = list(Entry.objects.filter(tournament=t).values_list("pk", flat=True))
    Entry.objects.filter(pk=ids[0]).update(number=77)
    want = {
        pk: f"{first} {last} (#{number})"
        for pk, number, first, last in Entry.objects.filter(pk__in=ids[:7]).values_list("pk", "number", "person__first_name", "person__last_name")
    }
    assert len(want) == 7 and want[ids[0]].endswith(" (#77)")
    assert plan._names(ids[:7]) == want
    assert plan._names([]) == {}
