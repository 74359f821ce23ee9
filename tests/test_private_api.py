"""Django's and DRF's private API, which ``tdmanager/compiled.py`` lists and alone uses: each name
still there with the signature and the attributes the code there relies on. After an upgrade a
failure names what changed; bring ``tdmanager/compiled.py`` in line with it (and its list).
Outside that module no project file uses these names."""

import inspect
import re
from pathlib import Path

import pytest
from django.db import connection
from django.db.models import Field, Model, Value

from tdmanager import compiled
from tournaments.models import Entry, Person

ROOT = Path(__file__).resolve().parent.parent


def _params(func) -> list[str]:
    return list(inspect.signature(func).parameters)


def _need(ok: bool, name: str, what: str):
    assert ok, f"Django/DRF private API changed: {name} {what}; tdmanager/compiled.py relies on it"


def _compiler(queryset):
    compiler = queryset.query.get_compiler(connection=connection)
    compiler.as_sql()  # sets up select, klass_info and annotation_col_map
    return compiler


def check_prepare_cursor():
    from django.db.backends.base.base import BaseDatabaseWrapper

    _need(
        _params(getattr(BaseDatabaseWrapper, "_prepare_cursor", None) or (lambda: 0)) == ["self", "cursor"],
        "BaseDatabaseWrapper._prepare_cursor",
        "is gone or no longer takes (cursor)",
    )
    _need(hasattr(connection, "timezone"), "BaseDatabaseWrapper.timezone", "is gone")


def check_postgresql_cursor():
    pytest.importorskip("psycopg")
    from django.db.backends.postgresql import base

    _need(inspect.isclass(getattr(base, "ServerBindingCursor", None)), "postgresql.base.ServerBindingCursor", "is gone")
    _need(isinstance(getattr(base, "TIMESTAMPTZ_OID", None), int), "postgresql.base.TIMESTAMPTZ_OID", "is gone")
    _need(
        _params(getattr(base, "register_tzloader", None) or (lambda: 0)) == ["tz", "context"],
        "postgresql.base.register_tzloader",
        "is gone or no longer takes (tz, context)",
    )


def check_compiler():
    from django.db.models.sql.compiler import SQLCompiler

    _need("connection" in _params(type(Person.objects.all().query).get_compiler), "Query.get_compiler", "no longer takes connection=")
    _need(
        _params(SQLCompiler.as_sql)[:1] == ["self"] and _params(SQLCompiler.get_converters) == ["self", "expressions"],
        "SQLCompiler.as_sql/get_converters",
        "changed their parameters",
    )
    compiler = _compiler(Entry.objects.select_related("person").annotate(n=Value(1)))
    for name in ("select", "klass_info", "annotation_col_map"):
        _need(hasattr(compiler, name), f"SQLCompiler.{name}", "is gone")
    _need(
        {"model", "select_fields", "related_klass_infos"} <= set(compiler.klass_info), "SQLCompiler.klass_info", "lost model/select_fields/related_klass_infos"
    )
    col, _sql, _alias = compiler.select[0]
    _need(isinstance(getattr(col, "target", None), Field), "Col.target", "is no longer the field a column reads")
    _need("n" in compiler.annotation_col_map, "SQLCompiler.annotation_col_map", "no longer maps an annotation to its column")
    _need(hasattr(Person.objects.select_for_update().query, "select_for_update"), "Query.select_for_update", "is gone")


def check_iterables():
    from django.db.models import query

    _need(
        getattr(Person.objects.values_list("id").all(), "_iterable_class", None) is getattr(query, "ValuesListIterable", object()),
        "QuerySet._iterable_class / ValuesListIterable",
        "no longer tell a values_list queryset",
    )
    _need(
        _params(getattr(query, "get_related_populators", None) or (lambda: 0)) == ["klass_info", "select", "db"],
        "django.db.models.query.get_related_populators",
        "is gone or no longer takes (klass_info, select, db)",
    )
    _need(_params(query.RelatedPopulator.populate) == ["self", "row", "from_obj"], "RelatedPopulator.populate", "no longer takes (row, from_obj)")


def check_model_state():
    from django.db.models.base import ModelState

    state = ModelState()
    _need(hasattr(state, "adding") and hasattr(state, "db"), "django.db.models.base.ModelState", "lost adding/db")


def check_insert_and_update_queries():
    from django.db.models import sql
    from django.db.models.sql.compiler import SQLInsertCompiler

    _need(_params(sql.InsertQuery.insert_values) == ["self", "fields", "objs", "raw"], "InsertQuery.insert_values", "no longer takes (fields, objs, raw)")
    _need(hasattr(SQLInsertCompiler, "returning_fields"), "SQLInsertCompiler.returning_fields", "is gone")
    _need(_params(sql.UpdateQuery.add_update_fields) == ["self", "values_seq"], "UpdateQuery.add_update_fields", "no longer takes (values_seq)")
    _need(_params(sql.UpdateQuery.add_filter) == ["self", "filter_lhs", "filter_rhs"], "Query.add_filter", "no longer takes (lhs, rhs)")
    _need(
        _params(getattr(Model, "_prepare_related_fields_for_save", None) or (lambda: 0)) == ["self", "operation_name", "fields"],
        "Model._prepare_related_fields_for_save",
        "is gone or no longer takes (operation_name, fields)",
    )


