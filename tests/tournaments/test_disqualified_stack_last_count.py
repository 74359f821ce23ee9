"""PEN-07 and CR-06: what leaves play with a disqualified player is his own stack as last
counted, by the time it was counted; the floor's counted total reads the same counts."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tournaments.cashier import services as cashier
from tournaments.floor import services as floor
from tournaments.models import ChipAdjustment, ChipCount, Tournament

pytestmark = pytest.mark.django_db

BREAK = datetime(2026, 3, 14, 21, 30, tzinfo=UTC)


def test_the_newest_count_by_its_time_is_the_stack_removed_and_counted(make_tournament, make_person, cashier_actor, actor):
    """At the 21:30 break A is counted 41,000; the sheet of the 21:00 break (38,000) is typed in
    afterwards: A's stack is still 41,000. B is counted 20,000 and corrected to 22,500 in the
    same instant: the correction stands. C was never counted: his 30,000 bought (D plays on).
    The floor's total is 63,500; A, B and C disqualified in turn take out 41,000, 22,500, 30,000."""
    t = make_tournament(status=Tournament.RUNNING)
    a, b, c, _d = (cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4))
    with time_machine.travel(BREAK, tick=False):
        floor.record_chip_counts(t, [{"entry": a.pk, "chips": 41000}], occasion="BREAK", actor=actor)
        floor.record_chip_counts(t, [{"entry": b.pk, "chips": 20000}], occasion="BREAK", actor=actor)
        floor.record_chip_counts(t, [{"entry": b.pk, "chips": 22500}], occasion="MANUAL", actor=actor)
    ChipCount.objects.create(tournament=t, entry=a, chips=38000, occasion="BREAK", counted_at=BREAK - timedelta(minutes=30))
    assert floor.chip_count_summary(t)["counted_total"] == 63500
    for player, stack in ((a, 41000), (b, 22500), (c, 30000)):
        floor.issue_penalty(t, player, kind="DISQUALIFICATION", reason_code="CHIP_DUMPING", actor=actor)
        (removed,) = ChipAdjustment.objects.filter(entry=player, kind=ChipAdjustment.DISQUALIFICATION)
        assert removed.chips == -stack
