"""A flood of public connections from one address against a cashier's requests.

    python benchmarks/public_flood.py                      # 2,000 connections, 20 s + 30 s (under 3 min)
    python benchmarks/public_flood.py --connections 500 --seconds 15 --baseline-seconds 10
    python benchmarks/public_flood.py --rate limit --baseline-seconds 30 --seconds 30   # a flood paced at the limit

The target (the public URLs' own thread pool, their rate limits and the caps on open streams):
"a flood of 2,000 connections from one address leaves a cashier's request as fast as without it".

Setup (not timed): the PostgreSQL database ``tdm_flood`` dropped, created and migrated
(``--database URL`` for another), a Redis of its own, 2 web processes (uvicorn, started by
``festival_clients.Topology`` without workers or beat), one re-entry event of ``--entries``
(300) entries seated with its clock running, a cashier, a director, one lobby screen and the
players' phone tokens (``festival_clients.build_festival``).

Both phases run, from 127.0.0.1: a cashier (``GET /api/v1/cashier/shift/`` then a cash sale,
``POST /api/v1/cashier/register/`` with an Idempotency-Key, every ``--pace`` s), a director
(``GET /api/v1/tournaments/`` every 0.5 s; the clock paused or resumed every 4 s), the lobby
screen's stream (how long until the director's pause or resume reaches it) and, in the middle
of each phase, a new lobby screen stream and a new phone stream (a token the flood does not use)
opened as a browser opens them.

Phase 1 (``--baseline-seconds``, 20): that alone. Phase 2 (``--seconds``, 30): meanwhile a
process of its own opens ``--connections`` connections at once, every one bound to 127.0.0.9
(one address), half to each web process, and keeps them busy until the phase ends: 30 % phone
streams of one token, 30 % phone streams of the other tokens, 10 % the lobby screen's stream
(its display token), 20 % ``/p/<token>/state/`` asked in a tight loop (the next request as the
answer arrives), 10 % the seat lookup ``/seats/<id>/find/?q=ab`` in a tight loop. A refused
stream asks again on its connection after ``--retry-pause`` s (0.5); a stream the server ends
is opened again at once on a new connection.

``--rate R`` (or ``--rate limit``) floods otherwise: a flood paced at the per-address limit,
every request of it served and doing its real work, rather than connections in tight loops
refused at once. The flood's process sends R public requests a second in all (``limit``: 0.95 x
``TDM_PUBLIC_ADDRESS_RATE`` x the web processes, just under what one address may ask: the
buckets are per process), evenly spaced, to the web processes in turn, on kept-alive connections
(a new one whenever none is idle), from 127.0.0.9. The mix (``--mix kind=weight,...``) is a
card room behind one NAT address: phones polling their state (50 %), loading their page (8 %)
and opening their stream (8 %: read to its first frame, held ``--hold`` s, closed), the seat
lookup's answers (10 %) and page (3 %), lobby screens' seat pages (8 %), settings (4 %),
polled state (5 %) and streams (4 %), over the phones' tokens and ``--screens`` (40) screens'
tokens so that no token's own limit refuses any. ``--burst N`` (or ``limit``) sends N at once
first. Printed besides: the requests sent, answered by kind and status with their p50/p95,
served and refused, and the web processes' and PostgreSQL's CPU per public request (the flood
phase's CPU less the baseline's rate, over the answers).

In both modes ``--room-phones`` (20) phones of the room hold their streams from 127.0.0.1
through both phases: with a phone open, a web process builds the phones' index at every change,
the room's normal load, so the baseline has it too.

Printed, each phase beside the other: the cashier's and the director's p50/p95/p99/max and
errors, each request's p50/p95, the pause/resume's delay to the lobby screen, the new streams'
answers, the web processes' and PostgreSQL's CPU (and the flood's own: it runs on the same
cores); then what the flood got (answers by status, streams held, open streams per token at the
end, connection errors, answers that took over 30 s) and anything logged by the web processes.
PASS when the cashier's GET and POST p95 in the flood are each within 1.5 x the baseline's
p95 + 10 ms and no request of the staff got a 5xx or no answer.
"""

import argparse
import asyncio
import collections
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import festival_clients as fc  # noqa: E402
from common import pause, pct  # noqa: E402

FLOOD_ADDR = "127.0.0.9"
SEQ = re.compile(rb'"seq": ?(\d+)')


async def read_head(reader, st, kind) -> tuple[int, bytes]:
    """An answer's status and head (an answer slower than 30 s counts as slow), the status counted."""
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
    except TimeoutError:
        st.slow[kind] += 1
        raise
    status = int(head.split(b" ", 2)[1])
    st.answers[(kind, status)] += 1
    return status, head


# --- the flood (a process of its own: ``python benchmarks/public_flood.py flood``) -------------


class FloodStats:
    def __init__(self):
        self.answers = collections.Counter()  # (kind, status)
        self.errors = collections.Counter()  # (kind, what)
        self.connects = 0
        self.ended = collections.Counter()  # kind -> streams the server ended
        self.held = collections.Counter()  # (kind, token) -> streams open now
        self.most_held = 0
        self.slow = collections.Counter()  # kind -> answers that took over 30 s (or never came)
        self.latency = collections.defaultdict(list)  # kind -> seconds of the polls' answers
        self.reopened = 0  # kept-alive connections found closed by the server: the request sent again on a new one


