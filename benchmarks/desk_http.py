"""Register N players through the HTTP API with C concurrent clients; print throughput and latency.

    python benchmarks/desk_http.py                       # PostgreSQL database tdm_bench on 127.0.0.1 (created if missing)
    python benchmarks/desk_http.py --players 2000 --clients 8 --web-workers 2
    DATABASE_URL=sqlite python benchmarks/desk_http.py   # the embedded SQLite default

It migrates a fresh database, creates a cashier and a tournament, starts uvicorn with the
real ASGI app, then each client loops: POST /api/v1/cashier/register/ with an Idempotency-Key.
The baseline, measured in the same run with the same clients, is GET /api/v1/cashier/shift/
(authenticated, one small query): the ratio shows what a sale costs over a trivial request.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def prepare_database(url: str | None):
    if url == "sqlite":
        os.environ.pop("DATABASE_URL", None)
        os.environ["TDM_VAR_DIR"] = tempfile.mkdtemp(prefix="tdm-bench-")
    else:
        url = url or "postgres://postgres@127.0.0.1:5432/tdm_bench"
        dbname = url.rsplit("/", 1)[1]
        admin = url.rsplit("/", 1)[0] + "/postgres"
        import psycopg

        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{dbname}"')
        os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def seed(players: int):
    from decimal import Decimal

    from django.contrib.auth.models import Group, User
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from tournaments.models import Person, Tournament

    user = User.objects.create_user("bench-cashier", password="x")
    user.groups.add(Group.objects.get(name="cashier"))
    token = Token.objects.create(user=user).key
    t = Tournament.objects.create(
        name="Bench", start_at=timezone.now(), buy_in=Decimal("100"), fee=Decimal("10"), starting_stack=30000,
        status=Tournament.REGISTERING,
    )
    Person.objects.bulk_create(Person(first_name=f"P{i}", last_name=f"Bench{i}", search_text=f"p{i} bench{i}") for i in range(players))
    ids = list(Person.objects.order_by("id").values_list("id", flat=True))
    return token, t.pk, ids


def run_clients(base, token, clients, jobs, make_request):
    import httpx

    latencies, errors = [], []
    lock = threading.Lock()
    it = iter(jobs)

    def worker():
        with httpx.Client(base_url=base, headers={"Authorization": f"Token {token}"}, timeout=30) as c:
            while True:
                with lock:
                    job = next(it, None)
                if job is None:
                    return
                t0 = time.perf_counter()
                r = make_request(c, job)
                dt = time.perf_counter() - t0
                with lock:
                    latencies.append(dt)
                    if r.status_code >= 300:
                        errors.append((r.status_code, r.text[:200]))

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    start = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return time.perf_counter() - start, latencies, errors


def report(name, wall, lat, n):
    print(f"{name:<10} {n:>6} requests  {n / wall:8.1f} req/s  p50 {statistics.median(lat) * 1000:7.1f} ms  "
          f"p95 {pct(lat, 95) * 1000:7.1f} ms  max {max(lat) * 1000:7.1f} ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=2000)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--web-workers", type=int, default=2)
    ap.add_argument("--port", type=int, default=8799)
    ap.add_argument("--database", default=os.getenv("DATABASE_URL"))
    args = ap.parse_args()
    prepare_database(args.database)
    token, tid, people = seed(args.players)
    from django.db import connection

    engine = connection.vendor
    connection.close()
    env = dict(os.environ)
    env.pop("REDIS_URL", None)  # measure the desk, not pub/sub
    workers = 1 if engine == "sqlite" else args.web_workers
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "tdmanager.asgi:application", "--port", str(args.port), "--workers", str(workers), "--log-level", "warning"],
        cwd=ROOT, env=env,
    )
    base = f"http://127.0.0.1:{args.port}"
    try:
        import httpx

        for _ in range(200):
            try:
                if httpx.get(base + "/login/", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        bwall, blat, berr = run_clients(base, token, args.clients, range(args.players), lambda c, _j: c.get("/api/v1/cashier/shift/"))
        wall, lat, err = run_clients(
            base, token, args.clients, people,
            lambda c, pid: c.post("/api/v1/cashier/register/", json={"tournament": tid, "person": pid, "method": "CASH"}, headers={"Idempotency-Key": str(uuid.uuid4())}),
        )
        print(f"database: {engine}; web workers: {workers}; clients: {args.clients}")
        report("baseline", bwall, blat, len(blat))
        report("register", wall, lat, len(lat))
        print(f"ratio register/baseline p50: {statistics.median(lat) / statistics.median(blat):.2f}x")
        from tournaments.models import Entry, LedgerRow

        entries = Entry.objects.filter(tournament_id=tid).count()
        rows = LedgerRow.objects.filter(tournament_id=tid).count()
        receipts = list(LedgerRow.objects.filter(tournament_id=tid).order_by("receipt_number").values_list("receipt_number", flat=True))
        gapless = receipts == list(range(receipts[0], receipts[0] + len(receipts))) if receipts else True
        print(f"entries {entries}, ledger rows {rows}, errors {len(err) + len(berr)}, receipt numbers gapless: {gapless}")
        if err:
            print("first error:", err[0])
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
