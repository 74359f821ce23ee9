"""An event's results out, for the club's site and the tour's ranking: place, the name as the
public pages show it, prize and bounties, as CSV and XLSX; a name that looks like a formula stays text."""

import io
from decimal import Decimal

import openpyxl
import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from payouts import services
from seating import services as seating
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(make_tournament, make_person, cashier_actor, actor, director):
    """A PKO of three (€50 to the pool, €50 bounty, €10 fee), the lobby naming players by nickname.
    Sara asked not to be found by name; Luca's nickname is "=1+2". Luca knocks Sara out (half her
    €50 head in cash: €25), Anna knocks Luca out (half his €75 head: €37.50) and wins the €150 and
    her own head (€87.50): €125 of bounties, €150 in all with Luca's €25."""
    t = make_tournament(buy_in=Decimal("50"), fee=Decimal("10"), settings={"bounty": "PKO", "bounty_amount": "50", "seat_lookup_names": "NICKNAME"})
    sara = make_person("Sara", "Neri", hide_from_lookup=True)
    anna = make_person("Anna", "Verdi")
    luca = make_person("Luca", "Bianchi", nickname="=1+2")
    e = [cashier.register(t, p, method="CASH", actor=cashier_actor).entry for p in (sara, anna, luca)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    seating.record_bust(t, [{"entry": e[0].pk, "eliminators": [e[2].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[1].pk]}], actor=actor)
    t.refresh_from_db()
    services.lock_payout_table(t, actor=Actor(director))
    lifecycle.finish(Tournament.objects.get(pk=t.pk), actor=actor)
    return Tournament.objects.get(pk=t.pk)


def csv_rows(data: bytes):
    assert data.startswith(b"\xef\xbb\xbf")  # Excel shows the accents
    return [line.split(",") for line in data.decode("utf-8-sig").splitlines()]


def test_the_csv_names_players_as_the_public_pages_do_with_prize_and_bounties(finished, director):
    web = Client()
    web.force_login(director)
    r = web.get(f"/api/v1/tournaments/{finished.pk}/results/")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    assert r["Content-Disposition"] == f'attachment; filename="results-{finished.pk}.csv"'
    rows = csv_rows(r.content)
    assert rows[0] == ["Place", "Player", "Prize", "Other prizes", "Bounties"]
    assert rows[1] == ["1", "Anna V.", "150.00", "", "125.00"]  # no nickname: first name and initial
    assert rows[2] == ["2", "'=1+2", "0.00", "", "25.00"]  # the nickname, as text, never a formula
    assert rows[3] == ["3", "—", "0.00", "", "0.00"]  # hidden from the lookup, as on the lobby
    assert "Neri" not in r.content.decode("utf-8-sig") and "Sara" not in r.content.decode("utf-8-sig")


def test_the_xlsx_keeps_the_formula_looking_nickname_as_text_and_amounts_as_numbers(finished, director):
    web = Client()
    web.force_login(director)
    r = web.get(f"/tournaments/{finished.pk}/payouts/results.xlsx")
    assert r.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(r.content)).active
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    assert rows[2][:2] == [2, "=1+2"]
    assert sheet.cell(row=3, column=2).data_type == "s"  # a text cell: the spreadsheet shows it, never runs it
    assert rows[1][2] == 150 and rows[3][1] == "—"


def test_the_payouts_page_links_both_files_and_the_italian_csv_uses_semicolons(finished, director, tmp_path):
    web = Client()
    web.force_login(director)
    page = web.get(f"/tournaments/{finished.pk}/payouts/").content.decode()
    assert f'href="/tournaments/{finished.pk}/payouts/results.csv"' in page and f'href="/tournaments/{finished.pk}/payouts/results.xlsx"' in page
    target = tmp_path / "risultati.csv"
    call_command("export_results", str(finished.pk), str(target), "--language", "it")
    lines = target.read_bytes().decode("utf-8-sig").splitlines()
    with translation.override("it"):
        assert lines[0].split(";")[:2] == [translation.gettext("Place"), translation.gettext("Player")] != ["Place", "Player"]
    assert lines[1].split(";")[:3] == ["1", "Anna V.", "150.00"]


def test_only_staff_and_the_authorities_read_the_results_sheet(finished, display_user, outsider):
    for user in (display_user, outsider):
        web = Client()
        web.force_login(user)
        assert web.get(f"/api/v1/tournaments/{finished.pk}/results/").status_code == 403
    assert Client().get(f"/tournaments/{finished.pk}/payouts/results.csv").status_code in (302, 403)
