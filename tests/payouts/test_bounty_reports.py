"""The bounty money in every total, report and reconciliation (PAY-02): kept apart from the prize
pool and the house fee, and accounted for to the cent.

One small PKO worked by hand. House settings: bounty PKO €40, half of each eliminator's part in
cash rounded down to €10, a split pot shared by the pot, the remainder to the house. Each sale is
€60 to the pool + €40 bounty + €10 fee = €110.

* Cashier A sells six entries P0..P5 in cash, and a seventh (P6) by mistake, reversed.
* The director starts. P1 is knocked out by P0: head 40 → 20 cash to P0, 20 onto P0's head (60).
* Cashier B sells P1 a re-entry by card (a new head of 40).
* P2 is knocked out by P3: 20 cash to P3, P3's head 60.
* B pays P0 his 20 in cash, then P3 his 20 in cash; P3 gives his 20 back at B's desk (B records
  it: P3's payment reversed on B's shift) and the director undoes P2's bust: P3's head back to
  40, P2's head back to 40.
* P0 (head 60) is knocked out by P4 and P5 splitting the pot 3:2: 36 and 24 rounded down to €10
  → 30 and 20, €10 to the house. P4: 15 → 10 cash, 20 onto his head (60); P5: 10 cash, 10 onto
  his head (50).

Where the bounty money is: taken in 6 × 40 (A) + 40 (B) = 280; paid 20 (P0; P3's reversed);
owed 10 (P4) + 10 (P5) = 20; on the heads: P1's re-entry 40 + P2 40 + P3 40 + P4 60 + P5 50 = 230;
the house 10. 20 + 20 + 230 + 10 = 280: balanced.
"""

from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from payouts import reports, services
from payouts import selectors as sel
from payouts.models import BountyAward, BountyHead
from seating import services as seating
from tdmanager.errors import DomainError
from tests.conftest import client_for, make_user
from tests.payouts.reconciliation_rows import BOUNTY_IN, expected
from tests.payouts.test_reports_italian import pdf_text
from tournaments.cashier import selectors as cashier_selectors
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import LedgerRow, Person
from tournaments.oversight import services as oversight
from tournaments.people import privacy
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal

SETTINGS = {"bounty": "PKO", "bounty_amount": "40", "bounty_rounding": "10", "bounty_split": "POT", "bounty_remainder": "HOUSE"}
# How the desk's overview and the settings read show those settings, the house's defaults filled in.
PKO_SETTINGS_SHOWN = {
    "kind": "PKO",
    "bounty_part": "40.00",
    "cash_percent": "50",
    "split": "POT",
    "remainder": "HOUSE",
    "rounding": "10",
    "mystery_from": "ITM",
    "mystery_leftover": "WINNER",
    "bounty_in_deal": "APART",
}


@pytest.fixture
def cashier_b(db):
    return Actor(make_user("bea", "cashier"), "desk-2")


@pytest.fixture
def pko(make_tournament, make_person, cashier_actor, cashier_b, actor):
    t = make_tournament(buy_in=D("60"), fee=D("10"), max_entries_per_player=2, settings=SETTINGS)
    people = [make_person(f"Player{i}", "Bounty") for i in range(7)]
    e = [cashier.register(t, p, method="CASH", actor=cashier_actor).entry for p in people]
    cashier.reverse(e[6].ledger.get(), reason="sold twice", actor=cashier_actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    reentry = cashier.reenter(t, people[1], method="CARD", actor=cashier_b).entry
    undone = seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[3].pk]}], actor=actor).busts[0]
    paid = services.pay_bounties(e[0], method="CASH", actor=cashier_b)
    taken_back = services.pay_bounties(e[3], method="CASH", actor=cashier_b)
    services.return_bounty(taken_back.bounty_awards.get(), reason="bust undone", actor=cashier_b)
    seating.undo_bust(t, undone, actor=actor, reason="wrong player")
    split = [{"entry": e[4].pk, "pot_share": 3000}, {"entry": e[5].pk, "pot_share": 2000}]
    seating.record_bust(t, [{"entry": e[0].pk, "eliminators": split}], actor=actor)
    t.refresh_from_db()
    return {"t": t, "e": e, "people": people, "reentry": reentry, "paid": paid, "taken_back": taken_back}


def running(make_tournament, make_person, cashier_actor, actor, players, **event):
    """An event started with ``players`` entries sold in cash: (the event, its entries)."""
    t = make_tournament(**event)
    e = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(players)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    return t, e


def line(data, label):
    values = [v for name, v in data["lines"] if str(name) == label]
    assert len(values) == 1, label
    return values[0]


def test_the_knockouts_left_the_heads_and_awards_worked_out_by_hand(pko):
    e = pko["e"]
    heads = {x.pk: BountyHead.objects.get(entry=x).amount for x in e}
    assert [heads[x.pk] for x in e] == [0, 0, D("40"), D("40"), D("60"), D("50"), 0]
    assert BountyHead.objects.get(entry=pko["reentry"]).amount == D("40")
    assert pko["taken_back"].is_reversed and not LedgerRow.objects.get(pk=pko["paid"].pk).is_reversed


