"""Restore a backup made by ``manage.py backup``. Stop the product (web, worker) first.

    ./tdm manage restore PATH [--force]

It refuses to replace a database that holds data unless --force is given or you confirm at
the prompt. Before replacing anything it backs up the current database next to the others
(var/backups/pre-restore-<time>…), so a restore of the wrong file can be undone. The room's
certificate authority in the backup replaces the installation's (the one before is kept aside).
"""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tdmanager import backup as bk


class Command(BaseCommand):
    help = "Replace the database's contents with a backup made by `manage.py backup`."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the backup file")
        parser.add_argument("--force", action="store_true", help="replace a database that holds data without asking")
        parser.add_argument("--noinput", "--no-input", action="store_false", dest="interactive", help="never prompt")
        parser.add_argument("--database", default="default")
        parser.add_argument(
            "--last-receipt",
            type=int,
            default=None,
            metavar="N",
            help="the last receipt number printed before the restore (from the desk's printer or the "
            "players' receipts); the desk continues after it or after the receipt journal's, "
            "whichever is larger",
        )

    def handle(self, path, force=False, interactive=True, database="default", last_receipt=None, **opts):
        source = Path(path)
        if not source.is_file():
            raise CommandError(f"{source} does not exist")
        if last_receipt is not None and last_receipt < 0:
            raise CommandError("--last-receipt is a receipt number (0 or more)")
        try:
            bk.check_backup(source, database)
        except bk.BackupError as exc:
            raise CommandError(str(exc)) from exc
        if bk.has_data(database) and not force:
            if not (interactive and sys.stdin.isatty()):
                raise CommandError("The database holds data: restoring would replace it. Give --force to replace it.")
            answer = input(f"The database holds data. Replace it with {source}? Type 'yes' to continue: ")
            if answer.strip().lower() != "yes":
                raise CommandError("Restore cancelled.")
        safety = None
        if bk.has_data(database):
            safety = bk.backup(bk.default_path(database, prefix="pre-restore"), database)
        try:
            bk.restore(source, database)
        except bk.BackupError as exc:
            raise CommandError(f"{exc}" + (f"\nThe database before the restore is in {safety}." if safety else "")) from exc
        self.stdout.write(self.style.SUCCESS(f"Restored the {bk.vendor(database)} database from {source}."))
        if safety:
            self.stdout.write(f"The database as it was before is saved in {safety}.")
        for table, n in bk.summary(database):
            self.stdout.write(f"  {table}: {n}")
        self._room_ca(bk.restore_room_ca(source))
        for _receiver, answer in bk.database_restored.send(sender=None, backup=source.name, last_receipt=last_receipt):
            if "erased_again" in answer:
                self._erasures(answer)
            else:
                self._receipts(answer)

    def _room_ca(self, restored) -> None:
        """The room's certificate authority the backup brought (``tdmanager.roomca``)."""
        if restored is None:
            return
        fingerprint, aside = restored
        self.stdout.write(f"The room's certificate authority came back with the backup (fingerprint {fingerprint}).")
        if aside:
            self.stdout.write(
                self.style.WARNING(
                    f"The one this installation had before is kept in {aside}: a device that trusted only that one "
                    "installs this one from the trust page (/trust/)."
                )
            )

    def _erasures(self, r: dict) -> None:
        """The people erased since the backup, erased again (``tournaments.people.privacy``)."""
        if r["erased_again"]:
            self.stdout.write(
                self.style.WARNING(
                    f"Erasures: {len(r['erased_again'])} people erased since the backup were in it; erased again "
                    f"(person {', '.join(f'#{pk}' for pk in r['erased_again'])})."
                )
            )

    def _receipts(self, r: dict) -> None:
        """What the restore did to the receipt counter (``tournaments.cashier.ledger``)."""
        self.stdout.write(
            f"Receipts: the backup's last is {r['restored_last']}, the receipt journal reserves up to "
            f"{r['journal']}"
            + (f", --last-receipt {r['last_printed']}" if r["last_printed"] is not None else "")
            + f": the next receipt is {r['continues_after'] + 1}."
        )
        if r["lost"]:
            first, last = r["lost"]
            self.stdout.write(
                self.style.WARNING(
                    f"Receipts {first}–{last} may have been printed since the backup and are lost with it: they are never "
                    f"used again, and the reconciliation report of {', '.join(r['tournaments']) or 'no open tournament'} "
                    f"lists them."
                )
            )
