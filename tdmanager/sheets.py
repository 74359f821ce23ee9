"""Spreadsheets in and out: CSV as card rooms' spreadsheets write it, and XLSX.

Reading (``read``) gives the header row and every data row with its row number as the
spreadsheet shows it (the header is row 1), so a refusal names the row a person fixes. A
CSV is decoded as UTF-8 (with or without Excel's byte-order mark), else as Windows-1252 (what
Excel in Italy saves as "CSV"); its separator is the one its header row uses most of ``;``,
``,``, a tab and ``|``. An XLSX is read with openpyxl; a cell holding a formula gives the
formula's text (``=HYPERLINK(...)``), which the importers store as text, never run. A date
cell gives a ``datetime``; a number cell a number.

A file is bounded before and while it is read, whatever it says of itself: its bytes
(``MAX_FILE``); a CSV's columns (``MAX_COLUMNS``) and rows (``MAX_ROWS``); an XLSX's parts
(``MAX_PARTS``), their unpacked size (``MAX_UNPACKED``: a zip of a few kilobytes can unpack to
gigabytes, and a part's header can say it holds 350 bytes while it inflates to a gigabyte: each
part is inflated here in small steps, stopped at the size it declares), its cells
(``MAX_CELLS``, counted with or without their addresses), its columns, its row numbers (a row
numbered 200,000,000 is refused as soon as it is seen: openpyxl would yield every blank row
before it) and its rows, blank ones included, and its style records (``MAX_STYLES``). Only then
does openpyxl read it, and it reads XML through defusedxml when it is installed (it is): an
entity bomb is refused. Bytes that are not text in the file's encoding are refused with their
line, never replaced (a name stored as "Ross\ufffdi" is a name lost).

Writing (``write``) makes a CSV (UTF-8 with the byte-order mark, so Excel shows accents; ``;``
for readers whose language writes a decimal comma, whose Excel splits columns on it, ``,``
otherwise) or an XLSX; in both a
text that a spreadsheet would run as a formula stays text (``tdmanager.csvsafe``; in an XLSX a
string cell marked as text, shown as typed). An XLSX's cells keep their types (``_typed``): a
date is a date cell shown as the reader's language writes dates, a whole number or a ``Decimal``
a number cell (an amount, a ``Decimal`` of two places, shown with its two decimals), so a sheet
sorts and adds them; an empty text is an empty cell.

Why openpyxl and the standard csv module rather than a higher layer (tablib, django-import-export):
tablib drops blank rows (the row numbers shown to the director would shift), refuses a row
longer than the header, and "escapes" a formula by cutting its ``=`` (the data changes);
django-import-export's resources are built around the admin's forms. Matching, the preview and
the all-or-nothing write are the importers' own (``tournaments.imports.rules``).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from . import bodylimits, csvsafe

MAX_FILE = bodylimits.SHEET_FILE
MAX_UNPACKED = 200 * 1024 * 1024  # an XLSX's parts, unpacked
MAX_ROWS = 100_000
MAX_COLUMNS = 200  # a room's sheet has a dozen; a workbook sized at 16,384 columns would be read as rows that wide
#: a workbook's cells (a room's 100,000 people in a dozen columns are 1.2 million); each is a few
#: objects once openpyxl has read it, and a cell written without its address (``<c/>``) costs 4 bytes
MAX_CELLS = 2_000_000
MAX_PARTS = 500  # the files inside an XLSX (a workbook of one sheet has a dozen)
#: style records (cell formats, fonts, fills, borders, number formats): Excel itself keeps at most
#: 64,000 cell formats; openpyxl makes an object of each, all of them, before any cell is read
MAX_STYLES = 100_000
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
    """The text of a CSV: UTF-8 after a byte-order mark, UTF-16 after its own, else UTF-8, else
    Windows-1252. A byte that is not text in the encoding chosen refuses the file, naming its
    line: replaced, it would be stored as "Ross\ufffdi" in a person's name and never noticed."""
    if data.startswith(b"\xef\xbb\xbf"):
        return _strictly(data, 3, "utf-8", "UTF-8")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _strictly(data, 0, "utf-16", "UTF-16")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # Excel's "CSV" in Western Europe; five bytes are no character in it (refused as such).
        return _strictly(data, 0, "cp1252", "Windows-1252")