def test_each_cashiers_shift_tells_the_bounty_money_apart(pko, cashier_actor, cashier_b, actor):
    a = cashier_selectors.shift_totals(cashier_actor.user)
    # A: 7 sales and 1 reversal in cash: 6 × 110 = 660, of which 6 × 40 = 240 bounty parts.
    assert [(m["method"], m["rows"], m["total"]) for m in a["by_method"]] == [("CASH", 8, D("660"))]
    assert (a["total"], a["bounty"]) == (D("660"), {"in": D("240"), "out": D("0"), "net": D("240")})
    b = cashier_selectors.shift_totals(cashier_b.user)
    # B: the re-entry by card 110 (bounty 40); two bounty payments in cash, 20 + 20 out, and
    # P3's 20 taken back into B's drawer (the reversal of his payment): 20 out for good.
    assert [(m["method"], m["rows"], m["total"]) for m in b["by_method"]] == [("CARD", 1, D("110")), ("CASH", 3, D("-20"))]
    assert (b["total"], b["bounty"]) == (D("90"), {"in": D("40"), "out": D("20"), "net": D("20")})
    # The director's undo moved no money: nothing on his shift.
    d = cashier_selectors.shift_totals(actor.user)
    assert (d["rows"], d["total"], d["bounty"]) == (0, D("0"), {"in": D("0"), "out": D("0"), "net": D("0")})
    # The drawers together: 660 + 90 = 750 = 770 taken − 20 paid out for good.
    assert a["total"] + b["total"] + d["total"] == D("750")


def test_the_desk_shows_the_shift_bounty_lines(pko, cashier_b):
    api = client_for(cashier_b.user).get("/api/v1/cashier/shift/").json()
    assert {k: D(v) for k, v in api["bounty"].items()} == {"in": D("40"), "out": D("20"), "net": D("20")}
    page = Client()
    page.force_login(cashier_b.user)
    html = page.get("/desk/").content.decode()
    assert "of which bounty parts taken in" in html and "of which bounties paid out" in html


def test_the_ledger_totals_and_the_tournament_page_keep_the_bounty_apart(pko, director):
    t = pko["t"]
    totals = cashier_selectors.ledger_totals(t)
    # 7 × 60 to the pool, 7 × 10 fees; bounty parts 280 in, 20 paid out for good.
    assert (totals["prize"], totals["fee"], totals["bounty"], totals["bounty_paid"]) == (D("420"), D("70"), D("280"), D("20"))
    page = Client()
    page.force_login(director)
    html = page.get(f"/tournaments/{t.pk}/").content.decode()
    assert html.split('id="bounty-collected">')[1].split("<")[0] == "€280.00"
    assert html.split('id="bounty-paid">')[1].split("<")[0] == "€20.00"


def test_the_reconciliation_accounts_for_every_bounty_cent(pko):
    t = pko["t"]
    data = reports.reconciliation_data(t)
    assert line(data, "Money in: bounty parts (apart from the prize pool)") == D("280")
    # 420 prize parts + 70 fees + 280 bounty parts (no side pool, no jackpot)
    assert line(data, "Money in: total") == D("770")
    assert line(data, "Bounty money taken in (apart from the prize pool)") == D("280")
    assert line(data, "… bounties paid out") == D("20")
    assert line(data, "… bounties won, not yet collected") == D("20")
    assert line(data, "… still on the heads of the players in") == D("230")
    assert line(data, "… bounties kept by the house") == D("10")
    assert line(data, "Bounty difference not explained") == D("0")
    assert data["bounty_difference"] == 0 and data["in_difference"] == 0 and data["balanced"]
    # The prize pool is the prize parts alone: 7 × 60.
    assert line(data, "Prize pool") == D("420")


def test_a_bounty_cent_that_went_missing_is_flagged(pko):
    t, e = pko["t"], pko["e"]
    BountyHead.objects.filter(entry=e[5]).update(amount=D("49.99"))  # a cent lost off P5's head
    data = reports.reconciliation_data(t)
    assert data["bounty_difference"] == D("0.01") and not data["balanced"]
    assert line(data, "Bounty difference not explained") == D("0.01")
    report = reports.reconciliation(t)
    assert report["totals"][0][1] == "NOT balanced: see the difference."
    assert any("0.01 of the bounty money taken in is not explained" in r[0] for r in report["rows"])


def test_the_reconciliation_csv_and_pdf_carry_the_bounty_lines(pko):
    report = reports.reconciliation(pko["t"])
    csv = reports.to_csv(report)
    for text in (
        "Bounty money taken in (apart from the prize pool),280.00",
        "… bounties paid out,20.00",
        '"… bounties won, not yet collected",20.00',  # quoted: the label has a comma
        "… still on the heads of the players in,230.00",
        "… bounties kept by the house,10.00",
        "Bounty difference not explained,0.00",
    ):
        assert text in csv
    text = pdf_text(reports.to_pdf(report))
    assert "Bounty money taken in" in text and "still on the heads of the players in" in text


def test_the_payments_report_lists_bounty_payments_apart_from_prizes(pko):
    report = reports.payments(pko["t"])
    bounty_rows = [r for r in report["rows"] if r[4] == "Bounty"]
    # P0's 20 (standing) and P3's 20 (given back: reversed), both paid by cashier B in cash
    assert [(r[2], r[5], r[6], r[9], r[10]) for r in bounty_rows] == [
        ("Player0 Bounty", "20.00", "Cash", "bea", ""),
        ("Player3 Bounty", "20.00", "Cash", "bea", "reversed"),
    ]
    totals = dict((str(k), v) for k, v in report["totals"])
    assert (totals["Paid"], totals["Payments"]) == ("0.00", "0")  # no prize paid yet
    assert (totals["Bounties paid (apart from the prizes)"], totals["Bounty payments"]) == ("20.00", "1")
    assert "Bounty,20.00,Cash" in reports.to_csv(report)


