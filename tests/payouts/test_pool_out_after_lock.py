"""Issue #38, found by the simulator (day seed 100): in a rebuy event the payout table was locked
and published on a pool of €1,250; a rebuy was then reversed and the pool fell to €1,050 while the
published places still shared €1,250 ("Differenza non giustificata: -200,00"). Prize money does
not leave a pool whose table is locked: the director unlocks the table (with a reason), the
desk reverses or refunds, and the table is locked again on the smaller pool (PAY-05)."""

from decimal import Decimal

import pytest

from payouts import reports
from payouts import selectors as psel
from tournaments.cashier import services as cashier
from tournaments.models import Entry, LedgerRow, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


@pytest.fixture
def locked(make_tournament, make_person, cashier_actor, actor, api, director):
    """Five €100 (+ €10 fee) entries, started, the payout table locked by the director."""
    t = make_tournament(buy_in=Decimal("100"), fee=Decimal("10"))
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(5)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/table/lock/", {}, format="json")
    assert r.status_code == 200, r.content
    assert psel.table_state(t) == "LOCKED"
    return t, entries


def test_a_sale_is_not_reversed_out_of_a_locked_pool(locked, api, director):
    t, entries = locked
    sale = LedgerRow.objects.get(entry=entries[0], kind=LedgerRow.BUY_IN)
    r = api(director).post(
        "/api/v1/cashier/reverse/", {"receipt_number": sale.receipt_number, "reason": "sold twice"}, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert r.status_code == 409, r.content
    assert r.json()["code"] == "table_locked"
    assert "sblocca" in r.json()["detail"]
    assert Entry.objects.get(pk=entries[0].pk).status == Entry.ACTIVE
    assert not LedgerRow.objects.filter(reverses=sale).exists()
    assert reports.reconciliation_data(t)["balanced"]


def test_a_refund_waits_for_the_table_to_be_unlocked_and_then_balances(locked, api, director):
    t, entries = locked
    refund = {"entry": entries[1].pk, "reason": "left before playing a hand"}
    r = api(director).post("/api/v1/cashier/refund/", refund, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "table_locked")
    assert psel.prize_pool(t) == Decimal("500.00")

    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/table/unlock/", {"reason": "a refund"}, format="json")
    assert r.status_code == 200, r.content
    r = api(director).post("/api/v1/cashier/refund/", refund, format="json")
    assert r.status_code == 201, r.content
    # the table the director unlocked still shares €500: back to the proposal, locked again
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/table/lock/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "wrong_total")
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/table/propose/", {}, format="json")
    assert r.status_code == 200, r.content
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/table/lock/", {}, format="json")
    assert r.status_code == 200, r.content
    assert psel.prize_pool(t) == Decimal("400.00")
    assert sum(psel.place_values(psel.table_prizes(t)), Decimal(0)) == Decimal("400.00")
    assert reports.reconciliation_data(t)["balanced"]


def test_a_cancelled_event_refunds_whatever_its_table_said(locked, api, director, actor):
    """A cancelled event has no pool: every refund is owed, locked table or not."""
    t, entries = locked
    lifecycle.cancel(t, actor=actor, reason="storm")
    t.refresh_from_db()
    r = api(director).post("/api/v1/cashier/refund/", {"entry": entries[2].pk, "reason": "cancelled"}, format="json")
    assert r.status_code == 201, r.content
    assert reports.reconciliation_data(t)["balanced"]


