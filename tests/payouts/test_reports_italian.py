"""Issue #28 item 5: the reports for the control authority add up and read in the language.

The pre-start report carries the jackpot fee in a column of its own (100 + 10 + 5 = 115 on a row);
the prize-payments report names the payment method in words; the PDFs write amounts the
language's way and never draw a character their font lacks (an emoji in a name) as a black box."""

import base64
import re
import zlib
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import translation

from payouts import reports, services
from payouts.models import PrizePayment
from tests.payouts.test_payout_service import finish_at, first_two_signed, sign_twice
from tournaments.cashier import services as cashier
from tournaments.models import Tournament

D = Decimal
pytestmark = pytest.mark.django_db


def pdf_text(pdf: bytes) -> str:
    """The text operators of every page stream of a reportlab PDF (ASCII85 + Flate)."""
    out = []
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        raw = m.group(1).strip()
        try:
            out.append(zlib.decompress(base64.a85decode(raw, adobe=raw.startswith(b"<~") or raw.endswith(b"~>"))).decode("latin-1"))
        except (ValueError, zlib.error):
            continue
    return "\n".join(out)


@pytest.fixture
def jackpot_room(make_tournament, make_person, cashier_actor):
    t = make_tournament(settings={"jackpot": True})
    players = [make_person("Mario", "Rossi \U0001f0a1"), make_person("Anna", "Bianchi"), make_person("Luca", "Ferrari")]
    cashier.register(t, players[0], method="CASH", actor=cashier_actor, jackpot=True)
    cashier.register(t, players[1], method="CASH", actor=cashier_actor, jackpot=True)
    cashier.register(t, players[2], method="CARD", actor=cashier_actor)
    return t


def test_the_prestart_report_has_a_jackpot_column_so_each_row_adds_up(jackpot_room):
    r = reports.prestart(jackpot_room)
    cols = [str(c) for c in r["columns"]]
    assert cols[6:] == ["Buy-in", "Fee", "Jackpot", "Amount", "Owed"]
    for row in r["rows"]:
        buy_in, fee, jackpot, amount = (D(row[i]) for i in (6, 7, 8, 9))
        assert buy_in + fee + jackpot == amount
    assert [row[8] for row in r["rows"]] == ["5.00", "5.00", "0.00"]
    totals = {str(k): v for k, v in r["totals"]}
    assert (totals["Total buy-ins"], totals["Total fees"], totals["Total jackpot fees"], totals["Total"]) == ("300.00", "30.00", "10.00", "340.00")


def test_the_prize_payments_report_names_the_method_in_words(make_tournament, make_person, cashier_actor, actor, director):
    t = make_tournament(buy_in=D("500"), fee=D("50"))
    entries = [cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(4)]
    first_two_signed(t, entries, director, actor)
    services.pay_prize(entries[0], method="TRANSFER", reference="TRN-7", actor=cashier_actor)
    services.pay_prize(entries[1], method="CASH", actor=cashier_actor)
    with translation.override("it"):
        r = reports.payments(t)
        csv = reports.to_csv(r)
    # Issue #39: the prize's kind read "Contanti" beside a bank transfer: a prize in money, paid by transfer.
    assert [(row[4], row[6]) for row in r["rows"]] == [("In denaro", "Bonifico bancario"), ("In denaro", "Contanti")]
    assert "CASH" not in csv and "TRANSFER" not in csv
    transfer = PrizePayment.objects.get(entry=entries[0])
    with translation.override("it"):
        slip = {str(k): str(v) for k, v in reports.slip_lines(transfer)}
    assert (slip["Premio"], slip["Pagato con"]) == ("In denaro", "Bonifico bancario")
    web = Client()
    web.force_login(director)
    web.cookies["django_language"] = "it"
    html = web.get(f"/payouts/slip/{transfer.row.receipt_number}/").content.decode()
    assert '<dd id="slip-prize">In denaro</dd>' in html and "Contanti" not in html


def test_the_pdf_writes_italian_decimals_and_no_black_box(jackpot_room):
    with translation.override("it"):
        pdf = reports.to_pdf(reports.prestart(jackpot_room))
    text = pdf_text(pdf)
    assert "(110,00)" in text and "(115,00)" in text and "(340,00)" in text
    assert "110.00" not in text
    assert b"ZapfDingbats" not in pdf  # reportlab's black square for a glyph Helvetica lacks
    assert "Mario Rossi" in text


def test_a_payout_slip_draws_no_black_box(make_tournament, make_person, cashier_actor, actor, director):
    t = make_tournament(name="Torneo \U0001f3c6 del lunedì")
    winner = cashier.register(t, make_person("Anna", "Bianchi \U0001f600"), method="CARD", actor=cashier_actor).entry
    cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    services.edit_payout_table(t, [{"place": 1, "amount": "200"}], actor=actor)
    services.lock_payout_table(t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
    finish_at(winner, 1)
    sign_twice(t, director)
    pay = services.pay_prize(winner, method="CASH", actor=cashier_actor)
    pdf = reports.slip_pdf(pay)
    assert b"ZapfDingbats" not in pdf
    assert "Anna Bianchi" in pdf_text(pdf)


def test_the_reconciliation_csv_writes_money_in_a_sentence_the_italian_way(make_tournament, make_person, cashier_actor):
    # Issue #39: "overlay di 4800.00" in an Italian sentence. The amount cells stay the machine's
    # "4800.00" (a spreadsheet sums the column); an amount in words is written as the reader reads it.
    t = make_tournament(guarantee=D("5000"))
    for _ in range(2):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    with translation.override("it"):
        csv = reports.to_csv(reports.reconciliation(t))
    assert "La casa ha aggiunto un overlay di 4.800,00 per raggiungere il garantito." in csv
    assert "4800.00" in csv  # its line: a number of its own