def test_the_prestart_report_and_its_addendum_have_a_bounty_column(pko, actor):
    t = pko["t"]
    pre = reports.prestart(t)
    col = [str(c) for c in pre["columns"]]
    assert col[6:12] == ["Buy-in", "Fee", "Jackpot", "Bounty", "Amount", "Owed"]
    first = next(r for r in pre["rows"] if r[3] == "Player0 Bounty")
    assert first[6:12] == ["60.00", "10.00", "0.00", "40.00", "110.00", "0.00"]  # 60 + 10 + 40 = 110
    totals = dict((str(k), v) for k, v in pre["totals"])
    # before the start: 7 sales and 1 reversal: 6 × 60, 6 × 40, 6 × 110
    assert (totals["Total buy-ins"], totals["Total bounty parts (apart from the prize pool)"], totals["Total"]) == ("360.00", "240.00", "660.00")
    # after the start: the re-entry only (the bounty payments and their reversal are no stubs)
    issued = oversight.issue_stub_addendum(t, actor=actor)
    assert (issued.stubs, issued.total) == (1, D("110"))
    add = reports.addendum(t, 1)
    assert [r[5] for r in add["rows"]] == ["Re-entry"]
    totals = dict((str(k), v) for k, v in add["totals"])
    assert (totals["Total buy-ins"], totals["Total bounty parts (apart from the prize pool)"], totals["Total"]) == ("60.00", "40.00", "110.00")
    assert "Total bounty parts (apart from the prize pool),40.00" in reports.to_csv(add)


@pytest.mark.parametrize("show", ["NET", "GROSS", "BOTH"])
def test_the_gross_and_net_pool_leave_the_bounty_money_out(pko, show):
    t = pko["t"]
    t.settings = {**t.settings, "display_pool": show}
    t.save()
    s = sel.display_summary(t)
    # No deductions: gross = net = 7 × 60; the bounty money (280) beside it, never in it.
    assert s["prize_pool"] == "420.00" and s["bounty_money"] == "280.00"
    assert {s["prize_pool_gross"], s["prize_pool_net"]} - {None} == {"420.00"}
    assert sel.money_in(t) == {"prize": D("420"), "fee": D("70"), "side": D("0")}


def test_a_pool_with_deductions_is_worked_from_the_prize_parts_alone(make_tournament, make_person, cashier_actor):
    # 5 × (100 + 40 bounty + 10): gross 500, 4 % staff fee 20, net 480, whatever the bounty.
    t = make_tournament(buy_in=D("100"), deductions=[{"name": "staff service", "percent": "4"}], settings={**SETTINGS, "display_pool": "BOTH"})
    for _ in range(5):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    s = sel.display_summary(t)
    assert (s["prize_pool_gross"], s["prize_pool_net"], s["bounty_money"]) == ("500.00", "480.00", "200.00")


def test_the_payouts_page_shows_the_bounty_money_apart(pko, director):
    page = Client()
    page.force_login(director)
    html = page.get(f"/tournaments/{pko['t'].pk}/payouts/").content.decode()
    assert 'id="bounty-money"' in html and "apart from the prize pool" in html


def test_the_person_export_lists_the_bounties_won_and_paid(pko, director):
    e, people = pko["e"], pko["people"]
    data = privacy.person_data(Person.objects.get(pk=people[0].pk))
    assert [(b["kind"], b["amount"], b["paid"], b["receipt_number"]) for b in data["bounties"]] == [("KNOCKOUT", "20.00", True, pko["paid"].receipt_number)]
    assert data["bounties_unpaid"] == []
    assert any(r["kind"] == "BOUNTY" and r["bounty_amount"] == "-20.00" for r in data["ledger"])
    p4 = privacy.person_data(Person.objects.get(pk=people[4].pk))
    assert [(b["amount"], b["paid"], b["knocked_out_entry"]) for b in p4["bounties_unpaid"]] == [("10.00", False, e[0].pk)]
    assert privacy.person_data(Person.objects.get(pk=people[3].pk))["bounties"] == []  # his bounty was undone


