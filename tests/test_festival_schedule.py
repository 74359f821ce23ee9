"""The festival's chaos: every kind of process is killed in any run that asks for chaos.

A 4-minute day used to kill web, worker, beat and never Redis (fourth in a fixed cycle, one kill a
minute, the first at 30 s); a run that a reader takes for "survives every kill" must have had each.
"""

import random
from collections import Counter

import pytest


@pytest.mark.parametrize("minutes", [1, 1.5, 3, 4, 6, 10])
def test_every_kind_of_process_is_killed_in_a_day_of_any_length(fc, minutes):
    for seed in range(20):
        kills = fc.kill_schedule(minutes * 60, 60.0, random.Random(seed))
        kinds = Counter(kind for _at, kind in kills)
        assert set(kinds) == {"web", "worker", "beat", "redis"}, (minutes, seed, kills)
        times = [at for at, _kind in kills]
        assert times == sorted(times) and 0 < times[0] and times[-1] <= minutes * 60 - 5
        assert all(b - a >= fc.KILL_SPACING for a, b in zip(times, times[1:]))
        # at the pace asked when the day is long enough for four kills at it, never slower
        assert len(kills) == max(4, int((minutes * 60 - 5) // 60))


def test_the_order_is_not_a_fixed_cycle(fc):
    firsts = Counter(fc.kill_schedule(600, 60.0, random.Random(seed))[0][1] for seed in range(200))
    assert set(firsts) == {"web", "worker", "beat", "redis"} and min(firsts.values()) > 20


def test_a_day_too_short_for_every_kind_is_refused(fc):
    with pytest.raises(ValueError, match="at least 53 s"):
        fc.kill_schedule(50, 60.0, random.Random(0))
