"""Payouts reacts to what tournaments and seating announce, and answers what tournaments asks."""

from django.utils.translation import gettext as _

from seating import signals as seating_signals
from tournaments import signals
from tournaments.models import Tournament

from . import selectors, services
from .models import SatelliteLink


def players_busted(sender, tournament, actor, **kwargs):
    """A satellite ends by itself once the players left equal the seats (FMT-08)."""
    if tournament.format == Tournament.SATELLITE:
        services.after_bust(tournament, actor=actor)


def price_checked(sender, tournament, buy_in, fee, **kwargs):
    """A seat a satellite awards is worth the target's buy-in and fee: it cannot become free."""
    if buy_in + fee > 0:
        return None
    if SatelliteLink.objects.filter(target=tournament, completed_at__isnull=True).exists():
        return _("A satellite awards seats in this tournament: it needs a buy-in or a fee.")
    return None


def snapshot_parts(sender, tournament, **kwargs):
    return selectors.display_summary(tournament)


def page_links(sender, tournament, **kwargs):
    return selectors.tournament_links(tournament)


def connect():
    seating_signals.players_busted.connect(players_busted, dispatch_uid="payouts.players_busted")
    signals.snapshot_parts.connect(snapshot_parts, dispatch_uid="payouts.snapshot_parts")
    signals.price_checked.connect(price_checked, dispatch_uid="payouts.price_checked")
    signals.page_links.connect(page_links, dispatch_uid="payouts.page_links")
