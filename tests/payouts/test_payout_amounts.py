"""The lobby asks for the automatic payout proposal after every change of a running event: its
amounts are computed once per arguments (``payouts.selectors.table.payout_amounts``), and must be
exactly what ``payout_structure`` answers, for every argument that changes them."""

from decimal import Decimal

import pytest

from payouts.selectors import table
from payouts.structure import payout_structure


@pytest.mark.parametrize(
    "entries,pool,buy_in,kwargs",
    [
        (100, Decimal("9700"), Decimal("100"), {}),
        (10_000, Decimal("970000.00"), Decimal("100"), {"percent_paid": 15, "rounding": Decimal("5")}),
        (10_001, Decimal("970100.00"), Decimal("100"), {"percent_paid": 15, "rounding": Decimal("5")}),
        (37, Decimal("1234.56"), Decimal("30"), {"min_cash_multiple": Decimal("2"), "rounding": Decimal("0.01")}),
        (37, Decimal("1234.56"), Decimal("30"), {"min_cash_multiple": Decimal("2"), "rounding": Decimal("1")}),
    ],
)
def test_the_kept_amounts_are_payout_structures_every_time(entries, pool, buy_in, kwargs):
    table._STRUCTURES.clear()
    want = payout_structure(entries, pool, buy_in, **kwargs)
    first = table.payout_amounts(entries, pool, buy_in, **kwargs)
    again = table.payout_amounts(entries, pool, buy_in, **kwargs)
    assert first == again == want
    assert [str(a) for a in again] == [str(a) for a in want]  # the same digits, not only equal
    again.append(Decimal(1))  # a caller's list is its own
    assert table.payout_amounts(entries, pool, buy_in, **kwargs) == want


def test_equal_pools_written_differently_are_kept_apart():
    table._STRUCTURES.clear()
    for pool in (Decimal("1000"), Decimal("1000.00"), Decimal("1E+3")):
        assert [str(a) for a in table.payout_amounts(20, pool, Decimal("50"))] == [str(a) for a in payout_structure(20, pool, Decimal("50"))]
    assert len(table._STRUCTURES) == 3


def test_a_pool_too_small_is_refused_every_time():
    table._STRUCTURES.clear()
    for _ in range(2):
        with pytest.raises(ValueError):
            table.payout_amounts(100, Decimal("10"), Decimal("100"), rounding=Decimal("5"))
    assert not table._STRUCTURES


def test_the_kept_ladder_is_the_ladder_of_the_prizes_asked_about():
    table._LADDERS.clear()
    cash = [
        {"place": i, "kind": "CASH", "amount": a, "description": "", "target": None}
        for i, a in enumerate(payout_structure(2_000, Decimal("200000"), Decimal("100")), start=1)
    ]
    mixed = [
        *cash[:3],
        {"place": 3, "kind": "TICKET", "amount": Decimal("50"), "description": "Main event"},
        {"place": 4, "kind": "ITEM", "amount": Decimal("0"), "description": "Trophy"},
        *cash[3:],
    ]
    for prizes in (cash, mixed, cash[:9], []):
        first = table.ladder(prizes)
        assert first == table._ladder(prizes)
        first[0:0] = [{"places": "changed by a caller"}] if first else []
        if first:
            first[1]["amount"] = "changed by a caller"
        assert table.ladder(prizes) == table._ladder(prizes)  # each caller its own copy
    changed = [dict(p) for p in cash]
    changed[-1]["amount"] += 5
    assert table.ladder(changed) == table._ladder(changed) != table._ladder(cash)
