"""Spreadsheets in and out: CSV as card rooms' spreadsheets write it, and XLSX.

Reading (``read``) gives the header row and every data row with its row number as the
spreadsheet shows it (the header is row 1), so a refusal names the row a person fixes. A
CSV is decoded as UTF-8 (with or without Excel's byte-order mark), else as Windows-1252 (what
Excel in Italy saves as "CSV"); its separator is the one its header row uses most of ``;``,
``,``, a tab and ``|``. An XLSX is read with openpyxl; a cell holding a formula gives the
formula's text (``=HYPERLINK(...)``), which the importers store as text, never run. A date
cell gives a ``datetime``; a number cell a number.

A file is bounded before it is read: its bytes (``MAX_FILE``), an XLSX's unpacked size
(``MAX_UNPACKED``: a zip of a few kilobytes can unpack to gigabytes) and the number of rows
(``MAX_ROWS``). openpyxl reads XML through defusedxml when it is installed (it is): an entity
bomb is refused.

Writing (``write``) makes a CSV (UTF-8 with the byte-order mark, so Excel shows accents; ``;``
for readers in Italian, whose Excel splits columns on it, ``,`` otherwise) or an XLSX; in both a
text that a spreadsheet would run as a formula stays text (``tdmanager.csvsafe``; in an XLSX a
string cell marked as text, shown as typed).

Why openpyxl and the standard csv module rather than a higher layer (tablib, django-import-export):
tablib drops blank rows (the row numbers shown to the director would shift), refuses a row
longer than the header, and "escapes" a formula by cutting its ``=`` (the data changes);
django-import-export's resources are built around the admin's forms. Matching, the preview and
the all-or-nothing write are the importers' own (``tournaments.importing``).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from . import bodylimits, csvsafe

MAX_FILE = bodylimits.SHEET_FILE
MAX_UNPACKED = 200 * 1024 * 1024  # an XLSX's parts, unpacked
MAX_ROWS = 100_000
MAX_COLUMNS = 200  # a room's sheet has a dozen; a workbook sized at 16,384 columns would be read as rows that wide
SEPARATORS = (";", ",", "\t", "|")
CSV, XLSX = "csv", "xlsx"
FORMATS = (CSV, XLSX)
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CONTENT_TYPES = {CSV: "text/csv; charset=utf-8", XLSX: XLSX_TYPE}


class SheetError(Exception):
    """The file cannot be read as a sheet; ``detail`` is in the reader's language."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code, self.detail = code, detail


@dataclass
class Sheet:
    headers: list[str]
    rows: list[tuple[int, list]] = field(default_factory=list)  # (row number, cells)
    format: str = CSV


def format_of(filename: str) -> str | None:
    """``csv`` or ``xlsx`` by a file name's extension (a ``.txt`` is read as CSV); None otherwise."""
    name = (filename or "").lower()
    if name.endswith(".xlsx"):
        return XLSX
    if name.endswith((".csv", ".txt")):
        return CSV
    return None


