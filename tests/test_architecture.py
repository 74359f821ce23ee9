"""The direction between the apps, as the import contracts in ``.importlinter`` declare it.

``lint-imports`` is run here, so CI fails when an arrow goes the wrong way (tdmanager imports
an app, tournaments imports seating or payouts, seating calls payouts, read code imports
services). The contracts name packages, so a new module in a topic's folder needs no edit of
them. The same file holds the floor plan: the tournaments root's size, the line bound, a
docstring atop every module, and no circle between modules, imports inside functions counted.
"""

import ast
import re
import subprocess
import sys
from pathlib import Path

from tests import pyast

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--config", str(ROOT / ".importlinter")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "broken" in done.stdout and " 0 broken" in done.stdout


#: The one module allowed past the line bound: the clock's engine is one topic, whole.
LONG_ON_PURPOSE = {"tournaments/clock/rules.py"}
MAX_LINES = 900
#: The tournaments app's root keeps its plumbing only; every topic has its folder.
ROOT_MODULES = 15


def test_the_tournaments_root_keeps_only_its_plumbing():
    """A topic lives in its folder (its rules, services, reads, pages and API), so a newcomer
    asking where something lives finds it one hop away: the root holds the app's plumbing."""
    root = sorted(p.name for p in (ROOT / "tournaments").glob("*.py"))
    assert len(root) <= ROOT_MODULES, f"{len(root)} modules at the root of tournaments: put a topic's module in its folder: {root}"


def test_no_module_is_longer_than_the_line_bound():
    long = [
        f"{path.relative_to(ROOT)}: {n} lines"
        for path in project_modules().values()
        if (n := len(path.read_text().splitlines())) > MAX_LINES and str(path.relative_to(ROOT)) not in LONG_ON_PURPOSE
    ]
    assert long == [], f"split these by topic (at most {MAX_LINES} lines a module)"


def test_every_module_says_its_topic():
    """Each module with code, and each package, opens with a docstring saying what it is about."""
    silent = []
    for path in project_modules().values():
        text = path.read_text()
        is_package = path.name == "__init__.py"
        if (text.strip() or is_package) and not ast.get_docstring(pyast.parse(text)):
            silent.append(str(path.relative_to(ROOT)))
    assert silent == []


def test_apps_announce_instead_of_calling_up():
    """No import of another app hidden inside a function to dodge the contracts."""
    offenders = []
    for app, forbidden in (("tournaments", ("seating", "payouts")), ("seating", ("payouts",)), ("tdmanager", ("tournaments", "seating", "payouts"))):
        for path in (ROOT / app).rglob("*.py"):
            if app == "tournaments" and "formats" in path.parts:
                continue
            for n, line in enumerate(path.read_text().splitlines(), 1):
                text = line.strip()
                if line.startswith((" ", "\t")) and text.startswith(tuple(f"{kw} {f}" for f in forbidden for kw in ("from", "import"))):
                    offenders.append(f"{path.relative_to(ROOT)}:{n}: {text}")
    assert offenders == []


def test_a_service_inside_someone_elses_transaction_is_an_error_not_a_silent_merge(db, make_tournament, actor):
    import pytest
    from django.db import transaction

    from tdmanager.transactions import unit_of_work
    from tournaments.models import Tournament
    from tournaments.setup import lifecycle

    t = make_tournament(status=Tournament.PLANNED)
    with pytest.raises(RuntimeError, match="durable"), transaction.atomic():
        lifecycle.open_registration(t, actor=actor)  # an accidental nesting
    t.refresh_from_db()
    assert t.status == Tournament.PLANNED
    with unit_of_work():  # a declared composition
        lifecycle.open_registration(t, actor=actor)
    t.refresh_from_db()
    assert t.status == Tournament.REGISTERING


# --- the project's own imports: at the top, and in one direction -------------------------------

PROJECT = ("tournaments", "seating", "payouts", "tdmanager")


