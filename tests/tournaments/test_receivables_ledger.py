"""REG-02 / REG-09: a 004 no-show still owes the entry, and the amount owed is on the ledger —
a RECEIVABLE row (owed, not cash: in no shift total nor money in), its payment a SETTLEMENT row
pointing at it (cash in, a fee kept by the house), both reversible; the regulator's stub report
counts it as owed and the reconciliation stays balanced. Through the services and the API."""

from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.templatetags.static import static
from django.utils import translation

from payouts import reports
from payouts import selectors as payout_selectors
from tdmanager.errors import DomainError
from tests.payouts.reconciliation_rows import BALANCED, expected, read
from tournaments.cashier import services as cashier
from tournaments.cashier.selectors import shift_totals
from tournaments.cashier.services import registration
from tournaments.models import Entry, LedgerRow

pytestmark = pytest.mark.django_db
D = Decimal
ROME = ZoneInfo("Europe/Rome")


@pytest.fixture
def t004(make_tournament):
    return make_tournament(rule_set="MONTEGALDA_004")


def no_show(t, person, cashier_actor, actor):
    entry = cashier.pre_register(t, person, actor=cashier_actor, channel="email")
    registration.mark_no_show(entry, actor=actor, reason="never came")
    return Entry.objects.get(pk=entry.pk), LedgerRow.objects.get(entry=entry, kind=LedgerRow.RECEIVABLE)


def shift(user):
    s = shift_totals(user)
    return s["rows"], s["total"]


def test_the_amount_owed_is_a_ledger_row_that_moves_no_money(t004, person, make_person, cashier_actor, cashier_user, actor):
    cashier.register(t004, make_person(), method="CASH", actor=cashier_actor)
    before_shift, before_in, before_pool = shift(cashier_user), payout_selectors.money_in(t004), payout_selectors.prize_pool(t004)
    entry, owed = no_show(t004, person, cashier_actor, actor)
    assert (owed.kind, owed.owed_amount, owed.total, owed.person) == (LedgerRow.RECEIVABLE, D("110"), D("0"), person)
    assert owed.receipt_number > 0 and owed.reason
    assert shift(cashier_user) == before_shift  # not in the drawer
    assert payout_selectors.money_in(t004) == before_in and payout_selectors.prize_pool(t004) == before_pool
    assert registration.owed_total(t004) == D("110")
    assert [(x["name"], x["owed"], x["receipt_number"]) for x in registration.owed_by(person)] == [(person.full_name, "110.00", owed.receipt_number)]


def test_paying_it_is_a_second_row_linked_to_it_cash_in_the_shift_and_nothing_left_owed(t004, person, cashier_actor, cashier_user, actor):
    _entry, owed = no_show(t004, person, cashier_actor, actor)
    rows0, total0 = shift(cashier_user)
    paid = registration.settle_receivable(owed, method="CASH", actor=cashier_actor)
    assert (paid.kind, paid.settles_id, paid.fee_amount, paid.prize_amount, paid.owed_amount, paid.total) == (
        LedgerRow.SETTLEMENT,
        owed.pk,
        D("110"),
        D("0"),
        D("-110"),
        D("110"),
    )
    assert shift(cashier_user) == (rows0 + 1, total0 + D("110"))
    assert payout_selectors.money_in(t004)["fee"] == D("110") and payout_selectors.money_in(t004)["prize"] == D("0")
    assert registration.owed_total(t004) == D("0") and registration.owed_by(person) == []
    [view] = registration.receivables(t004)
    assert (view["amount"], view["owed"], view["settled_by"]) == ("110.00", "0.00", [paid.receipt_number])
    with pytest.raises(DomainError) as e:
        registration.settle_receivable(owed, method="CASH", actor=cashier_actor)
    assert e.value.code == "nothing_owed"
    assert LedgerRow.objects.filter(kind=LedgerRow.SETTLEMENT).count() == 1
    event = t004.events.get(action="cashier.receivable.settled")
    assert event.payload["receipt"] == paid.receipt_number and event.payload["receivable"] == owed.receipt_number


