"""CLK-06: when every table has finished a hand-for-hand hand the next one starts by itself,
logged in the name of the floor who reported the last table, and a break the two minutes a hand
reach is taken or passed over as the event's house setting says."""

from datetime import timedelta

import pytest
from django.utils import timezone

from seating import selectors as seating_selectors
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.models import BlindStructure, Clock, StructureItem
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0) + timedelta(days=1)


@pytest.mark.parametrize("policy,item,status", [("TAKE_BREAK", 1, Clock.PAUSED), ("SKIP_BREAK", 2, Clock.HAND_FOR_HAND)])
def test_the_hands_run_into_the_break_as_the_house_says(make_tournament, make_person, actor, cashier_actor, floor_user, policy, item, status):
    """Level 1 of 5 minutes, then a 10-minute break and level 2. Hand-for-hand from 4 minutes
    left: two hands of 2 minutes reach the break, taken (the clock waits at its start) or
    passed over (level 2, still hand-for-hand)."""
    st = BlindStructure.objects.create(name="Short first level", is_template=False)
    for position, row in enumerate(
        [dict(small_blind=100, big_blind=200, minutes=5), dict(kind=StructureItem.BREAK, minutes=10), dict(small_blind=200, big_blind=400, minutes=20)]
    ):
        StructureItem.objects.create(structure=st, position=position, **row)
    t = make_tournament(structure=st, settings={"h4h_break_policy": policy})
    for _ in range(20):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor, now=T0)
    clock_services.start_hand_for_hand(t, actor=actor, now=T0 + timedelta(minutes=1))
    floor = Actor(floor_user, "tablet-3")
    tables = [tb["number"] for tb in seating_selectors.table_map(t)["tables"]]
    for _hand in (1, 2):
        for n in tables:
            clock_services.report_hand_complete(t, n, actor=floor)
    clock = Clock.objects.get(tournament=t)
    assert (clock.item_index, clock.status) == (item, status)
    hands = t.events.filter(action="tournaments.clock.hand_for_hand_next_hand").order_by("id")
    assert [(e.actor_id, e.device) for e in hands] == [(floor_user.pk, "tablet-3")] * 2
