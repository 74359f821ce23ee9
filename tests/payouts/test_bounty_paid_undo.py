"""Undo × a bounty already paid (issue 38): an undo never books the bounty's cash into a drawer.

A PKO of 4 × (€50 pool + €50 bounty + €10 fee), half of each knockout in cash: a knockout
pays €25 cash and puts €25 onto the eliminator's head. P2 knocks out P3, then P0 knocks out P1;
the cashier pays P0 his €25 and P2 his €25 in cash at the desk. The director then finds P1's
bust was a mistake: the undo is refused while P0 holds the €25; the cashier takes it back at
the desk (on the cashier's own shift), and then the undo goes through.

Every figure is read as the desk and the director read it: the API's answers, the shift the
desk shows, the bounty overview, the due page.
"""

from decimal import Decimal

import pytest
from django.test import Client

from payouts import selectors as sel
from payouts import services
from payouts.models import BountyAward
from seating import services as seating
from tests.payouts.bounty_setup import bounty_event
from tournaments.cashier import services as cashier
from tournaments.models import Entry, LedgerRow, TournamentEvent

pytestmark = pytest.mark.django_db
D = Decimal


def knock(t, out, by, actor):
    return seating.record_bust(t, [{"entry": out.pk, "eliminators": [by.pk]}], actor=actor).busts[0]


def undo_url(t, bust):
    return f"/api/v1/tournaments/{t.pk}/busts/{bust.pk}/undo/"


def returned_url(t):
    return f"/api/v1/tournaments/{t.pk}/bounties/returned/"


def shift(api, user) -> dict:
    """The shift's totals as the desk reads them (``GET /api/v1/cashier/shift/``)."""
    data = api(user).get("/api/v1/cashier/shift/").json()
    return {"rows": data["rows"], "total": D(data["total"]), **{f"bounty_{k}": D(v) for k, v in data["bounty"].items()}}


def overview(api, user, t) -> dict:
    return api(user).get(f"/api/v1/tournaments/{t.pk}/bounties/").json()


@pytest.fixture
def paid(make_tournament, make_person, cashier_actor, actor, api, cashier_user):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    knock(t, e[3], e[2], actor)
    mistake = knock(t, e[1], e[0], actor)  # the last change at the table: nothing else to undo first
    for winner in (e[0], e[2]):
        r = api(cashier_user).post(f"/api/v1/tournaments/{t.pk}/bounties/pay/", {"entry": winner.pk, "method": "CASH"}, format="json")
        assert r.status_code == 201 and r.json()["amount"] == "25.00", r.json()
    return t, e, mistake


