"""Live screens of a big running event on one web process: 500 SSE displays, busts and director
actions, cashier sales in the same run, then every display dropping and reconnecting at once.

    python benchmarks/display_fanout.py                    # 10,000 entries, 500 clients, 60 s
    python benchmarks/display_fanout.py --quick            # 1,000 entries, 100 clients, 15 s
    python benchmarks/display_fanout.py --players 5000 --clients 300 --seconds 30
    DATABASE_URL=postgres://... REDIS_URL=redis://... python benchmarks/display_fanout.py

Runs on a temporary SQLite database and an embedded Redis unless DATABASE_URL / REDIS_URL are
set (the PostgreSQL database must exist; it is migrated). Setup (not timed): N people and N paid
entries written in bulk, the real start (every seat drawn), the clock started. One uvicorn
process serves every display over SSE; this process plays the floor and the director (busts at
--bust-rate per second, each slip confirmed, plus --actions director actions: pause, resume,
time added, level jumps) and two cashier desks selling late entries (--sales-rate per second in
all), all through the web process's HTTP API, as a floor tablet, the clock page and a desk do.

The floor confirms a break's slips (drawn and applied at once) together and a balancing move on
its own, as the floor's page does. It used to act through the services in
this process (``--floor inprocess``, kept to compare): a second process writing the same
database, whose busts ran beside the displays' event loop (one GIL), whose seat map cache the
web process's sales invalidated at every turn (each side read the 10,000 seats again), and
which confirmed every open slip in one call: when confirming one balancing move replanned the
next, the call was refused (409) and tried again up to ten times, each attempt holding the
write lock 50-250 ms. That was most of the 1.2 s p99 with a single display.

Each display measures its offset to the server clock as the browsers do (five time pings,
smallest round trip) and counts down from ``ends_at``. It reads ``seq`` (the last event-log row a
snapshot carries) from each frame without parsing the rest.

Figures, each printed beside its baseline measured in the same run, on the same server, with
the same workload but one display (phase 1): delay from an action to each display (p50, p99),
the skew of the displayed clock between displays (baseline: the one display's error against
the server's clock), the cashier's p95, and after all displays drop at once, the time until
every one is back on the newest state, with how many snapshot builds served them.

It also prints the CPU each phase cost the web process and this one (the displays, the floor,
the desks; from /proc and ``time.process_time``) beside the wall time, so a figure taken on a
busy machine can be told apart from a slow server: the 500 displays cost this process about 3 %
of a core in the load phase, the client is not what the cores are short
of. ``--py-spy DIR`` records the web process meanwhile (py-spy ``--nonblocking``, 50 Hz).
"""

import argparse
import asyncio
import gc
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import body_chunks, pct  # noqa: E402

SEQ = re.compile(rb'"seq": (\d+)')
SERVER_TIME = re.compile(rb'"server_time": "([^"]+)"')


