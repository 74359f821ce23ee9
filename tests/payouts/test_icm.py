"""ICM equities: published examples, a brute-force second method, and invariants."""

import random
from decimal import Decimal
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payouts import icm
from payouts.icm import icm_equities, icm_equities_with_error, is_exact


def harville_by_permutations(stacks, prizes, number=float):
    """Second method: sum over every finishing order of its Harville probability."""
    chips = [number(s) for s in stacks]
    equities = [number(0)] * len(chips)
    for order in permutations(range(len(chips))):
        probability = number(1)
        left = sum(chips)
        for player in order:
            probability *= chips[player] / left
            left -= chips[player]
        for place, player in enumerate(order[: len(prizes)]):
            equities[player] += probability * number(prizes[place])
    return equities


def test_the_wikipedia_three_player_example():
    # Source: Wikipedia, "Independent Chip Model", section Model: A, B, C hold 50 %, 30 %,
    # 20 % of the chips; 1st pays 70, 2nd pays 30; ICM(A) ≈ 45, ICM(B) ≈ 32.
    # By hand: P(A 1st) = 0.5; P(A 2nd) = 0.3·50/70 + 0.2·50/80 = 0.3392857
    #   ICM(A) = 70·0.5 + 30·0.3392857 = 45.1786
    #   P(B 2nd) = 0.5·30/50 + 0.2·30/80 = 0.375 → ICM(B) = 70·0.3 + 30·0.375 = 32.25
    #   ICM(C) = 100 − 45.1786 − 32.25 = 22.5714
    a, b, c = icm_equities([50, 30, 20], [70, 30])
    assert a == pytest.approx(45.178571, abs=1e-6)
    assert b == pytest.approx(32.25, abs=1e-9)
    assert c == pytest.approx(22.571429, abs=1e-6)


def test_the_classic_fifty_thirty_twenty_example():
    # Stacks 5,000 / 3,000 / 2,000, prizes 50 / 30 / 20. Published by the pailiku.com ICM
    # calculator (tools/icm-calculator): 38.39 / 32.75 / 28.86. By hand:
    #   P(A 2nd) = 0.3·5/7 + 0.2·5/8 = 0.3392857, P(A 3rd) = 1 − 0.5 − 0.3392857
    #   ICM(A) = 50·0.5 + 30·0.3392857 + 20·0.1607143 = 38.392857
    equities = icm_equities([5000, 3000, 2000], [50, 30, 20])
    assert [round(e, 2) for e in equities] == [38.39, 32.75, 28.86]
    assert equities == pytest.approx(harville_by_permutations([5000, 3000, 2000], [50, 30, 20]))


def test_heads_up_pays_the_second_prize_plus_the_chip_share_of_the_difference():
    # With two players P(win) = chip share: 30 + 40·0.8 = 62, 30 + 40·0.2 = 38.
    assert icm_equities([8000, 2000], [70, 30]) == pytest.approx([62, 38])


def test_winner_take_all_pays_by_chip_share():
    assert icm_equities([1, 2, 7], [100]) == pytest.approx([10, 20, 70])


def test_it_matches_brute_force_on_random_small_tables():
    rng = random.Random(7)
    for _ in range(150):
        stacks = [rng.randint(1, 10_000) for _ in range(rng.randint(1, 7))]
        prizes = sorted((rng.randint(0, 1000) for _ in range(rng.randint(1, 9))), reverse=True)
        assert icm_equities(stacks, prizes) == pytest.approx(harville_by_permutations(stacks, prizes), abs=1e-9)


def test_it_keeps_full_precision_for_tiny_stacks_beside_a_huge_one():
    stacks = [10**9, 1, 2, 3, 10**6]
    prizes = [500, 300, 120, 50, 30]
    exact = harville_by_permutations(stacks, prizes, number=Fraction)
    for got, want in zip(icm_equities(stacks, prizes), exact):
        assert got == pytest.approx(float(want), rel=1e-12)


def test_the_blocked_and_the_plain_programme_agree_up_to_fourteen_players():
    rng = random.Random(11)
    for n in (8, 9, 10, 12, 14):
        stacks = [float(rng.randint(1, 100_000)) for _ in range(n)]
        prizes = [float(p) for p in sorted(rng.sample(range(1, 5000), n), reverse=True)]
        blocked = icm._exact_equities_blocked(stacks, prizes)
        plain = icm._exact_equities_plain(stacks, prizes)
        assert blocked == pytest.approx(plain, rel=1e-11)


def test_absurd_stack_spreads_use_the_plain_programme_and_stay_correct(monkeypatch):
    def overflow_prone(*args):
        raise AssertionError("the blocked programme would overflow here")

    monkeypatch.setattr(icm, "_exact_equities_blocked", overflow_prone)
    stacks = [1e-200, 1e200, 1.0, 1e150, 1e-150]
    prizes = [60, 25, 10, 5]
    exact = harville_by_permutations([Fraction(s) for s in stacks], prizes, number=Fraction)
    for got, want in zip(icm_equities(stacks, prizes), exact):
        assert got == pytest.approx(float(want), rel=1e-9, abs=1e-12)


