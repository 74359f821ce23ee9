"""Numbers and money as the active language writes them: one helper for every page and slip.

``num(12500)`` is "12,500" in English and "12.500" in Italian; ``money("2250", "EUR")`` is
"2,250.00 EUR" / "2.250,00 EUR". Templates use the ``num`` and ``money`` filters
(``{% load tdm_format %}``); the browser's counterpart is ``TDM.num`` / ``TDM.money`` in
``static/tdm.js`` (Intl.NumberFormat with the page's language).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.utils.formats import number_format


def _decimal(value) -> Decimal | None:
    if value is None or value == "" or isinstance(value, bool):
        return None
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


def num(value, decimals: int | None = None) -> str:
    """A count or a number of chips, grouped by thousands in the active language ("" for nothing)."""
    d = _decimal(value)
    if d is None:
        return "" if value is None else str(value)
    if decimals is None and d == d.to_integral_value():
        d = d.quantize(Decimal(1))
    return number_format(d, decimal_pos=decimals, use_l10n=True, force_grouping=True)


def money(value, currency: str = "") -> str:
    """An amount with two decimals, grouped, and its currency when given ("" for nothing)."""
    d = _decimal(value)
    if d is None:
        return "" if value is None else str(value)
    text = number_format(d, decimal_pos=2, use_l10n=True, force_grouping=True)
    return f"{text} {currency}".strip()
