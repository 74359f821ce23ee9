"""The event log: one append-only row per action, the audit trail and the live feed."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from tournaments.eventlog.actions import Action

from .common import AppendOnlyModel
from .tournaments import Tournament


class TournamentEvent(AppendOnlyModel):
    """The append-only event log: audit trail, undo source and live feed."""

    # Written on every action (a bust writes one or two): few indexes. The log is read by
    # tournament, newest first, or by tournament and action.
    # A deleted tournament (one that never sold anything) leaves its rows in the log, detached.
    tournament = models.ForeignKey(Tournament, null=True, blank=True, related_name="events", on_delete=models.SET_NULL)
    action = models.CharField(max_length=80)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, db_index=False)
    actor_label = models.CharField(max_length=150, blank=True)
    device = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    payload = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["tournament", "action"])]

    def __str__(self):
        return f"{self.created_at:%H:%M:%S} {self.action}"

    @property
    def action_label(self) -> str:
        """What a person reads for the action (``tournaments.eventlog.actions.Action``), in his language."""
        return Action.label_of(self.action)
