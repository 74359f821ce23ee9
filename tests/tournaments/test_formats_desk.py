"""Formats at the desk: sit & go auto-start (FMT-09) and pre-booked late arrivals (REG-04, REG-09)."""

from decimal import Decimal

import pytest

from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.models import Clock, Entry, Tournament
from tournaments.setup import lifecycle

from .helpers import item_index_of_level, run_clock_at

pytestmark = pytest.mark.django_db


def test_a_sit_and_go_starts_by_itself_on_its_tenth_registration(make_tournament, make_person, cashier_actor):
    # RULES scenario 40: a 1-table S&G starts when the 10th registration is confirmed.
    t = make_tournament(format=Tournament.SNG, field_cap=10, table_size=10)
    for _ in range(9):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
        t.refresh_from_db()
        assert t.status == Tournament.REGISTERING
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    t.refresh_from_db()
    assert t.status == Tournament.RUNNING and Clock.objects.get(tournament=t).status == Clock.RUNNING
    assert t.events.filter(action="tournaments.sitandgo.started").exists()
    with pytest.raises(DomainError) as e:
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    assert e.value.code == "field_full"


def test_a_sit_and_go_sells_no_rebuys(make_tournament, make_person, cashier_actor):
    t = make_tournament(format=Tournament.SNG, field_cap=2, rebuy_price=Decimal("10"), rebuy_chips=1000)
    entry = cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    with pytest.raises(DomainError) as e:
        cashier.rebuy(entry, method="CASH", actor=cashier_actor, stack=0)
    assert e.value.code == "rebuy_not_allowed"


def test_prebooked_late_arrivals_only_and_never_a_busted_player(make_tournament, make_person, cashier_actor, actor):
    # RULES scenario 19: P (pre-booked) arrives in level 2 → seated; Q (busted in level 1) refused;
    # P arriving in level 4 → refused.
    t = make_tournament(late_reg_closes_after_level=3, settings={"late_entry_prebooked_only": True}, min_players=1)
    p, q, walk_in, late_p = make_person("P"), make_person("Q"), make_person("Walk"), make_person("Late")
    cashier.pre_register(t, p, actor=cashier_actor)
    cashier.pre_register(t, late_p, actor=cashier_actor)
    q_entry = cashier.register(t, q, method="CASH", actor=cashier_actor).entry
    lifecycle.start(t, actor=actor)
    q_entry.status = Entry.BUSTED
    q_entry.save()
    run_clock_at(t, item_index_of_level(t, 2))
    assert cashier.register(t, p, method="CASH", actor=cashier_actor).entry.status == Entry.ACTIVE
    for person in (q, walk_in):
        with pytest.raises(DomainError):
            cashier.register(t, person, method="CASH", actor=cashier_actor)
    run_clock_at(t, item_index_of_level(t, 4))
    with pytest.raises(DomainError) as e:
        cashier.register(t, late_p, method="CASH", actor=cashier_actor)
    assert e.value.code == "late_registration_closed"


def test_fmt09_the_log_says_the_cashier_who_sold_the_last_seat_started_the_sit_and_go(make_tournament, make_person, cashier_actor, api, director):
    # The tenth sale starts the sit & go: the start, its clock and the sit & go's own line are
    # the cashier's doing at his desk, and the line says how many players it started with.
    t = make_tournament(format=Tournament.SNG, field_cap=10, table_size=10)
    for _ in range(10):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    rows = api(director).get(f"/api/v1/tournaments/{t.pk}/events/").json()
    by_action = {r["action"]: r for r in rows}
    started, clock, sng = by_action["tournaments.tournament.started"], by_action["tournaments.clock.started"], by_action["tournaments.sitandgo.started"]
    assert started["sentence"] == "Carl started the tournament with 10 players"
    assert clock["sentence"] == "Carl started the clock at level 1"
    assert sng["sentence"] == "Sit & go started with 10 players"
    assert [(r["actor_label"], r["device"]) for r in (started, clock, sng)] == [("carl", "desk-1")] * 3
