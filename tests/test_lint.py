"""ruff, configured in ``ruff.toml``, finds nothing and formats nothing (run by the suite, and so by CI)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    ruff = Path(sys.executable).with_name("ruff")
    done = subprocess.run([str(ruff), "check", "--no-cache", "--output-format", "concise", "."], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_ruff_format_leaves_every_file_as_it_is():
    """The tree is as ``ruff format`` writes it: run ``.venv/bin/ruff format .`` before committing."""
    ruff = Path(sys.executable).with_name("ruff")
    done = subprocess.run([str(ruff), "format", "--check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
