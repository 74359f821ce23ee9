"""``{{ chips|num }}``, ``{{ amount|money:t.currency }}`` and ``{{ moment|when:"datetime" }}``: numbers,
money and dates in the active language (``tdmanager.formatting``): "12.500", "2.250,00 €" and
"28/11/2026 21:05" in Italian, "12,500", "€2,250.00" and "28/11/2026 21:05" in English,
"28.11.2026 21:05" in German. ``{% money_config %}`` hands a page's script (``TDM.money``) the
currency signs and the language's pattern, so the browser writes money as the server does."""

from django import template
from django.utils.html import json_script

from tdmanager import formatting

register = template.Library()


@register.filter
def num(value, decimals=None):
    return formatting.num(value, None if decimals in (None, "") else int(decimals))


@register.filter
def money(value, currency=""):
    return formatting.money(value, currency or "")


@register.simple_tag
def money_config():
    """``<script id="tdm-money" type="application/json">``: the signs and the pattern."""
    return json_script(formatting.money_config(), "tdm-money")


@register.filter
def when(value, kind="datetime"):
    """``{{ moment|when:"short" }}``: a date or time as the active language writes it."""
    return formatting.when(value, kind)
