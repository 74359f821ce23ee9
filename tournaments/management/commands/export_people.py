"""`./tdm manage export_people FILE`: CSV or XLSX by the extension (tournaments/management/sheets.py)."""

from tournaments.management.sheets import export_command

Command = export_command("people")
