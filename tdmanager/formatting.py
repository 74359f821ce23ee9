"""Numbers and money as the active language writes them: one helper for every page and slip.

``num(12500)`` is "12,500" in English and "12.500" in Italian; ``money("2250", "EUR")`` is
"€2,250.00" / "2.250,00 €" (a non-breaking space before the sign). Templates use the ``num`` and
``money`` filters (``{% load tdm_format %}``); the browser's counterpart is ``TDM.num`` /
``TDM.money`` in ``static/tdm.js`` (Intl.NumberFormat with the page's language), which writes the
currency with the signs and the pattern the page receives from ``money_config()``.

Money shows the currency's sign where people write one (``CURRENCY_SIGNS``: €, £, $), any other
currency its code ("1.234,56 CHF"). Where the sign goes is the language's: a translatable pattern
(context "money"), "{currency}{amount}" in English, "{amount} {currency}" in Italian, German,
Spanish and French, so a new language brings its own with its translations. A space in the
pattern prints as a non-breaking one (an amount never breaks from its currency at a line's end),
and a code is never glued to the digits ("CHF 1,234.56" in English).

Dates and times too: ``when(moment, "datetime")`` is "28/11/2026 21:05" in Italian, Spanish, French
and English, "28.11.2026 21:05" in German (the ``when`` filter in templates). Each kind is built
from the language's short date (Django's ``SHORT_DATE_FORMAT``, ``tdmanager/localeformats`` where a
room writes otherwise); the clock is the 24-hour one in every language the product speaks.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.utils import timezone
from django.utils.dateformat import format as date_pattern
from django.utils.formats import get_format, number_format
from django.utils.translation import pgettext


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


#: the currencies people write with a sign rather than the code; any other currency is written
#: with its code (a Swiss franc stays "CHF"). The one table: pages' scripts receive it too.
CURRENCY_SIGNS = {"EUR": "€", "GBP": "£", "USD": "$"}

NBSP = "\u00a0"


def money_pattern(code: bool = False) -> str:
    """Where the active language writes an amount's currency: "{currency}{amount}" in English,
    "{amount}\u00a0{currency}" in Italian; for a code (``code``), never glued to the digits."""
    # Translators: where an amount of money and its currency sign go, as your language writes them
    # ("{amount} {currency}" for "1.234,56 €"; English "€1,234.56"). Keep {amount} and {currency}
    # as they are; a space is printed as a non-breaking one.
    pattern = pgettext("money", "{currency}{amount}").replace(" ", NBSP)
    if "{amount}" not in pattern or "{currency}" not in pattern:  # a slip in a catalogue: no amount lost
        pattern = "{currency}{amount}"
    if code:
        pattern = pattern.replace("{currency}{amount}", "{currency}" + NBSP + "{amount}")
        pattern = pattern.replace("{amount}{currency}", "{amount}" + NBSP + "{currency}")
    return pattern


def money_config() -> dict:
    """What a page's script needs to write money as ``money`` does (``TDM.money``)."""
    return {"signs": CURRENCY_SIGNS, "pattern": money_pattern(), "codePattern": money_pattern(code=True)}


def with_currency(amount: str, currency: str) -> str:
    """An amount already written in the active language, with its currency's sign or code where
    the language puts it; a minus goes before both ("-€5.00")."""
    if not currency:
        return amount
    sign = CURRENCY_SIGNS.get(currency.upper())
    minus = "-" if amount.startswith("-") else ""
    pattern = money_pattern(code=sign is None)
    # replace, not format: a brace a translator added is printed, never an error
    return minus + pattern.replace("{amount}", amount.removeprefix("-")).replace("{currency}", sign or currency)


def money(value, currency: str = "") -> str:
    """An amount with two decimals, grouped, and its currency when given ("" for nothing)."""
    d = _decimal(value)
    if d is None:
        return "" if value is None else str(value)
    text = number_format(d, decimal_pos=2, use_l10n=True, force_grouping=True)
    return with_currency(text, (currency or "").strip())


#: each kind of date or time a page or slip prints: what it adds to the language's short date
#: (``{date}``) or its day and month (``{day}``)
WHEN = {
    "date": "{date}",
    "datetime": "{date} H:i",
    "seconds": "{date} H:i:s",
    "short": "{day} H:i",
    "shortseconds": "{day} H:i:s",
    "weekday": "D {day} H:i",
    "weekdaydate": "D {date} H:i",
    "day": "{day}",
    "weekdayday": "D {day}",
    "time": "H:i",
    "timeseconds": "H:i:s",
}


def _day_month(short_date: str) -> str:
    """The short date without its year: "d/m/Y" → "d/m", "d.m.Y" → "d.m." (as German writes it)."""
    cut = short_date.replace("Y", "").replace("y", "")
    return cut.rstrip("/-. ") + ("." if "." in short_date else "")


def when(value, kind: str = "datetime") -> str:
    """A date or a moment as the active language writes it ("" for nothing); an aware moment in
    the room's time zone."""
    if value is None or value == "":
        return ""
    if hasattr(value, "tzinfo") and timezone.is_aware(value):
        value = timezone.localtime(value)
    short = get_format("SHORT_DATE_FORMAT")
    pattern = WHEN[kind].format(date=short, day=_day_month(short))
    return date_pattern(value, pattern)
