"""Payout structures: how a prize pool is split among the places paid (PAY-03..PAY-05).

Pure Python, no Django import. ``payout_structure`` returns one ``Decimal`` per paid place,
1st first, and always sums *exactly* to the prize pool.

How the amounts are built
-------------------------
1. Places paid: ``places_paid(entries, percent_paid)`` (PAY-04, round half up, ≥ 1).
2. Everything is counted in *units* of ``rounding`` (default €5): every prize is a whole
   number of units. If the pool itself is not a whole number of units, the odd part
   (less than one unit) is added to 1st place.
3. Min cash: every paid place first gets ``min_cash_multiple × buy_in`` rounded up to a
   unit. Degraded gracefully: that floor may take at most half of the pool
   (``MAX_MIN_CASH_SHARE``); beyond, the min cash is lowered to the largest number of units
   that fits (at least one unit). So "the pool allows it" means
   places × min cash ≤ half the pool.
4. Shape: the rest of the pool is spread over the places in proportion to k^(−α)
   (a power law, like the payout tables of major live events), with
   α = 1 + 0.5 / ln(places + 1): steeper for small fields. Typical 1st-place shares with
   15 % paid and min cash 1.5 buy-ins: 2 paid ≈ 65 %, 9 paid ≈ 35 %, 30 paid ≈ 25 %,
   150 paid ≈ 18 %, 4,500 paid ≈ 11 %.
5. Bands: places 1–9 are paid individually, then in equal-prize bands that grow with the
   field: 10–12, 13–15, 16–18, then bands of 9 (19–27, 28–36, … up to 180), 18 (181–198,
   … up to 360), 36 (up to 720), and so on, doubling each time the place number doubles.
   A band is paid the average of the curve over its places; the last band stops at the
   last place paid.
6. Nice amounts: every place but 1st is floored to a "nice" step — the largest of
   1, 2, 5, 10, 20, 50, … units not above 2 % of the amount (with €5 units: 5, 10, 25, 50,
   100, 250, 500, 1,000 …) — and never below the min cash. The money floored away is given
   back one step at a time to the places that lost the largest part of a step, while it
   lasts. Then, from the bottom up, each band is raised (to its next step) where needed
   so that it is never below the band under it, and strictly above it among places 1–9.
   1st place gets the rest of the pool: that is where the rounding difference goes
   (PAY-05).
7. If the pool is too small for strictly decreasing nice amounts, the curve is cut into
   whole units, spread so that places 1–9 differ by at least one unit (see
   ``_spread_units``); when the min cash was already lowered in step 3, that is tried
   again with a min cash of one unit (strictly decreasing places 1–9 matter more than a
   min cash the pool could not afford anyway). If even that fails, a simple fallback
   gives every band its floored share of the curve and 1st place the rest — always
   non-increasing and exact, but places may tie: the pool does not allow better.

A pool smaller than one unit per place paid is refused (``ValueError``): the table cannot
be paid in multiples of ``rounding``. A pool of 0 pays 0.00 to every place.
"""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_DOWN, Decimal
from fractions import Fraction

from payouts.pool import places_paid
from tdmanager.money import CENT, ZERO, to_money

MAX_MIN_CASH_SHARE = Fraction(1, 2)
NICE_STEP_SHARE = 0.02
INDIVIDUAL_PLACES = 9


