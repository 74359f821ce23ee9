"""Hot queries compiled once per process and database, then sent with new parameters.

Building and compiling a queryset costs Django more CPU than the database spends running a
small indexed query (a sale at the desk ran five of them). ``Compiled`` takes a function that
builds the queryset from integer placeholders, compiles it the first time it runs on a database
alias, and afterwards only executes the same SQL text with the real values in the placeholders'
places. Rows come back as Django's ``ModelIterable`` makes them (converters applied,
``Model.from_db``), or as tuples for a ``values_list`` queryset, exactly as the ORM would have
returned them. The same idea as ``tdmanager.authentication._Lookup`` and
``seating.services.room._lock_statement``, for queries of one model without joins to populate.

Only what the compiled state holds is shared between threads, and it is never changed after it
is made (a race at the first use compiles twice; either result is the same).
"""

from django.db import connections, router
from django.db.models.query import ValuesListIterable
from django.db.transaction import TransactionManagementError

# The values a query is built with, where its integer parameters go (they stand for keys; never
# sent). Within a 32-bit column's range, which Django checks when it compiles a lookup.
PLACEHOLDERS = tuple(2**31 - 4096 + i for i in range(4))


class _Plan:
    def __init__(self, queryset, connection, nargs):
        compiler = queryset.query.get_compiler(connection=connection)
        self.sql, params = compiler.as_sql()
        params = list(params)
        self.params = params
        if sorted(p for p in params if p in PLACEHOLDERS) != list(PLACEHOLDERS[:nargs]):  # each once (in any order)
            raise RuntimeError(f"unexpected parameters in a compiled query: {params!r}")
        self.at = [params.index(p) for p in PLACEHOLDERS[:nargs]]
        self.for_update = bool(queryset.query.select_for_update) and connection.features.has_select_for_update
        select, klass_info = compiler.select, compiler.klass_info
        self.converters = list(compiler.get_converters([s[0] for s in select]).items())
        self.values = queryset._iterable_class is ValuesListIterable  # tuples of the columns asked
        if not self.values:
            if compiler.annotation_col_map or klass_info.get("related_klass_infos"):
                raise RuntimeError("Compiled: one model's columns only (no annotations, no select_related)")
            self.model = klass_info["model"]
            self.init = [f[0].target.attname for f in select]


class Compiled:
    """``q = Compiled(lambda pk: Model.objects.filter(pk=pk), Model)``, then ``q.rows(pk)`` or ``q.get(pk)``;
    ``nargs``: how many integer parameters ``build`` takes."""

    def __init__(self, build, model, nargs: int = 1):
        self.build, self.model, self.nargs = build, model, nargs
        self._plans: dict[str, _Plan] = {}

    def _plan(self, connection) -> _Plan:
        plan = self._plans.get(connection.alias)
        if plan is None:
            plan = self._plans[connection.alias] = _Plan(self.build(*PLACEHOLDERS[:self.nargs]), connection, self.nargs)
        return plan

    def rows(self, *args, using: str | None = None) -> list:
        """Every row, as model instances (or tuples for ``values_list``)."""
        connection = connections[using or router.db_for_read(self.model)]
        plan = self._plan(connection)
        if plan.for_update and connection.get_autocommit():  # as the ORM refuses it each time
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = list(plan.params)
        for at, value in zip(plan.at, args, strict=True):
            params[at] = value
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            found = cursor.fetchall()
        out = []
        for row in found:
            if plan.converters:
                row = list(row)
                for pos, (convs, expression) in plan.converters:
                    value = row[pos]
                    for convert in convs:
                        value = convert(value, expression, connection)
                    row[pos] = value
            out.append(tuple(row) if plan.values else plan.model.from_db(connection.alias, plan.init, row))
        return out

    def get(self, *args, using: str | None = None):
        """The one row, as ``QuerySet.get`` gives it: ``DoesNotExist`` when there is none."""
        rows = self.rows(*args, using=using)
        if not rows:
            raise self.model.DoesNotExist(f"{self.model._meta.object_name} matching query does not exist.")
        if len(rows) > 1:
            raise self.model.MultipleObjectsReturned(f"get() returned more than one {self.model._meta.object_name}")
        return rows[0]
