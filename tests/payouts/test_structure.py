"""Payout structures (PAY-03..PAY-05): exact totals, nice amounts, min cash, bands."""

import math
from decimal import Decimal

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from payouts.pool import places_paid
from payouts.structure import band_for, band_label, payout_band_places, payout_bands, payout_structure

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


# A venue's paper chart by field size: 10–20 entries pay three places, 21–50 five, 51 and more nine.
CHART = [
    {"from": 10, "to": 20, "percents": ["50", "30", "20"]},
    {"from": 21, "to": 50, "percents": ["40", "25", "15", "12", "8"]},
    {"from": 51, "to": None, "percents": ["30", "20", "13", "10", "8", "7", "5", "4", "3"]},
]


def test_a_venues_chart_pays_the_band_that_holds_the_field():
    assert band_for(CHART, 9) is None  # too few for the chart
    assert band_for(CHART, 10) is CHART[0]
    assert band_for(CHART, 20) is CHART[0]
    assert band_for(CHART, 21) is CHART[1]
    assert band_for(CHART, 50) is CHART[1]
    assert band_for(CHART, 51) is CHART[2]
    assert band_for(CHART, 5000) is CHART[2]
    assert band_for([{"from": 10, "percents": ["100"]}], 99) == {"from": 10, "percents": ["100"]}  # no "to": and more
    assert band_for([{"from": 10, "to": 20, "percents": ["100"]}], 21) is None


def test_a_charts_bands_read_as_the_chart_writes_them():
    assert [band_label(b) for b in CHART] == ["10–20", "21–50", "51+"]
    assert band_label({"from": 100}) == "100+"


@pytest.mark.parametrize(
    ("pool", "buy_in", "unit", "multiple"),
    [
        ("-5", "100", "5", "1.5"),
        ("NaN", "100", "5", "1.5"),
        ("100.001", "100", "5", "1.5"),
        ("1000", "100", "0", "1.5"),
        ("1000", "100", "0.001", "1.5"),
        ("1000", "-100", "5", "1.5"),
    ],
)
def test_a_table_from_a_pool_or_rounding_that_is_not_money_is_refused(pool, buy_in, unit, multiple):
    with pytest.raises(ValueError):
        payout_structure(100, D(pool), D(buy_in), rounding=D(unit), min_cash_multiple=D(multiple))


def test_no_entries_pay_no_places():
    assert payout_structure(0, D("0"), D("100")) == []


# Tables worked by hand from the curve (module docstring): two places get weights 1 and
# 2^−α with α = 1 + 0.5 / ln 3 = 1.45512, so 2nd place's share of what is above the min cash
# is 0.364725 / 1.364725 = 0.267252.


def test_two_places_from_10000_pay_7300_and_2700():
    # 2,000 units of 5, min cash 1.5 × 100 = 30 units: 2nd = 30 + 0.267252 × 1,940 = 548.47
    # units, floored to its nice step (2 % of it is 10.97: a step of 10) = 540 units = 2,700.
    assert payout_structure(10, D("10000"), D("100")) == [D("7300.00"), D("2700.00")]


def test_two_places_from_500_pay_335_and_165():
    # 100 units, min cash 15: 2nd = 15 + 0.267252 × 70 = 33.71 units, a step of 1 (2 % is
    # under one unit): 33 units = 165.
    assert payout_structure(10, D("500"), D("50")) == [D("335.00"), D("165.00")]


def test_two_places_from_4220_pay_3090_and_1130():
    # 844 units, min cash 2: 2nd = 2 + 0.267252 × 840 = 226.49 units; 2 % is 4.53, a step of
    # 2: 226 units = 1,130.
    assert payout_structure(10, D("4220"), D("5")) == [D("3090.00"), D("1130.00")]


def test_two_places_from_5130_pay_3755_and_1375():
    # 1,026 units, min cash 2: 2nd = 2 + 0.267252 × 1,022 = 275.13 units; 2 % is 5.50, a step
    # of 5: 275 units = 1,375.
    assert payout_structure(10, D("5130"), D("5")) == [D("3755.00"), D("1375.00")]


