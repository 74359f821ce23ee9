"""The rules' mutation run: do the tests docs/rules.md names for a rule fail when its code breaks?

For each module that carries the rules (the engines and the services of seating, payouts, the
clock, the floor and the formats and leagues: every such module that names a rule id), mutmut
makes its mutants (a comparison flipped, a constant moved by one, a condition dropped, a default
changed, a call's argument left out…) and runs, for each, the tests docs/rules.md names for the
ids that module names (pytest, this checkout's settings, SQLite, browser and process tests left
out: they check the pages, not the rule). A mutant is killed when a named test fails.

    .venv/bin/python benchmarks/mutation.py --list                      # the modules, their ids and tests
    .venv/bin/python benchmarks/mutation.py payouts/leaderboard.py      # one module
    .venv/bin/python benchmarks/mutation.py                             # every module (before a release)
    .venv/bin/python benchmarks/mutation.py --survivors payouts/leaderboard.py   # and each survivor's diff
    .venv/bin/python benchmarks/mutation.py --only 'payouts.reports.x_reconcil*' payouts/reports.py  # some functions

Each module runs in its own copy of the checkout under ``var/mutation/`` (mutmut writes its
``mutants/`` there and remembers what it tried: a second run of an unchanged module is quick).
The report is a table per module: mutants, killed, survived, equivalent (listed in
docs/testing.md, "Mutants that change nothing", with the reason), no tests, time, kill rate. The
exit status is 1 when a module's kill rate is under the bar (90 %).
"""

import argparse
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
TESTING = ROOT / "docs" / "testing.md"
WORK = ROOT / "var" / "mutation"
BAR = 0.90
AREAS = ("seating", "payouts", "tournaments/clock", "tournaments/floor", "tournaments/formats")
# What carries no rule of its own: pages, the API's shapes, storage, wiring.
NOT_RULES = re.compile(
    r"(^|/)(api|api_urls|urls|views|manual_views|room_views|room_api|serializers|models|admin|apps|labels|receivers|signals|tasks|sql|imports|__init__)\.py$|/(api|migrations|management)/"
)
NODE = re.compile(r"`(tests/[\w/]+\.py(?:::\w+)+)`")
EQUIVALENT = re.compile(r"^- `([\w.]+__mutmut_\d+)`")


def rule_tests() -> dict[str, list[str]]:
    """{rule id: the tests docs/rules.md names for it} from the rules' table."""
    out = {}
    for line in RULES.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("| ") and re.fullmatch(r"[A-Z]{2,4}-\d{2}", cells[0]) and len(cells) >= 5:
            out.setdefault(cells[0], []).extend(NODE.findall(cells[-1]))
    return out


