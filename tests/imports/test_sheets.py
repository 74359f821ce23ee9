"""Reading a room's sheet (``tdmanager.sheets``): the encodings and separators of Excel's CSV,
the row numbers a person sees, and hostile workbooks refused at once, in bounded time and memory."""

import datetime as dt
import io
import re
import time
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
