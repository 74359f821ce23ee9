"""Staff logins: the audit line of each lock-out, and a director lifting one; the API's tokens,
one per device, issued and revoked.

The throttle itself is ``tdmanager.security`` (which imports no app): it announces a lock-out
with ``login_locked_out``, and ``record_lockout`` writes it to the event log (no tournament),
so the director sees who was locked out, from where, for how long, and can lift it.

A device's token (``DeviceToken``) is checked by ``tdmanager.authentication``: it expires
unused, and dies with a password change. Revoked here: by its user or a director, and all of a
user's at once when the login is disabled (``revoke_when_disabled``, on every save of a user),
so that enabling the login again brings none back.

A browser's login (a session) is listed beside them (``BrowserSession``): its last use is kept
with the session's own last activity (``session_used``, at most once a minute), the row goes with
a logout, and ``end_session`` ends one from the devices page.
"""

import ipaddress
import time
from importlib import import_module

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import realtime, security, usernames
from tdmanager.authentication import key_digest, new_key, password_mark
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.idle import session_used as session_activity
from tdmanager.policy import DIRECTOR
from tdmanager.roles import has_role
from tdmanager.transactions import service
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import SYSTEM, Actor, log_event
from tournaments.models import BrowserSession, DeviceToken
from tournaments.staff.selectors import browser_name


def record_lockout(sender=None, *, kind: str, username: str, address: str, failures: int, seconds: int, **_kw) -> None:
    """Receiver of ``security.login_locked_out``: one event-log row per lock-out."""
    _log_lockout(kind, username, address, failures, seconds)


@service
def _log_lockout(kind, username, address, failures, seconds):
    log_event(
        None,
        Action.AUTH_LOCKOUT_STARTED,
        SYSTEM,
        kind=kind,
        username=username[:150],
        address=address,
        failures=failures,
        seconds=seconds,
        until=int(time.time()) + seconds,
    )


LOCKOUT_KINDS = ("user", "address", "account")


def lockout_named(kind: str | None, username: str, address: str) -> tuple[str, str, str]:
    """(kind, username, address) of the lock-out a director names, as the list shows it: "user"
    (a username at an address), "address" (its address; every username) or "account" (its
    username; every address, so no address). Without a kind: a username and an address name a
    user's, an address alone an address's, a username alone an account's. Refused (400, naming
    the field) when it names none, or when a field contradicts the kind: lifting the account's
    with some address would read as lifting that address alone."""
    kind, username, address = (kind or "").strip(), (username or "").strip(), (address or "").strip()
    username = usernames.folded(username) if username else username  # as the throttle counts it: every variant of a name as one
    if kind and kind not in LOCKOUT_KINDS:
        raise ValidationFailed("lockout_kind_unknown", _("The kind of lock-out is one of: user, address, account."), field="kind")
    if not kind:
        if not username and not address:
            raise ValidationFailed("lockout_unnamed", _("Name the lock-out to lift: its username, its address, or both."), field="username")
        kind = "user" if username and address else "address" if address else "account"
    if kind in ("user", "account") and not username:
        raise ValidationFailed("username_required", _("Name the username locked out."), field="username")
    if kind in ("user", "address"):
        if not address:
            raise ValidationFailed("address_required", _("Name the address the lock-out is at."), field="address")
        try:
            ipaddress.ip_address(address)
        except ValueError:
            raise ValidationFailed("address_invalid", _("The address is not an IP address."), field="address") from None
    if kind == "address" and username:
        raise ValidationFailed("username_not_expected", _("An address's lock-out is for every username: leave the username empty."), field="username")
    if kind == "account" and address:
        raise ValidationFailed("address_not_expected", _("An account's lock-out is at every address: leave the address empty."), field="address")
    return kind, username, address


