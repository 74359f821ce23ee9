"""A blind structure brought in from a room's chart: Excel's Italian CSV (semicolons,
Windows-1252), comma CSV in English, XLSX; breaks as a kind or a level cell saying Pausa; each
refusal with its row; all or nothing; twice changes nothing; the round trip; a formula stays
text; the management commands."""

import io

import openpyxl
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tdmanager.errors import DomainError
from tournaments.eventlog.actions import Action
from tournaments.imports import rules as import_rules
from tournaments.imports import services as import_services
from tournaments.models import BlindStructure, Tournament, TournamentEvent
from tournaments.structures import services as structures

pytestmark = pytest.mark.django_db


def italian_csv(*lines: str) -> bytes:
    header = "Livello;Piccolo buio;Grande buio;Ante;Minuti;Cambio fiches\r\n"
    return (header + "".join(line + "\r\n" for line in lines)).encode("cp1252")


def xlsx(rows) -> bytes:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def levels(name: str) -> list[tuple]:
    """(kind, small blind, big blind, ante, minutes) of each stored row."""
    st = BlindStructure.objects.get(name=name)
    return [(i.kind, i.small_blind, i.big_blind, i.ante, i.minutes) for i in st.items.order_by("position")]


SANREMO = italian_csv(
    "1;100;200;0;20;",
    "2;200;400;50;20;",
    "Pausa;;;;15;Via le fiches da 25 (caffè)",
    "3;300;600;75;20 min;",
    "4;400;800;100;20;",
)


def test_an_italian_excel_csv_in_windows_1252_makes_a_structure_named_as_its_file(actor):
    p = import_services.preview("structure", SANREMO, "Deep Sanremo.csv")
    assert p.counts()["created"] == 5 and p.counts()["refused"] == 0
    import_services.run_import("structure", SANREMO, "Deep Sanremo.csv", actor=actor)
    assert levels("Deep Sanremo") == [
        ("LEVEL", 100, 200, 0, 20),
        ("LEVEL", 200, 400, 50, 20),
        ("BREAK", 0, 0, 0, 15),
        ("LEVEL", 300, 600, 75, 20),
        ("LEVEL", 400, 800, 100, 20),
    ]
    pause = BlindStructure.objects.get(name="Deep Sanremo").items.get(position=2)
    assert pause.color_up == "Via le fiches da 25 (caffè)"  # "è" read from Windows-1252


def test_a_comma_csv_in_english_with_a_kind_column_and_every_field_of_a_level():
    data = (
        b"Level,Kind,SB,BB,Ante,BBA,Minutes,Game,Add-on,Chips removed,Colour-up\r\n"
        b"1,level,25,50,,no,15,NLHE,,,\r\n"
        b",break,,,,,10,,yes,25 ; 5,race off the 25s\r\n"
        b"2,level,100,200,200,yes,15,PLO,,,\r\n"
    )
    p = import_services.preview("structure", data, "turbo.csv", options={"name": "Turbo Thursday"})
    assert [r.status for r in p.rows] == ["created"] * 3
    level1, pause, level2 = (r.values for r in p.rows)
    assert (level1["small_blind"], level1["big_blind"], level1["ante"], level1["game"], level1["big_blind_ante"]) == (25, 50, 0, "NLHE", False)
    assert (pause["kind"], pause["minutes"], pause["add_on"], pause["removes_denominations"], pause["color_up"]) == (
        "BREAK",
        10,
        True,
        [5, 25],
        "race off the 25s",
    )
    assert (level2["ante"], level2["big_blind_ante"], level2["game"]) == (200, True, "PLO")


def test_an_xlsx_with_number_cells_a_break_row_and_a_level_as_a_clock_program_writes_it(actor):
    data = xlsx(
        [["LIVELLO", "SB", "BB", "Ante", "Durata"], ["Livello 1", 500, 1000, 1000, "30:00"], ["Break", None, None, None, 10], [2, 1000, 2000, 2000, 30]]
    )
    import_services.run_import("structure", data, "whatever.xlsx", actor=actor, options={"name": "High Roller"})
    assert levels("High Roller") == [("LEVEL", 500, 1000, 1000, 30), ("BREAK", 0, 0, 0, 10), ("LEVEL", 1000, 2000, 2000, 30)]


