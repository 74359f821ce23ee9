"""Growing without starting over: a room running on the embedded SQLite database moves to
PostgreSQL with `manage.py movedb` and carries on there, nothing lost.

The room is made by another process on a SQLite file of its own, through the services, as the
embedded product would have made it; this process, on the PostgreSQL test database, moves it
and checks what the people in the room would notice: the receipts, the money, who sits where,
the event log, the clock in the middle of its level, logins, API tokens, lobby screens and
phone pages, then a sale, a bust and a level change on PostgreSQL.

The move needs PostgreSQL as the target: on SQLite only the refusal to move into SQLite runs.
"""

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from seating import services as seating
from seating.models import Seat
from tests.servers import ROOT
from tournaments.cashier import services as cashier
from tournaments.cashier.selectors import ledger_totals
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.models import Clock, Entry, LedgerRow, Person, Tournament, TournamentEvent

ON_POSTGRES = "postgresql" in settings.DATABASES["default"]["ENGINE"]


def on_postgres(test):
    """A move for real: PostgreSQL is the target (committed rows, as the command commits)."""
    for mark in (
        pytest.mark.skipif(not ON_POSTGRES, reason="the move goes from SQLite to PostgreSQL: run with DATABASE_URL set to PostgreSQL"),
        pytest.mark.django_db(transaction=True),
        pytest.mark.postgres,
    ):
        test = mark(test)
    return test


PEOPLE = 2500  # the venue's people database: more rows than one batch of the copy
CLOCK_LEFT = 700  # seconds left in the level the clock is moved to

# Runs in a process of its own on a new SQLite file (TDM_SQLITE_PATH): migrate, then a running
# event made through the services. argv[1]: the moment the desk and the clock act at.
BUILD_ROOM = r"""
import json, sys
from datetime import datetime, timedelta
from decimal import Decimal

import django

django.setup()
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from seating import services as seating
from tournaments.models import Entry, LedgerRow, Person, Tournament
from tournaments.cashier import services as cashier
from tournaments.setup import lifecycle
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.structures.services import ensure_builtin_structures

at = datetime.fromisoformat(sys.argv[1])
call_command("migrate", verbosity=0)
users = get_user_model()
dora = users.objects.create_user("dora", password="pw-dora-move")
dora.groups.add(Group.objects.get(name="director"))
carl = users.objects.create_user("carl", password="pw-carl-move")
carl.groups.add(Group.objects.get(name="cashier"))
floor, desk = Actor(dora, "floor-1"), Actor(carl, "desk-1")

Person.objects.bulk_create([Person(first_name=f"Regular{i:04d}", last_name="Guest", search_text=f"regular{i:04d} guest")
                            for i in range(PEOPLE)])
structure = next(s for s in ensure_builtin_structures() if s.name.startswith("Regular"))
t = Tournament.objects.create(name="Festival Main Event", start_at=at + timedelta(hours=1), buy_in=Decimal("100"), fee=Decimal("10"),
                              starting_stack=30000, table_size=9, structure=structure, status=Tournament.REGISTERING, min_players=2)
players = [Person.objects.create(first_name=f"Player{n}", last_name=f"Surname{n}") for n in range(1, 13)]
sales = [cashier.register(t, p, method="CASH", actor=desk, now=at) for p in players]  # receipts 1..12
cashier.reverse(sales[4].row, reason="paid twice", actor=desk)  # receipt 13: player 5's buy-in back
lifecycle.start(t, actor=floor)
clock_services.start_clock(t, actor=floor, now=at)
clock_services.jump_to(t, 2, seconds_left=CLOCK_LEFT, actor=floor, now=at)  # the third item, mid-way
seating.record_bust(t, [sales[2].entry], actor=floor)  # player 3 is out

api = APIClient(HTTP_HOST="127.0.0.1")
api.force_authenticate(dora)
screen = api.post("/api/v1/screens/", {"name": "Lobby TV", "tournament": t.pk}, format="json").json()
token = APIClient(HTTP_HOST="127.0.0.1").post("/api/v1/auth/token/", {"username": "carl", "password": "pw-carl-move"}).json()["token"]
browser = Client(HTTP_HOST="127.0.0.1")
assert browser.login(username="dora", password="pw-dora-move")
print(json.dumps({
    "tournament": t.pk, "session": browser.cookies["sessionid"].value, "api_token": token, "screen_token": screen["token"],
    "phone_token": sales[0].entry.phone_token, "busted": sales[2].entry.pk,
}))
"""


def sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    """A SQLite file holding a running event, and what the process that made it said about it."""
    if not ON_POSTGRES:
        pytest.skip("the move needs PostgreSQL as the target")
    folder = tmp_path_factory.mktemp("sqlite-room")
    path = folder / "tdmanager.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}  # SQLite, and no Redis of the test run
    env.update(TDM_SQLITE_PATH=str(path), TDM_ARM_CLOCK_TASKS="false", DJANGO_SETTINGS_MODULE="tdmanager.settings")
    at = datetime.now(UTC).replace(microsecond=0)
    script = f"PEOPLE, CLOCK_LEFT = {PEOPLE}, {CLOCK_LEFT}\n" + BUILD_ROOM
    done = subprocess.run([sys.executable, "-c", script, at.isoformat()], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    facts = json.loads(done.stdout.strip().splitlines()[-1])
    return {"path": path, "at": at, **facts}


def sqlite_rows(path, sql, params=()):
    """Read the source file directly (read-only), not through the code under test."""
    src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return src.execute(sql, params).fetchall()
    finally:
        src.close()


def source_counts(path) -> dict:
    tables = [name for (name,) in sqlite_rows(path, "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")]
    return {t: sqlite_rows(path, f'SELECT COUNT(*) FROM "{t}"')[0][0] for t in tables if t != "django_migrations"}


def target_counts() -> dict:
    out = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            if table != "django_migrations":
                cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
                out[table] = cursor.fetchone()[0]
    return out


def altered_copy(path, to, statements):
    """A copy of the source file (SQLite's backup API: a consistent one) with ``statements`` run on it."""
    src, db = sqlite3.connect(f"file:{path}?mode=ro", uri=True), sqlite3.connect(to)
    try:
        src.backup(db)
        with db:
            for sql in statements:
                db.execute(sql)
    finally:
        src.close()
        db.close()
    return to


def seat_plan(rows) -> list:
    return sorted(tuple(r) for r in rows)


def move(room, **kw) -> str:
    out = StringIO()
    call_command("movedb", source=str(room["path"]), stdout=out, **kw)
    return out.getvalue()


@on_postgres
def test_a_running_room_moves_to_postgresql_and_carries_on(room, client):
    path, t_id = room["path"], room["tournament"]
    before = sha256(path)
    source = source_counts(path)
    # What the room was, by construction: 12 buy-ins and one reversal, player 3 out, 2,500 + 12 people.
    assert [n for (n,) in sqlite_rows(path, "SELECT receipt_number FROM tournaments_ledgerrow ORDER BY receipt_number")] == list(range(1, 14))
    assert source["tournaments_person"] == PEOPLE + 12

    text = move(room)

    assert "Moved" in text and "tournaments_ledgerrow: 13" in text and f"tournaments_person: {PEOPLE + 12}" in text
    assert "DATABASE_URL=" in text and "Next steps" in text
    assert sha256(path) == before  # the source is not written to

    # Every table holds as many rows as in the source, and no table is missing.
    assert target_counts() == source
    # The receipts, their numbers and the money: twelve buy-ins of 100 + 10, one of them reversed.
    t = Tournament.objects.get(pk=t_id)
    assert list(LedgerRow.objects.filter(tournament=t).order_by("receipt_number").values_list("receipt_number", flat=True)) == list(range(1, 14))
    totals = ledger_totals(t)
    assert (totals["prize"], totals["fee"]) == (Decimal("1100"), Decimal("110"))
    # The entries and who sits where: as the source file says.
    entries = sqlite_rows(path, "SELECT number, status, chips FROM tournaments_entry WHERE tournament_id = ? ORDER BY number", (t_id,))
    assert list(Entry.objects.filter(tournament=t).order_by("number").values_list("number", "status", "chips")) == entries
    assert sorted(status for _n, status, _c in entries) == sorted(["ACTIVE"] * 10 + ["BUSTED", "CANCELLED"])
    assert Entry.objects.get(pk=room["busted"]).status == Entry.BUSTED  # player 3, out on SQLite
    seats = sqlite_rows(
        path,
        "SELECT t.number, s.number, e.number FROM seating_seat s JOIN seating_table t ON t.id = s.table_id "
        "JOIN tournaments_entry e ON e.id = s.entry_id WHERE s.tournament_id = ?",
        (t_id,),
    )
    assert len(seats) == 10
    assert seat_plan(Seat.objects.filter(tournament=t).values_list("table__number", "number", "entry__number")) == seat_plan(seats)
    # The event log: the same actions in the same order.
    log = [a for (a,) in sqlite_rows(path, "SELECT action FROM tournaments_tournamentevent ORDER BY id")]
    assert list(TournamentEvent.objects.order_by("id").values_list("action", flat=True)) == log and len(log) > 20
    # The clock, mid-level: the third item, running, ending when it ended on SQLite.
    clock = Clock.objects.get(tournament=t)
    assert (clock.status, clock.item_index, clock.ends_at) == (Clock.RUNNING, 2, room["at"] + timedelta(seconds=CLOCK_LEFT))

    # Logged-in browsers, API tokens, lobby screens and phone pages keep working.
    client.cookies["sessionid"] = room["session"]
    page = client.get("/")
    assert page.status_code == 200 and "Festival Main Event" in page.content.decode()
    api = Client(HTTP_AUTHORIZATION=f"Token {room['api_token']}")
    answer = api.get(f"/api/v1/tournaments/{t_id}/")
    assert answer.status_code == 200 and answer.json()["name"] == "Festival Main Event"
    display = Client().get(f"/display/{room['screen_token']}/")
    assert display.status_code == 200 and "Festival Main Event" in display.content.decode()
    assert Client().get(f"/p/{room['phone_token']}/").status_code == 200

    # The room carries on on PostgreSQL: a sale takes the next receipt number, a bust and a level change go through.
    dora, carl = (get_user_model().objects.get(username=u) for u in ("dora", "carl"))
    newcomer = Person.objects.create(first_name="Late", last_name="Comer")
    sale = cashier.register(t, newcomer, method="CASH", actor=Actor(carl, "desk-1"))
    assert sale.row.receipt_number == 14 and Seat.objects.filter(entry=sale.entry).exists()
    out = next(e for e in Entry.objects.filter(tournament=t, status=Entry.ACTIVE).order_by("number") if e.pk != sale.entry.pk)
    seating.record_bust(t, [out], actor=Actor(dora, "floor-1"))
    out.refresh_from_db()
    assert out.status == Entry.BUSTED and not Seat.objects.filter(entry=out).exists()
    clock_services.jump_to(t, 3, actor=Actor(dora, "floor-1"))
    clock.refresh_from_db()
    assert clock.item_index == 3 and clock.status == Clock.RUNNING
    assert TournamentEvent.objects.count() > len(log)


@on_postgres
def test_a_database_that_holds_data_is_replaced_only_when_asked(room, outsider):
    with pytest.raises(CommandError, match="already holds data.*--replace"):
        move(room)
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["otto"] and not Tournament.objects.exists()

    move(room, replace=True)
    assert sorted(get_user_model().objects.values_list("username", flat=True)) == ["carl", "dora"]
    assert Tournament.objects.get().name == "Festival Main Event"


@on_postgres
def test_only_a_sqlite_database_of_this_version_is_moved(room, tmp_path):
    dump = tmp_path / "room.pgdump"
    dump.write_bytes(b"PGDMP" + b"\x00" * 64)
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database")
    for path in (dump, junk):
        with pytest.raises(CommandError, match="is not a SQLite database"):
            call_command("movedb", source=str(path))
    with pytest.raises(CommandError, match="does not exist"):
        call_command("movedb", source=str(tmp_path / "missing.sqlite3"))

    # An older database lacks the newest payouts migration on disk (and knows one from the future).
    newest = sorted(p.stem for p in (Path(settings.BASE_DIR) / "payouts" / "migrations").glob("0*.py"))[-1]
    older = altered_copy(
        room["path"],
        tmp_path / "older.sqlite3",
        [
            f"DELETE FROM django_migrations WHERE app = 'payouts' AND name = '{newest}'",
            "INSERT INTO django_migrations (app, name, applied) VALUES ('payouts', '0099_from_the_future', '2030-01-01')",
        ],
    )
    with pytest.raises(CommandError, match=rf"not migrated as far.*payouts\.{newest}.*payouts\.0099_from_the_future"):
        call_command("movedb", source=str(older))
    assert not Tournament.objects.exists() and not get_user_model().objects.exists()  # nothing was moved


@on_postgres
def test_a_move_that_fails_half_way_leaves_nothing_behind(room, tmp_path):
    # SQLite keeps a name longer than its column allows; PostgreSQL refuses it. It is the last
    # person's: whole batches of people (and the tables before them) are written by then.
    damaged = altered_copy(
        room["path"],
        tmp_path / "damaged.sqlite3",
        [
            "UPDATE tournaments_person SET first_name = printf('%.100c', 'x') WHERE id = (SELECT MAX(id) FROM tournaments_person)",
        ],
    )
    with pytest.raises(CommandError, match="Nothing was moved.*tournaments_person"):
        call_command("movedb", source=str(damaged), stdout=StringIO())
    # No person, user, tournament or receipt was left: only what `migrate` itself writes (content types, permissions).
    assert {t for t, n in target_counts().items() if n} <= {"django_content_type", "auth_permission"}


@pytest.mark.skipif(ON_POSTGRES, reason="the refusal to move into SQLite: the PostgreSQL run moves for real")
def test_the_target_must_be_postgresql(tmp_path):
    with pytest.raises(CommandError, match="not PostgreSQL.*DATABASE_URL"):
        call_command("movedb", source=str(tmp_path / "room.sqlite3"))