def setup_django():
    if not os.getenv("DATABASE_URL"):
        os.environ["TDM_VAR_DIR"] = tempfile.mkdtemp(prefix="tdm-fanout-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# --- the displays -------------------------------------------------------------------------


async def http_get(port, path):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    data = await reader.read()
    writer.close()
    return data.split(b"\r\n\r\n", 1)[1]


class Display:
    """One SSE display: every frame's ``seq`` and arrival time, the last frame kept whole."""

    def __init__(self, port, tid, token):
        self.port, self.tid, self.token = port, tid, token
        self.offset = 0.0
        self.received = []  # (seq, perf_counter, server_time)
        self.last = b""
        self.ready = asyncio.Event()
        self.task = None
        self.writer = None

    async def measure_offset(self):
        import json

        best = None
        for _ in range(5):
            t0 = time.time()
            body = await http_get(self.port, "/live/time/")
            t1 = time.time()
            epoch = json.loads(body)["epoch_ms"] / 1000
            if best is None or t1 - t0 < best[0]:
                best = (t1 - t0, epoch - (t0 + t1) / 2)
        self.offset = best[1]

    def connect(self):
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self.run())

    async def run(self):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=2**20)
        self.writer = writer
        writer.write(f"GET /live/{self.tid}/stream/?token={self.token} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        head = (await reader.readuntil(b"\r\n\r\n")).lower()
        parts = []
        try:
            async for chunk in body_chunks(reader, b"transfer-encoding: chunked" in head):
                parts.append(chunk)
                if not chunk.endswith(b"\n\n"):
                    continue  # a frame goes out in pieces of 64 KiB: the last one ends it
                frame = b"".join(parts) if len(parts) > 1 else chunk
                parts = []
                at = frame.find(b"\ndata: ")
                if at < 0:
                    continue  # a keep-alive comment
                m = SEQ.search(frame, at, at + 4000) or SEQ.search(frame, at)
                st = SERVER_TIME.search(frame, at, at + 4000) or SERVER_TIME.search(frame, at)
                self.received.append((int(m.group(1)), time.perf_counter(), st.group(1) if st else b""))
                self.last = frame
                self.ready.set()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    def drop(self):
        if self.writer is not None:
            self.writer.transport.abort()  # the network goes away: no goodbye
        if self.task is not None:
            self.task.cancel()

    def snapshot(self):
        import json

        at = self.last.find(b"\ndata: ")
        return json.loads(self.last[at + 7 : self.last.index(b"\n", at + 7)])

    def shown_seconds_left(self, at_local):
        c = self.snapshot()["clock"]
        return datetime.fromisoformat(c["ends_at"]).timestamp() - (at_local + self.offset)

    def first_at_or_after(self, seq, since=0.0):
        for s, t, _st in self.received:
            if s >= seq and t >= since:
                return t
        return None


async def connect_all(displays, timeout=60):
    for d in displays:
        d.connect()
    await asyncio.wait_for(asyncio.gather(*(d.ready.wait() for d in displays)), timeout)


async def wait_all_on(displays, seq, since=0.0, timeout=15.0):
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if all(d.first_at_or_after(seq, since) is not None for d in displays):
            return True
        await asyncio.sleep(0.005)
    return False


# --- the floor, the director and the desks ------------------------------------------------


class Event:
    """The running tournament and the people acting on it, through the HTTP API of the web
    process (``floor="inprocess"``: the floor and the director through the services in this
    process, as the benchmark once did)."""

    def __init__(self, players, base, floor="api"):
        self.players, self.base, self.floor = players, base, floor
        self.rng = random.Random(5)
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="floor")  # one connection for the floor
        self.client = None  # the floor's and the director's keep-alive connection (--floor api)
        self.refused = []  # codes of the confirmations refused (409) and tried again

    def setup(self, sales_people, max_displays):
        from decimal import Decimal

        from django.contrib.auth.models import Group, User
        from django.utils import timezone

        from seating.models import Seat
        from tournaments.clock import services as clock_services
        from tournaments.eventlog.services import Actor
        from tournaments.models import DisplayScreen, Entry, Person, Tournament
        from tournaments.setup import lifecycle
        from tournaments.staff.logins import issue_token
        from tournaments.structures.services import ensure_builtin_structures

        stamp = uuid.uuid4().hex[:8]
        self.director = User.objects.create_user(f"bench-director-{stamp}", password="x", is_superuser=True)
        desk = User.objects.create_user(f"bench-cashier-{stamp}", password="x")
        desk.groups.add(Group.objects.get(name="cashier"))
        self.cashier_token = issue_token(desk, device="benchmark")[1]
        self.actor = Actor(self.director, "bench")
        self.director_token = issue_token(self.director, device="benchmark")[1]
        st = next(s for s in ensure_builtin_structures() if s.name.startswith("Regular"))
        t = Tournament.objects.create(
            name=f"Fan-out {self.players}",
            start_at=timezone.now(),
            buy_in=Decimal(100),
            fee=Decimal(10),
            starting_stack=30000,
            table_size=9,
            structure=st,
            status=Tournament.REGISTERING,
            min_players=2,
            late_reg_closes_after_level=12,
        )
        people = Person.objects.bulk_create(
            [Person(first_name=f"Fan{i:05d}", last_name=f"T{t.pk}", search_text=f"fan{i:05d} t{t.pk} {stamp}") for i in range(1, self.players + 1)],
            batch_size=2000,
        )
        Entry.objects.bulk_create(
            [Entry(tournament=t, person=p, number=i, status=Entry.ACTIVE, chips=t.starting_stack) for i, p in enumerate(people, 1)], batch_size=2000
        )
        lifecycle.start(t, actor=self.actor)
        clock_services.start_clock(t, actor=self.actor)
        self.alive = list(Seat.objects.filter(tournament=t).values_list("entry_id", flat=True))
        self.sale_people = iter(
            Person.objects.bulk_create(
                [Person(first_name=f"Late{i:04d}", last_name=f"T{t.pk}", search_text=f"late{i:04d} t{t.pk} {stamp}") for i in range(sales_people)]
            )
        )
        # One screen (one token) per display, as in a room: a lobby screen's token may hold only
        # TDM_STREAMS_PER_TOKEN streams at once, so 500 displays on one token would be refused.
        self.tokens = [f"bench-{stamp}-{i}" for i in range(max_displays)]
        DisplayScreen.objects.bulk_create([DisplayScreen(name=f"bench {i}", tournament=t, token=tok) for i, tok in enumerate(self.tokens)])
        self.t = t
        self.level = 0

    def _last_seq(self):
        from tournaments.models import TournamentEvent

        return TournamentEvent.objects.filter(tournament_id=self.t.pk, actor=self.director).order_by("-id").values_list("id", flat=True).first()

    def newest_seq(self):
        from tournaments.models import TournamentEvent

        return TournamentEvent.objects.filter(tournament_id=self.t.pk).order_by("-id").values_list("id", flat=True).first()

    def api(self, path, body):
        """POST through the web process's API as the floor's tablet and the director's page do."""
        from common import Client

        if self.client is None:
            self.client = Client(self.base, headers={"Authorization": f"Token {self.director_token}"})
        r = self.client.post(f"/api/v1/tournaments/{self.t.pk}/{path}", json=body)
        return r.status_code, (r.json() if r.content else {})

    def bust(self):
        i = self.rng.randrange(len(self.alive))
        entry = self.alive[i]
        self.alive[i] = self.alive[-1]
        self.alive.pop()
        if self.floor == "api":
            return self._bust_api(entry)
        return self._bust_inprocess(entry)

    def _bust_api(self, entry):
        """The player out, then every slip confirmed as a floor tablet does: the slips of a break
        (or of the final table), drawn and applied at once, together in one call; a balancing
        move on its own (confirming one may replan the next, which the next call then shows)."""
        status, data = self.api("busts/", {"entries": [{"entry": entry}]})
        if status != 201:
            raise RuntimeError(f"bust refused: {status} {data}")
        for _ in range(20):
            moves = data.get("moves", ())
            if not moves:
                break
            drawn = [m["id"] for m in moves if m["applied"]]
            if len(drawn) > 1:
                status, data = self.api("moves/confirm/", {"moves": drawn})
            else:
                status, data = self.api(f"moves/{moves[0]['id']}/confirm/", {})
            if status == 409:  # replanned meanwhile (a late entry seated): confirm what is open now
                self.refused.append(data.get("code", "?"))
                data = {"moves": self.client.get(f"/api/v1/tournaments/{self.t.pk}/moves/").json()}
            elif status >= 300:
                raise RuntimeError(f"confirm refused: {status} {data}")
        return self._last_seq()

    def _bust_inprocess(self, entry):
        from seating import services as seating
        from seating.models import PendingMove

        out = seating.record_bust(self.t, [{"entry": entry}], actor=self.actor)
        slips = list(out.slips) + list(out.proposed)
        for _ in range(10):  # the floor confirms every slip, as simulate_tournament does
            if not slips:
                break
            try:
                seating.confirm_moves(self.t, [s.pk for s in slips], actor=self.actor)
            except seating.SeatingActionError:
                pass  # a late entry seated meanwhile replanned the moves: confirm the new ones
            else:
                if all(s.applied for s in slips):
                    break
            slips = list(PendingMove.objects.filter(tournament=self.t, status=PendingMove.PROPOSED))
        return self._last_seq()

    def direct(self, n):
        """The n-th director action of a cycle that leaves the clock running."""
        if self.floor == "api":
            op, body = [
                ("pause", {}),
                ("resume", {}),
                ("add-time", {"seconds": 60}),
                ("jump", {"item_index": 1}),
                ("set-time", {"seconds": 1100}),
                ("jump", {"item_index": 0}),
            ][n % 6]
            status, data = self.api(f"clock/{op}/", {**body, "reason": "bench"})
            if status >= 300:
                raise RuntimeError(f"clock {op} refused: {status} {data}")
            return self._last_seq()
        from tournaments.clock import services as clock_services

        t, a = self.t, self.actor
        steps = [
            lambda: clock_services.pause(t, actor=a, reason="bench"),
            lambda: clock_services.resume(t, actor=a, reason="bench"),
            lambda: clock_services.add_time(t, 60, actor=a, reason="bench"),
            lambda: clock_services.jump_to(t, 1, actor=a, reason="bench"),
            lambda: clock_services.set_time_left(t, 1100, actor=a, reason="bench"),
            lambda: clock_services.jump_to(t, 0, actor=a, reason="bench"),
        ]
        steps[n % len(steps)]()
        return self._last_seq()

    def timeline(self, seconds, bust_rate, actions):
        """(at, kind, n) for the floor: busts every 1/bust_rate s, director actions evenly between."""
        items = [(i / bust_rate, "bust", i) for i in range(int(seconds * bust_rate))]
        items += [((k + 0.5) * seconds / max(1, actions) + 0.25 / bust_rate, "director", k) for k in range(actions)]
        return sorted(items)

    async def play(self, seconds, bust_rate, actions):
        """Run the timeline; return [(kind, t0, seq, service seconds)]."""
        loop = asyncio.get_running_loop()
        start = time.perf_counter()
        done = []
        for at, kind, n in self.timeline(seconds, bust_rate, actions):
            wait = start + at - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            t0 = time.perf_counter()
            seq = await loop.run_in_executor(self.pool, self.bust if kind == "bust" else self.direct, *(() if kind == "bust" else (n,)))
            done.append((kind, t0, seq, time.perf_counter() - t0))
        return done

    def sell(self, seconds, rate, desks=2):
        """Cashier desks selling late entries through the API at ``rate`` per second in all."""
        import httpx

        latencies, errors = [], []
        lock = threading.Lock()

        def desk(k):
            with httpx.Client(base_url=self.base, headers={"Authorization": f"Token {self.cashier_token}"}, timeout=30) as c:
                start = time.perf_counter()
                for i in range(int(seconds * rate / desks)):
                    wait = start + (i + k / desks) * desks / rate - time.perf_counter()
                    if wait > 0:
                        time.sleep(wait)
                    with lock:
                        person = next(self.sale_people)
                    t0 = time.perf_counter()
                    r = c.post(
                        "/api/v1/cashier/register/",
                        json={"tournament": self.t.pk, "person": person.pk, "method": "CASH"},
                        headers={"Idempotency-Key": str(uuid.uuid4())},
                    )
                    with lock:
                        latencies.append(time.perf_counter() - t0)
                        if r.status_code >= 300:
                            errors.append((r.status_code, r.text[:200]))

        threads = [threading.Thread(target=desk, args=(k,)) for k in range(desks)]
        for th in threads:
            th.start()
        return threads, latencies, errors