def test_an_erasure_waits_for_a_bounty_owed(make_tournament, make_person, cashier_actor, actor, api, director):
    # FIXED €40, 3 players: P1 out to P0 (40 owed to P0), then P0 out to P2: P0 is out with 40 owed.
    t = make_tournament(buy_in=D("60"), fee=D("10"), settings={"bounty": "FIXED", "bounty_amount": "40"})
    people = [make_person() for _ in range(3)]
    e = [cashier.register(t, p, method="CASH", actor=cashier_actor).entry for p in people]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[0].pk, "eliminators": [e[2].pk]}], actor=actor)
    r = api(director).post(f"/api/v1/people/{people[0].pk}/erase/", {"reason": "asked"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "person_bounty_due"
    services.pay_bounties(e[0], method="CASH", actor=cashier_actor)
    assert privacy.erasure_refusal(Person.objects.get(pk=people[0].pk)) is None


def test_a_cancelled_pko_refunds_the_bounty_parts_and_says_so(make_tournament, make_person, cashier_actor, actor):
    # 2 × 110 sold; cancelled: each is owed his 110 back, bounty part included; 80 still to refund.
    t = make_tournament(buy_in=D("60"), fee=D("10"), settings=SETTINGS)
    e = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(2)]
    lifecycle.cancel(t, actor=actor, reason="storm")
    assert [d["amount"] for d in cashier_selectors.refunds_due(t)] == [D("110"), D("110")]
    money = sel.bounty_money(t)
    assert (money["in"], money["on_heads"], money["to_refund"], money["difference"]) == (D("80"), D("0"), D("80"), D("0"))
    totals = sel.bounty_overview(t)["totals"]
    assert (totals["taken_in"], totals["on_heads"], totals["to_refund"]) == ("80.00", "0.00", "80.00")  # the desk's overview says the same
    assert sel.bounty_settings(t) == PKO_SETTINGS_SHOWN
    row = cashier.pay_refund(e[0], method="CASH", actor=cashier_actor)
    assert (row.total, row.bounty_amount) == (D("-110"), D("-40"))
    money = sel.bounty_money(t)
    assert (money["in"], money["to_refund"], money["difference"]) == (D("40"), D("40"), D("0"))


def test_a_refund_gives_back_what_was_paid_never_the_bounties_collected(pko, actor):
    # P3's bounty payment was reversed: his entry's ledger nets 110 paid; the refund is 110.
    t, e = pko["t"], pko["e"]
    row = cashier.refund(e[3], reason="taken ill", actor=actor, method="CASH")
    assert (row.total, row.bounty_amount) == (D("-110"), D("-40"))
    with pytest.raises(DomainError):
        cashier.refund(e[3], reason="again", actor=actor, method="CASH")
    # his head (40) went back with his money: 240 in = 20 paid + 20 owed + 190 on heads + 10 house
    money = sel.bounty_money(t)
    assert (money["in"], money["on_heads"], money["difference"]) == (D("240"), D("190"), D("0"))


def test_the_bounty_lines_read_in_italian(pko):
    with translation.override("it"):
        csv = reports.to_csv(reports.reconciliation(pko["t"]))
    assert "Denaro delle taglie incassato (separato dal montepremi),280.00" in csv
    assert "… ancora sulle taglie dei giocatori in gioco,230.00" in csv


def test_a_mystery_bag_is_accounted_for_before_during_and_after_the_draws(make_tournament, make_person, cashier_actor, actor):
    # 4 × €50 bounty parts = 200: all of it "not yet in envelopes" until the director sets them up.
    t = make_tournament(buy_in=D("50"), fee=D("10"), settings={"bounty": "MYSTERY", "bounty_amount": "50", "mystery_from": "START"})
    e = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    money = sel.bounty_money(t)
    assert (money["in"], money["in_bag"], money["difference"]) == (D("200"), D("200"), D("0"))
    services.set_envelopes(t, ["100", "50", "30", "20"], actor=actor)
    t.refresh_from_db()
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    drawn = sel.bounties_owed_query(t).get().cash  # whichever envelope came out
    money = sel.bounty_money(t)
    assert (money["owed"], money["in_bag"], money["difference"]) == (drawn, D("200") - drawn, D("0"))
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[3].pk, "eliminators": [e[0].pk]}], actor=actor)
    # three drawn, the last envelope to the winner: the bag is empty, all 200 owed to e[0]
    money = sel.bounty_money(t)
    assert (money["owed"], money["in_bag"], money["difference"]) == (D("200"), D("0"), D("0"))
    data = reports.reconciliation_data(t)
    assert line(data, "… mystery envelopes still in the bag") == D("0") and data["bounty_difference"] == 0


