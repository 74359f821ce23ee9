"""Oversight: the regulator's grants, the witnesses, the stub reports, the floor's rulings.

ROLE-01, ROLE-02, ROLE-05: what the control authority reads and signs, and the floor decisions
kept as they were made.
"""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .common import MONEY, AppendOnlyModel
from .eventlog import TournamentEvent
from .tournaments import Tournament


class RegulatorGrant(models.Model):
    """A regulator login (the municipal control corps) may read this tournament (ROLE-01)."""

    tournament = models.ForeignKey(Tournament, related_name="regulator_grants", on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.CASCADE)
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, related_name="+", on_delete=models.SET_NULL)
    granted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        unique_together = [("tournament", "user")]


class Witness(AppendOnlyModel):
    """The administrative controller witnessed a seat draw or a balancing move (ROLE-01, 003
    Art. 4.6, 4.7(1)): one signature on the event-log row that records it."""

    tournament = models.ForeignKey(Tournament, related_name="witnesses", on_delete=models.PROTECT)
    event = models.ForeignKey(TournamentEvent, related_name="witnesses", on_delete=models.PROTECT)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.PROTECT)
    name = models.CharField(max_length=150)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        unique_together = [("event", "user")]


class StubReport(AppendOnlyModel):
    """A ticket-stub report sent to the control authority (ROLE-02): number 0 is the pre-start
    report, 1, 2, … the addenda for the stubs sold after it. ``last_row`` is the newest ledger
    row it covers: the next one starts after it."""

    tournament = models.ForeignKey(Tournament, related_name="stub_reports", on_delete=models.PROTECT)
    number = models.PositiveIntegerField()
    first_row_id = models.PositiveBigIntegerField(default=0)
    last_row_id = models.PositiveBigIntegerField(default=0)
    stubs = models.PositiveIntegerField(default=0)
    total = models.DecimalField(**MONEY, default=Decimal("0"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, related_name="+", on_delete=models.PROTECT)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["number"]
        unique_together = [("tournament", "number")]


class Ruling(AppendOnlyModel):
    """A floor decision (ROLE-05): who asked, when, the question, the decision, by whom and when.
    Decisions are final: the row is never changed, only annotated (:class:`RulingNote`).
    ``late`` is the dispute-window check at the time it was recorded."""

    HAND, BREAK = "HAND", "BREAK"
    WINDOWS = [(HAND, _("until the next hand begins")), (BREAK, _("pot awarded in a break: one minute"))]
    tournament = models.ForeignKey(Tournament, related_name="rulings", on_delete=models.PROTECT)
    table_number = models.PositiveIntegerField(null=True, blank=True)
    hand = models.CharField(max_length=40, blank=True)
    asked_by = models.CharField(max_length=150)
    asked_at = models.DateTimeField()
    window = models.CharField(max_length=5, choices=WINDOWS, default=HAND)
    disputed_at = models.DateTimeField(null=True, blank=True, help_text="the pot awarded (break) or the hand's end")
    next_hand_at = models.DateTimeField(null=True, blank=True, help_text="when the next hand began, if it had")
    late = models.BooleanField(default=False)
    question = models.TextField(max_length=2000)
    decision = models.TextField(max_length=2000)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.PROTECT)
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["decided_at", "id"]


class RulingNote(AppendOnlyModel):
    """An annotation on a final ruling (ROLE-05): added, never edited."""

    ruling = models.ForeignKey(Ruling, related_name="notes", on_delete=models.PROTECT)
    text = models.TextField(max_length=2000)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.PROTECT)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
