"""The rules' mutation run (``benchmarks/mutation.py``) finds the rules' modules and the tests
docs/rules.md names for them, as docs/testing.md describes; the run itself is a developer's
before a release, not CI's (hours)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load():
    spec = importlib.util.spec_from_file_location("mutation_run", ROOT / "benchmarks" / "mutation.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_run_finds_each_rules_module_with_its_ids_and_named_tests():
    run = load()
    tests = run.rule_tests()
    modules = run.rule_modules(tests)
    assert modules["payouts/leaderboard.py"] == ["LB-01", "LB-02", "LB-03"]
    assert "PEN-07" in modules["tournaments/floor/penalties.py"] and "CLK-02" in modules["tournaments/clock/rules.py"]
    assert not [m for m in modules if m.endswith(("/api.py", "/views.py", "/models.py", "/serializers.py")) or "/migrations/" in m]
    named = run.tests_for("payouts/leaderboard.py", modules["payouts/leaderboard.py"], tests)
    assert "tests/payouts/test_payout_service.py::TestReports::test_standings_show_prizes_and_leaderboard_points" in named
    assert all(node.startswith("tests/") and "browser" not in node.split("::")[0] for node in named)
    assert all((ROOT / m).is_file() for m in modules) and len(modules) >= 60


def test_the_run_reads_the_mutants_docs_list_as_changing_nothing():
    run = load()
    assert run.EQUIVALENT.match("- `payouts.leaderboard.x_cycle_awards__mutmut_3`: the message of a refusal no caller reads").group(1) == (
        "payouts.leaderboard.x_cycle_awards__mutmut_3"
    )
    assert isinstance(run.equivalents(), set)
    config = run.config("payouts/leaderboard.py", ["tests/payouts/test_leaderboard.py"], 2)
    assert "only_mutate=\n    payouts/leaderboard.py" in config and "not browser and not processes" in config


def test_a_run_of_some_functions_counts_only_their_mutants():
    run = load()
    said_of = {
        "payouts.reports.x_reconcile__mutmut_1": "killed",
        "payouts.reports.x_reconcile__mutmut_2": "survived",
        "payouts.reports.x_reconcile__mutmut_3": "timeout",
        "payouts.reports.x_reconcile__mutmut_4": "no tests",
        "payouts.reports.x_reconcile__mutmut_5": "not checked",
    }
    assert run.counts(said_of) == {"total": 5, "killed": 1, "survived": 1, "no_tests": 1, "skipped": 0, "timeout": 1}
