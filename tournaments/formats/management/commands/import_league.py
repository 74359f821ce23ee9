"""`./tdm manage import_league FILE --option league=NAME [--dry-run] [--skip-refused]`: a league's
past results (tournaments/formats/imports.py; the command's frame is tournaments/management/sheets.py)."""

from tournaments.management.sheets import import_command

Command = import_command("league")