@pytest.mark.parametrize("leftover", ["WINNER", "CARRY_OVER"])
def test_mystery_money_sold_after_the_envelopes_were_set_up_balances_and_goes_with_the_bag(make_tournament, make_person, cashier_actor, actor, leftover):
    # 3 × €50 = 150 set up as envelopes 80 / 40 / 20 / 10 before the start; a late registration brings
    # €50 no envelope holds. The reconciliation says where it is (in play, in no envelope yet),
    # and at the end it goes with the envelopes left: to the winner, or carried over.
    t = make_tournament(
        buy_in=D("50"), fee=D("10"), settings={"bounty": "MYSTERY", "bounty_amount": "50", "mystery_from": "START", "mystery_leftover": leftover}
    )
    e = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    services.set_envelopes(t, ["80", "40", "20", "10"], actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()  # as a page reads it: the envelopes in its settings
    e.append(cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry)  # late registration
    data = reports.reconciliation_data(t)
    assert line(data, "Bounty money taken in (apart from the prize pool)") == D("200")
    assert line(data, "… mystery envelopes still in the bag") == D("150")
    assert line(data, "… sold since the envelopes were set up, in no envelope yet (the director adds envelopes)") == D("50")
    assert data["bounty_difference"] == 0 and data["balanced"]
    for out in (e[1], e[2], e[3]):
        seating.record_bust(t, [{"entry": out.pk, "eliminators": [e[0].pk]}], actor=actor)
    # three envelopes drawn; the one left, with the €50 sold late, goes as the house says
    drawn = sum((a.cash for a in sel.bounties_owed_query(t).filter(envelope__isnull=False)), D(0))
    assert drawn < D("150")
    money = sel.bounty_money(t)
    if leftover == "WINNER":
        assert (money["owed"], money["carried"]) == (D("200"), D("0"))
    else:
        assert (money["owed"], money["carried"]) == (drawn, D("200") - drawn)
    assert (money["in_bag"], money["difference"]) == (D("0"), D("0"))
    assert reports.reconciliation_data(t)["balanced"]


def test_mystery_money_given_back_after_the_envelopes_were_set_up_balances(make_tournament, make_person, cashier_actor, actor):
    # 3 × €25 = 75 set up as envelopes 40 / 25 / 10; one player is refunded before the start: the
    # envelopes hold €25 the desk gave back until the director sets them up again for €50.
    t = make_tournament(buy_in=D("50"), fee=D("10"), settings={"bounty": "MYSTERY", "bounty_amount": "25", "mystery_from": "START"})
    e = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    services.set_envelopes(t, ["40", "25", "10"], actor=actor)
    t.refresh_from_db()
    cashier.refund(e[2], reason="changed plans", actor=actor)
    data = reports.reconciliation_data(t)
    assert line(data, "Bounty money taken in (apart from the prize pool)") == D("50")
    assert line(data, "… mystery envelopes still in the bag") == D("75")
    assert line(data, "… given back since the envelopes were set up, still in an envelope (the director sets them up again)") == D("-25")
    assert data["bounty_difference"] == 0 and data["balanced"]
    services.set_envelopes(t, ["30", "20"], actor=actor)
    t.refresh_from_db()
    data = reports.reconciliation_data(t)
    assert line(data, "… mystery envelopes still in the bag") == D("50") and data["balanced"]


def test_a_cancelled_mystery_event_with_its_envelopes_set_up_balances(make_tournament, make_person, cashier_actor, actor):
    # 2 × €25 in envelopes 30 / 20; the event is cancelled: the €50 is owed back with the buy-ins,
    # then paid back at the desk; no envelope is left holding money.
    t = make_tournament(buy_in=D("50"), fee=D("10"), settings={"bounty": "MYSTERY", "bounty_amount": "25", "mystery_from": "START"})
    e = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(2)]
    services.set_envelopes(t, ["30", "20"], actor=actor)
    lifecycle.cancel(t, actor=actor, reason="the room closes")
    t.refresh_from_db()
    money = sel.bounty_money(t)
    assert (money["to_refund"], money["in_bag"], money["difference"]) == (D("50"), D("0"), D("0"))
    assert reports.reconciliation_data(t)["balanced"]
    for entry in e:
        cashier.pay_refund(entry, method="CASH", actor=cashier_actor)
    money = sel.bounty_money(t)
    assert (money["in"], money["in_bag"], money["difference"]) == (D("0"), D("0"), D("0"))
    assert reports.reconciliation_data(t)["balanced"]


def test_pay02_the_desk_s_bounty_overview_lists_the_heads_the_awards_and_the_totals_by_hand(pko):
    # The story above: P0 knocked out P1 (20 cash, paid by B), P3's knockout of P2 was undone,
    # P4 and P5 shared P0's 60 (10 cash + 20 added, 10 cash + 10 added, 10 to the house).
    t, e, reentry, paid = pko["t"], pko["e"], pko["reentry"], pko["paid"]
    data = sel.bounty_overview(t)
    assert data["settings"] == PKO_SETTINGS_SHOWN
    assert data["currency"] == "EUR"
    # the players in, the biggest bounty first, then by entry number; each bought a 40 bounty
    assert [(h["entry"], h["entry_number"], h["name"], h["bought"], h["amount"]) for h in data["heads"]] == [
        (e[4].pk, e[4].number, "Player4 Bounty", "40.00", "60.00"),
        (e[5].pk, e[5].number, "Player5 Bounty", "40.00", "50.00"),
        (e[2].pk, e[2].number, "Player2 Bounty", "40.00", "40.00"),
        (e[3].pk, e[3].number, "Player3 Bounty", "40.00", "40.00"),
        (reentry.pk, reentry.number, "Player1 Bounty", "40.00", "40.00"),
    ]
    awards = [
        (a["kind"], a["winner"], a["winner_name"], a["winner_number"], a["knocked_out"], a["knocked_out_name"], a["knocked_out_number"])
        + (a["cash"], a["added"], a["envelope"], a["paid_receipt"], a["owed"])
        for a in data["awards"]
    ]
    assert awards == [
        ("KNOCKOUT", e[0].pk, "Player0 Bounty", e[0].number, e[1].pk, "Player1 Bounty", e[1].number, "20.00", "20.00", None, paid.receipt_number, False),
        ("KNOCKOUT", e[4].pk, "Player4 Bounty", e[4].number, e[0].pk, "Player0 Bounty", e[0].number, "10.00", "20.00", None, None, True),
        ("KNOCKOUT", e[5].pk, "Player5 Bounty", e[5].number, e[0].pk, "Player0 Bounty", e[0].number, "10.00", "10.00", None, None, True),
        ("HOUSE", None, "", None, e[0].pk, "Player0 Bounty", e[0].number, "10.00", "0.00", None, None, False),
    ]
    assert data["envelopes"] == {"count": 0, "total": "0.00", "left": 0, "left_amount": "0.00"}
    # 280 taken in = 20 paid + 20 owed + 230 on the heads + 10 to the house
    assert data["totals"] == {
        "taken_in": "280.00",
        "paid_out": "20.00",
        "owed": "20.00",
        "on_heads": "230.00",
        "envelopes_left": "0.00",
        "house": "10.00",
        "carried_over": "0.00",
        "to_refund": "0.00",
    }


