"""`./tdm manage import_td3 PATH... [--dry-run]`: The Tournament Director's save files moved in.

Each PATH is a ``.tdt`` save file, a ``.zip`` of them or a folder of them (its ``.tdt`` files,
not its subfolders). All of them are one run of the ``td3`` import (preview, then the one
transaction of ``imports.services.run_import``): every event and player in, or nothing.
``--dry-run`` prints the preview (each file's event, players new and already here, entries,
places, prizes and league; each proposal of a player who may be a person typed here) and
writes nothing; without it a proposal left undecided brings the player in as a new person
(``--same PLAYER_ROW=PERSON_ID`` takes him as that person).

Exit status as ``import_people``'s: 0 when the files are in (or were in already), 1 when the
run is refused (a file that cannot be read, named with the line and column: nothing written),
2 for a path or an option that cannot be used."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from tdmanager.errors import DomainError, ValidationFailed
from tournaments.eventlog.services import Actor

from ...imports import rules as importing
from ...imports import services as imports
from ...imports.td3 import files


class Command(BaseCommand):
    help = "Import The Tournament Director's save files (.tdt, a .zip of them, or folders of them): all of them, or nothing."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--dry-run", action="store_true", help="print what the import would do; change nothing")
        parser.add_argument("--same", action="append", metavar="ROW=PERSON", help="take the player of a preview's row as that person")
        parser.add_argument("--language", default=None, help="the language of the texts (it, en)")

    def handle(self, paths, dry_run=False, same=None, language=None, **_):
        with translation.override(language or getattr(settings, "LANGUAGE_CODE", "en")):
            return self._run(paths, dry_run, same or [])

    def _run(self, paths, dry_run, same):
        found = []
        for given in paths:
            path = Path(given)
            if path.is_dir():
                found.extend(sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() == ".tdt"))
            elif path.is_file():
                found.append(path)
            else:
                raise CommandError(f"{given}: no such file or folder")
        if not found:
            raise CommandError("no TD3 save file (.tdt) in the paths given")
        try:
            loaded = []
            for path in found:
                data = path.read_bytes()
                loaded.extend(files.unpack(data, path.name))
            if len(loaded) == 1:
                name, data = loaded[0]
            else:
                name, data = "td3-files.zip", files.bundle(loaded)
        except OSError as exc:
            raise CommandError(f"{exc.filename}: {exc.strerror}") from None
        except files.Td3FileError as exc:
            self.stderr.write(f"{exc.filename}: {exc.message}")
            raise SystemExit(1) from None
        choices = {}
        for pair in same:
            row, sep, person = pair.partition("=")
            if not sep:
                raise CommandError(f"--same takes ROW=PERSON, not {pair!r}")
            choices[row.strip()] = person.strip()
        try:
            if dry_run:
                p = imports.preview("td3", data, name)
            else:
                p = imports.run_import("td3", data, name, actor=Actor(None, "manage.py"), accept_duplicates=True, choices=choices)
        except ValidationFailed as exc:
            self.stderr.write(str(exc.message))
            raise SystemExit(1 if exc.extra.get("field") == "file" else 2) from None
        except DomainError as exc:
            self.stderr.write(f"{exc.code}: {exc.message}")
            raise SystemExit(1) from None
        self._report(p, dry_run)

    def _report(self, p, dry_run):
        self.stdout.write(" · ".join(f"{importing.status_label(s, done=not dry_run)}: {n}" for s, n in p.counts().items()))
        for f in p.files:
            self.stdout.write(
                f"{f['file']}: {f['event']} ({f['date'] or '?'}, {f['state']}) — {importing.status_label(f['status'], done=not dry_run)}; "
                f"players {f['players_new']} new, {f['players_matched']} already here; entries {f['entries']}, rebuys {f['rebuys']}, "
                f"add-ons {f['addons']}, places {f['places']}, prizes {f['prizes']}; league {f['league'] or '-'}, season {f['season'] or '-'}"
                + (f" — {f['reason']}" if f["reason"] else "")
            )
        for row in p.rows:
            if row.status == importing.DUPLICATE:
                for pk, shown, by, _line in row.matches:
                    self.stdout.write(f"row {row.line}: {row.cells['player']} may be {shown} (person {pk}, {by}): --same {row.line}={pk}")
        if dry_run:
            self.stdout.write("dry run: nothing was written")
