"""A sale after the last bust (found by the simulator): one player left has won — place 1, the
mystery money still in play carried over — while late registration was still open. A new entry
sold then played on after the end: its bust drew an envelope the bag had already given away.
Once the winner is decided nothing more is sold."""

from decimal import Decimal

import pytest

from payouts import reports, services
from payouts import selectors as sel
from seating import services as seating
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.clock import selectors as clock_selectors
from tournaments.models import Entry
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal


def test_nothing_is_sold_once_one_player_is_left(make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(
        buy_in=D("50"),
        fee=D("10"),
        format="REENTRY",
        max_entries_per_player=2,
        late_reg_closes_after_level=3,
        settings={"bounty": "MYSTERY", "bounty_amount": "10", "mystery_from": "START", "mystery_leftover": "CARRY_OVER"},
    )
    e = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    services.set_envelopes(t, ["15", "10", "5"], actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True, start_clock=True)
    t.refresh_from_db()
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)
    assert clock_selectors.late_registration_open(t)
    assert Entry.objects.get(pk=e[0].pk).place == 1  # the winner, the envelope left carried over
    with pytest.raises(DomainError) as late:
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    with pytest.raises(DomainError) as again:
        cashier.reenter(t, e[1].person, method="CASH", actor=cashier_actor)
    assert (late.value.code, again.value.code) == ("winner_decided", "winner_decided")
    money = sel.bounty_money(t)
    assert (money["in"], money["in_bag"], money["difference"]) == (D("30"), D("0"), D("0"))
    assert reports.reconciliation_data(t)["balanced"]
