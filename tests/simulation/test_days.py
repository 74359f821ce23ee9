"""Simulated card-room days in the suite (issue 38): every feature against every other, the
invariants checked after each action. Derandomized: the same seeds, so the same days, on every run
and on both databases; a failure prints the day's steps and its plan, to replay and shrink with
``tests.simulation.driver.play`` / ``shrink`` (benchmarks/simulate_days.py does both)."""

import pytest

from .driver import play

#: the suite's budget: DAYS days of STEPS actions each (the soak plays as many as you like)
DAYS = 24
STEPS = 40
#: the day's language, in turn: every refusal a day meets must read in it
LANGUAGES = ("it", "de", "es", "fr")


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(DAYS))
def test_a_simulated_day_balances_after_every_action(seed):
    report = play(5000 + seed, STEPS, day=seed, language=LANGUAGES[seed % len(LANGUAGES)])
    assert report.steps == STEPS
    assert sum(report.ran.values()) > STEPS // 2  # a day of skips and refusals would prove nothing
