"""Cancel × a bounty won (issue 38, found by the simulated days: PostgreSQL day seeds 200002 and
200003). A PKO of 4 × (€50 pool + €50 bounty + €10 fee) plays a knockout or two and is cancelled:
every player is owed back all he paid, his bounty part included (FMT-02). The bounty the
eliminator won was then owed twice, to him at the desk and to the busted player in his refund,
and the reconciliation said "Differenza sulle taglie non spiegata: -25,00".

A cancelled event owes its players their money, not its bounties: a bounty won and not collected
is void (the desk no longer lists it), and one collected before the cancellation stays with its
winner, paid by the house, which the reconciliation says in a line of its own."""

from decimal import Decimal

import pytest

from payouts import reports
from payouts import selectors as psel
from seating import services as seating
from tests.payouts.bounty_setup import bounty_event
from tournaments.cashier import selectors as cashier_selectors
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal


def knock(t, out, by, actor):
    seating.record_bust(t, [{"entry": out.pk, "eliminators": [by.pk]}], actor=actor)


def owed_to(api, user, t) -> list:
    """The winners of the bounties owed, as the bounty overview lists them (``GET …/bounties/``)."""
    return [a["winner"] for a in api(user).get(f"/api/v1/tournaments/{t.pk}/bounties/").json()["awards"] if a["owed"]]


def recon(t) -> dict:
    data = reports.reconciliation_data(t)
    return {"balanced": data["balanced"], "bounty_difference": data["bounty_difference"], "lines": {str(k): v for k, v in data["lines"]}}


@pytest.fixture
def knocked(make_tournament, make_person, cashier_actor, actor):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    knock(t, e[3], e[2], actor)  # P2 wins €25 cash, €25 onto his head
    return t, e


def test_a_bounty_not_collected_is_void_when_the_event_is_cancelled(knocked, actor, api, director, cashier_user):
    t, e = knocked
    assert owed_to(api, director, t) == [e[2].pk]
    lifecycle.cancel(t, actor=actor, reason="the room floods")
    t.refresh_from_db()

    assert owed_to(api, director, t) == []
    r = api(cashier_user).post(f"/api/v1/tournaments/{t.pk}/bounties/pay/", {"entry": e[2].pk, "method": "CASH"}, format="json")
    assert r.status_code in (400, 409), r.json()
    money = psel.bounty_money(t)
    assert (money["in"], money["owed"], money["to_refund"], money["difference"]) == (D("200"), D("0"), D("200"), D("0"))
    assert recon(t)["balanced"]
    # every refund paid at the desk: each player gets his €110 back, and it still balances
    for refund in cashier_selectors.refunds_due(t):
        assert refund["amount"] == D("110.00")
        cashier.pay_refund(Entry.objects.get(pk=refund["entry"]), method="CASH", actor=Actor(cashier_user, "desk-1"))
    assert cashier_selectors.refunds_due(t) == []
    assert recon(t)["balanced"]


def test_a_bounty_collected_before_the_cancellation_is_paid_by_the_house(knocked, actor, api, director, cashier_user):
    t, e = knocked
    r = api(cashier_user).post(f"/api/v1/tournaments/{t.pk}/bounties/pay/", {"entry": e[2].pk, "method": "CASH"}, format="json")
    assert r.status_code == 201 and r.json()["amount"] == "25.00", r.json()
    lifecycle.cancel(t, actor=actor, reason="the room floods")
    t.refresh_from_db()

    state = recon(t)
    assert state["balanced"], state
    assert state["lines"]["… less the bounties collected before the cancellation, paid by the house"] == D("-25.00")
    assert state["lines"]["… bounty parts of cancelled entries, still to refund"] == D("200.00")
    for refund in cashier_selectors.refunds_due(t):
        cashier.pay_refund(Entry.objects.get(pk=refund["entry"]), method="CASH", actor=Actor(cashier_user, "desk-1"))
    state = recon(t)
    assert state["balanced"], state
    assert psel.bounty_money(t)["borne"] == D("25.00")
