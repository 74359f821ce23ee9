"""Helpers and fixtures for the seating product tests (imported by the other test modules)."""

import pytest

from seating import services
from seating.models import PendingMove, Seat, Table
from seating.services import room as room_module
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.models import Entry, Person
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


def add_entries(t, n, *, names=None):
    """``n`` paid entries (the desk is tested elsewhere: rows written directly)."""
    start = t.entries.count()
    people = Person.objects.bulk_create(
        [
            Person(
                first_name=(names[i] if names else f"Player{start + i + 1:03d}"),
                last_name="Test",
                search_text=(names[i] if names else f"player{start + i + 1:03d}").lower(),
            )
            for i in range(n)
        ]
    )
    return Entry.objects.bulk_create(
        [Entry(tournament=t, person=p, number=start + i + 1, status=Entry.ACTIVE, chips=t.starting_stack) for i, p in enumerate(people)]
    )


@pytest.fixture
def started(make_tournament, actor):
    """``started(n, **tournament fields)``: a running tournament of ``n`` players, seats drawn."""

    def make(n, **kw):
        t = make_tournament(**kw)
        add_entries(t, n)
        lifecycle.start(t, actor=actor, prestart_report_sent=True)
        t.refresh_from_db()
        return t

    return make


def seat_map(t) -> dict:
    """{table: {seat: entry id}} of the tables in play, read from the database."""
    out = {}
    for table, seat, entry in Seat.objects.filter(tournament=t).values_list("table__number", "number", "entry_id"):
        out.setdefault(table, {})[seat] = entry
    for number in Table.objects.filter(tournament=t, in_play=True).values_list("number", flat=True):
        out.setdefault(number, {})
    return out


def blinds(t) -> dict:
    return {n: (bb, pbb) for n, bb, pbb in Table.objects.filter(tournament=t, in_play=True).values_list("number", "big_blind_seat", "previous_big_blind_seat")}


def counts(t) -> dict:
    return {n: len(seats) for n, seats in seat_map(t).items()}


def arrange(t, layout: dict, *, capacity=None, big_blinds=None):
    """Seat the tournament's playing entries exactly as ``layout`` says.

    ``layout``: {table: [seats]} (entries taken in number order) or {table: {seat: entry}}.
    ``big_blinds``: {table: (bb, previous bb)}. Returns {table: {seat: entry id}}.
    """
    capacity = capacity or t.table_size
    Seat.objects.filter(tournament=t).delete()
    Table.objects.filter(tournament=t).delete()
    free = list(t.entries.filter(status=Entry.ACTIVE).order_by("number").values_list("pk", flat=True))
    result = {}
    for number, seats in layout.items():
        bb, pbb = (big_blinds or {}).get(number, (None, None))
        table = Table.objects.create(tournament=t, number=number, capacity=capacity, big_blind_seat=bb, previous_big_blind_seat=pbb)
        placed = seats if isinstance(seats, dict) else {s: free.pop(0) for s in seats}
        Seat.objects.bulk_create([Seat(tournament=t, table=table, number=s, entry_id=e) for s, e in placed.items()])
        result[number] = dict(placed)
    room_module.forget(t.pk)
    return result


def test_arrange_and_seat_map_agree(started):
    t = started(6)
    layout = arrange(t, {1: [1, 2, 3], 2: [4, 5, 6]})
    assert seat_map(t) == layout
    assert services.house(t).final_table_size == 9


def player_at(t, table: int) -> int:
    """The entry in the lowest seat taken at ``table``."""
    return Seat.objects.filter(tournament=t, table__number=table).order_by("number").values_list("entry_id", flat=True).first()


def at_the_bubble_on_two_tables(make_tournament, make_person, actor):
    """Sixteen sold at the desk, twelve paid, played down to thirteen (seven and six at tables 1
    and 2, no move to make) and hand-for-hand started: the next one out bursts the bubble."""
    t = make_tournament(name="Serata", settings={"percent_paid": 75})
    for _ in range(16):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor)
    while t.entries.filter(status=Entry.ACTIVE).count() > 13:
        services.record_bust(t, [player_at(t, 1 + t.entries.filter(status=Entry.ACTIVE).count() % 2)], actor=actor)
    assert not PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED).exists()
    clock_services.start_hand_for_hand(t, actor=actor, reason="bolla")
    return t
