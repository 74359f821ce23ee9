"""`./tdm manage export_league FILE --option league=NAME`: the league's current season, played here
and imported, CSV or XLSX by the extension (tournaments/management/sheets.py)."""

from tournaments.management.sheets import export_command

Command = export_command("league")
