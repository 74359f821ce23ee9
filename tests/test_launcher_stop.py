"""``./tdm run`` stopped (Ctrl-C, or a service manager's SIGTERM): the web server and the Celery workers (one with beat) stop first,
then the embedded Redis they use, so nothing fails on the way out (beat ticks every second, and a
tick sent to a Redis already gone logged a traceback at every stop).

A real launcher on its own SQLite database and embedded Redis, stopped both ways."""

import os
import re
import signal
import socket
import subprocess
import sys

import httpx
import psutil
import pytest
from django.conf import settings

from tests.servers import ROOT, START_DEADLINE, start_listening, wait_for

pytestmark = pytest.mark.processes


def _answers(port) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/login/", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _accepts(port) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.parametrize("how", ["group", "launcher"])
def test_a_stop_ends_the_web_server_and_the_worker_before_the_embedded_redis(tmp_path, how):
    """``group``: Ctrl-C in a terminal (SIGINT to every process of the group); ``launcher``: a
    service manager's stop (SIGTERM to the launcher alone, which stops the rest)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "TDM_SQLITE_PATH")}
    env["TDM_VAR_DIR"] = str(tmp_path)
    env["TDM_STATIC_ROOT"] = str(settings.STATIC_ROOT)  # collected once for the test run: not what is tested here
    log_path = tmp_path / "serve.log"

    def start(port):
        with open(log_path, "w") as log:
            return subprocess.Popen(
                [sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    proc = start_listening(start, "the web server", lambda proc, port: _answers(port))
    try:
        wait_for(lambda: any(tmp_path.glob("celerybeat-schedule*")), START_DEADLINE, "celery beat", proc=proc)  # beat is ticking
        workers = {}

        def notices_worker_idle():
            """The notices' own worker, once started (a pool process forked), sends at the lowest priority."""
            workers.clear()
            try:
                # a worker's command line, or the title Celery gives it where setproctitle is
                # installed ("[celeryd: notices@host:ForkPoolWorker-1]")
                lines = {p.pid: " ".join(p.cmdline()) for p in psutil.Process(proc.pid).children(recursive=True)}
                workers.update({pid: line for pid, line in lines.items() if "celery" in line})
                notices = [pid for pid, line in workers.items() if "notices" in line]
                return len(notices) == 2 and all(os.sched_getscheduler(pid) == os.SCHED_IDLE for pid in notices)
            except (psutil.Error, ProcessLookupError):  # a process starting or ending meanwhile
                return False

        wait_for(notices_worker_idle, START_DEADLINE, "the notices' worker in the idle class", proc=proc)
        others = [pid for pid, cmd in workers.items() if "notices" not in cmd]
        # ... and the clock's worker at the house's nice.
        assert others and all(
            os.sched_getscheduler(pid) == os.SCHED_OTHER and psutil.Process(pid).nice() == min(19, os.nice(0) + settings.TDM_WORKER_NICE) for pid in others
        ), workers
        redis_port = int(re.search(r"embedded redis on 127\.0\.0\.1:(\d+)", log_path.read_text()).group(1))
        assert _accepts(redis_port)
        if how == "group":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    out = log_path.read_text()
    assert out.rstrip().endswith("stopped")
    assert "Traceback" not in out and "Connection refused" not in out, out[-3000:]
    assert not _accepts(redis_port)  # the embedded Redis is gone too