def test_reversals_a_payment_reversed_is_owed_again_and_the_debt_is_waived_only_after(t004, person, cashier_actor, cashier_user, actor):
    _entry, owed = no_show(t004, person, cashier_actor, actor)
    rows0, total0 = shift(cashier_user)
    paid = registration.settle_receivable(owed, method="CASH", actor=cashier_actor)
    with pytest.raises(DomainError) as e:
        cashier.reverse(owed, reason="waive it", actor=actor)
    assert e.value.code == "reverse_settlement_first"
    rev = cashier.reverse(paid, reason="paid by mistake", actor=cashier_actor)  # a cashier may undo a payment taken
    assert (rev.fee_amount, rev.owed_amount) == (D("-110"), D("110"))
    assert shift(cashier_user) == (rows0 + 2, total0)
    assert registration.owed_total(t004) == D("110") and registration.receivables(t004)[0]["owed"] == "110.00"
    with pytest.raises(DomainError) as e:
        cashier.reverse(owed, reason="waive it", actor=cashier_actor)  # waiving a debt is the director's
    assert e.value.code == "reverse_not_allowed"
    waived = cashier.reverse(owed, reason="the director waives it", actor=actor)
    assert waived.owed_amount == D("-110") and waived.total == D("0")
    assert registration.owed_total(t004) == D("0") and registration.owed_by(person) == []
    assert registration.receivables(t004)[0]["waived"] is True
    with pytest.raises(DomainError) as e:
        registration.settle_receivable(owed, method="CASH", actor=cashier_actor)
    assert e.value.code == "nothing_owed"


def test_the_regulator_reports_count_it_as_owed_and_the_reconciliation_balances(t004, person, make_person, cashier_actor, actor):
    for _ in range(3):
        cashier.register(t004, make_person(), method="CASH", actor=cashier_actor)
    _entry, owed = no_show(t004, person, cashier_actor, actor)
    stubs = reports.prestart(t004)
    assert stubs["columns"][-1] == "Owed"
    line = next(r for r in stubs["rows"] if r[0] == str(owed.receipt_number))
    assert (line[5], line[9], line[10]) == ("Amount owed", "0.00", "110.00")  # a receivable: owed, no money (8: the jackpot fee)
    totals = dict(stubs["totals"])
    assert (totals["Total"], totals["Receivables: still owed"]) == ("330.00", "110.00")
    rec = reports.reconciliation_data(t004)
    lines = {str(k): v for k, v in rec["lines"]}
    assert rec["balanced"] and lines["Receivables: amounts owed, not yet paid (not money in)"] == D("110")
    assert lines["Money in: total"] == D("330")
    registration.settle_receivable(owed, method="CARD", actor=cashier_actor)
    rec = reports.reconciliation_data(t004)
    lines = {str(k): v for k, v in rec["lines"]}
    assert rec["balanced"] and lines["Money in: total"] == D("440") and lines["Money in: fees"] == D("140")
    assert lines["… of which amounts owed, paid (no-shows, REG-09)"] == D("110")
    assert lines["Receivables: amounts owed, not yet paid (not money in)"] == D("0")
    assert dict(reports.prestart(t004)["totals"])["Receivables: still owed"] == "0.00"
    with translation.override("it"):
        assert dict(reports.prestart(t004)["totals"])["Crediti: ancora dovuti"] == "0.00"


# --- API and the desk -------------------------------------------------------------------------


