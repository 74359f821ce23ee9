"""A big room: 120 physical tables, 5 events playing at once, 150 dealers on the roster.

    python benchmarks/room_scale.py                                   # SQLite (the embedded default)
    python benchmarks/room_scale.py --database postgres://postgres@127.0.0.1:5432/tdm_room_scale

Builds the room through the services (the tables, 5 events of 200 players each started there: 115
tables in play, 150 dealers on the roster and a first push), then times what the floor asks of it:
the room map (every table, its event, players, dealer and what breaks next), the next push's plan
shown in advance, and a push itself (written). Baseline of the same run: one event's table map
(the floor's page of one event). Prints median and max wall time and CPU per call.
"""

import argparse
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import api_bust  # noqa: E402
import common  # noqa: E402

TABLES, EVENTS, PLAYERS, DEALERS = 120, 5, 200, 150


def timed(fn, runs):
    wall, cpu = [], []
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return wall, cpu


def line(name, wall, cpu):
    ms = [x * 1000 for x in wall]
    return f"  {name:<34} median {statistics.median(ms):8.1f} ms  max {max(ms):8.1f} ms  CPU median {statistics.median(cpu) * 1000:8.1f} ms"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--database", default="sqlite", help='"sqlite" or a PostgreSQL URL (dropped and created anew)')
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    common.prepare_database(args.database, "tdm_room_scale")
    from django.contrib.auth.models import Group, User
    from django.db import connection
    from django.utils import timezone

    from seating import selectors
    from seating.services import cardrooms, dealers
    from tournaments.cashier import services as cashier
    from tournaments.eventlog.services import Actor
    from tournaments.models import Person, Tournament
    from tournaments.setup import lifecycle

    director = User.objects.create_user("bench-director")
    director.groups.add(Group.objects.get_or_create(name="director")[0])
    actor = Actor(director, "bench")
    t0 = time.perf_counter()
    room = cardrooms.save_room("Main hall", actor=actor)
    for n in range(1, TABLES + 1):
        cardrooms.save_table(room, n, seats=10, position=n, actor=actor)
    people = Person.objects.bulk_create(Person(first_name=f"P{i}", last_name=f"Room{i}", search_text=f"p{i} room{i}") for i in range(EVENTS * PLAYERS))
    events = []
    for e in range(EVENTS):
        t = Tournament.objects.get(pk=api_bust.new_tournament(f"Event {e + 1}"))  # 9-max, the regular structure
        for p in people[e * PLAYERS : (e + 1) * PLAYERS]:
            cashier.register(t, p, method="CASH", actor=actor)
        lifecycle.start(t, actor=actor, prestart_report_sent=True)
        events.append(t)
    group = Group.objects.get_or_create(name="dealer")[0]
    now = timezone.now()
    for i in range(DEALERS):
        u = User.objects.create_user(f"dealer{i}", first_name=f"Dealer {i}")
        u.groups.add(group)
        dealers.add_shift(room, u, now - timedelta(hours=1), now + timedelta(hours=8), actor=actor)
    dealers.push(room, actor=actor)
    built = time.perf_counter() - t0
    in_play = len(dealers.tables_in_play(room.pk))
    print(
        f"database: {connection.vendor}; room of {TABLES} tables, {EVENTS} events of {PLAYERS} players ({in_play} tables in play), {DEALERS} dealers; built in {built:.1f} s"
    )
    print(f"{args.runs} calls each; machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    print("baseline:")
    print(line("one event's table map", *timed(lambda: selectors.table_map(events[0]), args.runs)))
    print("the room:")
    print(line("room map (every table)", *timed(lambda: selectors.room_map(room.pk), args.runs)))
    print(line("push plan (computed, not written)", *timed(lambda: dealers.plan_for(room, timezone.now()), args.runs)))
    print(line("next push shown in advance", *timed(lambda: dealers.preview(room, timezone.now()), args.runs)))
    print(line("a push (written)", *timed(lambda: dealers.push(room, actor=actor), args.runs)))
    covered = len(dealers.plan_for(room, timezone.now()).by_table())
    print(f"after the pushes: {covered} of {in_play} tables have a dealer")


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")
    main()
