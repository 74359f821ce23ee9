"""Bringing a room's sheets in and taking them out: the frame every kind of import shares.

A kind (people, a blind structure, a payout table, a league's results) is an ``Importer``: its
columns (the field, the label shown, the headers it is known by in Italian and English and in
other programs' exports), how a row becomes values (``parse``, which refuses a row with a
reason), how the rows compare with what is stored (``plan``: created, updated with what
changes, unchanged, possible duplicate or refused) and how the accepted rows are written
(``write``, inside the one transaction of ``imports.services.run_import``). The same kind gives
the export (``export``), with the headers the import reads first, so an export comes back in as
it went out.

Kinds register here (``register``) when their app is ready; the pages, the API and the
management commands look them up by name (``get``), so one flow serves them all: read the file
(``tdmanager.sheets``), map its columns (``auto_mapping``, editable), preview, confirm.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdmanager import sheets, shown_text
from tdmanager.errors import ValidationFailed

CREATED, UPDATED, UNCHANGED, DUPLICATE, REFUSED = "created", "updated", "unchanged", "duplicate", "refused"
STATUSES = (CREATED, UPDATED, UNCHANGED, DUPLICATE, REFUSED)


def status_label(status: str, *, done: bool = False) -> str:
    """What a row's status is called on the preview, or once the file is in (``done``)."""
    if done:
        return {
            CREATED: _("created"),
            UPDATED: _("updated"),
            UNCHANGED: _("already in"),
            DUPLICATE: _("possible duplicates left out"),
            REFUSED: _("refused, left out"),
        }[status]
    return {
        CREATED: _("to create"),
        UPDATED: _("to update"),
        UNCHANGED: _("unchanged"),
        DUPLICATE: _("possible duplicates"),
        REFUSED: _("refused"),
    }[status]


