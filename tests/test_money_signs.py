"""Money as each language writes it: the currency's sign where people write one (€, £, $), the
amount and the sign in the language's order ("1.234,56 €" in Italian, German and Spanish,
"1 234,56 €" in French, "€1,234.56" in English), a non-breaking space between them; a currency
without a sign keeps its code. On the 80 mm receipt, in its PDF, and on a page."""

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import translation

from tdmanager import formatting
from tests.payouts.test_reports_italian import pdf_text
from tournaments.cashier import services as cashier
from tournaments.models import LedgerRow

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"
#: 1234.56 EUR as each language writes it (French groups with a non-breaking space too)
EUROS = {
    "it": "1.234,56\u00a0€",
    "de": "1.234,56\u00a0€",
    "es": "1.234,56\u00a0€",
    "fr": "1\u00a0234,56\u00a0€",
    "en": "€1,234.56",
}


def speaking(user, code: str) -> Client:
    client = Client()
    client.force_login(user)
    assert client.post("/i18n/setlang/", {"language": code, "next": "/desk/"}).status_code == 302
    return client


def printed(pdf: bytes) -> list[str]:
    """Each piece of text the PDF draws, as its font (WinAnsi: byte 0x80 is €) reads it."""
    text = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), pdf_text(pdf))
    return re.findall(r"\((.*?)\) Tj", text.encode("latin-1").decode("cp1252", errors="replace"))


@pytest.fixture
def sale_of(make_tournament, person, cashier_actor):
    def sale(currency="EUR"):
        t = make_tournament(buy_in=Decimal("1100"), fee=Decimal("134.56"), currency=currency)
        return cashier.register(t, person, method=LedgerRow.CASH, actor=cashier_actor).row

    return sale


@pytest.mark.parametrize("code", ["it", "de", "es", "fr", "en"])
def test_the_receipt_and_its_pdf_write_euros_as_the_language_does(code, sale_of, cashier_user):
    row = sale_of()
    client = speaking(cashier_user, code)
    html = client.get(f"/desk/receipt/{row.receipt_number}/").content.decode()
    assert f'<dd class="total" id="receipt-total">{EUROS[code]}</dd>' in html
    assert " EUR" not in html.replace('"EUR"', "")  # no amount with the code left
    pdf = client.get(f"/desk/receipt/{row.receipt_number}.pdf")
    # € drawn (WinAnsi holds it), not a box; the PDF draws the space as a plain one (no line to break)
    assert pdf.status_code == 200 and EUROS[code].replace(NBSP, " ") in printed(pdf.content)


@pytest.mark.parametrize("code", ["it", "de", "es", "fr", "en"])
def test_a_page_writes_euros_as_the_language_does(code, make_tournament, person, cashier_actor, director):
    t = make_tournament(buy_in=Decimal("1234.56"), fee=Decimal("10"))
    cashier.register(t, person, method=LedgerRow.CASH, actor=cashier_actor)
    html = speaking(director, code).get(f"/tournaments/{t.pk}/").content.decode()
    assert f'<span id="prize-collected">{EUROS[code]}</span>' in html


@pytest.mark.parametrize(
    ("code", "written"),
    [("it", "1.234,56\u00a0CHF"), ("fr", "1\u00a0234,56\u00a0CHF"), ("en", "CHF\u00a01,234.56")],
)
def test_a_currency_without_a_sign_keeps_its_code(code, written, sale_of, cashier_user):
    row = sale_of("CHF")
    client = speaking(cashier_user, code)
    html = client.get(f"/desk/receipt/{row.receipt_number}/").content.decode()
    assert f'<dd class="total" id="receipt-total">{written}</dd>' in html
    assert written.replace(NBSP, " ") in printed(client.get(f"/desk/receipt/{row.receipt_number}.pdf").content)


@pytest.mark.parametrize(
    ("code", "pounds", "dollars", "refund", "korunas"),
    [
        ("en", "£1,234.56", "$1,234.56", "-€5.00", "CZK\u00a01,234.56"),
        ("it", "1.234,56\u00a0£", "1.234,56\u00a0$", "-5,00\u00a0€", "1.234,56\u00a0CZK"),
    ],
)
def test_pounds_dollars_a_code_and_a_minus(code, pounds, dollars, refund, korunas):
    with translation.override(code):
        assert formatting.money("1234.56", "GBP") == pounds
        assert formatting.money("1234.56", "USD") == dollars
        assert formatting.money("-5", "EUR") == refund  # the minus before the sign, never "€-5.00"
        assert formatting.money("1234.56", "CZK") == korunas  # a code is never glued to the digits


def test_the_page_s_script_receives_the_signs_and_the_language_s_pattern(director):
    html = speaking(director, "fr").get("/desk/").content.decode()
    assert (
        '<script id="tdm-money" type="application/json">{"signs": {"EUR": "\\u20ac", "GBP": "\\u00a3", "USD": "$"}, "pattern": "{amount}\\u00a0{currency}"'
        in html
    )
