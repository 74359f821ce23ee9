"""Every CSV the product writes goes through here: no cell a spreadsheet would run as a formula.

A report is opened by the controller and the regulator in a spreadsheet, and its cells hold what
people typed (who asked for a ruling, a player's name). A cell that begins with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return is read as a formula (``=HYPERLINK(...)``, ``@SUM(...)``,
``-2+3+cmd|...``), so it is written with a leading apostrophe (OWASP's "CSV injection"): the
spreadsheet shows the text as typed, the apostrophe hidden, and runs nothing.

A cell that is a plain number — ``-12.50``, an amount written by the code, or ``-3`` — is left as
it is: a spreadsheet reads it as a number (a sum over the column still adds), and a number runs
nothing. Only an optional minus, digits and one decimal point make a plain number; ``-1+1`` is not.
"""

import csv
import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def cell(value) -> str:
    """The text of one cell, neutralised when a spreadsheet would read it as a formula."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


class Writer:
    """``csv.writer`` (or ``csv.DictWriter`` with ``fieldnames``) whose every cell is ``cell()``."""

    def __init__(self, out, fieldnames=None, **kwargs):
        self._dict = fieldnames is not None
        self._w = csv.DictWriter(out, fieldnames=fieldnames, **kwargs) if self._dict else csv.writer(out, **kwargs)

    def writeheader(self):
        self._w.writeheader()

    def writerow(self, row):
        if self._dict:
            return self._w.writerow({k: cell(v) for k, v in row.items()})
        return self._w.writerow([cell(v) for v in row])

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)
