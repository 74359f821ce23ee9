"""Hot queries compiled once per process and database, then sent with new parameters.

Building and compiling a queryset costs Django more CPU than the database spends running a
small indexed query, and a sale at the desk runs several of them. ``Compiled`` takes a function that
builds the queryset from integer placeholders, compiles it the first time it runs on a database
alias, and afterwards only executes the same SQL text with the real values in the placeholders'
places. Rows come back as Django's ``ModelIterable`` makes them (converters applied,
``Model.from_db``), or as tuples for a ``values_list`` queryset, exactly as the ORM would have
returned them, ``select_related`` rows and annotations included; or as fetched, for a caller
that reads a few columns itself (``FETCHED``, ``Plan.position``). It is the project's one
compile-once mechanism: the token lookup, the desk's and the floor's hot reads, the seat map's
lock all go through it.

Only what the compiled state holds is shared between threads, and it is never changed after it
is made (a race at the first use compiles twice; either result is the same).

Django's and DRF's private API is used here and nowhere else in the project. Each name below is
checked by tests/test_private_api.py, which fails naming the one an upgrade removed or changed
(then the code here that uses it is brought in line, and the list with it):

- ``BaseDatabaseWrapper._prepare_cursor(cursor)`` and ``.timezone``; PostgreSQL's
  ``ServerBindingCursor``, ``TIMESTAMPTZ_OID``, ``register_tzloader(tz, context)``: a cursor
  made here wrapped and set up as Django makes its own (``prepared_cursor``).
- ``QuerySet.query``, ``Query.get_compiler(connection=...)``, ``SQLCompiler.as_sql()``,
  ``.select`` (each column's ``Col.target``), ``.klass_info``, ``.annotation_col_map``,
  ``.get_converters(expressions)``, ``Query.select_for_update``: a queryset's statement and
  how its rows are read (``Plan``).
- ``QuerySet._iterable_class`` and ``ValuesListIterable``: a ``values_list`` queryset (``Plan``).
- ``get_related_populators(klass_info, select, db)`` and ``RelatedPopulator.populate(row,
  from_obj)``: ``select_related`` rows set on their instance (``Plan.objects``).
- ``ModelState`` (``adding``, ``db``): an instance made without ``__init__`` (``instance``).
- ``InsertQuery(model).insert_values(fields, objs, raw=False)`` and the compiler's
  ``returning_fields``: the INSERT ``bulk_create`` sends (``Inserts``).
- ``UpdateQuery(model).add_update_fields(values_seq)`` and ``.add_filter(lhs, rhs)``: the
  UPDATE ``save(update_fields=...)`` sends (``Updates``).
- ``Model._prepare_related_fields_for_save(operation_name, fields=None)``: the check of unsaved
  related objects ``bulk_create`` and ``save`` make (``Inserts``; ``prepare_related``, for
  ``seating.sql``'s write-back).
- ``DatabaseOperations.bulk_batch_size(fields, objs)`` and ``.adapt_datetimefield_value(value)``,
  ``DatabaseFeatures.can_return_rows_from_bulk_insert``, ``Field.generated``: as
  ``bulk_create`` and the ORM's lookups use them (``Inserts``, ``Plan``).
- DRF's ``SkipField``, ``PKOnlyObject`` and the loop of ``Serializer.to_representation``,
  copied by ``BuiltOnce`` (which says why DRF's public API does not do).
"""

import copy
from datetime import UTC, datetime

from django.db import DatabaseError, connections, router
from django.db.models.base import ModelState
from django.db.models.query import ValuesListIterable, get_related_populators
from django.db.models.sql import InsertQuery, UpdateQuery
from django.db.transaction import TransactionManagementError
from rest_framework import serializers
from rest_framework.fields import SkipField
from rest_framework.relations import PKOnlyObject

from .fields import AmountField, IdField, TextField