async def _read_body(reader, head: bytes):
    """Reads the answer's body (a stream's: until the server ends it); False when the server
    closes the connection after it."""
    low = head.lower()
    m = re.search(rb"content-length: *(\d+)", low)
    if m:
        await reader.readexactly(int(m.group(1)))
    elif b"transfer-encoding: chunked" in low:
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    else:
        while await reader.read(65536):
            pass
        return False
    return b"connection: close" not in head.lower()


async def _slot(kind, token, path, port, st: FloodStats, stop: asyncio.Event, retry_pause):
    stream = kind.endswith("stream")
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: {'text/event-stream' if stream else '*/*'}\r\n\r\n".encode()
    while not stop.is_set():
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=(FLOOD_ADDR, 0), limit=2**20), 30)
        except (TimeoutError, OSError) as exc:
            st.errors[(kind, f"connect {type(exc).__name__}")] += 1
            await pause(stop, retry_pause)
            continue
        st.connects += 1
        try:
            while not stop.is_set():
                t0 = time.monotonic()
                writer.write(request)
                await writer.drain()
                status, head = await read_head(reader, st, kind)
                if stream and status == 200:
                    st.held[(kind, token)] += 1
                    st.most_held = max(st.most_held, sum(st.held.values()))
                    try:
                        keep = await _read_body(reader, head)  # until the server ends the stream
                    finally:
                        st.held[(kind, token)] -= 1
                    if not stop.is_set():
                        st.ended[kind] += 1
                    if not keep:
                        break
                    continue  # asked again at once, on the same connection
                if not stream:
                    st.latency[kind].append(time.monotonic() - t0)
                keep = await _read_body(reader, head)
                if not keep:
                    break
                if stream:
                    await pause(stop, retry_pause)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError) as exc:
            if not stop.is_set():
                st.errors[(kind, type(exc).__name__)] += 1
        finally:
            writer.transport.abort()


async def _flood(cfg):
    st = FloodStats()
    stop = asyncio.Event()
    ports = cfg["ports"]
    t0 = time.monotonic()
    tasks = [
        asyncio.create_task(_slot(kind, token, path, ports[i % len(ports)], st, stop, cfg["retry_pause"])) for i, (kind, token, path) in enumerate(cfg["slots"])
    ]
    print(json.dumps({"started": t0}), flush=True)
    await asyncio.sleep(max(0.0, t0 + cfg["seconds"] - time.monotonic()))
    held = {f"{k}|{t}": n for (k, t), n in st.held.items() if n}
    t1 = time.monotonic()
    stop.set()
    await asyncio.sleep(0.2)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = {k: sorted(v) for k, v in st.latency.items()}
    print(
        json.dumps(
            {
                "t0": t0,
                "t1": t1,
                "answers": {f"{k}|{s}": n for (k, s), n in st.answers.items()},
                "errors": {f"{k}|{e}": n for (k, e), n in st.errors.items()},
                "connects": st.connects,
                "ended": dict(st.ended),
                "held": held,
                "most_held": st.most_held,
                "slow": dict(st.slow),
                "latency": {k: [len(v), pct(v, 50), pct(v, 99), v[-1]] for k, v in lat.items() if v},
            }
        ),
        flush=True,
    )


# --- the paced flood (``--rate``): requests at a steady rate, each one served and doing real work ---

# The kinds of a paced flood's requests and their default weights: a card room behind one NAT
# address, mostly phones (their polling fallback, page loads, streams opened), some lobby
# screens (their seat pages, settings, polling fallback and streams) and the seat lookup.
PACED_MIX = {
    "phone-state": 50,
    "phone-page": 8,
    "phone-stream": 8,
    "seat-find": 10,
    "seat-page": 3,
    "screen-seats": 8,
    "screen-config": 4,
    "screen-state": 5,
    "screen-stream": 4,
}


def parse_mix(text: str | None) -> dict:
    """``kind=weight,kind=weight`` (the kinds of ``PACED_MIX``); None or "": the default mix."""
    if not text:
        return dict(PACED_MIX)
    mix = {}
    for part in text.split(","):
        kind, _, weight = part.partition("=")
        kind = kind.strip()
        if kind not in PACED_MIX:
            raise SystemExit(f"--mix: unknown kind {kind!r} (one of {', '.join(PACED_MIX)})")
        mix[kind] = float(weight or 1)
    return mix


def paced_path(kind, k, cfg) -> tuple[str, str]:
    """The ``k``-th request of ``kind``: (path, its token for the counts)."""
    tid, phones, screens, names = cfg["tid"], cfg["phones"], cfg["screens"], cfg["names"]
    if kind.startswith("phone"):
        tok = phones[(k * 7919) % len(phones)]
        return {"phone-state": f"/p/{tok}/state/", "phone-page": f"/p/{tok}/", "phone-stream": f"/p/{tok}/stream/"}[kind], tok
    if kind.startswith("screen"):
        tok = screens[(k * 31) % len(screens)]
        return {
            "screen-seats": f"/live/{tid}/seats/?token={tok}&page={1 + k % 7}",
            "screen-config": f"/display/{tok}/?config=1",
            "screen-state": f"/live/{tid}/state/?token={tok}",
            "screen-stream": f"/live/{tid}/stream/?token={tok}",
        }[kind], tok
    q = names[k % len(names)]
    return (f"/seats/{tid}/find/?q={q}" if kind == "seat-find" else f"/seats/{tid}/?q={q}"), ""