def test_a_chart_with_one_column_for_both_blinds():
    data = "Livello;Bui;Ante;Minuti\r\n1;100/200;;20\r\n2;1.000 - 2.000;2.000;20\r\n3;tanti;;20\r\n".encode("cp1252")
    p = import_services.preview("structure", data, "bui.csv")
    assert [(r.values.get("small_blind"), r.values.get("big_blind"), r.values.get("ante")) for r in p.rows[:2]] == [(100, 200, 0), (1000, 2000, 2000)]
    assert p.rows[2].status == "refused" and "100/200" in p.rows[2].reason


REFUSALS = [
    # (rows after the header "Livello;Piccolo buio;Grande buio;Ante;Minuti;Cambio fiches", refused rows, words of the reason)
    (["1;100;200;0;0;", "2;200;400;0;20;"], [2], "Minutes must be at least 1"),
    (["1;300;200;0;20;", "2;200;400;0;20;"], [2], "small blind ≤ big blind"),
    (["1;100;;0;20;", "2;200;400;0;20;"], [2], "Big blind is missing"),
    (["uno;100;200;0;20;", "2;200;400;0;20;"], [2], "neither a level number nor a break"),
    (["1;100;200;0;venti;", "2;200;400;0;20;"], [2], "not a whole number"),
    (["1;100;200;0;20;", "2;75;150;0;20;", "3;300;600;0;20;"], [3], "blinds only go up"),
    (["1;100;200;0;20;", "Pausa;;;;10;"], [3], "ends with a level"),
    (["Pausa;;;;10;", "Break;;;;10;"], [2, 3], "at least one level"),
]


@pytest.mark.parametrize("rows, refused, words", REFUSALS)
def test_each_refusal_names_its_row_and_nothing_is_written(actor, rows, refused, words):
    data = italian_csv(*rows)
    p = import_services.preview("structure", data, "Refused.csv")
    assert [r.line for r in p.refused()] == refused
    assert all(words in r.reason for r in p.refused()), [r.reason for r in p.refused()]
    with pytest.raises(DomainError) as exc:
        import_services.run_import("structure", data, "Refused.csv", actor=actor)
    assert exc.value.code == "rows_refused"
    assert not BlindStructure.objects.filter(name="Refused").exists()


def test_a_kind_column_that_is_neither_level_nor_break_and_chips_removed_at_a_level_are_refused():
    data = b"Level,Kind,SB,BB,Minutes,Chips removed,Game\r\n1,livello,100,200,20,,\r\n2,bonus,200,400,20,,\r\n3,level,300,600,20,25,\r\n4,level,400,800,20,,Briscola\r\n"
    p = import_services.preview("structure", data, "x.csv")
    reasons = {r.line: r.reason for r in p.refused()}
    assert set(reasons) == {3, 4, 5}
    assert "neither a level nor a break" in reasons[3] and "removed at a break" in reasons[4] and "configured games" in reasons[5]


def test_a_refused_row_in_the_middle_leaves_the_stored_structure_as_it_was(actor):
    import_services.run_import("structure", SANREMO, "Deep Sanremo.csv", actor=actor)
    before = levels("Deep Sanremo")
    changed = italian_csv("1;100;200;0;25;", "2;200;400;50;25;", "3;300;100;75;25;", "4;400;800;100;25;")
    with pytest.raises(DomainError):
        import_services.run_import("structure", changed, "Deep Sanremo.csv", actor=actor)
    assert levels("Deep Sanremo") == before