# The values a query is built with, where its integer parameters go (they stand for keys; never
# sent). Within a 32-bit column's range, which Django checks when it compiles a lookup.
PLACEHOLDERS = tuple(2**31 - 4096 + i for i in range(4))
# A parameter compared with a date and time column (``kinds``): stands in as an instant no row has.
DATETIME = "datetime"
_INSTANTS = tuple(datetime(1970, 1, 1, 0, 0, 1, 424242 + i, tzinfo=UTC) for i in range(4))
# A string parameter (``kinds``: a token's key): stands in as a text no row holds.
TEXT = "text"
_TEXTS = tuple(f"tdm-compiled-stand-in-{i}" for i in range(4))


def _sentinel(kind: str, i: int):
    if kind == DATETIME:
        return _INSTANTS[i]
    return _TEXTS[i] if kind == TEXT else PLACEHOLDERS[i]


def _prepared(connection, kind: str, value):
    """A parameter as the ORM sends it (a date and time as its field adapts it on this database)."""
    return connection.ops.adapt_datetimefield_value(value) if kind == DATETIME else value


def prepared_cursor(connection):
    """A cursor for a statement this process sends again and again: on PostgreSQL one with
    server-side binding, so the server keeps the statement parsed and planned after
    ``prepare_threshold`` runs on the connection (the database's option; Django leaves it off,
    and then this is the usual cursor). Django's wrappers are kept (queries logged and counted,
    execute wrappers), and so is the connection's time zone as ``create_cursor`` sets it."""
    if connection.vendor != "postgresql" or connection.settings_dict.get("OPTIONS", {}).get("prepare_threshold") is None:
        return connection.cursor()
    connection.ensure_connection()
    # PostgreSQL's driver is needed only here: a SQLite install runs without it.
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor, register_tzloader  # noqa: PLC0415
    from psycopg.pq import Format  # noqa: PLC0415

    raw = ServerBindingCursor(connection.connection)
    if connection.timezone != connection.connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT).timezone:
        register_tzloader(connection.timezone, raw)
    return connection._prepare_cursor(raw)


def converted(row, converters, connection) -> list:
    """A fetched row with the compiler's converters applied (``compiler.get_converters(...)``'s
    items), as Django's iterables apply them."""
    row = list(row)
    for pos, (convs, expression) in converters:
        value = row[pos]
        for convert in convs:
            value = convert(value, expression, connection)
        row[pos] = value
    return row


class Plan:
    """One queryset's statement as compiled for one database, kept to be sent again with new
    parameters: its SQL text, its parameters with the stand-ins' places (``bind``), and what
    Django's iterables do to the fetched rows (``convert``: the fields' converters; ``objects``:
    model instances as ``ModelIterable`` makes them, ``select_related`` and annotations
    included). ``columns``: for each selected column, ``(model, attname)`` (None for an
    annotation), so a caller that reads the fetched tuples itself finds its columns
    (``position``). Never changed once made, so threads share it."""

    def __init__(self, queryset, connection, kinds):
        compiler = queryset.query.get_compiler(connection=connection)
        self.sql, params = compiler.as_sql()
        params = list(params)
        self.params, self.kinds, self.at = params, tuple(kinds), []
        for i, kind in enumerate(self.kinds):  # each stand-in among the parameters (in any order; a parameter used twice, twice)
            wanted = _prepared(connection, kind, _sentinel(kind, i))
            hits = [at for at, p in enumerate(params) if type(p) is type(wanted) and p == wanted]
            if not hits:
                raise RuntimeError(f"unexpected parameters in a compiled query: {params!r}")
            self.at.append(hits)
        self.for_update = bool(queryset.query.select_for_update) and connection.features.has_select_for_update
        select, klass_info = compiler.select, compiler.klass_info
        self.columns = [(col.target.model, col.target.attname) if hasattr(col, "target") else None for col, _sql, _alias in select]
        self.converters = sorted(compiler.get_converters([s[0] for s in select]).items())
        self.values = queryset._iterable_class is ValuesListIterable  # tuples of the columns asked
        self.model = klass_info["model"] if klass_info else queryset.model
        if not self.values:
            fields = klass_info["select_fields"]
            self.model_slice = slice(fields[0], fields[-1] + 1)
            self.init = [f[0].target.attname for f in select[self.model_slice]]
            self.populators = get_related_populators(klass_info, select, connection.alias)
            self.annotations = list(compiler.annotation_col_map.items())

    def bind(self, connection, args) -> list:
        """The parameters with ``args`` in the stand-ins' places (adapted as the ORM adapts them)."""
        if self.for_update and connection.get_autocommit():  # as the ORM refuses it each time
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = list(self.params)
        for ats, kind, value in zip(self.at, self.kinds, args, strict=True):
            value = _prepared(connection, kind, value)
            for at in ats:
                params[at] = value
        return params

    def position(self, model_name: str, attname: str) -> int:
        """Where the column ``attname`` of the model named ``model_name`` is in the fetched rows."""
        for i, column in enumerate(self.columns):
            if column is not None and column[0].__name__ == model_name and column[1] == attname:
                return i
        raise KeyError(f"{model_name}.{attname} is not selected")

    def convert(self, row, connection) -> list:
        """A fetched row with the fields' converters applied, as Django's iterables apply them."""
        return converted(row, self.converters, connection)

    def objects(self, found, connection) -> list:
        """The fetched rows as the ORM returns them: model instances (``from_db``, related rows
        of ``select_related`` set on them, annotations as attributes), or tuples for a
        ``values_list`` queryset."""
        out = []
        for row in found:
            if self.converters:
                row = converted(row, self.converters, connection)
            if self.values:
                out.append(tuple(row))
                continue
            obj = self.model.from_db(connection.alias, self.init, row[self.model_slice])
            for populator in self.populators:
                populator.populate(row, obj)
            for name, pos in self.annotations:
                setattr(obj, name, row[pos])
            out.append(obj)
        return out


