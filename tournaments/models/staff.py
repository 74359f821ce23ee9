"""The staff's logins on their devices: API tokens, browser sessions, idempotent requests."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class DeviceToken(models.Model):
    """A staff login's API token on one device (a desk's tablet, the floor's phone): named,
    listed, revoked by its user or a director, expired after ``TDM_TOKEN_IDLE_MINUTES`` unused,
    void once the user's password changes (``password_mark``), revoked when the login is
    disabled. Only the key's SHA-256 is stored: a copy of the database logs nobody in."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="device_tokens")
    digest = models.CharField(max_length=64, unique=True)
    # the key's first characters, shown in the list so the user can tell two devices apart
    prefix = models.CharField(max_length=8)
    name = models.CharField(max_length=80)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(default=timezone.now)
    # tdmanager.authentication.password_mark of the user's password when the token was issued
    password_mark = models.CharField(max_length=16)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    revoke_reason = models.CharField(max_length=20, blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["user", "revoked_at"], name="devtoken_user_idx")]


class BrowserSession(models.Model):
    """A staff login in a browser (one session): listed on the devices page beside the API tokens,
    with the browser it is and when it was last used, and ended there by its user or a director.
    Written with the session's own last activity (``tdmanager.idle``), at most once a minute per
    session, never on every request; gone with a logout."""

    session_key = models.CharField(max_length=40, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    user_agent = models.CharField(max_length=200, blank=True, default="")  # what the browser said it is, cut
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "last_used_at"], name="browsersession_user_idx")]


class IdempotencyRecord(models.Model):
    """The first answer to a cashier POST carrying ``Idempotency-Key``; a repeat gets it back."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=100)
    endpoint = models.CharField(max_length=200)
    # SHA-256 of the request body: the same key with another body is refused (422), not replayed.
    body_hash = models.CharField(max_length=64, default="", blank=True)
    status_code = models.PositiveSmallIntegerField(default=0)
    response = models.JSONField(null=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        unique_together = [("user", "key")]
        indexes = [models.Index(fields=["created_at"], name="idem_created_idx")]


class LoginLanguage(models.Model):
    """The language a staff login chose (the language picker, once): its pages are in it on every
    device it logs in on, whatever the browser says, until it chooses another."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+")
    language = models.CharField(max_length=8)
    chosen_at = models.DateTimeField(default=timezone.now)