def test_four_places_from_130_in_tens_pay_70_30_20_10():
    # 13 units of 10 for 4 places, min cash one unit. Nice steps would leave 2nd and 1st
    # level, so each place is cut in whole units that leave one unit between neighbours:
    # 70 / 30 / 20 / 10.
    assert payout_structure(26, D("130"), D("5"), rounding=D("10")) == [D("70.00"), D("30.00"), D("20.00"), D("10.00")]


def test_six_places_from_24_give_up_the_min_cash_to_pay_each_place_more_than_the_next():
    # 24 units for 6 places: the min cash 7.50 is cut to 2 units, and even 2 units each
    # leave 1st no more than 2nd (2nd 6, 1st 4). At one unit each: 9 / 5 / 4 / 3 / 2 / 1.
    assert payout_structure(40, D("24"), D("5"), rounding=D("1")) == [D(n) for n in ("9.00", "5.00", "4.00", "3.00", "2.00", "1.00")]


def test_the_houses_rounding_of_places_decides_the_tables_length():
    # 63 × 15 % = 9.45 places: 9 by default, 10 rounded up.
    assert len(payout_structure(63, D("6111"), D("100"))) == 9
    assert len(payout_structure(63, D("6111"), D("100"), places_rounding="UP")) == 10


def test_an_odd_part_over_half_a_unit_also_goes_to_first_place():
    # 6,113 = 1,222 units of 5 and 3.00 over: never rounded up to a unit nobody has.
    prizes = payout_structure(63, D("6113.00"), D("100"))
    assert sum(prizes) == D("6113.00")
    assert prizes[0] % 5 == D("3.00")
    assert all(p % 5 == 0 for p in prizes[1:])


def test_four_places_from_nine_units_tie_only_at_the_bottom():
    # Four places each above the next need 4 + 3 + 2 + 1 = 10 units: with 9, every place gets
    # its floored share of the curve (3.77 / 2.12 / 1.66 / 1.45 units) and 1st the rest: 5 / 2 / 1 / 1.
    assert payout_structure(24, D("9"), D("1"), rounding=D("1"), min_cash_multiple=D("1")) == [D("5.00"), D("2.00"), D("1.00"), D("1.00")]


# Small pools in units of 1 where the min cash cannot be afforded: the min cash is cut to one
# unit so that places 1–9 each get at least one unit more than the next. Worked by hand: the
# curve (min cash 3 units) less, for each of places 2–9, the units it must keep above the
# places below it, pooled where it rises (a lower place may not get more), floored, and the
# units added back.


def test_nine_places_from_61_units_keep_each_place_above_the_next():
    # Curve 17.32 / 9.16 / 6.76 / 5.65 / 5.02 / 4.62 / 4.34 / 4.14 / 3.99 less 7, 6, …, 0:
    # 2nd 2.16 alone, 3rd–9th pooled at 1.93: 2 + 7 = 9, then 1 + 6 … 1 + 0; 1st the rest, 24.
    prizes = payout_structure(57, D("61"), D("5"), rounding=D("1"))
    assert prizes == [D(n) for n in ("24.00", "9.00", "7.00", "6.00", "5.00", "4.00", "3.00", "2.00", "1.00")]


def test_eleven_places_from_66_units_pay_the_last_band_as_the_ninth_place():
    # Places 10–11 are one band (curve 3.78). Everything from 2nd down pools at 2.19: 2 units
    # each, plus 7, 6, …, 0 for places 2–9: 9 / 8 / … / 2, then 2 / 2; 1st the rest, 18.
    prizes = payout_structure(70, D("66"), D("5"), rounding=D("1"))
    assert prizes == [D(n) for n in ("18.00", "9.00", "8.00", "7.00", "6.00", "5.00", "4.00", "3.00", "2.00", "2.00", "2.00")]


def test_eight_places_from_48_units_keep_each_place_above_the_next():
    # Curve less 6, 5, …, 0 pools at 1.93 from 2nd down: 1 + 6 = 7, 6, …, 1; 1st the rest, 20.
    prizes = payout_structure(50, D("48"), D("5"), rounding=D("1"))
    assert prizes == [D(n) for n in ("20.00", "7.00", "6.00", "5.00", "4.00", "3.00", "2.00", "1.00")]
