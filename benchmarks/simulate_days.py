"""The soak: simulated card-room days, as many as you like, on a fresh database.

    python benchmarks/simulate_days.py --days 200 --seed 1                 # SQLite (the embedded default)
    python benchmarks/simulate_days.py --days 200 --seed 1 --database postgres://postgres@127.0.0.1:5432/tdm_sim
    REDIS_URL=redis://127.0.0.1:6379/5 python benchmarks/simulate_days.py ...   # with the publications, as deployed

Day ``k`` plays seed ``S + k`` (``tests/simulation``: every feature against every other, the
invariants checked after each action); each service commits as it does in the room. A violation
is shrunk to the shortest plan that still fails and printed, to become a regression test. The
report: days and actions run, how often each action ran (refusals and skips apart), the refusal
codes, the invariants checked, the violations, and the wall and CPU time per action.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.common import prepare_database  # noqa: E402


def close_the_room(seed: int, day: int) -> None:
    """The room closes at night: the clocks of the day's events still playing are stopped (a day
    later the beat would otherwise roll a day of levels over them at the next day's first sweep)."""
    from tests.simulation.world import World
    from tournaments.clock import services as clock_services
    from tournaments.models import Clock, Tournament

    director = World(seed=seed, day=day).director
    running = Clock.objects.filter(tournament__status=Tournament.RUNNING).exclude(status=Clock.FINISHED)
    for tid in running.values_list("tournament_id", flat=True):
        clock_services.finish_clock(Tournament.objects.get(pk=tid), actor=director, reason="the room closes for the night")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0, help="the first day's seed; day k plays seed + k")
    parser.add_argument("--steps", type=int, default=60, help="actions per day")
    parser.add_argument("--database", default="sqlite", help='"sqlite" (default) or a PostgreSQL URL, dropped and created anew')
    parser.add_argument("--no-shrink", action="store_true", help="print a failing day's steps as they were")
    parser.add_argument("--json", metavar="FILE", help="also write the report's counts to FILE, for --merge")
    parser.add_argument(
        "--each",
        type=int,
        metavar="N",
        help="draw the actions run fewer than N times (refusals apart; this run's and --counted's) more often, and theme each day by them",
    )
    parser.add_argument("--counted", nargs="+", metavar="FILE", default=[], help="earlier runs' --json files whose runs --each counts")
    parser.add_argument("--merge", nargs="+", metavar="FILE", help="print one report of several runs' --json files (runs nothing)")
    args = parser.parse_args()
    if args.merge:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")
        import django

        django.setup()  # the catalogue of actions, for the rare ones (no database is read)
        return print_report(merge(args.merge))

    prepare_database(args.database, "tdm_sim")
    from tests.simulation.catalogue import wanting
    from tests.simulation.driver import Violation, play, shrink

    ran, refused, skipped, codes = Counter(), Counter(), Counter(), Counter()
    earlier = merge(args.counted) if args.counted else {"ran": Counter(), "refused": Counter()}
    checks = steps = unchanged = 0
    violations = []
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for k in range(args.days):
        seed = args.seed + k
        try:
            wanted = wanting(earlier["ran"] + ran, args.each) if args.each else None
            report = play(seed, args.steps, day=k, wanted=wanted)
        except Violation as v:
            violations.append(v if args.no_shrink else shrink(v, day=100000 + k * 1000))
            print(violations[-1].render(), flush=True)
            continue
        close_the_room(seed, k)
        ran.update(report.ran)
        refused.update(report.refused)
        skipped.update(report.skipped)
        codes.update(report.codes)
        checks += report.checks
        unchanged += report.unchanged
        steps += report.steps
        if (k + 1) % 10 == 0:
            print(f"… {k + 1} days, {steps} steps, {len(violations)} violations, {time.perf_counter() - wall0:.0f} s", flush=True)
    from tests.simulation.invariants import INVARIANTS

    vendor = "PostgreSQL" if args.database != "sqlite" else "SQLite"
    run = {
        "runs": [
            f"{vendor}{' + Redis' if os.environ.get('REDIS_URL') else ''}: {args.days} days of {args.steps} steps from seed {args.seed}"
            + (f", drawing the actions run fewer than {args.each} times more often" if args.each else "")
        ],
        "days": args.days,
        "steps": steps,
        "invariants": len(INVARIANTS),
        "checks": checks,
        "unchanged": unchanged,
        "violations": len(violations),
        "wall": time.perf_counter() - wall0,
        "cpu": time.process_time() - cpu0,
        "ran": ran,
        "refused": refused,
        "skipped": skipped,
        "codes": codes,
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump(run, f)
    return print_report(run)


COUNTERS = ("ran", "refused", "skipped", "codes")
#: how many times every action must have run
BAR = 500


def merge(paths: list[str]) -> dict:
    """One report of several runs (each its own database and seeds): the counts added up."""
    total: dict = {"runs": [], **{k: Counter() for k in COUNTERS}}
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        for key, value in run.items():
            if key in COUNTERS:
                total[key].update(value)
            elif key == "runs":
                total["runs"] += value
            elif key == "invariants":
                total[key] = value
            else:
                total[key] = total.get(key, 0) + value
    return total


def print_report(run: dict) -> int:
    ran, refused, skipped, codes = (Counter(run[k]) for k in COUNTERS)
    steps = run["steps"]
    played = sum(ran.values()) + sum(refused.values())
    print()
    for line in run["runs"]:
        print(line)
    print(f"{run['days']} days, {steps} steps")
    print(f"actions played {played} (ran {sum(ran.values())}, refused {sum(refused.values())}), skipped {sum(skipped.values())}")
    print(
        f"invariants checked {run['checks']} ({run['invariants']} after each step but {run['unchanged']} refusals that wrote nothing, "
        f"shown by the room's footprint); violations {run['violations']}"
    )
    wall, cpu = run["wall"], run["cpu"]
    print(
        f"wall {wall:.1f} s, CPU {cpu:.1f} s: {1000 * wall / max(1, steps):.1f} ms wall and {1000 * cpu / max(1, steps):.1f} ms CPU a step, invariants included"
    )
    print(f"\n{'action':<30}{'ran':>8}{'refused':>9}{'skipped':>9}")
    for name in sorted(set(ran) | set(refused) | set(skipped)):
        print(f"{name:<30}{ran[name]:>8}{refused[name]:>9}{skipped[name]:>9}")
    print("\nrefusal codes: " + ", ".join(f"{c} {n}" for c, n in codes.most_common()))
    # the bar: every action run 500 times, its refusals counted apart
    from tests.simulation.catalogue import ACTIONS

    short = sorted((ran[name], name) for name in ACTIONS if ran[name] < BAR)
    print(f"\nactions run fewer than {BAR} times (refusals apart): {len(short)} of {len(ACTIONS)}")
    print("".join(f"  {name} {n} (refused {refused[name]})\n" for n, name in short), end="")
    return 1 if run["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
