"""The control authority's reports and the room's exports, read in every language but English.

A finished event (a guarantee the house made up, a jackpot fee, two prizes paid, the ranking
signed) is read by the controller, whose login chose the language, as the authority gets it: each
report's PDF (the text its pages draw) and CSV, the results CSV, and the director's people CSV.
None may keep a header or label in the product's English (``tests.test_languages_pages.english``,
less each language's loanwords, and the reports' own words), and every amount a reader reads as
a number of his language is written with its decimal comma: each PDF cell, a sum inside a
sentence. A CSV's amount cells keep the machine's point, as a spreadsheet and the import read
them, in a file whose columns part on ``;`` for these languages.
"""

import csv
import io
import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from payouts import services
from payouts.reports import REPORTS
from tests.payouts.test_payout_service import finish_at, sign_twice
from tests.payouts.test_reports_italian import pdf_text
from tests.test_languages_pages import LOANWORDS, english
from tournaments.cashier import services as cashier
from tournaments.models import Tournament

D = Decimal
pytestmark = pytest.mark.django_db

TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
#: the reports' and exports' own English words, none of which these languages use
REPORT_WORDS = re.compile(
    r"\b(Total|Totals|Fee|Fees|Owed|Signatures?|Role|Time|not signed|Place|Prize(?! pool)|Other prizes|Method|Player|Entry|Entries|"
    r"Jackpot fees?|Overlay|Deductions?|Difference|Ruling|Penalty|First name|Last name|Phone|Notes|Birth date|In cash|Card|Transfer)\b"
)
#: what a language writes as the English does: its rooms' word (docs/translating.md's glossaries:
#: "Entry", "Overlay", the Italian "fee") or its own word spelt the same ("Total", "Place")
SAME = {
    "de": {"Entry", "Entries", "Overlay"},
    "es": {"Total", "Overlay"},
    "fr": {"Total", "Place", "Signature", "Signatures", "Overlay", "Notes"},
    "it": {"Entry", "Entries", "Fee", "Overlay"},
}


@pytest.fixture
def finished(make_tournament, make_person, cashier_actor, actor, director):
    """Four players paid 110 in, a guarantee of 5,000 made up by the house, places 1 and 2 paid
    3,500.50 and 1,499.50 (by transfer and in cash), the ranking signed by director and controller."""
    t = make_tournament(guarantee=D("5000"), settings={"jackpot": True})
    people = [make_person("Anna", "Weber"), make_person("Luc", "Martin"), make_person("Lucía", "García"), make_person("Piet", "Jansen")]
    entries = [cashier.register(t, p, method="CASH", actor=cashier_actor, jackpot=True).entry for p in people]
    services.edit_payout_table(t, [{"place": 1, "amount": "3500.50"}, {"place": 2, "amount": "1499.50"}], actor=actor)
    services.lock_payout_table(t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
    for place, entry in enumerate(entries, start=1):
        finish_at(entry, place)
    sign_twice(t, director)
    services.pay_prize(entries[0], method="TRANSFER", reference="TRN-7", actor=cashier_actor)
    services.pay_prize(entries[1], method="CASH", actor=cashier_actor)
    return t


def login_in(username: str, code: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    assert client.post("/i18n/setlang/", {"language": code, "next": "/"}).status_code == 302  # the login's picker
    return client


def english_left(code: str, text: str, stored: tuple[str, ...]) -> list[str]:
    for name in stored:
        text = text.replace(name, " ")
    found = set(english(code).findall(text)) | set(REPORT_WORDS.findall(text))
    return sorted(found - LOANWORDS.get(code, set()) - SAME.get(code, set()))


def pdf_strings(pdf: bytes) -> str:
    """The strings a reportlab PDF draws (its ``(...) Tj`` operands), one a line."""
    return "\n".join(m.group(1) for m in re.finditer(r"\(((?:\\.|[^\\)])*)\)\s*Tj", pdf_text(pdf)))


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_reports_and_exports_carry_no_english_and_write_the_languages_decimals(code, finished, director):
    t = finished
    client = login_in("controller", code)
    stored = (t.name, t.structure.name, "Anna Weber", "Luc Martin", "Lucía García", "Piet Jansen", "TRN-7")
    found = {}
    for name in REPORTS:
        pdf = client.get(f"/tournaments/{t.pk}/payouts/reports/{name}.pdf")
        assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf", name
        drawn = pdf_strings(pdf.content)
        assert drawn.strip(), name  # the PDF's text was read
        found[f"{name}.pdf"] = english_left(code, drawn, stored)
        amounts = re.findall(r"(?<![\d.,])\d{1,3}(?:[.\u202f\u00a0 ]?\d{3})*[.,]\d{2}(?![\d.,])", drawn)
        assert all("," in a for a in amounts), (name, amounts)  # every amount with the decimal comma
        assert not re.search(r"\b\d+\.\d{2}\b(?![\d.])", drawn), (name, drawn)  # no machine 3500.50 in a cell
        text = client.get(f"/tournaments/{t.pk}/payouts/reports/{name}.csv").content.decode()
        found[f"{name}.csv"] = english_left(code, text, stored)
    assert "3.500,50" in pdf_strings(client.get(f"/tournaments/{t.pk}/payouts/reports/payments.pdf").content).replace("\u202f", ".").replace(
        "\u00a0", "."
    ).replace(" ", ".")
    reconciliation = client.get(f"/tournaments/{t.pk}/payouts/reports/reconciliation.csv").content.decode()
    assert re.search(r"\b4[.\u202f\u00a0 ]600,00\b", reconciliation), reconciliation  # the overlay, in a sentence, his way
    results = client.get(f"/tournaments/{t.pk}/payouts/results.csv")
    assert results.status_code == 200
    rows = list(csv.reader(io.StringIO(results.content.decode("utf-8-sig")), delimiter=";"))  # ; : the language writes a decimal comma
    assert rows[1][2] == "3500.50"  # the amount cell: the machine's point, a number to the sheet and the import
    found["results.csv"] = english_left(code, results.content.decode("utf-8-sig"), stored)
    people = login_in(director.username, code).get("/api/v1/exports/people/?format_type=csv")  # the director's export
    assert people.status_code == 200, people.content[:300]
    found["people.csv"] = english_left(code, people.content.decode("utf-8-sig"), stored)
    assert {k: v for k, v in found.items() if v} == {}