def test_the_undo_of_a_bust_whose_bounty_was_paid_is_refused_until_the_cashier_takes_it_back(paid, api, cashier_user, director):
    t, e, mistake = paid
    # The desk's shift: 4 sales of €110 in cash, two bounties of €25 paid out in cash.
    assert shift(api, cashier_user) == {"rows": 6, "total": D("390"), "bounty_in": D("200"), "bounty_out": D("50"), "bounty_net": D("150")}
    before = overview(api, director, t)

    r = api(director).post(undo_url(t, mistake), {"reason": "wrong player"}, format="json")
    assert r.status_code == 409, r.json()
    body = r.json()
    assert body["code"] == "bounty_paid"
    assert e[0].person.full_name in body["detail"] and "€25.00" in body["detail"] and "Money returned" in body["detail"]
    assert [(p["entry"], p["amount"]) for p in body["paid"]] == [(e[0].pk, "25.00")]
    # Refused: nothing moved, no money in the director's drawer, the bounties as they were.
    assert Entry.objects.get(pk=e[1].pk).status == Entry.BUSTED
    assert shift(api, director) == {"rows": 0, "total": D("0"), "bounty_in": D("0"), "bounty_out": D("0"), "bounty_net": D("0")}
    assert overview(api, director, t) == before

    # P0 hands the €25 back at the desk: the cashier records it.
    r = api(cashier_user).post(returned_url(t), {"award": body["paid"][0]["award"], "reason": "bust undone"}, format="json")
    assert r.status_code == 201, r.json()
    assert (r.json()["amount"], r.json()["method"], r.json()["name"], r.json()["kept_receipt"]) == ("25.00", "CASH", e[0].person.full_name, None)
    # The €25 is in the cashier's drawer: bounties paid out on the shift back to P2's €25, the only one owed for good.
    assert shift(api, cashier_user) == {"rows": 7, "total": D("415"), "bounty_in": D("200"), "bounty_out": D("25"), "bounty_net": D("175")}
    assert shift(api, director)["rows"] == 0
    owed_again = overview(api, director, t)
    assert (owed_again["totals"]["paid_out"], owed_again["totals"]["owed"]) == ("25.00", "25.00")  # P0's 25 is owed again until the undo
    returned = TournamentEvent.objects.get(tournament=t, action="payouts.bounty.returned")
    assert (returned.actor_id, returned.payload["name"], returned.payload["amount"], returned.payload["reason"]) == (
        cashier_user.pk,
        e[0].person.full_name,
        "25.00",
        "bust undone",
    )

    # Now the director's undo goes through and takes back what P1's bust gave.
    r = api(director).post(undo_url(t, mistake), {"reason": "wrong player"}, format="json")
    assert r.status_code == 200, r.json()
    assert Entry.objects.get(pk=e[1].pk).status == Entry.ACTIVE
    after = overview(api, director, t)
    heads = {h["entry"]: h["amount"] for h in after["heads"]}
    assert (heads[e[0].pk], heads[e[1].pk], heads[e[2].pk]) == ("50.00", "50.00", "75.00")  # P0's and P1's heads as bought; P2 50 + 25
    # The dues: nothing owed; €25 paid (P2's), €200 taken in = 25 paid + 175 on the heads.
    assert (after["totals"]["paid_out"], after["totals"]["owed"], after["totals"]["on_heads"]) == ("25.00", "0.00", "175.00")
    assert [(a["winner"], a["paid_receipt"] is not None) for a in after["awards"]] == [(e[2].pk, True)]
    assert shift(api, director)["rows"] == 0  # the undo booked no money anywhere
    assert shift(api, cashier_user)["bounty_out"] == D("25")