#: What ``Compiled.rows`` gives: the rows as the ORM returns them (``Plan.objects``), or the
#: tuples as fetched (no converters), for a caller that reads a few columns itself (``Plan.position``).
OBJECTS, FETCHED = "objects", "fetched"


class Compiled:
    """The one way this project compiles a queryset once and sends it again: ``q =
    Compiled(lambda pk: Model.objects.filter(pk=pk), Model)``, then ``q.rows(pk)``, ``q.get(pk)``
    or ``q.first(pk)``. ``build`` makes the queryset from stand-ins; the first call on a
    database alias compiles it (``Plan``), later calls only send the same SQL text with the
    real values in the stand-ins' places.

    ``nargs``: how many integer parameters ``build`` takes; or ``kinds``, one per parameter:
    ``"int"`` (a key), ``DATETIME`` (compared with a date and time column) or ``TEXT`` (a
    string). ``shape``: ``OBJECTS`` (as the ORM returns them) or ``FETCHED`` (the fetched
    tuples). ``plan()`` gives the compiled statement itself, for a caller that sends it its own way."""

    def __init__(self, build, model, nargs: int = 1, kinds: tuple[str, ...] | None = None, shape: str = OBJECTS):
        self.kinds = tuple(kinds) if kinds else ("int",) * nargs
        self.build, self.model, self.shape = build, model, shape
        self._plans: dict[str, Plan] = {}

    def plan(self, using: str | None = None) -> Plan:
        """The statement as compiled for the database ``using`` (made at the first call there)."""
        connection = connections[using or router.db_for_read(self.model)]
        return self._plan(connection)

    def _plan(self, connection) -> Plan:
        plan = self._plans.get(connection.alias)
        if plan is None:
            sentinels = [_sentinel(kind, i) for i, kind in enumerate(self.kinds)]
            plan = self._plans[connection.alias] = Plan(self.build(*sentinels), connection, self.kinds)
        return plan

    def rows(self, *args, using: str | None = None) -> list:
        """Every row, as model instances (or tuples for ``values_list``; as fetched for ``FETCHED``)."""
        connection = connections[using or router.db_for_read(self.model)]
        plan, params = self._statement(connection, args)
        with prepared_cursor(connection) as cursor:
            cursor.execute(plan.sql, params)
            found = cursor.fetchall()
        return self._made(plan, found, connection)

    def _statement(self, connection, args) -> tuple[Plan, list]:
        plan = self._plan(connection)
        return plan, plan.bind(connection, args)

    def _made(self, plan: Plan, found, connection) -> list:
        return list(found) if self.shape == FETCHED else plan.objects(found, connection)

    def get(self, *args, using: str | None = None):
        """The one row, as ``QuerySet.get`` gives it: ``DoesNotExist`` when there is none."""
        rows = self.rows(*args, using=using)
        if not rows:
            raise self.model.DoesNotExist(f"{self.model._meta.object_name} matching query does not exist.")
        if len(rows) > 1:
            raise self.model.MultipleObjectsReturned(f"get() returned more than one {self.model._meta.object_name}")
        return rows[0]

    def first(self, *args, using: str | None = None):
        """The first row, or None when there is none."""
        rows = self.rows(*args, using=using)
        return rows[0] if rows else None


