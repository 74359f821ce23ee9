"""RULES.md §15 scenarios reproduced with their numbers (issue #29): 19 (P's standard stack and
seat, Q's own refusal), 27 (40 left / 30 paid: the disqualified player's place, the eliminated
player's forfeited prize), BAL-02 (scenario 12's halt is only advisory in a short-handed event)."""

from datetime import datetime, timedelta
from decimal import Decimal as D

import pytest
from django.utils import timezone

from payouts import selectors as payouts
from seating import selectors as seating_selectors
from seating import services as seating
from tdmanager.errors import DomainError
from tests.tournaments.helpers import item_index_of_level, run_clock_at
from tournaments.cashier import services as cashier
from tournaments.floor import selectors as floor_selectors
from tournaments.floor import services as floor
from tournaments.models import Entry
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


def test_scenario_19_p_gets_the_standard_stack_and_a_seat_q_is_refused_as_busted(make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(
        late_reg_closes_after_level=3, settings={"late_entry_prebooked_only": True}, min_players=1, starting_stack=30000, rule_set="MONTEGALDA_004"
    )
    p, q = make_person("P"), make_person("Q")
    cashier.pre_register(t, p, actor=cashier_actor)
    cashier.pre_register(t, q, actor=cashier_actor)  # 004: everybody books by the deadline
    q_entry = cashier.register(t, q, method="CASH", actor=cashier_actor).entry
    cashier.register(t, make_person("W"), method="CASH", actor=cashier_actor)
    # Two play on after Q's bust: with one left the event would have its winner and sell nothing.
    cashier.register(t, make_person("X"), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor)
    seating.record_bust(t, [q_entry], actor=actor)  # Q busts in level 1
    run_clock_at(t, item_index_of_level(t, 2))
    late = cashier.register(t, p, method="CASH", actor=cashier_actor).entry
    assert (late.status, late.chips) == (Entry.ACTIVE, 30000)  # the standard stack (004 Art. 1)
    seat = seating_selectors.seat_of(late)
    assert seat and seat["table"] >= 1 and 1 <= seat["seat"] <= t.table_size
    with pytest.raises(DomainError) as refused:
        cashier.register(t, q, method="CASH", actor=cashier_actor)
    assert refused.value.code == "busted_no_return" and "Q" in refused.value.message  # out is out (004 Art. 3)


def test_scenario_27_forty_left_thirty_paid_the_disqualified_is_40th_the_eliminated_25th_is_not_paid(make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(buy_in=D("100"), fee=D("0"), table_size=10, settings={"percent_paid": 60})  # 50 × 60 % = 30 paid
    for _ in range(50):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    playing = lambda: list(t.entries.filter(status=Entry.ACTIVE).order_by("number"))  # noqa: E731
    for _ in range(10):
        seating.record_bust(t, [playing()[-1]], actor=actor)
    assert len(playing()) == 40 and payouts.places_paid(t) == 30
    d = playing()[0]
    chips_before = floor_selectors.chips_in_play(t)
    at = timezone.make_aware(datetime.combine(timezone.localdate() + timedelta(days=1), datetime.min.time())) + timedelta(hours=22, minutes=14)
    floor.issue_penalty(t, d, kind="DISQUALIFICATION", reason_code="CHIP_DUMPING", actor=actor, now=at)
    d.refresh_from_db()
    assert (d.status, d.place) == (Entry.BUSTED, 40)  # ranked by the removal time
    assert floor_selectors.chips_in_play(t) == chips_before - 30000  # removed from the inventory
    with pytest.raises(DomainError) as no_refund:
        cashier.refund(d, reason="asks for the money", actor=actor)
    assert no_refund.value.code == "no_refund_after_playing"
    while len(playing()) > 25:
        seating.record_bust(t, [playing()[-1]], actor=actor)
    e = playing()[0]
    floor.issue_penalty(t, e, kind="ELIMINATION_NO_PRIZE", reason_code="COLLUSION", actor=actor)
    e.refresh_from_db()
    due = payouts.due_for(t, e, "MAIN:CASH")
    assert e.place == 25 and due["amount"] > 0 and due["forfeited"] is True  # 25th is paid, but not to him


def test_bal_02_three_short_halts_a_full_ring_table_and_only_advises_in_a_short_handed_event(make_tournament, make_person, cashier_actor, actor):
    def three_short(size, players):
        t = make_tournament(table_size=size)
        entries = [cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(players)]
        lifecycle.start(t, actor=actor, prestart_report_sent=True)
        at = {}
        for e in entries:
            at.setdefault(seating_selectors.seat_of(e)["table"], []).append(e)
        smaller = min(at, key=lambda n: (len(at[n]), -n))
        bust = 3 - (max(len(v) for v in at.values()) - len(at[smaller]))
        for e in at[smaller][:bust]:
            seating.record_bust(t, [e], actor=actor)
        return seating_selectors.table_map(t), smaller

    ring, table = three_short(9, 18)  # scenario 12: 9 and 6
    assert ring["halted"] == [table] and ring["halt_advisory"] is False
    six_max, table = three_short(6, 12)  # 6 and 3 in a 6-max event: at the TD's discretion
    assert six_max["halted"] == [table] and six_max["halt_advisory"] is True


def test_scenario_40_a_two_table_sit_and_go_starts_at_its_twentieth_registration(make_tournament, make_person, cashier_actor):
    from tournaments.models import Clock, Tournament

    t = make_tournament(format=Tournament.SNG, table_size=10, settings={"sng_tables": 2}, rebuy_price=D("10"), rebuy_chips=1000)
    entries = []
    for _ in range(19):
        entries.append(cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry)
        t.refresh_from_db()
        assert t.status == Tournament.REGISTERING
    entries.append(cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry)
    t.refresh_from_db()
    assert t.status == Tournament.RUNNING and Clock.objects.get(tournament=t).status == Clock.RUNNING
    tables = seating_selectors.table_map(t)["tables"]
    assert sorted(sum(1 for s in tb["seats"] if s["entry"]) for tb in tables) == [10, 10]  # two full tables
    with pytest.raises(DomainError) as full:
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    assert full.value.code == "field_full"
    with pytest.raises(DomainError) as no_rebuy:
        cashier.rebuy(entries[0], method="CASH", actor=cashier_actor, stack=0)
    assert no_rebuy.value.code == "rebuy_not_allowed"


def test_seat_05_a_player_seated_between_button_and_small_blind_waits_until_the_button_has_passed(make_tournament, make_person, cashier_actor, actor):
    from seating.models import Seat

    t = make_tournament(table_size=9)
    entries = [cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(10)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)  # two tables of five
    where = {e.pk: seating_selectors.seat_of(e) for e in entries}
    table = where[entries[0].pk]["table"]
    occupied = sorted(w["seat"] for w in where.values() if w["table"] == table)
    # two neighbouring players with empty seats between them: the next hand's button and small blind
    pairs = [(occupied[i], occupied[(i + 1) % len(occupied)]) for i in range(len(occupied))]
    button, small_blind = next((a, b) for a, b in pairs if (b - a) % 9 > 1)
    seating.set_big_blind(t, table, small_blind, previous_big_blind_seat=button, actor=actor)
    gap = button % 9 + 1  # the first empty seat after the button
    mover = next(e for e in entries if where[e.pk]["table"] != table)  # a player from the other table
    seating.move_player(t, mover, table, gap, actor=actor, reason="TD decision")
    assert Seat.objects.get(entry=mover).wait_for_button is True  # flagged "wait for the button"
    hands = 0
    while Seat.objects.get(entry=mover).wait_for_button and hands < 9:
        seating.hand_completed(t, table, actor=actor)
        hands += 1
    assert 1 <= hands <= 4  # cleared once the button passed him, within the orbit
    done = t.events.filter(action="seating.hand.completed").order_by("-id").first()
    assert done.payload["dealt_in"] == [mover.pk]
