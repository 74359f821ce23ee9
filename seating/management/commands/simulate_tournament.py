"""Play a whole tournament through the real seating services and the database; print figures.

    manage.py simulate_tournament --entries 10000 [--table-size 9] [--seed 1]

Setup (not timed as busts): N people and N paid entries are written in bulk (the cashier desk
has its own benchmark), then ``lifecycle.start`` runs the real start, which draws every seat.
Then, until one player is left: a random player busts (about one time in ten, two players at
one table go out on the same hand, with their starting stacks) through
``seating.services.record_bust``; every slip that follows — break, final table, balancing —
is confirmed through ``seating.services.confirm_moves``, as the floor would.

After every step it checks, on what the services wrote: no two tables differ by more than
one player, the tables a step touched hold exactly the players its slips say, and the room
holds exactly the players still in; every 500 busts and at the end it reads the whole seat
map and every entry back from the database (each playing entry seated once, nobody else;
finishing places 1..N with shared places). It prints the moves made, tables broken, the time
per bust (p50, p95), the total, and the pure-engine time for the same N
(``benchmarks/seating_engine.py``). The tournament stays in the database (its id is printed).
"""

import importlib.util
import random
import statistics
import time
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.utils import timezone

from seating import services, sql
from seating.models import PendingMove, Seat
from seating.services import room as room_module
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, Person, Tournament
from tournaments.setup import lifecycle
from tournaments.structures.services import ensure_builtin_structures

FULL_CHECK_EVERY = 500
SAME_HAND_CHANCE = 0.1


class Command(BaseCommand):
    help = "Play a whole tournament through the real seating services and database, and print the figures."

    def add_arguments(self, parser):
        parser.add_argument("--entries", type=int, default=1000)
        parser.add_argument("--table-size", type=int, default=9)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--no-engine", action="store_true", help="skip the pure-engine comparison run")
        parser.add_argument(
            "--async-commit", action="store_true", help="PostgreSQL: synchronous_commit=off for this run (leaves out the disk's flush per commit)"
        )

    def handle(self, *args, entries, table_size, seed, no_engine, async_commit, **options):
        if entries < 2:
            raise CommandError("--entries must be at least 2")
        if async_commit:
            if connection.vendor != "postgresql":
                raise CommandError("--async-commit is for PostgreSQL")
            sql.commit_without_waiting_for_disk()
        sim = Simulation(entries, table_size, seed, self.stdout)
        result = sim.run()
        engine = None if no_engine else engine_run(entries, table_size, seed)
        result["async_commit"] = async_commit
        report(self.stdout, result, engine)


