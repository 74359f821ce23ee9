"""What the HTTP benchmarks share: a percentile, and a fresh migrated database to measure on."""

import os
import tempfile


def pct(values, p):
    """The p-th percentile (nearest rank) of ``values``; NaN when there are none."""
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def prepare_database(url: str | None, default_name: str):
    """``url == "sqlite"``: a temporary SQLite database (the embedded default); otherwise the
    PostgreSQL database ``url`` (127.0.0.1, ``default_name`` when None), dropped and created anew.
    Then Django is set up and migrated."""
    if url == "sqlite":
        os.environ.pop("DATABASE_URL", None)
        os.environ["TDM_VAR_DIR"] = tempfile.mkdtemp(prefix="tdm-bench-")
    else:
        url = url or f"postgres://postgres@127.0.0.1:5432/{default_name}"
        dbname = url.rsplit("/", 1)[1]
        admin = url.rsplit("/", 1)[0] + "/postgres"
        import psycopg

        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{dbname}"')
        os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdmanager.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
