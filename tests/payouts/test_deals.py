"""Final-table deals (PAY-09): chip chop, ICM deal, even chop, custom deal, per-place check."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payouts.deals import (
    DealError,
    bounty_shares,
    check_chips_in_play,
    chip_chop,
    custom_deal,
    deal_bounties,
    deal_ladder,
    even_chop,
    icm_deal,
    scale_counts,
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


# --- ICM deals, custom deals and a deal's bounties, amounts worked by hand -----------------------

# Stacks 5,000 / 3,000 / 2,000 (50 / 30 / 20 %), prizes 500 / 300 / 200. By ICM, the leader
# finishes 1st half the time, 2nd 0.3 × 5/7 + 0.2 × 5/8 = 0.3392857 of the time and 3rd the
# rest (0.1607143): 250 + 101.7857 + 32.1429 = 383.93; the others 327.50 and 288.57 likewise.
ICM_STACKS = [5000, 3000, 2000]
ICM_PRIZES = [D("500.00"), D("300.00"), D("200.00")]


def test_an_icm_deal_for_three_pays_383_93_327_50_288_57():
    # 383.928…, 327.50, 288.571… floored to 999.99: the odd cent to the chip leader.
    assert icm_deal(ICM_STACKS, ICM_PRIZES) == [D("383.93"), D("327.50"), D("288.57")]
    # Seat order does not change what a stack is worth.
    assert icm_deal([2000, 5000, 3000], ICM_PRIZES) == [D("288.57"), D("383.93"), D("327.50")]


def test_an_icm_deal_keeps_the_reserve_back_from_each_player_by_his_chips():
    # Reserve 100: 50 / 30 / 20 of it come off the three equities: 333.93 / 297.50 / 268.57 = 900.
    assert icm_deal(ICM_STACKS, ICM_PRIZES, reserve="100") == [D("333.93"), D("297.50"), D("268.57")]
    # Reserve 700: the leader's 383.93 − 350 = 33.93, the others 117.50 and 148.57.
    assert icm_deal(ICM_STACKS, ICM_PRIZES, reserve="700") == [D("33.93"), D("117.50"), D("148.57")]


@pytest.mark.parametrize("reserve", ["800", "1000.01"])
def test_an_icm_deal_refuses_a_reserve_that_leaves_a_player_below_nothing(reserve):
    # 800 × 50 % = 400 is more than the leader's 383.93; 1,000.01 is more than the prizes left.
    with pytest.raises(DealError) as refused:
        icm_deal(ICM_STACKS, ICM_PRIZES, reserve=reserve)
    assert refused.value.code == "reserve_too_large"


def test_an_icm_deal_with_four_players_and_three_prizes_pays_the_fourth_only_his_chance():
    # 4th place pays nothing. Four equal stacks: each is worth a quarter of 1,000.
    assert icm_deal([10, 10, 10, 10], ICM_PRIZES) == [D("250.00")] * 4


def test_a_reserve_of_the_whole_money_above_the_lowest_prize_leaves_everyone_the_lowest():
    # 8,000 above the 4,000 everyone is sure of, all kept back: 4,000 each.
    assert chip_chop([500_000, 300_000, 200_000], PRIZES, reserve="8000") == [D("4000.00")] * 3


@pytest.mark.parametrize(("reserve", "code"), [("-1", "reserve_negative"), ("1.001", "amount_not_in_cents"), ("lots", "bad_amount")])
def test_a_reserve_must_be_cents_and_not_negative(reserve, code):
    with pytest.raises(DealError) as refused:
        chip_chop([500_000, 300_000, 200_000], PRIZES, reserve=reserve)
    assert refused.value.code == code


def test_an_even_chop_refuses_a_reserve_above_the_prizes_left_and_a_single_player():
    with pytest.raises(DealError) as refused:
        even_chop(3, ICM_PRIZES, reserve="1000.01")
    assert refused.value.code == "reserve_too_large"
    with pytest.raises(DealError) as refused:
        even_chop(1, ICM_PRIZES)
    assert refused.value.code == "too_few_players"
    # The whole 1,000 kept back: nothing guaranteed.
    assert even_chop(2, [D("600.00"), D("400.00")], reserve="1000") == [D("0.00"), D("0.00")]


def test_a_custom_deal_for_more_players_than_places_paid_shares_only_the_prizes():
    # Four players, three prizes (1,000 in all): the 4th place pays nothing.
    assert custom_deal(["400", "300", "200", "100"], ICM_PRIZES) == [D("400.00"), D("300.00"), D("200.00"), D("100.00")]
    with pytest.raises(DealError) as refused:
        custom_deal(["400", "300", "200", "100.01"], ICM_PRIZES)
    assert refused.value.code == "wrong_total"
    assert refused.value.params == {"total": D("1000.01"), "expected": D("1000.00")}
    with pytest.raises(DealError) as refused:
        custom_deal(["400", "300", "200", "99.99"], ICM_PRIZES)
    assert refused.value.params == {"total": D("999.99"), "expected": D("1000.00")}


def test_a_custom_deal_may_pay_a_player_nothing_but_not_less():
    assert custom_deal(["1000", "0"], [D("600.00"), D("400.00")]) == [D("1000.00"), D("0.00")]
    with pytest.raises(DealError) as refused:
        custom_deal(["1000.01", "-0.01"], [D("600.00"), D("400.00")])
    assert refused.value.code == "amount_negative"


@pytest.mark.parametrize("amount", ["NaN", "Infinity"])
def test_a_deal_amount_must_be_a_number_of_money(amount):
    with pytest.raises(DealError) as refused:
        custom_deal([amount, "0"], [D("600.00"), D("400.00")])
    assert refused.value.code == "bad_amount"


def test_a_deal_by_place_refuses_a_negative_place_and_a_single_place():
    with pytest.raises(DealError) as refused:
        validate_deal_by_place(["1000.01", "-0.01"], [D("600.00"), D("400.00")])
    assert refused.value.code == "amount_negative"
    with pytest.raises(DealError) as refused:
        validate_deal_by_place(["1000"], [D("1000.00")])
    assert refused.value.code == "too_few_players"
    with pytest.raises(DealError) as refused:
        validate_deal_by_place(["700", "700", "600"], [D("1000"), D("600"), D("400")])
    assert refused.value.params == {"place": 2, "amount": D("700.00"), "previous_place": 1, "previous": D("700.00")}


def test_a_stack_that_is_not_a_number_is_refused():
    for stacks in ([1000, "many"], [1000, None]):
        with pytest.raises(DealError) as refused:
            chip_chop(stacks, PRIZES)
        assert refused.value.code == "bad_stack"


# Heads 100 / 75 / 50 in play over stacks 50,000 / 30,000 / 20,000 (see test_deal_bounties).
HEADS = ["100", "75", "50"]
BOUNTY_STACKS = [50_000, 30_000, 20_000]


def test_a_deals_bounties_apart_are_each_players_own_head_and_need_chips():
    assert deal_bounties(HEADS, BOUNTY_STACKS, rule="APART") == [D("100.00"), D("75.00"), D("50.00")]
    with pytest.raises(DealError) as refused:
        deal_bounties(HEADS, [50_000, 30_000, 0], rule="APART")
    assert refused.value.code == "bad_stack"


def test_a_deals_bounties_added_are_shared_by_chips_or_equally():
    # 225 by 50 / 30 / 20 %: 112.50 / 67.50 / 45.00; equally 75.00 each.
    assert deal_bounties(HEADS, BOUNTY_STACKS, rule="ADDED") == [D("112.50"), D("67.50"), D("45.00")]
    assert deal_bounties(HEADS, BOUNTY_STACKS, rule="ADDED", equal=True) == [D("75.00")] * 3
    # 100.01 equally over three: 33.33 each and two odd cents, to the two largest stacks.
    assert bounty_shares([10, 30, 20], "100.01", equal=True) == [D("33.33"), D("33.34"), D("33.34")]
    # 100.00 by chips 1 / 1 / 1: 33.33 each and the odd cent to the first in seat order.
    assert bounty_shares([1, 1, 1], "100") == [D("33.34"), D("33.33"), D("33.33")]


def test_a_deals_bounties_refuse_a_negative_head_a_missing_head_and_an_unknown_rule():
    for heads, stacks, rule, code in [
        (["100", "-1", "50"], BOUNTY_STACKS, "APART", "amount_negative"),
        (["100", "75"], BOUNTY_STACKS, "APART", "wrong_number_of_places"),
        (HEADS, BOUNTY_STACKS, "SPLIT", "bad_bounty_rule"),
    ]:
        with pytest.raises(DealError) as refused:
            deal_bounties(heads, stacks, rule=rule)
        assert refused.value.code == code
    with pytest.raises(DealError) as refused:
        bounty_shares(BOUNTY_STACKS, "-0.01")
    assert refused.value.code == "amount_negative"


def test_stacks_that_are_the_chips_in_play_pass_and_others_are_refused_by_how_much():
    check_chips_in_play([50_000, 30_000, 20_000], 100_000)
    with pytest.raises(DealError) as refused:
        check_chips_in_play([50_000, 30_000, 20_000], 90_000)
    assert refused.value.params == {"counted": 100_000, "in_play": 90_000, "difference": 10_000}
    with pytest.raises(DealError) as refused:
        check_chips_in_play([50_000, 30_000, 20_000], 100_001)
    assert refused.value.params == {"counted": 100_000, "in_play": 100_001, "difference": -1}


def test_counts_taken_earlier_are_scaled_to_whole_chips_in_play():
    assert scale_counts([30_000, 20_000, 10_000], 720_000) == [360_000, 240_000, 120_000]
    # 100 over 1 / 1 / 1: 33 each, the odd chip to the first.
    assert scale_counts([1, 1, 1], 100) == [34, 33, 33]
    # 100 over 1 / 2 / 2 (20 / 40 / 40): exact.  101: 20.2 / 40.4 / 40.4, the chip to the largest remainder first.
    assert scale_counts([1, 2, 2], 101) == [20, 41, 40]
    # A player counted at nothing stays at nothing.
    assert scale_counts([0, 3, 1], 8) == [0, 6, 2]
    for counts in ([], [0, 0], [5, -1]):
        with pytest.raises(DealError) as refused:
            scale_counts(counts, 100)
        assert refused.value.code == "bad_stack"


def test_an_icm_deal_worth_exact_cents_is_paid_those_cents():
    # Stacks 1 / 2 / 5 eighths: the short stack finishes 1st 1/8 of the time, 2nd 1/4
    # (1/4 × 1/6 + 5/8 × 1/3) and 3rd 5/8: 62.50 + 75 + 125 = 262.50 exactly, never 262.49.
    # The middle stack: 125 + 300 × 19/42 + 200 × 25/84 = 320.238…; the leader the rest, 417.261…
    # Floored 262.50 + 320.23 + 417.26 = 999.99: the odd cent to the leader.
    assert icm_deal([1000, 2000, 5000], ICM_PRIZES) == [D("262.50"), D("320.23"), D("417.27")]


def test_an_icm_deal_over_places_that_pay_little_or_nothing():
    # Two equal stacks share what is left equally, however little; nothing left pays nothing.
    assert icm_deal([5000, 5000], [D("0.60"), D("0.40")]) == [D("0.50"), D("0.50")]
    assert icm_deal([5000, 3000], [D("0.00"), D("0.00")]) == [D("0.00"), D("0.00")]


def test_no_bounty_money_or_a_head_worth_nothing_or_little_is_still_shared():
    assert bounty_shares(BOUNTY_STACKS, "0") == [D("0.00")] * 3
    assert bounty_shares([1, 1], "0.50") == [D("0.25"), D("0.25")]
    # By chips unless told equally: 225 by 50 / 30 / 20 %.
    assert bounty_shares(BOUNTY_STACKS, "225") == [D("112.50"), D("67.50"), D("45.00")]
    assert deal_bounties(["100", "0", "0.50"], BOUNTY_STACKS, rule="APART") == [D("100.00"), D("0.00"), D("0.50")]


def test_a_missing_head_is_refused_saying_how_many_heads_for_how_many_players():
    with pytest.raises(DealError) as refused:
        deal_bounties(["100", "75"], BOUNTY_STACKS, rule="ADDED")
    assert refused.value.params == {"amounts": 2, "places": 3}


def test_counts_are_scaled_by_their_largest_remainders_not_by_their_size():
    # 5,000 / 3,000 counted, 10,002 in play: 6,251.25 / 3,750.75 → the chip left goes to the .75.
    assert scale_counts([5_000, 3_000], 10_002) == [6_251, 3_751]
    # One count of a single chip is enough to scale from.
    assert scale_counts([1, 0], 10) == [10, 0]
