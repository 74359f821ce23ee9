"""Hand-written SQL only where it is kept on purpose: an app's ``sql.py`` module (each statement a
named, documented function, tested on both databases) and ``tdmanager/compiled.py`` (the ORM's
own statements compiled once). Anywhere else a cursor, ``.execute(``, ``RawSQL`` or ``.raw(``
fails this test, naming the file and the line; the few files allowed besides say why."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What sends SQL by hand: a cursor's execute, a connection's cursor, a raw expression or query.
SQL_BY_HAND = re.compile(r"cursor\.execute|\.execute(many)?\(|\bconnections?(\[[^\]]*\])?\.cursor\(|\bconn\.cursor\(|\bRawSQL\b|\.raw\(")
# Not the product: the tests and the benchmarks read and write the database as they need to.
NOT_THE_PRODUCT = ("tests", "benchmarks", ".venv", "node_modules", "var", "staticfiles")
KEPT_ON_PURPOSE = ("tdmanager/compiled.py",)  # and every app's sql.py
ALLOWED: dict[str, str] = {}  # a file allowed besides, and why


def _project_files():
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in NOT_THE_PRODUCT or any(part.startswith(".") for part in rel.parts):
            continue
        yield rel


def _apps():
    return sorted({rel.parts[0] for rel in _project_files() if len(rel.parts) > 1})


def _offending(app: str) -> list[str]:
    found = []
    for rel in _project_files():
        name = rel.as_posix()
        if rel.parts[0] != app or rel.name == "sql.py" or name in KEPT_ON_PURPOSE or name in ALLOWED:
            continue
        for number, line in enumerate((ROOT / rel).read_text(encoding="utf-8").splitlines(), 1):
            if SQL_BY_HAND.search(line.split("#", 1)[0]):
                found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_the_fence_sees_what_it_fences():
    """The pattern catches each way of sending SQL by hand, and not the ORM's own calls."""
    caught = [
        "cursor.execute(sql, params)",
        "c.executemany(sql, rows)",
        "with connection.cursor() as c:",
        "connections['default'].cursor()",
        "with conn.cursor() as c:",
        "qs.annotate(x=RawSQL('1', []))",
        "Person.objects.raw('SELECT 1')",
    ]
    passed = ["Person.objects.filter(pk=1).update(value=F('value') + 1)", "query.get_compiler(using).as_sql()", "executor.submit(job)"]
    assert [bool(SQL_BY_HAND.search(s)) for s in caught] == [True] * len(caught)
    assert [bool(SQL_BY_HAND.search(s)) for s in passed] == [False] * len(passed)
    assert {"tdmanager", "tournaments", "seating", "payouts"} <= set(_apps())
    assert all((ROOT / name).exists() for name in ALLOWED), "an allowed file is gone: take it off ALLOWED"


@pytest.mark.parametrize("app", _apps())
def test_no_sql_by_hand_outside_the_sql_modules(app):
    found = _offending(app)
    assert not found, (
        "SQL written by hand outside an app's sql.py and tdmanager/compiled.py (move the statement into the "
        "app's sql.py as a named, documented function, or let the ORM write it):\n" + "\n".join(found)
    )
