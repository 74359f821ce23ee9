"""Final-table deals (PAY-09): chip chop, ICM deal, even chop, custom deal, per-place check."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payouts.deals import (
    DealError,
    chip_chop,
    custom_deal,
    deal_ladder,
    even_chop,
    icm_deal,
    validate_deal_by_place,
)
from payouts.icm import icm_equities

D = Decimal
PRIZES = [D("10000.00"), D("6000.00"), D("4000.00"), D("2500.00")]


def test_chip_chop_worked_example():
    # Three left: 500,000 / 300,000 / 200,000 chips; places 1–3 pay 10,000 / 6,000 / 4,000.
    # Everyone is sure of the 3rd prize: 3 × 4,000 = 12,000. The other 20,000 − 12,000 =
    # 8,000 go by chips: 50 % = 4,000, 30 % = 2,400, 20 % = 1,600.
    # Deal: 4,000 + 4,000 = 8,000; 4,000 + 2,400 = 6,400; 4,000 + 1,600 = 5,600.
    deal = chip_chop([500_000, 300_000, 200_000], PRIZES)
    assert deal == [D("8000.00"), D("6400.00"), D("5600.00")]
    assert sum(deal) == D("20000.00")


def test_chip_chop_gives_leftover_cents_to_the_largest_stacks_first():
    # Shared part: 100.01 − 3 × 20.00 = 40.01 over 2/3/3 eighths of the chips:
    # 10.0025, 15.00375, 15.00375 → floored 10.00 + 15.00 + 15.00 = 40.00, one cent left.
    # The two largest stacks are equal: the first in seat order gets it.
    deal = chip_chop([2000, 3000, 3000], [D("50.01"), D("30.00"), D("20.00")])
    assert deal == [D("30.00"), D("35.01"), D("35.00")]


def test_chip_chop_splits_three_equal_stacks_with_the_odd_cent_to_the_first_seat():
    assert chip_chop([10, 10, 10], [D("50.00"), D("30.00"), D("20.00")]) == [
        D("33.34"),
        D("33.33"),
        D("33.33"),
    ]


def test_chip_chop_leaves_the_reserve_to_play_for():
    # Reserve 1,000: the shared part is 8,000 − 1,000 = 7,000 → 3,500 / 2,100 / 1,400.
    deal = chip_chop([500_000, 300_000, 200_000], PRIZES, reserve=D("1000.00"))
    assert deal == [D("7500.00"), D("6100.00"), D("5400.00")]
    assert sum(deal) + D("1000.00") == D("20000.00")


def test_a_reserve_larger_than_the_money_above_the_floor_is_refused():
    with pytest.raises(DealError) as refused:
        chip_chop([500_000, 300_000, 200_000], PRIZES, reserve=D("8000.01"))
    assert refused.value.code == "reserve_too_large"


def test_icm_deal_pays_each_player_his_equity_in_cents():
    # Equities 38.392857 / 32.75 / 28.857143 (see test_icm): rounded down to
    # 38.39 / 32.75 / 28.85 = 99.99, the odd cent to the largest stack.
    deal = icm_deal([5000, 3000, 2000], [D("50.00"), D("30.00"), D("20.00")])
    assert deal == [D("38.40"), D("32.75"), D("28.85")]
    assert sum(deal) == D("100.00")


def test_icm_deal_with_a_reserve_takes_it_out_by_chip_share():
    prizes = [D("5000.00"), D("3000.00"), D("2000.00")]
    stacks = [5000, 3000, 2000]
    deal = icm_deal(stacks, prizes, reserve=D("500.00"))
    equities = icm_equities(stacks, prizes)
    assert sum(deal) + D("500.00") == D("10000.00")
    for amount, equity, stack in zip(deal, equities, stacks):
        assert float(amount) == pytest.approx(equity - 500 * stack / 10000, abs=0.01)


def test_icm_deal_gives_equal_stacks_equal_amounts():
    deal = icm_deal([4000, 4000, 4000, 1000], PRIZES)
    assert deal[0] == deal[1] == deal[2]
    assert sum(deal) == sum(PRIZES)


def test_even_chop_splits_equally_with_odd_cents_to_the_largest_stacks():
    # 100.01 / 3 = 33.3366…: three times 33.33 and two odd cents.
    prizes = [D("50.00"), D("30.00"), D("20.01")]
    assert even_chop(3, prizes) == [D("33.34"), D("33.34"), D("33.33")]
    assert even_chop([100, 300, 200], prizes) == [D("33.33"), D("33.34"), D("33.34")]
    assert even_chop(2, prizes, reserve=D("10.00")) == [D("35.00"), D("35.00")]


def test_custom_deal_accepts_amounts_that_add_up_exactly():
    assert custom_deal(["9000", "6500", "4500"], PRIZES) == [
        D("9000.00"),
        D("6500.00"),
        D("4500.00"),
    ]
    assert custom_deal(["8500", "6000", "4500"], PRIZES, reserve="1000") == [
        D("8500.00"),
        D("6000.00"),
        D("4500.00"),
    ]


@pytest.mark.parametrize(
    ("amounts", "code"),
    [
        (["9000", "6500", "4499.99"], "wrong_total"),
        (["9000", "6500", "4500.01"], "wrong_total"),
        (["20500", "0", "-500"], "amount_negative"),
        (["9000.005", "6500", "4499.995"], "amount_not_in_cents"),
        (["20000"], "too_few_players"),
        (["abc", "1"], "bad_amount"),
    ],
)
def test_custom_deal_refuses_bad_amounts(amounts, code):
    with pytest.raises(DealError) as refused:
        custom_deal(amounts, PRIZES)
    assert refused.value.code == code


def test_a_deal_by_place_must_decrease_strictly_and_add_up():
    left = [D("10000"), D("6000"), D("4000")]
    assert validate_deal_by_place(["8000", "6400", "5600"], left) == [
        D("8000.00"),
        D("6400.00"),
        D("5600.00"),
    ]
    for amounts, code in [
        (["6666.67", "6666.67", "6666.66"], "not_strictly_decreasing"),  # equal chop
        (["6000", "8000", "6000"], "not_strictly_decreasing"),  # 2nd paid more than 1st
        (["8000", "6400", "5500"], "wrong_total"),
        (["8000", "12000"], "wrong_number_of_places"),
    ]:
        with pytest.raises(DealError) as refused:
            validate_deal_by_place(amounts, left)
        assert refused.value.code == code


def test_a_chip_chop_becomes_a_per_place_table_for_pay_09():
    left = PRIZES[:3]
    deal = chip_chop([200_000, 500_000, 300_000], left)
    ladder = deal_ladder(deal)
    assert ladder == [D("8000.00"), D("6400.00"), D("5600.00")]
    assert validate_deal_by_place(ladder, left) == ladder


def test_a_deal_needs_chips_and_two_players():
    with pytest.raises(DealError) as refused:
        chip_chop([1000, 0], PRIZES)
    assert refused.value.code == "bad_stack"
    with pytest.raises(DealError) as refused:
        icm_deal([1000], PRIZES)
    assert refused.value.code == "too_few_players"


money = st.integers(0, 5_000_000).map(lambda c: Decimal(c) / 100)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 10**8), min_size=2, max_size=9),
    st.lists(money, min_size=1, max_size=12),
    st.integers(0, 100),
)
def test_chip_chop_always_adds_up_exactly(stacks, prizes, reserve_percent):
    prizes = sorted(prizes, reverse=True)
    left = (prizes + [D(0)] * 9)[: len(stacks)]
    room = sum(left) - left[-1] * len(stacks)
    reserve = (room * reserve_percent / 100).quantize(D("0.01"), rounding="ROUND_DOWN")
    deal = chip_chop(stacks, prizes, reserve=reserve)
    assert sum(deal) + reserve == sum(left)
    assert all(a >= left[-1] for a in deal)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(1, 10**7), min_size=2, max_size=7),
    st.lists(money, min_size=1, max_size=8),
)
def test_icm_deal_always_adds_up_exactly(stacks, prizes):
    prizes = sorted(prizes, reverse=True)
    left = (prizes + [D(0)] * 7)[: len(stacks)]
    deal = icm_deal(stacks, prizes)
    assert sum(deal) == sum(left)
    for amount, equity in zip(deal, icm_equities(stacks, left)):
        assert abs(float(amount) - equity) < 0.02
