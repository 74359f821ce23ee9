"""PEN-07 / C27: a player eliminated without prize keeps his place by removal time but is paid
nothing; where his prize goes is the house rule ``forfeited_prize`` (HOLD by default,
REDISTRIBUTE, NEXT_PLACE). The payout table, the desk, the slips and the reconciliation show it."""

from decimal import Decimal

import pytest
from django.test import Client

from payouts import reports, services
from payouts import selectors as sel
from seating import services as seating
from tdmanager.errors import DomainError
from tests.conftest import client_for, make_user
from tests.payouts.reconciliation_rows import BALANCED, expected, read
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.floor import services as floor
from tournaments.models import Entry
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def field(make_tournament, make_person, cashier_actor, actor):
    """10 players × €100, no fee: a pool of 1,000 paid 400 / 300 / 200 / 100; started."""

    def make(rule=None):
        t = make_tournament(buy_in=D("100"), fee=D("0"), settings={"forfeited_prize": rule} if rule else {})
        for _ in range(10):
            cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
        services.edit_payout_table(t, [{"place": i, "amount": a} for i, a in enumerate(["400", "300", "200", "100"], 1)], actor=actor)
        services.lock_payout_table(t, actor=actor)
        lifecycle.start(t, actor=actor, prestart_report_sent=True)
        t.refresh_from_db()
        return t

    return make


def playing(t):
    return list(t.entries.filter(status=Entry.ACTIVE).order_by("number"))


def bust_one(t, actor):
    seating.record_bust(t, [playing(t)[-1]], actor=actor)


def play_out_with_a_cheat(t, actor):
    """Six busts (places 10–5), the cheat eliminated without prize at 4, then play to a winner."""
    for _ in range(6):
        bust_one(t, actor)
    cheat = playing(t)[0]
    floor.issue_penalty(t, cheat, kind="ELIMINATION_NO_PRIZE", reason_code="COLLUSION", actor=actor)
    while len(playing(t)) > 1:
        bust_one(t, actor)
    cheat.refresh_from_db()
    return cheat


def sign_twice(t, director):
    services.sign_off_ranking(t, actor=Actor(director))
    services.sign_off_ranking(t, actor=Actor(make_user("controller", "controller")))


def by_place(t, place):
    return t.entries.get(place=place)


def pay_everything_payable(t, actor):
    for d in sel.dues(t):
        if not d["forfeited"] and not d["paid"] and d["amount"] > 0:
            services.pay_prize(d["entry"], method="TRANSFER", reference="IBAN", actor=actor, source=d["source"])


def test_the_cheat_keeps_his_place_and_by_default_his_prize_is_held(field, actor, director):
    t = field()
    cheat = play_out_with_a_cheat(t, actor)
    assert cheat.status == Entry.BUSTED and cheat.place == 4  # placed by removal time
    sign_twice(t, director)
    due = sel.due_for(t, cheat, "MAIN:CASH")
    assert due["forfeited"] and due["amount"] == D("100.00")
    with pytest.raises(DomainError) as e:
        services.pay_prize(cheat, method="CASH", actor=actor)
    assert e.value.code == "prize_forfeited" and 400 <= e.value.status < 500
    plan = sel.forfeit_plan(t)
    assert plan["rule"] == "HOLD" and plan["held"] == D("100.00") and plan["extras"] == []
    pay_everything_payable(t, actor)
    recon = reports.reconciliation_data(t)
    lines = {str(label): v for label, v in recon["lines"]}
    assert recon["balanced"]
    assert lines["… forfeited prizes held by the house (PEN-07)"] == D("100.00")
    assert lines["Prize pool not yet paid"] == D("100.00")  # the forfeited prize, held
    assert any("eliminated without prize" in n for n in recon["notes"])


