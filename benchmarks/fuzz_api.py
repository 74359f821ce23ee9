"""The longer API fuzz run, over HTTP against a real server (the suite's bounded run is
``tests/test_api_fuzz.py``, in process).

    .venv/bin/python benchmarks/fuzz_api.py [--examples 40] [--stateful-examples 30] [--steps 15] [--seed 1]
    .venv/bin/python benchmarks/fuzz_api.py --database postgres    # PostgreSQL tdm_fuzz on 127.0.0.1
    .venv/bin/python benchmarks/fuzz_api.py --database postgres://postgres@127.0.0.1:5432/tdm_fuzz

Makes a fresh SQLite database in a temporary directory (``--database postgres`` or a
``postgres://`` URL: that PostgreSQL database, dropped and created anew), writes the room the
fuzzer needs (``tests/fuzz.py``: tournaments in every state, entries, seats, a bust, a
satellite, formats, a director's and a cashier's API token), starts ``manage.py runserver`` on
127.0.0.1 on it, then runs every operation of ``/api/schema/`` as director and as cashier with
valid and invalid inputs, then the stateful phase, over HTTP. Nothing is rolled back: the state
builds up as in a card room. One operation is left out: revoking a token (``OWN_TOKENS``), which
would log the fuzzer itself out; at the end both logins must still open the API. Prints
operations, cases, 5xx answers and schema mismatches (goal: 0 and 0), and each problem with a
curl line to reproduce it. Exit status 1 when there is any, or when a login was lost.
"""

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
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


# Revoking a device's token over HTTP logs the fuzzer itself out: a director may revoke any
# token, and the ids the fuzzer tries first (1, 2) are its own; every call after it would be a
# 401. Not run here: the suite fuzzes it in process, each case rolled back (tests/test_api_fuzz.py).
OWN_TOKENS = "/api/v1/auth/tokens/{token_id}/revoke/"


def still_logged_in(base: str, headers: dict) -> bool:
    """True when the fuzzer's token still opens the API (a run whose calls were all 401 proves nothing)."""
    request = urllib.request.Request(base + "/api/v1/auth/tokens/", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310 - our own server on 127.0.0.1
            return answer.status == 200
    except urllib.error.HTTPError:
        return False


def fresh_postgres(url: str | None) -> str:
    """The PostgreSQL database ``url`` (``tdm_fuzz`` on 127.0.0.1 when None), dropped and created anew."""
    import psycopg

    url = url or "postgres://postgres@127.0.0.1:5432/tdm_fuzz"
    name, admin = url.rsplit("/", 1)[1], url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return url


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=40, help="cases per operation, role and mode")
    parser.add_argument("--stateful-examples", type=int, default=30)
    parser.add_argument("--steps", type=int, default=15, help="calls per stateful scenario")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", help="write every problem to this file")
    parser.add_argument("--database", default="sqlite", help="sqlite (a temporary file), postgres (tdm_fuzz on 127.0.0.1) or a postgres:// URL")
    args = parser.parse_args()

    var = tempfile.mkdtemp(prefix="tdm-fuzz-")
    env = {**os.environ, "TDM_VAR_DIR": var, "DJANGO_SETTINGS_MODULE": "tdmanager.settings", "DEBUG": "false", "TDM_ARM_CLOCK_TASKS": "false"}
    env.pop("DATABASE_URL", None)
    if args.database != "sqlite":
        env["DATABASE_URL"] = fresh_postgres(None if args.database == "postgres" else args.database)
    os.environ.pop("DATABASE_URL", None)
    os.environ.update({k: v for k, v in env.items() if k in ("TDM_VAR_DIR", "DJANGO_SETTINGS_MODULE", "DEBUG", "TDM_ARM_CLOCK_TASKS", "DATABASE_URL")})
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
        schema = fuzz.load_schema().exclude(path=OWN_TOKENS)
        headers = {role: {"Authorization": f"Token {key}"} for role, key in world["tokens"].items()}
        started = time.monotonic()
        report = fuzz.fuzz(schema, headers, world["ids"], examples=args.examples, seed=args.seed, run_call=lambda call: call(), call_kwargs={"base_url": base})
        fuzz.fuzz_stateful(schema, headers, examples=args.stateful_examples, steps=args.steps, seed=args.seed, report=report, call_kwargs={"base_url": base})
        report.seconds = time.monotonic() - started
        logged_out = [role for role, sent in headers.items() if not still_logged_in(base, sent)]
        if logged_out:
            report.notes.append(f"NOT VALID: {', '.join(logged_out)} logged out during the run")
    finally:
        server.terminate()
        server.wait(timeout=10)
    database = "SQLite" if args.database == "sqlite" else "PostgreSQL"
    print(f"API fuzz over HTTP on {database} ({args.examples} cases per operation × role × mode, seed {args.seed}):")
    print("  " + report.summary())
    if report.server_errors or report.mismatches or logged_out:
        print(report.problems(limit=100))
        if args.report:
            Path(args.report).write_text(report.summary() + "\n" + report.problems(limit=100_000))
        print(f"server log: {var}/server.log")
        raise SystemExit(1)


if __name__ == "__main__":
    main()