def test_pay02_the_desk_lists_the_bounties_owed_and_paid_and_each_knockout_counts_once(pko):
    t, e, paid = pko["t"], pko["e"], pko["paid"]
    owed = [(o["entry_id"], o["entry_number"], o["name"], o["count"], o["amount"]) for o in sel.bounties_owed(t)]
    assert owed == [(e[4].pk, e[4].number, "Player4 Bounty", 1, D("10")), (e[5].pk, e[5].number, "Player5 Bounty", 1, D("10"))]
    # P3's payment was given back: only P0's stands
    listed = [
        (p["kind"], p["entry_id"], p["entry_number"], p["name"], p["knocked_out_name"], p["amount"], p["receipt"], p["method"]) for p in sel.bounties_paid(t)
    ]
    assert listed == [("KNOCKOUT", e[0].pk, e[0].number, "Player0 Bounty", "Player1 Bounty", D("20"), paid.receipt_number, "CASH")]
    # the undone knockout counts for nobody; the split pot once for each eliminator
    assert sel.knockouts_by_entry(t) == {e[0].pk: 1, e[4].pk: 1, e[5].pk: 1}
    assert sel.bounty_money(t) == {
        "active": True,
        "kind": "PKO",
        "envelopes_set": False,
        "in": D("280"),
        "paid": D("20"),
        "owed": D("20"),
        "on_heads": D("230"),
        "in_bag": D("0"),
        "unbagged": D("0"),
        "house": D("10"),
        "carried": D("0"),
        "to_refund": D("0"),
        "borne": D("0"),
        "difference": D("0"),
    }


def test_pay02_a_player_s_data_export_lists_each_bounty_won_with_its_tournament_entry_and_time(pko):
    # P0 won one knockout (P1, 20 cash) paid by B; P4 won 10 from P0's split pot, not collected.
    t, e, people, paid = pko["t"], pko["e"], pko["people"], pko["paid"]
    won = BountyAward.objects.get(winner=e[0], void="")
    assert sel.bounties_of(people[0]) == {
        "bounties": [
            {
                "tournament": t.pk,
                "entry": e[0].pk,
                "kind": "KNOCKOUT",
                "knocked_out_entry": e[1].pk,
                "envelope": None,
                "amount": "20.00",
                "paid": True,
                "receipt_number": paid.receipt_number,
                "created_at": won.created_at.isoformat(),
            }
        ],
        "bounties_unpaid": [],
    }
    unpaid = sel.bounties_of(people[4])["bounties_unpaid"]
    assert [(b["tournament"], b["entry"], b["knocked_out_entry"], b["amount"], b["paid"], b["receipt_number"]) for b in unpaid] == [
        (t.pk, e[4].pk, e[0].pk, "10.00", False, None)
    ]


def test_pay02_each_phone_shows_its_heads_and_its_standing_knockouts_never_the_house_s_part(pko):
    # The story above: P0 (out) won 20 and collected it; P4 and P5 won 10 each from P0's split
    # pot, not collected; the house's 10 is nobody's; P3's knockout of P2 was undone: P3 won
    # nothing. P2, P3 and P1's re-entry have their 40 on the head and no knockout.
    t, e, reentry = pko["t"], pko["e"], pko["reentry"]
    nothing = {"won": "0.00", "collected": "0.00", "to_collect": "0.00", "knockouts": 0}
    assert sel.bounty_parts(t) == {
        e[0].pk: {"bounty": {"kind": "PKO", "head": None, "won": "20.00", "collected": "20.00", "to_collect": "0.00", "knockouts": 1}},
        e[2].pk: {"bounty": {"kind": "PKO", "head": "40.00", **nothing}},
        e[3].pk: {"bounty": {"kind": "PKO", "head": "40.00", **nothing}},
        e[4].pk: {"bounty": {"kind": "PKO", "head": "60.00", "won": "10.00", "collected": "0.00", "to_collect": "10.00", "knockouts": 1}},
        e[5].pk: {"bounty": {"kind": "PKO", "head": "50.00", "won": "10.00", "collected": "0.00", "to_collect": "10.00", "knockouts": 1}},
        reentry.pk: {"bounty": {"kind": "PKO", "head": "40.00", **nothing}},
    }
    assert sel.bounty_parts(t, entries=[e[3].pk]) == {e[3].pk: {"bounty": {"kind": "PKO", "head": "40.00", **nothing}}}
    # the lobby: what the players won (not the house's 10), the biggest heads first
    panel = sel.bounty_panel(t)
    assert (panel["paid"], [h["amount"] for h in panel["top"]]) == ("40.00", ["60.00", "50.00", "40.00", "40.00", "40.00"])