def payout_structure(
    entries: int,
    prize_pool,
    buy_in,
    *,
    percent_paid=15,
    min_cash_multiple=Decimal("1.5"),
    rounding=Decimal("5"),
    places_rounding: str = "HALF_UP",
) -> list[Decimal]:
    """The prize of each paid place, 1st first (len == places paid). See module docstring.

    ``min_cash_multiple × buy_in`` is the target min cash (``buy_in`` is whatever the
    caller wants the min cash measured against: the prize-pool part or the full entry).
    """
    pool = _cents(prize_pool, "prize pool")
    unit = _cents(rounding, "rounding")
    if unit <= 0:
        raise ValueError("rounding must be a positive amount")
    places = places_paid(entries, percent_paid, places_rounding)  # PAY-04: the house's rounding of fractional places
    if places == 0:
        return []
    if pool == 0:
        return [ZERO] * places
    total_units = int((pool / unit).to_integral_value(rounding=ROUND_DOWN))
    dust = pool - unit * total_units
    if total_units < places:
        raise ValueError(f"a prize pool of {pool} cannot pay {places} places in multiples of {unit}")
    min_cash, min_cash_granted = _min_cash_units(buy_in, min_cash_multiple, unit, places, total_units)
    bands = payout_band_places(places)
    band_curve = _band_curve(bands, places, total_units, min_cash)

    units = None
    attempts = [(_nice_units, min_cash), (_spread_units, min_cash)]
    if not min_cash_granted:  # the min cash is already cut: strict places 1–9 come first
        attempts.append((_spread_units, 1))
    for first_guess, floor in attempts:
        units, steps = first_guess(bands, band_curve, floor)
        units = _settled(bands, units, steps, total_units)
        if units is not None:
            break
    if units is None:
        units = _fallback(bands, band_curve, total_units)

    amounts = []
    for (first, last), per_place in zip(bands, units):
        amounts.extend([unit * per_place] * (last - first + 1))
    amounts[0] += dust
    return [a.quantize(CENT) for a in amounts]


def payout_bands(amounts) -> list[tuple[int, int, Decimal]]:
    """Group a payout table for display: ``[(first_place, last_place, amount), …]``.

    Consecutive places with the same amount form one band, e.g. ``(10, 12, 2750.00)``.
    """
    bands: list[tuple[int, int, Decimal]] = []
    for place, amount in enumerate(amounts, start=1):
        if bands and bands[-1][2] == amount:
            bands[-1] = (bands[-1][0], place, amount)
        else:
            bands.append((place, place, amount))
    return bands