class Refused(Exception):
    """A row that cannot come in; ``reason`` is in the reader's language."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class BadOptions(Refused):
    """The import's options (a structure's name, the league) cannot be used."""


@dataclass(frozen=True)
class Column:
    field: str
    label: str  # the header the export writes (English; translated where shown)
    aliases: tuple[str, ...] = ()  # headers it is known by, any case and accents
    required: bool = False


@dataclass
class Row:
    """One data row of the file and what the import makes of it."""

    line: int
    cells: dict  # field -> the cell as read
    status: str = CREATED
    values: dict = field(default_factory=dict)
    changes: dict = field(default_factory=dict)  # field -> (old, new), for an update
    reason: str = ""
    target: object = None  # the stored object an update or an unchanged row is
    # a possible duplicate's look-alikes: (the stored one's id, name, by what, the row of this file it is)
    matches: list = field(default_factory=list)
    # a possible duplicate that is an earlier row's record again: accepted, it adds its ``changes``
    # to what that row creates, and is never a second record
    same_as: Row | None = None


@dataclass
class Preview:
    kind: str
    headers: list[str]
    mapping: list[str]  # a field per column ("" = not read)
    rows: list[Row]
    options: dict = field(default_factory=dict)
    #: what a kind of whole files (TD3's save files) says of each file beside its rows
    files: list = field(default_factory=list)

    def counts(self) -> dict:
        out = dict.fromkeys(STATUSES, 0)
        for row in self.rows:
            out[row.status] += 1
        return out

    def refused(self) -> list[Row]:
        return [r for r in self.rows if r.status == REFUSED]


def fold(header: str) -> str:
    """A header as compared: no case, no accents, only letters and digits ("Data di nascita" and
    "DATA_DI_NASCITA" are one)."""
    plain = unicodedata.normalize("NFKD", str(header or "")).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", plain.lower())


class Importer:
    """A kind of sheet; subclasses set the attributes and the four methods."""

    kind = ""
    title = ""  # shown on the page: "People", "Blind structure" (translated where shown)
    columns: tuple[Column, ...] = ()
    #: options the import needs besides the file (a structure's name, the league): name -> label
    options: dict = {}
    #: a kind of whole files, not of a sheet's rows (TD3's save files): ``preview_files`` reads
    #: the upload, no columns are mapped; ``several``: the page takes several files at once
    #: (kept as one zip), ``accept`` the file types it offers; ``exports``: the kind has an export
    reads_files = False
    several = False
    accept = ".csv,.xlsx"
    exports = True

    def auto_mapping(self, headers: list[str]) -> list[str]:
        """A field per column by its header, in any language the product speaks (an export
        comes back in whatever language it was asked in); a field is given to its first column
        only. A file of refused rows, downloaded and corrected, starts with its row number and
        the reason it was refused: those two columns are read as nothing."""
        known = {}
        for col in self.columns:
            for name in (col.field, *in_every_language(col.label), *col.aliases):
                known.setdefault(fold(name), col.field)
        taken, out = set(), []
        refusals = (
            len(headers) >= 2
            and fold(headers[0]) in in_every_language(REFUSED_ROW, folded=True)
            and fold(headers[1]) in in_every_language(REFUSED_REASON, folded=True)
        )
        for i, header in enumerate(headers):
            f = "" if refusals and i < 2 else known.get(fold(header), "")
            out.append("" if f in taken else f)
            if f:
                taken.add(f)
        return out

    def check_mapping(self, mapping: list[str]) -> None:
        """Refuses a mapping that reads a field twice, names an unknown one or misses a required one."""
        fields = {c.field for c in self.columns}
        used = [f for f in mapping if f]
        unknown = sorted(set(used) - fields)
        if unknown:
            raise Refused(_("Unknown column: %(names)s.") % {"names": ", ".join(unknown)})
        twice = sorted({f for f in used if used.count(f) > 1})
        if twice:
            raise Refused(_("Two columns are read as %(names)s: keep one.") % {"names": ", ".join(self.label(f) for f in twice)})
        missing = [self.label(c.field) for c in self.columns if c.required and c.field not in used]
        if missing:
            raise Refused(_("The file needs a column for: %(names)s.") % {"names": ", ".join(missing)})

    def label(self, field_name: str) -> str:
        for col in self.columns:
            if col.field == field_name:
                return _(col.label)
        return field_name

    # -- what each kind writes -------------------------------------------------------------

    def take_as(self, row: Row, pk: int) -> bool:
        """The possible duplicate ``row`` taken as the stored record ``pk`` it looks like (the
        director's choice on the preview): its target, changes and status set. False when the
        kind cannot, or ``pk`` is none of the records the row looks like."""
        return False

    def clashes(self, created: list[Row]) -> list[tuple[Row, str]]:
        """The rows about to be created that would make two records of what must be one (two
        people with one document), each with its reason; none by default."""
        return []

    def option_choices(self, name: str) -> list[tuple[str, str]] | None:
        """The values an option may take, with their labels (a list the page offers); None: typed."""
        return None

    def check_options(self, options: dict) -> dict:
        """The options cleaned (refused with ``Refused``); none by default."""
        return {}

    def file_options(self, options: dict, filename: str) -> dict:
        """The cleaned options completed from the file's name (a structure is named as its file
        when no name is given); as they are by default."""
        return options

    def parse(self, cells: dict, options: dict) -> dict:
        """The values of one row (``cells``: field -> the cell as read); ``Refused`` if it cannot come in."""
        raise NotImplementedError

    def plan(self, rows: list[Row], options: dict) -> None:
        """Set each parsed row's status against what is stored (and the rows above it)."""
        for row in rows:
            if row.status != REFUSED:
                row.status = CREATED

    def check_file(self, rows: list[Row], options: dict) -> None:
        """Refusals that need the whole file (a structure whose levels do not add up)."""

    def write(self, rows: list[Row], options: dict, actor) -> dict:
        """Write the accepted rows (inside the import's transaction); a summary for the event log."""
        raise NotImplementedError

    def combine(self, uploads: list[tuple[str, bytes]]) -> tuple[str, bytes]:
        """Several files sent at once as the one file kept (``several``); ``Refused`` otherwise."""
        if len(uploads) != 1:
            raise Refused(_("Send one file."))
        return uploads[0]

    def preview_files(self, data: bytes, filename: str, options: dict) -> Preview:
        """A kind of whole files: the upload read and compared with what is stored (``reads_files``)."""
        raise NotImplementedError

    def export(self, options: dict) -> tuple[list[str], list[list]]:
        """The headers (the import's own first) and the rows of the export."""
        raise NotImplementedError

    def export_name(self, options: dict) -> str:
        return self.kind


_KINDS: dict[str, Importer] = {}


def register(importer: Importer) -> Importer:
    _KINDS[importer.kind] = importer
    return importer


def get(kind: str) -> Importer | None:
    return _KINDS.get(kind)


def kinds() -> list[Importer]:
    return list(_KINDS.values())


