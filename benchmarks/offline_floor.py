"""Floor tablets back from a Wi-Fi drop: from the reconnection to every queued action answered.

    python benchmarks/offline_floor.py                                  # SQLite, 10 tablets × 20 busts
    python benchmarks/offline_floor.py --database postgres://postgres@127.0.0.1:5432/tdm_offline
    python benchmarks/offline_floor.py --tablets 10 --actions 20 --entries 360 --seed 1

The server is the product's own launcher, ``manage.py serve`` (uvicorn, its embedded Redis, a
Celery worker and beat) on a fresh database: a temporary SQLite one by default, ``--database URL``
for PostgreSQL (dropped and created anew). One event: ``--entries`` paid entries at 9-max sold
through ``/api/v1/cashier/register/``, started through the API (the seat draw).

The drop: each of ``--tablets`` floor tablets (a floor login of its own) covers every tenth table
of the map it saw before the network went, and taps ``--actions`` players out at its tables, one
at a time, in a random order, over a drop of ``--drop`` seconds, which begins once the event runs
(the benchmark waits it out: a tap time from before the start is not believed). Each tap is kept as
``static/floor-queue.js`` keeps it: the body of the table map's form (the player, no stack, the
table he sat at), a new Idempotency-Key and the tap's time (``X-Tapped-At``).

The reconnection: every tablet sends its queue at once, as the queue does — in the order tapped,
one request at a time, each waiting for the answer before the next; a 5xx or
``request_in_progress`` waits 5 s (the queue's retry) and is sent again with the same key.
Printed: the drain (from the reconnection to the last tablet's last answer), each action's wall
time, the server tree's and the database server's CPU per action, the answers (done, refused and
why: a player moved by a table broken by an earlier bust in the queue still goes out, from his new
seat, since he sat at the table tapped when it was tapped), and the check that nothing acted
twice: each tablet's queue sent again
with the same keys (a tablet that lost every answer) gets the first answers back and no bust more
(a refusal is decided again: nothing was done, so the key keeps no answer for it).
"""

import argparse
import datetime as dt
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import api_bust  # noqa: E402
import common  # noqa: E402
from common import pct  # noqa: E402
from imports import start_server  # noqa: E402

RETRY = 5.0  # seconds: the queue's own retry (floor-queue.js, setInterval)


def seed_people(n):
    from tournaments.models import Person

    Person.objects.bulk_create(Person(first_name=f"P{i}", last_name=f"Offline{i}", search_text=f"p{i} offline{i}") for i in range(n))
    return list(Person.objects.order_by("id").values_list("id", flat=True))


def the_map(tid):
    """table number -> the entry ids seated there, as a tablet's map showed it before the drop."""
    from seating.models import Seat

    out = {}
    for table, entry in Seat.objects.filter(tournament_id=tid).values_list("table__number", "entry_id"):
        out.setdefault(table, []).append(entry)
    return out


def queues(tid, tablets, actions, drop, rng, started):
    """Each tablet's queue, in the order tapped: [(key, tapped_at, body)]. The drop began after the
    event started (``started``): a tap from before the start is not believed by the server."""
    seats = the_map(tid)
    tables = sorted(seats)
    now = dt.datetime.now(dt.UTC)
    drop = min(drop, (now - started).total_seconds())
    out = []
    for i in range(tablets):
        mine = [(t, e) for t in tables[i::tablets] for e in seats[t]]
        if len(mine) < actions:
            raise SystemExit(f"tablet {i + 1} covers {len(mine)} players, fewer than {actions}: raise --entries")
        taps = rng.sample(mine, actions)
        q = []
        for k, (table, entry) in enumerate(taps):
            tapped = now - dt.timedelta(seconds=drop * (1 - (k + 1) / (actions + 1)))
            body = {"entries": [{"entry": entry, "starting_stack": None}], "table": table, "same_hand": False}
            q.append((str(uuid.uuid4()), tapped.isoformat(timespec="milliseconds"), body))
        out.append(q)
    return out


def drain(base, token, tid, queue, results):
    """One tablet's queue sent as floor-queue.js sends it: in order, one at a time."""
    path = f"/api/v1/tournaments/{tid}/busts/"
    with api_bust.client(base, token) as c:
        for key, tapped, body in queue:
            t0 = time.perf_counter()
            while True:
                try:
                    r = c.post(path, json=body, headers={"Idempotency-Key": key, "X-Tapped-At": tapped})
                except OSError:
                    r = None
                code = "" if r is None or r.status_code < 400 else r.json().get("code", "")
                if r is None or r.status_code >= 500 or code == "request_in_progress":
                    time.sleep(RETRY)  # no server, or busy: the queue tries again, the same key
                    continue
                break
            results.append((key, time.perf_counter() - t0, r.status_code, code, r.content))


