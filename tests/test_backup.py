"""Nothing lost: `manage.py backup` and `manage.py restore`, round trip on the configured database
(SQLite's online-backup API on the embedded default, pg_dump/pg_restore on PostgreSQL)."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from seating.models import Seat
from tdmanager import backup as bk
from tournaments.models import Clock, Entry, LedgerRow, Tournament
from tournaments.services import cashier, clockctl, lifecycle
from tournaments.services.events import Actor

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _var(settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"  # default paths and pre-restore copies go here, not ./var


@pytest.fixture
def running(make_tournament, make_person, director):
    actor = Actor(director, "test")
    t = make_tournament(name="Backup Test Event")
    for _ in range(12):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor)
    clockctl.start_clock(t, actor=actor)
    return t, actor


def picture(t):
    """Everything the round trip must bring back, as plain values."""
    return {
        "ledger": list(LedgerRow.objects.filter(tournament=t).order_by("pk").values()),
        "seats": list(Seat.objects.filter(tournament=t).order_by("pk").values()),
        "clock": list(Clock.objects.filter(tournament=t).values()),
        "entries": list(Entry.objects.filter(tournament=t).order_by("pk").values()),
        "tournament": list(Tournament.objects.filter(pk=t.pk).values()),
        "events": t.events.count(),
    }


def test_backup_damage_restore_brings_back_every_row(running, tmp_path, make_person):
    t, actor = running
    before = picture(t)
    assert len(before["ledger"]) == 12 and len(before["seats"]) == 12 and before["clock"][0]["status"] == Clock.RUNNING

    out = StringIO()
    path = tmp_path / "round-trip.backup"
    call_command("backup", str(path), stdout=out)
    assert path.is_file() and "Backed up" in out.getvalue() and "tournaments_ledgerrow: 12" in out.getvalue()
    assert bk.file_kind(path) == connection.vendor

    # After the backup: a sale reversed, the clock paused, the seat map lost, a table damaged.
    cashier.reverse(LedgerRow.objects.filter(tournament=t).first(), reason="operator error", actor=actor)
    clockctl.pause(t, actor=actor, reason="backup test")
    Seat.objects.filter(tournament=t).delete()
    with connection.cursor() as cursor:
        cursor.execute("UPDATE tournaments_tournament SET name = 'damaged' WHERE id = %s", [t.pk])
    assert picture(t) != before

    with pytest.raises(CommandError, match="--force"):
        call_command("restore", str(path), interactive=False)

    out = StringIO()
    call_command("restore", str(path), force=True, stdout=out)
    text = out.getvalue()
    assert "Restored" in text and "tournaments_ledgerrow: 12" in text and "seating_seat: 12" in text
    assert "saved in" in text  # the database as it was before the restore is kept

    after = picture(t)
    assert after == before
    # the product works on the restored database: the next sale takes the next receipt number
    # (the reversal made after the backup had taken one; the restored counter gives it again)
    numbers = [row["receipt_number"] for row in before["ledger"]]
    sale = cashier.register(t, make_person(), method="CASH", actor=actor)
    assert sale.row.receipt_number == max(numbers) + 1


def test_the_pre_restore_copy_undoes_a_wrong_restore(running, tmp_path):
    t, actor = running
    first = tmp_path / "first.backup"
    call_command("backup", str(first), stdout=StringIO())
    clockctl.pause(t, actor=actor, reason="later state")
    later = picture(t)
    out = StringIO()
    call_command("restore", str(first), force=True, stdout=out)
    saved = next(line.split(" in ", 1)[1].rstrip(".") for line in out.getvalue().splitlines() if "saved in" in line)
    call_command("restore", saved, force=True, stdout=StringIO())
    assert picture(t) == later


def test_backup_without_a_path_goes_to_var_backups(running, settings):
    out = StringIO()
    call_command("backup", stdout=out)
    files = list((settings.VAR_DIR / "backups").iterdir())
    assert len(files) == 1 and files[0].name.startswith("tdmanager-") and str(files[0]) in out.getvalue()


def test_restore_refuses_what_is_not_a_backup(tmp_path, db):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a database at all")
    with pytest.raises(CommandError, match="neither"):
        call_command("restore", str(junk), force=True)
    with pytest.raises(CommandError, match="does not exist"):
        call_command("restore", str(tmp_path / "missing"), force=True)


def test_restore_refuses_a_backup_of_the_other_engine(tmp_path, db):
    other = tmp_path / "other.backup"
    other.write_bytes(bk.PGDUMP_MAGIC + b"\x00" * 32 if connection.vendor == "sqlite" else bk.SQLITE_MAGIC + b"\x00" * 32)
    with pytest.raises(CommandError, match="backup but the database is"):
        call_command("restore", str(other), force=True)