def test_the_desk_api_lists_what_a_player_owes_and_takes_the_payment(t004, person, api, cashier_user, floor_user, director, client, cashier_actor, actor):
    desk = api(cashier_user)
    _entry, owed = no_show(t004, person, cashier_actor, actor)
    r = desk.get(f"/api/v1/cashier/owed/?person={person.pk}")
    assert r.status_code == 200 and [(x["receipt_number"], x["owed"], x["tournament_name"]) for x in r.json()["owed"]] == [
        (owed.receipt_number, "110.00", t004.name)
    ]
    assert api(floor_user).get(f"/api/v1/cashier/owed/?person={person.pk}").status_code == 403
    assert desk.get("/api/v1/cashier/owed/?person=abc").status_code == 400
    r = desk.get(f"/api/v1/cashier/receipts/{owed.receipt_number}/")
    assert r.json()["kind"] == "RECEIVABLE" and r.json()["owed_amount"] == "110.00" and r.json()["total"] == "0.00"
    r = desk.post("/api/v1/cashier/settle/", {"receipt_number": owed.receipt_number, "method": "CASH"}, format="json")
    assert r.status_code == 201 and (r.json()["kind"], r.json()["settles_receipt"], r.json()["total"]) == ("SETTLEMENT", owed.receipt_number, "110.00")
    r = desk.post("/api/v1/cashier/settle/", {"receipt_number": owed.receipt_number, "method": "CASH"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 409 and r.json()["code"] == "nothing_owed" and "non resta più nulla" in r.json()["detail"]
    assert desk.get(f"/api/v1/cashier/owed/?person={person.pk}").json()["owed"] == []
    client.force_login(cashier_user)
    paid = LedgerRow.objects.get(kind=LedgerRow.SETTLEMENT)
    receipt = client.get(f"/desk/receipt/{paid.receipt_number}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert f"Salda l'importo dovuto della ricevuta</dt><dd>#{owed.receipt_number}" in receipt and 'id="receipt-owed"' in receipt
    assert client.get(f"/desk/receipt/{paid.receipt_number}.pdf").status_code == 200
    [x] = api(director).get(f"/api/v1/tournaments/{t004.pk}/receivables/").json()["receivables"]
    assert (x["amount"], x["owed"]) == ("110.00", "0.00")

    client.force_login(cashier_user)
    page = client.get("/desk/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'id="owed"' in page and "Importi dovuti" in page and "Incassa il dovuto" in page and static("desk_owed.js") in page


def test_reg09_the_stub_report_reads_the_no_show_s_amount_owed_and_counts_only_the_entries_sold(t004, make_person, cashier_actor, actor):
    # Two entries sold at €100 + €10, and a third player pre-registered who never came (004): his
    # €110 is owed, a stub of its own, in no money total and no entry sold.
    with time_machine.travel(datetime(2026, 12, 1, 19, 30, tzinfo=ROME), tick=False):
        anna = cashier.register(t004, make_person("Anna", "Bianchi", document_id="CA1234567"), method="CASH", actor=cashier_actor)
        bruno = cashier.register(t004, make_person("Bruno", "Neri", document_id="CB7654321"), method="CARD", actor=cashier_actor)
        entry, owed = no_show(t004, make_person("Carla", "Verdi", document_id="CC5550001"), cashier_actor, actor)
        report = reports.prestart(t004)
    assert [str(c) for c in report["columns"]] == ["Receipt", "Time", "Entry", "Player", "Document", "Stub", "Buy-in", "Fee", "Jackpot", "Amount", "Owed"]
    assert report["rows"] == [
        [
            str(anna.row.receipt_number),
            "01/12/2026 19:30",
            str(anna.entry.number),
            "Anna Bianchi",
            "••••••567",
            "Buy-in",
            "100.00",
            "10.00",
            "0.00",
            "110.00",
            "0.00",
        ],
        [
            str(bruno.row.receipt_number),
            "01/12/2026 19:30",
            str(bruno.entry.number),
            "Bruno Neri",
            "••••••321",
            "Buy-in",
            "100.00",
            "10.00",
            "0.00",
            "110.00",
            "0.00",
        ],
        [str(owed.receipt_number), "01/12/2026 19:30", str(entry.number), "Carla Verdi", "••••••001", "Amount owed", "0.00", "0.00", "0.00", "0.00", "110.00"],
    ]
    assert [(str(k), v) for k, v in report["totals"]] == [
        ("Registered", "2"),
        ("Stubs", "3"),
        ("Entries", "2"),  # the amount owed is a stub, not an entry sold
        ("Total buy-ins", "200.00"),
        ("Total fees", "20.00"),
        ("Total jackpot fees", "0.00"),
        ("Total", "220.00"),
        ("Receivables: still owed", "110.00"),
        ("Generated", "01/12/2026 19:30"),
    ]


def test_reg09_the_reconciliation_reads_the_amounts_owed_and_paid_line_by_line(t004, make_person, cashier_actor, actor):
    # One player paid his 110; two bookings did not show and owe 110 each: owed is no money in.
    cashier.register(t004, make_person(), method="CASH", actor=cashier_actor)
    _a, owed_a = no_show(t004, make_person(), cashier_actor, actor)
    _b, owed_b = no_show(t004, make_person(), cashier_actor, actor)
    one_sale = {"Money in: prize parts": "100.00", "Prize pool": "100.00", "Prize pool not yet paid": "100.00", "… places still to be decided": "100.00"}
    rows, result = read(t004)
    assert rows == expected(
        {
            **one_sale,
            "Money in: fees": "10.00",
            "Money in: total": "110.00",
            "Fees kept by the house": "10.00",
            "Receivables: amounts owed, not yet paid (not money in)": "220.00",
        }
    )
    assert result == BALANCED
    # The first pays by card; the second pays in cash, and that payment is reversed: he owes again.
    # The 110 paid is money in, a fee the house keeps.
    registration.settle_receivable(owed_a, method="CARD", actor=cashier_actor)
    paid_b = registration.settle_receivable(owed_b, method="CASH", actor=cashier_actor)
    cashier.reverse(paid_b, reason="paid by mistake", actor=cashier_actor)
    rows, result = read(t004)
    assert rows == expected(
        {
            **one_sale,
            "Money in: fees": "120.00",
            "Money in: total": "220.00",
            "Fees kept by the house": "120.00",
            "… of which amounts owed, paid (no-shows, REG-09)": "110.00",
            "Receivables: amounts owed, not yet paid (not money in)": "110.00",
        }
    )
    assert result == BALANCED
