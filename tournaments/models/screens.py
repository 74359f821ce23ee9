"""Lobby screens: the TVs, the layouts they draw and the images they show."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .tournaments import Tournament


class DisplayScreen(models.Model):
    """A lobby TV. It authenticates with its read-only token; the director picks what it shows."""

    name = models.CharField(_("name"), max_length=80)
    tournament = models.ForeignKey(Tournament, null=True, blank=True, related_name="screens", on_delete=models.SET_NULL)
    token = models.CharField(max_length=64, unique=True)
    # Set when a director revoked the screen's token (the screens page, ``…/revoke-token/``):
    # its page, stream and state answer nobody until a new token is issued (``…/rotate-token/``).
    token_revoked_at = models.DateTimeField(null=True, blank=True)
    show = models.JSONField(default=dict, blank=True, help_text="panels: clock, blinds, stats, payouts, seats, announcements, sounds")
    announcement = models.CharField(_("announcement"), max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # A screen may rotate between chosen tournaments, each for ``rotate_seconds`` with its live data.
    rotate = models.ManyToManyField(Tournament, blank=True, related_name="rotating_screens", verbose_name=_("tournaments to rotate"))
    rotate_seconds = models.PositiveIntegerField(_("seconds per tournament"), default=20, validators=[MinValueValidator(5), MaxValueValidator(600)])

    #: the layout of each state it shows (``layouts.STATES``: live, break, final) as a key
    #: (``builtin:<name>`` or ``layout:<id>``); a state without one shows the live one's
    layouts = models.JSONField(default=dict, blank=True)
    #: the screen that plays the sounds and speaks for the tournaments it shows (one at a time)
    speaker = models.BooleanField(_("speaker"), default=False)
    #: what the speaker announces (``layouts.clean_sounds``; {} : the defaults)
    sounds = models.JSONField(default=dict, blank=True)
    #: the language the screen shows and speaks (a code of ``settings.LANGUAGES``); "" : the
    #: language of the browser it runs in. One TV in German, one in Italian.
    language = models.CharField(_("language"), max_length=8, blank=True, default="")
    #: a second language its speaker says every announcement in, after the first ("" : none)
    second_language = models.CharField(_("second language"), max_length=8, blank=True, default="")

    #: as a stream's overlay (``/overlay/<token>/``, OBS's browser source): its size in pixels,
    #: how many seconds it runs behind the room (the stream's delay: a bust never shows before
    #: the viewers see the hand) and how long a bust stays on as a lower third
    overlay_width = models.PositiveIntegerField(_("overlay width (px)"), default=1920, validators=[MinValueValidator(320), MaxValueValidator(7680)])
    overlay_height = models.PositiveIntegerField(_("overlay height (px)"), default=1080, validators=[MinValueValidator(180), MaxValueValidator(4320)])
    overlay_delay = models.PositiveIntegerField(_("overlay delay (seconds)"), default=0, validators=[MaxValueValidator(900)])
    bust_seconds = models.PositiveIntegerField(_("seconds a bust stays on"), default=12, validators=[MinValueValidator(3), MaxValueValidator(120)])

    PANELS = ("blinds", "stats", "payouts", "seats", "announcements", "moves", "sounds")

    def tournaments_shown(self) -> list:
        """The tournaments this screen shows in turn: its own first, then those it rotates through
        (by start time); with none chosen, the first running one (or the latest) as before."""
        chosen = [self.tournament] if self.tournament_id else []
        chosen += [t for t in self.rotate.order_by("start_at", "id") if t.pk != self.tournament_id]
        if chosen:
            return chosen
        t = Tournament.objects.filter(status=Tournament.RUNNING).order_by("start_at").first() or Tournament.objects.order_by("-start_at").first()
        return [t] if t else []

    def may_show(self, tournament_id: int) -> bool:
        """The screen's token reads a tournament it shows (any, when it follows the running one)."""
        if self.tournament_id is None and not self.rotate.exists():
            return True
        return tournament_id == self.tournament_id or self.rotate.filter(pk=tournament_id).exists()

    def shows(self, panel: str) -> bool:
        return bool((self.show or {}).get(panel, panel != "sounds"))


class ScreenLayout(models.Model):
    """A lobby screen's design, made with the layout editor or imported: data the
    screen's script draws (``tournaments.screens.rules``), never markup."""

    name = models.CharField(_("name"), max_length=80, unique=True)
    portrait = models.BooleanField(_("portrait (9:16)"), default=False)
    design = models.JSONField(default=dict)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return self.name


class ScreenImage(models.Model):
    """A logo or a sponsor's image for the lobby screens: what was uploaded, decoded, checked and
    encoded again as PNG by the product (never served as the user sent it)."""

    name = models.CharField(_("name"), max_length=80)
    png = models.BinaryField()
    #: the PNG's SHA-256 (hex, 64): its address (``/screens/images/<digest>.png``), the same bytes
    #: for ever, so a web process may keep it however the rows change (a restore)
    digest = models.CharField(max_length=64, db_index=True)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return self.name