def test_redistribute_shares_the_prize_among_the_other_paid_places(field, actor, director):
    t = field("REDISTRIBUTE")
    cheat = play_out_with_a_cheat(t, actor)
    sign_twice(t, director)
    plan = sel.forfeit_plan(t)
    shares = {x["place"]: x["amount"] for x in plan["extras"]}
    # 100 in proportion to 400 / 300 / 200; the odd cent to 1st.
    assert shares == {1: D("44.45"), 2: D("33.33"), 3: D("22.22")}
    assert plan["held"] == D("0.00")
    pay_everything_payable(t, actor)
    paid_to_first = [p for p in by_place(t, 1).prize_payments.all()]
    assert sorted(p.amount for p in paid_to_first) == [D("44.45"), D("400.00")]
    share = next(p for p in paid_to_first if p.source == sel.FORFEIT_SOURCE)
    lines = dict(reports.slip_lines(share))
    assert str(lines["For"]) == "a prize forfeited by an elimination without prize (PEN-07)"
    browser = Client()
    browser.force_login(director)
    page = browser.get(f"/payouts/slip/{share.row.receipt_number}/").content.decode()
    assert '<dd id="slip-forfeit">a prize forfeited by an elimination without prize (PEN-07)</dd>' in page
    assert not cheat.prize_payments.exists()
    recon = reports.reconciliation_data(t)
    assert recon["balanced"] and dict((str(k), v) for k, v in recon["lines"])["Prize pool not yet paid"] == D("0.00")


def test_redistribute_before_the_end_waits_for_the_places_in_play(field, actor):
    t = field("REDISTRIBUTE")
    for _ in range(6):
        bust_one(t, actor)
    floor.issue_penalty(t, playing(t)[0], kind="ELIMINATION_NO_PRIZE", reason_code="COLLUSION", actor=actor)
    plan = sel.forfeit_plan(t)
    assert plan["pending"] == {1: D("44.45"), 2: D("33.33"), 3: D("22.22")} and plan["held"] == D("0.00")
    assert reports.reconciliation_data(t)["balanced"]


def test_next_place_moves_the_places_below_up_one(field, actor, director):
    t = field("NEXT_PLACE")
    play_out_with_a_cheat(t, actor)
    sign_twice(t, director)
    plan = sel.forfeit_plan(t)
    fifth = by_place(t, 5)
    assert [(x["place"], x["amount"]) for x in plan["extras"]] == [(5, D("100.00"))]  # 5th is paid as 4th
    due = sel.due_for(t, fifth, sel.FORFEIT_SOURCE)
    assert due["amount"] == D("100.00") and not due["forfeited"]
    pay_everything_payable(t, actor)
    assert reports.reconciliation_data(t)["balanced"]


