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
from tournaments import selectors
from tournaments.models import Entry
from tournaments.services import cashier, floor, lifecycle

pytestmark = pytest.mark.django_db


def test_scenario_19_p_gets_the_standard_stack_and_a_seat_q_is_refused_as_busted(make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(late_reg_closes_after_level=3, settings={"late_entry_prebooked_only": True}, min_players=1,
                        starting_stack=30000, rule_set="MONTEGALDA_004")
    p, q = make_person("P"), make_person("Q")
    cashier.pre_register(t, p, actor=cashier_actor)
    cashier.pre_register(t, q, actor=cashier_actor)  # 004: everybody books by the deadline
    q_entry = cashier.register(t, q, method="CASH", actor=cashier_actor).entry
    cashier.register(t, make_person("W"), method="CASH", actor=cashier_actor)
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


def test_scenario_27_forty_left_thirty_paid_the_disqualified_is_40th_the_eliminated_25th_is_not_paid(
        make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(buy_in=D("100"), fee=D("0"), table_size=10, settings={"percent_paid": 60})  # 50 × 60 % = 30 paid
    for _ in range(50):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    playing = lambda: list(t.entries.filter(status=Entry.ACTIVE).order_by("number"))  # noqa: E731
    for _ in range(10):
        seating.record_bust(t, [playing()[-1]], actor=actor)
    assert len(playing()) == 40 and payouts.places_paid(t) == 30
    d = playing()[0]
    chips_before = selectors.chips_in_play(t)
    at = timezone.make_aware(datetime.combine(timezone.localdate() + timedelta(days=1), datetime.min.time())) + timedelta(hours=22, minutes=14)
    floor.issue_penalty(t, d, kind="DISQUALIFICATION", reason_code="CHIP_DUMPING", actor=actor, now=at)
    d.refresh_from_db()
    assert (d.status, d.place) == (Entry.BUSTED, 40)  # ranked by the removal time
    assert selectors.chips_in_play(t) == chips_before - 30000  # removed from the inventory
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


def test_bal_02_the_halt_is_advisory_in_a_short_handed_event(make_tournament, make_person, cashier_actor, actor):
    # Scenario 12's numbers in a 6-max event: the fullest table 3 ahead of another halts it, at the TD's discretion.
    t = make_tournament(table_size=6)
    for _ in range(12):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    full_ring = make_tournament(table_size=9)
    assert seating_selectors.table_map(t)["halt_advisory"] is True
    assert seating_selectors.table_map(full_ring)["halt_advisory"] is False


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
