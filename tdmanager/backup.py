"""Backup and restore of the whole database (``manage.py backup`` / ``manage.py restore``).

SQLite (the embedded default): the online-backup API (``sqlite3.Connection.backup``) copies a
consistent snapshot while the product runs, and copies a backup back page by page into the
live database file. PostgreSQL: ``pg_dump --format=custom`` and ``pg_restore --clean
--single-transaction`` (all or nothing). A backup file says what it is by its first bytes.

The room's certificate authority (``tdmanager.roomca``) goes with the data, at the end of the
file: a room moved to another machine keeps the devices that trust it.
"""

import os
import secrets
import shutil
import sqlite3
import subprocess
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.dispatch import Signal

from tdmanager import roomca, sql

SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"
#: The room's authority rides after the database's own bytes: SQLite reads the pages its header
#: counts, pg_restore the blocks its table of contents points to, and neither looks past them.
#: The file ends with the authority's archive (``roomca.archive``), its length (8 bytes,
#: big-endian) and this mark.
ROOM_CA_MARK = b"TDM room CA v1\x00\x00"
_TAIL = 8 + len(ROOM_CA_MARK)


class BackupError(Exception):
    pass


#: Sent by ``manage.py restore`` once a backup replaced the database: ``backup`` (the file's
#: name), ``last_receipt`` (the last receipt printed, from ``--last-receipt``, or None). The
#: tournaments app answers with what it did to the receipt counter (a dict the command prints):
#: it continues after the receipts printed since the backup (``tdmanager.receipt_journal``).
database_restored = Signal()


def vendor(alias="default") -> str:
    return connections[alias].vendor