def project_modules() -> dict[str, Path]:
    """Every module of the four apps (migrations left out; tests and benchmarks live elsewhere)."""
    out = {}
    for app in PROJECT:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imported_modules(node, module: str, is_package: bool, modules) -> set[str]:
    """The project's modules an import statement of ``module`` loads (a name imported from a
    package is the module of that name when there is one, else the package)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join(package + ([node.module] if node.module else []))
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
    out = set()
    for name in names:
        while name not in modules and "." in name:
            name = name.rsplit(".", 1)[0]
        if name in modules and name != module:
            out.add(name)
    return out


def module_level_imports(tree) -> list:
    """The import statements run when the module loads (``if TYPE_CHECKING:`` blocks left out)."""
    found = []

    def visit(body):
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.append(node)
            elif isinstance(node, ast.If):
                if "TYPE_CHECKING" not in ast.unparse(node.test):
                    visit(node.body)
                    visit(node.orelse)
            elif isinstance(node, ast.Try):
                for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                    visit(block)
            elif isinstance(node, ast.With):
                visit(node.body)

    visit(tree.body)
    return found


def says_why(line: str) -> bool:
    """A comment of a few words (a lint directive alone says nothing)."""
    if "#" not in line:
        return False
    text = re.sub(r"noqa(: ?[A-Z]+[0-9]+(, ?[A-Z]+[0-9]+)*)?", "", line.split("#", 1)[1])
    return len(re.findall(r"[A-Za-z]{2,}", text)) >= 2


def test_the_projects_own_imports_sit_at_the_top_of_the_module_unless_a_comment_says_why():
    """An import inside a function hides a dependency, and is how a circle of modules stays
    unseen. One of the project's modules is imported inside a function only where a comment says
    why (``AppConfig.ready``: the models are loaded; an optional library): on the import's line or
    the line above its block of imports."""
    modules = project_modules()
    unexplained = set()
    for module, path in modules.items():
        lines = path.read_text().splitlines()
        tree = pyast.parse("\n".join(lines))
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            inner = [n for n in ast.walk(function) if isinstance(n, (ast.Import, ast.ImportFrom))]
            import_lines = {n: range(n.lineno, n.end_lineno + 1) for n in inner}
            covered = {line for span in import_lines.values() for line in span}
            for node in import_lines:
                if not imported_modules(node, module, path.name == "__init__.py", modules) and not (isinstance(node, ast.ImportFrom) and node.level):
                    continue
                first = node.lineno
                while first - 1 in covered or (first - 1 >= 1 and not lines[first - 2].strip() and first - 2 in covered):
                    first -= 1  # up to the first import of its block
                block = [lines[n - 1] for n in range(first, node.end_lineno + 1)]
                above = lines[first - 2].strip() if first >= 2 else ""
                if not any(says_why(line) for line in block) and not (above.startswith("#") and says_why(above)):
                    unexplained.add(f"{path.relative_to(ROOT)}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    assert sorted(unexplained) == [], "import these at the top of the module (or say why not in a comment)"


def every_import(tree) -> list:
    """Every import statement of a module, those inside functions too (``if TYPE_CHECKING:``
    blocks left out): an import put inside a function still makes the two modules depend on
    each other."""
    checking = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in checking]


def test_no_circle_between_the_projects_modules():
    """Imports between the project's modules go one way, those inside functions counted:
    following them never leads back to where it started. ``AppConfig.ready`` is the one place
    that wires the apps together (it imports the receivers once the models are loaded), so an
    app's ``apps`` module is left out."""
    modules = project_modules()
    graph = {}
    for module, path in modules.items():
        if module.endswith(".apps"):
            graph[module] = set()
            continue
        tree = pyast.parse(path.read_text())
        graph[module] = set().union(*(imported_modules(n, module, path.name == "__init__.py", modules) for n in every_import(tree)))
    done, on_path, circles = set(), [], []

    def visit(module):
        on_path.append(module)
        for other in sorted(graph[module]):
            if other in on_path:
                circles.append(" -> ".join(on_path[on_path.index(other) :] + [other]))
            elif other not in done:
                visit(other)
        on_path.pop()
        done.add(module)

    for module in sorted(graph):
        if module not in done:
            visit(module)
    assert circles == []
    assert graph["tournaments.tasks"] >= {"tournaments.clock.services"}, "the graph reads the imports"