async def _paced_request(kind, path, port, idle, st, stop, hold):
    """One request of the paced flood on a kept-alive connection of ``idle[port]`` (or a new
    one), given back after its answer; a stream is opened on a connection of its own, read to
    its first frame, held ``hold`` s, then closed. A kept-alive connection the server closed
    while it was idle is replaced by a new one, as any client does."""
    stream = kind.endswith("stream")
    conn = None if stream or not idle[port] else idle[port].pop()
    while True:
        reused = conn is not None
        if conn is None:
            try:
                conn = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=(FLOOD_ADDR, 0), limit=2**20), 30)
            except (TimeoutError, OSError) as exc:
                st.errors[(kind, f"connect {type(exc).__name__}")] += 1
                return
            st.connects += 1
        keep = False
        try:
            keep = await _paced_exchange(kind, path, conn, st, stop, hold, reused)
            return
        except _Stale:
            st.reopened += 1
            conn[1].transport.abort()
            conn = None
        finally:
            if keep and not stop.is_set():
                idle[port].append(conn)
            elif conn is not None:
                conn[1].transport.abort()


class _Stale(Exception):
    """A kept-alive connection closed by the server before it read the request."""


async def _paced_exchange(kind, path, conn, st, stop, hold, reused) -> bool:
    """The request on ``conn`` and its answer; True when the connection may be used again."""
    stream = kind.endswith("stream")
    reader, writer = conn
    accept = "text/event-stream" if stream else "*/*"
    t0 = time.monotonic()
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: {accept}\r\nAccept-Language: en\r\n\r\n".encode())
        await writer.drain()
        try:
            status, head = await read_head(reader, st, kind)
        except (asyncio.IncompleteReadError, ConnectionResetError, BrokenPipeError) as exc:
            if reused and not getattr(exc, "partial", b""):
                raise _Stale() from None
            raise
        if stream and status == 200:
            data = b""
            while b"data: " not in data:  # the first frame: what the stream's opening cost
                got = await asyncio.wait_for(reader.read(65536), 30)
                if not got:
                    break
                data += got
            st.latency[kind].append(time.monotonic() - t0)
            st.held[(kind, "")] += 1
            st.most_held = max(st.most_held, sum(st.held.values()))
            try:
                end = time.monotonic() + hold
                while not stop.is_set() and time.monotonic() < end:
                    try:
                        if not await asyncio.wait_for(reader.read(65536), max(0.01, end - time.monotonic())):
                            st.ended[kind] += 1
                            break
                    except TimeoutError:
                        break
            finally:
                st.held[(kind, "")] -= 1
            return False
        keep = await _read_body(reader, head)
        if status < 400:
            st.latency[kind].append(time.monotonic() - t0)
        return keep
    except (TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError) as exc:
        if not stop.is_set():
            st.errors[(kind, type(exc).__name__)] += 1
        return False


async def _paced(cfg):
    """Requests at ``cfg["rate"]`` a second in all, evenly spaced, the kinds drawn from the mix
    in a fixed shuffled order, the web processes in turn (as a load balancer spreads them)."""
    import random

    st = FloodStats()
    stop = asyncio.Event()
    ports, rate, hold = cfg["ports"], cfg["rate"], cfg["hold"]
    rng = random.Random(7)
    mix = cfg["mix"]
    total = sum(mix.values())
    deck = [kind for kind, w in mix.items() for _ in range(max(1, round(200 * w / total)))] if total else []
    rng.shuffle(deck)
    idle = {p: [] for p in ports}
    tasks = set()
    counts = collections.Counter()
    behind = 0
    t0 = time.monotonic()
    print(json.dumps({"started": t0}), flush=True)
    k = 0
    end = t0 + cfg["seconds"]
    burst = cfg.get("burst", 0)  # sent at once first (the buckets start full), then the pace
    while True:
        due = t0 + max(0, k - burst) / rate
        if due >= end:
            break
        wait = due - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        if len(tasks) >= cfg["max_open"]:
            behind += 1  # the server is so slow that the flood has this many requests under way: skip one
        else:
            kind = deck[k % len(deck)]
            path, _tok = paced_path(kind, counts[kind], cfg)
            counts[kind] += 1
            task = asyncio.create_task(_paced_request(kind, path, ports[k % len(ports)], idle, st, stop, hold))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        k += 1
    t1 = time.monotonic()
    held = {f"{k_}|{t}": n for (k_, t), n in st.held.items() if n}
    stop.set()
    if tasks:  # the requests under way finish (streams end at once), at most 30 s
        await asyncio.wait(list(tasks), timeout=30)
    for task in list(tasks):
        task.cancel()
    for conns in idle.values():
        for _r, w in conns:
            w.transport.abort()
    lat = {k_: sorted(v) for k_, v in st.latency.items()}
    print(
        json.dumps(
            {
                "t0": t0,
                "t1": t1,
                "sent": k - behind,
                "behind": behind,
                "answers": {f"{k_}|{s}": n for (k_, s), n in st.answers.items()},
                "errors": {f"{k_}|{e}": n for (k_, e), n in st.errors.items()},
                "connects": st.connects,
                "reopened": st.reopened,
                "ended": dict(st.ended),
                "held": held,
                "most_held": st.most_held,
                "slow": dict(st.slow),
                "latency": {k_: [len(v), pct(v, 50), pct(v, 99), v[-1], pct(v, 95)] for k_, v in lat.items() if v},
            }
        ),
        flush=True,
    )


def flood_main():
    fc.raise_nofile()
    import gc

    gc.disable()
    cfg = json.loads(sys.stdin.readline())
    asyncio.run(_paced(cfg) if cfg.get("rate") else _flood(cfg))


