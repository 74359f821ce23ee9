"""Nothing lost: `manage.py backup` and `manage.py restore`, round trip on the configured database
(SQLite's online-backup API on the embedded default, pg_dump/pg_restore on PostgreSQL)."""

import stat
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from seating.models import Seat
from tdmanager import backup as bk
from tdmanager import roomca
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.models import Clock, Entry, LedgerRow, Person, Tournament
from tournaments.setup import lifecycle

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
    clock_services.start_clock(t, actor=actor)
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
    clock_services.pause(t, actor=actor, reason="backup test")
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
    # the product works on the restored database, and the next sale never takes a receipt number
    # printed after the backup (issue #30: the reversal made after the backup took one, which the
    # restored counter used to give again): the desk continues after the receipt journal's
    numbers = [row["receipt_number"] for row in before["ledger"]]
    printed_after_backup = max(numbers) + 1
    assert f"Receipts {printed_after_backup}–" in text
    sale = cashier.register(t, make_person(), method="CASH", actor=actor)
    assert sale.row.receipt_number > printed_after_backup


def test_the_pre_restore_copy_undoes_a_wrong_restore(running, tmp_path):
    t, actor = running
    first = tmp_path / "first.backup"
    call_command("backup", str(first), stdout=StringIO())
    clock_services.pause(t, actor=actor, reason="later state")
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


# --- issue #30 item 10: receipts printed after the backup are never printed again ---------------


@pytest.fixture
def journal(settings, tmp_path):
    from tdmanager import receipt_journal

    settings.TDM_RECEIPT_JOURNAL = str(tmp_path / "receipts.journal")
    settings.TDM_RECEIPT_JOURNAL_BLOCK = 10
    receipt_journal.forget()
    yield tmp_path / "receipts.journal"
    receipt_journal.forget()


def test_a_restore_continues_after_the_receipts_printed_since_the_backup(journal, make_tournament, make_person, director, tmp_path):
    from payouts import reports

    actor = Actor(director, "test")
    t = make_tournament(name="Restore Receipts Event")
    for _ in range(4):
        cashier.register(t, make_person(), method="CASH", actor=actor)  # receipts 1–4
    path = tmp_path / "early.backup"
    call_command("backup", str(path), stdout=StringIO())
    held = [cashier.register(t, make_person(), method="CASH", actor=actor).row.receipt_number for _ in range(3)]
    assert held == [5, 6, 7]  # printed, in the players' hands, then the database is lost
    assert journal.read_text().split()[0] == "10"  # one line for the block 1–10, not one per sale

    out = StringIO()
    call_command("restore", str(path), force=True, stdout=out)
    text = out.getvalue()
    assert "the backup's last is 4" in text and "the next receipt is 11" in text
    assert "Receipts 5–10 may have been printed since the backup" in text and "Restore Receipts Event" in text
    numbers = [cashier.register(t, make_person(), method="CASH", actor=actor).row.receipt_number for _ in range(2)]
    assert numbers == [11, 12] and not set(numbers) & set(held)
    notes = [row[0] for row in reports.reconciliation(t)["rows"]]
    assert any("Receipts 5–10: lost with the restore of" in n and "early.backup" in n for n in notes)


def test_the_last_receipt_printed_can_be_given_when_the_journal_is_behind(journal, make_tournament, make_person, director, tmp_path):
    actor = Actor(director, "test")
    t = make_tournament()
    cashier.register(t, make_person(), method="CASH", actor=actor)
    path = tmp_path / "b.backup"
    call_command("backup", str(path), stdout=StringIO())
    journal.unlink()  # another machine sold too: its journal is not here
    out = StringIO()
    call_command("restore", str(path), force=True, last_receipt=57, stdout=out)
    assert "--last-receipt 57: the next receipt is 58" in out.getvalue()
    assert cashier.register(t, make_person(), method="CASH", actor=actor).row.receipt_number == 58


# --- issue 38: a player erased after the backup is not brought back by the restore ---------------


@pytest.fixture
def erasures(settings, tmp_path):
    settings.TDM_ERASURE_JOURNAL = str(tmp_path / "erasures.journal")
    return tmp_path / "erasures.journal"


def test_a_player_erased_after_the_backup_stays_erased_after_the_restore(erasures, make_person, director, tmp_path):
    """Found by the simulated days: a restore brought back, name, phone and document, a player
    who had asked to be forgotten after the backup was taken."""
    from tournaments.people import privacy
    from tournaments.people import services as people

    actor = Actor(director, "test")
    mario = make_person("Mario", "Rossi", phone="+39 333 123 4567", document_id="AB123456")
    path = tmp_path / "before-the-erasure.backup"
    call_command("backup", str(path), stdout=StringIO())
    privacy.erase_person(mario, "asked to be forgotten", actor=actor)
    assert "Rossi" not in erasures.read_text() and "AB123456" not in erasures.read_text()  # his key, not his data

    out = StringIO()
    call_command("restore", str(path), force=True, stdout=out)
    assert f"erased again (person #{mario.pk})" in out.getvalue()
    back = Person.objects.get(pk=mario.pk)
    assert (back.full_name, back.phone, back.document_id) == (f"Erased player #{mario.pk}", "", "")
    assert people.search_people("Rossi") == [] and people.search_people("AB123456") == []


