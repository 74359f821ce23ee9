"""Lobby screens' tokens: a director revokes one (the screen shows nothing until it gets a new
link) or replaces it with a new one (the old link stops at once, the new one is shown once on
the screens page). Either way the open live streams of the old token end in every web process
once the change is committed (``realtime.screen_revoked``)."""

import secrets

from django.db import transaction
from django.utils import timezone

from tdmanager import realtime
from tdmanager.transactions import service

from ..actions import Action
from ..models import DisplayScreen
from .events import Actor, log_event


def _ended_on_commit(token: str) -> None:
    transaction.on_commit(lambda: realtime.screen_revoked(token))


@service
def revoke_screen_token(screen: DisplayScreen, *, actor: Actor) -> DisplayScreen:
    """The screen's link stops working: its page, state, seats and stream answer nobody."""
    screen = DisplayScreen.objects.select_for_update().get(pk=screen.pk)
    if screen.token_revoked_at is None:
        screen.token_revoked_at = timezone.now()
        screen.save(update_fields=["token_revoked_at"])
        log_event(screen.tournament, Action.TOURNAMENTS_DISPLAY_TOKEN_REVOKED, actor, screen=screen.name)
        _ended_on_commit(screen.token)
    return screen


@service
def rotate_screen_token(screen: DisplayScreen, *, actor: Actor) -> DisplayScreen:
    """A new link for the screen; the old one stops working at once."""
    screen = DisplayScreen.objects.select_for_update().get(pk=screen.pk)
    old = screen.token
    screen.token, screen.token_revoked_at = secrets.token_urlsafe(24), None
    screen.save(update_fields=["token", "token_revoked_at"])
    log_event(screen.tournament, Action.TOURNAMENTS_DISPLAY_TOKEN_ROTATED, actor, screen=screen.name)
    _ended_on_commit(old)
    return screen
