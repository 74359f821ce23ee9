"""docs/rules.md, the product's rulebook, stays true: every rule id, acceptance scenario and
contradiction-register point has its row, and every test it names exists.

The ids are listed here by hand, apart from the page, so that a row dropped from the page is
noticed: a rule id added to the product is added here, and then needs its row."""

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from tests import pyast

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"

RULE_IDS = (
    [f"FMT-{n:02d}" for n in range(1, 18)]
    + [f"REG-{n:02d}" for n in range(1, 13)]
    + [f"SEAT-{n:02d}" for n in range(1, 10)]
    + ["POS-01"]
    + [f"BAL-{n:02d}" for n in range(1, 10)]
    + [f"CLK-{n:02d}" for n in range(1, 11)]
    + [f"CR-{n:02d}" for n in range(1, 7)]
    + [f"PEN-{n:02d}" for n in range(1, 9)]
    + [f"ELM-{n:02d}" for n in range(1, 8)]
    + [f"PAY-{n:02d}" for n in range(1, 14)]
    + [f"LB-{n:02d}" for n in range(1, 4)]
    + [f"ROLE-{n:02d}" for n in range(1, 9)]
)
# The acceptance scenarios keep their numbers, with gaps (no 2, 4, 5, 7, …).
SCENARIOS = [1, 3, 6, 8, 9, 10, 11, 12, 15, 17, 18, 19, 20, 21, 23, 24, 26, 27, 28, 30, 32, 33, 34, 35, 36, 37, 39, 40]
REGISTER = [f"C{n}" for n in range(1, 33)]

STATUSES = ("tested", "partial", "left to the house", "missing")
NODE = re.compile(r"`(tests/[\w/]+\.py(?:::\w+)+)`")


def sections() -> dict[str, list[list[str]]]:
    """{section heading: table rows as lists of cells} for each "## " section of the page."""
    out, heading = {}, ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
            out[heading] = []
        elif heading and line.startswith("| ") and not line.startswith("|---"):
            out[heading].append([c.strip() for c in line.strip().strip("|").split(" | ")])
    return out


def table(prefix: str) -> dict[str, list[str]]:
    """The rows of the section whose heading starts with ``prefix``, by their first cell, header left out."""
    (rows,) = [rows for heading, rows in sections().items() if heading.startswith(prefix)]
    keyed = {}
    for cells in rows[1:]:
        assert cells[0] not in keyed, f"{cells[0]} has two rows"
        keyed[cells[0]] = cells
    return keyed


@cache
def nodes_in(path: str) -> frozenset[str]:
    """The test nodes a test file defines: ``name`` and ``Class::name``, read with ast (no import)."""
    file = ROOT / path
    if not file.is_file():
        return frozenset()
    names = set()
    for node in pyast.parse(file.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names |= {f"{node.name}::{m.name}" for m in node.body if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef) and m.name.startswith("test_")}
    return frozenset(names)


def missing_nodes(cells: list[str]) -> list[str]:
    nodes = NODE.findall(" ".join(cells))
    return [n for n in nodes if n.split("::", 1)[1] not in nodes_in(n.split("::", 1)[0])]


def test_the_embedded_list_has_the_103_rule_ids():
    assert len(RULE_IDS) == len(set(RULE_IDS)) == 103


def test_every_rule_id_has_one_row_and_every_row_is_a_rule_id():
    rows = table("Rule ids")
    assert sorted(set(RULE_IDS) - set(rows)) == [], "rule ids without a row"
    assert sorted(set(rows) - set(RULE_IDS)) == [], "rows that are not rule ids"


def test_every_row_has_a_known_status_and_a_tested_row_names_its_tests():
    for rule_id, (_, summary, source, status, proof) in table("Rule ids").items():
        assert summary and source, rule_id
        assert status.startswith(STATUSES), f"{rule_id}: {status!r}"
        if status == "tested":
            assert NODE.search(proof), f"{rule_id} is tested by no test named"
        elif not status.startswith("partial — in progress"):
            # what is not proved says what is missing
            assert ":" in status, f"{rule_id}: say what is missing or why it is left to the house"


