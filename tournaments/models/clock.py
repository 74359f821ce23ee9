"""The tournament clock's row and the tables' reports in hand-for-hand play."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from .tournaments import Tournament


class Clock(models.Model):
    """The tournament clock. This row is the truth; everything shown is derived from it by
    ``tournaments.clock`` (pure arithmetic). ``version`` is bumped on every change so that a
    stale Celery task or a stale browser snapshot can be recognised."""

    NOT_STARTED, RUNNING, PAUSED, HAND_FOR_HAND, FINISHED = "NOT_STARTED", "RUNNING", "PAUSED", "HAND_FOR_HAND", "FINISHED"
    tournament = models.OneToOneField(Tournament, related_name="clock", on_delete=models.CASCADE)
    status = models.CharField(max_length=14, default=NOT_STARTED)
    item_index = models.PositiveIntegerField(default=0)
    ends_at = models.DateTimeField(null=True, blank=True)
    remaining = models.FloatField(default=0)
    version = models.PositiveBigIntegerField(default=0)
    h4h_hand = models.PositiveIntegerField(default=0)
    h4h_seconds_per_hand = models.PositiveIntegerField(default=120)
    updated_at = models.DateTimeField(auto_now=True)


class HandForHandReport(models.Model):
    """A table's state in one hand-for-hand hand (CLK-06): no row while it plays the hand
    (IN_HAND), ALL_IN_HOLD while an all-in is called and the cards wait face down for the
    director (RP-8-F), COMPLETE once it reported the hand finished."""

    IN_HAND, ALL_IN_HOLD, COMPLETE = "IN_HAND", "ALL_IN_HOLD", "COMPLETE"
    STATES = (IN_HAND, ALL_IN_HOLD, COMPLETE)
    tournament = models.ForeignKey(Tournament, related_name="h4h_reports", on_delete=models.CASCADE)
    hand = models.PositiveIntegerField()
    table_number = models.PositiveIntegerField()
    state = models.CharField(max_length=12, default=COMPLETE)
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    reported_at = models.DateTimeField(default=timezone.now)

    class Meta:
        unique_together = [("tournament", "hand", "table_number")]
