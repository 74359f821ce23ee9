"""The players' notices at scale: the product as deployed (``manage.py serve``: uvicorn, a Celery
worker with beat, the notices' worker, Redis) sending Web Push to a push service of the
benchmark's own on loopback (at nice 19: a push service is elsewhere in the room's deployment).

    python benchmarks/notice_services.py                            # PostgreSQL database tdm_bench_push on 127.0.0.1 (created anew)
    python benchmarks/notice_services.py --database sqlite          # the embedded SQLite default
    python benchmarks/notice_services.py --players 300 --phones 1000   # a quick run

Setup (not timed, through the models and services in this process): an event of ``--players``
(1,000) playing at 9-max, its seats drawn, and an event of ``--phones`` (5,000) registered and
starting in two hours; every player of both has a phone subscribed to every kind (its own
endpoint on the push service; one key pair for all: the push service does not read them, and
the server encrypts each message with them all the same), and what the pages show now is what
they have been told (``notice_services.tell_players`` once, as a subscription does).

Then, with the server up and its worker answering (a warm-up announcement reaches its phone):

1. **A table break.** The floor busts one player of the big event through the API
   (``POST …/busts/``); a table breaks. Timed from the request to the moment the push service
   has a message for every player moved by the break (the bust's answer, the commit, the change
   notice, the worker's ``tell_players``, one ``send_notice`` per phone). Target: 2 s.
2. **"The event starts in 15 minutes."** The registered event's start is moved, in the database alone
   (no change notice: time alone brings it into the house's 15 minutes, as in the room), to 15
   minutes and 35 s from now; beat's ``tell_timed_players`` (every 30 s) sees the moment coming
   and hands the worker a task due then. Timed from the moment it is due to the last of the
   phones' messages. Target: within a minute. Printed: pushes a second (first to last message)
   and CPU per push (the product's processes, web, workers, beat and the embedded Redis, for the
   whole phase and over what they spend in the quiet seconds before, when the desk alone works;
   and the database server apart).

**The desk meanwhile.** A cashier's desk (a process of its own, one keep-alive connection, as
``benchmarks/desk_http.py``'s) works at a steady ``--desk-rate`` requests a second through the
phases: a sale of another event (``POST /api/v1/cashier/register/`` with an Idempotency-Key),
then its shift's totals (``GET /api/v1/cashier/shift/``), by turns. Its p95 is printed for the
``--quiet`` seconds before the start is moved (beat's routine looks included) and while the
notices go out (from the moment due to the last phone), with their ratio against the bar: 1.5×.

3. **A dead push service.** An event of 11 players, each with a phone at the push service, and
   an announcement to them, three times a second apart: timed from each announcement to the
   last of the ten other players' messages (the worst of the three printed). Then the first
   player's phone is replaced by five at a push service that takes the connection and never
   answers (``tests.pushservice.DeadService``, on 127.0.0.2), and it is done again: the ten
   others are told as soon as without it (a slow or dead push service delays only its own
   phones; before, the notices' one worker process waited on each of the five in turn).

A sample of each phase's messages is decrypted as the phone would and printed.
"""

import argparse
import os
import subprocess
import sys
import threading
import time
import uuid
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import api_bust  # noqa: E402  (its wait for the server)
import common  # noqa: E402

TABLE_SIZE = 9


def make_user(name, role):
    from django.contrib.auth.models import Group, User

    from tournaments.staff.logins import issue_token

    user = User.objects.create_user(name, password="x")
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user, issue_token(user, device="benchmark")[1]


def new_event(name, players, start_in, structure, **kw):
    """A tournament of ``players`` paid entries (rows written directly: the desk is measured elsewhere)."""
    from decimal import Decimal

    from django.utils import timezone

    from tournaments.models import Entry, Person, Tournament

    t = Tournament.objects.create(
        name=name,
        start_at=timezone.now() + start_in,
        buy_in=Decimal("100"),
        fee=Decimal("10"),
        starting_stack=30000,
        table_size=TABLE_SIZE,
        structure=structure,
        status=Tournament.REGISTERING,
        min_players=2,
        **kw,
    )
    people = Person.objects.bulk_create(
        Person(first_name=f"P{i}", last_name=f"{name.split()[0]}{i}", search_text=f"p{i} {name.lower()}{i}") for i in range(players)
    )
    Entry.objects.bulk_create(Entry(tournament=t, person=p, number=i + 1, status=Entry.ACTIVE, chips=t.starting_stack) for i, p in enumerate(people))
    return t


def desk_people_for(n):
    """People who come to the desk to buy in (no phone subscribed)."""
    from tournaments.models import Person

    people = Person.objects.bulk_create(Person(first_name=f"D{i}", last_name=f"Desk{i}", search_text=f"d{i} desk{i}") for i in range(n))
    return [p.pk for p in people]