def test_with_fewer_players_than_prizes_only_the_first_places_are_paid():
    equities = icm_equities([3000, 1000], [500, 300, 200])
    assert sum(equities) == pytest.approx(800)
    assert equities == pytest.approx([300 + 200 * 0.75, 300 + 200 * 0.25])


def test_unpaid_places_need_no_prize():
    assert icm_equities([10, 10, 10], [90, 0, 0]) == pytest.approx([30, 30, 30])
    assert icm_equities([10, 10, 10], []) == [0.0, 0.0, 0.0]


def test_a_player_without_chips_is_refused():
    with pytest.raises(ValueError):
        icm_equities([1000, 0, 500], [50, 30, 20])
    with pytest.raises(ValueError):
        icm_equities([1000, -5], [50, 30])


def test_a_negative_prize_is_refused():
    with pytest.raises(ValueError):
        icm_equities([1000, 500], [50, -30])


def test_it_accepts_decimal_int_and_float_and_returns_floats():
    equities = icm_equities([Decimal("5000"), 3000, 2000.0], [Decimal("50.00"), 30, 20.0])
    assert all(isinstance(e, float) for e in equities)
    assert [round(e, 2) for e in equities] == [38.39, 32.75, 28.86]


def test_twenty_players_with_twenty_prizes_are_computed_exactly():
    assert is_exact(20, 20)
    stacks = [1000 * (i + 1) for i in range(20)]
    prizes = [2000 - 90 * i for i in range(20)]
    equities = icm_equities(stacks, prizes)
    assert sum(equities) == pytest.approx(sum(prizes), rel=1e-12)
    assert equities == sorted(equities)  # stacks grow along the list
    # Equal stacks share the prizes equally.
    assert icm_equities([7] * 20, prizes) == pytest.approx([sum(prizes) / 20] * 20)


def test_large_fields_with_few_prizes_stay_exact():
    rng = random.Random(3)
    stacks = [float(rng.randint(1, 50_000)) for _ in range(40)]
    prizes = [500.0, 300.0, 200.0]
    assert is_exact(40, 3) and is_exact(100, 3) and is_exact(30, 5)
    assert not is_exact(100, 4)
    equities = icm_equities(stacks, prizes)  # the layer-by-layer programme
    assert equities == pytest.approx(icm._exact_equities_blocked(stacks, prizes), rel=1e-11)
    assert sum(equities) == pytest.approx(1000)


def test_large_fields_fall_back_to_a_repeatable_monte_carlo_estimate():
    rng = random.Random(5)
    stacks = [rng.randint(1000, 90_000) for _ in range(26)]
    prizes = sorted((rng.randint(100, 5000) for _ in range(26)), reverse=True)
    assert not is_exact(26, 26)
    first = icm_equities(stacks, prizes)
    assert first == icm_equities(stacks, prizes)
    assert sum(first) == pytest.approx(sum(prizes))
    by_stack = [e for _, e in sorted(zip(stacks, first))]
    assert by_stack == sorted(by_stack)


def test_the_monte_carlo_estimate_lies_within_its_error_bound():
    stacks = [5200, 3100, 2500, 1900, 900, 400]
    prizes = [400, 250, 150, 100, 60, 40]
    exact = icm_equities(stacks, prizes)
    estimate, errors = icm_equities_with_error(stacks, prizes, samples=20_000, rng=random.Random(2024))
    assert sum(estimate) == pytest.approx(sum(prizes))
    for e, x, se in zip(estimate, exact, errors):
        assert 0 < se < 2.5
        assert abs(e - x) <= 4 * se


def prize_tables(max_places):
    return st.lists(st.integers(0, 10_000), min_size=0, max_size=max_places).map(lambda p: sorted(p, reverse=True))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 10**7), min_size=1, max_size=9), prize_tables(11))
def test_equities_sum_to_the_prizes_in_play(stacks, prizes):
    in_play = prizes[: len(stacks)]
    assert sum(icm_equities(stacks, prizes)) == pytest.approx(sum(in_play), rel=1e-9, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 10**6), min_size=1, max_size=8),
    st.integers(1, 10**6),
    st.integers(2, 3),
    prize_tables(10),
)
def test_equal_stacks_get_equal_equity(stacks, shared, copies, prizes):
    stacks = stacks + [shared] * copies
    equities = icm_equities(stacks, prizes)
    tied = [e for s, e in zip(stacks, equities) if s == shared]
    assert max(tied) == min(tied)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 10**6), min_size=2, max_size=9), prize_tables(9))
def test_a_larger_stack_never_gets_less(stacks, prizes):
    equities = icm_equities(stacks, prizes)
    for s1, e1 in zip(stacks, equities):
        for s2, e2 in zip(stacks, equities):
            if s1 > s2:
                assert e1 >= e2
