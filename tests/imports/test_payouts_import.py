"""A payout table by field size brought in from a room's paper chart: Excel's Italian CSV
(semicolons, Windows-1252), comma CSV in English, XLSX (percent-formatted cells, merged band
cells); place ranges; each refusal; all or nothing; twice changes nothing; the round trip; a
formula is not run; the band a tournament's field picks; the commands; the page."""

import io
from decimal import Decimal

import openpyxl
import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from payouts import selectors as sel
from payouts.models import PayoutTemplate
from payouts.services import apply_template, save_payout_template
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.imports import rules as import_rules
from tournaments.imports import services as import_services

pytestmark = pytest.mark.django_db


def italian_csv(*lines: str) -> bytes:
    return ("Iscritti da;Iscritti a;Posto;Percentuale\r\n" + "".join(line + "\r\n" for line in lines)).encode("cp1252")


def xlsx(rows, merge=(), percent_cells=False) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    for cells in merge:
        sheet.merge_cells(cells)
    if percent_cells:
        for (cell,) in sheet.iter_rows(min_row=2, min_col=4, max_col=4):
            cell.number_format = "0.0%"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def bands(name: str) -> list:
    return PayoutTemplate.objects.get(name=name).bands


SANREMO = italian_csv(
    "2;10;1°;65",
    ";;2°;35",
    "11;30;1;50",
    ";;2;30",
    ";;3;20",
    "31;;1;40,0%",
    ";;2;25",
    ";;3;15",
    ";;4-5;10",
)
SANREMO_BANDS = [
    {"from": 2, "to": 10, "percents": ["65", "35"]},
    {"from": 11, "to": 30, "percents": ["50", "30", "20"]},
    {"from": 31, "to": None, "percents": ["40", "25", "15", "10", "10"]},
]


def test_an_italian_chart_in_windows_1252_with_bands_written_once_and_a_range_of_places(actor):
    p = import_services.preview("payouts", SANREMO, "Sala Sanremo.csv")
    assert p.counts()["created"] == 9 and p.counts()["refused"] == 0
    import_services.run_import("payouts", SANREMO, "Sala Sanremo.csv", actor=actor)
    assert bands("Sala Sanremo") == SANREMO_BANDS


def test_a_comma_csv_in_english_with_a_percent_sign_header():
    data = b"Entries from,Entries to,Place,%\r\n1,9,1,100\r\n10,,1st,70\r\n,,2nd,30\r\n"
    p = import_services.preview("payouts", data, "club.csv", options={"name": "Club"})
    assert p.mapping == ["entries_from", "entries_to", "place", "percent"]
    assert [(r.values["band"], r.values["places"], r.values["percent"]) for r in p.rows] == [
        ((1, 9), [1], Decimal("100")),
        ((10, None), [1], Decimal("70")),
        ((10, None), [2], Decimal("30")),
    ]


def test_an_xlsx_with_merged_band_cells_and_cells_formatted_as_percentages(actor):
    data = xlsx(
        [
            ["Iscritti da", "Iscritti a", "Posto", "Percentuale"],
            [5, 20, 1, 0.5],
            [None, None, 2, 0.3],
            [None, None, 3, 0.2],
            [21, 50, 1, 0.45],
            [None, None, "2-3", 0.2],
            [None, None, 4, 0.15],
        ],
        merge=("A2:A4", "B2:B4", "A5:A7", "B5:B7"),
        percent_cells=True,
    )
    import_services.run_import("payouts", data, "Estate.xlsx", actor=actor)
    assert bands("Estate") == [{"from": 5, "to": 20, "percents": ["50", "30", "20"]}, {"from": 21, "to": 50, "percents": ["45", "20", "20", "15"]}]


def test_cells_formatted_as_percentages_that_miss_100_are_refused_as_percentages_not_fractions(actor):
    """0.35 + 0.3 + 0.2 + 0.17 in cells shown as 35%, 30%…: the preview shows 35 and the refusal
    says 102, as the sheet shows them (never 0.35, never 1.02)."""
    data = xlsx([["Posto", "Percentuale"], [1, 0.35], [2, 0.3], [3, 0.2], [4, 0.17]], percent_cells=True)
    p = import_services.preview("payouts", data, "Pct.xlsx")
    assert [r.values["percent"] for r in p.rows] == [Decimal("35"), Decimal("30"), Decimal("20"), Decimal("17")]
    assert p.refused() and all("add up to 102, not 100" in r.reason for r in p.refused()), [r.reason for r in p.refused()]
    with translation.override("it"):
        p = import_services.preview("payouts", data, "Pct.xlsx")
    assert all("102" in r.reason and "1.02" not in r.reason and "1,02" not in r.reason for r in p.refused())


