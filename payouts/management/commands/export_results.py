"""`./tdm manage export_results TOURNAMENT FILE`: an event's results for the club's site and the
tour's ranking (payouts/results_sheet.py), CSV or XLSX by the file's extension."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from payouts.results_sheet import results_file
from tdmanager import sheets
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Export a tournament's results (place, public name, prize, bounties) to a CSV or XLSX file."

    def add_arguments(self, parser):
        parser.add_argument("tournament", type=int, help="the tournament's number")
        parser.add_argument("file")
        parser.add_argument("--language", default=None, help="the language of the headers (it, en)")

    def handle(self, tournament, file, language=None, **_):
        fmt = sheets.format_of(file)
        if fmt not in sheets.FORMATS:
            raise CommandError("the file's name must end in .csv or .xlsx")
        t = Tournament.objects.filter(pk=tournament).first()
        if t is None:
            raise CommandError(f"no tournament {tournament}")
        with translation.override(language or getattr(settings, "LANGUAGE_CODE", "en")):
            data, _name = results_file(t, fmt)
        Path(file).write_bytes(data)
        self.stdout.write(f"{file}: written")
