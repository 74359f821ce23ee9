"""Hostile uploads against the product as deployed: huge anonymous bodies, hostile layout files, hostile sheets.

    python benchmarks/hostile_uploads.py                             # 20 clients x 1 GB, 8 imports, SQLite
    python benchmarks/hostile_uploads.py --clients 2 --size 4M --imports 2 --seconds 5 --baseline-seconds 3
    python benchmarks/hostile_uploads.py --database postgres://postgres@127.0.0.1:5432/tdm_hostile --web-processes 2
    python benchmarks/hostile_uploads.py --parts 3 --database postgres://postgres@127.0.0.1:5432/tdm_hostile  # the sheets alone

The server is the product's own launcher, ``manage.py serve --no-worker`` (uvicorn with
``--http tdmanager.httpserver:HttpProtocol``, its embedded Redis) on a fresh database: a temporary
SQLite one by default, ``--database URL`` for PostgreSQL (dropped and created anew), with
``--web-processes`` (1) web processes. Setup (not timed): a staff member (a director with a
password), a director who imports, and one lobby screen (its public display URL).

Part 1, huge anonymous bodies: after a quiet baseline (``--baseline-seconds``), ``--clients``
clients at once (a process of their own) each send a ``--size`` body: half with a declared
Content-Length, half chunked (zeros, as fast as the socket takes them), to ``POST
/api/v1/auth/token/``, ``POST /login/`` and ``POST /display/<token>/`` in turn. A client stops
sending when the server answers or closes; it then sends again on a new connection until
``--seconds`` have passed (so that the staff's logins are timed during a flood, not after
it). Every 100 ms the web processes' resident memory (VmRSS) and the free space of the temp
dir's disk are read: the peak over the baseline is reported, before, during and after.

Part 2, hostile layout imports: after a quiet baseline, ``--imports`` directors import at once,
each again as soon as answered until ``--seconds`` have passed, a layout file (``POST /api/v1/screen-layouts/import/``, the director's token from ``POST
/api/v1/auth/token/``) as large as the layout limit allows, holding 20 embedded images (the most
a file may hold), each a 4096 x 4096 PNG (the most pixels allowed) whose rows are mostly noise-free
so that it fits the budget yet costs a full decode. The imports take turns between three files:
a block shows one of the images (decoded: 201), a block shows a 1 x 16,777,216 PNG that is a
header only (refused before any decode: 400 ``too_large``), no block shows any (all dropped
unread: 201). While another file is being read, an import is refused before its body is read
(503 ``busy``, the connection closed: the client, still sending, sees it closed).

Part 3, hostile sheets (the director's import of people), one after the other: an XLSX whose
sheet declares 350 bytes and inflates to 1.2 GB, 8 million ``<c/>`` cells without addresses (in
one row, and 100 a row), a ``<row r="200000000">``, 5 million blank rows, a CSV of a million
columns and 2,000 rows. Each is sent to ``POST /api/v1/imports/people/preview/`` (400 with the
limit's code expected), then uploaded through the page (``POST /imports/people/``, a session made
in the database) and its preview looked at twice at once, as two tabs would (each refused: 302 to
the upload page, or 503 busy while the other reads it). Then ``--page-uploads`` page uploads of
10 MB of random bytes, one after the other: the web processes' memory before and after, and the
files the director is left with (at most 5). ``--parts 3`` runs this part alone.

Throughout the parts the staff member opens ``GET /login/``, logs in through ``POST
/api/v1/auth/token/`` and reads ``GET /api/v1/tournaments/`` with the new token, every
``--probe-pause`` s. Printed: the figures
of each part beside its quiet baseline with the bars, the hostile clients' answers, and the web
processes' CPU (``/proc/<pid>/stat``) per request.

Bars: part 1, every hostile body refused (413, or the connection closed by the server), the
temp dir's disk and the web processes' memory within a few MB of the baseline (5 MB, 10 MB), the
staff's login page and token login p95 within 1.5 x the baseline's + 10 ms; part 2, peak memory
under +200 MB and the login page's p95 under 200 ms (the token login is printed beside its
baseline: its password hash alone takes a few hundred ms on a quiet machine); part 3, each
hostile sheet refused within 5 s by the API and on each look at the kept file, the web processes'
peak within +100 MB of just before it, the page uploads leaving at most +40 MB and 5 kept files.
"""

import argparse
import asyncio
import base64
import collections
import http.client
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import common  # noqa: E402
from common import pct  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")
#: what the staff member does each round: opens the login page, logs in (a token: the password's
#: hash is most of it), reads the tournaments with the new token
STAFF = ("login page", "login", "read")
MB = 1024 * 1024
CHUNK = 256 * 1024
DISK_BAR_MB, RSS_BAR_MB = 5, 10  # part 1: "within a few MB"
IMPORT_RSS_BAR_MB, IMPORT_LOGIN_BAR = 200, 0.200  # part 2
PASSWORD = "hostile-" + uuid.uuid4().hex[:12]


def parse_size(text: str) -> int:
    units = {"K": 1024, "M": MB, "G": 1024 * MB}
    text = text.strip().upper().removesuffix("B")
    return int(float(text[:-1]) * units[text[-1]]) if text and text[-1] in units else int(text)


def ms(seconds) -> str:
    return "-" if seconds != seconds else f"{seconds * 1000:.1f} ms"


# --- the hostile clients (a process of their own: ``python benchmarks/hostile_uploads.py flood``) --


