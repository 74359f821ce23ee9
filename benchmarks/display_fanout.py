"""500 live display clients on one web process: delay from a director's action to each client,
and the skew of the displayed clock between clients.

    python benchmarks/display_fanout.py [--clients 500] [--actions 10]

Runs on the embedded default (a temporary SQLite database and an embedded Redis) unless
DATABASE_URL / REDIS_URL are set. One uvicorn process serves every client over SSE. Each client
measures its offset to the server clock the way the browsers do (five time pings, smallest round
trip) and counts down from ``ends_at``. The baseline, in the same run, is the delay seen by a
single client.
"""

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def setup_django():
    if not os.getenv("DATABASE_URL"):
        os.environ["TDM_VAR_DIR"] = tempfile.mkdtemp(prefix="tdm-fanout-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


async def http_get(port, path):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    data = await reader.read()
    writer.close()
    return data.split(b"\r\n\r\n", 1)[1]


class Client:
    def __init__(self, port, tid, token):
        self.port, self.tid, self.token = port, tid, token
        self.offset = 0.0
        self.received = []  # (seq, perf_counter)
        self.snap = None
        self.ready = asyncio.Event()

    async def measure_offset(self):
        best = None
        for _ in range(5):
            t0 = time.time()
            body = await http_get(self.port, "/live/time/")
            t1 = time.time()
            epoch = json.loads(body)["epoch_ms"] / 1000
            if best is None or t1 - t0 < best[0]:
                best = (t1 - t0, epoch - (t0 + t1) / 2)
        self.offset = best[1]

    async def run(self):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=2 ** 20)
        writer.write(f"GET /live/{self.tid}/stream/?token={self.token} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
        buf = b""
        try:
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    return
                buf += chunk
                while b"\n\n" in buf:
                    block, buf = buf.split(b"\n\n", 1)
                    for line in block.split(b"\n"):
                        # chunked transfer encoding puts size lines between events: skip them
                        if line.startswith(b"data: "):
                            self.snap = json.loads(line[6:])
                            self.received.append((self.snap["seq"], time.perf_counter()))
                            self.ready.set()
        finally:
            writer.close()

    def displayed_seconds_left(self, at_local):
        c = self.snap["clock"]
        ends = datetime.fromisoformat(c["ends_at"]).timestamp()
        return ends - (at_local + self.offset)


async def measure(port, tid, token, n_clients, actions, act):
    clients = [Client(port, tid, token) for _ in range(n_clients)]
    # Real displays are separate machines; here they share one event loop, so ping in small
    # batches to keep this process's own scheduling out of the round-trip measurements.
    for i in range(0, n_clients, 5):
        await asyncio.gather(*(c.measure_offset() for c in clients[i:i + 5]))
    tasks = [asyncio.create_task(c.run()) for c in clients]
    await asyncio.wait_for(asyncio.gather(*(c.ready.wait() for c in clients)), 60)
    delays = []
    for _ in range(actions):
        await asyncio.sleep(1.0)
        t0 = time.perf_counter()
        seq = await asyncio.to_thread(act)
        deadline = time.perf_counter() + 10
        while time.perf_counter() < deadline and not all(any(s >= seq for s, _ in c.received) for c in clients):
            await asyncio.sleep(0.005)
        for c in clients:
            got = [t for s, t in c.received if s >= seq]
            if got:
                delays.append(got[0] - t0)
    await asyncio.sleep(0.5)
    now = time.time()
    shown = [c.displayed_seconds_left(now) for c in clients]
    for t in tasks:
        t.cancel()
    return delays, max(shown) - min(shown), len(clients)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=500)
    ap.add_argument("--actions", type=int, default=10)
    ap.add_argument("--port", type=int, default=8798)
    args = ap.parse_args()
    setup_django()
    from decimal import Decimal

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.utils import timezone

    from tdmanager import realtime
    from tournaments.models import DisplayScreen, Tournament
    from tournaments.services import clockctl, lifecycle
    from tournaments.services.events import Actor
    from tournaments.services.structures import ensure_builtin_structures

    redis_proc = None
    if not settings.REDIS_URL:
        from tdmanager.management.commands.serve import free_port, start_embedded_redis

        rport = free_port(6391)
        redis_proc = start_embedded_redis(Path(tempfile.mkdtemp()), rport)
        settings.REDIS_URL = f"redis://127.0.0.1:{rport}/0"
        realtime._client = None
    director = User.objects.create_user("bench-director", password="x", is_superuser=True)
    actor = Actor(director, "bench")
    st = next(s for s in ensure_builtin_structures() if s.name.startswith("Regular"))
    t = Tournament.objects.create(name="Fan-out", start_at=timezone.now(), buy_in=Decimal(100), starting_stack=30000,
                                  structure=st, status=Tournament.REGISTERING, min_players=0)
    lifecycle.start(t, actor=actor)
    clockctl.start_clock(t, actor=actor)
    DisplayScreen.objects.create(name="bench", tournament=t, token="bench-token")
    from django.db import connection

    env = dict(os.environ)
    env["REDIS_URL"] = settings.REDIS_URL
    env["TDM_ARM_CLOCK_TASKS"] = "false"
    if connection.vendor == "sqlite":
        env["TDM_SQLITE_PATH"] = str(connection.settings_dict["NAME"])
    web = subprocess.Popen([sys.executable, "-m", "uvicorn", "tdmanager.asgi:application", "--port", str(args.port),
                            "--log-level", "warning", "--backlog", "2048"], cwd=ROOT, env=env)
    try:
        import httpx

        for _ in range(200):
            try:
                httpx.get(f"http://127.0.0.1:{args.port}/live/time/", timeout=0.5)
                break
            except httpx.TransportError:
                time.sleep(0.1)

        def act():
            clockctl.add_time(t, 1, actor=actor, reason="bench")
            return t.events.order_by("-id").values_list("id", flat=True).first()

        base_delays, _skew1, _ = asyncio.run(measure(args.port, t.pk, "bench-token", 1, args.actions, act))
        delays, skew, n = asyncio.run(measure(args.port, t.pk, "bench-token", args.clients, args.actions, act))
        ms = [d * 1000 for d in delays]
        bms = [d * 1000 for d in base_delays]
        print(f"database: {connection.vendor}; one web process; {n} SSE clients; {args.actions} director actions")
        print(f"baseline (1 client):  p50 {statistics.median(bms):6.1f} ms  p99 {pct(bms, 99):6.1f} ms  max {max(bms):6.1f} ms")
        print(f"{n} clients:          p50 {statistics.median(ms):6.1f} ms  p99 {pct(ms, 99):6.1f} ms  max {max(ms):6.1f} ms  "
              f"(deliveries {len(ms)} of {n * args.actions})")
        print(f"ratio p99 / baseline p99: {pct(ms, 99) / pct(bms, 99):.1f}x")
        print(f"skew of the displayed clock between clients: {skew * 1000:.1f} ms")
    finally:
        web.terminate()
        web.wait(10)
        if redis_proc:
            redis_proc.terminate()


if __name__ == "__main__":
    main()
