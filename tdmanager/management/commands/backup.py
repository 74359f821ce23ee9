"""Back up the whole database while the product runs.

    ./tdm manage backup [PATH]

SQLite: the online-backup API (a consistent snapshot; sales go on meanwhile). PostgreSQL:
pg_dump in custom format. Without PATH: var/backups/tdmanager-YYYYMMDD-HHMMSS.{sqlite3,pgdump}.
The room's certificate authority (``--lan``) is in the file too.
"""

from django.core.management.base import BaseCommand, CommandError

from tdmanager import backup as bk
from tdmanager import roomca


class Command(BaseCommand):
    help = "Back up the database to PATH (default: var/backups/tdmanager-<time>.sqlite3 or .pgdump)."

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", help="where to write the backup")
        parser.add_argument("--database", default="default")

    def handle(self, path=None, database="default", **opts):
        target = path or bk.default_path(database)
        try:
            written = bk.backup(target, database)
        except bk.BackupError as exc:
            raise CommandError(str(exc)) from exc
        rows = bk.summary(database)
        self.stdout.write(self.style.SUCCESS(f"Backed up the {bk.vendor(database)} database to {written} ({written.stat().st_size:,} bytes)."))
        for table, n in rows:
            self.stdout.write(f"  {table}: {n}")
        if bk.room_ca_in(written) is not None:
            self.stdout.write(f"The room's certificate authority is in it too (fingerprint {roomca.ca_fingerprint()}).")