def test_the_same_file_twice_changes_nothing_and_a_changed_level_shows_what_changes(actor):
    import_services.run_import("structure", SANREMO, "Deep Sanremo.csv", actor=actor)
    saved = TournamentEvent.objects.filter(action=Action.TOURNAMENTS_STRUCTURE_SAVED).count()
    p = import_services.preview("structure", SANREMO, "Deep Sanremo.csv")
    assert p.counts() == {"created": 0, "updated": 0, "unchanged": 5, "duplicate": 0, "refused": 0}
    import_services.run_import("structure", SANREMO, "Deep Sanremo.csv", actor=actor)
    assert TournamentEvent.objects.filter(action=Action.TOURNAMENTS_STRUCTURE_SAVED).count() == saved
    assert BlindStructure.objects.filter(name="Deep Sanremo").count() == 1

    changed = italian_csv("1;100;200;0;20;", "2;200;500;50;20;", "Pausa;;;;15;Via le fiches da 25 (caffè)", "3;300;600;75;20;")
    p = import_services.preview("structure", changed, "Deep Sanremo.csv")
    assert [r.status for r in p.rows] == ["unchanged", "updated", "unchanged", "updated"]
    assert p.rows[1].changes == {"big_blind": (400, 500)}
    assert p.rows[3].changes == {"rows": (5, 4)}  # the stored fifth level goes
    import_services.run_import("structure", changed, "Deep Sanremo.csv", actor=actor)
    assert levels("Deep Sanremo") == [("LEVEL", 100, 200, 0, 20), ("LEVEL", 200, 500, 50, 20), ("BREAK", 0, 0, 0, 15), ("LEVEL", 300, 600, 75, 20)]


def test_a_structure_a_started_tournament_plays_is_not_replaced(actor, make_tournament):
    import_services.run_import("structure", SANREMO, "Deep Sanremo.csv", actor=actor)
    make_tournament(structure=BlindStructure.objects.get(name="Deep Sanremo"), status=Tournament.RUNNING)
    p = import_services.preview("structure", italian_csv("1;100;200;0;30;"), "Deep Sanremo.csv")
    assert p.counts()["refused"] == 1 and "has started" in p.rows[0].reason


