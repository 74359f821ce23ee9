"""Bounties at the cashier desk and in the director's set-up (PAY-02): the pay and read API,
the mystery envelopes, the payouts-due page, the slip and the receipt, the price at the desk.

Every expectation is worked by hand in the comments from the house settings of the test."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from payouts import selectors as sel
from payouts.models import BountyAward
from seating import services as seating
from tests.payouts.bounty_setup import bounty_event
from tournaments.cashier import services as cashier
from tournaments.house import HouseRules
from tournaments.models import LedgerRow, Tournament

pytestmark = pytest.mark.django_db
D = Decimal


def knock(t, out, by, actor):
    return seating.record_bust(t, [{"entry": out.pk, "eliminators": [by.pk]}], actor=actor)


def web(user):
    client = Client()
    client.force_login(user)
    return client


def pay_url(t):
    return f"/api/v1/tournaments/{t.pk}/bounties/pay/"


# --- paying through the API -------------------------------------------------------------------


def test_the_desk_pays_a_players_bounties_in_cash_with_a_receipt(api, make_tournament, make_person, cashier_actor, actor, cashier_user):
    # FIXED €50: A knocks out 1 and 2: €100 owed to A.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED")
    knock(t, e[1], e[0], actor)
    knock(t, e[2], e[0], actor)
    r = api(cashier_user).post(pay_url(t), {"entry": e[0].pk, "method": "CASH"}, format="json")
    assert r.status_code == 201
    assert r.data["amount"] == "100.00" and r.data["method"] == "CASH" and len(r.data["awards"]) == 2
    row = LedgerRow.objects.get(receipt_number=r.data["receipt_number"])
    assert (row.kind, row.bounty_amount, row.entry_id) == (LedgerRow.BOUNTY, D("-100.00"), e[0].pk)
    again = api(cashier_user).post(pay_url(t), {"entry": e[0].pk, "method": "CASH"}, format="json")
    assert again.status_code == 409 and again.data["code"] == "no_bounty_owed" and again.data["detail"]


def test_cash_over_the_limit_is_refused_and_a_transfer_needs_its_reference(api, make_tournament, make_person, cashier_actor, actor, cashier_user):
    # Cash limit €40, €50 owed: cash refused; a transfer without a reference refused; with one paid.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED")
    Tournament.objects.filter(pk=t.pk).update(cash_limit=D("40"))
    knock(t, e[1], e[0], actor)
    r = api(cashier_user).post(pay_url(t), {"entry": e[0].pk, "method": "CASH"}, format="json")
    assert r.status_code == 409 and r.data["code"] == "cash_limit_exceeded"
    r = api(cashier_user).post(pay_url(t), {"entry": e[0].pk, "method": "TRANSFER"}, format="json")
    assert r.status_code == 400 and r.data["code"] == "reference_required"
    r = api(cashier_user).post(pay_url(t), {"entry": e[0].pk, "method": "TRANSFER", "reference": "TRX-77"}, format="json")
    assert r.status_code == 201 and r.data["amount"] == "50.00" and r.data["reference"] == "TRX-77"
    assert LedgerRow.objects.get(receipt_number=r.data["receipt_number"]).method == "TRANSFER"


def test_a_repeated_idempotency_key_pays_once_and_answers_the_same_receipt(api, make_tournament, make_person, cashier_actor, actor, cashier_user):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED")
    knock(t, e[1], e[0], actor)
    client = api(cashier_user)
    first = client.post(pay_url(t), {"entry": e[0].pk, "method": "CASH"}, format="json", HTTP_IDEMPOTENCY_KEY="bounty-1")
    second = client.post(pay_url(t), {"entry": e[0].pk, "method": "CASH"}, format="json", HTTP_IDEMPOTENCY_KEY="bounty-1")
    assert first.status_code == second.status_code == 201
    assert first.data["receipt_number"] == second.data["receipt_number"]
    assert LedgerRow.objects.filter(tournament=t, kind=LedgerRow.BOUNTY).count() == 1


def test_only_the_desk_and_the_director_pay_and_an_entry_of_another_tournament_is_refused(
    api, make_tournament, make_person, cashier_actor, actor, floor_user, cashier_user
):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED")
    knock(t, e[1], e[0], actor)
    assert api(floor_user).post(pay_url(t), {"entry": e[0].pk, "method": "CASH"}, format="json").status_code == 403
    other = make_tournament(name="Other")
    r = api(cashier_user).post(pay_url(other), {"entry": e[0].pk, "method": "CASH"}, format="json")
    assert r.status_code == 400 and r.data["code"] == "entry_not_in_tournament" and r.data["field"] == "entry"
    r = api(cashier_user).post(pay_url(t), {"entry": e[0].pk, "method": "CARD"}, format="json")
    assert r.status_code == 400  # bounties are paid in cash, by cheque or by transfer


# --- reading a bounty event -------------------------------------------------------------------


def test_the_bounties_of_a_small_pko_add_up_by_hand(api, make_tournament, make_person, cashier_actor, actor, cashier_user, display_user):
    # PKO, €50 bounty, 50 % cash, €1 rounding, 4 players: €200 taken in.
    # entries[1] out to A = entries[0]: 25 cash to A, 25 onto his head (75).
    # entries[2] out to D = entries[3]: 25 cash to D, his head 75. A collects his 25 at the desk.
    # 200 taken in = 25 paid out + 25 owed (D) + 150 on the heads of A and D.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    knock(t, e[1], e[0], actor)
    knock(t, e[2], e[3], actor)
    api(cashier_user).post(pay_url(t), {"entry": e[0].pk, "method": "CASH"}, format="json")
    r = api(cashier_user).get(f"/api/v1/tournaments/{t.pk}/bounties/")
    assert r.status_code == 200
    assert r.data["settings"]["kind"] == "PKO" and r.data["settings"]["bounty_part"] == "50.00" and r.data["settings"]["cash_percent"] == "50"
    assert r.data["totals"] == {
        "taken_in": "200.00",
        "paid_out": "25.00",
        "owed": "25.00",
        "on_heads": "150.00",
        "envelopes_left": "0.00",
        "house": "0.00",
        "carried_over": "0.00",
        "to_refund": "0.00",
    }
    heads = {h["entry"]: h["amount"] for h in r.data["heads"]}
    assert heads == {e[0].pk: "75.00", e[3].pk: "75.00"}
    awards = [(a["winner"], a["knocked_out"], a["cash"], a["added"], a["owed"], a["paid_receipt"] is not None) for a in r.data["awards"]]
    assert awards == [(e[0].pk, e[1].pk, "25.00", "25.00", False, True), (e[3].pk, e[2].pk, "25.00", "25.00", True, False)]
    assert api(display_user).get(f"/api/v1/tournaments/{t.pk}/bounties/").status_code == 403  # money and names: staff only


def test_the_bounty_overview_reads_as_many_queries_for_8_players_as_for_4(make_tournament, make_person, cashier_actor, actor):
    def queries(players):
        t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=players)
        for loser in e[1 : players // 2 + 1]:
            knock(t, loser, e[0], actor)
        t = Tournament.objects.get(pk=t.pk)
        with CaptureQueriesContext(connection) as done:
            overview = sel.bounty_overview(t)
        assert len(overview["awards"]) == players // 2 and len(overview["heads"]) == players - players // 2
        return len(done.captured_queries)

    assert queries(4) == queries(8) <= 4


# --- mystery envelopes ------------------------------------------------------------------------


def test_the_director_fills_the_envelopes_to_the_bounty_money(api, make_tournament, make_person, cashier_actor, actor, director, cashier_user):
    # 4 × €50 = €200 taken in: 100 + 50 is refused, 100 + 50 + 30 + 20 is the bag.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="MYSTERY", mystery_from="START")
    url = f"/api/v1/tournaments/{t.pk}/bounties/envelopes/"
    assert api(cashier_user).post(url, {"envelopes": ["200.00"]}, format="json").status_code == 403
    r = api(director).post(url, {"envelopes": ["100.00", "50.00"]}, format="json")
    assert r.status_code == 409 and r.data["code"] == "envelopes_total" and "200" in r.data["detail"]
    r = api(director).post(url, {"envelopes": ["100.00", "50.00", "30.00", "20.00"]}, format="json")
    assert r.status_code == 200
    assert r.data["envelopes"] == {"count": 4, "total": "200.00", "left": 4, "left_amount": "200.00"}
    knock(t, e[1], e[0], actor)
    drawn = BountyAward.objects.get(knocked_out=e[1])
    r = api(director).get(f"/api/v1/tournaments/{t.pk}/bounties/")
    assert r.data["envelopes"]["left"] == 3 and D(r.data["envelopes"]["left_amount"]) == D("200") - drawn.cash
    assert r.data["awards"][0]["envelope"] == drawn.envelope and r.data["totals"]["owed"] == f"{drawn.cash:.2f}"
    r = api(director).post(url, {"envelopes": ["200.00"]}, format="json")
    assert r.status_code == 409 and r.data["code"] == "envelopes_drawn"


def test_envelopes_are_refused_outside_a_mystery_event(api, make_tournament, make_person, cashier_actor, actor, director):
    t, _e = bounty_event(make_tournament, make_person, cashier_actor, actor)
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/bounties/envelopes/", {"envelopes": ["200.00"]}, format="json")
    assert r.status_code == 409 and r.data["code"] == "not_mystery"
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/bounties/envelopes/", {"envelopes": []}, format="json")
    assert r.status_code == 400 and "envelopes" in str(r.data)


def test_the_payouts_page_shows_the_bounty_money_and_sets_the_envelopes(make_tournament, make_person, cashier_actor, actor, director):
    t, _e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="MYSTERY", mystery_from="START")
    page = web(director).get(f"/tournaments/{t.pk}/payouts/").content.decode()
    assert 'id="envelopes-form"' in page and 'id="bounty-taken-in">€200.00' in page
    web(director).post(f"/tournaments/{t.pk}/payouts/", {"op": "envelopes", "envelopes": "2 x 50\n60 40"})
    t.refresh_from_db()
    assert t.settings["mystery_envelopes"] == ["50.00", "50.00", "60.00", "40.00"]
    page = web(director).get(f"/tournaments/{t.pk}/payouts/").content.decode()
    assert "4 envelopes, €200.00; left in the bag: 4 (€200.00)." in page


# --- the desk's page, the slip and the receipt -----------------------------------------------


def test_the_due_page_lists_the_bounties_owed_and_the_api_pays_them(api, make_tournament, make_person, cashier_actor, actor, cashier_user):
    # FIXED €50: A knocks out two players: one line, 2 bounties, €100.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED")
    knock(t, e[1], e[0], actor)
    knock(t, e[2], e[0], actor)
    page = web(cashier_user).get(f"/payouts/due/?t={t.pk}").content.decode()
    name = e[0].person.full_name
    assert 'class="bounty-due"' in page and f'data-entry="{e[0].pk}" data-tournament="{t.pk}" data-name="{name}"' in page
    assert "€100.00" in page and 'form class="pay bounty row"' in page
    due = api(cashier_user).get(f"/api/v1/payouts/due/?tournament={t.pk}").data
    assert [(d["kind"], d["entry"], d["amount"], d["bounties"]) for d in due] == [("BOUNTY", e[0].pk, "100.00", 2)]
    r = api(cashier_user).post(due[0]["pay_url"], {"entry": e[0].pk, "method": "CASH"}, format="json")
    assert r.status_code == 201
    page = web(cashier_user).get(f"/payouts/due/?t={t.pk}").content.decode()
    assert 'class="bounty-due"' not in page


def test_the_slip_and_the_receipt_show_the_bounties_paid(api, make_tournament, make_person, cashier_actor, actor, cashier_user):
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="FIXED")
    knock(t, e[1], e[0], actor)
    paid = api(cashier_user).post(pay_url(t), {"entry": e[0].pk, "method": "CASH"}, format="json").data
    number = paid["receipt_number"]
    slip = web(cashier_user).get(paid["slip_url"]).content.decode()
    assert f"Knocked out {e[1].person.full_name}" in slip and 'id="slip-amount">€50.00' in slip
    pdf = web(cashier_user).get(paid["slip_pdf_url"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert api(cashier_user).get(f"/api/v1/payouts/slips/{number}/").data["amount"] == "50.00"
    receipt = web(cashier_user).get(f"/desk/receipt/{number}/").content.decode()
    assert 'id="receipt-bounty-label">Bounties won' in receipt and 'id="receipt-bounty">-€50.00' in receipt
    assert 'id="receipt-price-label"' not in receipt  # no buy-in on a bounty payment


def test_a_sale_receipt_and_the_desk_show_buy_in_bounty_and_fee(make_tournament, make_person, cashier_actor, cashier_user):
    # €50 + €50 bounty + €10 fee = €110 at the desk.
    t = make_tournament(buy_in=D("50"), fee=D("10"), settings={"bounty": "PKO", "bounty_amount": "50"})
    sale = cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    receipt = web(cashier_user).get(f"/desk/receipt/{sale.row.receipt_number}/").content.decode()
    assert 'id="receipt-bounty-label">Bounty</dt><dd id="receipt-bounty">€50.00' in receipt
    assert 'id="receipt-total">€110.00' in receipt
    desk = web(cashier_user).get(f"/desk/?t={t.pk}").content.decode()
    assert 'data-price="110.00"' in desk and "50.00 + 50.00 bounty + €10.00" in desk


# --- the director's set-up --------------------------------------------------------------------


def edit_form(t, **changes):
    """The tournament page's form as a browser sends it, with ``changes``."""
    data = {
        "name": t.name,
        "start_at": t.start_at.strftime("%Y-%m-%dT%H:%M"),
        "game": t.game,
        "format": t.format,
        "currency": t.currency,
        "buy_in": "50",
        "starting_stack": t.starting_stack,
        "table_size": t.table_size,
        "min_players": t.min_players,
        "structure": t.structure_id,
        "max_entries_per_player": t.max_entries_per_player,
        "late_reg_end": "END_OF_LEVEL",
        "rebuy_fee": "0",
        "rebuy_stack_threshold": "0",
        "addon_fee": "0",
        "addon_max": "1",
        "fee_preset": "STATUTORY",
        "rule_set": t.rule_set,
        "bounty": "NONE",
        "bounty_amount": "0",
        "bounty_cash_percent": "50",
        "bounty_split": "EQUAL",
        "bounty_remainder": "FIRST",
        "bounty_rounding": "1",
        "mystery_from": "ITM",
        "mystery_leftover": "WINNER",
        "bounty_in_deal": "APART",
    }
    data.update(changes)
    return data


