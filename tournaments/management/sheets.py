"""The room administrator's import and export commands, one pair per kind of sheet.

``import_<kind> FILE [--dry-run] [--skip-refused] [--accept-duplicates] [--option name=value]``
previews the file (``tournaments.imports.rules``) and, without ``--dry-run``, imports it through the
same service as the import page (``imports.services.run_import``): all the accepted rows or
nothing. ``export_<kind> FILE`` writes the export; CSV or XLSX by the file's extension.

Exit status: 0 when the file is in (a file already in, that changes nothing, included) or a dry
run found no refused row; 1 when rows were refused and nothing was written; 2 for a file or an
option that cannot be used. The texts are in the language of ``--language`` (``TDM_LANGUAGE``
by default)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from tdmanager import sheets
from tdmanager.errors import DomainError
from tournaments.eventlog.services import Actor

from ..imports import rules as importing
from ..imports import services as imports


def _options(pairs) -> dict:
    out = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        if not sep:
            raise CommandError(f"--option takes name=value, not {pair!r}")
        out[name.strip()] = value.strip()
    return out


def _add_common(parser, kind):
    importer = importing.get(kind)
    names = ", ".join(importer.options) if importer and importer.options else "none"
    parser.add_argument("--option", action="append", metavar="NAME=VALUE", help=f"an option of this kind ({names})")
    parser.add_argument("--language", default=None, help="the language of the texts (it, en)")


def import_command(kind: str):
    class Command(BaseCommand):
        help = f"Import {kind} from a CSV or XLSX file (all the accepted rows, or nothing)."

        def add_arguments(self, parser):
            parser.add_argument("file")
            parser.add_argument("--dry-run", action="store_true", help="print what the import would do; change nothing")
            parser.add_argument("--skip-refused", action="store_true", help="import the accepted rows, leaving the refused ones out")
            parser.add_argument("--accept-duplicates", action="store_true", help="import possible duplicates as new")
            _add_common(parser, kind)

        def handle(self, file, dry_run=False, skip_refused=False, accept_duplicates=False, option=None, language=None, **_):
            with translation.override(language or getattr(settings, "LANGUAGE_CODE", "en")):
                return self._run(file, dry_run, skip_refused, accept_duplicates, _options(option))

        def _run(self, file, dry_run, skip_refused, accept_duplicates, options):
            path = Path(file)
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise CommandError(f"{file}: {exc.strerror}") from None
            try:
                if dry_run:
                    p = imports.preview(kind, data, path.name, options=options)
                else:
                    p = imports.run_import(
                        kind,
                        data,
                        path.name,
                        actor=Actor(None, "manage.py"),
                        options=options,
                        skip_refused=skip_refused,
                        accept_duplicates=accept_duplicates,
                    )
            except DomainError as exc:
                if exc.code == "rows_refused":
                    self._report(exc.extra["counts"], [importing.Row(r["row"], {}, importing.REFUSED, reason=r["reason"]) for r in exc.extra["refused"]])
                    self.stderr.write(str(exc.message))
                    raise SystemExit(1) from None
                raise CommandError(f"{exc.code}: {exc.message}") from None
            self._report(p.counts(), p.refused())
            if dry_run:
                self.stdout.write("dry run: nothing was written")
                if p.refused() and not skip_refused:
                    raise SystemExit(1)

        def _report(self, counts, refused):
            self.stdout.write(" · ".join(f"{importing.status_label(s)}: {n}" for s, n in counts.items()))
            for row in refused:
                self.stdout.write(f"row {row.line}: {row.reason}")

    return Command


def export_command(kind: str):
    class Command(BaseCommand):
        help = f"Export {kind} to a CSV or XLSX file (by its extension)."

        def add_arguments(self, parser):
            parser.add_argument("file")
            _add_common(parser, kind)

        def handle(self, file, option=None, language=None, **_):
            fmt = sheets.format_of(file)
            if fmt not in sheets.FORMATS:
                raise CommandError("the file's name must end in .csv or .xlsx")
            with translation.override(language or getattr(settings, "LANGUAGE_CODE", "en")):
                try:
                    data, _name = importing.export_file(kind, fmt, _options(option))
                except importing.Refused as exc:
                    raise CommandError(exc.reason) from None
            Path(file).write_bytes(data)
            self.stdout.write(f"{file}: written")

    return Command
