"""Satellite seats and the cash remainder (FMT-08, PAY-06, C13, C14)."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payouts.satellite import (
    Award,
    satellite_awards,
    satellite_prize_base,
    satellite_prizes,
)

D = Decimal
SEAT = D("1100.00")


def test_scenario_8_six_seats_and_330_cash_to_seventh():
    pool = satellite_prize_base(63, "110", "100", "10", base="GROSS")
    assert pool == D("6930.00")
    assert satellite_prizes(pool, SEAT) == (6, D("330.00"))
    awards = satellite_awards(pool, SEAT)
    assert [a.kind for a in awards] == ["SEAT"] * 6 + ["CASH"]
    assert awards[-1] == Award(place=7, seat=False, seat_value=D("0.00"), cash=D("330.00"))
    assert sum(a.value for a in awards) == pool


def test_scenario_9_seven_seats_and_no_cash_place():
    pool = satellite_prize_base(70, "110", "100", "10")
    assert satellite_prizes(pool, SEAT) == (7, D("0.00"))
    awards = satellite_awards(pool, SEAT)
    assert len(awards) == 7
    assert all(a.kind == "SEAT" and a.seat_value == SEAT for a in awards)


def test_shared_rule_splits_the_remainder_among_the_seat_winners():
    # 330 / 6 = 55.00 each.
    awards = satellite_awards(D("6930"), SEAT, "SHARED")
    assert [(a.place, a.kind, a.cash) for a in awards] == [(place, "SEAT_AND_CASH", D("55.00")) for place in range(1, 7)]
    # 100.01 / 6 = 16.668…: five seats get 16.67, the last 16.66 (odd cents to the
    # better places).
    awards = satellite_awards(D("6700.01"), SEAT, "SHARED")
    assert [a.cash for a in awards] == [D("16.67")] * 5 + [D("16.66")]


def test_chunks_rule_pays_the_next_places_in_chunks_with_a_smaller_last_one():
    awards = satellite_awards(D("6950"), SEAT, "CHUNKS", chunk=D("110"))
    cash = [(a.place, a.cash) for a in awards if a.kind == "CASH"]
    assert cash == [(7, D("110.00")), (8, D("110.00")), (9, D("110.00")), (10, D("20.00"))]
    with pytest.raises(ValueError):
        satellite_awards(D("6950"), SEAT, "CHUNKS")


def test_a_pool_that_cannot_buy_a_seat_pays_first_place_in_cash():
    assert satellite_prizes(D("900"), SEAT) == (0, D("900.00"))
    assert satellite_awards(D("900"), SEAT) == [Award(1, False, D("0.00"), D("900.00"))]


def test_net_prize_base_leaves_out_fees_and_deductions():
    # 63 buy-ins of 100 = 6,300, less 3 % (189.00) = 6,111.00 → 5 seats + 611 cash.
    pool = satellite_prize_base(63, "110", "100", "10", {"casino": 3}, base="NET")
    assert pool == D("6111.00")
    assert satellite_prizes(pool, SEAT) == (5, D("611.00"))


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        satellite_prizes(D("6930"), SEAT, "LAST_QUALIFIED")
    with pytest.raises(ValueError):
        satellite_prizes(D("6930"), D("0"))
    with pytest.raises(ValueError):
        satellite_prize_base(63, "100", "100", "10")  # entry total below buy-in + fee
    with pytest.raises(ValueError):
        satellite_prize_base(63, "110", "100", "10", base="HALF")


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 10**7),
    st.integers(0, 300),
    st.floats(0, 1, exclude_max=True),
    st.sampled_from(["NEXT_PLACE", "SHARED", "CHUNKS"]),
    st.integers(1, 10),
)
def test_seats_and_remainder_always_make_up_the_pool(seat_cents, whole_seats, part_of_a_seat, rule, chunks_per_seat):
    seat = Decimal(seat_cents) / 100
    pool = Decimal(seat_cents * whole_seats + int(seat_cents * part_of_a_seat)) / 100
    chunk = max(D("0.01"), (seat / chunks_per_seat).quantize(D("0.01")))
    seats, remainder = satellite_prizes(pool, seat, rule)
    assert seats == whole_seats
    assert seats * seat + remainder == pool
    assert D(0) <= remainder < seat
    awards = satellite_awards(pool, seat, rule, chunk=chunk)
    assert sum(a.value for a in awards) == pool
    assert sum(1 for a in awards if a.seat) == seats
    assert [a.place for a in awards] == list(range(1, len(awards) + 1))


def test_a_satellite_with_no_pool_awards_nothing():
    assert satellite_prizes(D("0"), SEAT) == (0, D("0.00"))
    assert satellite_awards(D("0"), SEAT) == []


def test_a_chunk_must_be_a_positive_amount():
    for chunk in (D("0"), D("-110")):
        with pytest.raises(ValueError):
            satellite_awards(D("6950"), SEAT, "CHUNKS", chunk=chunk)
    # A chunk as large as the remainder pays it to one place: 6,950 = 6 seats + 350.
    awards = satellite_awards(D("6950"), SEAT, "CHUNKS", chunk=D("350"))
    assert [(a.place, a.kind, a.cash) for a in awards[6:]] == [(7, "CASH", D("350.00"))]


@pytest.mark.parametrize(("pool", "seat"), [(D("-1"), SEAT), (D("6930.001"), SEAT), (D("6930"), D("1100.005")), (D("6930"), D("-1100"))])
def test_a_pool_or_seat_that_is_not_money_is_refused(pool, seat):
    with pytest.raises(ValueError):
        satellite_prizes(pool, seat)


@pytest.mark.parametrize(("entries", "total", "buy_in", "fee"), [(-1, "110", "100", "10"), (63, "110", "-100", "10"), (63, "110", "100", "-10")])
def test_a_satellite_base_from_negative_entries_or_prices_is_refused(entries, total, buy_in, fee):
    with pytest.raises(ValueError):
        satellite_prize_base(entries, total, buy_in, fee)


def test_a_satellite_base_counts_every_charge_of_an_entry():
    # An entry of 115 (100 buy-in, 10 fee, 5 jackpot): 63 × 115 = 7,245 gross; an entry total
    # of exactly buy-in + fee is allowed; no entries make no pool.
    assert satellite_prize_base(63, "115", "100", "10") == D("7245.00")
    assert satellite_prize_base(63, "110", "100", "10", base="GROSS") == D("6930.00")
    assert satellite_prize_base(0, "110", "100", "10") == D("0.00")
    assert satellite_prize_base(63, "110", "100", "10", base="NET") == D("6300.00")


def test_a_satellite_with_no_fee_or_a_free_entry_still_counts_its_pool():
    # A satellite whose house takes no fee: 63 × (110 buy-in + 0 fee) = 6,930 gross, and the
    # same 6,930 net (no fee to leave out) → the 6 seats and 330 of scenario 8.
    assert satellite_prize_base(63, "110", "110", "0") == D("6930.00")
    assert satellite_prize_base(63, "110", "110", "0", base="NET") == D("6930.00")
    # A freeroll satellite (nothing paid): allowed, and its pool is nothing.
    assert satellite_prize_base(40, "0", "0", "0") == D("0.00")
    assert satellite_prize_base(40, "0", "0", "0", base="NET") == D("0.00")
    # A fee-only entry of 10 (the buy-in is 0): 40 × 10 = 400 gross, 0 net.
    assert satellite_prize_base(40, "10", "0", "10") == D("400.00")
    assert satellite_prize_base(40, "10", "0", "10", base="NET") == D("0.00")


def test_the_awards_refuse_an_unknown_remainder_rule_whatever_the_pool():
    # The rule is checked however the pool falls: 6,600 buys exactly 6 seats (no remainder to
    # give), 6,950 leaves 350 that an unknown rule must not hand out in chunks.
    for pool in (D("6600"), D("6950"), D("900")):
        with pytest.raises(ValueError):
            satellite_awards(pool, SEAT, "LAST_QUALIFIED", chunk=D("110"))


def test_chunks_rule_places_win_cash_and_no_seat():
    # 6,950 = 6 seats of 1,100 + 350: places 7-9 win 110 each in cash, place 10 the last 20;
    # none of them wins a seat.
    awards = satellite_awards(D("6950"), SEAT, "CHUNKS", chunk=D("110"))
    assert awards[:6] == [Award(place, True, SEAT, D("0.00")) for place in range(1, 7)]
    assert awards[6:] == [
        Award(7, False, D("0.00"), D("110.00")),
        Award(8, False, D("0.00"), D("110.00")),
        Award(9, False, D("0.00"), D("110.00")),
        Award(10, False, D("0.00"), D("20.00")),
    ]
    assert [a.kind for a in awards[6:]] == ["CASH"] * 4