def test_pay02_a_mystery_event_before_its_envelopes_keeps_the_whole_bag_and_its_knockouts_win_nothing(make_tournament, make_person, cashier_actor, actor):
    # 4 × €50 bounty parts, the envelopes paid from the money (the house default) and not set up
    # yet: P3 is knocked out by P0 before the money, nothing is drawn. The lobby shows no
    # envelope, the whole 200 is in the bag, P0's knockout counts and owes him nothing.
    t, e = running(make_tournament, make_person, cashier_actor, actor, 4, buy_in=D("50"), fee=D("10"), settings={"bounty": "MYSTERY", "bounty_amount": "50"})
    seating.record_bust(t, [{"entry": e[3].pk, "eliminators": [e[0].pk]}], actor=actor)
    t.refresh_from_db()
    assert sel.bounty_panel(t) == {
        "kind": "MYSTERY",
        "pool": "200.00",
        "paid": "0.00",
        "envelopes": 0,
        "envelopes_left": None,
        "envelopes_left_amount": None,
        "last_draw": None,
    }
    money = sel.bounty_money(t)
    assert (money["envelopes_set"], money["in"], money["in_bag"], money["unbagged"], money["owed"], money["difference"]) == (
        False,
        D("200"),
        D("200"),
        D("0"),
        D("0"),
        D("0"),
    )
    data = sel.bounty_overview(t)
    assert [(a["kind"], a["winner"], a["knocked_out"], a["cash"], a["envelope"], a["owed"]) for a in data["awards"]] == [
        ("KNOCKOUT", e[0].pk, e[3].pk, "0.00", None, False)
    ]
    assert data["envelopes"] == {"count": 0, "total": "0.00", "left": 0, "left_amount": "0.00"}
    assert (data["totals"]["taken_in"], data["totals"]["owed"]) == ("200.00", "0.00")
    assert sel.bounties_owed(t) == [] and sel.bounties_of(e[0].person) == {"bounties": [], "bounties_unpaid": []}
    assert sel.knockouts_by_entry(t) == {e[0].pk: 1}
    assert sel.bounty_parts(t) == {
        e[0].pk: {"bounty": {"kind": "MYSTERY", "head": None, "won": "0.00", "collected": "0.00", "to_collect": "0.00", "knockouts": 1}}
    }


def test_pay02_a_one_euro_bounty_is_owed_paid_and_shown_like_any_other(make_tournament, make_person, cashier_actor, actor):
    # A FIXED €1 bounty, two events the same evening. Here: P1 out to P0 (€1 owed to P0), P2
    # still in with his €1 on the head. The other event: its P1 out to its P0, paid at the desk.
    # Nothing of the other event shows in this one's reads.
    settings = {"bounty": "FIXED", "bounty_amount": "1"}
    other, o = running(make_tournament, make_person, cashier_actor, actor, 3, name="Other", buy_in=D("10"), fee=D("1"), settings=settings)
    seating.record_bust(other, [{"entry": o[1].pk, "eliminators": [o[0].pk]}], actor=actor)
    services.pay_bounties(o[0], method="CASH", actor=cashier_actor)
    t, e = running(make_tournament, make_person, cashier_actor, actor, 3, buy_in=D("10"), fee=D("1"), settings=settings)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    t.refresh_from_db()
    assert sel.bounty_parts(t) == {
        e[0].pk: {"bounty": {"kind": "FIXED", "head": "1.00", "won": "1.00", "collected": "0.00", "to_collect": "1.00", "knockouts": 1}},
        e[2].pk: {"bounty": {"kind": "FIXED", "head": "1.00", "won": "0.00", "collected": "0.00", "to_collect": "0.00", "knockouts": 0}},
    }
    assert sel.knockouts_by_entry(t) == {e[0].pk: 1}
    assert [(a["winner"], a["cash"], a["owed"]) for a in sel.bounty_overview(t)["awards"]] == [(e[0].pk, "1.00", True)]
    assert [(b["amount"], b["paid"]) for b in sel.bounties_of(e[0].person)["bounties_unpaid"]] == [("1.00", False)]
    with CaptureQueriesContext(connection) as reads:
        owed = [(line["entry_id"], line["name"], line["count"], line["amount"]) for line in sel.bounties_owed(t)]
    assert owed == [(e[0].pk, e[0].person.full_name, 1, D("1"))]
    assert len(reads.captured_queries) == 1  # the desk's list of bounties owed is one read
    assert sel.bounties_paid(t) == []
    row = services.pay_bounties(e[0], method="CASH", actor=cashier_actor)
    assert [(p["entry_id"], p["amount"], p["receipt"]) for p in sel.bounties_paid(t)] == [(e[0].pk, D("1"), row.receipt_number)]
    assert sel.bounties_owed(t) == [] and sel.bounty_money(t)["paid"] == D("1")