async def _read_answer(reader):
    """(status, whether the server closed the connection after it); status None: closed (or
    reset) before any answer could be read."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, ConnectionError, OSError, asyncio.LimitOverrunError):
        return None, True
    status = int(head.split(b" ", 2)[1])
    try:
        await asyncio.wait_for(reader.read(), 5)  # the rest of the answer, then the server's close
        return status, True
    except TimeoutError:
        return status, False
    except (ConnectionError, OSError):
        return status, True


async def _one_body(port, path, ctype, chunked, size, timeout):
    """One hostile body on a new connection; (outcome, bytes sent, seconds)."""
    t0 = time.monotonic()
    zeros = bytes(CHUNK)
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
    except (TimeoutError, OSError) as exc:
        return f"connect {type(exc).__name__}", 0, time.monotonic() - t0
    length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {ctype}\r\n{length}\r\n\r\n".encode()
    answer = asyncio.create_task(_read_answer(reader))
    sent = 0
    try:
        writer.write(head)
        while sent < size and not answer.done():
            n = min(CHUNK, size - sent)
            data = zeros if n == CHUNK else zeros[:n]
            writer.write(b"%x\r\n%b\r\n" % (n, data) if chunked else data)
            drain = asyncio.ensure_future(writer.drain())
            left = timeout - (time.monotonic() - t0)
            done, _ = await asyncio.wait({drain, answer}, timeout=max(0.01, left), return_when=asyncio.FIRST_COMPLETED)
            if drain not in done:
                drain.cancel()
                if not done:
                    break  # neither taken nor answered in time
            else:
                drain.result()
            sent += n
        if chunked and sent >= size and not answer.done():
            writer.write(b"0\r\n\r\n")
    except (ConnectionError, OSError):
        pass  # the server closed while we sent: its answer, if any, is read below
    try:
        status, closed = await asyncio.wait_for(answer, max(0.01, timeout - (time.monotonic() - t0)))
    except TimeoutError:
        outcome = "no answer in time"
    else:
        if status is None:
            outcome = "closed, no answer read"
        else:
            outcome = f"{status}{', closed' if closed else ', kept open'}"
    writer.transport.abort()
    return outcome, sent, time.monotonic() - t0


async def _client(port, path, ctype, chunked, size, until, timeout, results):
    while True:
        results.append(await _one_body(port, path, ctype, chunked, size, timeout))
        if time.monotonic() >= until:
            return
        await asyncio.sleep(0.2)  # a pause before the next attempt: the flood is of bodies, not of connections


async def _flood(cfg):
    until = time.monotonic() + cfg["seconds"]
    results = collections.defaultdict(list)
    tasks = []
    for i in range(cfg["clients"]):
        path, ctype = cfg["targets"][(i // 2) % len(cfg["targets"])]
        chunked = i % 2 == 1
        key = f"{path.split('/')[1] if path.startswith('/display/') else path}|{'chunked' if chunked else 'Content-Length'}"
        tasks.append(asyncio.create_task(_client(cfg["port"], path, ctype, chunked, cfg["size"], until, cfg["timeout"], results[key])))
    await asyncio.gather(*tasks)
    return {k: v for k, v in results.items()}


def flood_main():
    cfg = json.loads(sys.stdin.read())
    t0 = time.monotonic()
    results = asyncio.run(_flood(cfg))
    usage = os.times()
    print(json.dumps({"results": results, "wall": time.monotonic() - t0, "cpu": usage.user + usage.system}), flush=True)


# --- what is measured on the server ---------------------------------------------------------


def web_pids(server_pid) -> list[int]:
    """The uvicorn process the launcher started and its own children (the web processes when
    there are several)."""
    import psutil

    try:
        kids = psutil.Process(server_pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    for p in kids:
        try:
            if "uvicorn" in " ".join(p.cmdline()):
                return [p.pid, *(c.pid for c in p.children(recursive=True))]
        except psutil.NoSuchProcess:
            continue
    return []


def rss_kb(pid) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pids) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return total / CLK_TCK


def dir_bytes(path) -> int:
    """The disk space the files under ``path`` take."""
    total = 0
    for parent, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(parent, name)).st_blocks * 512
            except OSError:
                pass
    return total


class Sampler(threading.Thread):
    """Every 100 ms: (time, the web processes' VmRSS in kB, free bytes of the temp dir's disk).
    The run's own data directory (the SQLite database, Redis' files) grows with the staff's
    logins: when it is on that disk, its growth is added back, so that what is left is what the
    server wrote elsewhere (a spooled body)."""

    def __init__(self, server_pid, data_dir):
        super().__init__(daemon=True)
        self.server_pid, self.samples, self.halt = server_pid, [], threading.Event()
        self.pids, self.tmp = web_pids(server_pid), tempfile.gettempdir()
        same_disk = os.stat(data_dir).st_dev == os.stat(self.tmp).st_dev
        self.data_dir = data_dir if same_disk else None

    def run(self):
        refreshed = time.monotonic()
        while not self.halt.is_set():
            now = time.monotonic()
            if now - refreshed > 1.0:  # a web process started again meanwhile is counted too
                self.pids, refreshed = web_pids(self.server_pid) or self.pids, now
            own = dir_bytes(self.data_dir) if self.data_dir else 0
            self.samples.append((now, sum(rss_kb(p) for p in self.pids), shutil.disk_usage(self.tmp).free + own))
            self.halt.wait(0.1)

    def window(self, t0, t1):
        return [s for s in self.samples if t0 <= s[0] <= t1]


class Prober(threading.Thread):
    """The staff member: a login through the token endpoint, then a read with the new token,
    every ``pause`` s, each timed and labelled with the phase it ran in."""

    def __init__(self, port, username, pause):
        super().__init__(daemon=True)
        self.port, self.username, self.pause = port, username, pause
        self.phase, self.halt = None, threading.Event()
        self.timings = collections.defaultdict(list)  # (phase, what) -> seconds
        self.errors = collections.Counter()  # (phase, what, status or exception)

    def run(self):
        with common.Client(f"http://127.0.0.1:{self.port}", timeout=60) as c:
            while not self.halt.is_set():
                phase = self.phase
                if phase is None:
                    self.halt.wait(0.05)
                    continue
                self.timed(phase, "login page", lambda: c.get("/login/"))
                token = self.timed(
                    phase, "login", lambda: c.post("/api/v1/auth/token/", json={"username": self.username, "password": PASSWORD, "device": "probe"})
                )
                if token is not None:
                    self.timed(phase, "read", lambda: c.get("/api/v1/tournaments/", headers={"Authorization": f"Token {token.json()['token']}"}))
                self.halt.wait(self.pause)

    def timed(self, phase, what, call):
        t0 = time.perf_counter()
        try:
            r = call()
        except Exception as exc:  # noqa: BLE001 - any failure of the staff's request is a figure
            self.errors[(phase, what, type(exc).__name__)] += 1
            return None
        self.timings[(phase, what)].append(time.perf_counter() - t0)
        if r.status_code >= 300:
            self.errors[(phase, what, r.status_code)] += 1
            return None
        return r


# --- the hostile layout files ------------------------------------------------------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width, height, idat: bytes | None) -> bytes:
    """An RGB PNG of 8 bits per sample; ``idat`` None: a header and no pixels at all."""
    head = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    return head + (_chunk(b"IDAT", idat) if idat is not None else b"") + _chunk(b"IEND", b"")


def noise_pngs(count, side, budget) -> list[bytes]:
    """``count`` distinct side x side RGB PNGs of about ``budget`` bytes each: black rows (which
    compress to almost nothing) then rows of noise, as many as the budget holds. Every one decodes
    to the full side x side picture."""
    row = 1 + 3 * side  # the filter byte, then the pixels
    noisy = max(1, min(side, (budget - 64 * 1024) // row))  # the black rows take about a thousandth of their size
    black_rows = zlib.compressobj(6)
    lead = black_rows.compress(bytes(row) * (side - noisy))  # once: each picture goes on from a copy
    out = []
    for _ in range(count):
        c = black_rows.copy()
        noise = b"".join(b"\x00" + os.urandom(3 * side) for _ in range(noisy))
        out.append(png(side, side, lead + c.compress(noise) + c.flush()))
    return out


def layout_files(limit: int) -> list[tuple[str, bytes]]:
    """The import bodies, each at most ``limit`` bytes: (what its blocks show, JSON body)."""
    budget = (limit - 16 * 1024) * 3 // 4 // 20  # 20 images in base64 (4 bytes for 3), the rest of the file aside
    images = [base64.b64encode(p).decode() for p in noise_pngs(20, 4096, budget)]
    header_only = base64.b64encode(png(1, 16_777_216, None)).decode()
    text = {"kind": "text", "x": 0, "y": 0, "w": 12, "h": 4, "text": "Welcome"}
    bodies = []
    for what in ("one 4096 x 4096 image", "a 1 x 16,777,216 header", "no image"):
        held = {str(i + 1): {"name": f"noise {i + 1}", "png": b} for i, b in enumerate(images)}
        blocks = [text]
        if what != "no image":
            blocks.append({"kind": "logo", "x": 0, "y": 4, "w": 12, "h": 12, "image": 1})
        if what.startswith("a 1 x"):
            held["1"] = {"name": "header only", "png": header_only}
        file = {"format": "tdmanager-screen-layout", "version": 1, "name": "Hostile", "portrait": False, "design": {"blocks": blocks}, "images": held}
        body = json.dumps({"file": file, "name": f"Hostile {what}"}).encode()
        if len(body) > limit:
            raise RuntimeError(f"the layout file is {len(body)} bytes, over the limit {limit}")
        bodies.append((what, body))
    return bodies


def one_import(port, token, what, body, out):
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        conn.request("POST", "/api/v1/screen-layouts/import/", body=body, headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
        r = conn.getresponse()
        data = r.read()
        code = ""
        if r.status >= 400:
            try:
                code = json.loads(data).get("code", "")
            except ValueError:
                code = data[:60].decode("utf-8", "replace")
        out.append((what, f"{r.status} {code}".strip(), time.perf_counter() - t0))
    except (ConnectionResetError, BrokenPipeError):
        # the server answered 503 busy before the body and closed: this client was still sending
        out.append((what, "closed", time.perf_counter() - t0))
    except Exception as exc:  # noqa: BLE001 - an import that got no answer is a figure
        out.append((what, type(exc).__name__, time.perf_counter() - t0))
    finally:
        conn.close()


def importer(port, token, what, body, until, out):
    """One hostile director: imports, and imports again as soon as answered (a 503 ``busy``
    included), until ``until``."""
    while True:
        one_import(port, token, what, body, out)
        if time.monotonic() >= until:
            return


def run_imports(port, token, bodies, n, seconds) -> list:
    out, threads = [], []
    until = time.monotonic() + seconds
    for i in range(n):
        what, body = bodies[i % len(bodies)]
        threads.append(threading.Thread(target=importer, args=(port, token, what, body, until, out), daemon=True))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


# --- part 3: hostile sheets -----------------------------------------------------------------------

SHEET_HEAD = b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
SHEET_TAIL = b"</sheetData></worksheet>"
SHEET_HEADER_ROW = b'<row r="1"><c r="A1" t="inlineStr"><is><t>Cognome</t></is></c><c r="B1" t="inlineStr"><is><t>Nome</t></is></c></row>'
#: part 3: each hostile sheet refused within 5 s (2 million cells scanned: about 2.5 s of CPU on a
#: busy machine), the web processes within +100 MB of just before it
SHEET_TIME_BAR, SHEET_RSS_BAR_MB = 5.0, 100
UPLOADS_RSS_BAR_MB = 40  # part 3: what the page uploads leave in the web process (each left 20 MB in a pooled connection)


def _xlsx_parts(sheet_xml_parts) -> dict:
    """The parts of a minimal workbook around a first sheet given as pieces (bytes, or a count of
    spaces to inflate to: never held whole here)."""
    ns = b'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"'
    return {
        "[Content_Types].xml": b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        b'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        b'<Default Extension="xml" ContentType="application/xml"/>'
        b'<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        b'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
        "_rels/.rels": b'<?xml version="1.0"?><Relationships ' + ns + b'><Relationship Id="rId1" '
        b'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": b'<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        b'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": b'<?xml version="1.0"?><Relationships ' + ns + b'><Relationship Id="rId1" '
        b'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": sheet_xml_parts,
    }


def _zip_entry(name: str, pieces, declared: bytes | None = None) -> tuple[bytes, bytes]:
    """(local header + deflated data, central directory entry without its offset) of one part;
    ``pieces``: bytes, or a list of bytes and counts of spaces; ``declared``: the bytes the
    header says the part holds (their size and CRC), whatever it inflates to."""
    pieces = [pieces] if isinstance(pieces, bytes) else pieces
    packer, packed, crc, size = zlib.compressobj(6, zlib.DEFLATED, -15), [], 0, 0
    spaces = b" " * MB
    for piece in pieces:
        chunks = [piece] if isinstance(piece, bytes) else [spaces] * (piece // MB) + [b" " * (piece % MB)]
        for chunk in chunks:
            packed.append(packer.compress(chunk))
            crc, size = zlib.crc32(chunk, crc), size + len(chunk)
    packed.append(packer.flush())
    data = b"".join(packed)
    if declared is not None:
        crc, size = zlib.crc32(declared), len(declared)
    raw_name = name.encode()
    fields = struct.pack("<HHHHHIII", 20, 0, 8, 0, 0x21, crc, len(data), size)
    local = b"PK\x03\x04" + fields + struct.pack("<HH", len(raw_name), 0) + raw_name + data
    central = b"PK\x01\x02" + struct.pack("<H", 20) + fields + struct.pack("<HHHHHII", len(raw_name), 0, 0, 0, 0, 0, 0)
    return local, central + raw_name


def xlsx_of(sheet_pieces, declared: bytes | None = None) -> bytes:
    out, directory = bytearray(), []
    for name, pieces in _xlsx_parts(sheet_pieces).items():
        local, central = _zip_entry(name, pieces, declared if name.endswith("sheet1.xml") else None)
        directory.append(central[:42] + struct.pack("<I", len(out)) + central[46:])  # its local header's offset
        out += local
    start = len(out)
    for entry in directory:
        out += entry
    out += b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, len(directory), len(directory), len(out) - start, start, 0)
    return bytes(out)


def hostile_sheets() -> list[tuple[str, str, bytes, str]]:
    """(what, file name, bytes, the refusal expected) of each hostile sheet."""
    small = SHEET_HEAD + SHEET_HEADER_ROW + b'<row r="2"><c r="A2" t="inlineStr"><is><t>Rossi</t></is></c></row>' + SHEET_TAIL
    return [
        ("declares 350 B, inflates 1.2 GB", "a.xlsx", xlsx_of([small, 1200 * MB], declared=small), "bad_file"),
        ("8 M <c/> in one row", "b.xlsx", xlsx_of(SHEET_HEAD + SHEET_HEADER_ROW + b"<row>" + b"<c/>" * 8_000_000 + b"</row>" + SHEET_TAIL), "too_many_columns"),
        (
            "8 M <c/>, 100 a row",
            "c.xlsx",
            xlsx_of(SHEET_HEAD + SHEET_HEADER_ROW + b"".join([b"<row>" + b"<c/>" * 100 + b"</row>"] * 80_000) + SHEET_TAIL),
            "too_many_cells",
        ),
        (
            '<row r="200000000">',
            "d.xlsx",
            xlsx_of(SHEET_HEAD + SHEET_HEADER_ROW + b'<row r="200000000"><c t="inlineStr"><is><t>x</t></is></c></row>' + SHEET_TAIL),
            "too_many_rows",
        ),
        ("5 M blank rows", "e.xlsx", xlsx_of(SHEET_HEAD + SHEET_HEADER_ROW + b"<row/>" * 5_000_000 + SHEET_TAIL), "too_many_rows"),
        ("CSV, 1 M columns x 2,000 rows", "f.csv", b";".join([b"x"] * 1_000_000) + b"\r\n" + b"Rossi;Anna\r\n" * 2000, "too_many_columns"),
    ]


def multipart(filename: str, data: bytes, fields: dict | None = None) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    out = bytearray()
    for key, value in (fields or {}).items():
        out += f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
    out += f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
    out += data + f"\r\n--{boundary}--\r\n".encode()
    return bytes(out), f"multipart/form-data; boundary={boundary}"


def http_call(port, method, path, body=None, headers=None, timeout=300):
    """(status, body, seconds) of one request on a new connection."""
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.read(), r.getheader("Location") or "", time.perf_counter() - t0
    except (ConnectionError, OSError) as exc:
        return type(exc).__name__, b"", "", time.perf_counter() - t0
    finally:
        conn.close()


def page_session(port, username) -> dict:
    """The director logged in through the page's login form: the session's cookie and the CSRF
    headers a page's POST needs (the CSRF token is one of the client's choosing, as a browser's
    cookie would hold)."""
    csrf = uuid.uuid4().hex
    form = f"csrfmiddlewaretoken={csrf}&username={username}&password={PASSWORD}".encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", "/login/", body=form, headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={csrf}"})
        r = conn.getresponse()
        r.read()
        cookies = [c.split(";", 1)[0] for c in r.headers.get_all("Set-Cookie") or []]
    finally:
        conn.close()
    session = [c for c in cookies if c.startswith("sessionid=")]
    if r.status != 302 or not session:
        raise RuntimeError(f"the director's page login: {r.status}")
    return {"Cookie": f"{session[0]}; csrftoken={csrf}", "X-CSRFToken": csrf}


def run_sheets(port, token, page_headers, sheets_, sampler) -> list[dict]:
    """Each hostile sheet, one after the other: through the API's preview, then the page (its
    upload, then two looks at its preview at once, as two tabs would). The web processes' peak
    memory over what they held just before, and the time of each."""
    out = []
    for what, name, data, code in sheets_:
        t0 = time.monotonic()
        time.sleep(0.3)  # the sampler's figures of just before
        rss0 = max((s[1] for s in sampler.window(t0, time.monotonic())), default=0)
        body, ctype = multipart(name, data)
        status, answer, _loc, took = http_call(
            port, "POST", "/api/v1/imports/people/preview/", body, {"Authorization": f"Token {token}", "Content-Type": ctype}
        )
        try:
            got = json.loads(answer).get("code", "")
        except ValueError:
            got = answer[:60].decode("utf-8", "replace")
        api = (f"{status} {got}".strip(), took)
        status, up_answer, location, up_took = http_call(port, "POST", "/imports/people/", body, {**page_headers, "Content-Type": ctype})
        if not location.rstrip("/").split("/")[-1].isdigit():
            print(f"  (the page upload of {what}: {status} {location or up_answer[:200]!r})")
        looks = []
        if status == 302 and location.rstrip("/").split("/")[-1].isdigit():
            threads = [threading.Thread(target=lambda: looks.append(http_call(port, "GET", location, headers=page_headers)), daemon=True) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        page = [
            (f"{s} {'-> upload page' if s == 302 and 'imports/people/' in loc and not loc.rstrip('/').split('/')[-1].isdigit() else ''}".strip(), t)
            for s, _b, loc, t in looks
        ]
        time.sleep(0.3)
        peak = max((s[1] for s in sampler.window(t0, time.monotonic())), default=0)
        out.append({"what": what, "size": len(data), "expected": code, "api": api, "upload": (status, up_took), "looks": page, "rss": (peak - rss0) / 1024})
    return out


def run_page_uploads(port, page_headers, sampler, n: int) -> dict:
    """``n`` page uploads of a 10 MB file (random text: kept for a preview, never parsed), one
    after the other: the web processes' memory before and after (what stays), and how many
    files the director is left with."""
    before = [s[1] for s in sampler.window(time.monotonic() - 2.0, time.monotonic())]
    statuses, took = collections.Counter(), []
    for _ in range(n):
        body, ctype = multipart("noise.csv", base64.b64encode(os.urandom((10 * MB - 64 * 1024) * 3 // 4)))  # no NUL: the guard would refuse it
        status, _b, _loc, t = http_call(port, "POST", "/imports/people/", body, {**page_headers, "Content-Type": ctype})
        statuses[status] += 1
        took.append(t)
    time.sleep(2.0)
    after = [s[1] for s in sampler.window(time.monotonic() - 1.0, time.monotonic())]
    from django.db import connection

    from tournaments.models import ImportFile

    kept = ImportFile.objects.filter(imported_at__isnull=True).count()
    connection.close()
    return {"n": n, "statuses": dict(statuses), "took": took, "rss0": median(before) / 1024, "rss1": median(after) / 1024, "kept": kept}


def report_sheets(results) -> bool:
    print(
        f"\nPart 3: hostile sheets, one after the other (bars: the API refuses each 400 with its code within {SHEET_TIME_BAR:.0f} s; "
        f"each look at the kept file refused (302 to the upload page) or 503 busy within {SHEET_TIME_BAR:.0f} s; web RSS peak within +{SHEET_RSS_BAR_MB} MB)"
    )
    ok = True
    for r in results:
        api_status, api_took = r["api"]
        api_ok = api_status == f"400 {r['expected']}" and api_took <= SHEET_TIME_BAR
        looks_ok = len(r["looks"]) == 2 and all((s.startswith("302 ->") or s == "503") and t <= SHEET_TIME_BAR for s, t in r["looks"])
        rss_ok = r["rss"] <= SHEET_RSS_BAR_MB
        good = api_ok and looks_ok and rss_ok
        ok &= good
        looks = ", ".join(f"{s} in {ms(t)}" for s, t in r["looks"]) or "none"
        print(
            f"  {r['what']:32} {r['size'] / 1024:9,.0f} KB  API {api_status} in {ms(api_took)}; page upload {r['upload'][0]} in {ms(r['upload'][1])}, "
            f"2 looks: {looks}; web RSS peak +{r['rss']:.0f} MB  {'ok' if good else 'OVER'}"
        )
    return ok


# --- the run -------------------------------------------------------------------------------------


def setup(args, var_dirs):
    """A fresh database with the staff member, the importing director and a lobby screen; the
    temporary directories made go into ``var_dirs`` (removed at the end)."""
    os.environ.pop("REDIS_URL", None)  # serve starts its embedded Redis, as on one machine
    os.environ.pop("TDM_SQLITE_PATH", None)
    os.environ["TDM_VAR_DIR"] = tempfile.mkdtemp(prefix="tdm-hostile-")  # PostgreSQL's run: Redis' files there
    var_dirs.append(os.environ["TDM_VAR_DIR"])
    common.prepare_database(args.database or "sqlite", "tdm_hostile")
    var_dirs.append(os.environ["TDM_VAR_DIR"])
    from django.conf import settings
    from django.contrib.auth.models import Group, User
    from django.db import connection

    from tournaments.models import DisplayScreen

    stamp = uuid.uuid4().hex[:6]
    names = {}
    for who in ("staff", "importer"):
        user = User.objects.create_user(f"hostile-{who}-{stamp}", password=PASSWORD)
        user.groups.add(Group.objects.get_or_create(name="director")[0])
        names[who] = user.username
    screen = DisplayScreen.objects.create(name="lobby", token=f"hostile-{stamp}")
    limit = settings.TDM_BODY_LAYOUT
    connection.close()
    return names, screen.token, limit


def start_server(args, port):
    env = dict(os.environ)
    env.update(DEBUG="false", SECRET_KEY=os.environ.get("SECRET_KEY") or "hostile-" + uuid.uuid4().hex, PYTHONUNBUFFERED="1")
    log_path = Path(os.environ["TDM_VAR_DIR"]) / "serve.log"
    with open(log_path, "w") as log:
        # Its own session: Ctrl-C reaches this script alone, which stops the launcher (and the
        # launcher its children) in order.
        server = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--no-worker", "--host", "127.0.0.1", "--port", str(port), "--web-workers", str(args.web_processes)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return server, log_path


def wait_up(server, port, log_path, want_web, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"manage.py serve exited ({server.returncode}); see {log_path}")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/live/time/")
            ok = c.getresponse().status == 200
            c.close()
        except OSError:
            ok = False
        if ok and len(web_pids(server.pid)) >= want_web:
            return
        time.sleep(0.2)
    raise TimeoutError(f"the server was not up within {timeout} s; see {log_path}")


def shutdown(server, tracked, flood_proc):
    """Stop everything this run started: the hostile clients' process, then the launcher (which
    stops its web processes and Redis), then any of the processes it had started that is left."""
    if flood_proc is not None and flood_proc.poll() is None:
        flood_proc.kill()
        flood_proc.wait(10)
    if server is not None:
        common.stop(server, timeout=25)
    for p in tracked:
        try:
            if p.is_running():
                p.kill()
        except Exception:  # noqa: BLE001 - gone meanwhile
            pass


class Run:
    def __init__(self, server_pid, sampler, prober):
        self.server_pid, self.sampler, self.prober = server_pid, sampler, prober

    def phase(self, name, seconds=None, action=None):
        pids = web_pids(self.server_pid)
        c0, t0 = cpu_seconds(pids), time.monotonic()
        self.prober.phase = name
        result = action() if action else time.sleep(seconds)
        self.prober.phase = None
        t1, c1 = time.monotonic(), cpu_seconds(pids)
        p = self.prober
        staff = sum(len(p.timings[(name, w)]) for w in STAFF) + sum(n for (ph, _w, _s), n in p.errors.items() if ph == name)
        return {"name": name, "t0": t0, "t1": t1, "cpu": c1 - c0, "staff": staff, "result": result, "samples": self.sampler.window(t0, t1)}


def median(values):
    return pct(values, 50)


def memory_figures(quiet, busy, after):
    """(quiet RSS MB, peak over it MB, after over it MB, disk used at most MB, disk used after MB,
    quiet free GB)."""
    rss0 = median([s[1] for s in quiet["samples"]]) / 1024
    free0 = median([s[2] for s in quiet["samples"]])
    peak = max((s[1] for s in busy["samples"]), default=float("nan")) / 1024 - rss0
    rss_after = median([s[1] for s in after["samples"]]) / 1024 - rss0
    disk_peak = (free0 - min((s[2] for s in busy["samples"]), default=float("nan"))) / MB
    disk_after = (free0 - median([s[2] for s in after["samples"]])) / MB
    return rss0, peak, rss_after, disk_peak, disk_after, free0 / 1024**3


def staff_cells(prober, phase):
    cells = {}
    for what in STAFF:
        t = prober.timings[(phase, what)]
        cells[what] = (pct(t, 50), pct(t, 95), len(t))
    cells["errors"] = {f"{w} {s}": n for (ph, w, s), n in prober.errors.items() if ph == phase}
    return cells


def row(label, quiet, busy, bar="", verdict=""):
    print(f"  {label:34}{quiet:>28}  {busy:>34}  {bar:>24}  {verdict}")


def report_part(title, prober, quiet, busy, after, hostile_n, bars):
    """The table of one part; returns whether its bars are met."""
    rss0, peak, rss_after, disk_peak, disk_after, free_gb = memory_figures(quiet, busy, after)
    q, b = staff_cells(prober, quiet["name"]), staff_cells(prober, busy["name"])
    print(f"\n{title}")
    row("", f"quiet ({quiet['t1'] - quiet['t0']:.1f} s)", f"{busy['name']} ({busy['t1'] - busy['t0']:.1f} s)", "bar")
    ok = True
    rss_ok = peak <= bars["rss"]
    row("web processes' RSS", f"{rss0:.1f} MB", f"peak +{peak:.1f} MB, after +{rss_after:.1f} MB", f"peak <= +{bars['rss']} MB", "ok" if rss_ok else "OVER")
    ok &= rss_ok
    if "disk" in bars:
        disk_ok = disk_peak <= bars["disk"]
        row(
            "temp dir's disk used",
            f"0 MB ({free_gb:.1f} GB free)",
            f"peak {disk_peak:.1f} MB, after {disk_after:.1f} MB",
            f"<= {bars['disk']} MB",
            "ok" if disk_ok else "OVER",
        )
        ok &= disk_ok
    for what in STAFF:
        (q50, q95, qn), (b50, b95, bn) = q[what], b[what]
        bar, good = "", True
        if what in bars:
            bound = bars[what](q95)
            good = bn > 0 and b95 <= bound
            bar = f"p95 <= {ms(bound)}"
            ok &= good
        row(f"staff {what} p50 / p95 (n)", f"{ms(q50)} / {ms(q95)} ({qn})", f"{ms(b50)} / {ms(b95)} ({bn})", bar, ("ok" if good else "OVER") if bar else "")
    errors_ok = not b["errors"] and not q["errors"]
    row("staff errors", str(q["errors"] or 0), str(b["errors"] or 0), "none", "ok" if errors_ok else "FAIL")
    ok &= errors_ok
    q_per = quiet["cpu"] / max(1, quiet["staff"])
    b_all = busy["staff"] + hostile_n
    beyond = busy["cpu"] - q_per * busy["staff"]  # the busy phase's CPU less what its staff requests cost at the quiet rate
    row(
        "web CPU per request",
        f"{q_per * 1000:.1f} ms ({quiet['cpu']:.2f} s / {quiet['staff']})",
        f"{busy['cpu'] / max(1, b_all) * 1000:.1f} ms ({busy['cpu']:.2f} s / {b_all})",
    )
    row("  per hostile request (beyond staff)", "", f"{beyond / max(1, hostile_n) * 1000:.1f} ms x {hostile_n}")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=20, help="hostile clients at once in part 1 (20)")
    ap.add_argument("--size", default="1G", help="each hostile body's size, e.g. 1G, 64M (1G)")
    ap.add_argument("--seconds", type=float, default=15.0, help="each part's hostile clients send again until then (15)")
    ap.add_argument("--client-timeout", type=float, default=120.0, help="seconds a hostile body may take before it counts as not refused (120)")
    ap.add_argument("--imports", type=int, default=8, help="hostile layout imports at once in part 2 (8)")
    ap.add_argument("--baseline-seconds", type=float, default=10.0, help="each quiet baseline (10)")
    ap.add_argument("--probe-pause", type=float, default=0.2, help="seconds between the staff member's login + read (0.2)")
    ap.add_argument("--database", default=None, help="postgres://… (dropped and created anew); default: a temporary SQLite database")
    ap.add_argument("--web-processes", type=int, default=1, help="web processes of manage.py serve (1; keep 1 on SQLite)")
    ap.add_argument("--port", type=int, default=0, help="the server's port (0: a free one)")
    ap.add_argument("--parts", default="1,2,3", help="the parts to run, e.g. 3 (1,2,3)")
    ap.add_argument("--page-uploads", type=int, default=30, help="10 MB page uploads in part 3, to see what they leave (30)")
    args = ap.parse_args()
    parts = {int(p) for p in args.parts.split(",") if p.strip()}
    size = parse_size(args.size)

    def interrupted(*_a):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)  # a SIGTERM cleans up as Ctrl-C does
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C even when started with it ignored (in the background)
    wall0 = time.monotonic()
    load = os.getloadavg()
    print(
        f"hostile_uploads: {args.clients} clients x {args.size} ({size:,} bytes), {args.imports} imports; "
        f"{os.cpu_count()} cores, load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    server = flood_proc = None
    var_dir_before = os.environ.get("TDM_VAR_DIR")
    interrupted_run = False
    tracked, var_dirs = [], []
    sampler = prober = None
    try:
        names, screen_token, layout_limit = setup(args, var_dirs)
        tick = time.monotonic()
        bodies = layout_files(layout_limit) if 2 in parts else []
        print(
            f"layout files built in {time.monotonic() - tick:.1f} s: "
            + ", ".join(f"{what} {len(body) / MB:.2f} MB" for what, body in bodies)
            + f" (limit {layout_limit / MB:.2f} MB), 20 images each"
        )
        tick = time.monotonic()
        sheet_files = hostile_sheets() if 3 in parts else []
        print(
            f"hostile sheets built in {time.monotonic() - tick:.1f} s: " + ", ".join(f"{what} {len(data) / 1024:,.0f} KB" for what, _n, data, _c in sheet_files)
        )
        port = args.port or common_free_port()
        server, log_path = start_server(args, port)
        wait_up(server, port, log_path, want_web=1 if args.web_processes == 1 else args.web_processes + 1)
        import psutil

        tracked = psutil.Process(server.pid).children(recursive=True)
        web = web_pids(server.pid)
        from django.db import connection

        print(
            f"server: manage.py serve --no-worker --web-workers {args.web_processes} on :{port} ({connection.vendor}; "
            f"web pids {web}); temp dir {tempfile.gettempdir()}"
        )
        sampler = Sampler(server.pid, os.environ["TDM_VAR_DIR"])
        sampler.start()
        prober = Prober(port, names["staff"], args.probe_pause)
        prober.start()
        run = Run(server.pid, sampler, prober)

        # Part 1: huge anonymous bodies.
        targets = [
            ("/api/v1/auth/token/", "application/json"),
            ("/login/", "application/x-www-form-urlencoded"),
            (f"/display/{screen_token}/", "application/x-www-form-urlencoded"),
        ]
        cfg = {"port": port, "clients": args.clients, "size": size, "seconds": args.seconds, "timeout": args.client_timeout, "targets": targets}

        def flood():
            nonlocal flood_proc
            flood_proc = subprocess.Popen(
                [sys.executable, __file__, "flood"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True
            )
            out, _ = flood_proc.communicate(json.dumps(cfg))
            if flood_proc.returncode != 0:
                raise RuntimeError(f"the hostile clients' process failed ({flood_proc.returncode})")
            return json.loads(out.strip().splitlines()[-1])

        if 1 in parts:
            quiet1 = run.phase("quiet 1", args.baseline_seconds)
            bodies_phase = run.phase("bodies", action=flood)
            after1 = run.phase("after 1", 3.0)
            fr = bodies_phase["result"]
            attempts = sum(len(v) for v in fr["results"].values())

        # Part 2: hostile layout imports, the director's token first.
        with common.Client(f"http://127.0.0.1:{port}") as c:
            r = c.post("/api/v1/auth/token/", json={"username": names["importer"], "password": PASSWORD, "device": "benchmark"})
            if r.status_code != 200:
                raise RuntimeError(f"the director's login: {r.status_code} {r.text[:200]}")
            token = r.json()["token"]
        if 2 in parts:
            quiet2 = run.phase("quiet 2", args.baseline_seconds)
            imports_phase = run.phase("imports", action=lambda: run_imports(port, token, bodies, args.imports, args.seconds))
            after2 = run.phase("after 2", 3.0)
        if 3 in parts:
            page_headers = page_session(port, names["importer"])
            sheets_phase = run.phase("sheets", action=lambda: run_sheets(port, token, page_headers, sheet_files, sampler))
            uploads = run_page_uploads(port, page_headers, sampler, args.page_uploads)

        load = os.getloadavg()
        print(f"\nload average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        ok1 = ok2 = ok3 = True
        if 1 in parts:
            ok1 = report_part(
                f"Part 1: {args.clients} anonymous clients at once, {args.size} bodies (half Content-Length, half chunked)",
                prober,
                quiet1,
                bodies_phase,
                after1,
                attempts,
                {"rss": RSS_BAR_MB, "disk": DISK_BAR_MB, "login page": lambda q95: 1.5 * q95 + 0.010, "login": lambda q95: 1.5 * q95 + 0.010},
            )
            refused = 0
            print(f"  hostile bodies: {attempts} sent by {args.clients} clients in {fr['wall']:.1f} s (their process's CPU {fr['cpu']:.2f} s)")
            for key, results in sorted(fr["results"].items()):
                outcomes = collections.Counter(o for o, _s, _t in results)
                refused += sum(n for o, n in outcomes.items() if o.startswith(("413", "429", "closed")))
                sent = [s for _o, s, _t in results]
                took = [t for _o, _s, t in results]
                print(
                    f"    {key:36} {dict(outcomes)}; sent before the end at most {max(sent) / MB:.2f} MB, "
                    f"p50 {median(sent) / 1024:.0f} KB; ended in p50 {ms(median(took))}, max {ms(max(took))}"
                )
            all_refused = refused == attempts
            print(f"    refused (413, 429 or closed by the server): {refused} of {attempts}: {'ok' if all_refused else 'NOT all'}")
            ok1 &= all_refused

        if 2 in parts:
            ok2 = report_part(
                f"Part 2: {args.imports} hostile directors importing at once (20 images of 4096 x 4096 each, one or none shown)",
                prober,
                quiet2,
                imports_phase,
                after2,
                len(imports_phase["result"]),
                {"rss": IMPORT_RSS_BAR_MB, "login page": lambda _q95: IMPORT_LOGIN_BAR},
            )
            by_what = collections.defaultdict(list)
            for what, status, took in imports_phase["result"]:
                by_what[what].append((status, took))
            busy = ("503 busy", "closed")  # another file was being read: refused before its body, unread
            expected = {"one 4096 x 4096 image": ("201", *busy), "a 1 x 16,777,216 header": ("400 too_large", *busy), "no image": ("201", *busy)}
            answers_ok = True
            for what, got in by_what.items():
                statuses = collections.Counter(s for s, _t in got)
                good = all(s in expected[what] for s in statuses)
                answers_ok &= good
                took = [t for _s, t in got]
                print(f"    import, {what:26} {dict(statuses)} in p50 {ms(median(took))}, max {ms(max(took))}  ({'as expected' if good else 'UNEXPECTED'})")
            ok2 &= answers_ok

        if 3 in parts:
            ok3 = report_sheets(sheets_phase["result"])
            u = uploads
            grew = u["rss1"] - u["rss0"]
            uploads_ok = grew <= UPLOADS_RSS_BAR_MB and u["kept"] <= 5
            ok3 &= uploads_ok
            print(
                f"  {u['n']} page uploads of 10 MB, one after the other: {u['statuses']} in p50 {ms(median(u['took']))}; web RSS "
                f"{u['rss0']:.0f} MB before, {u['rss1']:.0f} MB after (+{grew:.0f} MB, bar +{UPLOADS_RSS_BAR_MB} MB); kept files left {u['kept']} "
                f"(bar 5)  {'ok' if uploads_ok else 'OVER'}"
            )

        pattern = ("Traceback", "ERROR", "Exception")
        lines = [ln for ln in log_path.read_text(errors="replace").splitlines() if any(p in ln for p in pattern)]
        if lines:  # kept: the run's directory goes at the end
            kept = Path(tempfile.mkstemp(prefix="tdm-hostile-serve-", suffix=".log")[1])
            shutil.copyfile(log_path, kept)
            log_path = kept
        print(f"\nserver log: {len(lines)} error lines" + (f" (kept in {log_path}); first: {lines[0][:300]}" if lines else ""))
        verdicts = ", ".join(f"part {n} {'PASS' if ok else 'FAIL'}" for n, ok in ((1, ok1), (2, ok2), (3, ok3)) if n in parts)
        print(f"{verdicts}: {'every bar met' if ok1 and ok2 and ok3 else 'a bar not met'}  (whole run {time.monotonic() - wall0:.0f} s)")
    except KeyboardInterrupt:
        print("\ninterrupted: stopping what the run started", file=sys.stderr)
        interrupted_run = True
    finally:
        for t in (prober, sampler):
            if t is not None:
                t.halt.set()
        shutdown(server, tracked, flood_proc)
        var_dirs.append(os.environ.get("TDM_VAR_DIR"))  # the database's, when setup was cut short
        for d in dict.fromkeys(d for d in var_dirs if d and d != var_dir_before):
            shutil.rmtree(d, ignore_errors=True)
    if interrupted_run:
        sys.exit(130)


def common_free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


if __name__ == "__main__" and sys.argv[1:] == ["flood"]:
    flood_main()
elif __name__ == "__main__":
    main()
