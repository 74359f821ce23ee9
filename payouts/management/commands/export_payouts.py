"""`./tdm manage export_payouts FILE --option template=ID_OR_NAME`: CSV or XLSX by the extension (tournaments/management/sheets.py)."""

from tournaments.management.sheets import export_command

Command = export_command("payouts")
