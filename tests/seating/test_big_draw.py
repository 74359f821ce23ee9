"""The initial draw of a very big field works on a stock SQLite build (at most 32,766
variables a statement; Debian's build allows more and would hide an insert that sends
every seat in one statement)."""

import sqlite3

import pytest
from django.db import connection

from seating.models import Seat, Table
from tournaments.models import Entry
from tournaments.setup import lifecycle

from .test_support import add_entries

pytestmark = pytest.mark.django_db

STOCK_SQLITE_VARIABLE_LIMIT = 32766  # SQLITE_MAX_VARIABLE_NUMBER of SQLite >= 3.32 built from source


@pytest.fixture
def stock_sqlite_limit():
    if connection.vendor != "sqlite":
        pytest.skip("the variable limit is SQLite's")
    connection.ensure_connection()
    raw = connection.connection
    old = raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, STOCK_SQLITE_VARIABLE_LIMIT)
    try:
        yield
    finally:
        raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, old)


def test_the_limit_is_really_in_force(stock_sqlite_limit):
    with pytest.raises(Exception, match="too many SQL variables"), connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(["%s"] * (STOCK_SQLITE_VARIABLE_LIMIT + 1)), [1] * (STOCK_SQLITE_VARIABLE_LIMIT + 1))


def test_ten_thousand_entries_are_drawn_into_seats(stock_sqlite_limit, make_tournament, actor):
    t = make_tournament(table_size=9)
    add_entries(t, 10_000)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)

    seats = list(Seat.objects.filter(tournament=t).values_list("entry_id", "table__number", "number"))
    assert len(seats) == 10_000
    assert {e for e, _n, _s in seats} == set(Entry.objects.filter(tournament=t).values_list("pk", flat=True))
    assert len({(n, s) for _e, n, s in seats}) == 10_000  # no seat given twice
    tables = Table.objects.filter(tournament=t, in_play=True)
    assert tables.count() == 1112  # as few tables as needed: ceil(10,000 / 9)
    per_table = {}
    for _e, n, _s in seats:
        per_table[n] = per_table.get(n, 0) + 1
    assert max(per_table.values()) - min(per_table.values()) <= 1