def test_a_new_player_given_an_erased_players_key_is_not_erased_by_a_restore(erasures, make_person, director, tmp_path):
    """The journal names the erased person by his key and when he was added: a player added
    after a restore, who may be given the same key, is not taken for him by a later restore."""
    from tournaments.people import privacy

    actor = Actor(director, "test")
    make_person("Anna", "Bianchi")
    first = tmp_path / "first.backup"
    call_command("backup", str(first), stdout=StringIO())
    gone = make_person("Ugo", "Verdi")
    privacy.erase_person(gone, "asked", actor=actor)
    call_command("restore", str(first), force=True, stdout=StringIO())
    assert not Person.objects.filter(pk=gone.pk).exists()

    luca = make_person("Luca", "Neri")
    assert luca.pk == gone.pk  # the restored key sequence hands his key out again
    second = tmp_path / "second.backup"
    call_command("backup", str(second), stdout=StringIO())
    out = StringIO()
    call_command("restore", str(second), force=True, stdout=out)
    assert Person.objects.get(pk=luca.pk).full_name == "Luca Neri" and "Erasures" not in out.getvalue()


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the overlap is staged inside SQLite's online backup")
def test_two_backups_begun_in_the_same_second_both_complete(running, tmp_path, monkeypatch):
    """Found by two test processes restoring at the same virtual second: both picked the same
    name, the second writer removed the first's partial file, and the first failed with
    FileNotFoundError. Each writer now writes a partial file of its own."""
    target = tmp_path / "same-second.sqlite3"
    sqlite_backup = bk.sql.make_self_contained
    inner = []

    def overlapping(dest):  # while the first copy is being written, a second one to the same name
        if not inner:
            inner.append(None)
            inner[0] = bk.backup(target)
        return sqlite_backup(dest)

    monkeypatch.setattr(bk.sql, "make_self_contained", overlapping)
    written = bk.backup(target)
    assert written == target == inner[0]
    assert bk.file_kind(target) == "sqlite"
    assert not list(tmp_path.glob("*.partial"))


# --- The room's certificate authority goes with the data ------------------------------------------


def test_the_rooms_authority_goes_with_the_backup_to_another_machine(running, tmp_path, settings):
    roomca.ensure_server_certificate(["tdm.sala", "localhost"], ["127.0.0.1"])
    fingerprint = roomca.ca_fingerprint()
    server_cert = (roomca.ca_dir() / roomca.SERVER_CERT).read_bytes()
    path = tmp_path / "with-ca.backup"
    out = StringIO()
    call_command("backup", str(path), stdout=out)
    assert f"The room's certificate authority is in it too (fingerprint {fingerprint})" in out.getvalue()
    assert bk.file_kind(path) == connection.vendor and bk.room_ca_in(path) is not None
    bk.check_backup(path)  # the database in it is whole for its engine's own tools

    settings.VAR_DIR = tmp_path / "another-machine"  # an empty data directory
    assert not roomca.ca_exists()
    out = StringIO()
    call_command("restore", str(path), force=True, stdout=out)
    assert f"The room's certificate authority came back with the backup (fingerprint {fingerprint})" in out.getvalue()
    assert "kept in" not in out.getvalue()
    assert roomca.ca_fingerprint() == fingerprint
    assert (roomca.ca_dir() / roomca.SERVER_CERT).read_bytes() == server_cert
    assert stat.S_IMODE(roomca.ca_dir().stat().st_mode) == 0o700
    for key in (roomca.CA_KEY, roomca.SERVER_KEY):
        assert stat.S_IMODE((roomca.ca_dir() / key).stat().st_mode) == 0o600
    assert Tournament.objects.filter(pk=running[0].pk).exists()


def test_a_restore_keeps_aside_the_authority_it_replaces(tmp_path, settings, db):
    roomca.ensure_ca()
    backed_up = roomca.ca_fingerprint()
    path = tmp_path / "first.backup"
    call_command("backup", str(path), stdout=StringIO())
    for name in (roomca.CA_KEY, roomca.CA_CERT):
        (roomca.ca_dir() / name).unlink()
    roomca.ensure_ca()
    other = roomca.ca_fingerprint()
    assert other != backed_up

    out = StringIO()
    call_command("restore", str(path), force=True, stdout=out)
    assert roomca.ca_fingerprint() == backed_up
    (aside,) = settings.VAR_DIR.glob("room-ca.before-restore-*")
    assert f"kept in {aside}" in out.getvalue()
    assert (aside / roomca.CA_CERT).is_file() and stat.S_IMODE((aside / roomca.CA_KEY).stat().st_mode) == 0o600
    # The same authority restored again: nothing set aside.
    call_command("restore", str(path), force=True, stdout=StringIO())
    assert len(list(settings.VAR_DIR.glob("room-ca.before-restore-*"))) == 1


def test_a_backup_without_an_authority_leaves_the_installations_own(tmp_path, db):
    path = tmp_path / "no-ca.backup"
    call_command("backup", str(path), stdout=StringIO())
    assert bk.room_ca_in(path) is None
    roomca.ensure_ca()
    fingerprint = roomca.ca_fingerprint()
    out = StringIO()
    call_command("restore", str(path), force=True, stdout=out)
    assert roomca.ca_fingerprint() == fingerprint and "certificate authority" not in out.getvalue()


def test_a_damaged_authority_at_a_backups_end_is_refused_before_anything_is_replaced(tmp_path, db):
    roomca.ensure_ca()
    path = tmp_path / "damaged.backup"
    call_command("backup", str(path), stdout=StringIO())
    data = bytearray(path.read_bytes())
    archive_length = len(bk.room_ca_in(path))
    start = len(data) - len(bk.ROOM_CA_MARK) - 8 - archive_length
    data[start + 20 : start + 60] = b"\x00" * 40
    path.write_bytes(bytes(data))
    with pytest.raises(CommandError, match="certificate authority at its end is damaged"):
        call_command("restore", str(path), force=True, stdout=StringIO())
    path.write_bytes(bytes(data[: len(data) - 30]) + bytes(data[-24:]))  # cut short, its tail kept
    with pytest.raises(CommandError, match="damaged|cut short|neither"):
        call_command("restore", str(path), force=True, stdout=StringIO())
