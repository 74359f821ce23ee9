"""Time the payout engines: exact ICM and the payout-structure generator.

    python benchmarks/payouts_bench.py [--repeats 25] [--seed 1]

ICM: ``icm_equities`` for 9, 12, 16 and 20 players with every place paid (the worst case
for the exact programme: 2^n sets of placed players). Payout structure:
``payout_structure`` for 100, 1,000, 10,000 and 30,000 entries (15 % paid, 3 % deducted).

For each size it prints the median and the 95th percentile of the wall time, and the ratio
of the median to a baseline measured in the same run on the same input: ``sorted()`` over
the stacks (ICM) or over one chip count per entry (structure). The ratio is the figure to
compare between machines; a calibration line (``sum(range(1000))``) shows how fast this
one is. Targets: 10 players under 5 ms and 20 under 1 s for ICM, 30,000 entries under
100 ms for the structure. No Django needed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import timeit
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from payouts.icm import icm_equities  # noqa: E402
from payouts.structure import payout_structure  # noqa: E402

ICM_PLAYERS = (9, 12, 16, 20)
STRUCTURE_ENTRIES = (100, 1_000, 10_000, 30_000)
BUY_IN = Decimal("1000")


def timings(fn, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def baseline(fn) -> float:
    """Median of a fast operation, timed in batches so that the clock resolution vanishes."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    return statistics.median(t / number for t in timer.repeat(repeat=7, number=number))


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def report(label: str, times: list[float], base: float) -> None:
    median = statistics.median(times)
    print(f"{label:<28} median {median * 1000:10.3f} ms   p95 {p95(times) * 1000:10.3f} ms   {median / base:>12,.2f} × baseline ({base * 1e6:.2f} µs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    calibration = baseline(lambda: sum(range(1000)))
    print(f"Python {sys.version.split()[0]}; calibration sum(range(1000)) = {calibration * 1e6:.2f} µs")

    print("\nICM equities (exact, every place paid)")
    for players in ICM_PLAYERS:
        stacks = [rng.randint(1_000, 500_000) for _ in range(players)]
        prizes = sorted((Decimal(rng.randint(100, 100_000)) for _ in range(players)), reverse=True)
        repeats = args.repeats if players < 20 else max(3, args.repeats // 4)
        times = timings(lambda: icm_equities(stacks, prizes), repeats)
        report(f"{players} players ({repeats} runs)", times, baseline(lambda: sorted(stacks)))

    print("\nPayout structure (15 % paid, 3 % deducted, €5 units)")
    for entries in STRUCTURE_ENTRIES:
        pool = (BUY_IN * entries * Decimal("0.97")).quantize(Decimal("0.01"))
        chips = [rng.randint(1_000, 500_000) for _ in range(entries)]
        times = timings(lambda: payout_structure(entries, pool, BUY_IN), args.repeats)
        report(f"{entries:,} entries ({args.repeats} runs)", times, baseline(lambda: sorted(chips)))


if __name__ == "__main__":
    main()
