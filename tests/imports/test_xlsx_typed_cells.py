"""Every XLSX export, asked in Italian through the API, holds typed cells: a date is a date cell
shown as Italians write dates, a place, a blind or a field size a number cell, an amount a number
shown with its cents, a percentage the number of the chart (30, 14.5); a text that looks like a
formula stays text; and the product's import reads each file back as it went out."""

import datetime as dt
import io
from decimal import Decimal

import openpyxl
import pytest
from django import forms
from django.conf import settings
from django.utils import translation

from payouts import services as payouts
from payouts.models import PayoutTemplate
from payouts.services import save_payout_template
from seating import services as seating
from tdmanager import sheets
from tests.conftest import client_for
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.formats.services import series as series_service
from tournaments.imports import services as import_services
from tournaments.models import Person, Tournament
from tournaments.setup import lifecycle
from tournaments.structures import services as structures

pytestmark = pytest.mark.django_db


def exported(director, address: str):
    """The XLSX at ``address``, asked for in Italian, as openpyxl reads it: its rows of cells."""
    r = client_for(director).get(address, HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 200, r.content[:300]
    return r.content, [list(row) for row in openpyxl.load_workbook(io.BytesIO(r.content)).active.iter_rows()]


def is_number(cell, value) -> bool:
    return cell.data_type == "n" and not cell.is_date and cell.value == value


def test_the_people_xlsx_has_date_cells_in_italian_text_phones_and_a_formula_kept_as_text(director, actor, make_person):
    anna = make_person("Anna", "Rossi", phone="0039 333 1112222", notes="=1+2")
    Person.objects.filter(pk=anna.pk).update(birth_date=dt.date(1981, 5, 17), privacy_consent=dt.date(2026, 3, 1))
    data, rows = exported(director, "/api/v1/exports/people/?format_type=xlsx")
    header = [c.value for c in rows[0]]
    assert header[:4] == ["Cognome", "Nome", "Nickname", "Telefono"]
    cells = dict(zip(header, rows[1], strict=True))
    born = cells["Data di nascita"]
    assert born.is_date and born.value == dt.datetime(1981, 5, 17) and born.number_format == "dd/mm/yyyy"
    consent = next(c for name, c in cells.items() if "privacy" in name.lower())
    assert consent.is_date and consent.value == dt.datetime(2026, 3, 1)
    assert cells["Telefono"].data_type == "s" and cells["Telefono"].value == "0039 333 1112222"  # a phone keeps its zeros
    assert cells["Note"].data_type == "s" and cells["Note"].value == "=1+2" and cells["Note"].quotePrefix  # never run
    Person.objects.all().delete()
    assert import_services.run_import("people", data, "persone.xlsx", actor=actor).counts()["created"] == 1
    assert Person.objects.get().birth_date == dt.date(1981, 5, 17)


def test_the_payout_xlsx_has_places_percentages_and_field_sizes_as_numbers(director, actor):
    written = [
        {"from": 2, "to": 9, "percents": ["100"]},
        {"from": 10, "to": None, "percents": ["33.333", "20", "14.5", "10.667", "7.5", "7.5", "6.5"]},
    ]
    t = save_payout_template("Festival", [], bands=written, actor=actor)
    data, rows = exported(director, f"/api/v1/exports/payouts/?format_type=xlsx&template={t.pk}")
    assert [c.value for c in rows[0]] == ["Iscritti da", "Iscritti a", "Posizione", "Percentuale"]
    first, second = rows[1], rows[2]
    assert is_number(first[0], 2) and is_number(first[1], 9) and is_number(first[2], 1) and is_number(first[3], 100)
    assert is_number(second[0], 10) and second[1].value is None and is_number(second[3], 33.333)
    assert is_number(rows[4][3], 14.5)
    assert rows[6][2].data_type == "s" and rows[6][2].value == "5-6" and is_number(rows[6][3], 7.5)  # places paid alike
    PayoutTemplate.objects.all().delete()
    import_services.run_import("payouts", data, "Festival.xlsx", actor=actor)
    assert PayoutTemplate.objects.get(name="Festival").bands == written


def test_the_structure_xlsx_has_levels_blinds_and_minutes_as_numbers(director, actor):
    items = [
        {"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "ante": 25, "minutes": 20},
        {"kind": "BREAK", "minutes": 15},
        {"kind": "LEVEL", "small_blind": 200, "big_blind": 400, "ante": 50, "minutes": 20},
    ]
    st = structures.save_structure(name="Domenica", items=items, actor=actor)
    _data, rows = exported(director, f"/api/v1/exports/structure/?format_type=xlsx&structure={st.pk}")
    level, pause, second = rows[1], rows[2], rows[3]
    assert is_number(level[0], 1) and is_number(level[2], 100) and is_number(level[3], 200) and is_number(level[4], 25)
    assert pause[0].value == "Pausa" and pause[2].value is None
    assert is_number(second[0], 2) and is_number(second[3], 400)
    assert any(is_number(c, 20) for c in level[5:])  # the minutes


def test_the_league_xlsx_has_the_date_the_place_the_prize_and_the_points_typed(director, actor):
    league = series_service.create_series(
        name="Lega", scoring="TABLE", points_table=[Decimal(25), Decimal(15)], participation_points=Decimal(2), best_of=2, cycle_length=None, actor=actor
    )
    sheet = "Data;Torneo;Cognome;Nome;Posizione;Premio;Punti\r\n12/09/2026;Tappa 1;Bianchi;Nicolò;1;1.250,50;25\r\n".encode("cp1252")
    import_services.run_import("league", sheet, "lega.csv", actor=actor, options={"league": str(league.pk)})
    data, rows = exported(director, f"/api/v1/exports/league/?format_type=xlsx&league={league.pk}")
    cells = dict(zip([c.value for c in rows[0]], rows[1], strict=True))
    assert cells["Data"].is_date and cells["Data"].value == dt.datetime(2026, 9, 12) and cells["Data"].number_format == "dd/mm/yyyy"
    assert is_number(cells["Posizione"], 1)
    assert is_number(cells["Premio"], 1250.5) and cells["Premio"].number_format == "#,##0.00"  # the cents shown: 1.250,50
    assert is_number(cells["Punti"], 25)
    p = import_services.preview("league", data, "lega.xlsx", options={"league": league.pk})
    assert p.counts()["unchanged"] == 1


def test_the_results_xlsx_has_places_and_prizes_as_numbers(director, actor, make_tournament, make_person, cashier_actor):
    t = make_tournament(buy_in=Decimal("50"), fee=Decimal("10"))
    e = [cashier.register(t, make_person(n, "Rossi"), method="CASH", actor=cashier_actor).entry for n in ("Anna", "Luca")]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    seating.record_bust(t, [{"entry": e[0].pk, "eliminators": [e[1].pk]}], actor=actor)
    payouts.lock_payout_table(Tournament.objects.get(pk=t.pk), actor=Actor(director))
    lifecycle.finish(Tournament.objects.get(pk=t.pk), actor=actor)
    _data, rows = exported(director, f"/api/v1/tournaments/{t.pk}/results/?format_type=xlsx")
    assert [c.value for c in rows[0]][:3] == ["Posizione", "Giocatore", "Premio"]
    winner = rows[1]
    assert is_number(winner[0], 1) and is_number(winner[2], 100) and winner[2].number_format == "#,##0.00"


def test_the_refused_rows_xlsx_keeps_a_date_cell_a_date(director):
    book = openpyxl.Workbook()
    book.active.append(["Cognome", "Nome", "Email", "Data di nascita"])
    book.active.append(["Verdi", "Sara", "non-una-email", dt.datetime(1990, 2, 28)])
    out = io.BytesIO()
    book.save(out)
    from django.utils import translation

    from tournaments.imports import rules as import_rules

    with translation.override("it"):
        p = import_services.preview("people", out.getvalue(), "soci.xlsx")
        refused = import_rules.refused_sheet(p, "xlsx")
    rows = list(openpyxl.load_workbook(io.BytesIO(refused)).active.iter_rows())
    assert is_number(rows[1][0], 2)  # the row number
    born = rows[1][5]
    assert born.is_date and born.value == dt.datetime(1990, 2, 28) and born.number_format == "dd/mm/yyyy"


#: how each language's people write a day, as its export's date cells show it (English: ISO,
#: as the product's English sheets always wrote it)
DAY_ORDER = {"en": "yyyy-mm-dd", "it": "dd/mm/yyyy", "de": "dd.mm.yyyy", "es": "dd/mm/yyyy", "fr": "dd/mm/yyyy"}


def shown(number_format: str, day: dt.date) -> str:
    """What a cell of that number format shows for ``day``, as a spreadsheet writes it."""
    return number_format.replace("yyyy", f"{day.year:04}").replace("mm", f"{day.month:02}").replace("dd", f"{day.day:02}")


@pytest.mark.parametrize("code", [code for code, _name in settings.LANGUAGES])
def test_each_language_gets_its_own_day_and_month_order_in_date_cells(code):
    """A date cell shows the day as that language's people write it and type it back: the text
    it shows is read by a date field in that language as the same day (12 November, not 11
    December), whatever the language, one added tomorrow as well."""
    day, at = dt.date(2026, 11, 12), dt.datetime(2026, 11, 12, 21, 5)
    with translation.override(code):
        data = sheets.write("xlsx", ["Day", "At"], [[day, at]])
        cells = list(openpyxl.load_workbook(io.BytesIO(data)).active.iter_rows())[1]
        assert cells[0].is_date and cells[1].is_date
        assert cells[1].number_format == f"{cells[0].number_format} hh:mm"
        assert forms.DateField().clean(shown(cells[0].number_format, day)) == day
    if code in DAY_ORDER:
        assert cells[0].number_format == DAY_ORDER[code]