def flood_slots(n, tid, one, others, display):
    """The flood's mix: (kind, token, path) for ``n`` connections."""
    slots = []
    for i in range(n):
        r = i % 10
        if r < 3:
            slots.append(("phone-stream", one, f"/p/{one}/stream/"))
        elif r < 6:
            tok = others[i % len(others)]
            slots.append(("phone-stream", tok, f"/p/{tok}/stream/"))
        elif r < 7:
            slots.append(("screen-stream", display, f"/live/{tid}/stream/?token={display}"))
        elif r < 9:
            tok = others[(i * 7) % len(others)]
            slots.append(("phone-state", tok, f"/p/{tok}/state/"))
        else:
            slots.append(("seat-find", "", f"/seats/{tid}/find/?q=ab"))
    return slots


# --- the staff and the lobby screen (this process, 127.0.0.1) ----------------------------------


class Sample:
    """One request of the staff: (who, what, sent, answered, status or the error)."""

    def __init__(self):
        self.rows = []
        self.lock = threading.Lock()

    def add(self, *row):
        with self.lock:
            self.rows.append(row)

    def between(self, t0, t1):
        with self.lock:
            return [r for r in self.rows if t0 <= r[2] < t1]


def timed(http, sample, who, what, method, path, body=None, headers=None):
    t0 = time.monotonic()
    try:
        status, data = http.request(method, path, body, headers)
    except fc.Cut as cut:
        status, data = f"cut {cut}", {}
    sample.add(who, what, t0, time.monotonic(), status)
    return status, data


def cashier_loop(world, tid, sample, stop, pace):
    uid, tok = world.tokens["cashier"][0]
    http = fc.Http(world.bases, tok, start=0)
    try:
        while not stop.wait(pace):
            timed(http, sample, "cashier", "GET shift", "GET", "/api/v1/cashier/shift/")
            person = next(world.people)
            timed(
                http,
                sample,
                "cashier",
                "POST register",
                "POST",
                "/api/v1/cashier/register/",
                {"tournament": tid, "person": person.pk, "method": "CASH"},
                {"Idempotency-Key": f"flood-{uuid.uuid4().hex}"},
            )
    finally:
        http.close()


def director_loop(world, tid, sample, stop, changes, seq_lookup):
    uid, tok = world.tokens["director"][0]
    http = fc.Http(world.bases, tok, start=1)
    last_change = time.monotonic()
    try:
        while not stop.wait(0.5):
            timed(http, sample, "director", "GET tournaments", "GET", "/api/v1/tournaments/")
            if time.monotonic() - last_change >= 4.0:
                last_change = time.monotonic()
                op = "resume" if world.paused else "pause"
                t0 = time.monotonic()
                status, _d = timed(
                    http, sample, "director", f"POST clock/{op}", "POST", f"/api/v1/tournaments/{tid}/clock/{op}/", {"reason": "flood benchmark"}
                )
                if status == 200:
                    world.paused = not world.paused
                    changes.append((t0, seq_lookup(tid, uid), op))
    finally:
        http.close()


class LobbyScreen(threading.Thread):
    """A lobby screen's stream from 127.0.0.1 (blocking socket): every frame's arrival and seq;
    reconnects when the stream ends."""

    def __init__(self, port, tid, token, stop):
        super().__init__(daemon=True)
        self.port, self.path, self.stop_event = port, f"/live/{tid}/stream/?token={token}", stop
        self.frames = []  # (monotonic, seq)
        self.statuses = collections.Counter()  # answers and ends, over the whole run
        self.timeline = []  # (monotonic, answer or end)
        self.connected = threading.Event()

    def run(self):
        while not self.stop_event.is_set():
            try:
                self.once()
            except (OSError, ValueError) as exc:
                self.statuses[f"cut {type(exc).__name__}"] += 1
            self.stop_event.wait(1.0)

    def once(self):
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as s:
            s.sendall(f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
            f = s.makefile("rb")
            head = b""
            while not head.endswith(b"\r\n\r\n"):
                line = f.readline()
                if not line:
                    raise ValueError("closed before the head")
                head += line
            status = int(head.split(b" ", 2)[1])
            self.statuses[status] += 1
            self.timeline.append((time.monotonic(), status))
            if status != 200:
                return
            self.connected.set()
            s.settimeout(120)  # a makefile's reads cannot go on after a timeout: the heartbeats come well before
            chunked = b"transfer-encoding: chunked" in head.lower()
            buf = b""
            while not self.stop_event.is_set():
                if chunked:
                    size = int(f.readline().split(b";")[0], 16)
                    if size == 0:
                        self.statuses["ended by the server"] += 1
                        return
                    data = f.read(size + 2)[:-2]
                else:
                    data = f.read1(65536)
                    if not data:
                        self.statuses["closed by the server"] += 1
                        return
                buf += data
                while b"\n\n" in buf:
                    frame, buf = buf.split(b"\n\n", 1)
                    m = SEQ.search(frame)
                    if m and b"data: " in frame:
                        self.frames.append((time.monotonic(), int(m.group(1))))

    def delay(self, t0, seq):
        return next((t - t0 for t, s in self.frames if s >= seq and t >= t0), None)


class RoomPhone(threading.Thread):
    """A player's phone of the room (127.0.0.1, not the flood's address): its stream held open
    through both phases, read and dropped, opened again when it ends. With any phone open a web
    process builds the phones' index at every change: the room's normal load, in the baseline
    as in the flood."""

    def __init__(self, port, token, stop):
        super().__init__(daemon=True)
        self.port, self.path, self.stop_event = port, f"/p/{token}/stream/", stop
        self.answers = collections.Counter()

    def run(self):
        while not self.stop_event.is_set():
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=30) as s:
                    s.sendall(f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
                    s.settimeout(60)
                    first = s.recv(65536)
                    self.answers[first.split(b" ", 2)[1].decode() if first.startswith(b"HTTP/") else "closed"] += 1
                    while not self.stop_event.is_set() and s.recv(65536):
                        pass
            except (OSError, IndexError) as exc:
                self.answers[f"cut {type(exc).__name__}"] += 1
            self.stop_event.wait(1.0)


def new_stream(port, path, timeout=10.0):
    """A stream opened as a browser opens it: (status, seconds until its first frame or answer)."""
    t0 = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
            data = b""
            while b"\r\n\r\n" not in data:
                got = s.recv(65536)
                if not got:
                    return "closed", time.monotonic() - t0
                data += got
            status = int(data.split(b" ", 2)[1])
            if status != 200:
                return status, time.monotonic() - t0
            while b"data: " not in data:
                got = s.recv(65536)
                if not got:
                    return "200 closed", time.monotonic() - t0
                data += got
            return status, time.monotonic() - t0
    except OSError as exc:
        return f"error {type(exc).__name__}", time.monotonic() - t0


def cpu_seconds(pid):
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def db_cpu(url) -> dict:
    """CPU seconds so far of each PostgreSQL backend connected to the database of ``url`` (on
    this machine): the web processes' pooled connections, which live as long as they do."""
    import psycopg

    dbname = url.rsplit("/", 1)[1]
    try:
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            pids = [row[0] for row in conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (dbname,))]
    except psycopg.Error:
        return {}
    return {pid: cpu_seconds(pid) for pid in pids}


