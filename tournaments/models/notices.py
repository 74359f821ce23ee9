"""The players' notices: the push keys, the phones subscribed, what each player was told."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from .people import Person
from .tournaments import Entry, Tournament


class PushKeys(models.Model):
    """The installation's VAPID key pair (RFC 8292): made once, on the first subscription, and
    kept with the data (a row, so the backup carries it and a restored installation keeps
    signing as the phones know it; new keys would leave every subscription unreachable)."""

    private_key = models.TextField(help_text="the P-256 private key, PEM")
    public_key = models.CharField(max_length=100, help_text="the public key as the browsers take it: base64url of the uncompressed point")
    created_at = models.DateTimeField(default=timezone.now)


def default_language() -> str:
    """The product's language (``settings.LANGUAGE_CODE``), read when a row is made: a
    subscription that names none reads its notices in it."""
    return settings.LANGUAGE_CODE


class PushSubscription(models.Model):
    """One phone's Web Push subscription for a player (several phones per player): the push
    service's endpoint and the browser's keys (RFC 8291), the kinds of notice he chose and the
    language he reads them in. Personal data: in his export, gone with an erasure, when he stops
    it, when the push service calls it gone (404/410) and a while after his last event."""

    person = models.ForeignKey(Person, related_name="push_subscriptions", on_delete=models.CASCADE)
    # One endpoint is one browser on one phone: subscribed again from another player's page, it
    # follows that player (``notices.services.subscribe``).
    endpoint = models.CharField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=120)
    auth = models.CharField(max_length=60)
    kinds = models.JSONField(default=list, blank=True)
    language = models.CharField(max_length=8, default=default_language)
    created_at = models.DateTimeField(default=timezone.now)
    last_success_at = models.DateTimeField(null=True, blank=True)


class NoticeMark(models.Model):
    """What an entry's player was last told about it: the facts of his own page the notices
    compare (``tournaments.notices.rules.facts``), so a change is told once, however many times the
    tournament is published, and a missed publication is told at the next."""

    entry = models.OneToOneField(Entry, primary_key=True, related_name="notice_mark", on_delete=models.CASCADE)
    facts = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)


class RegistrationNotice(models.Model):
    """A person told that ``tournament``'s late registration closes at the end of the level being
    played (he played another event of its series): told once per event, whatever number of
    changes follow. Deleted with his phones at an erasure."""

    person = models.ForeignKey(Person, related_name="+", on_delete=models.CASCADE)
    tournament = models.ForeignKey(Tournament, related_name="+", on_delete=models.CASCADE)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["person", "tournament"], name="tournaments_registration_notice_once")]