def preview(kind: str, data: bytes, filename: str, *, mapping: list[str] | None = None, options: dict | None = None) -> Preview:
    """Read the file and say what importing it would do; writes nothing.

    Raises ``sheets.SheetError`` for a file that is no sheet and ``Refused`` for a mapping or
    options that cannot be used."""
    importer = _KINDS[kind]
    try:
        options = importer.file_options(importer.check_options(options or {}), filename)
    except BadOptions:
        raise
    except Refused as exc:
        raise BadOptions(exc.reason) from None
    if importer.reads_files:
        return importer.preview_files(data, filename, options)
    sheet = sheets.read(data, filename)
    if mapping is None:
        mapping = importer.auto_mapping(sheet.headers)
    mapping = (list(mapping) + [""] * len(sheet.headers))[: len(sheet.headers)]
    importer.check_mapping(mapping)
    rows, read = [], [(i, f) for i, f in enumerate(mapping) if f]  # the columns read, once: not every column for every row
    for line, cells in sheet.rows:
        by_field = {f: (cells[i] if i < len(cells) else None) for i, f in read}
        row = Row(line, by_field)
        try:
            row.values = importer.parse(by_field, options)
        except Refused as exc:
            row.status, row.reason = REFUSED, exc.reason
        rows.append(row)
    importer.plan(rows, options)
    importer.check_file(rows, options)
    return Preview(kind, sheet.headers, mapping, rows, options)


def option_name(options: dict, too_long: str) -> str:
    """The ``name`` option a kind names what it makes by: at most 120 characters, a text fit to
    be shown (``Refused`` with ``too_long``, or with the reason the shown texts' check gives)."""
    name = str(options.get("name") or "").strip()
    if name:
        if len(name) > 120:
            raise Refused(too_long)
        try:
            shown_text.check(name, "name", _("Name"))
        except ValidationFailed as exc:
            raise Refused(str(exc.message)) from None
    return name


def name_from_file(options: dict, filename: str, missing: str) -> dict:
    """The ``name`` option, the file's name without its extension when none was given."""
    if not options["name"]:
        options["name"] = Path(filename or "").stem.strip()[:120]
    if not options["name"]:
        raise Refused(missing)
    return options


def refused_sheet(preview_: Preview, fmt: str) -> bytes:
    """The refused rows as they were read, with their row number and reason first: to fix and import again."""
    headers = [_(REFUSED_ROW), _(REFUSED_REASON), *preview_.headers]
    index = {f: i for i, f in enumerate(preview_.mapping) if f}
    rows = []
    for row in preview_.refused():
        cells = [""] * len(preview_.headers)
        for f, value in row.cells.items():
            if f in index:  # a date or a number as read (a typed cell in an XLSX), any other value as its text
                cells[index[f]] = value if isinstance(value, (dt.date, int, float)) and not isinstance(value, bool) else sheets.text(value)
        rows.append([row.line, row.reason, *cells])
    return sheets.write(fmt, headers, rows, title=_("Refused"), separator=csv_separator())


#: The two columns a file of refused rows starts with (``refused_file``).
REFUSED_ROW, REFUSED_REASON = gettext_noop("Row"), gettext_noop("Reason")


def in_every_language(msgid: str, *, folded: bool = False) -> set[str]:
    """``msgid`` as each language the product speaks writes it (``settings.LANGUAGES``)."""
    out = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            out.add(_(msgid))
    return {fold(t) for t in out} if folded else out


def cell_words(msgid: str) -> frozenset[str]:
    """``msgid`` folded as each language of the product writes it: a cell's word ("yes", "level")
    read in whatever language the sheet was written in. Worked out once per process and list of
    languages, not per cell."""
    return _cell_words(msgid, tuple(code for code, _name in settings.LANGUAGES))


@lru_cache(maxsize=64)
def _cell_words(msgid: str, _languages: tuple) -> frozenset[str]:
    return frozenset(in_every_language(msgid, folded=True))


def csv_separator() -> str:
    """``;`` for a reader whose language writes a decimal comma (Italian, German, Spanish, French:
    Excel there splits columns on it), ``,`` otherwise."""
    from django.utils.formats import get_format  # the active language's, read when the file is written

    return ";" if get_format("DECIMAL_SEPARATOR") == "," else ","


def export_file(kind: str, fmt: str, options: dict | None = None) -> tuple[bytes, str]:
    """The export of a kind as a CSV or an XLSX, and its file name."""
    importer = _KINDS[kind]
    options = importer.check_options(options or {})
    headers, rows = importer.export(options)
    headers = [_(h) for h in headers]  # in the asker's language: the import reads them in any
    name = importer.export_name(options)
    return sheets.write(fmt, headers, rows, title=name, separator=csv_separator()), f"{name}.{fmt}"