def test_a_chip_leader_prize_is_not_taken_out_of_a_locked_pool(locked, api, director):
    """Found by the simulator (day seed 300002): a sit & go's three places, locked on €300 and
    decided, then a €50 chip-leader prize out of the prize pool: the pool fell to €250 while the
    players were owed €300 ("Differenza non giustificata: -50,00")."""
    t, entries = locked
    url = f"/api/v1/tournaments/{t.pk}/payouts/side-pools/"
    prize = {"kind": "CHIP_LEADER", "name": "Chip leader at the break", "from_ledger": False, "from_prize_pool": "50"}
    r = api(director).post(url, prize, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 409, r.content
    assert r.json()["code"] == "table_locked" and "sblocca" in r.json()["detail"]
    assert psel.prize_pool(t) == Decimal("500.00")
    assert reports.reconciliation_data(t)["balanced"]
    # unlocked, the prize is taken, and the table proposed again on the smaller pool
    assert api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/table/unlock/", {"reason": "a chip-leader prize"}, format="json").status_code == 200
    assert api(director).post(url, prize, format="json").status_code == 201
    assert api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/table/propose/", {}, format="json").status_code == 200
    assert api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/table/lock/", {}, format="json").status_code == 200
    assert psel.prize_pool(t) == Decimal("450.00")
    assert reports.reconciliation_data(t)["balanced"]


def test_once_a_paid_place_is_decided_the_pool_no_longer_shrinks(locked, api, director, actor):
    """Found by the simulator (day seed 400013): places decided on a pool of €1,680, the director
    unlocked the table, and a refund took €200 out: the decided places were owed more than the
    pool held ("Differenza non giustificata: -200,00"). A paid place decided is a prize won on the
    pool as it stands: a refund or reversal is then refused, unlocked table or not."""
    from payouts import services as payouts
    from seating import services as seating

    t, entries = locked
    # the director pays three places of the €500, then two players go out: 5th, 4th
    payouts.unlock_payout_table(t, actor=actor, reason="three places")
    payouts.edit_payout_table(t, [{"place": 1, "amount": "300"}, {"place": 2, "amount": "150"}, {"place": 3, "amount": "50"}], actor=actor, reason="three")
    payouts.lock_payout_table(t, actor=actor)
    for e in entries[4:2:-1]:
        seating.record_bust(t, [e.pk], actor=actor)
    assert not psel.prize_place_decided(t)
    seating.record_bust(t, [entries[2].pk], actor=actor)  # 3rd: a paid place decided, €50 his
    assert psel.prize_place_decided(t)
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/table/unlock/", {"reason": "a refund"}, format="json")
    assert r.status_code == 200, r.content
    r = api(director).post("/api/v1/cashier/refund/", {"entry": entries[0].pk, "reason": "taken ill"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 409, r.content
    assert r.json()["code"] == "prize_places_decided"
    assert psel.prize_pool(t) == Decimal("500.00")
    assert reports.reconciliation_data(t)["balanced"]


def test_a_side_prize_larger_than_the_pool_takes_what_there_is(make_tournament, make_person, cashier_actor, api, director):
    """Found by the simulator (day seed 600001): a €50 chip-leader prize out of a pool of €42. The
    pool named a €50 deduction while taking €42, so the pool the pages showed (nothing) was not the
    prize parts less the deductions. The prize takes what the pool holds, and the rest as it grows."""
    t = make_tournament(buy_in=Decimal("21"), fee=Decimal("2"))
    for _ in range(2):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    prize = {"kind": "CHIP_LEADER", "name": "Chip leader at the break", "from_ledger": False, "from_prize_pool": "50"}
    assert api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/side-pools/", prize, format="json").status_code == 201
    b = psel.pool_breakdown(t)
    assert (b.collected, b.deductions, b.total) == (Decimal("42.00"), {"Chip leader at the break": Decimal("42.00")}, Decimal("0.00"))
    assert reports.reconciliation_data(t)["balanced"]
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    b = psel.pool_breakdown(t)
    assert (b.collected, b.deductions, b.total) == (Decimal("63.00"), {"Chip leader at the break": Decimal("50.00")}, Decimal("13.00"))
    assert reports.reconciliation_data(t)["balanced"]


def test_a_side_prize_is_not_taken_from_a_pool_whose_paid_places_are_decided(make_tournament, make_person, cashier_actor, api, director, actor):
    """Found by the simulator (day seed 600008): a rebuy event's table not locked yet, its paid
    place decided on €200, then a €20 chip-leader prize out of the pool: the place was owed more
    than the pool held ("Differenza non giustificata: -20,00")."""
    from seating import services as seating

    t = make_tournament(buy_in=Decimal("100"), fee=Decimal("10"))
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(2)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    seating.record_bust(t, [entries[1].pk], actor=actor)  # heads-up over: 1st and 2nd decided
    assert psel.prize_place_decided(t) and psel.table_state(t) != "LOCKED"
    prize = {"kind": "CHIP_LEADER", "name": "Chip leader", "from_ledger": False, "from_prize_pool": "20"}
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/side-pools/", prize, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "prize_places_decided")
    assert psel.prize_pool(t) == Decimal("200.00")
    assert reports.reconciliation_data(t)["balanced"]


def test_no_refund_once_every_player_still_in_is_in_the_money(make_tournament, make_person, cashier_actor, api, director, actor):
    """Found by the simulator (day seed 1000000): a sit & go paying two places, two players left,
    one of them refunded: the other became the winner and the 2nd place went to a player out
    earlier, both paid from a table of €200 on a pool now €180. With every player still in in the
    money, one entry fewer decides paid places: the pool no longer shrinks (and REG-12 gives no
    refund to a player who leaves)."""
    from payouts import services as payouts
    from seating import services as seating

    t = make_tournament(buy_in=Decimal("20"), fee=Decimal("5"))
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    payouts.edit_payout_table(t, [{"place": 1, "amount": "55"}, {"place": 2, "amount": "25"}], actor=actor, reason="two places")
    seating.record_bust(t, [entries[3].pk], actor=actor)
    assert not psel.prize_place_decided(t)  # three in, two paid: one entry fewer moves nobody into the money
    seating.record_bust(t, [entries[2].pk], actor=actor)  # 3rd: two left, both in the money
    r = api(director).post("/api/v1/cashier/refund/", {"entry": entries[1].pk, "reason": "left"}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "prize_places_decided")
    assert Entry.objects.get(pk=entries[1].pk).status == Entry.ACTIVE
    assert reports.reconciliation_data(Tournament.objects.get(pk=t.pk))["balanced"]


def test_a_refund_under_an_unlocked_table_shows_the_table_above_the_pool(locked, api, director):
    """Found by the soak (day seeds 710016, 710018): after the table was unlocked and a player
    refunded, the reconciliation said "Differenza non giustificata: -150,00": the director's table
    still shared the old pool. It balances in that state too, the excess named as the table's, to
    edit before it locks again."""
    t, entries = locked
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/table/unlock/", {"reason": "a refund"}, format="json")
    assert r.status_code == 200, r.content
    r = api(director).post("/api/v1/cashier/refund/", {"entry": entries[1].pk, "reason": "left"}, format="json")
    assert r.status_code == 201, r.content
    assert psel.prize_pool(t) == Decimal("400.00")

    data = reports.reconciliation_data(t)
    assert data["balanced"], data["lines"]
    lines = dict(data["lines"])
    assert lines["… assigned by the payout table beyond the prize pool (to edit before it is locked)"] == Decimal("-100.00")
    assert any("100" in n and "PAY-05" in n for n in data["notes"])
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/payouts/table/lock/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "wrong_total")
