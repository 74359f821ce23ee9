"""Prize pool, guarantees, places paid and shared places (PAY-01, PAY-02, PAY-04, ELM-06)."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payouts.pool import places_paid, prize_pool, shared_place_amounts

D = Decimal


def test_scenario_21_sanremo_pool_is_194000_and_pays_30_or_20_places():
    pool = prize_pool(200 * D("1000"), deductions_percent={"casino": 3})
    assert pool.collected == D("200000.00")
    assert pool.deductions == {"casino": D("6000.00")}
    assert pool.net == pool.total == D("194000.00")
    assert pool.overlay == D("0.00")
    assert places_paid(200, 15) == 30  # main event
    assert places_paid(200, 10) == 20  # side event


def test_places_paid_rounds_half_up_by_default():
    assert places_paid(63, 15) == 9  # 9.45
    assert places_paid(70, 15) == 11  # 10.5
    assert places_paid(70, 15, rounding="DOWN") == 10
    assert places_paid(61, 15, rounding="UP") == 10  # 9.15


def test_places_paid_is_at_least_one_and_never_more_than_the_entries():
    assert places_paid(2, 15) == 1
    assert places_paid(3, 100) == 3
    assert places_paid(0, 15) == 0
    # A single entry is paid: 1 × 15 % = 0.15 places, lifted to one.
    assert places_paid(1, 15) == 1
    with pytest.raises(ValueError):
        places_paid(10, 0)


def test_a_gross_guarantee_is_topped_up_before_the_staff_fee():
    # PAY-02 default: 80,000 collected, 100,000 guaranteed gross, 4 % staff fee.
    pool = prize_pool(D("80000"), deductions_percent={"staff_service": 4}, guarantee=D("100000"))
    assert pool.overlay == D("20000.00")
    assert pool.gross == D("100000.00")
    assert pool.deductions == {"staff_service": D("4000.00")}
    assert pool.net == D("76000.00")
    assert pool.total == D("96000.00")


def test_a_net_guarantee_is_what_the_players_share_after_deductions():
    pool = prize_pool(
        D("80000"),
        deductions_percent={"staff_service": 4},
        guarantee=D("100000"),
        guarantee_is_gross=False,
    )
    assert pool.deductions == {"staff_service": D("3200.00")}
    assert pool.net == D("76800.00")
    assert pool.overlay == D("23200.00")
    assert pool.total == D("100000.00")


def test_a_guarantee_already_met_adds_nothing():
    pool = prize_pool(D("120000"), deductions_percent=[4], guarantee=D("100000"))
    assert pool.overlay == D("0.00")
    assert pool.deductions == {"deduction_1": D("4800.00")}
    assert pool.total == D("115200.00")


def test_chip_leader_prizes_come_out_of_the_pool():
    # PAY-02 / PAY-08: the Day 1 chip-leader prizes 2,000 / 1,000 / 500 are inside the
    # gross guarantee.
    pool = prize_pool(
        D("150000"),
        deductions_percent={"staff_service": 4},
        fixed_deductions={"chip_leaders": D("3500")},
        guarantee=D("100000"),
    )
    assert pool.deductions == {"staff_service": D("6000.00"), "chip_leaders": D("3500.00")}
    assert pool.total == D("140500.00")


def test_each_percentage_is_rounded_to_the_cent_on_its_own():
    pool = prize_pool(D("333.33"), deductions_percent={"casino": 3, "staff": D("1.5")})
    assert pool.deductions == {"casino": D("10.00"), "staff": D("5.00")}
    assert pool.total == D("318.33")


def test_scenario_3_three_players_tied_for_50th_share_the_50th_prize():
    # 50 places paid, three players tied for 50th–52nd: only the 50th prize is money.
    assert shared_place_amounts([D("1500.00")], 3) == [D("500.00")] * 3
    assert shared_place_amounts([D("1000.00")], 3) == [D("333.34"), D("333.33"), D("333.33")]


def test_a_tie_over_two_paid_places_shares_their_sum():
    assert shared_place_amounts([D("3000"), D("2001")], 2) == [D("2500.50"), D("2500.50")]
    assert shared_place_amounts([D("3000"), D("2000.01")], 2) == [D("2500.01"), D("2500.00")]


def test_the_house_may_keep_the_odd_cents():
    shares = shared_place_amounts([D("1000.00")], 3, odd_cents="HOUSE")
    assert shares == [D("333.33")] * 3
    assert D("1000.00") - sum(shares) == D("0.01")


def test_bad_pool_inputs_are_refused():
    # The refusal names what is wrong.
    with pytest.raises(ValueError) as refused:
        prize_pool(D("-1"))
    assert str(refused.value) == "contributions must be a non-negative amount"
    with pytest.raises(ValueError):
        prize_pool(D("100"), deductions_percent={"a": 60, "b": 50})
    with pytest.raises(ValueError):
        shared_place_amounts([D("10"), D("5"), D("1")], 2)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 10**9).map(lambda c: Decimal(c) / 100),
    st.lists(st.integers(0, 1000).map(lambda p: Decimal(p) / 100), max_size=3),
    st.one_of(st.none(), st.integers(0, 10**9).map(lambda c: Decimal(c) / 100)),
    st.booleans(),
)
def test_the_pool_lines_always_add_up(collected, percents, guarantee, gross):
    pool = prize_pool(collected, deductions_percent=percents, guarantee=guarantee, guarantee_is_gross=gross)
    assert pool.net == pool.collected - sum(pool.deductions.values(), D(0))
    assert pool.total == pool.net + pool.overlay
    assert pool.overlay >= 0
    if guarantee is not None:
        reached = pool.gross if gross else pool.total
        assert reached >= guarantee
        assert pool.overlay == 0 or reached == guarantee


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**8).map(lambda c: Decimal(c) / 100), st.integers(1, 12))
def test_shared_places_always_add_up(total, tie_size):
    shares = shared_place_amounts([total], tie_size)
    assert sum(shares) == total
    assert max(shares) - min(shares) <= D("0.01")


def test_a_cancelled_event_has_no_overlay_no_deduction_and_nothing_to_share():
    # Issue #38: the demo event's €5,000 guarantee on €2,620 of prize parts, cancelled.
    b = prize_pool(D("2620"), deductions_percent={"casino": 3}, guarantee=D("5000"), cancelled=True)
    assert (b.overlay, b.deductions, b.total, b.gross, b.refunds) == (D("0"), {}, D("0"), D("0"), D("2620"))
    # Nothing deducted: the net is every cent collected, all of it owed back.
    assert (b.collected, b.net) == (D("2620.00"), D("2620.00"))


def test_one_deduction_given_alone_or_as_a_float_is_taken_to_the_cent():
    # 3 % of 1,000.00 = 30.00; 1.5 % (a float) of 1,000.00 = 15.00, never 14.99.
    assert prize_pool(D("1000"), deductions_percent=3).deductions == {"deduction_1": D("30.00")}
    assert prize_pool(D("1000"), deductions_percent=3).total == D("970.00")
    assert prize_pool(D("1000"), deductions_percent={"staff": 1.5}).deductions == {"staff": D("15.00")}
    assert prize_pool(D("1000"), deductions_percent=(3, 1)).deductions == {"deduction_1": D("30.00"), "deduction_2": D("10.00")}
    # No deduction at all: the pool is what was collected.
    assert prize_pool(D("1000")).total == D("1000.00")
    # 0 % and 100 % are allowed.
    assert prize_pool(D("1000"), deductions_percent={"none": 0}).total == D("1000.00")
    assert prize_pool(D("1000"), deductions_percent={"all": 100}).total == D("0.00")


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"deductions_percent": {"casino": D("100.01")}}, "deduction 'casino' must be between 0 and 100 percent"),
        ({"deductions_percent": {"casino": -1}}, "deduction 'casino' must be between 0 and 100 percent"),
        ({"deductions_percent": {"casino": 60, "staff": D("40.01")}}, "the deductions add up to more than 100 percent"),
        ({"deductions_percent": {"casino": 3}, "fixed_deductions": {"casino": D("10")}}, "a deduction cannot be both a percentage and a fixed amount"),
        ({"fixed_deductions": {"chip_leaders": D("1000.01")}}, "the deductions are larger than the prize pool"),
        ({"fixed_deductions": {"chip_leaders": D("10.001")}}, "chip_leaders must be a whole number of cents"),
        ({"guarantee": D("-1")}, "guarantee must be a non-negative amount"),
    ],
)
def test_deductions_the_pool_cannot_bear_are_refused(kwargs, words):
    # Each refusal says which figure is wrong and why.
    with pytest.raises(ValueError) as refused:
        prize_pool(D("1000"), **kwargs)
    assert str(refused.value) == words


def test_a_net_guarantee_already_met_adds_nothing():
    pool = prize_pool(D("1000"), deductions_percent={"casino": 3}, guarantee=D("970"), guarantee_is_gross=False)
    assert (pool.overlay, pool.total) == (D("0.00"), D("970.00"))
    pool = prize_pool(D("1000"), deductions_percent={"casino": 3}, guarantee=D("970.01"), guarantee_is_gross=False)
    assert (pool.overlay, pool.total) == (D("0.01"), D("970.01"))


def test_a_shared_place_refuses_an_empty_tie_too_many_places_and_an_unknown_rule():
    refusals = [
        (([D("100")], 0), {}, "a tie has at least one player"),
        (([D("100"), D("50")], 1), {}, "a tie of m players covers exactly m places"),
        (([D("100")], 3), {"odd_cents": "SPLIT"}, "unknown odd-cent rule 'SPLIT'; use FIRST_LISTED or HOUSE"),
        (([D("-1")], 1), {}, "prize must be a non-negative amount"),
    ]
    for args, kwargs, words in refusals:
        with pytest.raises(ValueError) as refused:
            shared_place_amounts(*args, **kwargs)
        assert str(refused.value) == words
    # Three players tied beyond the last place paid share nothing, whichever odd-cent rule.
    assert shared_place_amounts([], 3, odd_cents="HOUSE") == [D("0.00")] * 3
    assert shared_place_amounts([], 3) == [D("0.00")] * 3
    # One player "tied" alone takes his place's prize.
    assert shared_place_amounts([D("100")], 1) == [D("100.00")]
    # The house keeps the odd cents of two places shared by two: 100.01 → 50.00 each.
    assert shared_place_amounts([D("60"), D("40.01")], 2, odd_cents="HOUSE") == [D("50.00"), D("50.00")]


@pytest.mark.parametrize(
    ("entries", "percent", "rounding", "words"),
    [
        (-1, 15, "HALF_UP", "entries cannot be negative"),
        (100, 15, "SIDEWAYS", "unknown rounding 'SIDEWAYS'; use one of ('HALF_UP', 'DOWN', 'UP')"),
        (100, D("100.01"), "HALF_UP", "the percentage paid must be above 0 and at most 100"),
        (100, -5, "HALF_UP", "the percentage paid must be above 0 and at most 100"),
    ],
)
def test_places_paid_refuses_what_no_house_setting_means(entries, percent, rounding, words):
    with pytest.raises(ValueError) as refused:
        places_paid(entries, percent, rounding)
    assert str(refused.value) == words


def test_places_paid_reads_a_float_percentage_exactly():
    # 70 × 15.0 % = 10.5 → 11 (half up); 1,000 × 0.15 % = 1.5 → 2.
    assert places_paid(70, 15.0) == 11
    assert places_paid(1000, 0.15) == 2
    assert places_paid(20, 100) == 20