def instance(model, attnames, values, alias: str):
    """``model.from_db(alias, attnames, values)`` for a model without ``pre_init`` or ``post_init``
    receivers, made as Django unpickles an instance (its fields in ``__dict__``, the ones not
    given left out, i.e. deferred): ``Model.__init__`` costs more than a small query when a
    read makes several instances a row."""
    obj = model.__new__(model)
    obj.__dict__.update(zip(attnames, values))
    state = obj._state = ModelState()
    state.adding, state.db = False, alias
    return obj


class _RawPlan:
    def __init__(self, sql):
        self.sql = sql


class Raw:
    """A statement its caller compiles itself (``sql()`` gives the text for the default database,
    made once there), taking its parameters as given, for ``rows_together`` beside ``Compiled``
    queries; its rows are the fetched tuples, as the caller converts them."""

    def __init__(self, sql, model):
        self.sql, self.model = sql, model

    def rows(self, *args, using: str | None = None) -> list:
        connection = connections[using or router.db_for_read(self.model)]
        with prepared_cursor(connection) as cursor:
            cursor.execute(self.sql(), list(args))
            return cursor.fetchall()

    def _statement(self, connection, args) -> tuple[_RawPlan, list]:
        return _RawPlan(self.sql()), list(args)

    @staticmethod
    def _made(plan, found, connection) -> list:
        return list(found)


def rows_together(*calls: tuple[Compiled, tuple], using: str | None = None) -> list[list]:
    """``[query.rows(*args) for query, args in calls]`` in one round trip on PostgreSQL: one query
    string of several statements, which psycopg's client-side binding (Django's, unless the
    database's ``server_side_binding`` option is on) sends as one simple-protocol query. Each
    statement still runs with a snapshot of its own, taken when it starts, so a read after a
    ``select_for_update`` sees what that lock waited for, as when they are sent one by one;
    the first that fails ends the others. Elsewhere: one by one."""
    connection = connections[using or router.db_for_read(calls[0][0].model)]
    if connection.vendor != "postgresql" or connection.settings_dict.get("OPTIONS", {}).get("server_side_binding"):
        return [query.rows(*args, using=connection.alias) for query, args in calls]
    statements = [(query, *query._statement(connection, args)) for query, args in calls]
    out = []
    with connection.cursor() as cursor:
        cursor.execute("; ".join(plan.sql for _q, plan, _p in statements), [p for _q, _plan, params in statements for p in params])
        for i, (query, plan, _params) in enumerate(statements):
            if i and not cursor.nextset():
                raise RuntimeError("rows_together: fewer results than statements")
            out.append(query._made(plan, cursor.fetchall(), connection))
    return out


