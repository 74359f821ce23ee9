"""Move a room from the embedded SQLite database to PostgreSQL, everything kept.

    DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/NAME ./tdm manage movedb [--from FILE] [--replace]

The target is the configured database (``DATABASE_URL``, the same setting every process of the
room will run with afterwards; and the data migrations write through the default database, so
the database being migrated must be it). The source is a SQLite file, by default the one the
embedded product uses (``TDM_SQLITE_PATH``, else ``var/tdmanager.sqlite3``), or a SQLite backup.
Stop the product (web and worker) first. The source is opened read-only and never written to.

1. The source must be whole (``PRAGMA quick_check``) and migrated exactly as far as this code.
2. The target must hold no data beyond what ``migrate`` writes into a new database (unless
   ``--replace``); it is then migrated like the source.
3. In one transaction on the target: every table of every installed app is emptied, every row
   of the source is copied with its primary key (in batches, in an order that satisfies the
   foreign keys; PostgreSQL checks Django's foreign keys at commit anyway), the row counts are
   compared table by table and every sequence is set past the copied keys. A failure anywhere
   rolls it all back: the target keeps the rows it had.

The gapless receipt counter and every other counter are rows (``tournaments_sequence``), so the
next sale takes the next number; the clocks are rows with their level's end time, so a running
clock runs on (a level that ended while the room was stopped ends at once, as after any outage).
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.core.management.color import no_style
from django.core.management.sql import sql_flush
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import ConnectionDoesNotExist, load_backend

from tdmanager import backup as bk
from tdmanager import sql

SOURCE = "movedb_source"
FRESH = "movedb_fresh"
READ_CHUNK = 2000  # rows fetched from the source at a time
INSERT_ROWS = 1000  # rows per INSERT on the target (keeps a statement's parameters well under PostgreSQL's 65,535)


class MoveError(Exception):
    pass


def sqlite_settings(path: Path) -> dict:
    """The settings of a read-only connection to a SQLite file: the embedded default's shape
    (``tdmanager.settings``) without what would write to it. ``mode=ro`` makes SQLite refuse any
    write; no ``journal_mode`` pragma (switching a backup file to WAL is a write); a plain
    deferred BEGIN (IMMEDIATE takes the write lock), which still reads every table as of one moment."""
    return {"ENGINE": "django.db.backends.sqlite3", "NAME": f"{path.resolve().as_uri()}?mode=ro", "OPTIONS": {"timeout": 30}}


def open_sqlite(alias: str, path: Path) -> None:
    """Make ``alias`` a read-only connection to ``path`` in ``connections`` (``.using(alias)``,
    ``transaction.atomic(using=alias)``), for this thread only. It is this command's own
    connection, not one of the configured databases, so it is not added to
    ``connections.settings``: nothing that walks the configured databases (``connections.all()``,
    the test runner's guard on them) meets it."""
    filled = connections.configure_settings({DEFAULT_DB_ALIAS: dict(connections.settings[DEFAULT_DB_ALIAS]), alias: sqlite_settings(path)})
    connections[alias] = load_backend(filled[alias]["ENGINE"]).DatabaseWrapper(filled[alias], alias)


def close_sqlite(alias: str) -> None:
    try:
        conn = connections[alias]
    except ConnectionDoesNotExist:
        return
    conn.close()
    del connections[alias]


def fresh_counts() -> dict[str, int]:
    """Rows per table of a database ``migrate`` has just made (the built-in roles, blind
    structures, the receipt counter…): a scratch SQLite file migrated by a child process of this
    code. Not in this process: data migrations write through the default database, which here
    is the target."""
    with tempfile.TemporaryDirectory(prefix="tdm-movedb-") as folder:
        path = Path(folder) / "fresh.sqlite3"
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        env["TDM_SQLITE_PATH"] = str(path)
        done = subprocess.run(
            [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "migrate", "--noinput", "--verbosity", "0"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise MoveError(f"could not migrate a scratch database to compare the target with: {done.stderr.strip()[-2000:]}")
        open_sqlite(FRESH, path)
        try:
            return {m._meta.db_table: m._base_manager.using(FRESH).count() for m in models_to_copy()}
        finally:
            close_sqlite(FRESH)


def data_held(alias: str) -> list[tuple[str, int]]:
    """(table, rows) of what the database holds beyond what ``migrate`` writes into every new
    database: the room's data, which a move would replace. Empty for a database never migrated
    or only migrated."""
    conn = connections[alias]
    tables = set(conn.introspection.table_names())
    if "django_migrations" not in tables:
        return [(t, 0) for t in sorted(tables)]  # another program's tables: not ours to replace
    if not bk.has_data(alias):
        return []
    fresh = fresh_counts()
    held = []
    for model in models_to_copy():
        table = model._meta.db_table
        if table in tables and bk.counts_as_data(table):
            n = model._base_manager.using(alias).count()
            if n > fresh.get(table, 0):
                held.append((table, n))
    return bk.product_first(held)


def migration_differences(alias: str) -> tuple[list[str], list[str]]:
    """(migrations of this code the database lacks, migrations the database has that this code does not know)."""
    executor = MigrationExecutor(connections[alias])
    loader = executor.loader
    missing = [f"{m.app_label}.{m.name}" for m, _backwards in executor.migration_plan(loader.graph.leaf_nodes())]
    unknown = sorted(f"{app}.{name}" for app, name in loader.applied_migrations if (app, name) not in loader.disk_migrations)
    return missing, unknown


def models_to_copy() -> list:
    """Every model of every installed app that owns a table (many-to-many tables included),
    each after the models its foreign keys point at; a cycle keeps the remaining models in
    app order (the target checks foreign keys at commit)."""
    models = [m for m in apps.get_models(include_auto_created=True) if m._meta.managed and not m._meta.proxy and not m._meta.swapped]
    pending, ordered, placed = list(models), [], set()
    while pending:
        ready = [m for m in pending if all(dep in placed or dep is m or dep not in models for dep in _references(m))]
        for m in ready or pending[:1]:
            ordered.append(m)
            placed.add(m)
            pending.remove(m)
    return ordered


def _references(model) -> set:
    return {f.related_model._meta.concrete_model for f in model._meta.local_concrete_fields if f.is_relation and f.related_model}


def _columns(model) -> list:
    return [f for f in model._meta.local_concrete_fields if not getattr(f, "generated", False)]


def insert_as_read(model, rows: list, alias: str) -> None:
    """Insert ``rows`` (instances read from the source) into ``model``'s table on ``alias`` as
    they are: keys and every value kept. ``bulk_create`` would stamp ``auto_now``/``auto_now_add``
    fields with the time of the move (``Field.pre_save``); a raw insert (``raw=True``, what
    ``loaddata`` and ``Model.save_base(raw=True)`` use) writes the stored values, sends no signal
    and runs no ``save()``."""
    model._base_manager._insert(rows, fields=_columns(model), using=alias, raw=True)


def copy_table(model, target: str) -> int:
    rows, n = [], 0
    for obj in model._base_manager.using(SOURCE).order_by("pk").iterator(chunk_size=READ_CHUNK):
        rows.append(obj)
        if len(rows) == INSERT_ROWS:
            insert_as_read(model, rows, target)
            n, rows = n + len(rows), []
    if rows:
        insert_as_read(model, rows, target)
        n += len(rows)
    return n


def move(target: str, log=lambda text: None) -> list[tuple[str, int]]:
    """Copy every row of the source into ``target`` in one transaction (see the module's text);
    returns (table, rows) for every table copied."""
    conn = connections[target]
    models = models_to_copy()
    copied = []
    with transaction.atomic(using=target, durable=True), transaction.atomic(using=SOURCE):
        conn.ops.execute_sql_flush(sql_flush(no_style(), conn, reset_sequences=False))  # what migrate seeded (roles, structures, content types…)
        for model in models:
            table = model._meta.db_table
            try:
                n = copy_table(model, target)
            except DatabaseError as exc:
                raise MoveError(f"copying {table} failed: {exc}".strip()) from exc
            log(f"  {table}: {n}")
            copied.append((table, n))
        for model, (table, n) in zip(models, copied):
            source_rows, target_rows = model._base_manager.using(SOURCE).count(), model._base_manager.using(target).count()
            if not source_rows == target_rows == n:
                raise MoveError(f"{table}: {source_rows} rows in the source, {target_rows} in the target after the copy")
        sql.continue_key_sequences(conn, models)  # the next insert continues after the copied keys
    ContentType.objects.clear_cache()  # ids cached from the target's own content types may differ
    return copied


def describe(alias: str) -> str:
    s = connections[alias].settings_dict
    return f"{s.get('NAME')} on {s.get('HOST') or 'localhost'}:{s.get('PORT') or 5432}"


def url_without_password(alias: str) -> str:
    s = connections[alias].settings_dict
    user = f"{s['USER']}@" if s.get("USER") else ""
    return f"postgres://{user}{s.get('HOST') or 'localhost'}:{s.get('PORT') or 5432}/{s.get('NAME')}"


class Command(BaseCommand):
    help = (
        "Move the room from a SQLite database to the PostgreSQL database of DATABASE_URL, everything kept (run with DATABASE_URL set; stop the product first)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--from", dest="source", default=None, help="the SQLite file to move (default: the embedded database, TDM_SQLITE_PATH or var/tdmanager.sqlite3)"
        )
        parser.add_argument("--replace", action="store_true", help="replace what the PostgreSQL database already holds")

    def handle(self, source=None, replace=False, **opts):
        target = DEFAULT_DB_ALIAS
        conn = connections[target]
        if conn.vendor != "postgresql":
            raise CommandError(
                f"The target is the configured database, and it is {conn.vendor}, not PostgreSQL. Run with "
                "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/NAME set to the database to move to."
            )
        if conn.in_atomic_block:
            raise CommandError("movedb cannot run inside a transaction")
        path = Path(source or settings.SQLITE_PATH)
        if not path.is_file():
            raise CommandError(f"{path} does not exist")
        try:
            kind = bk.file_kind(path)
        except bk.BackupError:
            kind = "unknown"
        if kind != "sqlite":
            raise CommandError(
                f"{path} is not a SQLite database: movedb moves a SQLite database (the embedded default "
                "or a SQLite backup) to PostgreSQL. A pg_dump file is restored with `manage.py restore`."
            )
        try:
            bk.check_sqlite_file(path)
        except bk.BackupError as exc:
            raise CommandError(str(exc)) from exc

        started = time.monotonic()
        open_sqlite(SOURCE, path)
        try:
            missing, unknown = migration_differences(SOURCE)
            if missing or unknown:
                raise CommandError(
                    f"{path} is not migrated as far as this code: "
                    + "; ".join(
                        filter(
                            None,
                            [
                                missing
                                and "not applied: "
                                + ", ".join(missing)
                                + " (run the product of this version on it once, or `TDM_SQLITE_PATH=FILE ./tdm manage migrate`, then move it)",
                                unknown and "applied but unknown to this code: " + ", ".join(unknown) + " (move it with the version that made it)",
                            ],
                        )
                    )
                )
            try:
                held = [] if replace else data_held(target)
            except MoveError as exc:
                raise CommandError(str(exc)) from exc
            if held:
                raise CommandError(
                    f"The PostgreSQL database {describe(target)} already holds data ("
                    + ", ".join(f"{t}: {n}" if n else t for t, n in held)
                    + "). Moving replaces everything in it: give --replace to do so."
                )
            call_command("migrate", database=target, interactive=False, verbosity=0)
            missing, unknown = migration_differences(target)
            if missing or unknown:
                raise CommandError(
                    f"The PostgreSQL database {describe(target)} is migrated differently from the source "
                    f"(not applied: {', '.join(missing) or 'none'}; unknown: {', '.join(unknown) or 'none'})."
                )
            leftover = sorted(
                t
                for t in set(connections[SOURCE].introspection.table_names()) - {m._meta.db_table for m in models_to_copy()} - {"django_migrations"}
                if not t.startswith("sqlite_")
            )
            try:
                copied = move(target, log=self.stdout.write if opts.get("verbosity", 1) > 1 else (lambda text: None))
            except (MoveError, DatabaseError) as exc:
                raise CommandError(f"Nothing was moved (the PostgreSQL database keeps the rows it had): {exc}") from exc
        finally:
            close_sqlite(SOURCE)

        seconds = time.monotonic() - started
        rows = sum(n for _t, n in copied)
        self.stdout.write(
            self.style.SUCCESS(
                f"Moved {path} to PostgreSQL {describe(target)}: {len(copied)} tables, {rows:,} rows in {seconds:.1f} s; the row counts match table by table."
            )
        )
        for table, n in bk.product_first([(t, n) for t, n in copied if n]):
            self.stdout.write(f"  {table}: {n}")
        if leftover:
            self.stdout.write(self.style.WARNING("Not copied (no installed app owns them): " + ", ".join(leftover)))
        self.stdout.write(
            "\n".join(
                [
                    "Next steps:",
                    f"  1. Run every process of the room with DATABASE_URL={url_without_password(target)} (its password too), the same",
                    "     SECRET_KEY (or var/secret_key, TDM_VAR_DIR) as before, so that logins and screens stay valid.",
                    '  2. Start it: DATABASE_URL=… ./tdm run (or docs/operating.md, "Scaling out"). Running clocks go on from their rows.',
                    f"  3. Keep {path} as it is: nothing was written to it, it is the room as it was before the move.",
                ]
            )
        )