def _strictly(data: bytes, start: int, encoding: str, name: str) -> str:
    try:
        return data[start:].decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[start : start + exc.start].decode(encoding, errors="replace").count("\n") + 1
        raise SheetError(
            "bad_encoding",
            _("Line %(line)s holds bytes that are not %(encoding)s text: save the file again as CSV UTF-8.") % {"line": line, "encoding": name},
        ) from None


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
            if len(record) > MAX_COLUMNS:  # each row's cells are matched against every column, each of them
                raise _too_many_columns()
            cells = [c.strip() for c in record]
            if not any(cells):
                continue
            if headers is None:
                headers = cells
                continue
            rows.append((number, cells))
            if len(rows) > MAX_ROWS:
                raise _too_many_rows()
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
            _check_parts(data, z.infolist())
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except SheetError:
        raise
    except Exception:  # a broken zip, a part missing, XML refused by defusedxml: all one answer
        raise SheetError("bad_file", _("The file is not a valid XLSX workbook.")) from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        if sheet is None:
            raise SheetError("empty_file", _("The file has no header row."))
        _check_bounds(sheet.max_row or 0, sheet.max_column or 0)  # the size the workbook says (it may lie: _check_parts read the cells')
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
                raise _too_many_rows()
    except SheetError:
        raise
    except Exception:
        raise SheetError("bad_file", _("The file is not a valid XLSX workbook.")) from None
    finally:
        book.close()
    if headers is None:
        raise SheetError("empty_file", _("The file has no header row."))
    return Sheet(headers, rows, XLSX)


def _too_many_rows() -> SheetError:
    return SheetError("too_many_rows", _("The file has more than %(n)s rows.") % {"n": f"{MAX_ROWS:,}"})


def _too_many_columns() -> SheetError:
    return SheetError("too_many_columns", _("The sheet has more than %(n)s columns.") % {"n": MAX_COLUMNS})


def _check_bounds(rows: int, columns: int) -> None:
    if columns > MAX_COLUMNS:
        raise _too_many_columns()
    if rows > 2 * MAX_ROWS:
        raise _too_many_rows()