def payout_band_places(places: int) -> list[tuple[int, int]]:
    """The equal-prize bands used for ``places`` paid places: ``[(first, last), …]``.

    1–9 one by one, then 10–12, 13–15, 16–18, then widths 9, 18, 36, … (doubling when the
    place number passes 180, 360, 720, …).
    """
    bands = [(p, p) for p in range(1, min(places, INDIVIDUAL_PLACES) + 1)]
    place = INDIVIDUAL_PLACES + 1
    while place <= places:
        if place < 19:
            width = 3
        else:
            doublings = max(0, ((place - 1) // 90).bit_length() - 1)
            width = 9 << doublings
        last = min(places, place + width - 1)
        bands.append((place, last))
        place = last + 1
    return bands


# --- steps ------------------------------------------------------------------------------


def _min_cash_units(buy_in, multiple, unit: Decimal, places: int, total_units: int):
    """``(min cash in units, whether that is the full requested min cash)``."""
    target = to_money(buy_in) * Decimal(str(multiple))
    if target < 0:
        raise ValueError("buy-in and min-cash multiple cannot be negative")
    wanted = int((target / unit).to_integral_value(rounding=ROUND_CEILING))
    affordable = int(total_units * MAX_MIN_CASH_SHARE / places)
    return max(1, min(wanted, affordable)), wanted <= affordable


def _band_curve(bands, places: int, total_units: int, min_cash: int) -> list[float]:
    """Per-place amount (in units, unrounded) of each band on the power-law curve."""
    alpha = 1 + 0.5 / math.log(places + 1)
    weights = [k**-alpha for k in range(1, places + 1)]
    scale = (total_units - places * min_cash) / math.fsum(weights)
    curve = []
    for first, last in bands:
        band_weight = math.fsum(weights[first - 1 : last]) / (last - first + 1)
        curve.append(min_cash + scale * band_weight)
    return curve


def _nice_step(amount: float) -> int:
    """Largest of 1, 2, 5, 10, 20, 50, … not above NICE_STEP_SHARE × amount (≥ 1)."""
    limit = amount * NICE_STEP_SHARE
    best, scale = 1, 1
    while True:
        for multiple in (1, 2, 5):
            if multiple * scale > limit:
                return best
            best = multiple * scale
        scale *= 10


def _nice_units(bands, curve, min_cash: int):
    """Every band below 1st floored to its nice step (never below the min cash), then the
    money floored away given back one step at a time, largest lost fraction first."""
    counts = [last - first + 1 for first, last in bands]
    lower = range(1, len(bands))
    steps = [1] * len(bands)
    units = [0] * len(bands)
    for b in lower:
        step = _nice_step(curve[b])
        floored = int(curve[b] // step) * step
        if floored < min_cash:
            floored = -(-min_cash // step) * step
        steps[b] = step
        units[b] = floored
    left = math.fsum(curve[b] * counts[b] for b in lower) - sum(units[b] * counts[b] for b in lower)
    for b in sorted(lower, key=lambda b: (-(curve[b] - units[b]) / steps[b], b)):
        cost = steps[b] * counts[b]
        if cost <= left + 1e-9:
            units[b] += steps[b]
            left -= cost
    return units, steps


def _spread_units(bands, curve, min_cash: int):
    """Whole units (no nice steps) that already leave room for places 1–9 to decrease.

    Where the min cash flattens the bottom of the curve, floors of neighbouring places
    tie and raising them one by one would cascade up to 1st. Instead, subtract from
    each individual place the number of individual places below it, make that sequence
    non-increasing by pooling neighbours (pool-adjacent-violators, weighted by band
    size, which keeps the total), floor (not below ``min_cash``), and add the offsets
    back: places 1–9 then differ by at least one unit.
    """
    counts = [last - first + 1 for first, last in bands]
    individual = min(INDIVIDUAL_PLACES, len(bands))
    offsets = [max(0, individual - 1 - b) for b in range(len(bands))]
    pools: list[list[float]] = []  # [weighted total, weight, number of bands]
    for b in range(1, len(bands)):
        pools.append([(curve[b] - offsets[b]) * counts[b], counts[b], 1])
        while len(pools) > 1 and pools[-2][0] / pools[-2][1] < pools[-1][0] / pools[-1][1]:
            total, weight, size = pools.pop()
            pools[-1][0] += total
            pools[-1][1] += weight
            pools[-1][2] += size
    units = [0]
    for total, weight, size in pools:
        units.extend([max(min_cash, math.floor(total / weight))] * size)
    return [u + o if b else 0 for b, (u, o) in enumerate(zip(units, offsets))], [1] * len(bands)


def _settled(bands, units, steps, total_units: int):
    """Raise bands where needed, bottom up, so that no band is below the one under it and
    places 1–9 strictly decrease; 1st place gets the rest. None if 1st would not be
    strictly above 2nd."""
    if len(bands) == 1:
        return [total_units]
    units = list(units)
    counts = [last - first + 1 for first, last in bands]
    for b in range(len(bands) - 2, 0, -1):
        below = units[b + 1]
        if b + 1 < INDIVIDUAL_PLACES:
            if units[b] <= below:
                units[b] = (below // steps[b] + 1) * steps[b]
        elif units[b] < below:
            units[b] = -(-below // steps[b]) * steps[b]
    units[0] = total_units - sum(u * c for u, c in zip(units[1:], counts[1:]))
    if units[0] <= units[1]:
        return None
    return units


def _fallback(bands, curve, total_units: int) -> list[int]:
    """Always valid: each band its floored curve amount, 1st place the rest.

    The curve is at least the min cash everywhere and decreases band by band, so the
    floors never increase and never go below the min cash, and their total is at most
    the pool: 1st place gets at least its own floor.
    """
    counts = [last - first + 1 for first, last in bands]
    units = [int(c) for c in curve]
    for b in range(1, len(units)):  # guard against float noise between equal bands
        units[b] = min(units[b], units[b - 1])
    units[0] = total_units - sum(u * c for u, c in zip(units[1:], counts[1:]))
    return units


def _cents(value, what: str) -> Decimal:
    amount = to_money(value)
    if not amount.is_finite() or amount < 0:
        raise ValueError(f"{what} must be a non-negative amount")
    if amount != amount.quantize(CENT):
        raise ValueError(f"{what} must be a whole number of cents")
    return amount


# --- a venue's template by field size (its paper chart) ----------------------------------------


def band_for(bands: list[dict], size: int) -> dict | None:
    """The band of a template (``{"from", "to", "percents"}``, ``to`` None: and more) whose
    field sizes hold ``size``; None when no band does."""
    for band in bands:
        if band["from"] <= size and (band.get("to") is None or size <= band["to"]):
            return band
    return None


def band_label(band: dict) -> str:
    """A band's field sizes as a chart writes them: "10–20", "100+"."""
    return f"{band['from']}–{band['to']}" if band.get("to") is not None else f"{band['from']}+"