def subscribe_all(t, service, keys):
    """A phone per player of ``t``, every kind, Italian and English by turns; then what the
    pages show now is marked as told (what a subscription does, once for the field)."""
    from tournaments.models import PushSubscription
    from tournaments.notices import rules as notice_rules
    from tournaments.notices import services as notice_services

    rows = list(t.entries.order_by("number").values_list("pk", "person_id"))
    PushSubscription.objects.bulk_create(
        PushSubscription(
            person_id=person,
            endpoint=f"{service.origin}/ok/{t.pk}/{pk}",
            p256dh=keys["p256dh"],
            auth=keys["auth"],
            kinds=list(notice_rules.KINDS),
            language="it" if i % 2 == 0 else "en",
        )
        for i, (pk, person) in enumerate(rows)
    )
    notice_services.tell_players(t.pk)
    return {pk: f"/ok/{t.pk}/{pk}" for pk, _person in rows}


def wait_for_paths(service, paths, deadline, since=0):
    """Wait until the push service has a message for each of ``paths`` (among those it
    received after the first ``since``); the perf_counter time when it had the last one, and
    each path's first message with its arrival. The list is read every 50 ms rather than at
    each message: woken at each of hundreds a second, this process's main thread would take a
    share of the cores from the product it measures."""
    wanted = set(paths)
    first = {}
    seen = since
    end = time.monotonic() + deadline
    while True:
        with service.lock:
            fresh = service.received[seen:]
            seen = len(service.received)
        for r in fresh:
            if r.path in wanted and r.path not in first:
                first[r.path] = (r.at, r)
        if len(first) == len(wanted):
            return max(at for at, _r in first.values()), first
        if time.monotonic() > end:
            raise SystemExit(f"the push service had {len(first)} of {len(wanted)} phones' messages after {deadline} s")
        time.sleep(0.05)


class Desk:
    """The cashier's desk at a steady pace: a sale, then the shift's totals, by turns, each
    request timed (when it began, how long it took); a request late on the pace goes at once.

    It runs in a process of its own (``start``): in the benchmark's process the push service's
    threads, taking hundreds of messages a second, would hold the interpreter lock for up to its
    switch interval (5 ms) while a desk request waits to be read, and the desk would time the
    benchmark rather than the product. The times are ``time.perf_counter()``, the machine's
    monotonic clock, so they compare with this process's."""

    def __init__(self, base, token, tournament, people, rate):
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.stopping = context.Event()
        self.receiving, sending = context.Pipe(duplex=False)
        self.process = context.Process(target=desk_run, args=(base, token, tournament, list(people), 1.0 / rate, self.stopping, sending), daemon=True)
        self.samples: list[tuple[float, float, str, int]] = []  # began, seconds, what, status

    def start(self):
        self.process.start()

    def between(self, start, end):
        return [s for s in self.samples if start <= s[0] < end]

    def stop(self):
        self.stopping.set()
        self.samples = self.receiving.recv() if self.receiving.poll(60) else []
        self.process.join(30)


def desk_run(base, token, tournament, people, gap, stopping, out):
    """The desk's process (see ``Desk``): its requests until ``stopping``, then their timings to ``out``."""
    client = common.Client(base, headers={"Authorization": f"Token {token}"})
    samples = []
    due, turn = time.perf_counter(), 0
    while not stopping.is_set() and people:
        wait = due - time.perf_counter()
        if wait > 0 and stopping.wait(wait):
            break
        began = time.perf_counter()
        if turn % 2 == 0:
            body = {"tournament": tournament, "person": people.pop(), "method": "CASH"}
            r = client.post("/api/v1/cashier/register/", json=body, headers={"Idempotency-Key": str(uuid.uuid4())})
            what = "sale"
        else:
            r = client.get("/api/v1/cashier/shift/")
            what = "shift"
        samples.append((began, time.perf_counter() - began, what, r.status_code))
        turn += 1
        due += gap
    client.close()
    out.send(samples)


def lowest_priority(make):
    """``make()`` in a thread at nice 19, so the threads it starts (the push service's, one per
    connection) run at nice 19 too: a push service is elsewhere in the room's deployment, and
    here, on the product's cores, it takes what the product leaves rather than the desk's share.
    (On Linux a thread's nice is its own, inherited by the threads it starts.)"""
    made = []

    def run():
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        made.append(make())

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return made[0]


