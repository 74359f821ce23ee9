"""What the HTTP benchmarks share: a percentile, a fresh migrated database to measure on, and a
lean HTTP client."""

import asyncio
import http.client
import json as jsonlib
import os
import tempfile
from urllib.parse import urlsplit

import psutil


def pct(values, p):
    """The p-th percentile (nearest rank) of ``values``; NaN when there are none."""
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def prepare_database(url: str | None, default_name: str):
    """``url == "sqlite"``: a temporary SQLite database (the embedded default); otherwise the
    PostgreSQL database ``url`` (127.0.0.1, ``default_name`` when None), dropped and created anew.
    Then Django is set up and migrated."""
    if url == "sqlite":
        os.environ.pop("DATABASE_URL", None)
        os.environ["TDM_VAR_DIR"] = tempfile.mkdtemp(prefix="tdm-bench-")
    else:
        url = url or f"postgres://postgres@127.0.0.1:5432/{default_name}"
        dbname = url.rsplit("/", 1)[1]
        admin = url.rsplit("/", 1)[0] + "/postgres"
        import psycopg

        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{dbname}"')
        os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def stop(proc, timeout: float = 15) -> None:
    """Stop a server the benchmark started: SIGTERM, then SIGKILL if it lingers."""
    import subprocess

    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()


class Response:
    def __init__(self, method, url, status, body):
        self.status_code, self.content = status, body
        self.request = type("Request", (), {"method": method, "url": url})()

    @property
    def text(self):
        return self.content.decode("utf-8", "replace")

    def json(self):
        return jsonlib.loads(self.content)


class Client:
    """One keep-alive HTTP/1.1 connection (``http.client``), with the calls the benchmarks make:
    ``get(path)`` and ``post(path, json=…, headers=…)``.

    The load generators run on the same 2 cores as the servers they measure, so their own cost
    is taken from the servers: httpx spent 1.0–1.4 ms of client CPU per request here, this about
    0.2 ms. Every server in a run (baselines included) is driven by the same client."""

    def __init__(self, base_url, headers=None, timeout=30):
        parts = urlsplit(base_url)
        self.host, self.port, self.timeout = parts.hostname, parts.port or 80, timeout
        self.headers = dict(headers or {})
        self.conn = None

    def request(self, method, path, json=None, headers=None):
        body = None if json is None else jsonlib.dumps(json).encode()
        hdrs = {**self.headers, **(headers or {})}
        if body is not None:
            hdrs["Content-Type"] = "application/json"
        for attempt in (1, 2):  # a kept-alive connection the server closed meanwhile: one new connection
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.conn.request(method, path, body=body, headers=hdrs)
                r = self.conn.getresponse()
                data = r.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if attempt == 2:
                    raise
                continue
            if r.getheader("Connection", "").lower() == "close":
                self.close()
            return Response(method, path, r.status, data)

    def get(self, path, headers=None):
        return self.request("GET", path, headers=headers)

    def post(self, path, json=None, headers=None):
        return self.request("POST", path, json=json, headers=headers)

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


async def body_chunks(reader, chunked):
    """A streamed HTTP response's body as the server sends it (chunked transfer encoding
    decoded), read from an asyncio stream."""
    if not chunked:
        while data := await reader.read(65536):
            yield data
        return
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            return
        yield (await reader.readexactly(size + 2))[:-2]


async def pause(stop: asyncio.Event, seconds: float) -> None:
    """Sleep ``seconds``, or less when ``stop`` is set meanwhile."""
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass


def cpu_of(process) -> float:
    """CPU seconds (user + system) of a process; 0 for one that has just ended."""
    try:
        t = process.cpu_times()
    except psutil.NoSuchProcess:
        return 0.0
    return t.user + t.system


def tree_cpu(pid):
    """CPU seconds of a process and its living descendants."""
    root = psutil.Process(pid)
    return sum(cpu_of(p) for p in [root, *root.children(recursive=True)])


def service_cpu(server_pid, names=("postgres", "redis-server")):
    """CPU seconds of the database server's and Redis' processes now running, outside the
    server's own tree (an embedded Redis is counted there); they are shared: keep the machine
    otherwise quiet."""
    root = psutil.Process(server_pid)
    own = {root.pid, *(p.pid for p in root.children(recursive=True))}
    return sum(cpu_of(p) for p in psutil.process_iter(["name"]) if p.info["name"] in names and p.pid not in own)


class Timed:
    """The CPU of a server's tree and of the shared services over a ``with`` block."""

    def __init__(self, pid):
        self.pid = pid

    def __enter__(self):
        self.web0, self.svc0 = tree_cpu(self.pid), service_cpu(self.pid)
        return self

    def __exit__(self, *exc):
        self.web, self.svc = tree_cpu(self.pid) - self.web0, service_cpu(self.pid) - self.svc0