@pytest.mark.parametrize("section", ["Rule ids", "Acceptance scenarios", "Contradiction register", "What each rule's tests cover"])
def test_every_test_named_exists(section):
    gone = {key: missing_nodes(cells) for key, cells in table(section).items()}
    assert {k: v for k, v in gone.items() if v} == {}


def test_every_scenario_has_a_row_with_its_tests():
    rows = table("Acceptance scenarios")
    assert sorted(int(n) for n in rows) == SCENARIOS
    for number, cells in rows.items():
        assert NODE.search(cells[-1]), f"scenario {number} names no test"


def test_every_register_point_has_a_row_with_the_setting_and_both_defaults():
    rows = table("Contradiction register")
    assert list(rows) == REGISTER
    for c, cells in rows.items():
        assert len(cells) == 6 and all(cells), c


def test_the_counts_at_the_top_are_the_tables_counts():
    statuses = [cells[3] for cells in table("Rule ids").values()]
    partial = [s for s in statuses if s.startswith("partial")]
    expected = (
        f"Counts: {statuses.count('tested')} tested, {len(partial)} partial "
        f"({sum(s.startswith('partial — in progress') for s in partial)} of them in progress), "
        f"{sum(s.startswith('missing') for s in statuses)} missing, "
        f"{sum(s.startswith('left to the house') for s in statuses)} left to the house."
    )
    assert expected in DOC.read_text(encoding="utf-8")


def test_the_check_finds_a_test_that_does_not_exist():
    assert missing_nodes(["`tests/test_rules_audit.py::test_the_check_finds_a_test_that_does_not_exist`"]) == []
    assert missing_nodes(["`tests/test_rules_audit.py::test_nobody_wrote_this`"]) == ["tests/test_rules_audit.py::test_nobody_wrote_this"]
    assert missing_nodes(["`tests/nowhere.py::test_x`"]) == ["tests/nowhere.py::test_x"]
    assert missing_nodes(["`tests/tournaments/test_cashier.py::TestRegister::test_it_refuses_before_registration_opens`"]) == []
    assert missing_nodes(["`tests/tournaments/test_cashier.py::TestRegister::test_it_refuses_nothing`"]) != []


CASES = ("default", "states", "allowed", "follows", "repeated")


def test_every_rule_id_says_what_its_tests_cover_case_by_case():
    """Each id's row names tests for each of the five cases, or says why a case does not apply,
    or says it is missing; the tests it names are named in the id's own row too (the mutation run
    reads those)."""
    rows, rules = table("What each rule's tests cover"), table("Rule ids")
    assert sorted(rows) == sorted(RULE_IDS)
    for rule_id, cells in rows.items():
        assert len(cells) == 1 + len(CASES), rule_id
        for case, cell in zip(CASES, cells[1:], strict=True):
            assert NODE.search(cell) or cell.startswith("n/a: ") or cell == "missing", (rule_id, case, cell)
            assert not (case == "default" and cell.startswith("n/a")), f"{rule_id}: a rule always has its default reading"
        unnamed = set(NODE.findall(" ".join(cells[1:]))) - set(NODE.findall(rules[rule_id][-1]))
        assert not unnamed, f"{rule_id}: named for a case but not in its row: {sorted(unnamed)}"


def test_the_coverage_count_is_the_tables():
    rows = table("What each rule's tests cover")
    cells = [c for r in rows.values() for c in r[1:]]
    full = sum(all(NODE.search(c) or c.startswith("n/a") for c in r[1:]) for r in rows.values())
    missing = sum(1 for c in cells if not NODE.search(c) and not c.startswith("n/a"))
    expected = f"Covered: {full} of 103 ids have a test (or a reason) for every case; {sum(c.startswith('n/a') for c in cells)} cells do not apply; {missing} cells missing."
    assert expected in DOC.read_text(encoding="utf-8")
