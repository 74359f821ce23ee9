"""Payout structures (PAY-03..PAY-05): exact totals, nice amounts, min cash, bands."""

import math
from decimal import Decimal

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from payouts.pool import places_paid
from payouts.structure import payout_band_places, payout_bands, payout_structure

D = Decimal


def test_scenario_21_pays_30_places_summing_to_194000():
    prizes = payout_structure(200, D("194000.00"), D("1000"))
    assert len(prizes) == 30
    assert sum(prizes) == D("194000.00")
    assert all(p % 5 == 0 for p in prizes)
    assert prizes[-1] >= D("1500")  # min cash 1.5 buy-ins
    assert 0.15 <= prizes[0] / D("194000") <= 0.30


def test_63_entries_pay_nine_strictly_decreasing_places():
    pool = D("6111.00")
    prizes = payout_structure(63, pool, D("100"))
    assert len(prizes) == 9
    assert sum(prizes) == pool
    assert all(a > b for a, b in zip(prizes, prizes[1:]))
    assert 0.30 <= prizes[0] / pool <= 0.50


def test_two_places_pay_about_two_thirds_to_the_winner():
    prizes = payout_structure(10, D("1000"), D("100"))
    assert len(prizes) == 2
    assert sum(prizes) == D("1000")
    assert D("0.60") <= prizes[0] / 1000 <= D("0.70")


def test_big_fields_are_paid_in_growing_bands():
    prizes = payout_structure(30_000, D("29100000"), D("1000"))
    assert len(prizes) == 4500
    assert sum(prizes) == D("29100000")
    bands = payout_bands(prizes)
    assert [(first, last) for first, last, _ in bands[:16]] == [
        (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 9),
        (10, 12), (13, 15), (16, 18), (19, 27), (28, 36), (37, 45), (46, 54),
    ]  # fmt: skip
    assert len(bands) < 100
    assert prizes[-1] >= D("1500")


def test_band_places_grow_with_the_field():
    assert payout_band_places(30)[-3:] == [(16, 18), (19, 27), (28, 30)]
    bands = payout_band_places(1000)
    assert (172, 180) in bands and (181, 198) in bands and (361, 396) in bands
    widths = [last - first + 1 for first, last in bands]
    assert widths == sorted(widths) or max(widths[:-1]) <= 72


def significant_digits(number: int) -> int:
    return len(str(number).rstrip("0"))


@pytest.mark.parametrize("entries", [100, 1000, 6666, 30_000])
def test_amounts_are_nice_round_numbers(entries):
    # Each amount is floored to a step of about 1–2 % of itself (5, 10, 25, 50, 100,
    # 250 … with €5 units), so counted in units it has at most 3 significant digits:
    # 1,500,000 / 970,000 / 247,500 / 2,750 — never 2,743.
    pool = D(entries) * 970
    prizes = payout_structure(entries, pool, D("1000"))
    for amount in prizes[1:]:
        assert significant_digits(int(amount / 5)) <= 3, amount


def test_a_pool_not_in_whole_units_puts_the_odd_part_on_first_place():
    prizes = payout_structure(63, D("6111.37"), D("100"))
    assert sum(prizes) == D("6111.37")
    assert prizes[0] % 5 == D("1.37")
    assert all(p % 5 == 0 for p in prizes[1:])


def test_min_cash_is_lowered_when_the_pool_cannot_afford_it():
    # 100 % paid: 20 places for 20 × 100. 1.5 buy-ins each would take 1.5 × the pool.
    prizes = payout_structure(20, D("2000"), D("100"), percent_paid=100)
    assert len(prizes) == 20
    assert sum(prizes) == D("2000")
    assert prizes[-1] >= D("5")
    assert all(a >= b for a, b in zip(prizes, prizes[1:]))


def test_a_pool_smaller_than_one_unit_per_place_is_refused():
    with pytest.raises(ValueError):
        payout_structure(1000, D("100"), D("1"))