class Inserts:
    """New rows of one model written as ``bulk_create`` writes them (every concrete field but an
    automatic key, ``pre_save`` and ``get_db_prep_save`` applied, the keys read back with
    ``RETURNING``), with the INSERT statement compiled once per database and number of rows: the
    event log's rows are written on every action, and compiling the statement cost Django more
    CPU than the database spends inserting them. No ``save()`` is called and no signal is sent,
    as with ``bulk_create``. A database that cannot return the keys of a multi-row insert gets
    ``bulk_create`` itself."""

    def __init__(self, model):
        self.model = model
        self.fields = [f for f in model._meta.concrete_fields if not f.primary_key and not f.generated]
        self._sql: dict[tuple[str, int], tuple[str, bool]] = {}

    def _compile(self, objs, connection) -> tuple[str, bool]:
        """The statement, and whether it takes one array per column (PostgreSQL's ``UNNEST`` form
        of a multi-row insert) rather than one value per field and row."""
        query = InsertQuery(self.model)
        query.insert_values(self.fields, objs, raw=False)
        compiler = query.get_compiler(connection=connection)
        compiler.returning_fields = [self.model._meta.pk]
        statements = compiler.as_sql()
        count = statements[0][0].count("%s") if len(statements) == 1 else -1
        if count == len(objs) * len(self.fields):
            return statements[0][0], False
        if count == len(self.fields) and all(isinstance(p, list) and len(p) == len(objs) for p in statements[0][1]):
            return statements[0][0], True
        raise RuntimeError(f"unexpected INSERT for {self.model.__name__}: {statements!r}")

    def insert(self, objs: list, using: str | None = None, batch_size: int | None = None) -> list:
        """Write ``objs`` (in statements of at most ``batch_size`` rows, and of what the database
        takes, as ``bulk_create`` splits them); their keys are set. Returns ``objs``."""
        connection = connections[using or router.db_for_write(self.model)]
        if not objs:
            return objs
        if not connection.features.can_return_rows_from_bulk_insert:
            return self.model._base_manager.using(connection.alias).bulk_create(objs, batch_size=batch_size)
        for obj in objs:
            obj._prepare_related_fields_for_save(operation_name="bulk_create")
        size = max(1, connection.ops.bulk_batch_size(self.fields, objs))
        size = min(size, batch_size) if batch_size else size
        for start in range(0, len(objs), size):
            self._insert(objs[start : start + size], connection)
        return objs

    def _insert(self, objs, connection):
        sql, params = self._statement(objs, connection)
        with prepared_cursor(connection) as cursor:
            cursor.execute(sql, params)
            keys = cursor.fetchall()
        self.keys_returned(objs, [pk for (pk,) in keys], connection.alias)

    def _statement(self, objs, connection) -> tuple[str, list]:
        key = (connection.alias, len(objs))
        plan = self._sql.get(key)
        if plan is None:
            plan = self._sql[key] = self._compile(objs, connection)
        sql, by_column = plan
        if by_column:
            params = [[f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs] for f in self.fields]
        else:
            params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs for f in self.fields]
        return sql, params

    def statement(self, objs: list, using: str | None = None, refs: dict[str, str] | None = None) -> tuple[str, list] | None:
        """The INSERT ``insert`` would send for ``objs`` (its ``RETURNING`` gives the keys, one row
        each, in their order) and its parameters, not sent: for a caller that sends it inside
        another statement (a PostgreSQL ``WITH`` part) to save a round trip, then hands the keys
        to ``keys_returned``. None where ``insert`` would not send one statement (a database
        that cannot return the keys, more rows than one statement takes): insert them instead.

        ``refs``: a foreign key's field name → an SQL expression giving its value for every row
        (the key of a row inserted by an earlier part of the same statement, not known yet:
        ``(SELECT id FROM part)``), written in place of that column's parameters. An expression
        with one ``%s`` takes the field's own value there (one row only: ``(%s::jsonb || …)``
        completes a value with what an earlier part wrote)."""
        connection = connections[using or router.db_for_write(self.model)]
        if not objs or not connection.features.can_return_rows_from_bulk_insert:
            return None
        if connection.ops.bulk_batch_size(self.fields, objs) < len(objs):
            return None
        refs = refs or {}
        checked = [f for f in self.fields if f.name not in refs]
        for obj in objs:
            obj._prepare_related_fields_for_save(operation_name="bulk_create", fields=checked if refs else None)
        sql, params = self._statement(objs, connection)
        if not refs:
            return sql, params
        by_column = self._sql[(connection.alias, len(objs))][1]
        replaced = {i: refs[f.name] for i, f in enumerate(self.fields) if f.name in refs}
        if len(replaced) != len(refs):
            raise ValueError(f"not a field of {self.model.__name__}: {sorted(set(refs) - {f.name for f in self.fields})}")
        pieces = sql.split("%s")
        out, kept = [pieces[0]], []
        for k, (param, piece) in enumerate(zip(params, pieces[1:], strict=True)):
            field = k if by_column else k % len(self.fields)
            if field in replaced and "%s" in replaced[field]:  # the expression takes the value itself
                if by_column or len(objs) != 1 or replaced[field].count("%s") != 1:
                    raise ValueError("an expression taking the field's value is for one row, with one %s")
                out.append(replaced[field])
                kept.append(param)
            elif field in replaced:  # one array per column (UNNEST): the value repeated for every row
                out.append(f"array_fill({replaced[field]}, ARRAY[{len(objs)}])" if by_column else replaced[field])
            else:
                out.append("%s")
                kept.append(param)
            out.append(piece)
        return "".join(out), kept

    def keys_returned(self, objs: list, keys: list, using: str) -> None:
        """The keys an INSERT of ``objs`` returned, set on them (as ``bulk_create`` sets them)."""
        for obj, pk in zip(objs, keys, strict=True):
            obj.pk = pk
            obj._state.adding, obj._state.db = False, using


