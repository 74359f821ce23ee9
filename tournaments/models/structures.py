"""Blind structures: the levels and breaks a tournament's clock runs through."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class BlindStructure(models.Model):
    """An ordered list of levels and breaks; a template can be copied into a tournament."""

    name = models.CharField(_("name"), max_length=120)
    description = models.CharField(_("description"), max_length=300, blank=True)
    is_template = models.BooleanField(_("template"), default=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self):
        return self.name


class StructureItem(models.Model):
    LEVEL, BREAK = "LEVEL", "BREAK"
    KINDS = [(LEVEL, _("Level")), (BREAK, _("Break"))]

    structure = models.ForeignKey(BlindStructure, related_name="items", on_delete=models.CASCADE)
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=5, choices=KINDS, default=LEVEL)
    small_blind = models.PositiveIntegerField(default=0)
    big_blind = models.PositiveIntegerField(default=0)
    ante = models.PositiveIntegerField(default=0)
    big_blind_ante = models.BooleanField(default=False)
    minutes = models.PositiveIntegerField()
    color_up = models.CharField(_("color-up note"), max_length=200, blank=True)
    game = models.CharField(max_length=40, blank=True)
    add_on = models.BooleanField(_("add-on window"), default=False)
    # Denominations taken out of play at this break (CLK-09, TDA 24 scheduled colour-ups).
    removes_denominations = models.JSONField(default=list, blank=True)
    # Set on a break the director inserted inside a level: the seconds that level resumes with.
    resume_seconds_left = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["structure", "position"]
        unique_together = [("structure", "position")]

    @property
    def is_break(self):
        return self.kind == self.BREAK
