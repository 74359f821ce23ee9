"""Prize pool arithmetic: deductions, guarantees, places paid, shared places.

Pure Python, no Django import. Amounts are ``Decimal`` cents (``tdmanager.money``).

Guarantee reading (RULES PAY-02, an [INFERENCE] there; open question 5 of §14):

* ``guarantee_is_gross=True`` (default, as PAY-02 reads the 001 venue: «ogni Montepremi …
  è al lordo della tassa service staff»): the guarantee is the *gross* pool. The house
  adds the overlay that lifts the collected money to the guarantee, and the deductions
  are then taken from that gross: gross = max(guarantee, collected), total = gross −
  deductions(gross).
* ``guarantee_is_gross=False``: the guarantee is what the players share *after*
  deductions: deductions come off the collected money, and the overlay lifts the result
  to the guarantee: total = max(guarantee, collected − deductions(collected)).

In both readings ``net = collected − Σ deductions`` and ``total = net + overlay`` is the
prize pool to distribute.

A cancelled event (``cancelled=True``, FMT-02) will not play: its guarantee is void (no
overlay), nothing is deducted, and nothing is distributed. What was collected is the players'
money, owed back to them (``refunds``): ``total = net + overlay − refunds`` = 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_DOWN, ROUND_HALF_UP, Decimal

from tdmanager.money import CENT, ZERO, percent_of, split_evenly, to_money

PLACES_ROUNDING = {"HALF_UP": ROUND_HALF_UP, "DOWN": ROUND_DOWN, "UP": ROUND_CEILING}
# Odd-cent rules for a shared place (ELM-06 [CONFIG]).
FIRST_LISTED = "FIRST_LISTED"
HOUSE = "HOUSE"


@dataclass(frozen=True)
class PoolBreakdown:
    """How the prize pool was reached, line by line (for the lobby and the report).

    ``collected``: prize contributions received; ``deductions``: name → amount taken
    (percentages, rounded to the cent each, then fixed amounts such as chip-leader
    prizes); ``net``: collected − Σ deductions; ``overlay``: added by the house to meet
    the guarantee; ``refunds``: a cancelled event's collected money, going back to its players
    instead of into a pool; ``total``: the prize pool to distribute (net + overlay − refunds).
    """

    collected: Decimal
    deductions: dict = field(default_factory=dict)
    net: Decimal = ZERO
    overlay: Decimal = ZERO
    total: Decimal = ZERO
    refunds: Decimal = ZERO

    @property
    def gross(self) -> Decimal:
        """collected + overlay: the pool before deductions (a cancelled event's is nothing)."""
        return self.collected + self.overlay - self.refunds


def prize_pool(
    contributions,
    *,
    deductions_percent=None,
    guarantee=None,
    guarantee_is_gross: bool = True,
    fixed_deductions=None,
    cancelled: bool = False,
) -> PoolBreakdown:
    """The prize pool from the prize contributions (buy-ins, rebuys, add-ons; no fees).

    ``deductions_percent`` is a dict name → percent (e.g. ``{"casino": 3}`` for PAY-01,
    ``{"staff_service": 4}`` for PAY-02), a list of percents (named ``deduction_1``, …) or
    one percent. Each percentage is taken from the same base and rounded to the cent on
    its own (``percent_of``). ``fixed_deductions`` (name → amount) are side initiatives
    paid out of the pool (PAY-02: chip-leader prizes, tickets, bounties). ``guarantee``:
    see the module docstring for the two readings. ``cancelled``: the event will not play, so
    there is no overlay, no deduction and no pool, every cent collected is ``refunds``.

    Scenario 21: 200 × €1,000 with 3 % → collected 200,000.00, deductions 6,000.00, total
    194,000.00.
    """
    collected = _amount(contributions, "contributions")
    percents = _named_percents(deductions_percent)
    fixed = {name: _amount(v, name) for name, v in (fixed_deductions or {}).items()}
    if set(fixed) & set(percents):
        raise ValueError("a deduction cannot be both a percentage and a fixed amount")
    if cancelled:
        return PoolBreakdown(collected=collected, net=collected, refunds=collected)

    if guarantee is None:
        base = collected
        overlay = ZERO
    else:
        promised = _amount(guarantee, "guarantee")
        if guarantee_is_gross:
            base = max(promised, collected)
            overlay = base - collected
        else:
            base = collected
    deductions = {name: percent_of(base, p) for name, p in percents.items()}
    deductions.update(fixed)
    taken = sum(deductions.values(), ZERO)
    if guarantee is not None and not guarantee_is_gross:
        overlay = max(ZERO, promised - (collected - taken))
    net = collected - taken
    total = net + overlay
    if total < 0:
        raise ValueError("the deductions are larger than the prize pool")
    return PoolBreakdown(
        collected=collected,
        deductions=deductions,
        net=net,
        overlay=overlay,
        total=total,
    )


def places_paid(entries: int, percent_paid, rounding: str = "HALF_UP") -> int:
    """Number of places paid: entries × percent / 100, rounded (PAY-04).

    ``rounding``: ``HALF_UP`` (default: 63 × 15 % = 9.45 → 9), ``DOWN`` or ``UP``. At least
    one place when there is at least one entry, never more places than entries.
    """
    if entries < 0:
        raise ValueError("entries cannot be negative")
    if rounding not in PLACES_ROUNDING:
        raise ValueError(f"unknown rounding {rounding!r}; use one of {tuple(PLACES_ROUNDING)}")
    percent = _percent(percent_paid)
    if not 0 < percent <= 100:
        raise ValueError("the percentage paid must be above 0 and at most 100")
    if entries == 0:
        return 0
    exact = Decimal(entries) * percent / 100
    places = int(exact.to_integral_value(rounding=PLACES_ROUNDING[rounding]))
    return min(entries, max(1, places))


def shared_place_amounts(prizes_for_places, tie_size: int, odd_cents: str = FIRST_LISTED):
    """What each of ``tie_size`` players tied for places k … k+m−1 receives (ELM-06).

    ``prizes_for_places`` are the prizes of the places the tie covers, best first; places
    the table does not pay may be left out (they count as 0: three players tied for
    50th–52nd with 50 places paid share the 50th prize, scenario 3). Each player gets
    Σ prizes ÷ m.

    Odd cents (ELM-06 [CONFIG]): ``FIRST_LISTED`` (default) gives them one each to the
    first players listed (``split_evenly``), so the shares add up exactly to the prizes;
    ``HOUSE`` floors every share to the cent and the house keeps the odd cents
    (Σ prizes − Σ shares).
    """
    if tie_size < 1:
        raise ValueError("a tie has at least one player")
    prizes = [_amount(p, "prize") for p in prizes_for_places]
    if len(prizes) > tie_size:
        raise ValueError("a tie of m players covers exactly m places")
    total = sum(prizes, ZERO)
    if odd_cents == FIRST_LISTED:
        return split_evenly(total, tie_size)
    if odd_cents == HOUSE:
        share = (total / tie_size).quantize(CENT, rounding=ROUND_DOWN)
        return [share] * tie_size
    raise ValueError(f"unknown odd-cent rule {odd_cents!r}; use FIRST_LISTED or HOUSE")


def _amount(value, what: str) -> Decimal:
    amount = to_money(value)
    if not amount.is_finite() or amount < 0:
        raise ValueError(f"{what} must be a non-negative amount")
    if amount != amount.quantize(CENT):
        raise ValueError(f"{what} must be a whole number of cents")
    return amount.quantize(CENT)


def _percent(value) -> Decimal:
    """A percentage as a Decimal (a float such as 15.0 is read through its repr)."""
    return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)


def _named_percents(deductions_percent) -> dict:
    if deductions_percent is None:
        items = {}
    elif isinstance(deductions_percent, dict):
        items = dict(deductions_percent)
    elif isinstance(deductions_percent, (list, tuple)):
        items = {f"deduction_{i}": p for i, p in enumerate(deductions_percent, start=1)}
    else:
        items = {"deduction_1": deductions_percent}
    percents = {name: _percent(p) for name, p in items.items()}
    for name, p in percents.items():
        if not 0 <= p <= 100:
            raise ValueError(f"deduction {name!r} must be between 0 and 100 percent")
    if sum(percents.values(), ZERO) > 100:
        raise ValueError("the deductions add up to more than 100 percent")
    return percents