def test_a_zero_pool_pays_nothing_to_every_place():
    assert payout_structure(20, D("0"), D("0")) == [D("0.00")] * 3


def test_payout_bands_group_equal_places_for_display():
    amounts = [D(100), D(50), D(20), D(20), D(20), D(10)]
    assert payout_bands(amounts) == [
        (1, 1, D(100)),
        (2, 2, D(50)),
        (3, 5, D(20)),
        (6, 6, D(10)),
    ]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 30_000),
    st.integers(1, 5_000),
    st.sampled_from([0, 3, 4, 10]),
    st.sampled_from([10, 15, 20]),
    st.sampled_from([D("1"), D("5"), D("10"), D("25")]),
    st.sampled_from([D("1"), D("1.5"), D("2")]),
)
def test_every_structure_adds_up_and_never_increases(entries, buy_in, deduction, percent, unit, multiple):
    pool = (D(entries * buy_in) * (100 - deduction) / 100).quantize(D("0.01"))
    places = places_paid(entries, percent)
    total_units = int(pool // unit)
    assume(total_units >= places)
    prizes = payout_structure(entries, pool, D(buy_in), percent_paid=percent, rounding=unit, min_cash_multiple=multiple)
    assert len(prizes) == places
    assert sum(prizes) == pool
    assert all(a >= b for a, b in zip(prizes, prizes[1:]))
    assert all(p % unit == 0 for p in prizes[1:])
    assert (prizes[0] - pool % unit) % unit == 0
    assert prizes[-1] > 0
    min_cash_units = math.ceil(multiple * buy_in / unit)
    if places * min_cash_units <= total_units / 2:
        assert prizes[-1] >= multiple * buy_in
    if total_units >= 10 * places + 100:
        top = prizes[: min(9, places)]
        assert all(a > b for a, b in zip(top, top[1:]))


@pytest.mark.parametrize(
    "entries, buy_in, unit, multiple",
    [(26, 5, 10, "1.5"), (40, 5, 10, "1.5"), (20, 3, 5, "1.5"), (33, 4, 10, "1"), (48, 5, 10, "2"), (70, 2, 5, "1.5"), (90, 5, 10, "1.5")],
)
def test_pay03_a_small_pool_in_big_units_still_pays_each_better_place_more(entries, buy_in, unit, multiple):
    """A pool of a few units a place (130 in tens for four places): the table is made whole
    units at a time and the curve's nice steps do not fit, yet it adds up, never pays a place more
    than a better one, pays each of the first nine places strictly more than the next wherever
    whole units allow it (nine places need 9 + 8 + … + 1 units, the others one each), and keeps
    the min cash where the pool affords it."""
    pool, unit, multiple = D(entries * buy_in), D(unit), D(multiple)
    prizes = payout_structure(entries, pool, D(buy_in), rounding=unit, min_cash_multiple=multiple)
    places = places_paid(entries, 15)
    assert len(prizes) == places and sum(prizes) == pool
    assert all(a >= b for a, b in zip(prizes, prizes[1:])), prizes
    assert all(p % unit == 0 for p in prizes[1:]) and (prizes[0] - pool % unit) % unit == 0, prizes  # the odd part on 1st
    assert prizes[-1] > 0
    n = min(9, places)
    if pool / unit >= n * (n + 1) // 2 + (places - n):
        top = prizes[:n]
        assert all(a > b for a, b in zip(top, top[1:])), prizes
    if pool / unit >= 2 * places * math.ceil(multiple * buy_in / unit):
        assert prizes[-1] >= multiple * buy_in, prizes


def test_pay03_two_places_from_two_units_share_the_pool_evenly_rather_than_pay_second_more():
    """Ten players at 1 in units of 5: 10 to pay two places, two units in all. First cannot get
    more than second without a unit to spare, so each gets one unit: never more for second."""
    prizes = payout_structure(10, D(10), D(1), rounding=D(5), min_cash_multiple=D(1))
    assert prizes == [D("5.00"), D("5.00")]
