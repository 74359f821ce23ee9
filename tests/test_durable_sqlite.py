"""A commit the product acknowledges waits for the disk (docs/operating.md "What a power cut can
lose"): on SQLite every connection runs WAL with ``synchronous=FULL`` — the ones the web
processes open (``tdmanager.asgi``, what uvicorn loads), the Celery worker's and beat's
(``tdmanager.celery``, then Django's set-up as Celery's Django fix-up does it) and the management
commands' (``manage.py``); on PostgreSQL ``synchronous_commit`` stays on."""

import subprocess
import sys

import pytest
from django.db import connection

from tests.servers import ROOT, database_env

pytestmark = pytest.mark.django_db

FULL = 2  # PRAGMA synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA

# Each entry point as its process starts it, then a new connection's settings printed.
ASK = """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")
{start}
from django.db import connection
with connection.cursor() as cursor:
    if connection.vendor == "sqlite":
        cursor.execute("PRAGMA synchronous"); sync = cursor.fetchone()[0]
        cursor.execute("PRAGMA journal_mode"); mode = cursor.fetchone()[0]
    else:
        cursor.execute("SHOW synchronous_commit"); sync, mode = cursor.fetchone()[0], "-"
print(sync, mode)
"""
STARTS = {
    "web (uvicorn loads tdmanager.asgi)": "import tdmanager.asgi",
    "Celery worker and beat": "import tdmanager.celery, django; django.setup()",
    "management commands": "from django.core.management import execute_from_command_line; execute_from_command_line(['manage.py', 'check', '-v', '0'])",
}


def expected():
    return (str(FULL), "wal") if connection.vendor == "sqlite" else ("on", "-")


def test_this_process_commits_durably():
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA synchronous")
            sync = str(cursor.fetchone()[0])
            cursor.execute("PRAGMA journal_mode")
            got = (sync, cursor.fetchone()[0])
        else:
            cursor.execute("SHOW synchronous_commit")
            got = (cursor.fetchone()[0], "-")
    assert got == expected()


@pytest.mark.parametrize("what", list(STARTS))
def test_every_kind_of_process_commits_durably(what):
    done = subprocess.run([sys.executable, "-c", ASK.format(start=STARTS[what])], cwd=ROOT, env=database_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert tuple(done.stdout.split()[-2:]) == expected(), what