def test_pay02_mystery_envelopes_carried_over_show_on_the_desk_s_overview_and_leave_the_lobby_s_bag(make_tournament, make_person, cashier_actor, actor):
    # 4 × €50 in envelopes of 80 / 50 / 40 / 30, drawn from the start, the envelopes left at the
    # end carried over to the next mystery event. P0 knocks the other three out: three envelopes
    # drawn are his; the fourth is nobody's here, carried over.
    t = make_tournament(
        buy_in=D("50"), fee=D("10"), settings={"bounty": "MYSTERY", "bounty_amount": "50", "mystery_from": "START", "mystery_leftover": "CARRY_OVER"}
    )
    e = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4)]
    services.set_envelopes(t, ["80", "50", "40", "30"], actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()
    busts = [seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor).busts[0]]
    first = f"{D('200') - BountyAward.objects.get(bust=busts[0]).cash:.2f}"  # the three envelopes left
    data = sel.bounty_overview(t)
    assert (data["envelopes"]["left"], data["envelopes"]["left_amount"], data["totals"]["envelopes_left"]) == (3, first, first)
    busts += [seating.record_bust(t, [{"entry": x.pk, "eliminators": [e[0].pk]}], actor=actor).busts[0] for x in e[2:]]
    drawn = sum((a.cash for a in BountyAward.objects.filter(tournament=t, kind=BountyAward.KNOCKOUT)), D(0))
    carried = D("200") - drawn
    assert carried in (D("30"), D("40"), D("50"), D("80"))  # whichever envelope was left
    data = sel.bounty_overview(t)
    assert data["envelopes"] == {"count": 4, "total": "200.00", "left": 0, "left_amount": "0.00"}
    assert (data["totals"]["owed"], data["totals"]["carried_over"], data["totals"]["envelopes_left"]) == (f"{drawn:.2f}", f"{carried:.2f}", "0.00")
    award = BountyAward.objects.get(tournament=t, kind=BountyAward.LEFTOVER)
    leftover = data["awards"][-1]
    assert (leftover["id"], leftover["kind"], leftover["winner"], leftover["winner_name"], leftover["winner_number"]) == (award.pk, "LEFTOVER", None, "", None)
    # nobody was knocked out for it
    assert (leftover["knocked_out"], leftover["knocked_out_name"], leftover["knocked_out_number"]) == (None, "", None)
    assert (leftover["cash"], leftover["owed"], leftover["created_at"]) == (f"{carried:.2f}", False, award.created_at.isoformat())
    money = sel.bounty_money(t)
    assert (money["owed"], money["carried"], money["in_bag"], money["unbagged"], money["difference"]) == (drawn, carried, D("0"), D("0"), D("0"))
    assert line(reports.reconciliation_data(t), "… envelopes carried over to the next mystery event") == carried
    # the lobby: no envelope left, the players won what was drawn; the carried envelope is nobody's
    panel = sel.bounty_panel(t)
    assert (panel["envelopes_left"], panel["envelopes_left_amount"], panel["paid"]) == (0, "0.00", f"{drawn:.2f}")
    # the last bust's answer: its own knockout, nothing of the winner's earlier ones nor the carried envelope
    assert [(k["kind"], k["bust"]) for k in sel.knockouts_of(t, [busts[-1].pk], winner=e[0].pk)] == [("KNOCKOUT", busts[-1].pk)]
    assert sel.bounties_owed(t)[0]["amount"] == drawn


def test_pay02_the_pko_s_reconciliation_reads_line_by_line(pko):
    # The story above, as the controller reads the report: 420 prize parts (7 × 60), 70 fees,
    # 280 bounty parts; the pool is the prize parts alone, no place decided yet; the bounty money
    # is 20 paid + 20 owed + 230 on the heads + 10 the house's; no entry to refund.
    report = reports.reconciliation(pko["t"])
    assert report["rows"] == expected(
        {
            "Money in: prize parts": "420.00",
            "Money in: fees": "70.00",
            BOUNTY_IN: "280.00",
            "Money in: total": "770.00",
            "Prize pool": "420.00",
            "Fees kept by the house": "70.00",
            "Prize pool not yet paid": "420.00",
            "… places still to be decided": "420.00",
        },
        bounty={
            "Bounty money taken in (apart from the prize pool)": "280.00",
            "… bounties paid out": "20.00",
            "… bounties won, not yet collected": "20.00",
            "… still on the heads of the players in": "230.00",
            "… bounties kept by the house": "10.00",
        },
    )
    assert report["totals"] == [("Result", "Balanced: every cent is explained.")]


def bounty_block(t) -> list[list[str]]:
    """The reconciliation's bounty lines, as the controller reads them at the end of the report."""
    t.refresh_from_db()
    rows = reports.reconciliation(t)["rows"]
    start = next(i for i, r in enumerate(rows) if r[0] == "Bounty money taken in (apart from the prize pool)")
    return rows[start:]


def test_pay02_a_one_euro_mystery_bag_reads_line_by_line_before_and_after_its_envelopes(make_tournament, make_person, cashier_actor, actor):
    # Three €1 bounty parts: €3 not yet in envelopes; set up as envelopes of €2 and €1 they are in
    # the bag; a fourth player's €1, sold after, is in no envelope until the director adds one.
    t = make_tournament(buy_in=D("50"), fee=D("10"), settings={"bounty": "MYSTERY", "bounty_amount": "1", "mystery_from": "START"})
    for _ in range(3):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    paid_owed = [["… bounties paid out", "0.00"], ["… bounties won, not yet collected", "0.00"]]
    house_difference = [["… bounties kept by the house", "0.00"], ["Bounty difference not explained", "0.00"]]
    carried = ["… envelopes carried over to the next mystery event", "0.00"]
    assert bounty_block(t) == [
        ["Bounty money taken in (apart from the prize pool)", "3.00"],
        *paid_owed,
        ["… not yet in envelopes (the director sets them up)", "3.00"],
        carried,
        *house_difference,
    ]
    services.set_envelopes(t, ["2", "1"], actor=actor)
    assert bounty_block(t) == [
        ["Bounty money taken in (apart from the prize pool)", "3.00"],
        *paid_owed,
        ["… mystery envelopes still in the bag", "3.00"],
        carried,
        *house_difference,
    ]
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    assert bounty_block(t) == [
        ["Bounty money taken in (apart from the prize pool)", "4.00"],
        *paid_owed,
        ["… mystery envelopes still in the bag", "3.00"],
        ["… sold since the envelopes were set up, in no envelope yet (the director adds envelopes)", "1.00"],
        carried,
        *house_difference,
    ]
