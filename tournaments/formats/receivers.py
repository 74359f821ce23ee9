"""Formats answers what tournaments asks: its pages' links and a heads-up event's lobby screen."""

from tournaments import signals
from tournaments.models import Tournament

from . import selectors
from .views import bracket_display


def page_links(sender, tournament, **kwargs):
    return selectors.format_links(tournament)


def display_wanted(sender, tournament, request, **kwargs):
    """A heads-up event has no room clock: its lobby screen shows the bracket (FMT-12)."""
    if tournament.format == Tournament.HEADS_UP and getattr(tournament, "bracket", None) is not None:
        return bracket_display(request, tournament.pk)
    return None


def connect():
    signals.page_links.connect(page_links, dispatch_uid="formats.page_links")
    signals.display_wanted.connect(display_wanted, dispatch_uid="formats.display_wanted")