@service
def lift_lockout(*, kind: str | None = None, username: str = "", address: str = "", actor: Actor) -> dict:
    """A director lifts one lock-out, named as the list shows it (``lockout_named``): a username's
    at one address (its failures there forgotten), an address's, or an account's. That one alone:
    a user's at some address does not lift the account's. Logged with who lifted it."""
    kind, username, address = lockout_named(kind, username, address)
    security.lift(kind, username, address)
    log_event(None, Action.AUTH_LOCKOUT_LIFTED, actor, kind=kind, username=username, address=address)
    return {"kind": kind, "username": username, "address": address, "lifted": True}


@service
def issue_token(user, *, device: str, actor: Actor | None = None) -> tuple[DeviceToken, str]:
    """A new API token for one of ``user``'s devices, named ``device``: the row and the key (the
    key is shown once; only its digest is kept). Each login is a token of its own, so revoking
    one device leaves the others logged in."""
    key = new_key()
    name = " ".join((device or "").split())[:80] or _("API login")
    token = DeviceToken.objects.create(user=user, digest=key_digest(key), prefix=key[:8], name=name, password_mark=password_mark(user))
    log_event(None, Action.AUTH_TOKEN_ISSUED, actor or Actor(user), token=token.pk, user=user.get_username(), name=name)
    return token, key


@service
def revoke_token(token_id: int, *, actor: Actor) -> DeviceToken:
    """A device's token revoked: by its own user (this device or another one of his), or by a
    director (anyone's). Another user's token is not found for anyone else (404)."""
    token = DeviceToken.objects.select_for_update().filter(pk=token_id).select_related("user").first()
    mine = token is not None and actor.user is not None and token.user_id == actor.user.pk
    if token is None or not (mine or has_role(actor.user, DIRECTOR)):
        raise DomainError("not_found", _("No such device login."), status=404)
    if token.revoked_at is None:
        token.revoked_at, token.revoked_by, token.revoke_reason = timezone.now(), actor.user, "user" if mine else "director"
        token.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
        log_event(None, Action.AUTH_TOKEN_REVOKED, actor, token=token.pk, user=token.user.get_username(), name=token.name, reason=token.revoke_reason)
    return token


def _revoke_all(user, reason: str, actor: Actor) -> int:
    standing = list(DeviceToken.objects.filter(user=user, revoked_at=None).values_list("pk", "name"))
    DeviceToken.objects.filter(pk__in=[pk for pk, _name in standing]).update(revoked_at=timezone.now(), revoke_reason=reason[:20])
    for pk, name in standing:  # one line each in the log, as when a device is logged out by hand
        log_event(None, Action.AUTH_TOKEN_REVOKED, actor, token=pk, user=user.get_username(), name=name, reason=reason)
    return len(standing)


@service
def revoke_user_tokens(user, *, reason: str, actor: Actor | None = None) -> int:
    """Every token of ``user`` still standing revoked: how many."""
    return _revoke_all(user, reason, actor or SYSTEM)


def revoke_when_disabled(sender, instance, created=False, **kwargs) -> None:
    """Receiver of every user's ``post_save``: a login disabled loses its devices' tokens for
    good (a password change needs nothing here: it voids them by their ``password_mark``), and
    its open live streams end. A step of whatever saves the user (the admin's form saves inside
    its own transaction, where a service's durable one may not start): the tokens go with that
    save, or not at all."""
    if created or instance.is_active:
        return
    end_streams(instance.pk)
    if DeviceToken.objects.filter(user=instance, revoked_at=None).exists():
        with transaction.atomic():
            _revoke_all(instance, "disabled", SYSTEM)


def note_password_change(sender, instance, raw=False, update_fields=None, **kwargs) -> None:
    """Receiver of every user's ``pre_save``: whether the save changes the stored password (its
    hash), whatever changed it: the staff page's reset, the admin's password form,
    ``manage.py changepassword``, any ``set_password`` and save. One read of the row, and only
    for a save that may write the password (``last_login``'s at each login writes only that)."""
    instance._tdm_password_changed = False
    if raw or instance._state.adding or instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = type(instance).objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    instance._tdm_password_changed = stored is not None and stored != instance.password


