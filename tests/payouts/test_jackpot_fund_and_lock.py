"""The lock a jackpot win puts on the venue's fund until the next midnight (PAY-12): a win late in
the evening locks the fund for the rest of that evening only, and the room plays for it again
from the first minute of the next day."""

from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from payouts import selectors as sel
from payouts import services
from payouts.services import PayoutError
from tournaments.cashier import services as cashier
from tournaments.models import Tournament

from .test_jackpot import at_level, floor_actor  # noqa: F401 (fixture)

D = Decimal


def local(day, hour, minute=0):
    return timezone.make_aware(datetime.combine(day, time(hour, minute)), timezone.get_current_timezone())


@pytest.mark.django_db
def test_pay12_a_win_at_half_past_eleven_locks_the_fund_until_midnight_not_a_minute_longer(make_tournament, make_person, cashier_actor, floor_actor, actor):
    services.set_jackpot_base(D("1000.00"), actor=actor)
    # an evening days away from the clock on the wall: the lock follows the claim's own time
    evening = timezone.localdate() + timedelta(days=5)
    a, b = (make_tournament(format=Tournament.REENTRY, late_reg_closes_after_level=6, settings={"jackpot": True}) for _ in range(2))
    in_a = cashier.register(a, make_person(), method="CASH", actor=cashier_actor, jackpot=True, now=local(evening, 22)).entry
    in_b = cashier.register(b, make_person(), method="CASH", actor=cashier_actor, jackpot=True, now=local(evening, 22)).entry

    at_level(a, 1, now=local(evening, 23, 28))
    win = services.claim_jackpot(a, [in_a], both_hole_cards=True, actor=floor_actor, now=local(evening, 23, 30))
    midnight = local(evening + timedelta(days=1), 0)
    assert (win.amount, win.locked_until) == (D("1010.00"), midnight)  # the base and both fees, in level 1
    assert datetime.fromisoformat(sel.jackpot_summary(now=local(evening, 23, 31))["locked_until"]) == midnight

    at_level(b, 1, now=local(evening, 23, 35))
    with pytest.raises(PayoutError) as refused:
        services.claim_jackpot(b, [in_b], both_hole_cards=True, actor=floor_actor, now=local(evening, 23, 40))
    assert refused.value.code == "jackpot_locked"

    # until midnight the fund shows what the win left (nothing); from midnight sharp the base is back
    assert sel.jackpot_summary(now=local(evening, 23, 59))["fund"] == "0.00"
    assert (sel.jackpot_summary(now=midnight)["locked"], sel.jackpot_summary(now=midnight)["fund"]) == (False, "1000.00")
    # a minute after midnight it is a new day: the other table's royal flush wins
    after = midnight + timedelta(minutes=1)
    assert sel.jackpot_summary(now=after)["locked"] is False
    at_level(b, 1, now=after)
    again = services.claim_jackpot(b, [in_b], both_hole_cards=True, actor=floor_actor, now=after)
    assert (again.fund_before, again.amount) == (D("1000.00"), D("1000.00"))  # the base again, after the full win
