"""A prize paid at the desk the wrong way (REG-06, PAY-13): the API says word for word why (not a
way to pay a prize, above the cash limit, a cheque without its number, a payee who is not the
winner), and a cheque made out to the winner's name, however it is typed, is paid."""

from decimal import Decimal

import pytest

from payouts import services
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry

pytestmark = pytest.mark.django_db
D = Decimal


def test_pay13_a_prize_paid_the_wrong_way_is_refused_in_words(make_tournament, person, make_person, cashier_actor, actor, api, cashier_user):
    t = make_tournament(buy_in=D("1000"), fee=D("100"))
    winner = cashier.register(t, person, method="CARD", actor=cashier_actor).entry
    for _ in range(4):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    services.edit_payout_table(t, [{"place": 1, "amount": "5000"}], actor=actor, reason="winner takes all")
    services.lock_payout_table(t, actor=actor)
    winner.status, winner.place = Entry.BUSTED, 1
    winner.save(update_fields=["status", "place"])
    services.sign_off_ranking(t, actor=actor)
    services.sign_off_ranking(t, actor=Actor(make_user("ctrl", "controller")))

    def pay(**body):
        return api(cashier_user).post("/api/v1/payouts/pay/", {"entry": winner.pk, **body}, format="json")

    r = pay(method="CARD")
    assert (r.status_code, r.json()) == (400, {"code": "bad_payout_method", "detail": "A prize is paid in cash, by cheque or by bank transfer."})
    r = pay(method="CASH")
    assert (r.status_code, r.json()) == (
        409,
        {"code": "cash_limit_exceeded", "detail": "5000.00 EUR is above the cash limit: pay it by cheque or bank transfer in the winner's name."},
    )
    r = pay(method="CHEQUE", reference="  ")
    assert (r.status_code, r.json()) == (400, {"code": "reference_required", "detail": "Enter the cheque number or the transfer reference."})
    r = pay(method="CHEQUE", reference="000123", payee="Luigi Rossi")
    assert (r.status_code, r.json()) == (409, {"code": "payee_mismatch", "detail": "The payee must be the winner, Mario Rossi, as registered."})
    r = pay(method="CHEQUE", reference="000123", payee="  mario   ROSSI ")
    assert r.status_code == 201, r.content
    assert (r.json()["amount"], r.json()["method"], r.json()["reference"]) == ("5000.00", "CHEQUE", "000123")


def test_pay13_a_bust_whose_place_was_paid_is_not_undone_before_the_payment(make_tournament, make_person, cashier_actor, actor, api, director):
    from seating import services as seating
    from seating.models import Bust
    from tournaments.setup import lifecycle

    t = make_tournament(buy_in=D("100"), fee=D("10"))
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    services.edit_payout_table(t, [{"place": 1, "amount": "200"}, {"place": 2, "amount": "100"}], actor=actor, reason="two places")
    services.lock_payout_table(t, actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    seating.record_bust(t, [entries[2].pk], actor=actor)  # 3rd, unpaid
    seating.record_bust(t, [entries[1].pk], actor=actor)  # 2nd: €100
    services.sign_off_ranking(t, actor=actor)
    services.sign_off_ranking(t, actor=Actor(make_user("ctrl", "controller")))
    second = Entry.objects.select_related("person").get(pk=entries[1].pk)
    assert second.place == 2
    services.pay_prize(second, method="CASH", actor=cashier_actor)

    bust = Bust.objects.get(tournament=t, entry=second)
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/busts/{bust.pk}/undo/", {"reason": "wrong player"}, format="json")
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (
        409,
        "prize_paid",
        f"{second.person.full_name} has been paid the prize of place 2: the desk reverses that payment before the bust that decided it is undone.",
    )
    assert Entry.objects.get(pk=second.pk).status == Entry.BUSTED
