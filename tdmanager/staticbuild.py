"""The static files, collected where WhiteNoise serves them: hashed names, gzip twins.

``ensure_collected()`` runs ``collectstatic`` when a source changed since the last run (a new
checkout, an upgrade, an edited ``static/tdm.css``), and does nothing otherwise: the launcher
(``manage.py serve``), the web app (``tdmanager.asgi`` / ``wsgi``, however uvicorn is started)
and the test session call it before anything reads the manifest, so nobody has to remember the
step. Several processes starting at once (``--workers N``, pytest-xdist) collect once: the
others wait on a lock, then find it done.
"""

import fcntl
import hashlib
import importlib.util
import os
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command

STAMP = ".sources.sha256"  # in STATIC_ROOT: the fingerprint of the sources it was collected from
MANIFEST = "staticfiles.json"


def sources_fingerprint() -> str:
    """Every source file's name, size and time, the storage that collects them and whether brotli
    is there to compress: a change in any of them means collecting again."""
    rows = []
    for finder in finders.get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            stat = os.stat(storage.path(path))
            rows.append(f"{getattr(storage, 'prefix', None) or ''}/{path}\0{stat.st_size}\0{stat.st_mtime_ns}")
    rows.sort()
    rows.append(f"storage={settings.STORAGES['staticfiles']['BACKEND']} whitenoise={metadata.version('whitenoise')}")
    rows.append(f"brotli={importlib.util.find_spec('brotli') is not None}")
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()


def _up_to_date(root: Path, want: str) -> bool:
    try:
        return (root / MANIFEST).exists() and (root / STAMP).read_text() == want
    except FileNotFoundError:
        return False


@contextmanager
def _locked(root: Path):
    with open(root / ".collect.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def ensure_collected() -> bool:
    """Collect the static files unless STATIC_ROOT already holds these sources; True when it did."""
    root = Path(settings.STATIC_ROOT)
    root.mkdir(parents=True, exist_ok=True)
    want = sources_fingerprint()
    if _up_to_date(root, want):
        return False
    with _locked(root):
        if _up_to_date(root, want):  # another process collected while this one waited
            return False
        (root / STAMP).unlink(missing_ok=True)
        call_command("collectstatic", interactive=False, verbosity=0)
        (root / STAMP).write_text(want)
    return True
