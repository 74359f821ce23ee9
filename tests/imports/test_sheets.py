"""Reading a room's sheet (``tdmanager.sheets``): the encodings and separators of Excel's CSV,
the row numbers a person sees, and hostile workbooks refused at once, in bounded time and memory."""

import datetime as dt
import io
import re
import time
import tracemalloc
import zipfile

import openpyxl
import pytest

from tdmanager import sheets


def workbook(cells: dict) -> bytes:
    book = openpyxl.Workbook()
    for ref, value in cells.items():
        book.active[ref] = value
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def rewritten(data: bytes, part: str, change) -> bytes:
    """The workbook with one of its parts changed (what a hostile program would write)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            dst.writestr(info, change(body) if info.filename == part else body)
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "separator"),
    [
        ("Cognome;Nome\r\nRossà;Niccolò\r\n".encode("cp1252"), ";"),
        (b"\xef\xbb\xbf" + "Cognome;Nome\r\nRossà;Niccolò\r\n".encode(), ";"),
        ("Cognome,Nome\nRossà,Niccolò\n".encode(), ","),
        ("Cognome\tNome\nRossà\tNiccolò\n".encode(), "\t"),
    ],
)
def test_excels_csv_in_its_encodings_and_separators(data, separator):
    sheet = sheets.read(data, "soci.csv")
    assert sheet.headers == ["Cognome", "Nome"] and sheet.rows == [(2, ["Rossà", "Niccolò"])]


def test_row_numbers_are_the_sheets_blank_and_multi_line_rows_included():
    sheet = sheets.read(b'Cognome;Note\r\nRossi;"una\r\ndue"\r\n\r\n;\r\nBianchi;x\r\n', "a.csv")
    assert [n for n, _cells in sheet.rows] == [2, 5]  # a quoted line break is one row, as Excel shows it


def test_an_xlsx_gives_its_cells_with_their_row_numbers_and_types():
    data = workbook({"A2": "Cognome", "B2": "Nato", "A4": "Rossi", "B4": dt.datetime(1980, 2, 3), "C4": 3471234567})
    sheet = sheets.read(data, "x.xlsx")
    assert sheet.headers == ["Cognome", "Nato", ""] and sheet.rows == [(4, ["Rossi", dt.datetime(1980, 2, 3), 3471234567])]
    assert sheets.text(3471234567.0) == "3471234567" and sheets.text(dt.datetime(1980, 2, 3)) == "03/02/1980"


@pytest.mark.parametrize(
    ("data", "name", "code"),
    [
        (b"%PDF-1.4", "a.pdf", "bad_format"),
        (b"PK\x03\x04 not a zip at all", "a.xlsx", "bad_file"),
        (b"Cognome;Nome\r\nRos\x00si;A\r\n", "a.csv", "bad_file"),
        (b"\r\n\r\n", "a.csv", "empty_file"),
        (b"x" * (sheets.MAX_FILE + 1), "a.csv", "file_too_large"),
    ],
)
def test_a_file_that_is_no_sheet_is_refused_with_its_code(data, name, code):
    with pytest.raises(sheets.SheetError) as refused:
        sheets.read(data, name)
    assert refused.value.code == code


def test_a_workbook_sized_to_billions_of_cells_is_refused_before_a_row_is_read():
    for ref, code in (("XFD1048576", "too_many_columns"), ("A1048576", "too_many_rows")):
        data = workbook({"A1": "Cognome", ref: "x"})
        start = time.process_time()
        with pytest.raises(sheets.SheetError) as refused:
            sheets.read(data, "a.xlsx")
        assert refused.value.code == code and time.process_time() - start < 2


def test_a_workbook_that_lies_about_its_size_is_stopped_at_its_rows():
    data = workbook({"A1": "Cognome", "A2": "Rossi", "A900000": "far away"})
    small = rewritten(data, "xl/worksheets/sheet1.xml", lambda xml: re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:A2"', xml))
    with pytest.raises(sheets.SheetError) as refused:
        sheets.read(small, "a.xlsx")
    assert refused.value.code == "too_many_rows"


def test_a_zip_bomb_is_refused_by_its_unpacked_size():
    data = workbook({"A1": "Cognome"})
    bomb = rewritten(data, "xl/worksheets/sheet1.xml", lambda xml: xml + b" " * (sheets.MAX_UNPACKED + 1))
    assert len(bomb) < 2 * 1024 * 1024  # spaces pack to almost nothing
    with pytest.raises(sheets.SheetError) as refused:
        sheets.read(bomb, "a.xlsx")
    assert refused.value.code == "file_too_large"


def test_an_entity_bomb_is_refused():
    data = workbook({"A1": "Cognome", "A2": "Rossi"})
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY a "aaaaaaaaaa">'
        + b"".join(b'<!ENTITY %s "%s">' % (bytes([98 + i]), (b"&" + bytes([97 + i]) + b";") * 10) for i in range(8))
        + b"]>"
    )
    bomb = rewritten(data, "xl/worksheets/sheet1.xml", lambda xml: laughs + re.sub(rb"^<\?xml[^>]*\?>", b"", xml).replace(b"Rossi", b"&i;"))
    with pytest.raises(sheets.SheetError) as refused:
        sheets.read(bomb, "a.xlsx")
    assert refused.value.code == "bad_file"


def test_an_export_keeps_a_text_that_looks_like_a_formula_as_text():
    data = sheets.write("xlsx", ["Nome"], [['=HYPERLINK("x")'], ["@SUM(A1)"], ["-12.5"], [-3]])
    cells = list(openpyxl.load_workbook(io.BytesIO(data)).active.iter_rows(min_row=2))
    assert [c[0].data_type for c in cells] == ["s", "s", "s", "n"] and cells[0][0].value == '=HYPERLINK("x")'
    csv = sheets.write("csv", ["Nome"], [['=HYPERLINK("x")'], ["-12.5"]]).decode("utf-8-sig")
    assert csv.splitlines() == ["Nome", '"\'=HYPERLINK(""x"")"', "-12.5"]


# --- hostile shapes: each refused by the bound it passes, before the rest of it is read -------


def forged(xml: bytes, declared: bytes | None = None) -> bytes:
    """A workbook whose first sheet's XML is ``xml``; with ``declared``, the part's header says
    it holds those bytes (their size and checksum), whatever it inflates to."""
    base = workbook({"A1": "Cognome"})
    part = "xl/worksheets/sheet1.xml"
    data = rewritten(base, part, lambda _old: xml)
    if declared is None:
        return data
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        info = z.getinfo(part)
    crc, size = zipfile.crc32(declared).to_bytes(4, "little"), len(declared).to_bytes(4, "little")
    out = bytearray(data)
    out[info.header_offset + 14 : info.header_offset + 18] = crc  # the local header
    out[info.header_offset + 22 : info.header_offset + 26] = size
    central = out.index(b"PK\x01\x02")  # the central directory's entries: the part's own
    while out[central + 46 : central + 46 + len(part)] != part.encode():
        central = out.index(b"PK\x01\x02", central + 4)
    out[central + 16 : central + 20] = crc
    out[central + 24 : central + 28] = size
    return bytes(out)


SHEET_HEAD = b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
SHEET_TAIL = b"</sheetData></worksheet>"
HEADER_ROW = b'<row r="1"><c r="A1" t="inlineStr"><is><t>Cognome</t></is></c></row>'


def refused(data: bytes, name: str = "a.xlsx", *, traced: bool = False) -> tuple[sheets.SheetError, int]:
    """The refusal of reading ``data``, and (``traced``) the most memory Python held meanwhile:
    refused by the bound it passes, the rest of the file was never read."""
    if traced:
        tracemalloc.start()
    try:
        with pytest.raises(sheets.SheetError) as caught:
            sheets.read(data, name)
        return caught.value, tracemalloc.get_traced_memory()[1] if traced else 0
    finally:
        if traced:
            tracemalloc.stop()


def test_a_part_that_inflates_past_the_size_it_declares_is_stopped_at_that_size():
    whole = SHEET_HEAD + HEADER_ROW + b'<row r="2"><c r="A2" t="inlineStr"><is><t>Rossi</t></is></c></row>' + SHEET_TAIL
    bomb = forged(whole + b" " * (96 * 1024 * 1024), declared=whole)  # says 300 bytes, inflates to 96 MB
    assert len(bomb) < 200 * 1024
    error, peak = refused(bomb, traced=True)
    assert error.code == "bad_file" and "declares" in error.detail
    assert peak < 8 * 1024 * 1024  # inflated a step at a time: never the 96 MB


def test_cells_written_without_their_address_are_counted(monkeypatch):
    monkeypatch.setattr(sheets, "MAX_CELLS", 1000)
    rows = b"".join(b'<row r="%d">' % n + b"<c/>" * 50 + b"</row>" for n in range(2, 102))  # 5,000 cells
    error, _peak = refused(forged(SHEET_HEAD + HEADER_ROW + rows + SHEET_TAIL))
    assert error.code == "too_many_cells" and "1,000" in error.detail


def test_eight_million_cells_without_addresses_are_refused_at_the_bound():
    assert refused(forged(SHEET_HEAD + HEADER_ROW + b"<row>" + b"<c/>" * 8_000_000 + b"</row>" + SHEET_TAIL))[0].code == "too_many_columns"
    rows = b"".join([b"<row>" + b"<c/>" * 100 + b"</row>"] * 80_000)  # 8 million cells, 100 a row
    assert refused(forged(SHEET_HEAD + HEADER_ROW + rows + SHEET_TAIL))[0].code == "too_many_cells"


@pytest.mark.parametrize("number", [b"200000000", b"99999999999999999999"])
def test_a_row_numbered_far_beyond_the_bound_is_refused_without_its_blank_rows(number):
    error, _peak = refused(forged(SHEET_HEAD + HEADER_ROW + b'<row r="' + number + b'"/>' + SHEET_TAIL))
    assert error.code == "too_many_rows"
    cell = forged(SHEET_HEAD + HEADER_ROW + b'<row><c r="A' + number + b'" t="inlineStr"><is><t>x</t></is></c></row>' + SHEET_TAIL)
    assert refused(cell)[0].code == "too_many_rows"


@pytest.mark.parametrize("blank", [b"<row/>", b'<row r="2"/>'])
def test_millions_of_blank_rows_are_refused_at_the_bound(blank):
    assert refused(forged(SHEET_HEAD + HEADER_ROW + blank * 5_000_000 + SHEET_TAIL))[0].code == "too_many_rows"


def test_a_csv_wider_than_the_columns_bound_is_refused():
    wide = b";".join([b"x"] * 1_000_000) + b"\r\n" + b"Rossi;Anna\r\n" * 2000
    error, _peak = refused(wide, "a.csv")
    assert error.code == "too_many_columns" and str(sheets.MAX_COLUMNS) in error.detail


@pytest.mark.parametrize(
    ("data", "line", "encoding"),
    [
        (b"\xef\xbb\xbfCognome;Nome\r\nRoss\xffi;Anna\r\n", 2, "UTF-8"),
        (b"Cognome;Nome\r\nRoss\xe0;Anna\r\nVerdi;Ugo\r\nBian\x81chi;Ada\r\n", 4, "Windows-1252"),  # 0x81 is no character in it
        (b"\xff\xfe" + "Cognome;Nome\r\n".encode("utf-16-le") + b"\x00\xdc\x41\x00", 2, "UTF-16"),  # a lone surrogate
    ],
)
def test_bytes_that_are_no_text_are_refused_with_their_line_never_replaced(data, line, encoding):
    error, _peak = refused(data, "a.csv")
    assert error.code == "bad_encoding" and f"Line {line} " in error.detail and encoding in error.detail


@pytest.mark.parametrize(
    ("cell", "end"), [(b'<c t="inlineStr" r="XFD2">', b"</c>"), (b'<c r="xfd2" t="inlineStr">', b"</c>"), (b"<x:c r='$XFD$2' t=\"inlineStr\">", b"</x:c>")]
)
def test_a_cells_address_is_read_wherever_and_however_it_is_written(cell, end):
    xml = SHEET_HEAD + HEADER_ROW + b"<row>" + cell + b"<is><t>x</t></is>" + end + b"</row>" + SHEET_TAIL
    assert refused(forged(xml))[0].code == "too_many_columns"
