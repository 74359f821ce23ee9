"""A pytest plugin for the rules' mutation run (``benchmarks/mutation.py`` loads it with ``-p``):
each run of the tests gets a test database of its own, copied from one built once.

mutmut forks a child for each mutant and runs the named tests in it. The settings were read
before the fork, so every child would use the parent's test database file: two children at once
would build and delete the same file under each other (a test failing for that would count as a
kill), and each would spend 10-20 s migrating it. Here the first run migrates a template with the
product's own ``migrate`` (no mutant active, nothing of a test run in it) and every run, the
mutants' included, works on a copy of it, kept as it is (``--reuse-db``: nothing to migrate).
"""

import fcntl
import os
import sqlite3
import subprocess
import sys
from pathlib import Path


def _template(settings) -> Path:
    template = Path(settings.VAR_DIR) / "test-mutation-template.sqlite3"
    with open(template.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not template.exists():
            # the original code: the trampoline reads no mutant from an empty name
            env = {**os.environ, "MUTANT_UNDER_TEST": "", "TDM_SQLITE_PATH": str(template.with_suffix(".part"))}
            subprocess.run([sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "migrate", "-v", "0"], env=env, check=True)
            template.with_suffix(".part").rename(template)
    return template


def pytest_configure(config):
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        return
    own = Path(settings.VAR_DIR) / f"test-mutation-{os.getpid()}.sqlite3"
    source, target = sqlite3.connect(_template(settings)), sqlite3.connect(own)
    with target:
        source.backup(target)
    source.close()
    target.close()
    database["TEST"]["NAME"] = str(own)
    config.option.reuse_db = True
    config._mutation_db = own


def pytest_unconfigure(config):
    own = getattr(config, "_mutation_db", None)
    if own:
        for path in (own, own.with_name(own.name + "-wal"), own.with_name(own.name + "-shm")):
            path.unlink(missing_ok=True)
