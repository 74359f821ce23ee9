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


def test_pay13_a_bust_that_would_share_a_paid_place_in_the_same_hand_for_hand_hand_is_refused_in_words(
    make_tournament, make_person, cashier_actor, actor, api, director, controller_user
):
    """In hand-for-hand, two players out in one hand share 3rd and one of them is paid; a third
    player out in that same hand would make the three share 2nd–3rd. The floor is told why the bust
    is refused (the hand is not over yet), not that a bust is being undone; once the hand is reported
    over at every table, the bust is the next place."""
    from tests.payouts.bounty_setup import bounty_event
    from tournaments.clock import services as clock_services

    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=4, bounty="NONE")  # €200 pool
    clock_services.start_clock(t, actor=actor)
    clock_services.start_hand_for_hand(t, actor=actor, reason="bubble")
    for x in e[:2]:  # the same hand: they share 3rd
        r = api(director).post(f"/api/v1/tournaments/{t.pk}/busts/", {"entries": [{"entry": x.pk}]}, format="json")
        assert r.status_code in (200, 201), r.content
    services.edit_payout_table(
        t, [{"place": 1, "amount": "80"}, {"place": 2, "amount": "60"}, {"place": 3, "amount": "40"}, {"place": 4, "amount": "20"}], actor=actor
    )
    services.lock_payout_table(t, actor=actor)
    services.sign_off_ranking(t, actor=actor)
    services.sign_off_ranking(t, actor=Actor(controller_user))
    paid = Entry.objects.select_related("person").get(pk=e[0].pk)
    services.pay_prize(paid, method="CASH", actor=cashier_actor)

    r = api(director).post(f"/api/v1/tournaments/{t.pk}/busts/", {"entries": [{"entry": e[2].pk}]}, format="json")
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (
        409,
        "prize_paid",
        f"{paid.person.full_name} has been paid the prize of place 3, which this bust would share (the same hand-for-hand hand): "
        "report the hand completed at every table first, or the desk reverses that payment.",
    )
    assert Entry.objects.get(pk=e[2].pk).status == Entry.ACTIVE

    clock_services.h4h_next_hand(t, actor=actor)  # the hand is over at every table: the paid 3rd stands
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/busts/", {"entries": [{"entry": e[2].pk}]}, format="json")
    assert r.status_code in (200, 201), r.content
    assert [Entry.objects.get(pk=x.pk).place for x in e[:3]] == [3, 3, 2]


def test_pay13_a_paid_last_longer_does_not_hold_back_the_undo_of_its_winners_bust(make_tournament, make_person, cashier_actor, actor, api, director):
    """Only a prize of the main ranking holds its place against an undo: Bea, the last of the
    players booked in advance to go out, is paid the Last Longer; her bust undone, she is back in
    play, still the last booked player standing, and the Last Longer paid to her stands."""
    from payouts import selectors as sel
    from seating import services as seating
    from tournaments.setup import lifecycle

    t = make_tournament(buy_in=D("100"), fee=D("10"))
    ada, bea = (
        cashier.pay_reservation(cashier.pre_register(t, make_person(n, "Booked"), actor=cashier_actor), method="CASH", actor=cashier_actor).entry
        for n in ("Ada", "Bea")
    )
    cashier.register(t, make_person("Walt", "Inn"), method="CASH", actor=cashier_actor)
    pool = services.create_side_pool(t, kind="LAST_LONGER", name="Last Longer", actor=actor)
    services.contribute_side_pool(pool, "30", actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    seating.record_bust(t, [ada.pk], actor=actor)
    last = seating.record_bust(t, [bea.pk], actor=actor).busts[0]  # 2nd: the last booked player out
    (award,) = services.award_side_pool(pool, actor=actor)
    bea = Entry.objects.select_related("person").get(pk=bea.pk)
    services.pay_prize(bea, method="CASH", source=f"SIDE:{award.pk}", actor=cashier_actor)

    r = api(director).post(f"/api/v1/tournaments/{t.pk}/busts/{last.pk}/undo/", {"reason": "wrong player"}, format="json")
    assert r.status_code == 200, r.content
    assert (Entry.objects.get(pk=bea.pk).status, Entry.objects.get(pk=ada.pk).place) == (Entry.ACTIVE, 3)
    assert [(d["name"], d["amount"], d["paid"]) for d in sel.dues(t) if d["source"] == f"SIDE:{award.pk}"] == [("Bea Booked", D("30.00"), True)]


def test_pay13_a_first_place_with_a_trophy_and_a_watch_gets_both_handed_over_at_the_desk(
    make_tournament, make_person, cashier_actor, actor, api, director, cashier_user
):
    """The director's table gives 1st place €300, a trophy and a watch (two items for one place).
    Once the ranking is signed, the desk's list shows the winner three lines ready to pay, the
    watch as its own line; the cashier hands over the trophy, then the watch, each on its own,
    and the list then shows all three paid."""
    from seating import services as seating
    from tournaments.setup import lifecycle

    t = make_tournament(buy_in=D("100"), fee=D("0"))
    for _ in range(4):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    table = [
        {"place": 1, "amount": "300"},
        {"place": 2, "amount": "100"},
        {"place": 1, "kind": "ITEM", "amount": "0", "description": "Trophy"},
        {"place": 1, "kind": "ITEM", "amount": "0", "description": "Watch"},
    ]
    services.edit_payout_table(t, table, actor=actor)
    services.lock_payout_table(t, actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()
    while t.entries.filter(status=Entry.ACTIVE).count() > 1:
        seating.record_bust(t, [t.entries.filter(status=Entry.ACTIVE).order_by("number").last().pk], actor=actor)
    services.sign_off_ranking(t, actor=Actor(director))
    services.sign_off_ranking(t, actor=Actor(make_user("ctrl", "controller")))
    winner = t.entries.get(place=1)
    desk = api(cashier_user)

    def winners_lines(query=""):
        r = desk.get(f"/api/v1/payouts/due/?tournament={t.pk}{query}")
        assert r.status_code == 200
        return [(d["kind"], d["amount"], d["description"], d["source"], d["held"], d["released"], d["paid"]) for d in r.json() if d["entry"] == winner.pk]

    assert winners_lines() == [
        ("CASH", "300.00", "", "MAIN:CASH", False, True, False),
        ("ITEM", "0.00", "Trophy", "MAIN:ITEM", False, True, False),
        ("ITEM", "0.00", "Watch", "MAIN:ITEM:2", False, True, False),
    ]
    for source in ("MAIN:ITEM", "MAIN:ITEM:2"):
        r = desk.post("/api/v1/payouts/pay/", {"entry": winner.pk, "source": source, "method": "OTHER"}, format="json")
        assert r.status_code == 201, r.content
        assert (r.json()["kind"], r.json()["amount"]) == ("ITEM", "0.00")
    r = desk.post("/api/v1/payouts/pay/", {"entry": winner.pk, "source": "MAIN:ITEM:2", "method": "OTHER"}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "already_paid")
    assert winners_lines() == [("CASH", "300.00", "", "MAIN:CASH", False, True, False)]
    assert [line[2:4] + line[6:] for line in winners_lines("&all=1")] == [
        ("", "MAIN:CASH", False),
        ("Trophy", "MAIN:ITEM", True),
        ("Watch", "MAIN:ITEM:2", True),
    ]
