"""Issue #28 item 4 and #29 item 2: cancelling a tournament makes its refunds due at the desk.

No money moves at the cancellation: each paid entry is owed its payments in full, listed at the
desk until a cashier hands the refund out on his own shift, in cash only within the cash limit
(REG-06); the receipts stay gapless and nothing is paid twice."""

from decimal import Decimal

import pytest

from tdmanager.errors import DomainError
from tournaments.cashier import selectors as cashier_selectors
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, LedgerRow, Tournament
from tournaments.setup import lifecycle

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def other_cashier(db):
    from tests.conftest import make_user

    return Actor(make_user("cleo", "cashier"), "desk-2")


def cancelled_with_three_paid(make_tournament, make_person, cashier_actor, actor):
    t = make_tournament()
    paid = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    reserved = cashier.pre_register(t, make_person(), actor=cashier_actor)
    lifecycle.cancel(t, actor=actor, reason="not enough players")
    return Tournament.objects.get(pk=t.pk), paid, reserved


def test_cancelling_books_no_refund_but_lists_every_paid_entry_as_due(make_tournament, make_person, cashier_actor, actor):
    t, paid, reserved = cancelled_with_three_paid(make_tournament, make_person, cashier_actor, actor)
    assert not t.ledger.filter(kind=LedgerRow.REFUND).exists()  # nothing paid by the director at the cancellation
    assert not t.ledger.filter(cashier=actor.user).exists()
    assert set(Entry.objects.filter(tournament=t).values_list("status", flat=True)) == {Entry.CANCELLED}
    due = cashier_selectors.refunds_due(t)
    assert [(d["entry"], d["amount"]) for d in due] == [(e.pk, D("110")) for e in paid]
    assert reserved.pk not in [d["entry"] for d in due]


def test_a_cashier_pays_each_refund_on_his_shift_once(make_tournament, make_person, cashier_actor, other_cashier, actor):
    t, paid, _reserved = cancelled_with_three_paid(make_tournament, make_person, cashier_actor, actor)
    before = cashier_selectors.shift_totals(other_cashier.user)["total"]
    row = cashier.pay_refund(paid[0], method="CASH", actor=other_cashier)
    assert (row.kind, row.total, row.cashier, row.method) == (LedgerRow.REFUND, D("-110"), other_cashier.user, "CASH")
    assert row.reason == "Tournament cancelled: not enough players"
    assert cashier_selectors.shift_totals(other_cashier.user)["total"] == before - D("110")  # out of the drawer of the one who paid
    assert [d["entry"] for d in cashier_selectors.refunds_due(t)] == [paid[1].pk, paid[2].pk]
    with pytest.raises(DomainError) as exc:
        cashier.pay_refund(paid[0], method="CASH", actor=cashier_actor)
    assert exc.value.code == "no_refund_due"
    for e in paid[1:]:
        cashier.pay_refund(e, method="CASH", actor=cashier_actor)
    assert cashier_selectors.refunds_due(t) == []
    totals = cashier_selectors.ledger_totals(t)
    assert (totals["prize"], totals["fee"], totals["chips"]) == (D("0"), D("0"), 0)  # every euro and chip back out, once
    numbers = sorted(t.ledger.values_list("receipt_number", flat=True))
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))  # gapless


def test_a_reversed_refund_is_due_again(make_tournament, make_person, cashier_actor, actor):
    t, paid, _reserved = cancelled_with_three_paid(make_tournament, make_person, cashier_actor, actor)
    row = cashier.pay_refund(paid[0], method="CASH", actor=cashier_actor)
    cashier.reverse(row, reason="handed to the wrong player", actor=actor)
    assert paid[0].pk in [d["entry"] for d in cashier_selectors.refunds_due(t)]


def test_the_cancelled_tournament_stays_at_the_desk_until_its_refunds_are_paid(client, make_tournament, make_person, cashier_user, cashier_actor, actor):
    t, paid, _reserved = cancelled_with_three_paid(make_tournament, make_person, cashier_actor, actor)
    client.force_login(cashier_user)
    assert f'<option value="{t.pk}" data-status="CANCELLED"' in client.get("/desk/").content.decode()
    for e in paid:
        cashier.pay_refund(e, method="CASH", actor=cashier_actor)
    assert f'<option value="{t.pk}"' not in client.get("/desk/").content.decode()


def test_29_2_a_refund_over_the_cash_limit_is_refused_in_cash_and_paid_by_transfer(make_tournament, make_person, cashier_actor, actor):
    # Issue #29 item 2: a 3,000 + 300 card sale, then cancel: no cash row of -3,300.
    t = make_tournament(buy_in=D("3000"), fee=D("300"))
    entry = cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry
    assert t.ledger.get().total == D("3300")
    lifecycle.cancel(t, actor=actor, reason="storm")
    assert not t.ledger.filter(kind=LedgerRow.REFUND).exists()
    with pytest.raises(DomainError) as exc:
        cashier.pay_refund(entry, method="CASH", actor=cashier_actor)
    assert exc.value.code == "cash_limit_exceeded"
    with pytest.raises(DomainError) as exc:
        cashier.pay_refund(entry, method="TRANSFER", actor=cashier_actor)
    assert exc.value.code == "reference_required"
    row = cashier.pay_refund(entry, method="TRANSFER", actor=cashier_actor, reference="IT60X0542811101000000123456")
    assert (row.method, row.total, row.reference) == ("TRANSFER", D("-3300"), "IT60X0542811101000000123456")


