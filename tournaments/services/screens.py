"""Lobby screens: a director adds one (it gets its link), changes what it shows, or takes one
away; the API (``DisplayScreenViewSet``) and the displays page call these services, each logged.

Tokens: a director revokes one (the screen shows nothing until it gets a new
link) or replaces it with a new one (the old link stops at once, the new one is shown once on
the screens page). Either way the open live streams of the old token end in every web process
once the change is committed (``realtime.screen_revoked``)."""

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import realtime, shown_text
from tdmanager.transactions import service

from .. import layouts
from ..actions import Action
from ..models import DisplayScreen
from .checks import clean
from .events import Actor, log_event, publish_on_commit
from .layouts import clean_screen_layouts

#: What a director sets on a screen (the token is the service's; ``rotate`` is a list of tournaments).
FIELDS = ("name", "tournament", "show", "announcement", "rotate_seconds", "layouts", "speaker", "sounds")


def _ended_on_commit(token: str) -> None:
    transaction.on_commit(lambda: realtime.screen_revoked(token))


def _announce_shown(screen: DisplayScreen, action: Action, before: set[int] = frozenset()) -> None:
    """Every tournament the screen shows (and showed: ``before``) is announced once committed:
    its lobby's announcement and rotation changed. The screen's own tournament is announced by
    its event row."""
    for pk in sorted(({*screen.rotate.values_list("pk", flat=True)} | set(before)) - {screen.tournament_id, None}):
        publish_on_commit(pk, action.value)


def _checked(values: dict) -> dict:
    """The layouts and sounds as stored: each layout one that exists, the sounds over
    their defaults; ``ValidationFailed`` naming the field otherwise."""
    values = dict(values)
    shown_text.check(values.get("name"), "name", _("Name"))
    shown_text.check(values.get("announcement"), "announcement", _("Announcement"))
    if "layouts" in values:
        values["layouts"] = clean_screen_layouts(values["layouts"])
    if "sounds" in values:
        values["sounds"] = layouts.clean_sounds(values["sounds"])
    return values


def _one_speaker(screen: DisplayScreen) -> list[str]:
    """A speaker is the only one among the screens showing the same tournaments (ten TVs never
    talk over each other): the others become quiet. Returns their names."""
    if not screen.speaker:
        return []
    shown = {t.pk for t in screen.tournaments_shown()}
    quiet = []
    for other in DisplayScreen.objects.filter(speaker=True).exclude(pk=screen.pk).order_by("name"):
        if shown & {t.pk for t in other.tournaments_shown()}:
            other.speaker = False
            other.save(update_fields=["speaker"])
            quiet.append(other.name)
    return quiet


@service
def create_screen(values: dict, *, actor: Actor) -> DisplayScreen:
    """A new screen with its own unguessable link (``values``: ``FIELDS`` and ``rotate``)."""
    values = _checked(values)
    rotate = values.pop("rotate", None)
    screen = clean(DisplayScreen(token=secrets.token_urlsafe(24), **{k: v for k, v in values.items() if k in FIELDS}))
    screen.save(force_insert=True)
    if rotate:
        screen.rotate.set(rotate)
    _one_speaker(screen)
    log_event(screen.tournament, Action.TOURNAMENTS_DISPLAY_CREATED, actor, screen=screen.name)
    _announce_shown(screen, Action.TOURNAMENTS_DISPLAY_CREATED)
    return screen


@service
def update_screen(screen: DisplayScreen, values: dict, *, actor: Actor) -> DisplayScreen:
    """Change what the screen shows: the ``FIELDS`` and ``rotate`` in ``values``; the rest stays."""
    values = _checked(values)
    screen = DisplayScreen.objects.select_for_update().get(pk=screen.pk)
    rotating = set(screen.rotate.values_list("pk", flat=True))
    before = {screen.tournament_id, *rotating}
    changed = sorted(k for k in values if k in FIELDS and getattr(screen, k) != values[k])
    for name in changed:
        setattr(screen, name, values[name])
    clean(screen)
    screen.save()
    if "rotate" in values:
        if {t.pk for t in values["rotate"]} != rotating:
            changed.append("rotate")
        screen.rotate.set(values["rotate"])
    quiet = _one_speaker(screen)
    if quiet:
        changed.append("quiet: " + ", ".join(quiet))
    log_event(screen.tournament, Action.TOURNAMENTS_DISPLAY_UPDATED, actor, screen=screen.name, fields=changed)
    _announce_shown(screen, Action.TOURNAMENTS_DISPLAY_UPDATED, before)
    return screen


@service
def delete_screen(screen: DisplayScreen, *, actor: Actor) -> None:
    """Take the screen away: its link stops working at once."""
    screen = DisplayScreen.objects.select_for_update().get(pk=screen.pk)
    shown = {screen.tournament_id, *screen.rotate.values_list("pk", flat=True)}
    token, name, tournament = screen.token, screen.name, screen.tournament
    screen.delete()
    log_event(tournament, Action.TOURNAMENTS_DISPLAY_DELETED, actor, screen=name)
    for pk in sorted(shown - {getattr(tournament, "pk", None), None}):
        publish_on_commit(pk, Action.TOURNAMENTS_DISPLAY_DELETED.value)
    _ended_on_commit(token)


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