def send_all(base, tokens, tid, qs):
    """Every tablet at once; returns (seconds to the last answer, [(key, seconds, status, code, body)])."""
    results = []
    threads = [threading.Thread(target=drain, args=(base, tokens[i], tid, q, results)) for i, q in enumerate(qs)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, results


def busts_of(tid):
    from django.db import connection

    from seating.models import Bust

    n = Bust.objects.filter(tournament_id=tid).count()
    connection.close()
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--database", default=None, help="postgres://… (dropped and created anew); default: a temporary SQLite")
    ap.add_argument("--tablets", type=int, default=10)
    ap.add_argument("--actions", type=int, default=20, help="busts tapped on each tablet while offline")
    ap.add_argument("--entries", type=int, default=360, help="paid entries of the event, at 9-max")
    ap.add_argument("--drop", type=float, default=120.0, help="seconds the network was gone (the taps' times spread over it)")
    ap.add_argument("--seed", type=int, default=1, help="which players, in which order")
    ap.add_argument("--port", type=int, default=8793)
    args = ap.parse_args()

    os.environ.pop("REDIS_URL", None)  # serve starts its embedded Redis, as on one machine
    os.environ["TDM_VAR_DIR"] = tempfile.mkdtemp(prefix="tdm-offline-")
    common.prepare_database(args.database or "sqlite", "tdm_offline_floor")
    from django.db import connection

    _d, director_token = api_bust.make_user("bench-director", "director")
    _c, cashier_token = api_bust.make_user("bench-cashier", "cashier")
    tokens = [api_bust.make_user(f"tablet{i + 1}", "floor")[1] for i in range(args.tablets)]
    people = seed_people(args.entries)
    tid = api_bust.new_tournament("Offline floor")
    connection.close()

    server = start_server(args.port)
    base = f"http://127.0.0.1:{args.port}"
    try:
        api_bust.register_and_start(base, cashier_token, director_token, tid, people)
        started = dt.datetime.now(dt.UTC)
        time.sleep(args.drop)  # the drop, once the event runs: its taps are after the start (a tap before it is not believed)
        qs = queues(tid, args.tablets, args.actions, args.drop, random.Random(args.seed), started)
        connection.close()
        n = sum(len(q) for q in qs)
        db = "PostgreSQL" if args.database else "SQLite"
        print(f"{db}, manage.py serve (web, worker, beat, embedded Redis); machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
        print(
            f"{args.entries} entries at {api_bust.TABLE_SIZE}-max; {args.tablets} tablets × {args.actions} busts queued over a {args.drop:.0f} s drop, "
            "sent at the reconnection: tablets at once, each in order"
        )

        with common.Timed(server.pid) as cpu:
            wall, results = send_all(base, tokens, tid, qs)
        times = [r[1] * 1000 for r in results]
        answers = Counter("done" if r[2] < 400 else f"{r[2]} {r[3]}" for r in results)
        done = answers["done"]
        print(f"drained in {wall:.2f} s: {n} actions, {n / wall:.1f} a second")
        print(
            f"  each action: p50 {statistics.median(times):.1f} ms, p95 {pct(times, 95):.1f} ms, max {max(times):.1f} ms (the wait for the event's lock included)"
        )
        dbcpu = f"database server {cpu.svc / n * 1000:.1f} ms" if args.database else "SQLite works inside the web process"
        print(f"  CPU per action: server tree {cpu.web / n * 1000:.1f} ms ({dbcpu})")
        print("  answers: " + ", ".join(f"{k} {v}" for k, v in answers.most_common()))
        stood = busts_of(tid)
        if stood != done:
            raise SystemExit(f"{done} busts answered done, {stood} recorded")

        # A done answer is kept with its key: the repeat gets it back. A refusal is not (nothing
        # was done): the repeat is decided again, and refused again, where the player sits now.
        # (compared as JSON: PostgreSQL keeps an answer as jsonb, its keys in its own order)
        first = {r[0]: (r[2], json.loads(r[4])) for r in results}
        with common.Timed(server.pid) as again_cpu:
            again_wall, again = send_all(base, tokens, tid, qs)
        same = sum(1 for r in again if first[r[0]][0] < 400 and (r[2], json.loads(r[4])) == first[r[0]])
        still_refused = sum(1 for r in again if first[r[0]][0] >= 400 and r[2] >= 400)
        after = busts_of(tid)
        print(
            f"every queue sent again, same keys: {again_wall:.2f} s, {again_cpu.web / n * 1000:.1f} ms server CPU an action; "
            f"{same} of {done} done answers the first ones, {still_refused} of {n - done} refusals refused again; busts recorded {stood} → {after}"
        )
        if after != stood or same != done or still_refused != n - done:
            raise SystemExit("a repeat acted again, or answered otherwise")
    finally:
        common.stop(server, timeout=25)
        try:  # anything of the launcher's that outlived it (its session is its own)
            os.killpg(server.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


if __name__ == "__main__":
    main()