_inserts: dict[type, Inserts] = {}


def inserts_of(model) -> Inserts:
    """The model's ``Inserts``, one per process (its statements compiled once)."""
    inserts = _inserts.get(model)
    if inserts is None:
        inserts = _inserts[model] = Inserts(model)
    return inserts


def insert(objs: list, batch_size: int | None = None) -> list:
    """``objs`` (new rows of one model) written by that model's ``Inserts``."""
    if not objs:
        return objs
    return inserts_of(type(objs[0])).insert(objs, batch_size=batch_size)


def _same(a, b) -> bool:
    """Two parameters are the same value: psycopg's JSON wrappers (``Jsonb``) compare by the
    value they wrap, which they do not do themselves."""
    if type(a) is type(b) and type(a).__module__.startswith("psycopg") and hasattr(a, "obj"):
        return a.obj == b.obj
    return a == b


class Updates:
    """``save(update_fields=...)`` of one model's rows for a fixed list of fields, the UPDATE
    compiled once per database (``Updates(Model, ["status", "done_at"]).save(obj)``): the same
    statement (``pre_save`` and ``get_db_prep_save`` applied to each field, the row named by its
    key), the same refusal when no row was changed. No signal is sent (for models without
    ``pre_save``/``post_save`` receivers). A first value of ``None`` (which Django writes as a
    literal ``NULL``) or a statement of another shape leaves that call to ``save`` itself."""

    def __init__(self, model, names):
        self.model = model
        self.fields = [model._meta.get_field(name) for name in names]
        self._sql: dict[str, str] = {}

    def statement(self, obj, using: str | None = None, refs: dict[str, str] | None = None) -> tuple[str, list] | None:
        """The UPDATE ``save`` would send for ``obj`` and its parameters, not sent: for a caller
        that sends it with other statements' work (a PostgreSQL ``WITH`` part before it) to save
        a round trip, and refuses as ``save`` does when it changes no row. None where ``save``
        would leave the row to ``Model.save``: save it so instead. ``refs``: a foreign key's field
        name → an SQL expression giving its value (as ``Inserts.statement``'s)."""
        connection = connections[using or router.db_for_write(self.model)]
        refs = refs or {}
        values = [None if f.name in refs else f.get_db_prep_save(f.pre_save(obj, False), connection) for f in self.fields]
        sql = self._sql.get(connection.alias)
        if sql is None:
            stand = [PLACEHOLDERS[0] if f.name in refs else v for f, v in zip(self.fields, values, strict=True)]
            if any(v is None for v in stand):
                return None
            query = UpdateQuery(self.model)
            query.add_update_fields([(f, None, PLACEHOLDERS[0] if f.name in refs else f.pre_save(obj, False)) for f in self.fields])
            query.add_filter("pk", obj.pk)
            sql, params = query.get_compiler(connection=connection).as_sql()
            if sql.count("%s") != len(self.fields) + 1 or not all(map(_same, params, [*stand, obj.pk])) or len(params) != len(stand) + 1:
                return None
            self._sql[connection.alias] = sql
        if not refs:
            return sql, values + [obj.pk]
        pieces = sql.split("%s")
        out, kept = [pieces[0]], []
        for field, value, piece in zip([*self.fields, None], values + [obj.pk], pieces[1:], strict=True):
            if field is not None and field.name in refs:
                out.append(refs[field.name])
            else:
                out.append("%s")
                kept.append(value)
            out.append(piece)
        return "".join(out), kept

    def save(self, obj, using: str | None = None) -> None:
        connection = connections[using or router.db_for_write(self.model)]
        found = self.statement(obj, connection.alias)
        if found is None:
            obj.save(using=connection.alias, update_fields=[f.name for f in self.fields])
            return
        with prepared_cursor(connection) as cursor:
            cursor.execute(*found)
            changed = cursor.rowcount
        if not changed:
            raise DatabaseError("Save with update_fields did not affect any rows.")