def test_29_2_the_directors_refund_checks_the_cash_limit_too(make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(buy_in=D("3000"), fee=D("300"))
    entry = cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry
    with pytest.raises(DomainError) as exc:
        cashier.refund(entry, reason="banned after paying", actor=actor, method="CASH")
    assert exc.value.code == "cash_limit_exceeded" and not t.ledger.filter(kind=LedgerRow.REFUND).exists()
    row = cashier.refund(entry, reason="banned after paying", actor=actor, method="CHEQUE", reference="cheque 991")
    assert (row.method, row.total) == ("CHEQUE", D("-3300"))


def test_two_cash_refunds_of_one_person_are_summed_against_the_limit(make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(buy_in=D("1000"), fee=D("100"), max_entries_per_player=2)
    p = make_person()
    first = cashier.register(t, p, method="CARD", actor=cashier_actor).entry
    lifecycle.start(t, actor=actor, override_minimum=True)
    Entry.objects.filter(pk=first.pk).update(status=Entry.BUSTED)
    second = cashier.reenter(t, p, method="CARD", actor=cashier_actor).entry
    lifecycle.cancel(t, actor=actor, reason="power cut")
    cashier.pay_refund(first, method="CASH", actor=cashier_actor)  # 1,100 in cash
    with pytest.raises(DomainError) as exc:
        cashier.pay_refund(second, method="CASH", actor=cashier_actor)  # 2,200 in cash the same day
    assert exc.value.code == "cash_limit_exceeded"


def test_the_api_lists_and_pays_the_refunds_due(api, make_tournament, make_person, cashier_user, floor_user, cashier_actor, actor):
    t, paid, _reserved = cancelled_with_three_paid(make_tournament, make_person, cashier_actor, actor)
    c = api(cashier_user)
    r = c.get(f"/api/v1/tournaments/{t.pk}/refunds-due/")
    assert r.status_code == 200 and [x["amount"] for x in r.json()["refunds"]] == ["110.00"] * 3
    body = {"entry": paid[0].pk, "method": "CASH"}
    r = c.post("/api/v1/cashier/refunds-due/pay/", body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert r.status_code == 201 and r.json()["total"] == "-110.00"
    again = c.post("/api/v1/cashier/refunds-due/pay/", body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert again.status_code == 201 and again.json()["receipt_number"] == r.json()["receipt_number"]
    r = c.post("/api/v1/cashier/refunds-due/pay/", body, format="json")
    assert r.status_code == 409 and r.json()["code"] == "no_refund_due"
    assert t.ledger.filter(kind=LedgerRow.REFUND).count() == 1
    assert len(c.get(f"/api/v1/tournaments/{t.pk}/refunds-due/").json()["refunds"]) == 2
    assert api(floor_user).post("/api/v1/cashier/refunds-due/pay/", {"entry": paid[1].pk}, format="json").status_code == 403


def test_the_refusals_speak_italian(api, make_tournament, make_person, cashier_user, cashier_actor, actor):
    t = make_tournament(buy_in=D("3000"), fee=D("300"))
    entry = cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry
    lifecycle.cancel(t, actor=actor, reason="storm")
    c = api(cashier_user)
    r = c.post("/api/v1/cashier/refunds-due/pay/", {"entry": entry.pk, "method": "TRANSFER"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 400 and r.json()["detail"] == "Un rimborso con assegno o bonifico richiede il numero o il riferimento."


def test_the_tournament_page_says_what_is_still_to_refund(client, make_tournament, make_person, director, cashier_actor, actor):
    from django.conf import settings

    t, paid, _reserved = cancelled_with_three_paid(make_tournament, make_person, cashier_actor, actor)
    cashier.pay_refund(paid[0], method="CASH", actor=cashier_actor)
    client.force_login(director)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Rimborsi ancora da consegnare alla cassa: 2 (220,00\u00a0€)." in page and f'href="/desk/?t={t.pk}"' in page


def test_a_refunded_sale_cannot_be_reversed_too(make_tournament, make_person, cashier_actor, actor):
    t, paid, _reserved = cancelled_with_three_paid(make_tournament, make_person, cashier_actor, actor)
    refund = cashier.pay_refund(paid[0], method="CASH", actor=cashier_actor)
    sale = t.ledger.get(entry=paid[0], kind=LedgerRow.BUY_IN)
    with pytest.raises(DomainError) as exc:
        cashier.reverse(sale, reason="wrong player", actor=actor)
    assert exc.value.code == "reverse_refund_first"
    assert cashier_selectors.ledger_totals(t)["prize"] == D("200")  # the other two still due; nothing paid twice
    cashier.reverse(refund, reason="refund handed to the wrong player", actor=actor)
    cashier.reverse(sale, reason="the sale itself was a mistake", actor=actor)  # now it may be
    assert paid[0].pk not in [d["entry"] for d in cashier_selectors.refunds_due(t)]
