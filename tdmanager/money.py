"""Money arithmetic: one place for rounding, so every amount in the product agrees.

Pure Python, no Django import: engine modules use it too. Amounts are ``Decimal``
with two decimal places (cents); never ``float``.
"""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def to_money(value) -> Decimal:
    """Coerce an int, str or Decimal to a Decimal amount (floats are refused)."""
    if isinstance(value, float):
        raise TypeError("money must not be a float; pass a str or Decimal")
    return Decimal(value)


def plain_amount(text: str, marks: str = ".") -> Decimal | None:
    """The amount ``text`` writes in plain decimal digits: an optional minus, ASCII digits, and
    optionally one of ``marks`` (the decimal marks the reader may use) and more digits. None for
    anything else: ``"3_00"``, ``"+300"``, ``"3e2"``, fullwidth ``"３００"``, spaces, grouping
    marks, ``"1."`` (``Decimal`` itself would take the first four)."""
    if not isinstance(text, str):
        return None
    if marks not in _PLAIN:
        _PLAIN[marks] = re.compile(r"-?[0-9]+(?:[" + re.escape(marks) + r"][0-9]+)?")
    if not _PLAIN[marks].fullmatch(text):
        return None
    for mark in marks:
        text = text.replace(mark, ".")
    return Decimal(text)


_PLAIN: dict[str, re.Pattern] = {}


def round_money(value, unit: Decimal = CENT, rounding: str = ROUND_HALF_UP) -> Decimal:
    """Round ``value`` to a multiple of ``unit`` (default: the cent, half up)."""
    value = to_money(value)
    unit = to_money(unit)
    return ((value / unit).to_integral_value(rounding=rounding) * unit).quantize(CENT)


def floor_money(value, unit: Decimal = CENT) -> Decimal:
    """Round ``value`` down to a multiple of ``unit``."""
    return round_money(value, unit, ROUND_DOWN)


def percent_of(amount, percent) -> Decimal:
    """``percent`` % of ``amount``, rounded to the cent (half up)."""
    return round_money(to_money(amount) * to_money(percent) / Decimal(100))


def split_evenly(total, parts: int, unit: Decimal = CENT) -> list[Decimal]:
    """Split ``total`` into ``parts`` amounts that differ by at most one ``unit`` and sum exactly.

    The odd units go to the first shares (the better places come first), which is the
    stated odd-cent rule wherever a prize is shared.
    """
    if parts <= 0:
        raise ValueError("parts must be positive")
    total = to_money(total)
    units = int((total / unit).to_integral_value(rounding=ROUND_DOWN))
    base, extra = divmod(units, parts)
    shares = [(base + (1 if i < extra else 0)) * unit for i in range(parts)]
    leftover = total - sum(shares, ZERO)
    shares[0] += leftover  # sub-unit dust, if the total was not a multiple of unit
    return [s.quantize(CENT) for s in shares]
