"""What a lobby screen's live snapshot costs at 1,000 and 10,000 players: build time, queries, size.

    python benchmarks/snapshot_size.py [--entries 1000 10000] [--repeat 5] [--baseline-rev b08e78e]

Runs on a temporary SQLite database unless DATABASE_URL is set. For each field size: N people,
N paid entries and their buy-ins are written in bulk, then ``lifecycle.start`` draws every seat
and the clock starts. Then it builds the snapshot ``--repeat`` times and prints the median build
time (wall, and the CPU of this process: the figure a busy shared machine disturbs least), the
queries one build sends and the size of its JSON; and the same for one page of the lobby
screens' seat lookup (``/live/<pk>/seats/``: the first build of a seats version sorts the
field once, later pages come from the process's copy). Nothing is asserted.

The baseline, measured in the same run on the same rows, is the snapshot as it was before the
seats moved out of it: ``tournaments/snapshot.py``, ``seating/selectors.py`` and
``payouts/selectors.py`` of ``--baseline-rev`` (read with git), their snapshot parts swapped in
while the baseline is built.
"""

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BASELINE_REV = "b08e78e"  # the last commit whose snapshot listed every seated player


def setup_django():
    if not os.getenv("DATABASE_URL"):
        os.environ["TDM_VAR_DIR"] = tempfile.mkdtemp(prefix="tdm-snapshot-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def load_old(rev: str, path: str, name: str):
    """A module as it was at ``rev``, loaded under ``name`` inside its package (relative imports work)."""
    source = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = name.rpartition(".")[0]
    exec(compile(source, f"{rev}:{path}", "exec"), module.__dict__)
    return module


def make_field(n: int):
    """A running tournament of ``n`` paid, seated entries (bulk rows, then the real start)."""
    from django.db.models import Max
    from django.utils import timezone

    from tournaments.clock import services as clock_services
    from tournaments.eventlog.services import Actor
    from tournaments.models import Entry, LedgerRow, Person, Tournament
    from tournaments.setup import lifecycle
    from tournaments.structures.services import ensure_builtin_structures

    actor = Actor(None, "snapshot_size")
    structure = next(s for s in ensure_builtin_structures() if s.name.startswith("Regular"))
    t = Tournament.objects.create(
        name=f"Snapshot {n}",
        start_at=timezone.now(),
        buy_in=Decimal(100),
        fee=Decimal(10),
        starting_stack=30000,
        table_size=9,
        structure=structure,
        status=Tournament.REGISTERING,
        min_players=2,
    )
    stamp = int(time.time())
    people = Person.objects.bulk_create(
        [Person(first_name=f"Name{(i * 7919) % n:05d}", last_name=f"S{t.pk}", search_text=f"name{i:05d} s{t.pk} {stamp}") for i in range(1, n + 1)],
        batch_size=2000,
    )
    entries = Entry.objects.bulk_create(
        [Entry(tournament=t, person=p, number=i, status=Entry.ACTIVE, chips=t.starting_stack) for i, p in enumerate(people, 1)], batch_size=2000
    )
    first = (LedgerRow.objects.aggregate(m=Max("receipt_number"))["m"] or 0) + 10**9
    LedgerRow.objects.bulk_create(
        [
            LedgerRow(
                tournament=t,
                entry=e,
                person_id=e.person_id,
                kind=LedgerRow.BUY_IN,
                prize_amount=t.buy_in,
                fee_amount=t.fee,
                chips=t.starting_stack,
                receipt_number=first + i,
            )
            for i, e in enumerate(entries)
        ],
        batch_size=2000,
    )
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor)
    return t


def measure(rows, repeat: int) -> list[tuple[float, float, int, int]]:
    """Each ``(label, fn)`` run ``repeat`` times, interleaved (one of each per round, so a busy
    moment of the machine falls on all of them): median wall ms, median CPU ms of this process,
    queries of the first run, bytes of its JSON."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    wall = [[] for _ in rows]
    cpu = [[] for _ in rows]
    queries, sizes = [0] * len(rows), [0] * len(rows)
    for i in range(repeat):
        for k, (_label, fn) in enumerate(rows):
            with CaptureQueriesContext(connection) as ctx:
                tick, cpu_tick = time.perf_counter(), time.process_time()
                out = fn()
                wall[k].append((time.perf_counter() - tick) * 1000)
                cpu[k].append((time.process_time() - cpu_tick) * 1000)
            if i == 0:
                queries[k], sizes[k] = len(ctx.captured_queries), len(json.dumps(out, default=str).encode())
    return [(statistics.median(w), statistics.median(c), q, b) for w, c, q, b in zip(wall, cpu, queries, sizes)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--baseline-rev", default=BASELINE_REV)
    args = ap.parse_args()
    setup_django()
    from django.db import connection

    import payouts.selectors
    import seating.selectors
    from tournaments.live import seats
    from tournaments.live.snapshot import build_snapshot

    old_snapshot = load_old(args.baseline_rev, "tournaments/snapshot.py", "tournaments._baseline_snapshot")
    old_seating = load_old(args.baseline_rev, "seating/selectors.py", "seating._baseline_selectors")
    old_payouts = load_old(args.baseline_rev, "payouts/selectors.py", "payouts._baseline_selectors")

    def baseline(t):
        new = seating.selectors.display_summary, payouts.selectors.display_summary
        seating.selectors.display_summary = old_seating.display_summary
        payouts.selectors.display_summary = lambda t, **_now: old_payouts.display_summary(t)  # it counted the field itself
        try:
            return old_snapshot.build_snapshot(t.pk)
        finally:
            seating.selectors.display_summary, payouts.selectors.display_summary = new

    print(f"database: {connection.vendor}; median of {args.repeat} builds, interleaved; baseline: the snapshot of {args.baseline_rev}")
    print(f"{'players':>8}  {'what':<34} {'wall ms':>8} {'CPU ms':>8} {'queries':>8} {'KiB':>8}")
    for n in args.entries:
        tick = time.perf_counter()
        t = make_field(n)
        setup_s = time.perf_counter() - tick
        rows = [
            ("baseline snapshot (every seat)", lambda: baseline(t)),
            ("snapshot now", lambda: build_snapshot(t.pk)),
            ("seats page 1, first of a version", lambda: (seating.selectors.forget_seat_lists(), seats.seat_page(t.pk, 1))[1]),
            ("seats page 2, version built", lambda: seats.seat_page(t.pk, 2)),
        ]
        for (label, _fn), (wall, cpu, queries, size) in zip(rows, measure(rows, args.repeat)):
            print(f"{n:>8}  {label:<34} {wall:8.1f} {cpu:8.1f} {queries:8d} {size / 1024:8.1f}")
        print(f"{'':>8}  (setup: {setup_s:.1f} s for {n} entries, the draw included)")


if __name__ == "__main__":
    main()
