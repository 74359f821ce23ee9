"""Durability in the simulated days: the director backs the room up while it plays, and now and
then the machine is lost and the newest backup restored, as docs/operating.md tells.

A restore replaces the whole database, which the suite's tests cannot do inside the transaction
they roll back: there both actions are skipped, and the soak (``benchmarks/simulate_days.py``,
each service committing as in the room) plays them. After a restore everything written since the
backup is gone, except what the product promises to keep: nobody erased comes back (the erasure
journal) and no receipt number is used twice (the receipt journal and the last one printed)."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

from django.core.management import call_command
from django.db import connection
from django.db.models import Max

from tdmanager import backup as bk
from tournaments.models import LedgerRow

from .actions import action, pick
from .world import Skip, World


def _outside_a_transaction() -> None:
    if connection.in_atomic_block:
        raise Skip("a restore replaces the database: the soak plays it, outside the suite's transaction")


@action(weight=1)
def back_up(world: World, rng) -> str:
    """The director takes a backup while the desk and the floor go on (SQLite's online backup,
    pg_dump on PostgreSQL): ``manage.py backup``."""
    _outside_a_transaction()
    if world.backup_dir is None:
        world.backup_dir = tempfile.TemporaryDirectory(prefix="tdm-sim-backups-")
    path = Path(world.backup_dir.name) / f"day{world.day}-{len(world.backups)}.{'sqlite3' if bk.vendor() == 'sqlite' else 'pgdump'}"
    call_command("backup", str(path), stdout=io.StringIO())
    world.backups.append(path)
    return f"backed up to {path.name}"


@action(weight=1.5)
def restore_backup(world: World, rng) -> str:
    """The machine is lost: the director restores the newest backup of the day with the product
    stopped, giving the last receipt the desk printed (``manage.py restore --force
    --last-receipt N``). What the room did since the backup is gone from the database; the
    invariants then ask whether what remains balances, erased people included."""
    _outside_a_transaction()
    path = pick(rng, world.backups[-1:], "backup taken today")
    printed = LedgerRow.objects.aggregate(n=Max("receipt_number"))["n"]
    call_command("restore", str(path), force=True, interactive=False, last_receipt=printed, stdout=io.StringIO())
    gone = world.forget_what_is_gone()
    world.touched = None
    return f"restored {path.name} (last receipt printed {printed}); gone with it: {gone or 'nothing'}"