def test_the_director_sets_a_pko_up_on_the_tournament_page(make_tournament, director):
    t = make_tournament(buy_in=D("50"), fee=D("5"), status=Tournament.PLANNED)
    r = web(director).post(f"/tournaments/{t.pk}/edit/", edit_form(t, bounty="PKO", bounty_amount="50", bounty_cash_percent="40", bounty_split="POT"))
    assert r.status_code == 302, r.content.decode()
    t.refresh_from_db()
    rules = HouseRules.of(t)
    assert (rules.bounty, rules.bounty_part, rules.bounty_cash_percent, rules.bounty_split) == ("PKO", D("50.00"), D("40"), "POT")
    page = web(director).get(f"/tournaments/{t.pk}/edit/").content.decode()
    assert '<option value="PKO" selected>' in page


def test_the_page_refuses_a_bounty_on_a_rebuy_tournament_and_one_without_its_part(make_tournament, director):
    t = make_tournament(buy_in=D("50"), fee=D("5"), status=Tournament.PLANNED)
    rebuy = edit_form(t, format="REBUY", max_entries_per_player=1, rebuy_price="50", rebuy_fee="5", rebuy_chips="30000", bounty="PKO", bounty_amount="50")
    r = web(director).post(f"/tournaments/{t.pk}/edit/", rebuy)
    assert r.status_code == 200
    assert r.context["form"].errors["bounty"] and "rebuy tournament cannot be a bounty event" in str(r.context["form"].errors["bounty"])
    r = web(director).post(f"/tournaments/{t.pk}/edit/", edit_form(t, bounty="FIXED", bounty_amount="0"))
    assert r.status_code == 200 and "needs its bounty part" in str(r.context["form"].errors["bounty"])
    r = web(director).post(f"/tournaments/{t.pk}/edit/", edit_form(t, bounty="PKO", bounty_amount="50", bounty_cash_percent="150"))
    assert r.status_code == 200 and r.context["form"].errors["bounty_cash_percent"]
    t.refresh_from_db()
    assert "bounty" not in (t.settings or {})


