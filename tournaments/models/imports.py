"""Imports: a sheet uploaded, kept from its preview to the director's confirmation."""

from decimal import Decimal

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


class Td3Player(models.Model):
    """A player of The Tournament Director 3 (TD3) brought in: TD3's own player id and the person
    he is here. Two TD3 ids are two people, whatever their names."""

    uuid = models.CharField(max_length=80, unique=True)
    person = models.ForeignKey("tournaments.Person", on_delete=models.CASCADE, related_name="td3_ids")
    imported_at = models.DateTimeField(default=timezone.now)


class Td3Event(models.Model):
    """An event of a TD3 save file brought in: TD3's tournament id, the tournament it is here
    (marked by this row as imported from TD3, an archive: no money moved here), the league and
    season TD3 counted it for, and the digest of what was imported (the same file again changes
    nothing; a file saved later updates the event)."""

    #: TD3's tournament id and when it started: a room that copies last week's file for next
    #: week's event keeps its id, so the id alone does not tell two events apart
    key = models.CharField(max_length=120, unique=True)
    uuid = models.CharField(max_length=80, db_index=True)
    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, related_name="td3_event")
    filename = models.CharField(max_length=200, blank=True)
    digest = models.CharField(max_length=64)
    league_name = models.CharField(max_length=160, blank=True)
    season_name = models.CharField(max_length=160, blank=True)
    #: what the tournament's own tables do not hold: each bust's round and hitmen by TD3's ids,
    #: the players' hits and TD3's points for playing, the event's money as TD3 recorded it
    details = models.JSONField(default=dict, blank=True)
    imported_at = models.DateTimeField(default=timezone.now)

    @property
    def money(self) -> dict | None:
        """The event's money as TD3 recorded it (its pot, what was paid, the fees, the buy-ins,
        rebuys and add-ons, the prizes): the room's archives, in no ledger. None for an event
        imported before TD3's figures were kept, or not played."""
        kept = (self.details or {}).get("money")
        if not kept or not kept.get("players"):
            return None
        money = ("pot", "paid", "fees", "guaranteed", "prizes")
        return {k: Decimal(str(v)) if k in money else int(v) for k, v in kept.items()}
