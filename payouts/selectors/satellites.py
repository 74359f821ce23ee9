"""A satellite's seats: its link to the target event, its pool, the seats it awards.

Read by the payout table (a satellite's places are seats, not cash) and by the pages.
"""

from __future__ import annotations

from decimal import Decimal

from tdmanager.compiled import Compiled
from tdmanager.money import ZERO
from tournaments.house import HouseRules

from .. import satellite as satellite_engine
from ..models import SatelliteLink
from .pool import is_cancelled, money_in, prize_pool

_SATELLITE_LINK = None  # the link of a satellite, compiled once (made at first use: the model is this app's)


def satellite_link(t):
    """The satellite's link to its target (FMT-08), or None: the target is read when first used
    (most tournaments are no satellite, and the lobby's snapshot asks after every change)."""
    global _SATELLITE_LINK
    if _SATELLITE_LINK is None:
        _SATELLITE_LINK = Compiled(lambda pk: SatelliteLink.objects.filter(satellite_id=pk).order_by(), SatelliteLink)
    rows = _SATELLITE_LINK.rows(t.pk)
    if not rows:
        return None
    link = rows[0]
    link.satellite = t  # the row asked about, as read
    return link


def satellite_pool(t, link=None) -> Decimal:
    """FMT-08 / C14: GROSS (default) = everything the players paid; NET = the prize pool."""
    link = link or satellite_link(t)
    if is_cancelled(t):
        return ZERO  # its players' money goes back to them, not into seats
    if link.prize_base == link.GROSS:
        got = money_in(t)
        return max(ZERO, got["prize"] + got["fee"])
    return prize_pool(t)


def seat_value(target) -> Decimal:
    """What a satellite's seat in ``target`` is worth: all a player pays to enter it, its buy-in
    and fee and, in a bounty event, the bounty part his entry puts on his head (PAY-02)."""
    return HouseRules.of(target).entry_cost(target)


def satellite_awards(t, link=None) -> list:
    link = link or satellite_link(t)
    if link.target.entry_price <= 0 or (link.remainder_rule == link.CHUNKS and t.entry_price <= 0):
        return []  # refused when linking and when repricing; a row from before that awards nothing
    kwargs = {"chunk": t.entry_price} if link.remainder_rule == link.CHUNKS else {}
    return satellite_engine.satellite_awards(satellite_pool(t, link), seat_value(link.target), link.remainder_rule, **kwargs)
