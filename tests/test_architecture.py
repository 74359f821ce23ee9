"""The direction between the apps, as the import contracts in ``.importlinter`` declare it.

``lint-imports`` is run here, so CI fails when an arrow goes the wrong way (tdmanager imports
an app, tournaments imports seating or payouts, seating calls payouts, read code imports
services). The tournaments contract lists tournaments' modules one by one (the formats
inside it compose the other apps); a new module must join that list.
"""

import configparser
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--config", str(ROOT / ".importlinter")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "broken" in done.stdout and " 0 broken" in done.stdout


def test_every_module_of_tournaments_is_under_its_contract():
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    listed = set(config["importlinter:contract:tournaments-bottom"]["source_modules"].split())
    present = {
        f"tournaments.{p.stem}" for p in (ROOT / "tournaments").iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p.is_dir() and (p / "__init__.py").exists() and p.name != "formats")
    }
    assert present - listed == set(), "add these modules to the tournaments contract in .importlinter"


def test_apps_announce_instead_of_calling_up():
    """No import of another app hidden inside a function to dodge the contracts."""
    offenders = []
    for app, forbidden in (("tournaments", ("seating", "payouts")), ("seating", ("payouts",)), ("tdmanager", ("tournaments", "seating", "payouts"))):
        for path in (ROOT / app).rglob("*.py"):
            if app == "tournaments" and "formats" in path.parts:
                continue
            for n, line in enumerate(path.read_text().splitlines(), 1):
                text = line.strip()
                if line.startswith((" ", "\t")) and text.startswith(tuple(f"{kw} {f}" for f in forbidden for kw in ("from", "import"))):
                    offenders.append(f"{path.relative_to(ROOT)}:{n}: {text}")
    assert offenders == []


def test_a_service_inside_someone_elses_transaction_is_an_error_not_a_silent_merge(db, make_tournament, actor):
    import pytest
    from django.db import transaction

    from tdmanager.transactions import unit_of_work
    from tournaments.models import Tournament
    from tournaments.services import lifecycle

    t = make_tournament(status=Tournament.PLANNED)
    with pytest.raises(RuntimeError, match="durable"), transaction.atomic():
        lifecycle.open_registration(t, actor=actor)  # an accidental nesting
    t.refresh_from_db()
    assert t.status == Tournament.PLANNED
    with unit_of_work():  # a declared composition
        lifecycle.open_registration(t, actor=actor)
    t.refresh_from_db()
    assert t.status == Tournament.REGISTERING
