"""Satellite prizes: seats to the main event, and what to do with the cash left over.

Pure Python, no Django import. RULES FMT-08 / PAY-06 (003 Art. 6): the prize pool buys as
many main-event entries as it can, all worth the same; the remainder (less than one entry)
is paid in cash. Worked example of the rules: main event €1,100, 63 × €110 = €6,930 →
6 seats (€6,600) and €330 cash to the 7th place.

Remainder rules (``remainder_rule``):

* ``NEXT_PLACE`` (default, the printed example; contradiction C13 resolved this way): the
  whole remainder is cash for place seats + 1, the first place without a seat.
* ``SHARED``: the remainder is split among the seat winners with ``split_evenly`` (odd
  cents to the better places), so every seat winner gets a seat plus the same cash.
* ``CHUNKS``: the remainder is paid to places seats + 1, seats + 2, … in chunks of
  ``chunk`` each (e.g. one satellite entry fee); the last chunk is whatever is left, so it
  may be smaller. ``chunk`` is required with this rule.

If the pool cannot buy a single seat, there are no seat winners: under every rule the
whole pool is cash for 1st place.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

from payouts.pool import prize_pool
from tdmanager.money import CENT, ZERO, split_evenly, to_money

NEXT_PLACE = "NEXT_PLACE"
SHARED = "SHARED"
CHUNKS = "CHUNKS"
REMAINDER_RULES = (NEXT_PLACE, SHARED, CHUNKS)

GROSS = "GROSS"
NET = "NET"


@dataclass(frozen=True)
class Award:
    """What one finishing place of a satellite wins.

    ``seat`` is a main-event entry worth ``seat_value`` (0.00 when no seat); ``cash`` is
    paid in money (0.00 when none). A place may win both (``SHARED`` rule).
    """

    place: int
    seat: bool
    seat_value: Decimal
    cash: Decimal

    @property
    def kind(self) -> str:
        """``SEAT``, ``CASH`` or ``SEAT_AND_CASH``, for display and for the cashier."""
        if self.seat and self.cash:
            return "SEAT_AND_CASH"
        return "SEAT" if self.seat else "CASH"

    @property
    def value(self) -> Decimal:
        return self.seat_value + self.cash


def satellite_prizes(prize_pool, seat_value, remainder_rule: str = NEXT_PLACE):
    """``(seats, remainder)``: how many main-event seats the pool buys, and the cash left.

    seats = ⌊pool / seat_value⌋ and remainder = pool − seats × seat_value, so that
    ``seats × seat_value + remainder == prize_pool`` exactly and 0 ≤ remainder <
    seat_value. The rule only decides who gets the remainder (``satellite_awards``); it is
    checked here so that a bad setting is refused early.

    Scenario 8: ``satellite_prizes(Decimal("6930"), Decimal("1100"))`` → ``(6, 330.00)``.
    """
    pool, value = _pool_and_value(prize_pool, seat_value)
    _check_rule(remainder_rule)
    seats = int((pool / value).to_integral_value(rounding=ROUND_DOWN))
    return seats, (pool - value * seats).quantize(CENT)


def satellite_awards(prize_pool, seat_value, remainder_rule: str = NEXT_PLACE, *, chunk=None) -> list[Award]:
    """Every paid place of the satellite, 1st first, under ``remainder_rule``.

    Seat winners are places 1..seats; see the module docstring for the remainder. The
    values always add up to the prize pool exactly. The satellite is over when the
    players left equal the number of seats (FMT-08): no place among them is decided.
    """
    seats, remainder = satellite_prizes(prize_pool, seat_value, remainder_rule)
    value = to_money(seat_value).quantize(CENT)
    if seats == 0:
        return [Award(1, False, ZERO, remainder)] if remainder else []
    awards = [Award(place, True, value, ZERO) for place in range(1, seats + 1)]
    if not remainder:
        return awards
    if remainder_rule == NEXT_PLACE:
        awards.append(Award(seats + 1, False, ZERO, remainder))
    elif remainder_rule == SHARED:
        shares = split_evenly(remainder, seats)
        awards = [Award(a.place, True, value, cash) for a, cash in zip(awards, shares)]
    else:  # CHUNKS
        if chunk is None:
            raise ValueError("the CHUNKS rule needs a chunk amount")
        size = to_money(chunk).quantize(CENT)
        if size <= 0:
            raise ValueError("the chunk must be a positive amount")
        place = seats + 1
        left = remainder
        while left > 0:
            paid = min(size, left)
            awards.append(Award(place, False, ZERO, paid))
            left -= paid
            place += 1
    return awards


def satellite_prize_base(entries: int, entry_total, buy_in, fee, deductions_percent=ZERO, base: str = GROSS) -> Decimal:
    """The satellite prize pool under the ``satellite_prize_base`` setting (C14).

    * ``GROSS`` (the printed example, default): everything the players paid,
      entries × entry_total — 63 × €110 = €6,930.
    * ``NET``: the buy-ins only (the fee stays with the house), entries × buy_in, less
      ``deductions_percent`` of it (one percentage, or a list / dict of them, each rounded
      to the cent as in ``payouts.pool``).

    ``entry_total`` is what one entry costs (buy-in + fee, plus any other charge such as a
    jackpot fee), so it may not be less than buy_in + fee.
    """
    if entries < 0:
        raise ValueError("entries cannot be negative")
    total, buy, house = to_money(entry_total), to_money(buy_in), to_money(fee)
    if buy < 0 or house < 0:
        raise ValueError("buy-in and fee cannot be negative")
    if total < buy + house:
        raise ValueError("the entry total cannot be less than buy-in + fee")
    if base == GROSS:
        return (total * entries).quantize(CENT)
    if base != NET:
        raise ValueError(f"unknown satellite prize base {base!r}; use GROSS or NET")
    buy_ins = (buy * entries).quantize(CENT)
    return prize_pool(buy_ins, deductions_percent=deductions_percent).total


def _pool_and_value(prize_pool, seat_value) -> tuple[Decimal, Decimal]:
    pool = to_money(prize_pool)
    value = to_money(seat_value)
    if value <= 0:
        raise ValueError("the seat value must be positive")
    if pool < 0:
        raise ValueError("the prize pool cannot be negative")
    if pool != pool.quantize(CENT) or value != value.quantize(CENT):
        raise ValueError("amounts must be whole cents")
    return pool, value


def _check_rule(rule: str) -> None:
    if rule not in REMAINDER_RULES:
        raise ValueError(f"unknown remainder rule {rule!r}; use one of {REMAINDER_RULES}")
