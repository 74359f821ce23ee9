"""REG-12: a refund is made once, through the director, with a reason; asked again, it is refused
and gives nothing more, not even the expenses the house kept the first time."""

from decimal import Decimal

import pytest

from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.models import Entry, LedgerRow

pytestmark = pytest.mark.django_db


def test_reg12_a_refund_asked_again_is_refused_and_the_house_keeps_its_expenses(tournament, person, cashier_actor, actor):
    entry = cashier.register(tournament, person, method="CASH", actor=cashier_actor).entry
    row = cashier.refund(entry, reason="banned after paying", actor=actor, expenses=Decimal("15"))
    assert row.total == Decimal("-95.00")
    with pytest.raises(DomainError) as e:
        cashier.refund(entry, reason="asked again", actor=actor)
    assert e.value.code == "no_refund_due"
    assert str(e.value.message) == "No refund is due for this entry: it has been paid already."
    assert [(r.kind, r.total) for r in LedgerRow.objects.filter(entry=entry).order_by("pk")] == [("BUY_IN", Decimal("110.00")), ("REFUND", Decimal("-95.00"))]
    assert Entry.objects.get(pk=entry.pk).status == Entry.CANCELLED


def test_reg12_a_refund_reversed_can_be_made_again_once(tournament, person, cashier_actor, actor):
    entry = cashier.register(tournament, person, method="CASH", actor=cashier_actor).entry
    first = cashier.refund(entry, reason="wrong player", actor=actor)
    cashier.reverse(first, reason="refunded the wrong player", actor=actor)
    again = cashier.refund(entry, reason="the right one this time", actor=actor, expenses=Decimal("10"))
    assert again.total == Decimal("-100.00")
    with pytest.raises(DomainError) as e:
        cashier.refund(entry, reason="a third time", actor=actor)
    assert e.value.code == "no_refund_due"
