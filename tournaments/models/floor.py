"""The floor's chips and penalties: chip sets, adjustments, counts, races, penalties."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .common import AppendOnlyModel
from .people import Person
from .tournaments import Entry, Tournament


class ChipSet(models.Model):
    """The venue's physical chips: denominations, colours and how many of each it owns."""

    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return self.name

    def as_mapping(self) -> dict[int, int]:
        return {d.value: d.quantity for d in self.denominations.all()}


class ChipDenomination(models.Model):
    chip_set = models.ForeignKey(ChipSet, related_name="denominations", on_delete=models.CASCADE)
    value = models.PositiveIntegerField()
    colour = models.CharField(max_length=30, blank=True)
    quantity = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["value"]
        unique_together = [("chip_set", "value")]


class ChipAdjustment(AppendOnlyModel):
    """A change to the chips in play that is not a sale (CR-06): race roundings and discards,
    removals (disqualification, forfeits, chips out of view), lost and found. Signed."""

    RACE_ADDED, RACE_DISCARDED, DISQUALIFICATION, FORFEIT, OUT_OF_VIEW, LOST_FOUND, SURRENDER, CORRECTION = (
        "RACE_ADDED",
        "RACE_DISCARDED",
        "DISQUALIFICATION",
        "FORFEIT",
        "OUT_OF_VIEW",
        "LOST_FOUND",
        "SURRENDER",
        "CORRECTION",
    )
    KINDS = [
        (RACE_ADDED, _("Chip race: added by rounding")),
        (RACE_DISCARDED, _("Chip race: removed")),
        (DISQUALIFICATION, _("Removed: disqualification")),
        (FORFEIT, _("Removed: forfeit")),
        (OUT_OF_VIEW, _("Removed: chips out of view")),
        (LOST_FOUND, _("Lost and found")),
        (SURRENDER, _("Removed: surrender")),
        (CORRECTION, _("Correction")),
    ]
    tournament = models.ForeignKey(Tournament, related_name="chip_adjustments", on_delete=models.PROTECT)
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT)
    kind = models.CharField(max_length=20, choices=KINDS)
    chips = models.IntegerField()
    reason = models.CharField(max_length=200)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT)
    created_at = models.DateTimeField(default=timezone.now)


class ChipCount(models.Model):
    """Chips counted for a player (at a break, end of day, final table)."""

    tournament = models.ForeignKey(Tournament, related_name="chip_counts", on_delete=models.CASCADE)
    entry = models.ForeignKey(Entry, related_name="chip_counts", on_delete=models.CASCADE)
    chips = models.PositiveBigIntegerField()
    occasion = models.CharField(max_length=20, default="BREAK")
    bag_number = models.CharField(max_length=20, blank=True)
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    counted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-counted_at", "-id"]


class ChipRaceRecord(models.Model):
    """One table's chip race (CR-02..04): inputs, settings and result, as recorded."""

    tournament = models.ForeignKey(Tournament, related_name="chip_races", on_delete=models.CASCADE)
    table_number = models.PositiveIntegerField()
    removed_denomination = models.PositiveIntegerField()
    new_denomination = models.PositiveIntegerField()
    mode = models.CharField(max_length=10, default="MANUAL")  # MANUAL (physical race entered) or RANDOM
    race_settings = models.JSONField(default=dict)
    result = models.JSONField(default=dict)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(default=timezone.now)


class Penalty(models.Model):
    """A penalty on a player (PEN-01..07). It belongs to the entry, so it follows the player
    across table moves and breaks with the hands left unchanged (PEN-04)."""

    ACTIVE, SERVED, CANCELLED = "ACTIVE", "SERVED", "CANCELLED"
    tournament = models.ForeignKey(Tournament, related_name="penalties", on_delete=models.PROTECT)
    entry = models.ForeignKey(Entry, related_name="penalties", on_delete=models.PROTECT)
    person = models.ForeignKey(Person, related_name="penalties", on_delete=models.PROTECT)
    kind = models.CharField(max_length=24)
    reason_code = models.CharField(max_length=40)
    note = models.CharField(max_length=300, blank=True)
    preset = models.CharField(max_length=20, default="TDA")
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    players_at_table = models.PositiveSmallIntegerField(null=True, blank=True)
    hands_total = models.PositiveIntegerField(default=0)
    hands_served = models.PositiveIntegerField(default=0)
    # PEN-03: a penalty given while a hand is in play starts when the table completes it; the
    # table's own "hand completed" then counts each hand served (a misdeal does not count).
    started = models.BooleanField(default=True)
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    # PEN-05: a time suspension runs on the tournament clock: while the clock is stopped it
    # keeps its seconds left here (and no ``ends_at``).
    seconds_left = models.FloatField(null=True, blank=True)
    chips = models.PositiveBigIntegerField(null=True, blank=True)
    prize_forfeited = models.BooleanField(default=False)
    table_number = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, default=ACTIVE)
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT)
    issued_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-issued_at", "-id"]

    @property
    def hands_left(self) -> int:
        return max(0, self.hands_total - self.hands_served)
