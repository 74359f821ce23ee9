"""A refusal reaches an Italian page in Italian.

The clock's refusals were made at import time (``gettext`` in a module-level dict): whatever the
page's language, "The clock is already running." came out in English although ``locale/it``
had it. Every message made at import must be lazy, so that it is said in the language of the
person refused; the first test reads the product's modules and fails on any that is not.
"""

import ast
from pathlib import Path

import pytest
from django.test import Client

from tests import pyast

ROOT = Path(__file__).resolve().parent.parent
APPS = ("tdmanager", "tournaments", "seating", "payouts")
EAGER = {"gettext", "ngettext", "pgettext", "npgettext"}


def translated_at_import(path: Path) -> list[int]:
    """Lines of ``path`` where an eager gettext runs at import (outside every function)."""
    tree = pyast.parse(path.read_text())
    eager = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation"
        for alias in node.names
        if alias.name in EAGER
    }
    found = []

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                for default in child.args.defaults + child.args.kw_defaults:  # evaluated at import
                    if default is not None:
                        visit(ast.Expression(default))
                continue
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id in eager:
                found.append(child.lineno)
            visit(child)

    visit(tree)
    return found


def test_no_message_is_translated_at_import():
    eager = [
        f"{path.relative_to(ROOT)}:{line}"
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts
        for line in translated_at_import(path)
    ]
    assert eager == [], "made in the language active at import: use gettext_lazy"


def test_the_finder_sees_an_eager_message(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from django.utils.translation import gettext as _\n"
        'MESSAGES = {"a": _("made at import")}\n'
        'def fine():\n    return _("made when asked")\n'
        'def default(m=_("a default, made at import")):\n    return m\n'
    )
    assert translated_at_import(sample) == [2, 5]


@pytest.mark.django_db
def test_a_clock_refusal_is_italian_on_an_italian_request(director, make_tournament):
    from tournaments.clock import services as clock_services
    from tournaments.eventlog.services import Actor

    t = make_tournament()  # registering
    clock_services.start_clock(t, actor=Actor(director, "test"))
    client = Client(raise_request_exception=False)
    client.force_login(director)
    r = client.post(f"/api/v1/tournaments/{t.pk}/clock/start/", {}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 409 and r.json() == {"code": "already_started", "detail": "L'orologio è già stato avviato."}
    r = client.post(f"/api/v1/tournaments/{t.pk}/clock/start/", {}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert r.json()["detail"] == "The clock has already been started."
    r = client.post(f"/api/v1/tournaments/{t.pk}/clock/resume/", {}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 409 and r.json() == {"code": "already_running", "detail": "L'orologio è già in funzione."}


# --- every refusal has words of its own ---------------------------------------------------------

# The pure engines raise their errors in English (they know no language); each service layer
# says each code in the reader's language. (engine module, its error class, the mapping's owner
# module and name)
ENGINES = [
    ("tournaments/clock/rules.py", "ClockError", "tournaments.clock.services", "MESSAGES"),
    ("seating/engine", "SeatingError", "seating.services.plan", "ENGINE_MESSAGES"),
    ("payouts/deals.py", "DealError", "payouts.services.deals", "DEAL_REFUSALS"),
    ("tournaments/floor/chiprace.py", "ChipRaceError", "tournaments.floor.services", "CHIP_RACE_REFUSALS"),
    ("tournaments/formats/engine.py", "FormatRuleError", "tournaments.formats.services.common", "ENGINE_REFUSALS"),
]


def raised_codes(path: Path, error: str) -> set[str]:
    """The codes ``error`` is raised with in a module, or in every module of a package."""
    trees = [pyast.parse(p.read_text()) for p in (sorted(path.rglob("*.py")) if path.is_dir() else [path])]
    return {
        node.args[0].value
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == error
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    }


@pytest.mark.parametrize(("engine", "error", "owner", "mapping"), ENGINES, ids=[e[1] for e in ENGINES])
def test_every_engine_refusal_has_a_translated_message(engine, error, owner, mapping):
    import importlib

    from django.utils import translation

    codes = raised_codes(ROOT / engine, error)
    assert codes, "the engine raises nothing the test can see"
    messages = getattr(importlib.import_module(owner), mapping)
    assert sorted(codes - set(messages)) == [], f"{error} codes said in the engine's English"

    def said(language):
        with translation.override(language):
            return {code: str(messages[code]) for code in codes}

    english, italian = said("en"), said("it")
    assert [code for code in codes if italian[code] == english[code]] == [], "no Italian in locale/it"


def test_no_domain_error_is_raised_with_a_literal_message():
    """A refusal's message is a translation (gettext), never an English literal in the code."""
    import importlib
    import pkgutil

    from tdmanager.errors import DomainError

    for app in APPS:
        for module in pkgutil.walk_packages(importlib.import_module(app).__path__, app + "."):
            if ".migrations" not in module.name and ".management" not in module.name:
                importlib.import_module(module.name)

    def subclasses(cls):
        return {cls}.union(*(subclasses(sub) for sub in cls.__subclasses__()))

    names = {cls.__name__ for cls in subclasses(DomainError)}
    literal = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(pyast.parse(path.read_text())):
                if not isinstance(node, ast.Call) or len(node.args) < 2:
                    continue
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if name in names and isinstance(node.args[1], (ast.Constant, ast.JoinedStr)):
                    literal.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert literal == []
