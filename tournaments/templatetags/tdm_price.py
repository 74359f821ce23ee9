"""An entry's price as the desk charges it (``HouseRules.entry_cost``): ``{{ t|bounty_part }}``,
``{{ t|entry_cost }}``; ``templates/_price.html`` shows it with its parts."""

from django import template

from tournaments.house import HouseRules

register = template.Library()


@register.filter
def bounty_part(t):
    return HouseRules.of(t).bounty_part


@register.filter
def entry_cost(t):
    return HouseRules.of(t).entry_cost(t)
