"""Plain statements for the hot paths, without the ORM's query compiler.

A bust on a busy floor writes a handful of rows; through the ORM each statement spends
about 0.3 ms compiling (PostgreSQL answers a simple write in about 0.15 ms), which was most
of a bust's time. These helpers send the same statements the ORM would, built from the
model's own table and column names, with every value prepared by its field
(``get_db_prep_save``: datetimes, JSON and foreign keys come out as the ORM writes them).
Only simple shapes: insert rows, update or delete by equality or ``__in`` filters.
Anything else goes through the ORM.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from django.db import DEFAULT_DB_ALIAS, connections


def _conn():
    # The real connection object: the ``django.db.connection`` proxy costs a thread-local
    # lookup on every attribute, and a bust touches it hundreds of times.
    return connections[DEFAULT_DB_ALIAS]


@lru_cache(maxsize=None)
def _column(model, name: str):
    """The field and its quoted column ("pk" is the primary key)."""
    field = model._meta.pk if name == "pk" else model._meta.get_field(name)
    return field, _conn().ops.quote_name(field.column)


def _where(model, filters: dict, conn) -> tuple[str, list]:
    """``{"pk": 1, "entry__in": [2, 3], "status": "X"}`` → SQL and params (AND of them)."""
    parts, params = [], []
    for key, value in filters.items():
        name, _, op = key.partition("__")
        field, column = _column(model, name)
        if op == "in":
            values = list(value)
            if not values:
                return "1 = 0", []
            parts.append(f"{column} IN ({', '.join(['%s'] * len(values))})")
            params += [field.get_db_prep_value(v, conn) for v in values]
        elif op:
            raise ValueError(f"unsupported lookup {key!r}")
        elif value is None:
            parts.append(f"{column} IS NULL")
        else:
            parts.append(f"{column} = %s")
            params.append(field.get_db_prep_value(value, conn))
    return " AND ".join(parts) or "1 = 1", params


def _update(model, filters: dict, values: dict, conn) -> tuple[str, list]:
    sets, params = [], []
    for name, value in values.items():
        field, column = _column(model, name)
        if field.is_relation and hasattr(value, "_meta"):
            value = value.pk  # a related row given as an instance
        sets.append(f"{column} = %s")
        params.append(field.get_db_prep_save(value, conn))
    where, where_params = _where(model, filters, conn)
    return f"UPDATE {table(model)} SET {', '.join(sets)} WHERE {where}", params + where_params


def _delete(model, filters: dict, conn) -> tuple[str, list]:
    where, params = _where(model, filters, conn)
    return f"DELETE FROM {table(model)} WHERE {where}", params


def update(model, filters: dict, **values) -> int:
    """``UPDATE table SET … WHERE …``; returns the rows changed."""
    conn = _conn()
    with conn.cursor() as cursor:
        cursor.execute(*_update(model, filters, values, conn))
        return cursor.rowcount


def delete(model, filters: dict) -> int:
    """``DELETE FROM table WHERE …`` (no cascades, no signals: for rows nothing points at)."""
    conn = _conn()
    with conn.cursor() as cursor:
        cursor.execute(*_delete(model, filters, conn))
        return cursor.rowcount


class Batch:
    """Writes nobody waits an answer for, sent together when ``flush`` is called.

    On PostgreSQL (client-side parameters, Django's default) the statements travel as one
    query, one round trip; elsewhere they run one after the other. Order is kept, so a
    seat freed by a delete can be taken by a later insert. New rows get their keys when the
    batch is flushed. The caller flushes inside its transaction; what was never flushed was
    never written.
    """

    def __init__(self):
        self.statements: list[tuple[str, list, list | None]] = []  # (sql, params, rows to key)

    def __bool__(self):
        return bool(self.statements)

    def update(self, model, filters: dict, **values):
        self.statements.append((*_update(model, filters, values, _conn()), None))

    def delete(self, model, filters: dict):
        self.statements.append((*_delete(model, filters, _conn()), None))

    def insert(self, objs: Iterable):
        """New rows of one model; those without a primary key get theirs at the flush."""
        objs = list(objs)
        if not objs:
            return
        conn = _conn()
        keyed = _keyed(objs)
        if not keyed and not conn.features.can_return_rows_from_bulk_insert:
            insert(objs)  # this database cannot hand the keys back from a batch
            return
        self.statements.append((*_insert(objs, conn, returning=not keyed), None if keyed else objs))

    def flush(self):
        statements, self.statements = self.statements, []
        if not statements:
            return
        conn = _conn()
        with conn.cursor() as cursor:
            if len(statements) > 1 and _one_trip(conn):
                cursor.execute("; ".join(s for s, _p, _o in statements), [p for _s, params, _o in statements for p in params])
                for i, (_s, _p, objs) in enumerate(statements):  # one result per statement, in order
                    if i:
                        cursor.nextset()
                    if objs is not None:
                        _set_keys(objs, cursor, conn)
            else:
                for statement, params, objs in statements:
                    cursor.execute(statement, params)
                    if objs is not None:
                        _set_keys(objs, cursor, conn)


def _keyed(objs: list) -> bool:
    """The new rows carry their primary key already (a seat is keyed by its entry)."""
    return getattr(objs[0], objs[0]._meta.pk.attname) is not None


def _one_trip(conn) -> bool:
    return conn.vendor == "postgresql" and not conn.settings_dict.get("OPTIONS", {}).get("server_side_binding")


@lru_cache(maxsize=None)
def _insert_sql(model, with_pk: bool, rows: int, returning: bool) -> tuple[list, str]:
    meta = model._meta
    fields = [f for f in meta.concrete_fields if with_pk or not f.primary_key]
    quote = _conn().ops.quote_name
    values = ", ".join([f"({', '.join(['%s'] * len(fields))})"] * rows)
    statement = f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) VALUES {values}"
    return fields, statement + (f" RETURNING {quote(meta.pk.column)}" if returning else "")


def _insert(objs: list, conn, returning: bool) -> tuple[str, list]:
    model = type(objs[0])
    fields, statement = _insert_sql(model, _keyed(objs), len(objs), returning)
    return statement, [f.get_db_prep_save(f.pre_save(obj, True), conn) for obj in objs for f in fields]


def insert(objs: Iterable) -> list:
    """Insert model instances of one model in one statement and set their primary keys.

    Like ``bulk_create`` (no ``save()``, no signals), for new rows only. Databases that
    cannot return the keys of a multi-row insert fall back to ``bulk_create``.
    """
    objs = list(objs)
    if not objs:
        return objs
    model = type(objs[0])
    conn = _conn()
    if not conn.features.can_return_rows_from_bulk_insert:
        return model.objects.bulk_create(objs)
    with conn.cursor() as cursor:
        cursor.execute(*_insert(objs, conn, returning=True))
        _set_keys(objs, cursor, conn)
    return objs


def _set_keys(objs: list, cursor, conn) -> None:
    """The keys a ``RETURNING`` statement handed back, onto the new rows, in order."""
    for obj, (key,) in zip(objs, cursor.fetchall(), strict=True):
        setattr(obj, obj._meta.pk.attname, key)
        obj._state.adding = False
        obj._state.db = conn.alias


def select(statement: str, params: list | tuple = ()) -> list[tuple]:
    with _conn().cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall()


@lru_cache(maxsize=None)
def table(model) -> str:
    return _conn().ops.quote_name(model._meta.db_table)


def column(model, name: str) -> str:
    return _column(model, name)[1]