# --- the run --------------------------------------------------------------------------------------


def figures(rows, who):
    mine = [r for r in rows if r[0] == who]
    lat = [r[3] - r[2] for r in mine if isinstance(r[4], int) and r[4] < 500]
    errors = collections.Counter(str(r[4]) for r in mine if not isinstance(r[4], int) or r[4] >= 400)
    return {
        "n": len(mine),
        "p50": pct(lat, 50),
        "p95": pct(lat, 95),
        "p99": pct(lat, 99),
        "max": max(lat, default=float("nan")),
        "errors": errors,
        "fivexx": sum(n for s, n in errors.items() if not s.isdigit() or int(s) >= 500),
    }


def ms(v):
    return "-" if v != v else f"{v * 1000:.1f} ms"


def run_phase(name, seconds, world, tid, seq_lookup, screen, probe_tokens, flood_cfg=None):
    stop = threading.Event()
    sample, changes = Sample(), []
    webs = world.topology.of("web")
    cpu0 = {s.name: cpu_seconds(s.proc.pid) for s in webs}
    db0 = db_cpu(world.database_url)
    threads = [
        threading.Thread(target=cashier_loop, args=(world, tid, sample, stop, world.pace), daemon=True),
        threading.Thread(target=director_loop, args=(world, tid, sample, stop, changes, seq_lookup), daemon=True),
    ]
    flood = None
    children0 = os.times()
    t0 = time.monotonic()
    if flood_cfg is not None:
        flood = subprocess.Popen([sys.executable, __file__, "flood"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=fc.ROOT)
        flood.stdin.write(json.dumps({**flood_cfg, "seconds": seconds}) + "\n")
        flood.stdin.flush()
        t0 = json.loads(flood.stdout.readline())["started"]
    for th in threads:
        th.start()
    time.sleep(max(0.0, t0 + seconds / 2 - time.monotonic()))
    port = world.topology.web_ports[0]
    probes = {
        "new lobby screen": new_stream(port, f"/live/{tid}/stream/?token={probe_tokens[0]}"),
        "the flooded screen token, anew": new_stream(port, f"/live/{tid}/stream/?token={probe_tokens[2]}"),
        "new phone (a token not flooded)": new_stream(port, f"/p/{probe_tokens[1]}/stream/"),
    }
    flood_cpu = 0.0
    if flood is not None:
        out, _ = flood.communicate(timeout=seconds + 60)
        flood_result = json.loads(out.strip().splitlines()[-1])
        t1 = flood_result["t1"]
        children1 = os.times()  # the flood's process, waited for: its CPU is in the children's times
        flood_cpu = children1.children_user + children1.children_system - children0.children_user - children0.children_system
    else:
        time.sleep(max(0.0, t0 + seconds - time.monotonic()))
        t1, flood_result = time.monotonic(), None
    stop.set()
    for th in threads:
        th.join(40)
    cpu = {s.name: cpu_seconds(s.proc.pid) - cpu0[s.name] for s in webs}
    db_cpu_used = sum(now - db0.get(pid, 0.0) for pid, now in db_cpu(world.database_url).items())
    rows = sample.between(t0, t1)
    delays = [(op, screen.delay(ct, seq)) for ct, seq, op in changes if t0 <= ct < t1 and seq]
    return {
        "name": name,
        "wall": t1 - t0,
        "cashier": figures(rows, "cashier"),
        "director": figures(rows, "director"),
        "by_what": {w: figures([r for r in rows if r[1] == w], r0) for w, r0 in {(r[1], r[0]) for r in rows}},
        "delays": delays,
        "probes": probes,
        "cpu": cpu,
        "db_cpu": db_cpu_used,
        "flood_cpu": flood_cpu,
        "flood": flood_result,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--connections", type=int, default=2000, help="the flood's connections, all from 127.0.0.9 (2000)")
    ap.add_argument("--seconds", type=float, default=30.0, help="the flood phase (30)")
    ap.add_argument("--baseline-seconds", type=float, default=20.0, help="the phase without the flood, first (20)")
    ap.add_argument("--entries", type=int, default=300)
    ap.add_argument("--pace", type=float, default=0.2, help="seconds between two rounds of the cashier (GET shift, then a sale)")
    ap.add_argument("--retry-pause", type=float, default=0.5, help="seconds before a refused flood stream asks again")
    ap.add_argument("--database", default=None, help="PostgreSQL URL (dropped and created): postgres://postgres@127.0.0.1:5432/tdm_flood")
    ap.add_argument("--logs", default=None, help="folder for the web processes' logs (a temporary one by default)")
    ap.add_argument(
        "--rate",
        default=None,
        help="a paced flood instead of the connections: R public requests a second in all, or 'limit': just under what one address "
        "may ask (0.95 x TDM_PUBLIC_ADDRESS_RATE x the web processes: the buckets are per process)",
    )
    ap.add_argument(
        "--mix", default=None, help="the paced flood's kinds and weights, kind=w,kind=w (default: " + ",".join(f"{k}={w}" for k, w in PACED_MIX.items()) + ")"
    )
    ap.add_argument(
        "--burst",
        default="0",
        help="the paced flood first sends this many requests at once, or 'limit': just under what the buckets hold "
        "(0.95 x TDM_PUBLIC_ADDRESS_BURST x the web processes), then paces (0)",
    )
    ap.add_argument("--hold", type=float, default=10.0, help="seconds a paced flood's stream is held open after its first frame (10)")
    ap.add_argument("--screens", type=int, default=40, help="the paced flood's lobby screens (their tokens share the screen requests; 40)")
    ap.add_argument(
        "--room-phones",
        type=int,
        default=20,
        help="phones of the room holding their streams from 127.0.0.1 through both phases, the web processes in turn (20)",
    )
    ap.add_argument("--max-open", type=int, default=2000, help="the paced flood's requests under way at most (past it one is skipped; 2000)")
    args = ap.parse_args()
    wall0 = time.monotonic()
    soft, hard = fc.raise_nofile()
    load = os.getloadavg()
    what = f"{args.connections} connections" if args.rate is None else f"a paced flood (--rate {args.rate})"
    print(
        f"public_flood: {what} from {FLOOD_ADDR}; baseline {args.baseline_seconds:g} s, flood {args.seconds:g} s; "
        f"{os.cpu_count()} cores, load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; open files {soft}"
    )
    others_running = subprocess.run(["pgrep", "-f", "benchmarks/festival.py"], capture_output=True, text=True).stdout.split()
    if others_running:
        print(f"  warning: benchmarks/festival.py is running (pids {' '.join(others_running)}): the figures share the cores with it")
    os.environ.pop("REDIS_URL", None)
    os.environ["TDM_ARM_CLOCK_TASKS"] = "false"
    import common

    url = args.database or "postgres://postgres@127.0.0.1:5432/tdm_flood"
    common.prepare_database(url, "tdm_flood")
    # The static files collected before the web processes start, as ``manage.py serve`` does
    # (into this checkout's STATIC_ROOT, once while the sources do not change): two processes
    # starting at once on an empty one must not race for it.
    from django.conf import settings as django_settings

    from tdmanager import staticbuild

    staticbuild.ensure_collected()
    os.environ["TDM_STATIC_ROOT"] = str(django_settings.STATIC_ROOT)
    topology = fc.Topology(url, webs=2, workers=0, namespace=f"tdm-flood-{uuid.uuid4().hex[:8]}", log_dir=args.logs)
    topology.services = [s for s in topology.services if s.kind in ("redis", "web")]  # no worker, no beat: the web processes alone
    os.environ["REDIS_URL"], os.environ["TDM_NAMESPACE"] = topology.redis_url, topology.namespace
    from django.conf import settings

    from tdmanager import realtime

    settings.REDIS_URL, settings.TDM_NAMESPACE = topology.redis_url, topology.namespace
    realtime.bus._client = None
    stop_screen = threading.Event()
    seq_lookup = fc.SeqLookup()
    try:
        tick = time.monotonic()
        topology.start()
        plan = fc.Plan(
            flights=0,
            side_events=1,
            side_entries=args.entries,
            sit_and_goes=0,
            desks=1,
            tablets=0,
            screens=2 + (args.screens if args.rate else 0),
            phones=args.entries,
            desk_pause=1.0,
        )
        world = fc.build_festival(plan, log=lambda m: print(m))
        world.topology, world.bases, world.plan, world.pace, world.paused = topology, topology.bases, plan, args.pace, False
        world.database_url = url
        tid = next(iter(world.events))
        (_t, display), (_t2, probe_display) = world.screens[0], world.screens[1]
        tokens = [tok for _t, _e, tok in world.phones]
        probe_phone, one = tokens[0], tokens[1]
        room, others = tokens[2 : 2 + args.room_phones], tokens[2 + args.room_phones :]  # the room's phones; the flood's tokens
        print(
            f"setup in {time.monotonic() - tick:.1f} s: redis :{topology.redis_port}, web {topology.web_ports} (logs in {topology.log_dir}); "
            f"event {tid}, {args.entries} entries, clock running; {len(tokens)} phone tokens, {len(world.screens)} lobby screens"
        )
        phones_of_room = [RoomPhone(topology.web_ports[i % len(topology.web_ports)], tok, stop_screen) for i, tok in enumerate(room)]
        for p in phones_of_room:
            p.start()
        screen = LobbyScreen(topology.web_ports[0], tid, display, stop_screen)
        screen.start()
        if not screen.connected.wait(15):
            raise RuntimeError(f"the lobby screen did not connect: {dict(screen.statuses)}")
        if args.rate is None:
            flood_cfg = {"ports": topology.web_ports, "retry_pause": args.retry_pause, "slots": flood_slots(args.connections, tid, one, others, display)}
        else:
            limit = settings.TDM_PUBLIC_ADDRESS_RATE * len(topology.web_ports)
            rate = 0.95 * limit if args.rate == "limit" else float(args.rate)
            if rate <= 0:
                raise SystemExit("--rate: a paced flood needs a rate (TDM_PUBLIC_ADDRESS_RATE is 0: no limit)")
            burst = int(0.95 * settings.TDM_PUBLIC_ADDRESS_BURST * len(topology.web_ports)) if args.burst == "limit" else int(args.burst)
            args.rate_used, args.rate_limit, args.burst_used = rate, limit, burst
            names = [f"walkin{i:05d}" for i in range(10)] + ["pla", "wal", "xyz"]  # 13 names: the lookup's names a minute hold
            flood_cfg = {
                "ports": topology.web_ports,
                "rate": rate,
                "burst": burst,
                "mix": parse_mix(args.mix),
                "hold": args.hold,
                "max_open": args.max_open,
                "tid": tid,
                "phones": others,
                "screens": [tok for _t, tok in world.screens[2:]],
                "names": names,
            }
            print(
                f"paced flood: {rate:g} requests a second in all from {FLOOD_ADDR}, the web processes in turn (an address may ask "
                f"{settings.TDM_PUBLIC_ADDRESS_RATE} a second of each of the {len(topology.web_ports)}: {limit:g} in all, burst "
                f"{settings.TDM_PUBLIC_ADDRESS_BURST} each){f'; {burst} sent at once first' if burst else ''}; mix {flood_cfg['mix']}; streams held {args.hold:g} s; "
                f"TDM_WEB_THREADS {settings.TDM_WEB_THREADS}, TDM_WEB_PUBLIC_THREADS {settings.TDM_WEB_PUBLIC_THREADS}"
            )
        base = run_phase("baseline", args.baseline_seconds, world, tid, seq_lookup, screen, (probe_display, probe_phone, display))
        time.sleep(1.0)
        flood = run_phase("flood", args.seconds, world, tid, seq_lookup, screen, (probe_display, probe_phone, display), flood_cfg)
        time.sleep(1.0)
        after = new_stream(topology.web_ports[0], f"/live/{tid}/stream/?token={probe_display}")
        held = sum((p.answers for p in phones_of_room), collections.Counter())
        print(f"the room's phones ({len(phones_of_room)} streams from 127.0.0.1, both phases): answers {dict(held) or '-'}")
        report(args, base, flood, screen, topology, after, one, time.monotonic() - wall0)
    finally:
        stop_screen.set()
        seq_lookup.close()
        topology.stop()


def report(args, base, flood, screen, topology, after, one, wall):
    load = os.getloadavg()
    print(f"\nload average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
    print(f"{'':34}{'baseline':>34}  {'flood':>34}")
    print(f"{'phase':34}{base['wall']:>32.1f} s  {flood['wall']:>32.1f} s")
    for who in ("cashier", "director"):
        b, f = base[who], flood[who]
        print(f"{who + ' requests':34}{b['n']:>34}  {f['n']:>34}")
        line = "{p50} / {p95} / {p99} / {max}"
        print(
            f"{'  p50 / p95 / p99 / max':34}{line.format(**{k: ms(b[k]) for k in ('p50', 'p95', 'p99', 'max')}):>34}  "
            f"{line.format(**{k: ms(f[k]) for k in ('p50', 'p95', 'p99', 'max')}):>34}"
        )
        print(f"{'  errors':34}{str(dict(b['errors']) or 0):>34}  {str(dict(f['errors']) or 0):>34}")
    for what in sorted(set(base["by_what"]) | set(flood["by_what"])):
        b, f = base["by_what"].get(what), flood["by_what"].get(what)
        cell = lambda x: "-" if x is None else f"n {x['n']}, p50 {ms(x['p50'])}, p95 {ms(x['p95'])}"  # noqa: E731
        print(f"{'  ' + what:34}{cell(b):>34}  {cell(f):>34}")
    for ph in (base, flood):
        got = [d for _op, d in ph["delays"] if d is not None]
        ph["delay_cell"] = (
            f"{len(got)}/{len(ph['delays'])} seen, p50 {ms(pct(got, 50))}, max {ms(max(got, default=float('nan')))}" if ph["delays"] else "no change made"
        )
    print(f"{'pause/resume -> lobby screen':34}{base['delay_cell']:>34}  {flood['delay_cell']:>34}")
    for probe in base["probes"]:
        cell = lambda p: f"{p[0]} in {ms(p[1])}"  # noqa: E731
        print(f"{probe:34}{cell(base['probes'][probe]):>34}  {cell(flood['probes'][probe]):>34}")
    for ph in (base, flood):
        ph["cpu_cell"] = " + ".join(f"{v:.1f}" for v in ph["cpu"].values()) + f" s ({sum(ph['cpu'].values()) / ph['wall'] * 100:.0f} % of a core)"
    print(f"{'web processes CPU':34}{base['cpu_cell']:>34}  {flood['cpu_cell']:>34}")
    db_cell = lambda ph: f"{ph['db_cpu']:.1f} s ({ph['db_cpu'] / ph['wall'] * 100:.0f} % of a core)"  # noqa: E731
    print(f"{'PostgreSQL backends CPU':34}{db_cell(base):>34}  {db_cell(flood):>34}")
    print(f"{'the flood process CPU':34}{'-':>34}  {flood['flood_cpu']:>30.1f} s  ")
    print(f"lobby screen stream (127.0.0.1) all run: answers {dict(screen.statuses)}, {len(screen.frames)} frames")
    print(f"a new lobby screen 1 s after the flood: {after[0]} in {ms(after[1])}")

    fr = flood["flood"]
    paced = args.rate is not None
    if paced:
        print(
            f"\nthe paced flood ({args.rate_used:g} requests a second from {FLOOD_ADDR}, {flood['wall']:.1f} s): {fr['sent']} requests sent "
            f"({fr['sent'] / flood['wall']:.1f} a second), {fr['behind']} skipped (over --max-open under way); {fr['connects']} TCP connections made "
            f"({fr['reopened']} for a request whose kept-alive connection the server had closed)"
        )
    else:
        print(f"\nthe flood ({args.connections} connections from {FLOOD_ADDR}, {flood['wall']:.1f} s): {fr['connects']} TCP connections made")
    by_kind = collections.defaultdict(dict)
    for key, n in fr["answers"].items():
        kind, status = key.split("|")
        by_kind[kind][status] = n
    for kind, statuses in sorted(by_kind.items()):
        lat = fr["latency"].get(kind)
        extra = f"; answer p50 {ms(lat[1])}, {f'p95 {ms(lat[4])}, ' if len(lat) > 4 else ''}p99 {ms(lat[2])}, max {ms(lat[3])}" if lat else ""
        ended = "" if paced else f"; streams ended by the server {fr['ended'].get(kind, 0)}"
        print(f"  {kind:14} answers by status {dict(sorted(statuses.items()))}{ended}{extra}")
    answered = sum(fr["answers"].values())
    refused = sum(n for key, n in fr["answers"].items() if key.endswith("|429"))
    served = sum(n for key, n in fr["answers"].items() if int(key.rsplit("|", 1)[1]) < 400)
    web_b, web_f = sum(base["cpu"].values()), sum(flood["cpu"].values())
    extra_cpu = web_f - web_b / base["wall"] * flood["wall"]  # the web processes' CPU beyond the staff's own, in the flood
    extra_db = flood["db_cpu"] - base["db_cpu"] / base["wall"] * flood["wall"]
    print(
        f"  answered {answered}: served {served} ({served / flood['wall']:.1f} a second), refused 429 {refused}, other {answered - served - refused}; "
        f"web CPU {web_f:.1f} s in the flood against {web_b / base['wall'] * flood['wall']:.1f} s for the staff alone (baseline's rate): "
        f"{extra_cpu / max(1, answered) * 1000:.2f} ms of CPU per public request answered ({extra_cpu / flood['wall'] * 100:.0f} % of a core), "
        f"and {extra_db / max(1, answered) * 1000:.2f} ms of PostgreSQL's ({extra_db / flood['wall'] * 100:.0f} % of a core)"
    )
    print(f"  connection errors {fr['errors'] or 0}; no answer within 30 s {fr['slow'] or 0}")
    held = collections.Counter()
    per_token = collections.Counter()
    for key, n in fr["held"].items():
        kind, token = key.split("|")
        held[kind] += n
        per_token[(kind, token)] = n
    phones = [n for (k, t), n in per_token.items() if k == "phone-stream" and t != one]
    print(
        f"  streams open at the end: {dict(held)} (most at once {fr['most_held']}); the one token: "
        f"{per_token.get(('phone-stream', one), 0)} (2 web processes, cap {3} each); other tokens: {len(phones)} tokens, "
        f"at most {max(phones, default=0)} each"
    )
    # What the web processes logged.
    pattern = re.compile(r"Traceback|ERROR|Exception|PoolTimeout|Timeout|500")
    for s in topology.of("web"):
        lines = [ln for ln in s.log_path.read_text(errors="replace").splitlines() if pattern.search(ln)]
        print(f"  {s.name} log ({s.log_path}): {len(lines)} error lines" + (f"; first: {lines[0][:300]}" if lines else ""))

    staff_5xx = sum(ph[w]["fivexx"] for ph in (base, flood) for w in ("cashier", "director"))
    ok = staff_5xx == 0
    print()
    for what in ("GET shift", "POST register"):
        b, f = base["by_what"].get(what), flood["by_what"].get(what)
        if b is None or f is None:
            print(f"cashier {what}: not measured in both phases")
            ok = False
            continue
        bound = 1.5 * b["p95"] + 0.010
        ok = ok and f["p95"] <= bound
        print(
            f"cashier {what}: p50 {ms(b['p50'])} -> {ms(f['p50'])}, p95 {ms(b['p95'])} -> {ms(f['p95'])} "
            f"(x{f['p95'] / b['p95']:.2f}); bound 1.5 x {ms(b['p95'])} + 10 ms = {ms(bound)}: {'within' if f['p95'] <= bound else 'OVER'}"
        )
    print(f"staff 5xx or no answer: {staff_5xx}")
    flood_name = f"a flood of {args.rate_used:g} public requests a second" if paced else f"a flood of {args.connections} connections"
    if paced and args.burst_used:
        flood_name += f" after {args.burst_used} at once"
    print(
        f"{'PASS' if ok else 'FAIL'}: {flood_name} from one address "
        f"{'leaves' if ok else 'does not leave'} a cashier's requests as fast as without it  (whole run {wall:.0f} s)"
    )


if __name__ == "__main__" and sys.argv[1:] == ["flood"]:
    flood_main()
elif __name__ == "__main__":
    main()