def _unpacks_to_more() -> SheetError:
    return SheetError("file_too_large", _("The workbook unpacks to more than %(mb)s MB.") % {"mb": MAX_UNPACKED // (1024 * 1024)})


#: what a part's XML is read for before openpyxl parses it: a row (its ``r``, its cells), a cell
#: (its ``r``, else the next column), a shared string, a style record, a sheet of the workbook; a
#: namespace prefix allowed (``<x:c``), a longer name (``<col``, ``<c:chart``) not taken for one
_ELEMENT = re.compile(
    rb"<(?:[A-Za-z_][\w.-]*:)?(row|c|si|xf|font|fill|border|numFmt|dxf|sheet)(?=[\s/>])"
    rb"""(?:\s+r\s*=\s*["']\$?([A-Za-z]{0,4})\$?([0-9]{0,12})["'])?([^<>]*)"""  # an address as first attribute (as every program writes it): read here
)
_R_ATTR = re.compile(rb"""\sr\s*=\s*["']([^"']*)["']""")
_CELL_ADDRESS = re.compile(rb"\$?([A-Za-z]+)\$?([0-9]+)")
_STYLE_RECORDS = frozenset((b"xf", b"font", b"fill", b"border", b"numFmt", b"dxf"))
_IN, _OUT = 64 * 1024, 256 * 1024  # compressed bytes fed, and unpacked bytes taken, at each step
_COLUMNS: dict[bytes, int] = {}  # a column's letters -> its number, as worked out once


def _check_parts(data: bytes, parts: list[zipfile.ZipInfo]) -> None:
    """Refuse a workbook that would cost more than the bounds to read, before openpyxl reads it.

    Every part is inflated here in steps of ``_OUT`` bytes and stopped at the size its header
    declares (``zipfile`` would inflate a part whole in one call before cutting it to that size:
    350 bytes declared, 1.2 GB in memory), so its real size is bounded whatever the header
    says; a part that unpacks to more than it declares is refused. As it is inflated, its XML
    is scanned for what openpyxl would make of it (``_Counts``): a bound passed stops the
    reading at once. A part read later by openpyxl then unpacks to no more than was read here."""
    if len(parts) > MAX_PARTS:
        raise SheetError("bad_file", _("The workbook holds more than %(n)s parts.") % {"n": MAX_PARTS})
    if sum(p.file_size for p in parts) > MAX_UNPACKED:
        raise _unpacks_to_more()
    counts = _Counts()
    for part in parts:
        counts.new_part()
        carried = b""
        for piece in _inflated(data, part):
            carried = counts.scan(carried + piece)
        counts.end_row()


def _inflated(data: bytes, part: zipfile.ZipInfo):
    """A part's bytes, unpacked in steps of at most ``_OUT``, never more than it declares."""
    bad = SheetError("bad_file", _("The file is not a valid XLSX workbook."))
    if part.flag_bits & 0x1 or part.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise bad  # encrypted, or packed as no spreadsheet program packs one (bzip2, lzma: unbounded steps)
    at = part.header_offset
    if data[at : at + 4] != b"PK\x03\x04" or len(data) < at + 30:
        raise bad
    name_length, extra_length = struct.unpack_from("<HH", data, at + 26)
    start = at + 30 + name_length + extra_length
    raw = memoryview(data)[start : start + part.compress_size]
    if len(raw) < part.compress_size:
        raise bad
    declared = part.file_size
    if part.compress_type == zipfile.ZIP_STORED:
        for i in range(0, min(declared, len(raw)), _OUT):
            yield bytes(raw[i : min(i + _OUT, declared)])
        return
    inflater, fed, pending, unpacked = zlib.decompressobj(-zlib.MAX_WBITS), 0, b"", 0
    while not inflater.eof:
        if not pending:
            if fed >= len(raw):
                raise bad  # the part's data ends before its deflate stream does
            pending, fed = raw[fed : fed + _IN], fed + _IN
        try:
            piece = inflater.decompress(pending, _OUT)
        except zlib.error:
            raise bad from None
        pending = inflater.unconsumed_tail
        unpacked += len(piece)
        if unpacked > declared:
            raise SheetError(
                "bad_file",
                _("The workbook's part %(part)s unpacks to more than the %(n)s bytes it declares: the file is damaged.")
                % {"part": part.filename[:80], "n": f"{declared:,}"},
            )
        if piece:
            yield piece


class _Counts:
    """What openpyxl would make of the parts scanned so far (``scan``), refused past a bound:
    cells, rows and their numbers, columns, shared strings, style records, sheets. A row or a
    cell without its address takes the one after the last, as openpyxl numbers it."""

    def __init__(self):
        self.cells = self.strings = self.styles = self.sheets = 0
        self.new_part()

    def new_part(self) -> None:
        self.rows, self.row, self.column, self.far = 0, 0, 0, False

    def end_row(self) -> None:
        """A row numbered past the bound is refused once its cells' columns have been seen (a
        cell at XFD1048576 is refused for its column, the likelier mistake), at its first cell
        or where it ends: nothing is read after it."""
        if self.far:
            raise _too_many_rows()

    def scan(self, xml: bytes) -> bytes:
        """Count the elements in ``xml``; the tail after its last ``<`` (an element cut by the
        step) is given back, to be scanned with the next step."""
        cut = xml.rfind(b"<")
        if cut < 0:
            return b""
        tail = xml[cut:]
        if b">" in tail or len(tail) > _OUT:  # the last element is whole (or no element: a text so long is no tag)
            cut, tail = len(xml), b""
        cells, column, limit, far = self.cells, self.column, MAX_CELLS, 2 * MAX_ROWS
        # findall's tuples, the address read by the pattern and the locals: a cell costs about a
        # microsecond here (2 million of them, the bound: 2 s)
        for name, letters, digits, attributes in _ELEMENT.findall(xml, 0, cut):
            if name == b"c":
                cells += 1
                if cells > limit:
                    raise self._too_many_cells()
                if letters and digits:
                    column = _COLUMNS.get(letters) or _column_of(letters)
                    if len(digits) > 6 and int(digits) > far:
                        self.far = True
                elif b"r" in attributes:
                    column = self._column(attributes, column)
                else:
                    column += 1
                if column > MAX_COLUMNS:
                    raise _too_many_columns()
                if self.far:
                    raise _too_many_rows()
            elif name == b"row":
                self._row(digits if digits and not letters else None, attributes)
                column = 0
            elif name == b"si":
                self.strings += 1
                if self.strings > MAX_CELLS:
                    raise self._too_many_cells()
            elif name in _STYLE_RECORDS:
                self.styles += 1
                if self.styles > MAX_STYLES:
                    raise SheetError("too_many_styles", _("The workbook has more than %(n)s cell styles.") % {"n": f"{MAX_STYLES:,}"})
            elif name == b"sheet":
                self.sheets += 1
                if self.sheets > MAX_PARTS:
                    raise SheetError("bad_file", _("The workbook holds more than %(n)s parts.") % {"n": MAX_PARTS})
        self.cells, self.column = cells, column
        return tail

    def _row(self, number: bytes | None, attributes: bytes) -> None:
        if number is None:
            found = _R_ATTR.search(attributes) if b"r" in attributes else None
            number = found[1].strip() if found else b""
        if number and not number.isdigit():
            raise SheetError("bad_file", _("The file is not a valid XLSX workbook."))
        self.end_row()
        self.row = self.row + 1 if not number else (int(number) if len(number) <= 9 else 2 * MAX_ROWS + 1)
        self.rows += 1
        self.column = 0
        self.far = self.row > 2 * MAX_ROWS or self.rows > 2 * MAX_ROWS

    def _column(self, attributes: bytes, column: int) -> int:
        """The column of a cell by its address (its row number past the bound marks the row as
        too far: refused once the column is checked); without one, the one after ``column``."""
        found = _R_ATTR.search(attributes)
        address = _CELL_ADDRESS.fullmatch(found[1].strip()) if found else None
        if address is None:
            return column + 1
        letters, digits = address[1], address[2]
        self.far = self.far or len(digits) > 9 or int(digits) > 2 * MAX_ROWS
        return _COLUMNS.get(letters) or _column_of(letters)

    @staticmethod
    def _too_many_cells() -> SheetError:
        return SheetError("too_many_cells", _("The sheet has more than %(n)s cells.") % {"n": f"{MAX_CELLS:,}"})


def _column_of(letters: bytes) -> int:
    """A column's number by its letters (any case); past three letters, past the bound."""
    if len(letters) > 3:
        raise _too_many_columns()
    column = 0
    for ch in letters.upper():
        column = column * 26 + ch - 64
    _COLUMNS[letters] = column
    return column


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
        writer.writerow([text(c) if isinstance(c, (dt.date, float)) else c for c in row])
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
    formats = _formats()
    for row in rows:
        sheet.append([_typed(v) for v in row])
    for line in sheet.iter_rows(min_row=1):
        for c in line:
            value = c.value
            if isinstance(value, str):
                if value.startswith(csvsafe.FORMULA_STARTS):
                    c.data_type = "s"  # a text, not the formula it looks like
                    c.quotePrefix = True  # and shown and kept as text when the cell is edited
            elif isinstance(value, dt.datetime):  # at midnight: a date as a workbook gives it
                c.number_format = formats[0] if value.time() == dt.time() else formats[1]
            elif isinstance(value, dt.date):
                c.number_format = formats[0]
            elif isinstance(value, Decimal) and value.as_tuple().exponent == -2:
                c.number_format = "#,##0.00"  # an amount: its cents shown, 50.00 not 50
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


#: strftime's date directives as Excel's number format writes them
_EXCEL_DATE_PARTS = {"%d": "dd", "%m": "mm", "%Y": "yyyy", "%y": "yy"}
_ISO_DAY = "yyyy-mm-dd"


def _excel_day(strftime: str) -> str:
    """``%d.%m.%Y`` as Excel's ``dd.mm.yyyy``; ISO for a format with anything else in it (a
    month's name, a weekday), which a number format would write otherwise than the language."""
    parts = re.split(r"(%.)", strftime)
    if any(p.startswith("%") and p not in _EXCEL_DATE_PARTS for p in parts) or not {"%d", "%m"} <= set(parts):
        return _ISO_DAY
    return "".join(_EXCEL_DATE_PARTS.get(p, p) for p in parts)


def _formats() -> tuple[str, str]:
    """The number formats of a date cell and of a date-and-time cell in the reader's language:
    a date as the language's first input format writes it (Django's per-language formats and the
    project's own), which is how its people type a date, so a new language needs no code here.
    A date cell holds the date whatever it shows."""
    from django.utils.formats import get_format
    from django.utils.translation import get_language  # only a request or a command sets it

    day = _excel_day(get_format("DATE_INPUT_FORMATS")[0]) if get_language() else _ISO_DAY
    return day, f"{day} hh:mm"


def _typed(value):
    """A cell's value as an XLSX cell holds it: a date or a number as itself (a date and time in
    the local time, as Excel knows no time zone), an empty text as an empty cell, any other
    value as its text (never a ``float``: a money's cents kept as they are)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            from django.utils import timezone

            value = timezone.localtime(value).replace(tzinfo=None)
        return value
    if isinstance(value, Decimal) and value.is_finite() and value.as_tuple().exponent > 0:
        return value.quantize(Decimal(1))  # 3E+1 written as 30
    if isinstance(value, (int, Decimal, dt.date, str)):
        return value
    if isinstance(value, float):
        return Decimal(repr(value))
    return str(value)


def _sheet_title(title: str) -> str:
    cleaned = "".join(ch for ch in (title or "Sheet") if ch not in "[]:*?/\\")
    return cleaned[:31] or "Sheet"