# -- cells, as every kind reads them ---------------------------------------------------------


def _named(label) -> str:
    """A column's name for a refusal: given as text, or as a function that makes it (a
    translation made only for the rows refused, not for the ten thousand that are not)."""
    return label() if callable(label) else label


YES = {"1", "si", "sì", "s", "yes", "y", "x", "true", "vero", "v", "ok", "ja", "j", "oui", "o"}
NO = {"", "0", "no", "n", "false", "falso", "f", "-", "nein", "non"}


def cell_text(value) -> str:
    return sheets.text(value)


def cell_bool(value, label: str) -> bool:
    if isinstance(value, bool):
        return value
    t = sheets.text(value).lower()
    if t in YES or fold(t) in cell_words("yes"):  # "ja", "oui", and the word of any language the product speaks
        return True
    if t in NO or fold(t) in cell_words("no"):
        return False
    raise Refused(_("%(field)s: “%(value)s” is neither yes nor no.") % {"field": _named(label), "value": t[:40]})


_GROUPED = re.compile(r"-?\d{1,3}([.\u00a0 ']\d{3})+")  # 1.000, 10 000, 1'000
_DATE = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})")
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")


def cell_int(value, label: str, *, minimum: int = 0, required: bool = True) -> int | None:
    """A whole number: 1000, 1.000 or 1 000 (a thousands separator), a number cell."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
    else:
        t = sheets.text(value)
        if t == "":
            if required:
                raise Refused(_("%(field)s is missing.") % {"field": _named(label)})
            return None
        if _GROUPED.fullmatch(t):
            t = re.sub(r"[.\u00a0 ']", "", t)
        if not re.fullmatch(r"-?\d{1,12}", t):
            raise Refused(_("%(field)s: “%(value)s” is not a whole number.") % {"field": _named(label), "value": t[:40]})
        n = int(t)
    if n < minimum:
        raise Refused(_("%(field)s must be at least %(min)s.") % {"field": _named(label), "min": minimum})
    return n


def cell_decimal(value, label: str, *, required: bool = True):
    """An amount: 1234.56, 1.234,56 or 1234,56 (Italian), € and spaces ignored; two decimals at most."""
    from decimal import Decimal, InvalidOperation

    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = repr(value)
    t = sheets.text(value).replace("€", "").replace("\u00a0", "").replace(" ", "")
    if t == "":
        if required:
            raise Refused(_("%(field)s is missing.") % {"field": _named(label)})
        return None
    if "," in t:  # Italian: the comma is the decimal mark, the dot groups thousands
        t = t.replace(".", "").replace(",", ".")
    elif re.fullmatch(r"\d{1,3}(\.\d{3}){2,}", t):
        t = t.replace(".", "")
    try:
        d = Decimal(t)
    except InvalidOperation:
        d = None
    if d is None or not d.is_finite() or abs(d) >= Decimal("1e10"):
        raise Refused(_("%(field)s: “%(value)s” is not an amount.") % {"field": _named(label), "value": str(value)[:40]})
    if d != d.quantize(Decimal("0.01")):
        raise Refused(_("%(field)s: “%(value)s” has more than two decimals.") % {"field": _named(label), "value": str(value)[:40]})
    return d.quantize(Decimal("0.01"))


def cell_date(value, label: str, *, required: bool = False):
    """A date: dd/mm/yyyy (or with dots or dashes, a two-digit year), yyyy-mm-dd, a date cell."""
    import datetime as dt

    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    t = sheets.text(value)
    if t == "":
        if required:
            raise Refused(_("%(field)s is missing.") % {"field": _named(label)})
        return None
    t = t.split(" ")[0]  # "03/02/1980 00:00" as some programs write a date
    try:
        if m := _ISO_DATE.fullmatch(t):
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        if m := _DATE.fullmatch(t):
            year = int(m[3])
            if year < 100:  # 80 is 1980, 05 is 2005: a year ahead of this one is the century before
                this = dt.date.today().year
                year += 2000 if 2000 + year <= this else 1900
            return dt.date(year, int(m[2]), int(m[1]))
    except ValueError:
        pass
    raise Refused(_("%(field)s: “%(value)s” is not a date (dd/mm/yyyy).") % {"field": _named(label), "value": t[:40]})
