"""``{{ chips|num }}`` and ``{{ amount|money:t.currency }}``: numbers and money in the active language
(``tdmanager.formatting``): "12.500" and "2.250,00 EUR" in Italian, "12,500" and "2,250.00 EUR" in English."""

from django import template

from tdmanager import formatting

register = template.Library()


@register.filter
def num(value, decimals=None):
    return formatting.num(value, None if decimals in (None, "") else int(decimals))


@register.filter
def money(value, currency=""):
    return formatting.money(value, currency or "")