# --- one phase --------------------------------------------------------------------------


def cpu_of(pid):
    """Seconds of CPU (user + system) the process ``pid`` has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Cpu:
    """CPU seconds used by the web process and by this one (the displays, the floor, the desks)
    between ``start()`` and ``stop()``, beside the wall time; with ``spy`` (a folder), py-spy
    records the web process meanwhile (``--nonblocking``, 50 samples a second) into
    ``<spy>/<name>.txt`` (collapsed stacks)."""

    spy = None

    def __init__(self, web_pid):
        self.web_pid = web_pid
        self.recorder = None

    def start(self, name=""):
        if self.spy and name:
            self.recorder = subprocess.Popen(
                [
                    shutil.which("py-spy", path=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}") or "py-spy",
                    "record",
                    "--nonblocking",
                    "-r",
                    "50",
                    "-f",
                    "raw",
                    "-p",
                    str(self.web_pid),
                    "-o",
                    f"{self.spy}/{name}.txt",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        self.t0, self.web0, self.me0 = time.perf_counter(), cpu_of(self.web_pid), time.process_time()

    def stop(self):
        used = {"wall": time.perf_counter() - self.t0, "web": cpu_of(self.web_pid) - self.web0, "bench": time.process_time() - self.me0}
        if self.recorder is not None:
            self.recorder.send_signal(signal.SIGINT)
            self.recorder.wait(30)
            self.recorder = None
        return used


async def phase(event, port, n_displays, seconds, bust_rate, actions, sales_rate, web_pid):
    """One run of the workload with ``n_displays``. This process plays 500 screens that are
    separate machines in a card room: it does not run the cycle collector while it times frames
    (a full pass over its 500 displays' objects took 80-100 ms here, and every display's clock
    stood still meanwhile: a pause of the benchmark, not of the server)."""
    gc.collect()
    gc.disable()
    try:
        return await _phase(event, port, n_displays, seconds, bust_rate, actions, sales_rate, web_pid)
    finally:
        gc.enable()
        gc.collect()


async def _phase(event, port, n_displays, seconds, bust_rate, actions, sales_rate, web_pid):
    cpu = Cpu(web_pid)
    displays = [Display(port, event.t.pk, token) for token in event.tokens[:n_displays]]
    # Real displays are separate machines; here they share one event loop, so ping in small
    # batches to keep this process's own scheduling out of the round-trip measurements.
    for i in range(0, n_displays, 5):
        await asyncio.gather(*(d.measure_offset() for d in displays[i : i + 5]))
    await connect_all(displays)
    first_seq = await asyncio.to_thread(event.newest_seq)
    cpu.start(f"load-{n_displays}")
    threads, sales, sale_errors = event.sell(seconds, sales_rate)
    acted = await event.play(seconds, bust_rate, actions)
    await asyncio.to_thread(lambda: [th.join() for th in threads])
    load_cpu = cpu.stop()
    final = await asyncio.to_thread(event.newest_seq)
    converged = await wait_all_on(displays, final)
    on_final = sum(1 for d in displays if d.first_at_or_after(final) is not None)
    delays = {"bust": [], "director": []}
    first = []  # per action: until the first display had it (the server's part, fan-out aside)
    slowest = []  # per action: (until the last display, until the first, its service time, kind, seq)
    missing = 0
    for kind, t0, seq, took in acted:
        arrived = []
        for d in displays:
            at = d.first_at_or_after(seq, t0)
            if at is None:
                missing += 1
            else:
                arrived.append(at - t0)
        delays[kind] += arrived
        if arrived:
            first.append(min(arrived))
            slowest.append((max(arrived), min(arrived), took, kind, seq))
    # per frame: from the first display to receive it to the last (the fan-out's spread)
    reached = {}
    for d in displays:
        for s, t, _st in d.received:
            if s > first_seq:
                lo, hi, n = reached.get(s, (t, t, 0))
                reached[s] = (min(lo, t), max(hi, t), n + 1)
    spread = [hi - lo for lo, hi, n in reached.values() if n == len(displays)]
    service = [took for _k, _t0, _s, took in acted]
    # The server and the displays share this machine's clock: a display's error against the
    # server's clock is its measured offset (ideally 0).
    await asyncio.sleep(0.3)
    now = time.time()
    shown = [d.shown_seconds_left(now) for d in displays]
    builds = len({st for d in displays for s, _t, st in d.received if s > first_seq})
    size = len(displays[0].last)

    # every display drops at once (a network blip) and reconnects at once
    for d in displays:
        d.drop()
    await asyncio.sleep(0.2)
    newest = await asyncio.to_thread(event.newest_seq)
    for d in displays:
        d.received = []
    cpu.start(f"back-{n_displays}")
    t_back = time.perf_counter()
    for d in displays:
        d.connect()
    back = await wait_all_on(displays, newest, t_back, timeout=30)
    back_cpu = cpu.stop()
    back_s = max((d.first_at_or_after(newest, t_back) or float("inf")) - t_back for d in displays)
    back_builds = len({d.received[0][2] for d in displays if d.received})
    for d in displays:
        d.drop()
    return {
        "displays": n_displays,
        "converged": converged,
        "on_final": on_final,
        "final": final,
        "missing": missing,
        "delays": delays,
        "first": first,
        "slowest": sorted(slowest, reverse=True)[:3],
        "spread": spread,
        "service": service,
        "skew": max(shown) - min(shown),
        "error": abs(displays[0].offset),
        "builds": builds,
        "changes": final - first_seq,
        "size": size,
        "sales": sales,
        "sale_errors": sale_errors,
        "back": back,
        "back_s": back_s,
        "back_builds": back_builds,
        "load_cpu": load_cpu,
        "back_cpu": back_cpu,
    }


# --- main ---------------------------------------------------------------------------------


def ms(v):
    return f"{v * 1000:7.1f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=None, help="entries in the running event (10,000; --quick 1,000)")
    ap.add_argument("--clients", type=int, default=None, help="SSE displays (500; --quick 100)")
    ap.add_argument("--seconds", type=float, default=None, help="length of the load phase (60; --quick 15)")
    ap.add_argument("--actions", type=int, default=10, help="director actions in the load phase")
    ap.add_argument("--bust-rate", type=float, default=2.0, help="busts per second")
    ap.add_argument("--sales-rate", type=float, default=3.0, help="cashier sales per second through the API")
    ap.add_argument("--baseline-seconds", type=float, default=None, help="length of the one-display phase (15; --quick 6)")
    ap.add_argument("--quick", action="store_true", help="a smaller run: 1,000 entries, 100 displays, 15 s")
    ap.add_argument("--coalesce-ms", type=int, default=None, help="the hub's coalescing window (TDM_LIVE_COALESCE_MS; 100 by default)")
    ap.add_argument(
        "--floor",
        choices=("api", "inprocess"),
        default="api",
        help="api: the floor's busts and slips and the director's clock actions go through the web process's API, as a "
        "floor tablet does (default); inprocess: through the services in this process (as the benchmark once did: "
        "a second process writing the same database, competing with the displays' event loop)",
    )
    ap.add_argument("--port", type=int, default=8798)
    ap.add_argument(
        "--py-spy", metavar="DIR", help="record the web process with py-spy during the load phases and the reconnections (DIR/load-N.txt, DIR/back-N.txt)"
    )
    args = ap.parse_args()
    players = args.players or (1000 if args.quick else 10_000)
    clients = args.clients or (100 if args.quick else 500)
    seconds = args.seconds or (15.0 if args.quick else 60.0)
    base_seconds = args.baseline_seconds or (6.0 if args.quick else 15.0)
    actions = args.actions if not args.quick else min(args.actions, 4)

    Cpu.spy = args.py_spy
    setup_django()
    from django.conf import settings
    from django.db import connection

    from tdmanager import realtime

    redis_proc = None
    if not settings.REDIS_URL:
        from tdmanager.management.commands.serve import free_port, start_embedded_redis

        rport = free_port(6391)
        redis_proc = start_embedded_redis(Path(tempfile.mkdtemp()), rport)
        settings.REDIS_URL = f"redis://127.0.0.1:{rport}/0"
        realtime.bus._client = None
    base = f"http://127.0.0.1:{args.port}"
    event = Event(players, base, args.floor)
    tick = time.perf_counter()
    sales_needed = int((seconds + base_seconds) * args.sales_rate) + 20
    event.setup(sales_needed, clients)
    setup_s = time.perf_counter() - tick
    env = dict(os.environ)
    env["REDIS_URL"] = settings.REDIS_URL
    env["TDM_ARM_CLOCK_TASKS"] = "false"
    if args.coalesce_ms is not None:
        env["TDM_LIVE_COALESCE_MS"] = str(args.coalesce_ms)
    if connection.vendor == "sqlite":
        env["TDM_SQLITE_PATH"] = str(connection.settings_dict["NAME"])
    web = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "tdmanager.asgi:application", "--port", str(args.port), "--log-level", "warning", "--backlog", "4096"],
        cwd=ROOT,
        env=env,
    )
    try:
        import httpx

        for _ in range(300):
            try:
                httpx.get(base + "/live/time/", timeout=0.5)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        b = asyncio.run(phase(event, args.port, 1, base_seconds, args.bust_rate, max(2, actions // 3), args.sales_rate, web.pid))
        r = asyncio.run(phase(event, args.port, clients, seconds, args.bust_rate, actions, args.sales_rate, web.pid))
    finally:
        web.terminate()
        web.wait(10)
        if redis_proc:
            redis_proc.terminate()

    def delays(x):
        return x["delays"]["bust"] + x["delays"]["director"]

    print(f"database: {connection.vendor}; one web process; {players} entries (setup {setup_s:.1f} s); snapshot frame {r['size'] / 1024:.1f} KiB")
    print(
        f"load: {clients} displays, {seconds:.0f} s, {args.bust_rate:g} busts/s + {actions} director actions, "
        f"{args.sales_rate:g} sales/s; floor and director: {args.floor}; baseline in the same run: 1 display, {base_seconds:.0f} s of the same workload"
    )
    print(f"{'':34}{'figure':>12}  {'baseline':>12}  target")
    rd, bd = delays(r), delays(b)
    print(f"{'action to display p50':34}{ms(statistics.median(rd)):>12}  {ms(statistics.median(bd)):>12}")
    print(f"{'action to display p99':34}{ms(pct(rd, 99)):>12}  {ms(pct(bd, 99)):>12}  < 250 ms")
    print(f"{'  busts p99 / director p99':34}{ms(pct(r['delays']['bust'], 99)):>12}  {ms(pct(r['delays']['director'], 99)):>12}  (both of the load phase)")
    print(
        f"{'  until the first display p50/p99':34}{ms(statistics.median(r['first'])):>12}  {ms(pct(r['first'], 99)):>12}  (the load phase: action, window, build)"
    )
    if r["spread"]:
        print(
            f"{'  a frame, first to last display':34}{ms(statistics.median(r['spread'])):>12}  {ms(pct(r['spread'], 99)):>12}  (p50, p99 of the load phase: the fan-out)"
        )
    print(
        "  the slowest actions (the p99 of 500 displays is set by about the slowest two): "
        + "; ".join(
            f"{kind} #{seq}: last display {ms(last).strip()}, first {ms(first_).strip()}, its requests {ms(took).strip()}"
            for last, first_, took, kind, seq in r["slowest"]
        )
    )
    print(f"{'service time of an action p50':34}{ms(statistics.median(r['service'])):>12}  {ms(statistics.median(b['service'])):>12}  (included above)")
    print(f"{'displayed clock skew':34}{ms(r['skew']):>12}  {ms(b['error']):>12}  < 100 ms (baseline: one display vs the server clock)")
    print(
        f"{'cashier sale p95':34}{ms(pct(r['sales'], 95)):>12}  {ms(pct(b['sales'], 95)):>12}  < 150 ms "
        f"({len(r['sales'])} sales, {len(r['sale_errors'])} errors)"
    )
    print(f"{'all back on the newest after drop':34}{r['back_s']:>10.2f} s  {b['back_s']:>10.2f} s  < 3 s (served by {r['back_builds']} build(s))")
    print(
        f"converged: {r['on_final']}/{clients} displays on the final seq {r['final']} ({'yes' if r['converged'] else 'NO'}); "
        f"missed deliveries {r['missing']}; builds seen {r['builds']} for {r['changes']} logged changes; "
        f"floor confirmations refused and tried again: {len(event.refused)}"
    )
    for label, key in (("CPU during the load phase", "load_cpu"), ("CPU from the drop until all back", "back_cpu")):
        for x, name in ((r, f"{clients} displays"), (b, "baseline")):
            c = x[key]
            print(
                f"{label + ' (' + name + ')':60} web {c['web']:6.2f} s, benchmark {c['bench']:6.2f} s in {c['wall']:6.2f} s wall "
                f"({c['web'] / c['wall']:.0%} and {c['bench'] / c['wall']:.0%} of one core)"
            )
    print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    if r["sale_errors"] or b["sale_errors"]:
        print("first sale error:", (r["sale_errors"] or b["sale_errors"])[0])


if __name__ == "__main__":
    main()