def test_a_sheet_without_field_sizes_is_one_list_for_any_field(actor):
    import_services.run_import("payouts", b"Place,Percent\r\n1,50\r\n2,30\r\n3,20\r\n", "Top 3.csv", actor=actor)
    template = PayoutTemplate.objects.get(name="Top 3")
    assert template.percents == ["50", "30", "20"] and template.bands == []


REFUSALS = [
    # (rows after "Iscritti da;Iscritti a;Posto;Percentuale", refused rows, words of the reason)
    (["2;10;1;60", ";;2;30", "11;20;1;50", ";;2;50"], [2, 3], "add up to 90, not 100"),
    (["2;10;1;40", ";;2;60"], [2, 3], "cannot get a larger percentage"),
    (["2;10;1;50", ";;2;50", "8;20;1;60", ";;2;40"], [4, 5], "overlap"),
    (["2;10;1;50", ";;1;50"], [2, 3], "written twice"),
    (["2;10;1;50", ";;3;50"], [2, 3], "Place 2 has no percentage"),
    (["2;10;1;40", ";;2-4;20"], [2, 3], "pays 4 places: more than its smallest field"),
    (["2;10;1;cento", ";;2;0"], [2, 3], "is not a percentage"),
    (["2;10;primo;100"], [2], "neither a place nor a range"),
    ([";;1;100", "2;10;1;100"], [2], "Entries from is missing"),
    (["10;2;1;100"], [2], "from the smaller to the larger"),
]


@pytest.mark.parametrize("rows, refused, words", REFUSALS)
def test_each_refusal_names_its_rows_and_nothing_is_written(actor, rows, refused, words):
    data = italian_csv(*rows)
    p = import_services.preview("payouts", data, "Refused.csv")
    assert [r.line for r in p.refused()] == refused
    assert any(words in r.reason for r in p.refused()), [r.reason for r in p.refused()]
    with pytest.raises(DomainError) as exc:
        import_services.run_import("payouts", data, "Refused.csv", actor=actor)
    assert exc.value.code == "rows_refused" and not PayoutTemplate.objects.filter(name="Refused").exists()


def test_a_refused_band_in_the_middle_leaves_the_stored_template_as_it_was(actor):
    import_services.run_import("payouts", SANREMO, "Sala Sanremo.csv", actor=actor)
    changed = italian_csv("2;10;1;70", ";;2;30", "11;30;1;50", ";;2;30", ";;3;30", "31;;1;100")
    with pytest.raises(DomainError):
        import_services.run_import("payouts", changed, "Sala Sanremo.csv", actor=actor)
    assert bands("Sala Sanremo") == SANREMO_BANDS


def test_the_same_chart_twice_changes_nothing_and_a_changed_place_shows_what_changes(actor):
    import_services.run_import("payouts", SANREMO, "Sala Sanremo.csv", actor=actor)
    p = import_services.preview("payouts", SANREMO, "Sala Sanremo.csv")
    assert p.counts() == {"created": 0, "updated": 0, "unchanged": 9, "duplicate": 0, "refused": 0}
    changed = italian_csv("2;10;1;60", ";;2;40", "11;30;1;50", ";;2;30", ";;3;20")
    p = import_services.preview("payouts", changed, "Sala Sanremo.csv")
    assert [r.status for r in p.rows] == ["updated", "updated", "unchanged", "unchanged", "unchanged"]
    assert p.rows[0].changes == {"percent": ("65", "60"), "bands": ("2–10, 11–30, 31+", "2–10, 11–30")}
    import_services.run_import("payouts", changed, "Sala Sanremo.csv", actor=actor)
    assert bands("Sala Sanremo") == [{"from": 2, "to": 10, "percents": ["60", "40"]}, {"from": 11, "to": 30, "percents": ["50", "30", "20"]}]


@pytest.mark.parametrize("fmt, language", [("csv", "it"), ("csv", "en"), ("xlsx", "it")])
def test_the_round_trip_gives_the_same_template_in_an_empty_database(actor, fmt, language):
    from django.utils import translation

    written = [
        {"from": 2, "to": 9, "percents": ["100"]},
        {"from": 10, "to": 27, "percents": ["50", "30", "20"]},
        {"from": 28, "to": None, "percents": ["33.333", "20", "14.5", "10.667", "7.5", "7.5", "6.5"]},
    ]
    t = save_payout_template("Festival", [], bands=written, actor=actor)
    with translation.override(language):
        data, filename = import_rules.export_file("payouts", fmt, {"template": str(t.pk)})
    PayoutTemplate.objects.all().delete()
    with translation.override(language):
        import_services.run_import("payouts", data, filename, actor=actor)
    assert bands("Festival") == written


def test_a_formula_in_a_percentage_cell_is_not_run(actor):
    data = xlsx([["Place", "Percent"], [1, "=100-40"], [2, 40]])
    p = import_services.preview("payouts", data, "f.xlsx")
    assert p.rows[0].status == "refused" and "=100-40" in p.rows[0].reason


