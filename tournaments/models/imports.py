"""Imports: a sheet uploaded, kept from its preview to the director's confirmation."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class ImportFile(models.Model):
    """A sheet uploaded to be imported, kept from its preview to the director's confirmation (so
    every web process can serve the next step); emptied when imported, deleted a day after."""

    kind = models.CharField(max_length=20)
    filename = models.CharField(max_length=200)
    data = models.BinaryField()
    mapping = models.JSONField(default=list, blank=True)
    options = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    imported_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(default=dict, blank=True)