class Simulation:
    def __init__(self, entries: int, table_size: int, seed: int, out):
        self.n, self.size, self.seed, self.out = entries, table_size, seed, out
        self.rng = random.Random(seed)
        self.actor = Actor(None, "simulate_tournament")
        self.moves = {"BALANCE": 0, "BREAK": 0, "FINAL_TABLE": 0}
        self.broken = 0
        self.final_table = None
        self.step_ms: list[float] = []
        self.bust_ms: list[float] = []
        self.break_ms: list[float] = []  # the steps that broke a table or formed the final table
        self.same_hand = 0

    # --- setup ---------------------------------------------------------------------------

    def setup(self) -> Tournament:
        structure = next(s for s in ensure_builtin_structures() if s.name.startswith("Regular"))
        t = Tournament.objects.create(
            name=f"Simulation {self.n} entries (seed {self.seed})",
            start_at=timezone.now(),
            buy_in=Decimal(100),
            fee=Decimal(10),
            starting_stack=30000,
            table_size=self.size,
            structure=structure,
            status=Tournament.REGISTERING,
            min_players=2,
        )
        stamp = int(time.time())
        people = Person.objects.bulk_create(
            [Person(first_name=f"Sim{i:05d}", last_name=f"T{t.pk}", search_text=f"sim{i:05d} t{t.pk} {stamp}") for i in range(1, self.n + 1)], batch_size=2000
        )
        Entry.objects.bulk_create(
            [Entry(tournament=t, person=p, number=i, status=Entry.ACTIVE, chips=t.starting_stack) for i, p in enumerate(people, 1)], batch_size=2000
        )
        return t

    # --- the tournament ----------------------------------------------------------------------

    def run(self) -> dict:
        started = time.perf_counter()
        t = self.setup()
        setup_s = time.perf_counter() - started
        with services.seeded(random.Random(self.seed + 1)):
            tick = time.perf_counter()
            lifecycle.start(t, actor=self.actor)
            draw_s = time.perf_counter() - tick
            self.tables = {}
            for number, seat, entry in Seat.objects.filter(tournament=t).values_list("table__number", "number", "entry_id"):
                self.tables.setdefault(number, {})[seat] = entry
            self.where = {e: (n, s) for n, seats in self.tables.items() for s, e in seats.items()}
            self.alive = list(self.where)
            self.index = {e: i for i, e in enumerate(self.alive)}
            self.tables_at_start = len(self.tables)
            self.check_balanced()
            loop_started = time.perf_counter()
            busts = 0
            while len(self.alive) > 1:
                self.step(t)
                busts += 1
                if busts % FULL_CHECK_EVERY == 0:
                    self.full_check(t)
            loop_s = time.perf_counter() - loop_started
        self.full_check(t, final=True)
        return {
            "tournament": t.pk,
            "entries": self.n,
            "table_size": self.size,
            "vendor": connection.vendor,
            "db": settings.DATABASES["default"]["NAME"],
            "tables_at_start": self.tables_at_start,
            "busts": busts,
            "same_hand": self.same_hand,
            "moves": dict(self.moves),
            "broken": self.broken,
            "final_table": self.final_table,
            "setup_s": setup_s,
            "draw_s": draw_s,
            "loop_s": loop_s,
            "total_s": time.perf_counter() - started,
            "step_ms": self.step_ms,
            "bust_ms": self.bust_ms,
            "break_ms": self.break_ms,
        }

    def pick(self) -> list[dict]:
        entry = self.alive[self.rng.randrange(len(self.alive))]
        number = self.where[entry][0]
        others = [e for e in self.tables[number].values() if e != entry]
        if others and len(self.alive) > 2 and self.rng.random() < SAME_HAND_CHANCE:
            partner = self.rng.choice(others)
            self.same_hand += 1
            return [
                {"entry": entry, "starting_stack": self.rng.randrange(1, 100) * 1000},
                {"entry": partner, "starting_stack": self.rng.randrange(1, 100) * 1000},
            ]
        return [{"entry": entry}]

    def step(self, t):
        busts = self.pick()
        tick = time.perf_counter()
        out = services.record_bust(t, busts, actor=self.actor, same_hand=len(busts) > 1)
        bust_done = time.perf_counter()
        slips = list(out.slips) + list(out.proposed)
        confirmed = []
        while slips:
            # Confirm every open slip, as the floor does; a confirmed balancing move may
            # lead to a new plan, so ask again until nothing is left to do.
            services.confirm_moves(t, [s.pk for s in slips], actor=self.actor)
            confirmed += slips
            if all(s.applied for s in slips):
                break  # break and final-table slips were applied when drawn: confirming them plans nothing
            slips = list(PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED))
        end = time.perf_counter()
        self.bust_ms.append((bust_done - tick) * 1000)
        self.step_ms.append((end - tick) * 1000)
        if out.broken or out.final_table is not None:
            self.break_ms.append((end - tick) * 1000)
        self.follow(t, busts, out, confirmed)

    # --- checks ----------------------------------------------------------------------------

    def follow(self, t, busts, out, confirmed):
        """Apply the step to our own copy of the room and compare the touched tables."""
        touched = set()
        for b in busts:
            e = b["entry"]
            number, seat = self.where.pop(e)
            assert self.tables[number].pop(seat) == e
            touched.add(number)
            i = self.index.pop(e)
            last = self.alive.pop()
            if last != e:
                self.alive[i] = last
                self.index[last] = i
        for slip in confirmed:
            self.moves[slip.kind] += 1
            assert self.tables[slip.from_table].pop(slip.from_seat) == slip.entry_id, "a slip moved somebody else"
            touched.update((slip.from_table, slip.to_table))
        for slip in confirmed:
            dest = self.tables.setdefault(slip.to_table, {})
            assert slip.to_seat not in dest, "a seat was given twice"
            dest[slip.to_seat] = slip.entry_id
            self.where[slip.entry_id] = (slip.to_table, slip.to_seat)
        self.broken += len(out.broken)
        if out.final_table is not None:
            self.final_table = out.final_table
        # The room the services wrote last (kept in memory by them; read back if not kept).
        room = (room_module.kept(t.pk) or room_module.load_room(t.pk)).tables
        for number in touched:
            mine = self.tables.get(number, {})
            theirs = room[number].seats if number in room else None
            if not mine:
                assert not theirs, f"table {number} should be empty"
                self.tables.pop(number, None)
            else:
                assert theirs == mine, f"table {number}: {theirs} != {mine}"
        self.check_balanced([table.seats for table in room.values()])

    def check_balanced(self, seats=None):
        """No player lost or added, no two tables more than one player apart: ``seats``, each
        table's seats (ours when not given)."""
        sizes = [len(s) for s in (self.tables.values() if seats is None else seats) if s]
        assert sum(sizes) == len(self.alive), f"{sum(sizes)} seated, {len(self.alive)} playing: a player was lost or added"
        assert max(sizes) - min(sizes) <= 1, f"tables differ by more than one player: {sorted(set(sizes))}"

    def full_check(self, t, final=False):
        """Everything, from the database: seats against entries, and at the end the places."""
        seated = list(Seat.objects.filter(tournament=t).values_list("entry_id", "table__number", "number"))
        assert len(seated) == len({e for e, _n, _s in seated}) == len(self.alive), "a player is seated twice or lost"
        assert {e: (n, s) for e, n, s in seated} == self.where, "the database seat map differs from the slips"
        playing = set(Entry.objects.filter(tournament=t, status=Entry.ACTIVE).values_list("pk", flat=True))
        assert playing == set(self.where), "a playing entry has no seat, or a busted one still has one"
        if final:
            places = []
            groups = {}
            for pk, place in Entry.objects.filter(tournament=t).values_list("pk", "place"):
                groups.setdefault(place, []).append(pk)
            for place, members in groups.items():
                places += range(place, place + len(members))
            assert sorted(places) == list(range(1, self.n + 1)), "finishing places are not 1..N"
            (winner,) = self.alive
            assert Entry.objects.get(pk=winner).place == 1