WRITTEN = [
    {"kind": "LEVEL", "small_blind": 100, "big_blind": 100, "ante": 0, "minutes": 20},
    {"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "ante": 200, "big_blind_ante": True, "minutes": 20, "game": "PLO"},
    {"kind": "BREAK", "minutes": 15, "color_up": '=HYPERLINK("http://x")', "add_on": True, "removes_denominations": [25, 100]},
    {"kind": "LEVEL", "small_blind": 1500, "big_blind": 3000, "ante": 3000, "big_blind_ante": True, "minutes": 25},
]
EXPECTED = [
    ("LEVEL", 100, 100, 0, False, 20, "", "", False, []),
    ("LEVEL", 100, 200, 200, True, 20, "", "PLO", False, []),
    ("BREAK", 0, 0, 0, False, 15, '=HYPERLINK("http://x")', "", True, [25, 100]),
    ("LEVEL", 1500, 3000, 3000, True, 25, "", "", False, []),
]


def every_field(name):
    st = BlindStructure.objects.get(name=name)
    return [
        (i.kind, i.small_blind, i.big_blind, i.ante, i.big_blind_ante, i.minutes, i.color_up, i.game, i.add_on, i.removes_denominations)
        for i in st.items.order_by("position")
    ]


@pytest.mark.parametrize("fmt, language", [("csv", "it"), ("csv", "en"), ("xlsx", "it")])
def test_the_round_trip_gives_the_same_structure_in_an_empty_database(actor, fmt, language):
    from django.utils import translation

    st = structures.save_structure(name="Mixed Sunday", items=WRITTEN, actor=actor)
    with translation.override(language):
        data, filename = import_rules.export_file("structure", fmt, {"structure": str(st.pk)})
    assert filename == f"Mixed Sunday.{fmt}"
    if fmt == "csv":
        assert b"'=HYPERLINK" in data  # no spreadsheet runs it
    BlindStructure.objects.all().delete()
    with translation.override(language):
        import_services.run_import("structure", data, filename, actor=actor)
    assert every_field("Mixed Sunday") == EXPECTED


def test_a_formula_cell_of_an_xlsx_is_stored_as_its_text(actor):
    data = xlsx(
        [
            ["Level", "SB", "BB", "Minutes", "Colour-up"],
            [1, 100, 200, 20, "=1+1"],
            ["Pausa", None, None, 10, '=HYPERLINK("http://x","go")'],
            [2, 200, 400, 20, None],
        ]
    )
    import_services.run_import("structure", data, "Formula.xlsx", actor=actor)
    st = BlindStructure.objects.get(name="Formula")
    assert [i.color_up for i in st.items.order_by("position")] == ["=1+1", '=HYPERLINK("http://x","go")', ""]


def test_the_commands_dry_run_import_and_export_with_their_exit_status(actor, tmp_path, capsys):
    good = tmp_path / "Deep Sanremo.csv"
    good.write_bytes(SANREMO)
    call_command("import_structure", str(good), "--dry-run")
    assert "to create: 5" in capsys.readouterr().out and not BlindStructure.objects.filter(name="Deep Sanremo").exists()
    bad = tmp_path / "bad.csv"
    bad.write_bytes(italian_csv("1;100;200;0;20;", "2;400;200;0;20;", "3;300;600;0;20;"))
    with pytest.raises(SystemExit) as exc:
        call_command("import_structure", str(bad), "--dry-run")
    assert exc.value.code == 1 and "row 3:" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        call_command("import_structure", str(bad))
    assert exc.value.code == 1 and not BlindStructure.objects.filter(name="bad").exists()
    call_command("import_structure", str(good), "--option", "name=Sanremo")
    assert levels("Sanremo")[0] == ("LEVEL", 100, 200, 0, 20)
    call_command("import_structure", str(good), "--option", "name=Sanremo")  # already in: a success
    assert "unchanged: 5" in capsys.readouterr().out
    out = tmp_path / "out.xlsx"
    call_command("export_structure", str(out), "--option", "structure=Sanremo")
    sheet = openpyxl.load_workbook(out).active
    assert [c.value for c in sheet[1]][:5] == ["Level", "Kind", "Small blind", "Big blind", "Ante"]
    assert [c.value for c in sheet[4]][:2] == ["Break", "break"]
    with pytest.raises(CommandError):
        call_command("export_structure", str(tmp_path / "none.csv"))  # which structure?


def test_the_structures_page_leads_to_the_sheet_and_the_import_page_brings_it_in_italian(director, structure):
    from django.test import Client

    page = Client()
    page.force_login(director)
    html = page.get("/structures/").content.decode()
    assert 'href="/imports/structure/"' in html and f'href="/exports/structure.xlsx?structure={structure.pk}"' in html
    sheet = page.get(f"/exports/structure.xlsx?structure={structure.pk}")
    assert sheet.status_code == 200 and openpyxl.load_workbook(io.BytesIO(sheet.content)).active["A1"].value == "Level"
    upload = io.BytesIO(SANREMO)
    upload.name = "Deep Sanremo.csv"
    r = page.post("/imports/structure/", {"file": upload, "structure": "", "name": ""}, HTTP_ACCEPT_LANGUAGE="it")
    preview = r["Location"]
    html = page.get(preview, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Via le fiches da 25 (caffè)" in html and "Da creare" in html
    page.post(preview, {"op": "import"}, HTTP_ACCEPT_LANGUAGE="it")
    assert levels("Deep Sanremo")[2] == ("BREAK", 0, 0, 0, 15)


#: hostile structure files, each refused with the limit it passes named, by both ways a structure
#: file comes in (within the structure API's 1 MB body: a million columns, 300,000 rows, a byte that
#: is no text)
HOSTILE = [
    (b"minutes" + b"," * 999_999 + b"\r\n20\r\n", "too_many_columns", "The sheet has more than 200 columns."),
    (b"minutes\n" + b"9\n" * 300_000, "too_many_rows", "The file has more than 100,000 rows."),
    (
        b"kind,small_blind,big_blind,minutes\r\nLEVEL,100,200,20\r\nLEVEL,200,400,2\x810\r\n",
        "bad_encoding",
        "Line 3 holds bytes that are not Windows-1252 text",
    ),
]


@pytest.mark.parametrize(("data", "code", "words"), HOSTILE, ids=["columns", "rows", "bytes"])
def test_a_hostile_structure_csv_is_refused_by_the_api_with_its_limit_named(director, data, code, words):
    from tests.conftest import client_for

    upload = io.BytesIO(data)
    upload.name = "levels.csv"
    r = client_for(director).post("/api/v1/structures/import/", {"file": upload}, format="multipart")
    assert r.status_code == 400 and r.json()["code"] == code and words in r.json()["detail"], r.content[:300]
    assert not BlindStructure.objects.filter(name="levels").exists()


@pytest.mark.parametrize(("data", "code", "words"), HOSTILE, ids=["columns", "rows", "bytes"])
def test_a_hostile_structure_sheet_is_refused_on_the_import_page_with_its_limit_named(director, data, code, words):
    from django.test import Client

    page = Client()
    page.force_login(director)
    upload = io.BytesIO(data)
    upload.name = "levels.csv"
    r = page.post("/imports/structure/", {"file": upload, "structure": "", "name": ""})
    r = page.get(r["Location"], follow=True)
    assert r.redirect_chain[-1][0] == "/imports/structure/" and words in r.content.decode()
    assert not BlindStructure.objects.filter(name="levels").exists()


def test_a_structure_csv_of_the_api_is_read_as_a_rooms_sheet(director):
    """The API's CSV is read by the sheets' reader: Excel's Italian CSV (semicolons, Windows-1252)
    and a formula our export marked as text come back as they were."""
    from tests.conftest import client_for

    data = "kind;small_blind;big_blind;minutes;color_up\r\nLEVEL;100;200;20;'=caffè\r\n".encode("cp1252")
    upload = io.BytesIO(data)
    upload.name = "levels.csv"
    r = client_for(director).post("/api/v1/structures/import/", {"file": upload}, format="multipart")
    assert r.status_code == 201, r.content
    assert [(i["big_blind"], i["color_up"]) for i in r.json()["items"]] == [(200, "=caffè")]


def test_a_structure_csv_of_the_api_waits_for_the_sheets_turn(director):
    """Read as a sheet, one at a time in a process as every sheet is; a JSON file is no sheet."""
    from tdmanager import bodylimits
    from tests.conftest import client_for

    def upload(data: bytes, name: str) -> io.BytesIO:
        f = io.BytesIO(data)
        f.name = name
        return f

    api = client_for(director)
    with bodylimits.file_turn():  # another sheet is being read in this process
        r = api.post("/api/v1/structures/import/", {"file": upload(b"minutes,small_blind,big_blind\r\n20,1,2\r\n", "a.csv")}, format="multipart")
        assert r.status_code == 503 and r.json()["code"] == "busy" and "Other sheets are being read" in r.json()["detail"]
        r = api.post("/api/v1/structures/import/", {"file": upload(b'[{"minutes": 20, "small_blind": 1, "big_blind": 2}]', "b.json")}, format="multipart")
        assert r.status_code == 201
    r = api.post("/api/v1/structures/import/", {"file": upload(b"minutes,small_blind,big_blind\r\n20,1,2\r\n", "a.csv")}, format="multipart")
    assert r.status_code == 201 and r.json()["name"] == "a"


def test_an_exported_file_keeps_the_letters_of_its_name(director):
    """A structure named "Venerdì Deepstack" is saved as "Venerdì Deepstack.csv" (not
    "Venerd__Deepstack.csv"), from the page and from the API; a slash or a quote becomes "_"."""
    from urllib.parse import quote

    from django.test import Client

    from tests.conftest import client_for
    from tournaments.models import BlindStructure

    st = BlindStructure.objects.create(name="Venerdì Deepstack")
    page = Client()
    page.force_login(director)
    r = page.get(f"/exports/structure.csv?structure={st.pk}")
    assert r.status_code == 200
    assert r["Content-Disposition"] == "attachment; filename*=utf-8''" + quote("Venerdì Deepstack.csv")
    r = client_for(director).get(f"/api/v1/exports/structure/?format_type=xlsx&structure={st.pk}")
    assert r.status_code == 200, r.content[:200]
    assert r["Content-Disposition"] == "attachment; filename*=utf-8''" + quote("Venerdì Deepstack.xlsx")
    st.name = 'a/b "c"'
    st.save()
    r = page.get(f"/exports/structure.csv?structure={st.pk}")
    assert r["Content-Disposition"] == 'attachment; filename="a_b _c_.csv"'
