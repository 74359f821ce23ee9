"""`./tdm manage import_people FILE [--dry-run] [--skip-refused]`: see tournaments/management/sheets.py."""

from tournaments.management.sheets import import_command

Command = import_command("people")
