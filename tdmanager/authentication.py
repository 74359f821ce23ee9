"""API token authentication: a token per device, the roles read in the same query as the token
and the user, so that a call's role check (``tdmanager.roles.user_roles``) asks the database
nothing more.

The tokens' table belongs to an app (the ground floor imports none): the app that owns it hands
its model to ``tokens`` when it starts (``tournaments.apps.TournamentsConfig.ready``), as the
idempotency keys are handed in. A token is found by its key's SHA-256, never by the key itself,
and is refused once revoked, once unused for ``TDM_TOKEN_IDLE_MINUTES``, and once its user's
password has changed (the mark of the password it was issued under no longer matches).
"""

import hashlib
import secrets
from datetime import timedelta
from functools import cache

from django.conf import settings
from django.contrib.auth.models import Group
from django.db.models import Aggregate, CharField, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from .compiled import TEXT, Compiled
from .policy import DIRECTOR
from .roles import ROLES

# A token in use has its last use written at most this often: an API call is not a write.
TOUCH_SECONDS = 60


class TokenExpired(exceptions.AuthenticationFailed):
    """A device's token revoked, expired unused or issued under an old password: log in again."""

    default_code = "token_expired"


class TokenTable:
    """The table of the tokens, handed in when the app that owns it starts."""

    model = None


tokens = TokenTable()


def new_key() -> str:
    """A new token's key: 40 hexadecimal characters from the OS's CSPRNG (160 bits)."""
    return secrets.token_hex(20)


def key_digest(key: str) -> str:
    """What is stored of a key, and what it is looked up by."""
    return hashlib.sha256(key.encode()).hexdigest()


def password_mark(user) -> str:
    """A short fingerprint of the user's password hash: a token carries the one it was issued
    under, so a changed or reset password (by any path: the admin, ``changepassword``, a
    director) voids every token at once."""
    return hashlib.sha256(f"tdm-token:{user.password}".encode()).hexdigest()[:16]


def refusal(token, user, now) -> str:
    """Why a found token no longer logs in ("" when it does): revoked, expired, password changed."""
    if token.revoked_at is not None:
        return "revoked"
    if token.password_mark != password_mark(user):
        return "password_changed"
    idle = settings.TDM_TOKEN_IDLE_MINUTES
    if idle and now - token.last_used_at > timedelta(minutes=idle):
        return "expired"
    return ""


class _Names(Aggregate):
    """The names, comma separated (the role names are fixed words without commas)."""

    function = "STRING_AGG"
    template = "%(function)s(%(expressions)s, ',')"
    output_field = CharField()

    def as_sqlite(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, function="GROUP_CONCAT", **extra_context)


@cache
def _lookup(authentication: type, model: type) -> Compiled:
    """The token query of an authentication class (``TokenWithRoles.query``), compiled once per
    process and database: building and compiling it cost every API call more CPU than running it."""
    return Compiled(authentication().query, model, kinds=(TEXT,))


class TokenWithRoles(TokenAuthentication):
    """``Authorization: Token <key>`` (DRF's header), a token per device, the roles read along."""

    def get_model(self):
        return tokens.model

    def query(self, digest):
        """The token of ``digest``, its user loaded along, the user's role names as ``tdm_role_names``."""
        roles = Group.objects.filter(user=OuterRef("user_id"), name__in=ROLES).values("user").annotate(names=_Names("name")).values("names")
        return self.get_model().objects.select_related("user").annotate(tdm_role_names=Subquery(roles)).filter(digest=digest)

    def authenticate_credentials(self, key):
        token = _lookup(type(self), self.get_model()).first(key_digest(key))
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))  # DRF's words, and its translations
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        now = timezone.now()
        if refusal(token, token.user, now):
            raise TokenExpired(_("This device's login has expired or was revoked: log in again."))
        if now - token.last_used_at > timedelta(seconds=TOUCH_SECONDS):
            # Bookkeeping like a session's expiry date, not a change of the room's state: the
            # idle window slides with use (one UPDATE a minute per device at most).
            type(token).objects.filter(pk=token.pk).update(last_used_at=now)
        held = set(filter(None, (token.tdm_role_names or "").split(",")))
        if token.user.is_superuser:
            held.add(DIRECTOR)
        token.user._tdm_roles = held  # what tdmanager.roles.user_roles keeps for the request
        return token.user, token
