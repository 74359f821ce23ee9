"""What one API request costs the web process: CPU time, SQL queries and Redis round trips.

    python benchmarks/request_cost.py                       # PostgreSQL database tdm_bench_request_cost on 127.0.0.1 (created if missing)
    DATABASE_URL=sqlite python benchmarks/request_cost.py   # the embedded SQLite default
    REDIS_URL=redis://127.0.0.1:6379/10 python benchmarks/request_cost.py   # with Redis (cache, publishes)

The product's own ASGI app (``tdmanager.asgi.application``) is driven in this process, without a
socket, so the figures are the server's own work and not the machine's load (a
shared machine makes wall-clock figures over HTTP noisy). Measured per request: CPU time of the
whole process (``time.process_time``: the event loop and the pool thread that served it),
queries (every statement the database backends execute) and Redis commands sent (a pipeline
counts once: one round trip).

Requests: an authenticated GET of the open slips (``…/moves/``, the trivial GET of
``api_bust.py``), ``GET cashier/shift/``, a bust (``POST …/busts/``) and the confirmations of
the slips it made (``POST …/moves/<id>/confirm/``), a floor person's token on each.

Three servings in the same run, each on its own tournament (100 paid entries at 9-max, 91
busts with their confirmations):

- ``served``: as the product serves (sync views on TDM_WEB_THREADS pool threads through
  Django's WSGI handler; each pool thread keeps its connection, TDM_WEB_DB_KEEP);
- ``served, new connection``: the same with a new database connection (from the pool on PostgreSQL) per
  request (TDM_WEB_DB_KEEP=0, the serving of before);
- ``Django ASGI``: every request through Django's own ASGI handler (TDM_WEB_THREADS=0).

``--before COMMIT`` (e.g. b08e78e, before the thread pool) first measures that commit's code the
same way, in a temporary git worktree removed afterwards, so both sets of figures come from
one run on one machine.
"""

import argparse
import asyncio
import itertools
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT.parent))

import api_bust  # noqa: E402  (the same tournament, players and choice of busts)

COUNTS = {"queries": 0, "redis": 0}


def count_io():
    """Count every SQL statement and every Redis send (a pipeline's one send is one round trip)."""
    from django.db.backends import utils
    from redis import connection as redis_connection

    execute = utils.CursorWrapper._execute_with_wrappers

    def counted_execute(self, *args, **kwargs):
        COUNTS["queries"] += 1
        return execute(self, *args, **kwargs)

    utils.CursorWrapper._execute_with_wrappers = counted_execute
    send = redis_connection.AbstractConnection.send_packed_command

    def counted_send(self, *args, **kwargs):
        COUNTS["redis"] += 1
        return send(self, *args, **kwargs)

    redis_connection.AbstractConnection.send_packed_command = counted_send


class Driver:
    """One ASGI HTTP request at a time into the app, on one event loop."""

    def __init__(self, app, token):
        self.app = app
        self.token = token.encode()
        self.loop = asyncio.new_event_loop()
        self.port = itertools.count(40000)

    def request(self, method, path, data=None, extra=()):
        body = json.dumps(data).encode() if data is not None else b""
        headers = [(b"host", b"localhost"), (b"authorization", b"Token " + self.token), (b"accept", b"application/json"), *extra]
        if data is not None:
            headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": b"",
            "headers": headers,
            "client": ("127.0.0.1", next(self.port)),
            "server": ("localhost", 80),
        }
        sent = []
        received = False

        async def receive():
            nonlocal received
            if not received:
                received = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.Event().wait()  # the client stays until the answer is sent

        async def send(message):
            sent.append(message)

        self.loop.run_until_complete(self.app(scope, receive, send))
        status = next(m["status"] for m in sent if m["type"] == "http.response.start")
        content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        if status not in (200, 201):
            raise SystemExit(f"{method} {path} -> {status}: {content[:500]!r}")
        return json.loads(content) if content else None

    def measured(self, into, method, path, data=None):
        q, r = COUNTS["queries"], COUNTS["redis"]
        t0 = time.process_time()
        answer = self.request(method, path, data)
        into.append((time.process_time() - t0, COUNTS["queries"] - q, COUNTS["redis"] - r))
        return answer


def run(driver, cashier, director, tid, people, numbers, gets):
    """Register and start (not measured), then the measured GETs, busts and confirmations."""
    from django.db import connections

    for pid in people:
        cashier.request(
            "POST", "/api/v1/cashier/register/", {"tournament": tid, "person": pid, "method": "CASH"}, extra=[(b"idempotency-key", str(uuid.uuid4()).encode())]
        )
    director.request("POST", f"/api/v1/tournaments/{tid}/start/", {"prestart_report_sent": True})
    by_number = api_bust.entries_by_number(tid)
    connections.close_all()  # the main thread's own (setup) connection is not the server's
    out = {"GET …/moves/": [], "GET cashier/shift/": [], "POST …/busts/": [], "POST …/confirm/": []}
    for _ in range(5):  # warm: the pool threads' first connection, the URL caches
        driver.request("GET", f"/api/v1/tournaments/{tid}/moves/")
    for _ in range(gets):
        driver.measured(out["GET …/moves/"], "GET", f"/api/v1/tournaments/{tid}/moves/")
    for _ in range(gets):
        cashier.measured(out["GET cashier/shift/"], "GET", "/api/v1/cashier/shift/")
    for n in numbers:
        data = driver.measured(out["POST …/busts/"], "POST", f"/api/v1/tournaments/{tid}/busts/", {"entries": [{"entry": by_number[n]}]})
        while data["moves"]:
            data = driver.measured(out["POST …/confirm/"], "POST", f"/api/v1/tournaments/{tid}/moves/{data['moves'][0]['id']}/confirm/", {})
    return out


