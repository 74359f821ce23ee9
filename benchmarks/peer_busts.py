"""The 91-bust workload against a peer's API and ours, in pairs, on one machine: time and CPU a bust.

    python benchmarks/peer_busts.py --peer ~/src/SuperPokerTimer --peer-python ~/src/spt-venv/bin/python
    python benchmarks/peer_busts.py --peer … --peer-python … --database sqlite --pairs 7
    REDIS_URL=redis://127.0.0.1:6379/3 python benchmarks/peer_busts.py --peer … --peer-python … --database postgres://postgres@127.0.0.1:5432/tdm_peer

The peer is SuperPokerTimer (FastAPI + SQLite, one process): a checkout of its repository and a
Python with its ``backend/requirements.txt`` installed, both of your making (nothing of it is in
this repository). Its server starts anew for each pair on a new SQLite file, with its own
settings (WAL, SQLite's default ``synchronous=FULL``).

The workload (``api_bust.py``'s): 100 players at 9-max on 12 tables, seated at random; then 91
times one player out, and the table map made right again. The peer: ``PATCH /api/players/<id>``
``{"eliminated": true}`` then ``POST /api/seating/rebalance`` (it moves the players itself). Ours,
through ``manage.py serve --no-worker`` as ``api_bust.py`` runs it: ``POST …/busts/`` and every
slip it draws confirmed one by one, and again with a draw's slips confirmed together. The same
players bust in the same order in every run (``--seed``).

Per bust: wall time (p50, p95; the client waits for each answer) and the servers' CPU over the
timed section, read from /proc: the web process tree, and beside it the database server and
Redis (PostgreSQL's and Redis' processes; SQLite works inside the web process). Run it with
nothing else on the machine: those processes are shared. Each pair runs the peer and ours back to
back, the order alternating; the ratios are medians over the pairs.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import api_bust  # noqa: E402
import common  # noqa: E402
from common import Timed, pct  # noqa: E402

TABLES = 12


def wait_for(url, proc):
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        try:
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=1)
            conn.request("GET", parts.path)
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"{url} did not answer")


def peer_run(peer, python, port, numbers):
    """One run of the workload on a new peer server and database: [(seconds a bust)], CPU."""
    work = tempfile.mkdtemp(prefix="peer-")
    env = {**os.environ, "DATABASE_PATH": f"{work}/app.db", "SOUNDS_DIR": f"{work}/sounds"}
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen(
        [python, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=Path(peer) / "backend",
        env=env,
        stdout=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(base + "/api/health", server)
        with common.Client(base) as c:
            for t in range(TABLES):
                api_bust.ok(c.post("/api/tables", json={"name": f"T{t + 1}", "seats": api_bust.TABLE_SIZE}))
            players = [api_bust.ok(c.post("/api/players", json={"name": f"P{i}"}))["id"] for i in range(api_bust.ENTRIES)]
            api_bust.ok(c.post("/api/seating/randomize"))
            out = []
            with Timed(server.pid) as cpu:
                for n in numbers:
                    t0 = time.perf_counter()
                    api_bust.ok(c.request("PATCH", f"/api/players/{players[n - 1]}", json={"eliminated": True}))
                    api_bust.ok(c.post("/api/seating/rebalance"))
                    out.append(time.perf_counter() - t0)
        return out, cpu
    finally:
        server.terminate()
        server.wait(timeout=15)


def ours_run(base, pid, floor_token, tid, numbers, together):
    with api_bust.client(base, floor_token) as c:
        c.get(f"/api/v1/tournaments/{tid}/moves/")  # the connection is open
        with Timed(pid) as cpu:
            res = api_bust.http_busts(c, tid, numbers, api_bust.entries_by_number(tid), together=together)
    return [x[1] for x in res], cpu


def figures(times, cpu):
    ms = [t * 1000 for t in times]
    return {
        "p50": statistics.median(ms),
        "p95": pct(ms, 95),
        "web": cpu.web * 1000 / len(ms),
        "all": (cpu.web + cpu.svc) * 1000 / len(ms),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", required=True, help="a checkout of SuperPokerTimer")
    ap.add_argument("--peer-python", required=True, help="a Python with the peer's backend/requirements.txt")
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1, help="which players bust, in which order")
    ap.add_argument("--database", default=os.getenv("DATABASE_URL"), help='ours: "sqlite" or a PostgreSQL URL (default: DATABASE_URL)')
    ap.add_argument("--port", type=int, default=8797)
    ap.add_argument("--peer-port", type=int, default=8796)
    args = ap.parse_args()

    api_bust.prepare_database(args.database)
    from django.db import connection

    engine = connection.vendor
    _d, director_token = api_bust.make_user("bench-director", "director")
    _c, cashier_token = api_bust.make_user("bench-cashier", "cashier")
    _f, floor_token = api_bust.make_user("bench-floor", "floor")
    people = api_bust.seed_people()
    tids = [(api_bust.new_tournament(f"Pair {i + 1} {how}"), how) for i in range(args.pairs) for how in ("one by one", "together")]
    connection.close()

    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--no-worker", "--host", "127.0.0.1", "--port", str(args.port)],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{args.port}"
    try:
        api_bust.wait_until_up(base, server)
        for tid, _how in tids:
            api_bust.register_and_start(base, cashier_token, director_token, tid, people)
        numbers = api_bust.choices(args.seed)
        redis = "REDIS_URL" if os.getenv("REDIS_URL") else "embedded"
        print(f"ours: {engine}, manage.py serve --no-worker, Redis {redis}; peer: SuperPokerTimer on SQLite (WAL, synchronous FULL)")
        print(f"{api_bust.ENTRIES} players at {api_bust.TABLE_SIZE}-max on {TABLES} tables, {api_bust.BUSTS} busts, one client; {args.pairs} pairs")
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} before the first pair")
        rows = {"peer": [], "one by one": [], "together": []}
        for i in range(args.pairs):
            runs = [("peer", None)] + [(how, tid) for tid, how in tids[2 * i : 2 * i + 2]]
            if i % 2:
                runs.reverse()
            for how, tid in runs:
                if how == "peer":
                    rows[how].append(figures(*peer_run(args.peer, args.peer_python, args.peer_port, numbers)))
                else:
                    rows[how].append(figures(*ours_run(base, server.pid, floor_token, tid, numbers, how == "together")))
            print(
                f"pair {i + 1}: "
                + "; ".join(
                    f"{how} p50 {r[-1]['p50']:.2f} p95 {r[-1]['p95']:.2f} ms, CPU {r[-1]['web']:.2f} + {r[-1]['all'] - r[-1]['web']:.2f} ms"
                    for how, r in rows.items()
                )
            )
        print()
        print("per bust, medians over the pairs (CPU: web process tree + database server and Redis)")
        print(f"{'':<12} {'p50 ms':>8} {'p95 ms':>8} {'CPU web':>8} {'CPU all':>8} | ours/peer: {'p50':>5} {'p95':>5} {'web':>5} {'all':>5}")
        peer = {k: statistics.median(r[k] for r in rows["peer"]) for k in ("p50", "p95", "web", "all")}
        for how, r in rows.items():
            med = {k: statistics.median(x[k] for x in r) for k in ("p50", "p95", "web", "all")}
            ratios = " ".join(f"{med[k] / peer[k]:5.2f}" for k in ("p50", "p95", "web", "all"))
            print(f"{how:<12} {med['p50']:8.2f} {med['p95']:8.2f} {med['web']:8.2f} {med['all']:8.2f} | {'':>10} {ratios}")
    finally:
        common.stop(server)


if __name__ == "__main__":
    main()
