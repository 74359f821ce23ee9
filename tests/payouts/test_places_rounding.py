"""PAY-04: the rounding of a fractional number of places paid is a house setting
(`places_paid_rounding`), default half up: 63 entries × 15 % = 9.45 → 9 places, "UP" → 10."""

from decimal import Decimal as D

import pytest

from payouts import selectors as sel
from tournaments.cashier import services as cashier
from tournaments.house import HouseRules
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_sixty_three_entries_pay_nine_places_by_default_and_ten_rounded_up(make_tournament, make_person, cashier_actor):
    assert HouseRules().places_paid_rounding == "HALF_UP"
    t = make_tournament(buy_in=D("100"), fee=D("10"))
    for _ in range(63):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    assert sel.display_summary(t)["places_paid"] == 9
    Tournament.objects.filter(pk=t.pk).update(settings={"places_paid_rounding": "UP"})
    t.refresh_from_db()
    prizes = sel.table_prizes(t)
    assert sel.places_paid(t, prizes) == 10 and sum(sel.place_values(prizes)) == sel.prize_pool(t)
    Tournament.objects.filter(pk=t.pk).update(settings={"places_paid_rounding": "DOWN"})
    t.refresh_from_db()
    assert sel.display_summary(t)["places_paid"] == 9


def test_pay04_by_default_each_re_entry_counts_for_the_places_paid(make_tournament, make_person, cashier_actor):
    assert HouseRules().places_paid_counts == "ENTRIES"
    t = make_tournament(format=Tournament.REENTRY, max_entries_per_player=2, late_reg_closes_after_level=6)
    players = [make_person() for _ in range(10)]
    for p in players:
        cashier.register(t, p, method="CARD", actor=cashier_actor)
    assert sel.display_summary(t)["places_paid"] == 2  # 15 % of 10 = 1.5, half up
    for entry in t.entries.all():
        entry.status = entry.BUSTED
        entry.save()
    for p in players:
        cashier.reenter(t, p, method="CARD", actor=cashier_actor)
    # 20 entries of 10 players: 15 % of 20 = 3 places (counting players would pay 2)
    assert sel.display_summary(t)["places_paid"] == 3