def measure_before(args):
    """This script (and api_bust.py) run against ``args.before``'s code in a worktree."""
    import shutil
    import subprocess
    import tempfile

    where = Path(tempfile.mkdtemp(prefix="tdm-before-")) / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(where), args.before], cwd=ROOT.parent, check=True)
    try:
        for name in ("request_cost.py", "api_bust.py"):
            shutil.copy(ROOT / name, where / "benchmarks" / name)
        database = args.database if args.database == "sqlite" else args.database + "_before"
        command = [sys.executable, "benchmarks/request_cost.py", "--database", database, "--gets", str(args.gets), "--seed", str(args.seed)]
        print(f"--- before: {args.before}", flush=True)
        subprocess.run(command, cwd=where, check=True)
        print("--- now", flush=True)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT.parent, check=False)
        shutil.rmtree(where.parent, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--database", default=os.getenv("DATABASE_URL"), help="sqlite, or a PostgreSQL URL")
    ap.add_argument("--gets", type=int, default=200, help="GETs measured per serving")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--before", metavar="COMMIT", help="first measure this commit's code (a temporary worktree)")
    args = ap.parse_args()
    if args.database != "sqlite":
        args.database = args.database or "postgres://postgres@127.0.0.1:5432/tdm_bench_request_cost"
    if args.before:
        measure_before(args)
    api_bust.prepare_database(args.database)
    from django.conf import settings
    from django.db import connection

    count_io()
    from tdmanager.asgi import application

    engine = connection.vendor
    _d, director_token = api_bust.make_user("bench-director", "director")
    _c, cashier_token = api_bust.make_user("bench-cashier", "cashier")
    _f, floor_token = api_bust.make_user("bench-floor", "floor")
    people = api_bust.seed_people()
    numbers = api_bust.choices(args.seed)
    db = settings.DATABASES["default"]
    keep = getattr(settings, "TDM_WEB_DB_KEEP", getattr(settings, "TDM_WEB_SQLITE_KEEP", None))  # None: a version of before (a worktree)
    pool = getattr(application, "pool", None)
    # The serving of before first: the pool threads' connections of "served" are kept.
    servings = [("served, new connection", pool, 0), ("served", pool, keep), ("Django ASGI", None, 0)]
    import subprocess

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT.parent, capture_output=True, text=True).stdout.strip()
    print(f"code: {ROOT.parent} at {commit or '?'} (plus any uncommitted changes)")
    print(
        f"database: {engine} (CONN_MAX_AGE {db.get('CONN_MAX_AGE', 0)}, pool {'on' if 'pool' in db.get('OPTIONS', {}) else 'off'}, "
        f"TDM_WEB_DB_KEEP {keep}); Redis: {'REDIS_URL' if settings.REDIS_URL else 'none (local cache)'}; "
        f"TDM_WEB_THREADS {getattr(settings, 'TDM_WEB_THREADS', '-')}; per request: CPU ms of the process (p50, mean), queries, Redis round trips (mean)"
    )
    if not hasattr(application, "pool"):  # a version of before whose app is Django's ASGI handler (a worktree)
        servings = [("Django ASGI", None, 0)]
    results = {}
    for name, executor, conn_keep in servings:
        if name == "served, new connection" and keep is None:
            continue  # a version of before, which has no setting
        if hasattr(application, "pool"):
            application.pool = executor
        settings.TDM_WEB_DB_KEEP = settings.TDM_WEB_SQLITE_KEEP = conn_keep
        tid = api_bust.new_tournament(f"Cost {name}")
        connection.close()
        results[name] = run(
            Driver(application, floor_token), Driver(application, cashier_token), Driver(application, director_token), tid, people, numbers, args.gets
        )
    if hasattr(application, "pool"):
        application.pool = pool
    settings.TDM_WEB_DB_KEEP = settings.TDM_WEB_SQLITE_KEEP = keep
    kinds = next(iter(results.values())).keys()
    for kind in kinds:
        print(kind)
        for name, out in results.items():
            rows = out[kind]
            cpu = [r[0] * 1000 for r in rows]
            print(
                f"  {name:<24} CPU p50 {statistics.median(cpu):6.2f} ms  mean {statistics.mean(cpu):6.2f} ms   "
                f"queries {statistics.mean(r[1] for r in rows):5.1f}   Redis {statistics.mean(r[2] for r in rows):4.1f}   ({len(rows)} requests)"
            )
    if pool is not None:
        pool.shutdown(wait=True)


if __name__ == "__main__":
    main()