def rule_modules(tests: dict[str, list[str]]) -> dict[str, list[str]]:
    """{module path: the rule ids it names} for the rules' modules."""
    ids = re.compile(r"\b(" + "|".join(sorted(tests, key=len, reverse=True)) + r")\b")
    out = {}
    for area in AREAS:
        for path in sorted((ROOT / area).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if NOT_RULES.search(rel):
                continue
            named = sorted(set(ids.findall(path.read_text(encoding="utf-8"))))
            if named:
                out[rel] = named
    return out


def equivalents() -> set[str]:
    """The mutants docs/testing.md lists as changing nothing (each with its reason there)."""
    return {m.group(1) for line in TESTING.read_text(encoding="utf-8").splitlines() if (m := EQUIVALENT.match(line))}


def tests_for(module: str, ids: list[str], tests: dict[str, list[str]]) -> list[str]:
    return sorted({node for rule in ids for node in tests.get(rule, []) if "browser" not in node.split("::")[0]})


def copy_checkout(dest: Path) -> None:
    """The checkout's files as they are now (tracked and new, not ignored), into ``dest``; files
    mutmut already copied are refreshed only where changed (its memory of what it tried stays)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\n")
    for rel in filter(None, listed):
        src = ROOT / rel
        if not src.is_file():
            continue
        target = dest / rel
        if target.exists() and target.stat().st_mtime >= src.stat().st_mtime and target.stat().st_size == src.stat().st_size:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)


def config(module: str, tests: list[str], children: int) -> str:
    lines = ["[mutmut]", "source_paths=", *[f"    {p}" for p in ("payouts", "seating", "tournaments", "tdmanager")]]
    lines += ["only_mutate=", f"    {module}"]
    lines += ["also_copy=", *[f"    {p}" for p in ("manage.py", "pytest.ini", "templates", "static", "locale", "docs", "README.md")]]
    # -x: one failure kills the mutant; browser and process tests check pages and processes.
    # tests.mutation_db: a test database of each run's own, copied from one migrated once
    lines += [
        "pytest_add_cli_args=",
        "    -p",
        "    no:xdist",
        "    -p",
        "    tests.mutation_db",
        "    -x",
        "    -q",
        "    -m",
        "    not browser and not processes",
    ]
    lines += ["pytest_add_cli_args_test_selection=", *[f"    {t}" for t in tests]]
    # a mutant that makes a loop endless is stopped after 3 × its tests' time, plus 5 s for pytest
    # and the database to start (mutmut's default, 15 × and 1 s, waits minutes on each)
    lines += [f"max_children={children}", "timeout_multiplier=3", "timeout_constant=5"]
    return "\n".join(lines) + "\n"


def counts(said_of: dict[str, str]) -> dict[str, int]:
    """The module's figures ("total", "killed", "survived", "no_tests", "skipped", "timeout")
    from mutmut's verdict on each mutant, as mutmut's own stats count them."""
    said = list(said_of.values())
    return {
        "total": len(said),
        "killed": said.count("killed"),
        "survived": said.count("survived"),
        "no_tests": said.count("no tests"),
        "skipped": said.count("skipped"),
        "timeout": said.count("timeout"),
    }


def run_module(module: str, ids: list[str], tests: list[str], children: int, show: bool, only: list[str] = ()) -> dict:
    where = WORK / module.replace("/", "-").removesuffix(".py")
    where.mkdir(parents=True, exist_ok=True)
    copy_checkout(where)
    (where / "setup.cfg").write_text(config(module, tests, children))
    # the test databases of the last run: the template is migrated again, from this checkout's migrations
    for stale in (where / "mutants" / "var").glob("test-mutation*"):
        stale.unlink()
    venv = where / ".venv"
    if not venv.exists():
        venv.symlink_to(ROOT / ".venv")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    mutmut = [sys.executable, "-m", "mutmut"]
    started, cpu = time.monotonic(), os.times()
    # names given: mutmut tries those mutants again (and only those), tried before or not
    done = subprocess.run([*mutmut, "run", "--max-children", str(children), *only], cwd=where, env=env, capture_output=True, text=True)
    wall = time.monotonic() - started
    after = os.times()
    if done.returncode not in (0, 1):
        raise SystemExit(f"{module}: mutmut stopped ({done.returncode}):\n{done.stderr[-3000:] or done.stdout[-3000:]}")
    # every mutant's verdict (a module whose every function is decorated, a service's, has none)
    listed = subprocess.run([*mutmut, "results", "--all", "true"], cwd=where, env=env, capture_output=True, text=True, check=True).stdout
    said_of = {name.strip(): said.strip() for name, _, said in (line.rpartition(":") for line in listed.splitlines())}
    if only:
        # the figures of the functions asked for, not of the module
        said_of = {name: said for name, said in said_of.items() if any(fnmatch.fnmatch(name, pattern) for pattern in only)}
    stats = counts(said_of)
    status = {name: said for name, said in said_of.items() if said in ("survived", "no tests")}
    # mutmut stops before trying any mutant when no named test calls the module: every one of
    # them is then "not checked", which is no tests
    unreached = sum(1 for said in said_of.values() if said == "not checked")
    survivors = list(status)
    same = equivalents()
    equivalent = [m for m in survivors if m in same]
    living = [m for m in survivors if m not in same]
    judged = stats["total"] - stats["skipped"] - len(equivalent)
    killed = stats["killed"] + stats["timeout"]
    if show:
        for name in living:
            print(subprocess.run([*mutmut, "show", name], cwd=where, env=env, capture_output=True, text=True).stdout)
    return {
        "module": module,
        "ids": ids,
        "tests": len(tests),
        "mutants": stats["total"],
        "killed": killed,
        "survived": stats["survived"] - sum(1 for m in equivalent if status[m] == "survived"),
        "no_tests": stats["no_tests"] + unreached - sum(1 for m in equivalent if status[m] == "no tests"),
        "equivalent": len(equivalent),
        "rate": killed / judged if judged else 1.0,
        "wall": wall,
        "cpu": (after.children_user + after.children_system) - (cpu.children_user + cpu.children_system),
        "survivors": living,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="module paths (default: every rules module)")
    parser.add_argument("--list", action="store_true", help="list the rules' modules, their ids and named tests, and stop")
    parser.add_argument("--survivors", action="store_true", help="print each surviving mutant's diff")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="NAME",
        help="only these mutants (mutmut's names, * matching anything: 'payouts.reports.x_reconcil*'); the figures are theirs",
    )
    parser.add_argument("--children", type=int, default=os.cpu_count() or 1, help="mutants tried at once (default: one per core)")
    args = parser.parse_args()

    tests = rule_tests()
    modules = rule_modules(tests)
    if args.list:
        for module, ids in modules.items():
            print(f"{module}: {', '.join(ids)} ({len(tests_for(module, ids, tests))} tests)")
        return 0
    chosen = args.modules or list(modules)
    if args.only and len(chosen) != 1:
        raise SystemExit("--only names mutants of one module: name the module")
    unknown = [m for m in chosen if m not in modules]
    if unknown:
        raise SystemExit(f"not a rules module (see --list): {', '.join(unknown)}")

    rows = []
    print("| module | rule ids | mutants | killed | survived | equivalent | no tests | time (wall / CPU) | kill rate |")
    print("|---|---|---|---|---|---|---|---|---|")
    for module in chosen:
        named = tests_for(module, modules[module], tests)
        row = run_module(module, modules[module], named, args.children, args.survivors, args.only)
        rows.append(row)
        print(
            f"| `{module}` | {', '.join(row['ids'])} | {row['mutants']} | {row['killed']} | {row['survived']} | {row['equivalent']} | "
            f"{row['no_tests']} | {row['wall']:.0f} s / {row['cpu']:.0f} s | {row['rate']:.1%} |",
            flush=True,
        )
    total = sum(r["mutants"] - r["equivalent"] for r in rows)
    killed = sum(r["killed"] for r in rows)
    rate = f"{killed / total:.1%}" if total else "none"
    print(f"\n{len(rows)} modules, {killed} of {total} mutants killed ({rate}), {sum(r['wall'] for r in rows):.0f} s")
    under = [r["module"] for r in rows if r["rate"] < BAR]
    if under:
        print(f"under {BAR:.0%}: {', '.join(under)}")
        for r in rows:
            if r["survivors"] and not args.survivors:
                print(f"{r['module']}: {len(r['survivors'])} survivors, e.g. {', '.join(r['survivors'][:5])}")
    return 1 if under else 0


if __name__ == "__main__":
    sys.exit(main())
