"""tdmanager/sql.py: the backup and move tools' statements, each called directly (on SQLite and, in the
PostgreSQL run, on PostgreSQL)."""

import sqlite3

import pytest
from django.db import connection

from tdmanager import sql
from tournaments.models import Person

pytestmark = pytest.mark.django_db


def test_a_table_has_rows_and_counts_them():
    table = Person._meta.db_table
    assert not sql.table_has_rows(connection, table) and sql.row_count(connection, table) == 0
    Person.objects.create(first_name="Ada", last_name="One")
    Person.objects.create(first_name="Bea", last_name="Two")
    assert sql.table_has_rows(connection, table) and sql.row_count(connection, table) == 2


def test_a_sqlite_file_is_checked_and_made_self_contained(tmp_path):
    path = tmp_path / "copy.sqlite3"
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        assert sql.sqlite_is_whole(db) and not sql.sqlite_has_migrations(db)
        db.execute("CREATE TABLE django_migrations (id integer)")
        assert sql.sqlite_has_migrations(db)
        sql.make_self_contained(db)
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        db.close()


def test_a_key_sequence_continues_after_keys_copied_in():
    # Rows copied with their own keys (as movedb copies them) do not move PostgreSQL's sequence:
    # the next row would take key 1 and collide with the copied row. Reset, it follows key 500.
    Person.objects.bulk_create([Person(pk=500, first_name="Copied", last_name="In")])
    sql.continue_key_sequences(connection, [Person])
    assert Person.objects.create(first_name="Next", last_name="One").pk == 501
