"""`./tdm manage import_structure FILE [--dry-run] [--option name=NAME]`: see tournaments/management/sheets.py."""

from tournaments.management.sheets import import_command

Command = import_command("structure")