def check_operations():
    _need(_params(connection.ops.bulk_batch_size) == ["fields", "objs"], "DatabaseOperations.bulk_batch_size", "no longer takes (fields, objs)")
    _need(_params(connection.ops.adapt_datetimefield_value) == ["value"], "DatabaseOperations.adapt_datetimefield_value", "changed")
    _need(hasattr(connection.features, "can_return_rows_from_bulk_insert"), "DatabaseFeatures.can_return_rows_from_bulk_insert", "is gone")
    _need(hasattr(Field(), "generated"), "Field.generated", "is gone")


# DRF's loop that ``BuiltOnce.to_representation`` copies, its statements as DRF writes them.
DRF_LOOP = [
    "ret = {}",
    "fields = self._readable_fields",
    "for field in fields:",
    "try:",
    "attribute = field.get_attribute(instance)",
    "except SkipField:",
    "continue",
    "check_for_none = attribute.pk if isinstance(attribute, PKOnlyObject) else attribute",
    "if check_for_none is None:",
    "ret[field.field_name] = None",
    "else:",
    "ret[field.field_name] = field.to_representation(attribute)",
    "return ret",
]


def check_drf_loop():
    from rest_framework import fields, relations, serializers

    _need(inspect.isclass(getattr(fields, "SkipField", None)) and issubclass(fields.SkipField, Exception), "rest_framework.fields.SkipField", "is gone")
    _need(getattr(relations.PKOnlyObject(pk=7), "pk", None) == 7, "rest_framework.relations.PKOnlyObject", "no longer holds pk")
    source = inspect.getsource(serializers.Serializer.to_representation)
    body = re.sub(r'"""[\s\S]*?"""', "", source.split(":", 1)[1])
    statements = [line.strip() for line in body.splitlines() if line.strip() and not line.strip().startswith("#")]
    _need(statements == DRF_LOOP, "rest_framework.serializers.Serializer.to_representation", "changed its loop (BuiltOnce.to_representation copies it)")


CHECKS = {name: check for name, check in globals().items() if name.startswith("check_")}


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(CHECKS))
def test_the_private_api_compiled_relies_on_is_still_there(name):
    CHECKS[name]()


def test_each_checked_name_is_listed_in_compiled():
    listed = compiled.__doc__
    for name in (
        "_prepare_cursor",
        "ServerBindingCursor",
        "register_tzloader",
        "TIMESTAMPTZ_OID",
        "get_compiler",
        "klass_info",
        "annotation_col_map",
        "get_converters",
        "select_for_update",
        "_iterable_class",
        "ValuesListIterable",
        "get_related_populators",
        "RelatedPopulator.populate",
        "ModelState",
        "InsertQuery",
        "returning_fields",
        "UpdateQuery",
        "add_update_fields",
        "add_filter",
        "_prepare_related_fields_for_save",
        "bulk_batch_size",
        "adapt_datetimefield_value",
        "can_return_rows_from_bulk_insert",
        "Field.generated",
        "SkipField",
        "PKOnlyObject",
        "Serializer.to_representation",
    ):
        assert name in listed, f"{name} is checked here but not listed in tdmanager/compiled.py's docstring"


# The private names, as code outside tdmanager/compiled.py would spell them.
PRIVATE = re.compile(
    r"_prepare_cursor|_prepare_related_fields_for_save|\bklass_info\b|get_related_populators|\bModelState\b|"
    r"\bInsertQuery\b|\bUpdateQuery\b|ServerBindingCursor|register_tzloader|\.get_compiler\(|get_converters|"
    r"_iterable_class|\bSkipField\b|\bPKOnlyObject\b|_declared_fields|_readable_fields"
)
NOT_THE_PRODUCT = ("tests", "benchmarks", ".venv", "node_modules", "var", "staticfiles")


def _apps():
    return sorted(
        {
            p.relative_to(ROOT).parts[0]
            for p in ROOT.glob("*/**/*.py")
            if p.relative_to(ROOT).parts[0] not in NOT_THE_PRODUCT and not p.relative_to(ROOT).parts[0].startswith(".")
        }
    )


@pytest.mark.parametrize("app", _apps())
def test_no_private_api_outside_compiled(app):
    found = []
    for path in sorted((ROOT / app).rglob("*.py")):
        if path == ROOT / "tdmanager" / "compiled.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if PRIVATE.search(line.split("#", 1)[0]):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "Django/DRF private API outside tdmanager/compiled.py (use or add a function there, listed in its docstring):\n" + "\n".join(found)