def test_the_api_shows_the_forfeit_and_refuses_to_pay_it(field, actor, director, cashier_user):
    t = field()
    cheat = play_out_with_a_cheat(t, actor)
    sign_twice(t, director)
    api = client_for(director)
    table = api.get(f"/api/v1/tournaments/{t.pk}/payouts/table/").json()
    assert table["forfeits"]["rule"] == "HOLD" and table["forfeits"]["held"] == "100.00"
    assert table["forfeits"]["places"] == [{"place": 4, "entry": cheat.pk, "name": cheat.person.full_name, "kind": "CASH", "amount": "100.00"}]
    due = [d for d in api.get(f"/api/v1/payouts/due/?tournament={t.pk}").json() if d["entry"] == cheat.pk]
    assert due and due[0]["forfeited"] is True
    r = client_for(cashier_user).post("/api/v1/payouts/pay/", {"entry": cheat.pk, "method": "CASH"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "prize_forfeited"
    browser = Client()
    browser.force_login(director)
    page = browser.get(f"/tournaments/{t.pk}/payouts/").content.decode()
    assert 'id="forfeits"' in page and "eliminated without prize" in page


def test_the_winners_report_shows_the_forfeit_not_a_prize(field, actor, director):
    t = field()
    cheat = play_out_with_a_cheat(t, actor)
    rows = {r[1]: r for r in reports.standings(t)["rows"]}
    row = rows[cheat.person.full_name]
    assert row[0] == "4" and row[3] == "0.00" and row[4] == "forfeited, eliminated without prize (PEN-07): 100.00"
    totals = dict((str(k), v) for k, v in reports.standings(t)["totals"])
    assert totals["Prizes won"] == "900.00"  # 1,000 less the 100 forfeited (held)


def test_the_reconciliation_balances_with_jackpot_fees_foreign_tender_and_a_forfeited_prize(make_tournament, make_person, cashier_actor, actor, director):
    """Issue #13, done when: jackpot fees, USD/CHF tender and a forfeited prize in one event."""
    services.set_jackpot_base(D("1000.00"), actor=actor)
    cashier.set_exchange_rate("CHF", D("1.05"), actor=actor)
    cashier.set_exchange_rate("USD", D("0.92"), actor=actor)
    t = make_tournament(buy_in=D("100"), fee=D("10"), settings={"jackpot": True, "forfeited_prize": "REDISTRIBUTE"})
    tenders = ["CHF", "USD", "", "", "CHF", "", "", "", "", ""]
    rows = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True, tender_currency=c).row for c in tenders]
    assert {r.tender_currency for r in rows} == {"CHF", "USD", ""} and all(r.jackpot_amount == D("5.00") for r in rows)
    services.edit_payout_table(t, [{"place": i, "amount": a} for i, a in enumerate(["400", "300", "200", "100"], 1)], actor=actor)
    services.lock_payout_table(t, actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()
    cheat = play_out_with_a_cheat(t, actor)
    sign_twice(t, director)
    pay_everything_payable(t, actor)
    recon = reports.reconciliation_data(t)
    lines = {str(label): v for label, v in recon["lines"]}
    assert recon["balanced"], recon
    assert lines["Prize pool not yet paid"] == D("0.00") and not cheat.prize_payments.exists()
    assert lines["Money in: jackpot fees (to the venue's jackpot fund)"] == D("50.00")
    assert lines["Money in: prize parts"] == D("1000.00")  # CHF and USD booked in the tournament's currency
    assert any("eliminated without prize" in n for n in recon["notes"])


def test_a_lobby_screens_login_reads_the_forfeits_named_as_public_pages_name_players(field, actor, display_user):
    """The lobby's login reads the payout table (it shows the payouts) but no player's full name:
    the forfeits and the shares name players as every public page does; an opted-out one is "—"."""
    t = field("REDISTRIBUTE")
    cheat = play_out_with_a_cheat(t, actor)
    cheat.person.first_name, cheat.person.last_name = "Ottavio", "Nascosto"
    cheat.person.save()
    for path in (f"/api/v1/tournaments/{t.pk}/payouts/table/", f"/api/v1/tournaments/{t.pk}/payouts/"):
        answer = client_for(display_user).get(path)
        assert answer.status_code == 200
        table = answer.json() if path.endswith("table/") else answer.json()["table"]
        forfeits = table["forfeits"]
        assert [p["name"] for p in forfeits["places"]] == ["Ottavio N."]
        shared = [x["name"] for x in forfeits["shares"]]
        assert shared and all(name.endswith(".") for name in shared), shared
        assert "Nascosto" not in answer.content.decode()
    cheat.person.hide_from_lookup = True
    cheat.person.save()
    table = client_for(display_user).get(f"/api/v1/tournaments/{t.pk}/payouts/table/").json()
    assert [p["name"] for p in table["forfeits"]["places"]] == ["—"]


def test_pen07_a_player_disqualified_in_the_money_keeps_his_place_and_is_paid_it(field, actor, director):
    """Only elimination without prize forfeits the prize: a player disqualified (chip dumping)
    at 4 left is 4th and his €100 is paid like any other place, nothing is held."""
    t = field()
    for _ in range(6):
        bust_one(t, actor)
    dumper = playing(t)[0]
    floor.issue_penalty(t, dumper, kind="DISQUALIFICATION", reason_code="CHIP_DUMPING", actor=actor)
    while len(playing(t)) > 1:
        bust_one(t, actor)
    dumper.refresh_from_db()
    assert dumper.status == Entry.BUSTED and dumper.place == 4
    sign_twice(t, director)
    due = sel.due_for(t, dumper, "MAIN:CASH")
    assert not due["forfeited"] and due["amount"] == D("100.00")
    services.pay_prize(dumper, method="CASH", actor=actor)
    assert [p.amount for p in dumper.prize_payments.all()] == [D("100.00")]
    assert sel.forfeit_plan(t)["held"] == D("0.00")


def test_pen07_the_players_pages_show_each_prize_won_and_never_the_forfeited_one(field, actor, director):
    """What each player reads of his prizes (his phone, the lobby's phones, his history, his
    data export): the cheat's forfeited 100 nowhere, the others' prizes with whether the desk
    may pay them now (the ranking signed off twice, the table locked) and whether they are paid."""
    t = field()
    for _ in range(3):
        bust_one(t, actor)  # places 10, 9, 8: far from the four places paid
    tenth = t.entries.get(place=10)
    assert sel.entries_prizes(t, 4) == {}  # nobody within the places paid: nothing worked out
    for _ in range(3):
        bust_one(t, actor)  # places 7, 6, 5
    cheat = playing(t)[0]
    floor.issue_penalty(t, cheat, kind="ELIMINATION_NO_PRIZE", reason_code="COLLUSION", actor=actor)
    while len(playing(t)) > 1:
        bust_one(t, actor)
    cheat.refresh_from_db()
    assert cheat.place == 4
    first, second, third = by_place(t, 1), by_place(t, 2), by_place(t, 3)

    def prize(amount, paid=False, ready=False):
        return {"amount": amount, "kind": "CASH", "description": "", "paid": paid, "ready": ready}

    # before the two sign-offs nothing is ready at the desk
    assert sel.entry_prizes(second) == {"prizes": [prize("300.00")]}
    sign_twice(t, director)
    services.pay_prize(first, method="TRANSFER", reference="IBAN IT60", actor=actor)
    assert sel.entry_prizes(cheat) == {"prizes": []}
    assert sel.entry_prizes(tenth) == {"prizes": []}
    assert Client().get(f"/p/{first.phone_token}/state/").json()["prizes"] == [prize("400.00", paid=True)]
    assert Client().get(f"/p/{second.phone_token}/state/").json()["prizes"] == [prize("300.00", ready=True)]
    assert Client().get(f"/p/{cheat.phone_token}/state/").json()["prizes"] == []
    won = {
        first.pk: {"prizes": [prize("400.00", paid=True)]},
        second.pk: {"prizes": [prize("300.00", ready=True)]},
        third.pk: {"prizes": [prize("200.00", ready=True)]},
    }
    assert sel.entries_prizes(t, 4) == won
    assert sel.entries_prizes(t) == won
    assert sel.history_prizes([cheat, first, tenth, second]) == {first.pk: won[first.pk], second.pk: won[second.pk]}
    # the data export: what was paid him, and what is still owed him (the forfeit is owed nobody)
    paid = sel.person_prizes(first.person)
    assert paid["tickets"] == [] and paid["prizes_unpaid"] == []
    [payment] = paid["prize_payments"]
    assert {k: v for k, v in payment.items() if k not in ("created_at", "receipt_number")} == {
        "tournament": t.pk,
        "entry": first.pk,
        "source": "MAIN:CASH",
        "kind": "CASH",
        "place": 1,
        "amount": "400.00",
        "method": "TRANSFER",
        "reference": "IBAN IT60",
        "payee": first.person.full_name,
    }
    assert sel.person_prizes(second.person)["prizes_unpaid"] == [{"tournament": t.pk, "entry": second.pk, "place": 2, "kind": "CASH", "amount": "300.00"}]
    assert sel.person_prizes(second.person)["prize_payments"] == []
    assert sel.person_prizes(cheat.person)["prizes_unpaid"] == []
    # the lobby's results once it is over: what each place won, the cheat's line left out
    assert sel.won_by_entry(t) == {str(e.pk): {"amount": a, "prize": ""} for e, a in ((first, "400.00"), (second, "300.00"), (third, "200.00"))}


def test_pen07_under_next_place_the_fifth_s_phone_shows_the_prize_moved_to_him_ready_only_while_the_table_is_locked(field, actor, director):
    """NEXT_PLACE: the cheat eliminated without prize at 4 (three still playing), the 5th is paid
    the 4th's €100 at once: his phone shows it, from the stream as from its own poll. Every
    main prize is ready at the desk only while the payout table is locked: unlocked to be
    edited, the phones say not ready and the desk refuses; locked again, ready."""
    from tournaments.live.snapshot import build_snapshot
    from tournaments.phone.views import phone_index

    t = field("NEXT_PLACE")
    for _ in range(6):
        bust_one(t, actor)
    floor.issue_penalty(t, playing(t)[0], kind="ELIMINATION_NO_PRIZE", reason_code="COLLUSION", actor=actor)
    fifth = by_place(t, 5)
    hundred = [{"amount": "100.00", "kind": "CASH", "description": "Prize forfeited by place 4 (PEN-07)", "paid": False, "ready": False}]
    snap = build_snapshot(t.pk)
    assert snap["places_paid"] == 4
    assert phone_index(t.pk, snap, {})[1][fifth.pk].part["prizes"] == hundred
    assert Client().get(f"/p/{fifth.phone_token}/state/").json()["prizes"] == hundred

    while len(playing(t)) > 1:
        bust_one(t, actor)
    sign_twice(t, director)
    second = by_place(t, 2)
    services.unlock_payout_table(t, actor=actor, reason="a typo in the ladder")
    assert [p["ready"] for p in Client().get(f"/p/{second.phone_token}/state/").json()["prizes"]] == [False]
    assert [p["ready"] for p in Client().get(f"/p/{fifth.phone_token}/state/").json()["prizes"]] == [False]
    with pytest.raises(DomainError) as refused:
        services.pay_prize(second, method="TRANSFER", reference="IBAN", actor=actor)
    assert refused.value.code == "table_not_locked"
    services.lock_payout_table(t, actor=actor)
    assert Client().get(f"/p/{second.phone_token}/state/").json()["prizes"] == [
        {"amount": "300.00", "kind": "CASH", "description": "", "paid": False, "ready": True}
    ]
    assert [p["ready"] for p in Client().get(f"/p/{fifth.phone_token}/state/").json()["prizes"]] == [True]
    services.pay_prize(second, method="TRANSFER", reference="IBAN", actor=actor)


def test_pen07_the_lobby_results_list_each_place_with_its_share_of_a_redistributed_prize(field, actor):
    """REDISTRIBUTE: the cheat is eliminated without prize with two left (2nd, his €300
    forfeited); once it is over the lobby's results list what the others won: 1st 400 + 171.44,
    3rd 200 + 85.71, 4th 100 + 42.85 (300 in proportion to 400 / 200 / 100, rounded down to the
    cent: 171.42 + 85.71 + 42.85 = 299.98, the 2 odd cents to the best place), the cheat nothing."""
    from tournaments.live.snapshot import build_snapshot

    t = field("REDISTRIBUTE")
    for _ in range(8):
        bust_one(t, actor)  # places 10 to 3
    cheat = playing(t)[0]
    floor.issue_penalty(t, cheat, kind="ELIMINATION_NO_PRIZE", reason_code="COLLUSION", actor=actor)
    assert len(playing(t)) == 1
    lifecycle.finish(t, actor=actor)
    first, third, fourth = by_place(t, 1), by_place(t, 3), by_place(t, 4)
    assert by_place(t, 2) == cheat
    assert build_snapshot(t.pk)["won"] == {
        str(first.pk): {"amount": "571.44", "prize": ""},
        str(third.pk): {"amount": "285.71", "prize": ""},
        str(fourth.pk): {"amount": "142.85", "prize": ""},
    }


def test_pen07_the_cheat_forfeits_his_medal_too_and_the_winner_s_ticket_and_trophy_are_shown_and_ready(
    make_tournament, make_person, cashier_actor, actor, director
):
    """A ticket and a sponsored item are prizes like the cash: the cheat eliminated without prize
    at 4 loses his €100 and his medal; the winner's phone lists his €300, his €100 ticket and his
    trophy (an item has no money value: ready once his place is released all the same), and the
    lobby's results name them beside the cash; the cheat is in neither. The trophy handed over
    moves no money: his data export lists it without a receipt."""
    from tournaments.live.snapshot import build_snapshot

    t = make_tournament(buy_in=D("100"), fee=D("0"))
    for _ in range(10):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    table = [{"place": i, "amount": a} for i, a in enumerate(["300", "300", "200", "100"], 1)]
    table += [
        {"place": 1, "kind": "TICKET", "amount": "100", "description": "Sunday Main"},
        {"place": 1, "kind": "ITEM", "amount": "0", "description": "Trophy"},
        {"place": 4, "kind": "ITEM", "amount": "0", "description": "Medal"},
    ]
    services.edit_payout_table(t, table, actor=actor)
    services.lock_payout_table(t, actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()
    cheat = play_out_with_a_cheat(t, actor)
    assert cheat.place == 4
    sign_twice(t, director)
    lifecycle.finish(t, actor=actor)
    first = by_place(t, 1)
    assert Client().get(f"/p/{first.phone_token}/state/").json()["prizes"] == [
        {"amount": "300.00", "kind": "CASH", "description": "", "paid": False, "ready": True},
        {"amount": "100.00", "kind": "TICKET", "description": "Sunday Main", "paid": False, "ready": True},
        {"amount": "0.00", "kind": "ITEM", "description": "Trophy", "paid": False, "ready": True},
    ]
    assert Client().get(f"/p/{cheat.phone_token}/state/").json()["prizes"] == []
    won = build_snapshot(t.pk)["won"]
    assert won[str(first.pk)] == {"amount": "300.00", "prize": "Ticket: Sunday Main + Item: Trophy"}
    assert str(cheat.pk) not in won and won[str(by_place(t, 2).pk)] == {"amount": "300.00", "prize": ""}
    # the trophy handed over at the desk: no money moved, no receipt; his data export lists it so
    services.pay_prize(first, method="CASH", actor=actor, source="MAIN:ITEM")
    [trophy] = client_for(director).get(f"/api/v1/people/{first.person_id}/export/").json()["prize_payments"]
    assert {k: v for k, v in trophy.items() if k != "created_at"} == {
        "tournament": t.pk,
        "entry": first.pk,
        "source": "MAIN:ITEM",
        "kind": "ITEM",
        "place": 1,
        "amount": "0.00",
        "method": "",
        "reference": "",
        "payee": first.person.full_name,
        "receipt_number": None,
    }


def test_pen07_a_share_of_a_few_cents_is_ready_on_the_phone_and_paid_at_the_desk(make_tournament, make_person, cashier_actor, actor, director):
    """REDISTRIBUTE, a table of 400 / 300 / 299 / 1: the cheat at 4 forfeits €1.00, shared in
    proportion to 400 / 300 / 299 rounded down to the cent (0.40, 0.30, 0.29, the odd cent to
    1st: 0.41). The 3rd's phone shows his €0.29 ready like his €299, and the desk pays it."""
    t = make_tournament(buy_in=D("100"), fee=D("0"), settings={"forfeited_prize": "REDISTRIBUTE"})
    for _ in range(10):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    services.edit_payout_table(t, [{"place": i, "amount": a} for i, a in enumerate(["400", "300", "299", "1"], 1)], actor=actor)
    services.lock_payout_table(t, actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()
    play_out_with_a_cheat(t, actor)
    sign_twice(t, director)
    third = by_place(t, 3)
    assert Client().get(f"/p/{third.phone_token}/state/").json()["prizes"] == [
        {"amount": "299.00", "kind": "CASH", "description": "", "paid": False, "ready": True},
        {"amount": "0.29", "kind": "CASH", "description": "Prize forfeited by place 4 (PEN-07)", "paid": False, "ready": True},
    ]
    assert [x["amount"] for x in sel.forfeit_plan(t)["extras"]] == [D("0.41"), D("0.30"), D("0.29")]
    payment = services.pay_prize(third, method="CASH", actor=actor, source=sel.FORFEIT_SOURCE)
    assert payment.amount == D("0.29")


def test_pen07_the_reconciliation_names_each_forfeit_and_where_its_prize_goes_line_by_line(field, actor, director):
    pool = {"Money in: prize parts": "1000.00", "Money in: total": "1000.00", "Prize pool": "1000.00"}
    # REDISTRIBUTE, places 10–5 out and the 4th eliminated without prize: his 100 is due to the
    # three places still to be decided (900 of their own).
    t = field("REDISTRIBUTE")
    for _ in range(6):
        bust_one(t, actor)
    cheat = playing(t)[0]
    floor.issue_penalty(t, cheat, kind="ELIMINATION_NO_PRIZE", reason_code="COLLUSION", actor=actor)
    rows, result = read(t)
    assert rows == expected(
        {
            **pool,
            "Prize pool not yet paid": "1000.00",
            "… places still to be decided": "900.00",
            "… forfeited prizes due to places still to be decided (PEN-07)": "100.00",
        },
        (
            f"Place 4, {cheat.person.full_name}: eliminated without prize (PEN-07), 100.00 forfeited.",
            "Forfeited prizes (shared by the other paid places): 100.00 paid or due to other players, 0.00 held.",
        ),
    )
    assert result == BALANCED
    # REDISTRIBUTE played out, nothing paid yet: the three prizes and their shares of the 100 are
    # all won and not collected.
    t = field("REDISTRIBUTE")
    cheat = play_out_with_a_cheat(t, actor)
    rows, result = read(t)
    assert rows == expected(
        {**pool, "Prize pool not yet paid": "1000.00", "… prizes won, not yet collected": "1000.00"},
        (
            f"Place 4, {cheat.person.full_name}: eliminated without prize (PEN-07), 100.00 forfeited.",
            "Forfeited prizes (shared by the other paid places): 100.00 paid or due to other players, 0.00 held.",
        ),
    )
    assert result == BALANCED
    # NEXT_PLACE played out, nothing paid yet: the 5th is paid the 4th's 100, due like the others.
    t = field("NEXT_PLACE")
    cheat = play_out_with_a_cheat(t, actor)
    rows, result = read(t)
    assert rows == expected(
        {**pool, "Prize pool not yet paid": "1000.00", "… prizes won, not yet collected": "1000.00"},
        (
            f"Place 4, {cheat.person.full_name}: eliminated without prize (PEN-07), 100.00 forfeited.",
            "Forfeited prizes (the places below move up one): 100.00 paid or due to other players, 0.00 held.",
        ),
    )
    assert result == BALANCED
    # HOLD (the default), played out and every other prize paid: the 100 stays with the house.
    t = field()
    cheat = play_out_with_a_cheat(t, actor)
    sign_twice(t, director)
    pay_everything_payable(t, actor)
    rows, result = read(t)
    assert rows == expected(
        {**pool, "Money out: prizes paid": "900.00", "Prize pool not yet paid": "100.00", "… forfeited prizes held by the house (PEN-07)": "100.00"},
        (
            f"Place 4, {cheat.person.full_name}: eliminated without prize (PEN-07), 100.00 forfeited.",
            "Forfeited prizes (held by the house): 0.00 paid or due to other players, 100.00 held.",
        ),
    )
    assert result == BALANCED