def desk_summary(samples):
    """p95 and p50 in ms, and how many requests failed."""
    times = [seconds * 1000 for _began, seconds, _what, _status in samples]
    errors = sum(1 for *_rest, status in samples if status not in (200, 201))
    return common.pct(times, 95), common.pct(times, 50), len(times), errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=8797)
    ap.add_argument("--database", default=os.getenv("DATABASE_URL"))
    ap.add_argument("--players", type=int, default=1000, help="the event whose table breaks")
    ap.add_argument("--phones", type=int, default=5000, help="the event that starts soon: its players' phones")
    ap.add_argument("--desk-rate", type=float, default=4.0, help="the desk's requests a second (a sale and the shift's totals by turns)")
    ap.add_argument("--quiet", type=float, default=30.0, help="seconds the desk is timed before the notices")
    args = ap.parse_args()

    import json

    import http_ece

    from tests.pushservice import DeadService, PushService, browser_keys  # the tests' own push services

    def read(message):
        """The notice's text, decrypted as the phone's browser would."""
        return json.loads(http_ece.decrypt(message.body, private_key=key, auth_secret=auth, version="aes128gcm"))["body"]

    os.environ["TDM_PUSH_ENDPOINTS"] = "127.0.0.1,127.0.0.2"  # the loopback push services, plain http (the server's processes inherit it)
    common.prepare_database(args.database, "tdm_bench_push")
    from django.conf import settings
    from django.db import connection
    from django.utils import timezone

    from seating.models import PendingMove
    from tournaments.eventlog.services import Actor
    from tournaments.models import PushSubscription, Tournament
    from tournaments.notices import rules as notice_rules
    from tournaments.notices import services as notice_services
    from tournaments.setup import lifecycle
    from tournaments.structures.services import ensure_builtin_structures

    engine = connection.vendor
    service = lowest_priority(PushService)
    key, auth, keys = browser_keys()
    director, director_token = make_user("bench-director", "director")
    structure = next(s for s in ensure_builtin_structures() if s.name.startswith("Regular"))
    t0 = time.perf_counter()
    big = new_event("Big Sunday", args.players, timedelta(minutes=5), structure)
    lifecycle.start(big, actor=Actor(user=director), prestart_report_sent=True)
    soon = new_event("Soon Monday", args.phones, timedelta(hours=2), structure)
    warm = new_event("Warm Up", 2, timedelta(hours=3), structure)
    told = new_event("Told Wednesday", 11, timedelta(hours=4), structure)
    desk_event = new_event("Desk Tuesday", 0, timedelta(days=1), structure)  # the desk sells its seats
    desk_people = desk_people_for(int(args.desk_rate * (args.quiet + 400)))
    cashier, cashier_token = make_user("bench-cashier", "cashier")
    notice_services.installation_keys()
    big_paths = subscribe_all(big, service, keys)
    soon_paths = subscribe_all(soon, service, keys)
    warm_paths = subscribe_all(warm, service, keys)
    told_paths = subscribe_all(told, service, keys)
    dead = DeadService("127.0.0.2")
    print(f"setup: {args.players} players seated, {args.phones} registered, {args.players + args.phones + 2} phones in {time.perf_counter() - t0:.0f} s")
    connection.close()

    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(args.port)],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{args.port}"
    try:
        api_bust.wait_until_up(base, server, seconds=120)
        api = common.Client(base, headers={"Authorization": f"Token {director_token}"})
        # The worker is up when a director's announcement reaches the warm-up event's phone.
        r = api.post(f"/api/v1/tournaments/{warm.pk}/clock/tell-players/", json={"text": "warm up"})
        if r.status_code != 200:
            raise SystemExit(f"the announcement was refused: {r.status_code} {r.text[:300]}")
        wait_for_paths(service, list(warm_paths.values())[:1], 180)
        print(
            f"database: {engine}; server: manage.py serve (uvicorn; a Celery worker of 2 processes with beat at nice {settings.TDM_WORKER_NICE}; "
            "the notices' worker of 1 process in the idle class; embedded Redis)"
        )

        # 1. A table break in the big event.
        victim = big.entries.order_by("number").values_list("pk", flat=True)[args.players // 2]
        cpu0, db0, sent0 = common.tree_cpu(server.pid), common.service_cpu(server.pid), len(service.received)
        start = time.perf_counter()
        r = api.post(f"/api/v1/tournaments/{big.pk}/busts/", json={"entries": [{"entry": victim}]})
        answered = time.perf_counter()
        if r.status_code not in (200, 201):
            raise SystemExit(f"the bust was refused: {r.status_code} {r.text[:300]}")
        moved = list(PendingMove.objects.filter(tournament=big, status=PendingMove.PROPOSED, kind="BREAK").values_list("entry_id", flat=True))
        if not moved:
            raise SystemExit("no table broke: the field does not fit one table fewer")
        done, first = wait_for_paths(service, [big_paths[pk] for pk in moved], 60)
        sent = len(service.received) - sent0
        cpu, db = common.tree_cpu(server.pid) - cpu0, common.service_cpu(server.pid) - db0
        body = read(first[big_paths[moved[0]]][1])
        print(
            f"table break: {len(moved)} players moved, every one told {done - start:.2f} s after the bust was sent "
            f"(its answer {answered - start:.2f} s; target 2 s); e.g. «{body}»"
        )
        print(f"  {sent} pushes meanwhile; CPU {cpu:.2f} s in the product's processes, {db:.2f} s in the database server")

        # 2. The event of 5,000 starts in 15 minutes: time alone brings it there, beat sees it coming.
        connection.close()
        desk = Desk(base, cashier_token, desk_event.pk, desk_people, args.desk_rate)
        desk.start()
        quiet_from, quiet_cpu = time.perf_counter(), common.tree_cpu(server.pid)
        time.sleep(args.quiet)
        cpu0, db0, sent0 = common.tree_cpu(server.pid), common.service_cpu(server.pid), len(service.received)
        quiet_rate = (cpu0 - quiet_cpu) / (time.perf_counter() - quiet_from)  # the desk's and beat's routine work
        Tournament.objects.filter(pk=soon.pk).update(start_at=timezone.now() + timedelta(minutes=15, seconds=35))
        moved_at = time.perf_counter()
        due = moved_at + 35
        done, first = wait_for_paths(service, list(soon_paths.values()), 300)
        desk.stop()
        sent = len(service.received) - sent0
        cpu, db = common.tree_cpu(server.pid) - cpu0, common.service_cpu(server.pid) - db0
        over_quiet = cpu - quiet_rate * (time.perf_counter() - moved_at)
        arrivals = sorted(at for at, _r in first.values())
        spread = arrivals[-1] - arrivals[0]
        body = read(first[soon_paths[next(iter(soon_paths))]][1])
        print(
            f"starts in 15 minutes: {len(first)} phones told, the last {done - due:.1f} s after it was due "
            f"(the first {arrivals[0] - due:.1f} s; target 60 s); e.g. «{body}»"
        )
        print(
            f"  {len(first) / spread if spread > 0 else float('inf'):.0f} pushes/s (first to last message); "
            f"CPU per push {1000 * cpu / max(1, sent):.1f} ms in the product's processes ({1000 * over_quiet / max(1, sent):.1f} ms beyond "
            f"the desk's and beat's routine work of the quiet seconds), {1000 * db / max(1, sent):.1f} ms in the database server ({sent} pushes in the phase)"
        )
        quiet, busy = desk_summary(desk.between(quiet_from, moved_at)), desk_summary(desk.between(due, done))
        ratio = busy[0] / quiet[0] if quiet[0] else float("inf")
        print(
            f"the desk at {args.desk_rate:g} requests/s (a sale and the shift's totals by turns): p95 {quiet[0]:.0f} ms quiet "
            f"(p50 {quiet[1]:.0f}, {quiet[2]} requests, {quiet[3]} failed), p95 {busy[0]:.0f} ms while the notices went out "
            f"(p50 {busy[1]:.0f}, {busy[2]} requests, {busy[3]} failed): {ratio:.2f}× (bar 1.5×: {'met' if ratio <= 1.5 else 'MISSED'})"
        )
        print(f"  load average {os.getloadavg()[0]:.1f} (the machine's other work included)")

        # 3. A dead push service: the ten other players' announcements, without it and with it.
        first_entry, *others = told.entries.order_by("number").values_list("pk", "person_id")
        other_paths = [told_paths[pk] for pk, _person in others]

        def announce_thrice(label):
            worst = 0.0
            for i in range(3):
                since = len(service.received)
                start = time.perf_counter()
                r = api.post(f"/api/v1/tournaments/{told.pk}/clock/tell-players/", json={"text": f"{label} {i}"})
                if r.status_code != 200:
                    raise SystemExit(f"the announcement was refused: {r.status_code} {r.text[:300]}")
                done, _first = wait_for_paths(service, other_paths, 120, since=since)
                worst = max(worst, done - start)
                time.sleep(max(0.0, start + 1 - time.perf_counter()))
            return worst

        healthy = announce_thrice("healthy")
        PushSubscription.objects.filter(person_id=first_entry[1]).delete()
        PushSubscription.objects.bulk_create(
            PushSubscription(
                person_id=first_entry[1], endpoint=f"{dead.origin}/dead/{i}", p256dh=keys["p256dh"], auth=keys["auth"], kinds=list(notice_rules.KINDS)
            )
            for i in range(5)
        )
        connection.close()
        with_dead = announce_thrice("dead")
        print(
            f"a dead push service: the 10 other players of an announcement told within {healthy:.2f} s without it, "
            f"{with_dead:.2f} s with 5 phones of the 11th at a push service that never answers (the worst of 3 announcements each; "
            f"it took {dead.connections} connections meanwhile)"
        )
    finally:
        common.stop(server)
        service.close()
        dead.close()


if __name__ == "__main__":
    main()