def end_streams_on_password_change(sender, instance, created=False, **kwargs) -> None:
    """Receiver of every user's ``post_save``: a password changed ends the login's open live
    streams once committed, as a reset on the staff page does (this is where that reset's end is
    announced too: one place, whoever changed it). Its sessions end by Django's session hash,
    its tokens by their ``password_mark``."""
    if not created and getattr(instance, "_tdm_password_changed", False):
        instance._tdm_password_changed = False
        end_streams(instance.pk)


def end_streams(user_id: int) -> None:
    """The login's open live streams (``/live/``) end once the change is committed, in every web
    process (``realtime.login_ended``): a stream checks its login when it opens, and would
    otherwise go on showing the room to a login disabled, reset or given another role."""
    transaction.on_commit(lambda: realtime.login_ended(user_id))


def session_used(sender=None, *, request, **_kw) -> None:
    """Receiver of ``tdmanager.idle.session_used``: the browser's last use, written with the
    session's own last activity (at most once a minute per session, never per request).
    Bookkeeping like a token's last use, not a change of the room's state: no event."""
    key, now = request.session.session_key, timezone.now()
    if not key or BrowserSession.objects.filter(session_key=key).update(last_used_at=now):
        return
    agent = request.META.get("HTTP_USER_AGENT", "")[:200]
    BrowserSession.objects.get_or_create(session_key=key, defaults={"user": request.user, "user_agent": agent, "created_at": now, "last_used_at": now})


def session_ended(sender=None, *, request=None, **_kw) -> None:
    """Receiver of ``user_logged_out``: the browser that logged out is not listed any more."""
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        BrowserSession.objects.filter(session_key=key).delete()


@service
def end_session(session_id: int, *, actor: Actor) -> dict:
    """A browser's login ended from the devices page: by its own user (this browser or another
    one of his), or by a director (anyone's); the session is deleted, so that browser's next
    request is one without a login. Another user's is not found for anyone else (404)."""
    row = BrowserSession.objects.select_for_update().filter(pk=session_id).select_related("user").first()
    mine = row is not None and actor.user is not None and row.user_id == actor.user.pk
    if row is None or not (mine or has_role(actor.user, DIRECTOR)):
        raise DomainError("not_found", _("No such device login."), status=404)
    import_module(settings.SESSION_ENGINE).SessionStore().delete(row.session_key)
    end_streams(row.user_id)  # its streams are the login's, not the browser's: the others reconnect
    name = browser_name(row.user_agent)
    log_event(None, Action.AUTH_SESSION_ENDED, actor, user=row.user.get_username(), name=name, reason="user" if mine else "director")
    row.delete()
    return {"user": row.user.get_username(), "name": name}


def end_user_sessions(user, *, actor: Actor, reason: str, keep: str | None = None) -> int:
    """Every browser ``user`` is logged in from logged out (its password reset, the login
    disabled), but the session ``keep`` (a director resetting his own password keeps the one he
    is using): deleted, so that it is no longer listed and its next request has no login. A step of
    the staff page's service; a browser not yet recorded is logged out all the same by Django's
    session auth hash (reset) or the inactive user it loads (disabled). How many, each logged."""
    rows = list(BrowserSession.objects.filter(user=user).exclude(session_key=keep or ""))
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    for row in rows:
        store.delete(row.session_key)
        log_event(None, Action.AUTH_SESSION_ENDED, actor, user=user.get_username(), name=browser_name(row.user_agent), reason=reason)
    BrowserSession.objects.filter(pk__in=[row.pk for row in rows]).delete()
    return len(rows)


def connect_receivers() -> None:
    post_save.connect(revoke_when_disabled, sender=get_user_model(), dispatch_uid="tournaments-tokens-disabled")
    pre_save.connect(note_password_change, sender=get_user_model(), dispatch_uid="tournaments-password-changed")
    post_save.connect(end_streams_on_password_change, sender=get_user_model(), dispatch_uid="tournaments-password-changed-streams")
    session_activity.connect(session_used, dispatch_uid="tournaments-browser-session-used")
    user_logged_out.connect(session_ended, dispatch_uid="tournaments-browser-session-ended")
