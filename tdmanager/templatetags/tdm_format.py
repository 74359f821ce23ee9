"""``{{ chips|num }}``, ``{{ amount|money:t.currency }}`` and ``{{ moment|when:"datetime" }}``: numbers,
money and dates in the active language (``tdmanager.formatting``): "12.500", "2.250,00 EUR" and
"28/11/2026 21:05" in Italian, "12,500", "2,250.00 EUR" and "28/11/2026 21:05" in English,
"28.11.2026 21:05" in German."""

from django import template

from tdmanager import formatting

register = template.Library()


@register.filter
def num(value, decimals=None):
    return formatting.num(value, None if decimals in (None, "") else int(decimals))


@register.filter
def money(value, currency=""):
    return formatting.money(value, currency or "")


@register.filter
def when(value, kind="datetime"):
    """``{{ moment|when:"short" }}``: a date or time as the active language writes it."""
    return formatting.when(value, kind)
