"""Bust players through the HTTP API, one client, sequential; print the time per bust.

    python benchmarks/api_bust.py                        # PostgreSQL database tdm_bench_api_bust on 127.0.0.1 (created if missing)
    DATABASE_URL=sqlite python benchmarks/api_bust.py    # the embedded SQLite default
    python benchmarks/api_bust.py --runs 3 --seed 7

The workload of a floor person with a tablet: 100 paid entries at 9-max (12 tables),
all sold through ``/api/v1/cashier/register/``; the tournament started through
``/api/v1/tournaments/<id>/start/``; then 91 times: one player out (``POST …/busts/``) and
every move slip that follows — balancing, table break, final table — confirmed until none
is open, as the floor does it. Each run plays two tournaments: one confirms every slip on its
own (``POST …/moves/<id>/confirm/``); the other confirms the slips of a break or of the final
table (the players get up together) in one ``POST …/moves/confirm/`` once they have sat down,
and balancing moves one by one.

The server is the product's own launcher, ``manage.py serve --no-worker`` (uvicorn with the
project's ASGI app, and Redis: the one in REDIS_URL, else the embedded one serve starts), so
every bust is locked, logged and published as in the room.

Figures per bust: the bust request alone, and the bust with the confirmations it needed.
Baselines of the same run: an authenticated GET of the open slips (``…/moves/``, one
small query) on the same connection, and the same workload through the seating services
in-process (``record_bust`` + ``confirm_move``, no HTTP; same house, same choice of players).
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import common  # noqa: E402
from common import pct  # noqa: E402

ENTRIES = 100
TABLE_SIZE = 9
BUSTS = 91


def prepare_database(url: str | None):
    common.prepare_database(url, "tdm_bench_api_bust")


def make_user(name, role):
    from django.contrib.auth.models import Group, User

    from tournaments.staff.logins import issue_token

    user = User.objects.create_user(name, password="x")
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user, issue_token(user, device="benchmark")[1]


def seed_people():
    from tournaments.models import Person

    Person.objects.bulk_create(Person(first_name=f"P{i}", last_name=f"Bench{i}", search_text=f"p{i} bench{i}") for i in range(ENTRIES))
    return list(Person.objects.order_by("id").values_list("id", flat=True))


def new_tournament(name):
    from datetime import timedelta
    from decimal import Decimal

    from django.utils import timezone

    from tournaments.models import Tournament
    from tournaments.structures.services import ensure_builtin_structures

    structure = next(s for s in ensure_builtin_structures() if s.name.startswith("Regular"))
    t = Tournament.objects.create(
        name=name,
        start_at=timezone.now() + timedelta(hours=1),
        buy_in=Decimal("100"),
        fee=Decimal("10"),
        starting_stack=30000,
        table_size=TABLE_SIZE,
        structure=structure,
        status=Tournament.REGISTERING,
        min_players=2,
    )
    return t.pk


def client(base, token):
    return common.Client(base, headers={"Authorization": f"Token {token}"})


def ok(r, expected=(200, 201)):
    if r.status_code not in expected:
        raise SystemExit(f"{r.request.method} {r.request.url} -> {r.status_code}: {r.text[:500]}")
    return r.json()


def register_and_start(base, cashier_token, director_token, tid, people):
    """100 paid entries through the cashier API, then the start through the tournament API (the seat draw)."""
    with client(base, cashier_token) as c:
        for pid in people:
            ok(c.post("/api/v1/cashier/register/", json={"tournament": tid, "person": pid, "method": "CASH"}, headers={"Idempotency-Key": str(uuid.uuid4())}))
    with client(base, director_token) as c:
        ok(c.post(f"/api/v1/tournaments/{tid}/start/", json={"prestart_report_sent": True}))


def entries_by_number(tid):
    from tournaments.models import Entry

    return dict(Entry.objects.filter(tournament_id=tid).values_list("number", "pk"))


def choices(seed):
    """The entry numbers to bust, in order: the same for every run of one seed."""
    rng = random.Random(seed)
    alive = list(range(1, ENTRIES + 1))
    out = []
    for _ in range(BUSTS):
        out.append(alive.pop(rng.randrange(len(alive))))
    return out


def http_busts(c, tid, numbers, by_number, together=False):
    """The workload over HTTP; returns [(bust seconds, bust + confirms seconds, confirm requests)].

    ``together``: the slips of a break or of the final table (drawn and applied at once: the
    players get up together) are confirmed in one ``moves/confirm/`` call once they have all
    sat down; balancing moves one by one. Otherwise every slip is confirmed on its own."""
    out = []
    for n in numbers:
        t0 = time.perf_counter()
        data = ok(c.post(f"/api/v1/tournaments/{tid}/busts/", json={"entries": [{"entry": by_number[n]}]}))
        t1 = time.perf_counter()
        confirms = 0
        while data["moves"]:
            drawn = [m["id"] for m in data["moves"] if m["applied"]]
            if together and len(drawn) > 1:
                data = ok(c.post(f"/api/v1/tournaments/{tid}/moves/confirm/", json={"moves": drawn}))
            else:
                data = ok(c.post(f"/api/v1/tournaments/{tid}/moves/{data['moves'][0]['id']}/confirm/", json={}))
            confirms += 1
        out.append((t1 - t0, time.perf_counter() - t0, confirms))
    return out


def service_busts(tid, numbers, by_number, user):
    """The same workload through the seating services in-process (no HTTP, no serializers)."""
    from seating import services
    from seating.models import PendingMove
    from tournaments.eventlog.services import Actor

    actor = Actor(user=user)
    out = []
    for n in numbers:
        t0 = time.perf_counter()
        res = services.record_bust(tid, [by_number[n]], actor=actor)
        t1 = time.perf_counter()
        pending = sorted(s.pk for s in res.slips + res.proposed)
        confirms = 0
        while pending:
            res = services.confirm_move(tid, pending.pop(0), actor=actor)
            confirms += 1
            gone = set(res.superseded)
            pending = sorted({p for p in pending if p not in gone} | {s.pk for s in res.slips + res.proposed})
        out.append((t1 - t0, time.perf_counter() - t0, confirms))
    left = PendingMove.objects.filter(tournament_id=tid, status=PendingMove.PROPOSED).count()
    if left:
        raise SystemExit(f"in-process run left {left} open slips")
    return out


def line(name, values, total=None):
    ms = [v * 1000 for v in values]
    tail = f"  total {total:7.2f} s" if total is not None else ""
    return f"  {name:<30} p50 {statistics.median(ms):7.2f} ms  p95 {pct(ms, 95):7.2f} ms  max {max(ms):7.2f} ms  mean {statistics.mean(ms):7.2f} ms{tail}"


def wait_until_up(base, proc, seconds: float = 60):
    import httpx

    for _ in range(int(seconds * 10)):
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        try:
            if httpx.get(base + "/login/", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise SystemExit("the server did not answer")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8798)
    ap.add_argument("--runs", type=int, default=1, help="HTTP runs, each on two new tournaments (the in-process baseline runs once)")
    ap.add_argument("--seed", type=int, default=1, help="which players bust, in which order")
    ap.add_argument("--database", default=os.getenv("DATABASE_URL"))
    ap.add_argument("--one-by-one", action="store_true", help="only the runs that confirm every slip on its own")
    args = ap.parse_args()
    prepare_database(args.database)
    from django.db import connection

    engine = connection.vendor
    _director, director_token = make_user("bench-director", "director")
    _cashier, cashier_token = make_user("bench-cashier", "cashier")
    floor, floor_token = make_user("bench-floor", "floor")
    people = seed_people()
    local_tid = new_tournament("Bench in-process")
    # Each run: one tournament whose slips are confirmed one by one, one whose draws are confirmed together.
    http_runs = [
        (new_tournament(f"Bench HTTP {i + 1}{' together' if together else ''}"), together)
        for i in range(args.runs)
        for together in ((False,) if args.one_by_one else (False, True))
    ]
    http_tids = [tid for tid, _together in http_runs]
    connection.close()

    env = dict(os.environ)
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--no-worker", "--host", "127.0.0.1", "--port", str(args.port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{args.port}"
    try:
        wait_until_up(base, server)
        for tid in [local_tid, *http_tids]:
            register_and_start(base, cashier_token, director_token, tid, people)
        numbers = choices(args.seed)
        print(
            f"database: {engine}; {ENTRIES} entries at {TABLE_SIZE}-max, {BUSTS} busts, one client, sequential; "
            f"server: manage.py serve --no-worker (Redis: {'REDIS_URL' if os.getenv('REDIS_URL') else 'embedded'})"
        )

        with client(base, floor_token) as c:
            c.get(f"/api/v1/tournaments/{http_tids[0]}/moves/")  # the connection is open
            get = []
            for _ in range(BUSTS):
                t0 = time.perf_counter()
                ok(c.get(f"/api/v1/tournaments/{http_tids[0]}/moves/"))
                get.append(time.perf_counter() - t0)
        print("baseline: authenticated GET …/moves/ on the same connection")
        print(line("GET", get))

        t0 = time.perf_counter()
        local = service_busts(local_tid, numbers, entries_by_number(local_tid), floor)
        local_wall = time.perf_counter() - t0
        print(f"baseline: the same busts through the seating services in-process ({sum(x[2] for x in local)} confirmations)")
        print(line("record_bust", [x[0] for x in local]))
        print(line("record_bust + confirm_move", [x[1] for x in local], local_wall))

        summary = {}
        for i, (tid, together) in enumerate(http_runs):
            with client(base, floor_token) as c:
                c.get(f"/api/v1/tournaments/{tid}/moves/")
                t0 = time.perf_counter()
                res = http_busts(c, tid, numbers, entries_by_number(tid), together=together)
                wall = time.perf_counter() - t0
            total = [x[1] for x in res]
            summary.setdefault(together, []).append((statistics.median(total), pct(total, 95)))
            several = sum(1 for x in res if x[2] > 1)
            how = "a draw's slips in one moves/confirm/" if together else "every slip on its own"
            print(f"HTTP run {i // (1 if args.one_by_one else 2) + 1}, {how}: {sum(x[2] for x in res)} confirm requests ({several} busts needed more than one)")
            print(line("POST busts/", [x[0] for x in res]))
            print(line("bust + confirm its moves", total, wall))
            worst = max(res, key=lambda x: x[1])
            print(f"  slowest: {worst[1] * 1000:.1f} ms with {worst[2]} confirm requests")
        local_p50 = statistics.median([x[1] for x in local])
        for together, figures in summary.items():
            p50, p95 = statistics.median([f[0] for f in figures]), statistics.median([f[1] for f in figures])
            verdict = "met" if p50 <= 0.008 and p95 <= 0.040 else "NOT met"
            how = "a draw's slips together" if together else "slips one by one"
            print(
                f"per bust, {how} (median of {len(figures)} run(s)): p50 {p50 * 1000:.2f} ms (target <= 8), "
                f"p95 {p95 * 1000:.2f} ms (target <= 40): {verdict}; p50 / GET p50 {p50 / statistics.median(get):.1f}x; "
                f"HTTP / in-process p50 {p50 / local_p50:.1f}x"
            )
    finally:
        common.stop(server)


if __name__ == "__main__":
    main()