def read(data: bytes, filename: str = "") -> Sheet:
    """The header row and the data rows of a CSV or XLSX file (the first sheet of a workbook).

    Blank rows are left out, their numbers kept by the others. Cells are stripped texts (CSV) or
    openpyxl's values (XLSX: text, number, ``datetime``, None)."""
    if len(data) > MAX_FILE:
        raise SheetError("file_too_large", _("The file is larger than %(mb)s MB.") % {"mb": MAX_FILE // (1024 * 1024)})
    if data.startswith(b"PK\x03\x04"):
        return _read_xlsx(data)
    if format_of(filename) == XLSX:
        raise SheetError("bad_file", _("The file is not a valid XLSX workbook."))
    if format_of(filename) is None and filename:
        raise SheetError("bad_format", _("Use a CSV or an XLSX file."))
    return _read_csv(data)


def _decoded(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # Excel's "CSV" in Western Europe; its five unassigned bytes read as Latin-1 would.
        return data.decode("cp1252", errors="replace")


def _separator(first_line: str) -> str:
    """The separator the header row uses most, outside quotes (a comma by default)."""
    counts, quoted = dict.fromkeys(SEPARATORS, 0), False
    for ch in first_line:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in counts:
            counts[ch] += 1
    best = max(SEPARATORS, key=lambda s: counts[s])
    return best if counts[best] else ","


def _read_csv(data: bytes) -> Sheet:
    text = _decoded(data)
    if "\x00" in text:
        raise SheetError("bad_file", _("The file is not a text file (CSV) nor an XLSX workbook."))
    first = next((line for line in text.splitlines() if line.strip()), "")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_separator(first))
    headers, rows = None, []
    try:
        for number, record in enumerate(reader, start=1):
            cells = [c.strip() for c in record]
            if not any(cells):
                continue
            if headers is None:
                headers = cells
                continue
            rows.append((number, cells))
            if len(rows) > MAX_ROWS:
                raise SheetError("too_many_rows", _("The file has more than %(n)s rows.") % {"n": f"{MAX_ROWS:,}"})
    except csv.Error as exc:
        raise SheetError("bad_file", _("Row %(row)s cannot be read: %(e)s") % {"row": reader.line_num, "e": exc}) from None
    if headers is None:
        raise SheetError("empty_file", _("The file has no header row."))
    return Sheet(headers, rows, CSV)


def _read_xlsx(data: bytes) -> Sheet:
    # Imported here: openpyxl takes a tenth of a second to import, and only an import needs it.
    import openpyxl

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            if sum(i.file_size for i in z.infolist()) > MAX_UNPACKED:
                raise SheetError("file_too_large", _("The workbook unpacks to more than %(mb)s MB.") % {"mb": MAX_UNPACKED // (1024 * 1024)})
            _check_size(z)
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except SheetError:
        raise
    except Exception:  # a broken zip, a part missing, XML refused by defusedxml: all one answer
        raise SheetError("bad_file", _("The file is not a valid XLSX workbook.")) from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        if sheet is None:
            raise SheetError("empty_file", _("The file has no header row."))
        _check_bounds(sheet.max_row or 0, sheet.max_column or 0)  # the size the workbook says (it may lie: _check_size read the cells')
        headers, rows = None, []
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            # No NUL leaves the workbook (XML escapes one as _x0000_): no field holds it, PostgreSQL refuses it.
            cells = [v.replace("\x00", "").strip() if isinstance(v, str) else v for v in values]
            if all(c is None or c == "" for c in cells):
                continue
            if headers is None:
                headers = ["" if c is None else str(c) for c in cells]
                continue
            rows.append((number, cells))
            if len(rows) > MAX_ROWS:
                raise SheetError("too_many_rows", _("The file has more than %(n)s rows.") % {"n": f"{MAX_ROWS:,}"})
    except SheetError:
        raise
    except Exception:
        raise SheetError("bad_file", _("The file is not a valid XLSX workbook.")) from None
    finally:
        book.close()
    if headers is None:
        raise SheetError("empty_file", _("The file has no header row."))
    return Sheet(headers, rows, XLSX)


#: a cell's or a row's address in a worksheet's XML: ``<c r="AB12"``, ``<row r="12"``
_CELL_REF = re.compile(rb'<(?:\w+:)?c\b[^>]*?\sr="([A-Z]{1,3})([0-9]{1,7})"')
_ROW_REF = re.compile(rb'<(?:\w+:)?row\b[^>]*?\sr="([0-9]{1,7})"')


def _check_bounds(rows: int, columns: int) -> None:
    if columns > MAX_COLUMNS:
        raise SheetError("too_many_columns", _("The sheet has more than %(n)s columns.") % {"n": MAX_COLUMNS})
    if rows > 2 * MAX_ROWS:
        raise SheetError("too_many_rows", _("The file has more than %(n)s rows.") % {"n": f"{MAX_ROWS:,}"})


def _check_size(z: zipfile.ZipFile) -> None:
    """Refuse a workbook whose cells reach beyond the bounds, whatever size it says it has.

    openpyxl yields every empty row and cell up to the farthest one (or to the size the workbook
    declares): a file of a few bytes with a cell at XFD1048576 would be billions of empty cells
    to look at, and a declared size can lie. The cells' addresses are read from the worksheets'
    XML (no more than ``MAX_UNPACKED``, checked before) with a pattern, before openpyxl parses it."""
    rows = columns = 0
    for name in z.namelist():
        if not (name.startswith("xl/worksheets/") and name.endswith(".xml")):
            continue
        xml = z.read(name)
        for letters, number in _CELL_REF.findall(xml):
            column = 0
            for ch in letters:
                column = column * 26 + ch - 64
            columns, rows = max(columns, column), max(rows, int(number))
        rows = max([rows, *(int(n) for n in _ROW_REF.findall(xml))])
    _check_bounds(rows, columns)


def text(value) -> str:
    """A cell as text: a whole number without ``.0`` (a phone typed in a number cell), a date as
    dd/mm/yyyy, nothing as ""."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.strftime("%d/%m/%Y") if value.time() == dt.time() else value.strftime("%d/%m/%Y %H:%M")
    if isinstance(value, dt.date):
        return value.strftime("%d/%m/%Y")
    value = str(value).strip()
    if value.startswith("'") and value[1:].startswith(csvsafe.FORMULA_STARTS):
        return value[1:]  # a text our own CSV marked as not a formula: the text as it was
    return value


def write(fmt: str, headers: list[str], rows, *, title: str = "", separator: str = ",") -> bytes:
    """A CSV or an XLSX of ``headers`` and ``rows`` (cells: text, int, ``Decimal``, date)."""
    if fmt == XLSX:
        return _write_xlsx(headers, rows, title)
    out = io.StringIO()
    writer = csvsafe.Writer(out, delimiter=separator)  # no cell a spreadsheet runs as a formula
    writer.writerow(headers)
    for row in rows:
        writer.writerow([text(c) if isinstance(c, dt.date) else c for c in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _write_xlsx(headers, rows, title: str) -> bytes:
    # Imported here, as in ``_read_xlsx``.
    import openpyxl
    from openpyxl.styles import Font

    # A whole workbook, not openpyxl's write-only one: that one writes no <dimension>, and a
    # reader (openpyxl's own, in ``_read_xlsx``) then parses the whole sheet once more to size it.
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = _sheet_title(title)
    bold = Font(bold=True)
    sheet.append(headers)
    for c in sheet[1]:
        c.font = bold
    for row in rows:
        sheet.append(row)
    for line in sheet.iter_rows(min_row=1):
        for c in line:
            if isinstance(c.value, str) and c.value.startswith(csvsafe.FORMULA_STARTS):
                c.data_type = "s"  # a text, not the formula it looks like
                c.quotePrefix = True  # and shown and kept as text when the cell is edited
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _sheet_title(title: str) -> str:
    cleaned = "".join(ch for ch in (title or "Sheet") if ch not in "[]:*?/\\")
    return cleaned[:31] or "Sheet"