def test_the_api_refuses_a_bounty_on_a_rebuy_tournament_naming_the_settings(api, make_tournament, director):
    t = make_tournament(status=Tournament.PLANNED, format=Tournament.REBUY, rebuy_price=D("100"), rebuy_fee=D("10"), rebuy_chips=30000)
    r = api(director).patch(f"/api/v1/tournaments/{t.pk}/", {"settings": {"bounty": "PKO", "bounty_amount": "50"}}, format="json")
    assert r.status_code == 400 and "settings" in str(r.data) and "rebuy" in str(r.data)


def test_the_bounty_cannot_change_once_the_tournament_has_sales(api, make_tournament, make_person, cashier_actor, director):
    t = make_tournament(buy_in=D("50"), fee=D("10"), settings={"bounty": "PKO", "bounty_amount": "50"})
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    r = api(director).patch(f"/api/v1/tournaments/{t.pk}/", {"settings": {"bounty": "PKO", "bounty_amount": "60"}}, format="json")
    assert r.status_code == 409 and r.data["code"] == "bounty_locked"


def test_the_envelopes_refusal_writes_the_money_as_italian_reads_it(api, make_tournament, make_person, cashier_actor, actor, director):
    # Issue #39: "sommano €150.00 … è 200 EUR" — the amounts went out as Python wrote them.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, bounty="MYSTERY", mystery_from="START")
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/bounties/envelopes/", {"envelopes": ["100", "50"]}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 409
    assert r.json()["detail"] == "Le buste sommano a 150,00\u00a0€; il denaro delle taglie incassato è 200,00\u00a0€."
