"""The ground floor's statements written by hand, one function each: the backup and move tools'.

Backups copy, check and count whole databases, table by table, whatever the tables are: no
model describes them, so the ORM cannot write these. Table names come from the database's own
introspection and are quoted by the connection.
"""

from __future__ import annotations

from django.core.management.color import no_style


def continue_key_sequences(connection, models) -> None:
    """After rows were copied in with their own keys (``movedb``), each model's key sequence
    continues after the highest key copied: the backend's own ``sequence_reset_sql`` statements
    (none on SQLite, whose keys follow the rows). The ORM has no call that sends them."""
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)


def make_self_contained(sqlite_db) -> None:
    """Turn a SQLite copy (a ``sqlite3`` connection) into one file: no write-ahead log beside it."""
    sqlite_db.execute("PRAGMA journal_mode=DELETE")


def sqlite_is_whole(sqlite_db) -> bool:
    """SQLite's own check of a file (``PRAGMA quick_check``) finds nothing wrong."""
    return sqlite_db.execute("PRAGMA quick_check").fetchone()[0] == "ok"


def sqlite_has_migrations(sqlite_db) -> bool:
    """The SQLite file is a Django database: it has the table of applied migrations."""
    return bool(sqlite_db.execute("SELECT 1 FROM sqlite_master WHERE name='django_migrations'").fetchone())


def table_has_rows(connection, table: str) -> bool:
    """The table holds at least one row (reads one, not the count)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {connection.ops.quote_name(table)} LIMIT 1")
        return cursor.fetchone() is not None


def row_count(connection, table: str) -> int:
    """How many rows the table holds."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
        return cursor.fetchone()[0]