def test_the_band_of_the_tournaments_field_is_applied(actor, tournament, make_person, cashier_actor):
    template = save_payout_template(
        "Bands", [], bands=[{"from": 2, "to": 5, "percents": ["100"]}, {"from": 6, "to": None, "percents": ["70", "30"]}], actor=actor
    )
    for _ in range(5):
        cashier.register(tournament, make_person(), method="CARD", actor=cashier_actor)
    apply_template(tournament, template, actor=actor)
    assert [p["amount"] for p in sel.table_prizes(tournament)] == [Decimal("500.00")]
    cashier.register(tournament, make_person(), method="CARD", actor=cashier_actor)
    apply_template(tournament, template, actor=actor)
    assert [p["amount"] for p in sel.table_prizes(tournament)] == [Decimal("420.00"), Decimal("180.00")]
    lonely = save_payout_template("Big fields", [], bands=[{"from": 50, "to": None, "percents": ["100"]}], actor=actor)
    with pytest.raises(DomainError) as exc:
        apply_template(tournament, lonely, actor=actor)
    assert exc.value.code == "no_band" and "6 entries" in exc.value.message


def test_the_payouts_page_lists_each_templates_bands(actor, tournament, director):
    save_payout_template("Sala", [], bands=SANREMO_BANDS, actor=actor)
    save_payout_template("Top 2", ["65", "35"], actor=actor)
    web = Client()
    web.force_login(director)
    page = web.get(f"/tournaments/{tournament.pk}/payouts/").content.decode()
    assert "Sala (2–10: 2 places · 11–30: 3 places · 31+: 5 places)" in page
    assert "Top 2 (2 places)" in page


def test_the_commands_dry_run_import_and_export_with_their_exit_status(actor, tmp_path, capsys):
    good = tmp_path / "Sala Sanremo.csv"
    good.write_bytes(SANREMO)
    call_command("import_payouts", str(good), "--dry-run")
    assert "to create: 9" in capsys.readouterr().out and not PayoutTemplate.objects.exists()
    bad = tmp_path / "bad.csv"
    bad.write_bytes(italian_csv("2;10;1;60", ";;2;30"))
    with pytest.raises(SystemExit) as exc:
        call_command("import_payouts", str(bad))
    assert exc.value.code == 1 and "row 2:" in capsys.readouterr().out and not PayoutTemplate.objects.exists()
    call_command("import_payouts", str(good))
    call_command("import_payouts", str(good))  # already in: a success
    assert "unchanged: 9" in capsys.readouterr().out
    out = tmp_path / "out.csv"
    call_command("export_payouts", str(out), "--option", "template=Sala Sanremo", "--language", "it")
    assert out.read_bytes().decode("utf-8-sig").splitlines()[:3] == ["Iscritti da;Iscritti a;Posizione;Percentuale", "2;10;1;65", "2;10;2;35"]


def test_the_api_saves_and_lists_a_template_with_bands(api, director):
    body = {"name": "Api bands", "bands": [{"from": 2, "to": 9, "percents": ["100"]}, {"from": 10, "to": None, "percents": ["70", "30"]}]}
    r = api(director).post("/api/v1/payouts/templates/", body, format="json")
    assert r.status_code == 201 and r.data["bands"] == [{"from": 2, "to": 9, "percents": ["100"]}, {"from": 10, "to": None, "percents": ["70", "30"]}]
    body["bands"][1]["from"] = 9
    r = api(director).post("/api/v1/payouts/templates/", body, format="json")
    assert r.status_code == 400 and r.data["code"] == "bands_overlap" and "2–9" in r.data["detail"]
    listed = api(director).get("/api/v1/payouts/templates/").data
    assert [t["bands"][0]["to"] for t in listed if t["name"] == "Api bands"] == [9]


def test_the_import_page_brings_a_chart_in_italian_and_the_payouts_page_leads_to_it(director, tournament):
    page = Client()
    page.force_login(director)
    assert 'href="/imports/payouts/"' in page.get(f"/tournaments/{tournament.pk}/payouts/").content.decode()
    upload = io.BytesIO(SANREMO)
    upload.name = "Sala Sanremo.csv"
    r = page.post("/imports/payouts/", {"file": upload, "template": "", "name": ""}, HTTP_ACCEPT_LANGUAGE="it")
    preview = r["Location"]
    assert "Da creare" in page.get(preview, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    page.post(preview, {"op": "import"}, HTTP_ACCEPT_LANGUAGE="it")
    assert bands("Sala Sanremo") == SANREMO_BANDS
    html = page.get(f"/tournaments/{tournament.pk}/payouts/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Sala Sanremo (2–10: 2 posti · 11–30: 3 posti · 31+: 5 posti)" in html
