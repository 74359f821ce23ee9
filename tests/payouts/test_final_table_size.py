"""BAL-09 / PAY-09: one final-table size. A 6-max event plays a 7-handed final table: seating
forms it when the 8th player goes out, and a deal is refused before that and accepted then."""

from decimal import Decimal

import pytest

from payouts import services
from payouts.models import Deal
from seating import services as seating
from seating.models import Table
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.house import HouseRules
from tournaments.models import Entry
from tournaments.setup import lifecycle

from .deal_stacks import stacks_in_play

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def six_max(make_tournament, make_person, cashier_actor, actor):
    """8 players × €100 at 6-max (two tables of 4), seven places paid."""
    t = make_tournament(buy_in=D("100"), fee=D("0"), table_size=6)
    for _ in range(8):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    amounts = ["200", "150", "130", "110", "90", "70", "50"]
    services.edit_payout_table(t, [{"place": i, "amount": a} for i, a in enumerate(amounts, 1)], actor=actor)
    services.lock_payout_table(t, actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    t.refresh_from_db()
    return t


def stacks(t):
    playing = t.entries.filter(status=Entry.ACTIVE).order_by("number")
    return stacks_in_play(list(playing), [i + 1 for i in range(len(playing))])


def test_a_six_max_event_has_one_final_table_size_for_seating_and_deals(six_max, actor):
    t = six_max
    assert HouseRules.of(t).final_table_size == 7
    assert Table.objects.filter(tournament=t, in_play=True).count() == 2
    # 8 left: no final table yet, so no deal.
    assert services.deal_options(t, stacks(t))["final_table_size"] == 7
    with pytest.raises(DomainError) as e:
        services.propose_deal(t, stacks(t), method=Deal.CHIP_CHOP, actor=actor)
    assert e.value.code == "not_final_table"
    # The 8th player out: seating forms the final table of 7, and the deal is accepted.
    out = seating.record_bust(t, [t.entries.filter(status=Entry.ACTIVE).order_by("-number").first()], actor=actor)
    assert out.final_table is not None
    in_play = Table.objects.get(tournament=t, in_play=True)
    assert in_play.is_final and in_play.seats.count() == 7
    assert services.deal_options(t, stacks(t))["policy"] is None
    deal = services.propose_deal(t, stacks(t), method=Deal.CHIP_CHOP, actor=actor)
    assert len(deal.by_place) == 7
