"""The longer API fuzz run, over HTTP against a real server (the suite's bounded run is
``tests/test_api_fuzz.py``, in process).

    .venv/bin/python benchmarks/fuzz_api.py [--examples 40] [--stateful-examples 30] [--steps 15] [--seed 1]

Makes a fresh SQLite database in a temporary directory, writes the room the fuzzer needs
(``tests/fuzz.py``: tournaments in every state, entries, seats, a bust, a satellite, formats,
a director's and a cashier's API token), starts ``manage.py runserver`` on 127.0.0.1 on it,
then runs every operation of ``/api/schema/`` as director and as cashier with valid and invalid
inputs, then the stateful phase, over HTTP. Nothing is rolled back: the state builds up as in a
card room. Prints operations, cases, 5xx answers and schema mismatches (goal: 0 and 0), and each
problem with a curl line to reproduce it. Exit status 1 when there is any.
"""

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)  # noqa: S310 - our own server on 127.0.0.1
            return
        except Exception:  # noqa: BLE001 - not up yet
            time.sleep(0.3)
    raise SystemExit(f"the server did not answer at {url}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=40, help="cases per operation, role and mode")
    parser.add_argument("--stateful-examples", type=int, default=30)
    parser.add_argument("--steps", type=int, default=15, help="calls per stateful scenario")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", help="write every problem to this file")
    args = parser.parse_args()

    var = tempfile.mkdtemp(prefix="tdm-fuzz-")
    env = {**os.environ, "TDM_VAR_DIR": var, "DJANGO_SETTINGS_MODULE": "tdmanager.settings", "DEBUG": "false", "TDM_ARM_CLOCK_TASKS": "false"}
    env.pop("DATABASE_URL", None)
    os.environ.update({k: v for k, v in env.items() if k in ("TDM_VAR_DIR", "DJANGO_SETTINGS_MODULE", "DEBUG", "TDM_ARM_CLOCK_TASKS")})
    os.environ.pop("DATABASE_URL", None)
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)

    import django

    django.setup()
    from tests import fuzz

    world = fuzz.build_world()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload", "--nothreading"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(Path(var) / "server.log", "w"),
    )
    try:
        wait_for(base + "/api/schema/")
        schema = fuzz.load_schema()
        headers = {role: {"Authorization": f"Token {key}"} for role, key in world["tokens"].items()}
        started = time.monotonic()
        report = fuzz.fuzz(schema, headers, world["ids"], examples=args.examples, seed=args.seed, run_call=lambda call: call(), call_kwargs={"base_url": base})
        fuzz.fuzz_stateful(schema, headers, examples=args.stateful_examples, steps=args.steps, seed=args.seed, report=report, call_kwargs={"base_url": base})
        report.seconds = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"API fuzz over HTTP ({args.examples} cases per operation × role × mode, seed {args.seed}):")
    print("  " + report.summary())
    if report.server_errors or report.mismatches:
        print(report.problems(limit=100))
        if args.report:
            Path(args.report).write_text(report.summary() + "\n" + report.problems(limit=100_000))
        print(f"server log: {var}/server.log")
        raise SystemExit(1)


if __name__ == "__main__":
    main()