def test_the_refusal_reads_in_italian_with_the_amount_as_the_desk_writes_it(paid, api, director):
    t, e, mistake = paid
    r = api(director).post(undo_url(t, mistake), {"reason": "giocatore sbagliato"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 409 and r.json()["code"] == "bounty_paid"
    detail = r.json()["detail"]
    assert f"recuperare 25,00\u00a0€ da {e[0].person.full_name}" in detail and "Denaro restituito" in detail


def test_the_tables_page_says_what_to_recover_and_from_whom(paid, director):
    t, e, mistake = paid
    page = Client()
    page.force_login(director)
    r = page.post(f"/tournaments/{t.pk}/tables/", {"op": "undo_bust", "bust": mistake.pk, "reason": "wrong player"}, follow=True)
    html = r.content.decode()
    assert "already been paid at the desk" in html and e[0].person.full_name in html and "€25.00" in html
    assert Entry.objects.get(pk=e[1].pk).status == Entry.BUSTED


def test_the_winners_own_bounty_paid_keeps_the_last_bust_until_it_is_given_back(make_tournament, make_person, cashier_actor, actor, cashier_user, api):
    # 3 players: P1 out to P0 (25 cash, P0's head 75), P2 out to P0 (25 cash, head 100): P0 is
    # left and takes his own 100. The desk pays him 150 in one payment. Undoing the last bust
    # takes back its knockout (25) and his own bounty (100): 125 to recover; his first 25 stays paid.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=3)
    knock(t, e[1], e[0], actor)
    last = knock(t, e[2], e[0], actor)
    payment = services.pay_bounties(e[0], method="CASH", actor=cashier_actor)
    assert payment.bounty_amount == D("-150")
    r = api(actor.user).post(undo_url(t, last), {"reason": "wrong player"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "bounty_paid", r.json()
    assert sorted(p["amount"] for p in r.json()["paid"]) == ["100.00", "25.00"]
    assert f"€125.00 from {e[0].person.full_name}" in r.json()["detail"]
    for p in r.json()["paid"]:
        assert api(cashier_user).post(returned_url(t), {"award": p["award"], "reason": "last bust undone"}, format="json").status_code == 201
    r = api(actor.user).post(undo_url(t, last), {"reason": "wrong player"}, format="json")
    assert r.status_code == 200, r.json()
    # The desk: 150 paid, 150 and then 125 taken back, 125 and then 25 paid again: 25 out for good.
    assert shift(api, cashier_user)["bounty_out"] == D("25") and shift(api, actor.user)["rows"] == 0
    totals = overview(api, actor.user, t)["totals"]
    assert (totals["paid_out"], totals["owed"], totals["on_heads"]) == ("25.00", "0.00", "125.00")  # P0 75, P2 50


def test_a_bounty_not_paid_has_nothing_to_give_back_and_a_reason_is_needed(paid, api, cashier_user, floor_user, make_tournament):
    t, e, mistake = paid
    award = BountyAward.objects.get(bust=mistake)
    r = api(cashier_user).post(returned_url(t), {"award": award.pk, "reason": " "}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid" and list(r.json()["fields"]) == ["reason"], r.json()
    assert api(floor_user).post(returned_url(t), {"award": award.pk, "reason": "x"}, format="json").status_code == 403
    other = make_tournament(name="Other")
    r = api(cashier_user).post(f"/api/v1/tournaments/{other.pk}/bounties/returned/", {"award": award.pk, "reason": "x"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "award_not_in_tournament" and r.json()["field"] == "award"
    assert api(cashier_user).post(returned_url(t), {"award": award.pk, "reason": "bust undone"}, format="json").status_code == 201
    again = api(cashier_user).post(returned_url(t), {"award": award.pk, "reason": "bust undone"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "bounty_not_paid" and again.json()["detail"]


def test_the_due_page_offers_money_returned_for_each_bounty_paid(paid, cashier_user):
    t, e, mistake = paid
    page = Client()
    page.force_login(cashier_user)
    html = page.get(f"/payouts/due/?t={t.pk}").content.decode()
    award = BountyAward.objects.get(bust=mistake)
    assert f'data-award="{award.pk}"' in html and "Money returned" in html
    assert html.count('class="bounty-paid"') == 2  # P0's and P2's


def test_pay02_a_bounty_payment_reversed_at_the_desk_is_owed_again_while_its_knockout_stands(paid, api, director, actor, cashier_actor):
    # P0's €25 was paid by mistake to the wrong desk: the director reverses the payment's receipt.
    # His knockout of P1 stands: the €25 is owed to him again, P2's €25 stays paid. The money:
    # 200 taken in = 25 paid (P2) + 25 owed (P0) + 150 on the heads (P0 75, P2 75).
    t, e, _mistake = paid
    p0_row = LedgerRow.objects.get(tournament=t, kind=LedgerRow.BOUNTY, entry=e[0])
    p2_row = LedgerRow.objects.get(tournament=t, kind=LedgerRow.BOUNTY, entry=e[2])
    cashier.reverse(p0_row, reason="paid at the wrong desk", actor=actor)
    money = sel.bounty_money(t)
    assert (money["in"], money["paid"], money["owed"], money["on_heads"], money["difference"]) == (D("200"), D("25"), D("25"), D("150"), D("0"))
    assert [(o["entry_id"], o["count"], o["amount"]) for o in sel.bounties_owed(t)] == [(e[0].pk, 1, D("25"))]
    assert [(p["entry_id"], p["amount"], p["receipt"]) for p in sel.bounties_paid(t)] == [(e[2].pk, D("25"), p2_row.receipt_number)]
    data = overview(api, director, t)
    assert [(a["winner"], a["paid_receipt"], a["owed"]) for a in data["awards"]] == [(e[2].pk, p2_row.receipt_number, False), (e[0].pk, None, True)]
    assert (data["totals"]["paid_out"], data["totals"]["owed"]) == ("25.00", "25.00")
    # his phone and his data export: won 25, nothing collected, 25 to collect, no receipt
    assert sel.bounty_parts(t, entries=[e[0].pk]) == {
        e[0].pk: {"bounty": {"kind": "PKO", "head": "75.00", "won": "25.00", "collected": "0.00", "to_collect": "25.00", "knockouts": 1}}
    }
    assert sel.bounties_won([e[0], e[2]]) == {
        e[0].pk: {"won": "25.00", "collected": "0.00", "to_collect": "25.00", "knockouts": 1},
        e[2].pk: {"won": "25.00", "collected": "25.00", "to_collect": "0.00", "knockouts": 1},
    }
    export = sel.bounties_of(e[0].person)
    assert [(b["amount"], b["paid"], b["receipt_number"]) for b in export["bounties"]] == [("25.00", False, None)]
    assert export["bounties_unpaid"] == export["bounties"]
    # The desk pays him again from its list of bounties owed: the new receipt is the one that stands.
    again = services.pay_bounties(sel.bounties_owed(t)[0]["entry"], method="CASH", actor=cashier_actor)
    export = sel.bounties_of(e[0].person)
    assert [(b["paid"], b["receipt_number"]) for b in export["bounties"]] == [(True, again.receipt_number)] and export["bounties_unpaid"] == []
    assert sel.bounties_owed(t) == [] and sel.bounty_money(t)["paid"] == D("50")


def test_pay02_the_desk_lists_the_bounties_paid_newest_payment_first_the_winner_s_own_with_nobody_knocked_out(
    make_tournament, make_person, cashier_actor, actor
):
    # P2 knocks P3 out (25 cash to P2), P0 knocks P1 out (25 to P0), the desk pays P0. P0 knocks
    # P2 out (half of P2's 75 rounded down: 37 cash, 38 onto P0's head: 113) and wins: his own
    # 113 is his. The desk pays P0 his 37 + 113, then P2 his 25: the newest payment first.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    knock(t, e[3], e[2], actor)
    knock(t, e[1], e[0], actor)
    first = services.pay_bounties(e[0], method="CASH", actor=cashier_actor)
    knock(t, e[2], e[0], actor)
    second = services.pay_bounties(e[0], method="CASH", actor=cashier_actor)
    third = services.pay_bounties(e[2], method="CASH", actor=cashier_actor)
    names = {x.pk: x.person.full_name for x in e}
    assert [(p["kind"], p["entry_id"], p["knocked_out_name"], p["amount"], p["receipt"]) for p in sel.bounties_paid(t)] == [
        ("KNOCKOUT", e[2].pk, names[e[3].pk], D("25"), third.receipt_number),
        ("KNOCKOUT", e[0].pk, names[e[2].pk], D("37"), second.receipt_number),
        ("OWN", e[0].pk, "", D("113"), second.receipt_number),
        ("KNOCKOUT", e[0].pk, names[e[1].pk], D("25"), first.receipt_number),
    ]


def test_pay02_a_split_pot_paid_to_two_players_names_each_with_his_money(make_tournament, make_person, cashier_actor, actor, api):
    # A fixed €50 shared equally by P2 and P3 (25 each); the desk pays both. Undoing the bust
    # names each player and the €25 to recover from him, and lists both payments.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED")
    split = seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[2].pk, e[3].pk]}], actor=actor).busts[0]
    receipts = {w.pk: services.pay_bounties(w, method="CASH", actor=cashier_actor).receipt_number for w in (e[2], e[3])}
    r = api(actor.user).post(undo_url(t, split), {"reason": "wrong player"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "bounty_paid", r.json()
    assert f"recover €25.00 from {e[2].person.full_name}, €25.00 from {e[3].person.full_name}. The cashier" in r.json()["detail"]
    assert sorted((p["entry"], p["name"], p["amount"], p["receipt"]) for p in r.json()["paid"]) == [
        (e[2].pk, e[2].person.full_name, "25.00", receipts[e[2].pk]),
        (e[3].pk, e[3].person.full_name, "25.00", receipts[e[3].pk]),
    ]
    assert Entry.objects.get(pk=e[1].pk).status == Entry.BUSTED
