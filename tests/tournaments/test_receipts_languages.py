"""A receipt in each language: the desk's (its login's language), or the player's when the
cashier asks for it (``?lang=``); its words and its amounts as that language writes them, on
the 80 mm page and in the PDF."""

import re
from datetime import UTC, datetime
from decimal import Decimal

import pytest
import time_machine
from django.test import Client

from tests.payouts.test_reports_italian import pdf_text
from tournaments.cashier import services as cashier
from tournaments.models import LedgerRow

pytestmark = pytest.mark.django_db

#: (title, total line, paid by cash, fee) as each language prints them; 1,234.56 grouped its way
EXPECTED = {
    "de": ("Beleg", "Gesamt", "Bar", "Gebühr", "1.234,56\u00a0€"),
    "es": ("Recibo", "Total", "Efectivo", "Comisión", "1.234,56\u00a0€"),
    "fr": ("Reçu", "Total", "Espèces", "Frais", "1\xa0234,56\u00a0€"),
    "it": ("Ricevuta", "Totale", "Contanti", "Commissione", "1.234,56\u00a0€"),
}


@pytest.fixture
def sale(make_tournament, person, cashier_actor):
    t = make_tournament(buy_in=Decimal("1100"), fee=Decimal("134.56"))
    return cashier.register(t, person, method=LedgerRow.CASH, actor=cashier_actor).row


def desk(user, code: str) -> Client:
    """The cashier's browser, its login's language chosen once with the picker."""
    client = Client()
    client.force_login(user)
    assert client.post("/i18n/setlang/", {"language": code, "next": "/desk/"}).status_code == 302
    return client


@pytest.mark.parametrize("code", ["de", "es", "fr"])
def test_the_receipt_prints_in_the_desks_language(code, sale, cashier_user):
    client = desk(cashier_user, code)
    html = client.get(f"/desk/receipt/{sale.receipt_number}/").content.decode()
    title, total, cash, fee, amount = EXPECTED[code]
    assert f'<html lang="{code}">' in html and f"<title>{title} #{sale.receipt_number}</title>" in html
    for word in (total, cash, fee, amount):
        assert word in html, word
    assert "Receipt" not in html and "Paid by" not in html and "1,234.56" not in html


@pytest.mark.parametrize("code", ["de", "es", "fr", "it"])
def test_the_cashier_prints_it_in_the_players_language(code, sale, cashier_user):
    client = desk(cashier_user, "de" if code != "de" else "fr")  # the desk works in another language
    html = client.get(f"/desk/receipt/{sale.receipt_number}/?lang={code}").content.decode()
    title, total, _cash, _fee, amount = EXPECTED[code]
    assert f'<html lang="{code}">' in html and f"<title>{title} #{sale.receipt_number}</title>" in html
    assert total in html and amount in html
    pdf = client.get(f"/desk/receipt/{sale.receipt_number}.pdf?lang={code}")
    assert pdf.status_code == 200
    text = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), pdf_text(pdf.content))  # the PDF's octal escapes
    text = text.encode("latin-1").decode("cp1252", errors="replace")  # as the font reads its bytes (WinAnsi: \200 is €)
    shown = [piece.replace("\xa0", " ") for piece in re.findall(r"\((.*?)\) Tj", text)]  # each line's pieces, as printed
    assert title in shown and total in shown and amount.replace("\xa0", " ") in shown, shown
    after = client.get(f"/desk/receipt/{sale.receipt_number}/").content.decode()  # the next one: the desk's again
    assert '<html lang="de">' in after or '<html lang="fr">' in after


def test_a_language_not_offered_prints_in_the_desks(sale, cashier_user):
    client = desk(cashier_user, "es")
    assert '<html lang="es">' in client.get(f"/desk/receipt/{sale.receipt_number}/?lang=xx").content.decode()


def test_the_receipt_page_offers_each_language_and_its_pdf(sale, cashier_user):
    """The cashier picks the player's language on the receipt itself (never printed): each
    language by its own name, the one shown marked, and the PDF in that language."""
    client = desk(cashier_user, "it")
    html = client.get(f"/desk/receipt/{sale.receipt_number}/?lang=fr").content.decode()
    chooser = re.search(r'<nav class="noprint receipt-languages"[^>]*>(.*?)</nav>', html, re.S).group(1)
    for code, name in (("en", "English"), ("it", "italiano"), ("de", "Deutsch"), ("es", "español"), ("fr", "français")):
        assert f'<a href="?lang={code}" lang="{code}"' in chooser and f">{name}</a>" in chooser, code
    assert '<a href="?lang=fr" lang="fr" aria-current="true">' in chooser
    assert f'href="/desk/receipt/{sale.receipt_number}.pdf?lang=fr"' in chooser


@pytest.mark.parametrize("code,written", [("de", "28.11.2026 21:05:07"), ("fr", "28/11/2026 21:05:07"), ("en", "28/11/2026 21:05:07")])
def test_the_receipts_date_is_written_as_its_language_writes_dates(code, written, make_tournament, person, cashier_actor, cashier_user, settings):
    """Day before month everywhere the product is sold; German with full stops; the 24-hour clock."""
    settings.TIME_ZONE = "Europe/Rome"
    t = make_tournament(start_at=datetime(2026, 11, 28, 22, 0, tzinfo=UTC))
    with time_machine.travel(datetime(2026, 11, 28, 20, 5, 7, tzinfo=UTC), tick=False):  # 21:05:07 in Rome
        row = cashier.register(t, person, method=LedgerRow.CASH, actor=cashier_actor).row
    client = desk(cashier_user, code)
    assert written in client.get(f"/desk/receipt/{row.receipt_number}/").content.decode()
    assert written in pdf_text(client.get(f"/desk/receipt/{row.receipt_number}.pdf").content)
