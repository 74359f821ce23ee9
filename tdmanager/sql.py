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

from django.db import connection


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _where(model, filters: dict) -> tuple[str, list]:
    """``{"pk": 1, "entry__in": [2, 3], "status": "X"}`` → SQL and params (AND of them)."""
    parts, params = [], []
    for key, value in filters.items():
        name, _, op = key.partition("__")
        field = model._meta.pk if name == "pk" else model._meta.get_field(name)
        column = _q(field.column)
        if op == "in":
            values = list(value)
            if not values:
                return "1 = 0", []
            parts.append(f"{column} IN ({', '.join(['%s'] * len(values))})")
            params += [field.get_db_prep_value(v, connection) for v in values]
        elif op:
            raise ValueError(f"unsupported lookup {key!r}")
        elif value is None:
            parts.append(f"{column} IS NULL")
        else:
            parts.append(f"{column} = %s")
            params.append(field.get_db_prep_value(value, connection))
    return " AND ".join(parts) or "1 = 1", params


def update(model, filters: dict, **values) -> int:
    """``UPDATE table SET … WHERE …``; returns the rows changed."""
    sets, params = [], []
    for name, value in values.items():
        field = model._meta.get_field(name)
        if field.is_relation and hasattr(value, "_meta"):
            value = value.pk  # a related row given as an instance
        sets.append(f"{_q(field.column)} = %s")
        params.append(field.get_db_prep_save(value, connection))
    where, where_params = _where(model, filters)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {_q(model._meta.db_table)} SET {', '.join(sets)} WHERE {where}", params + where_params)
        return cursor.rowcount


def delete(model, filters: dict) -> int:
    """``DELETE FROM table WHERE …`` (no cascades, no signals: for rows nothing points at)."""
    where, params = _where(model, filters)
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {_q(model._meta.db_table)} WHERE {where}", params)
        return cursor.rowcount


def insert(objs: Iterable) -> list:
    """Insert model instances of one model in one statement and set their primary keys.

    Like ``bulk_create`` (no ``save()``, no signals), for new rows only. Databases that
    cannot return the keys of a multi-row insert fall back to ``bulk_create``.
    """
    objs = list(objs)
    if not objs:
        return objs
    model = type(objs[0])
    meta = model._meta
    if not connection.features.can_return_rows_from_bulk_insert:
        return model.objects.bulk_create(objs)
    fields = [f for f in meta.concrete_fields if not (f.primary_key and getattr(objs[0], f.attname) is None)]
    rows, params = [], []
    for obj in objs:
        rows.append(f"({', '.join(['%s'] * len(fields))})")
        params += [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    pk = meta.pk
    sql = (f"INSERT INTO {_q(meta.db_table)} ({', '.join(_q(f.column) for f in fields)}) VALUES {', '.join(rows)} "
           f"RETURNING {_q(pk.column)}")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        keys = [row[0] for row in cursor.fetchall()]
    for obj, key in zip(objs, keys, strict=True):
        setattr(obj, pk.attname, key)
        obj._state.adding = False
        obj._state.db = connection.alias
    return objs


def select(sql: str, params: list | tuple = ()) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def table(model) -> str:
    return _q(model._meta.db_table)


def column(model, name: str) -> str:
    return _q(model._meta.get_field(name).column)