def engine_run(entries: int, table_size: int, seed: int):
    """The pure-engine benchmark for the same N (benchmarks/seating_engine.py), if present."""
    path = Path(settings.BASE_DIR) / "benchmarks" / "seating_engine.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("seating_engine_benchmark", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.run(entries, table_size, seed)


def _pct(values, q):
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))] if ordered else float("nan")


def report(out, r, engine):
    moves = sum(r["moves"].values())
    out.write(
        f"simulate_tournament: {r['entries']} entries at {r['table_size']}-max on {r['vendor']} ({r['db']}"
        f"{', synchronous_commit=off' if r.get('async_commit') else ''}), tournament id {r['tournament']}"
    )
    out.write(f"tables at start {r['tables_at_start']}, busts {r['busts']} ({r['same_hand']} two-player same-hand busts)")
    out.write(
        f"moves made {moves} (balance {r['moves']['BALANCE']}, break {r['moves']['BREAK']}, "
        f"final table {r['moves']['FINAL_TABLE']}), tables broken {r['broken']}, final table {r['final_table']}"
    )
    out.write(
        f"per bust (record_bust + confirming every slip): p50 {statistics.median(r['step_ms']):.2f} ms, "
        f"p95 {_pct(r['step_ms'], 0.95):.2f} ms; record_bust alone p50 {statistics.median(r['bust_ms']):.2f} ms, "
        f"p95 {_pct(r['bust_ms'], 0.95):.2f} ms"
    )
    if r["break_ms"]:
        out.write(
            f"steps with a break or the final table: {len(r['break_ms'])}, p50 {statistics.median(r['break_ms']):.2f} ms, "
            f"mean {statistics.mean(r['break_ms']):.2f} ms; mean of all steps {statistics.mean(r['step_ms']):.2f} ms"
        )
    out.write(f"seconds: busts {r['loop_s']:.2f}, start + draw {r['draw_s']:.2f}, setup {r['setup_s']:.2f}, total {r['total_s']:.2f}")
    if engine:
        out.write(
            f"pure engine, same N (benchmarks/seating_engine.py): total {engine['total_s']:.3f} s, per bust "
            f"p50 {engine['median_us']:.1f} µs, p95 {engine['p95_us']:.1f} µs"
        )