def prepare_related(obj, operation_name: str = "save", fields=None) -> None:
    """``obj``'s foreign keys to rows saved since they were set take those rows' keys, and a
    foreign key to a row never saved is refused, as ``Model.save`` does before it writes
    (``Model._prepare_related_fields_for_save``, private API: for a caller that writes the row
    with a statement of its own, ``seating.sql``). ``fields``: only these fields."""
    obj._prepare_related_fields_for_save(operation_name=operation_name, fields=fields)


class BuiltOnce:
    """A ModelSerializer whose fields are worked out from the model once per class, then
    copied for each instance (DRF works them out again for every serializer made): the sale
    answer at the desk, serialized on every sale.

    Writing an object out does not even copy them: ``to_representation`` is DRF's own loop over
    the readable fields of one bound copy kept by the class, where a ``SerializerMethodField``
    calls the method of *this* serializer (its per-instance state, its context), as DRF would.
    Those shared fields are only read (``get_attribute``, ``to_representation``), so threads
    may share them; a field that needs the serializer's context or parent is not shared (DRF's
    own path then). tests/tournaments/test_desk_fast_path.py checks the output is DRF's.

    Why not DRF's public API alone: DRF has no way to keep bound fields across serializers;
    ``get_fields`` (public) is only called to make each serializer's own copy. The loop is
    DRF's ``Serializer.to_representation`` over shared fields, and it needs the two names that
    loop uses, ``SkipField`` and ``PKOnlyObject`` (listed above; tests/test_private_api.py fails
    when DRF's loop changes, so this copy is brought in line)."""

    def get_fields(self):
        built = type(self).__dict__.get("_built_fields")
        if built is None:
            built = super().get_fields()
            type(self)._built_fields = built
        return copy.deepcopy(built)

    def to_representation(self, instance):
        plan = type(self).__dict__.get("_out_plan")
        if plan is None:
            plan = type(self)._out_plan = self._output_plan()
        elif "fields" in self.__dict__:  # this serializer's own fields were asked for (and may have been changed): DRF's loop
            return super().to_representation(instance)
        if plan is False:
            return super().to_representation(instance)
        ret = {}
        for name, field, method in plan:
            if method is not None:
                ret[name] = getattr(self, method)(instance)
                continue
            try:
                attribute = field.get_attribute(instance)
            except SkipField:
                continue
            check_for_none = attribute.pk if isinstance(attribute, PKOnlyObject) else attribute
            ret[name] = None if check_for_none is None else field.to_representation(attribute)
        return ret

    _SHARED = (
        serializers.BooleanField,
        serializers.CharField,
        serializers.IntegerField,
        serializers.DecimalField,
        serializers.DateTimeField,
        serializers.PrimaryKeyRelatedField,
        IdField,
        TextField,
        AmountField,
        serializers.ChoiceField,
        serializers.JSONField,
        serializers.FloatField,
        serializers.DateField,
        serializers.BigIntegerField,
    )

    def _output_plan(self):
        """``(name, field, None)`` for a field shared by every instance, ``(name, None, method)``
        for a ``SerializerMethodField``; False when a field is neither (DRF's own loop then)."""
        plan = []
        for field in self.fields.values():
            if field.write_only:
                continue
            if type(field) is serializers.SerializerMethodField and field.source == "*":
                plan.append((field.field_name, None, field.method_name))
            elif type(field) in self._SHARED and not getattr(field, "pk_field", None):
                plan.append((field.field_name, field, None))
            else:
                return False
        return tuple(plan)