def default_path(alias="default", prefix="tdmanager") -> Path:
    """var/backups/<prefix>-<time>.<sqlite3|pgdump>, never the name of an existing file."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    ext = "sqlite3" if vendor(alias) == "sqlite" else "pgdump"
    folder = Path(settings.VAR_DIR) / "backups"
    path, n = folder / f"{prefix}-{stamp}.{ext}", 1
    while path.exists():
        n += 1
        path = folder / f"{prefix}-{stamp}-{n}.{ext}"
    return path


def file_kind(path: Path) -> str:
    with open(path, "rb") as f:
        head = f.read(16)
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PGDUMP_MAGIC):
        return "postgresql"
    raise BackupError(f"{path} is neither a TDManager SQLite backup nor a pg_dump custom-format file")


# --- PostgreSQL --------------------------------------------------------------------------------


def _pg_env(alias="default") -> dict:
    s = connections[alias].settings_dict
    env = dict(os.environ)
    for key, var in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"), ("PASSWORD", "PGPASSWORD"), ("NAME", "PGDATABASE")):
        if s.get(key):
            env[var] = str(s[key])
    options = s.get("OPTIONS") or {}
    for key, var in (("sslmode", "PGSSLMODE"), ("sslrootcert", "PGSSLROOTCERT"), ("sslcert", "PGSSLCERT"), ("sslkey", "PGSSLKEY")):
        if options.get(key):
            env[var] = str(options[key])
    return env


def _tool(name: str) -> str:
    found = shutil.which(name) or (f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None)
    if not found:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def _run(cmd, env):
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise BackupError(f"{Path(cmd[0]).name} failed ({r.returncode}): {r.stderr.strip()[-2000:]}")
    return r


# --- backup ------------------------------------------------------------------------------------


def backup(path: Path, alias="default") -> Path:
    """Write a consistent copy of the database to ``path`` (atomically: a partial file never
    carries the final name)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # A partial file of this writer's own: two backups begun in the same second (the nightly one
    # and the director's, a restore's safety copy) pick the same final name, never the same partial.
    tmp = path.with_name(f"{path.name}.{os.getpid()}-{secrets.token_hex(4)}.partial")
    conn = connections[alias]
    try:
        if conn.vendor == "sqlite":
            conn.ensure_connection()
            dest = sqlite3.connect(tmp)
            try:
                conn.connection.backup(dest)  # a consistent snapshot, writers keep going
                sql.make_self_contained(dest)
            finally:
                dest.close()
        elif conn.vendor == "postgresql":
            _run([_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(tmp)], _pg_env(alias))
        else:
            raise BackupError(f"backup does not support {conn.vendor}")
        _append_room_ca(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def _append_room_ca(path: Path) -> None:
    archive = roomca.archive()
    if archive is None:
        return
    with open(path, "ab") as f:
        f.write(archive + len(archive).to_bytes(8, "big") + ROOM_CA_MARK)
        f.flush()
        os.fsync(f.fileno())


def room_ca_in(path: Path) -> bytes | None:
    """The room's authority a backup carries (``roomca.archive``), or None (made before there
    was one)."""
    with open(path, "rb") as f:
        size = f.seek(0, os.SEEK_END)
        if size < _TAIL:
            return None
        f.seek(size - _TAIL)
        tail = f.read(_TAIL)
        if tail[8:] != ROOM_CA_MARK:
            return None
        length = int.from_bytes(tail[:8], "big")
        if length > size - _TAIL:
            raise BackupError(f"{path} is cut short: the room's certificate authority at its end is not whole")
        f.seek(size - _TAIL - length)
        return f.read(length)


# --- restore -----------------------------------------------------------------------------------


def check_backup(path: Path, alias="default") -> None:
    kind = file_kind(path)
    archive = room_ca_in(path)
    if archive is not None:
        try:
            roomca.fingerprint_of(archive)
        except ValueError as exc:
            raise BackupError(f"{path}: the room's certificate authority at its end is damaged ({exc})")
    if kind != vendor(alias):
        raise BackupError(f"{path} is a {kind} backup but the database is {vendor(alias)}")
    if kind == "sqlite":
        check_sqlite_file(path)
    else:
        listing = _run([_tool("pg_restore"), "--list", str(path)], _pg_env(alias)).stdout
        if "django_migrations" not in listing:
            raise BackupError(f"{path} is not a TDManager database")


def check_sqlite_file(path: Path) -> None:
    """A SQLite file that is whole (``PRAGMA quick_check``) and a TDManager database; opened
    read-only, so checking never writes to it."""
    src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        if not sql.sqlite_is_whole(src):
            raise BackupError(f"{path} is damaged (PRAGMA quick_check)")
        if not sql.sqlite_has_migrations(src):
            raise BackupError(f"{path} is not a TDManager database")
    finally:
        src.close()


def counts_as_data(table: str) -> bool:
    """Whether rows in ``table`` are the room's: Django's bookkeeping (migrations applied, content
    types, permissions) is written by ``migrate`` into every database, so it does not count."""
    return not table.startswith(("django_", "auth_permission"))


def has_data(alias="default") -> bool:
    conn = connections[alias]
    tables = conn.introspection.table_names()
    if "django_migrations" not in tables:
        return False
    return any(sql.table_has_rows(conn, table) for table in tables if counts_as_data(table))


def restore(path: Path, alias="default") -> None:
    """Replace the database's contents with the backup's. Stop the product first."""
    path = Path(path)
    check_backup(path, alias)
    conn = connections[alias]
    if conn.in_atomic_block:
        raise BackupError("restore cannot run inside a transaction")
    if conn.vendor == "sqlite":
        conn.ensure_connection()
        src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            src.backup(conn.connection)  # page by page into the live file, under its write lock
        finally:
            src.close()
        conn.close()  # the next query opens the restored database afresh
    else:
        # No connection of ours may hold a lock or a cached plan on the tables being replaced.
        conn.close()
        if hasattr(conn, "close_pool"):
            conn.close_pool()
        _run(
            [_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--single-transaction", "--dbname", conn.settings_dict["NAME"], str(path)],
            _pg_env(alias),
        )


def restore_room_ca(path: Path) -> tuple[str, Path | None] | None:
    """The room's authority of a backup in place of the installation's: its fingerprint and where
    the one there before was moved (None: none, or the same). None when the backup carries none:
    the installation keeps its own."""
    archive = room_ca_in(Path(path))
    if archive is None:
        return None
    aside = roomca.restore_archive(archive, datetime.now().strftime("%Y%m%d-%H%M%S"))
    return roomca.ca_fingerprint(), aside


def summary(alias="default") -> list[tuple[str, int]]:
    """(table, rows) for every table that has rows, the product's tables first."""
    conn = connections[alias]
    out = []
    for table in sorted(conn.introspection.table_names()):
        n = sql.row_count(conn, table)
        if n:
            out.append((table, n))
    return product_first(out)


def product_first(rows: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """(table, rows) pairs sorted by name, the product's tables before Django's and DRF's."""
    product = ("tournaments_", "seating_", "payouts_", "formats_")
    return sorted(rows, key=lambda item: (not item[0].startswith(product), item[0]))
