"""The staff page's actions (a director): add a login with its role, change its role, reset its
password, disable and enable it. One locked, logged action each; the page and the API call them.

A login holds one role (a group of ``tdmanager.roles.ROLES``; a superuser counts as a director).
The room always keeps a director who can log in: the last active director is neither disabled nor
given another role (refused, ``last_director``), so nobody locks the room out of its own staff page.

What dies with a password reset or a disabled login relies on Django's own mechanisms and on the
token service: a session stores the hash of the password it was opened with
(``get_session_auth_hash``), so every session of the login ends at its next request once the
password changes; an inactive user is never loaded from a session (``ModelBackend.get_user``)
nor logs in. The browsers the devices page lists are logged out here as well
(``logins.end_user_sessions``: no longer listed), and its API tokens revoked
(``logins.revoke_user_tokens`` for a reset, ``logins.revoke_when_disabled`` on the save that
disables it). Its open live streams end once the change is committed (``logins.end_streams``: a
disabled login, a role changed; a password changed, here or by any other path, on its save).
The staff page deletes nothing (the Django admin deletes a login with no history:
``admin_delete``): a login's history (the event log's rows, its receipts) stays, and enabling it
again brings back no token.
"""

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import usernames
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.policy import DIRECTOR
from tdmanager.roles import ROLES
from tdmanager.transactions import retried, service
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import LoginLanguage
from tournaments.staff import logins, selectors


def role_of(user) -> str:
    """The login's role: a superuser's is director; one of several groups, the first in ``ROLES``."""
    if user.is_superuser:
        return DIRECTOR
    held = {g.name for g in user.groups.all()}
    return next((r for r in ROLES if r in held), "")


def _check_role(role) -> str:
    if role not in ROLES:
        raise ValidationFailed(
            "role_unknown", _("%(field)s: %(problem)s") % {"field": _("Role"), "problem": _("choose one of the roles listed.")}, field="role"
        )
    return role


def _check_password(password, user=None) -> str:
    if not isinstance(password, str) or not password:
        raise ValidationFailed("password_required", _("%(field)s: %(problem)s") % {"field": _("Password"), "problem": _("type one.")}, field="password")
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ValidationFailed(
            "password_weak", _("%(field)s: %(problem)s") % {"field": _("Password"), "problem": " ".join(exc.messages)}, field="password"
        ) from None
    return password


def new_password() -> str:
    """A first password to hand over once: twelve characters a person can type."""
    return secrets.token_urlsafe(9)


def _locked(user_id) -> object:
    User = get_user_model()
    try:
        pk = int(user_id)
    except (TypeError, ValueError):
        pk = 0
    user = User.objects.select_for_update().filter(pk=pk).first() if 0 < pk < 2**63 else None
    if user is None:
        raise DomainError("not_found", _("No such login."), status=404)
    return user


def _lock_directors() -> None:
    """Lock the active directors' rows, in the order of their ids, before any one login's: two
    directors demoting each other at once then wait for one another in one order (each locking
    his own row first, then the others', they would each hold what the other waits for: a
    deadlock). The ids are chosen in a subquery: PostgreSQL locks no rows of a DISTINCT query,
    and a join to the groups repeats them."""
    User = get_user_model()
    chosen = User.objects.filter(Q(groups__name=DIRECTOR) | Q(is_superuser=True)).values("pk")
    list(User.objects.select_for_update().filter(pk__in=chosen, is_active=True).order_by("pk").values_list("pk", flat=True))


def _directors():
    """The active logins that are directors, read once their rows are locked
    (``_lock_directors``): once the lock was waited for, this statement sees what the other
    committed, and the second of two demotions finds he is the last."""
    User = get_user_model()
    director = Q(groups__name=DIRECTOR) | Q(is_superuser=True)
    return sorted(set(User.objects.filter(director, is_active=True).values_list("pk", flat=True)))


def _refuse_last_director(user, what: str) -> None:
    if user.is_active and role_of(user) == DIRECTOR and _directors() == [user.pk]:
        raise DomainError("last_director", what, status=409)


@service
def add_login(username: str, role: str, *, actor: Actor, password: str | None = None):
    """A new login with its role: ``(user, password)``. Without a typed password one is made,
    returned to be shown once (only its hash is kept). The username is kept in NFKC and is unique
    as a person reads it (``tdmanager.usernames``: any case, any width, no look-alike letters mixed)."""
    User = get_user_model()
    username = usernames.checked(username)
    role = _check_role(role)
    username = free_username(username)
    shown = None
    if password:
        _check_password(password, User(username=username))
    else:
        password = shown = new_password()
    try:
        with transaction.atomic():  # a savepoint: the name taken meanwhile is a refusal, not a broken transaction
            user = User.objects.create_user(username=username, password=password, is_staff=role == DIRECTOR)
    except IntegrityError:
        raise _taken() from None
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    log_event(None, Action.STAFF_LOGIN_ADDED, actor, login=user.pk, username=user.get_username(), role=role)
    return user, shown


def free_username(username, *, login: int | None = None) -> str:
    """The name to store for a new login, or for the login ``login`` (its id) renamed: checked
    (``usernames.checked``) and held by no other login as a person reads it, or refused
    (``ValidationFailed``, ``username_taken``). A step of whatever names a login, inside its
    transaction: the staff page's ``add_login`` and the Django admin's user forms."""
    username = usernames.checked(username)
    # Logins are named one at a time (the director's group row, locked until the caller's
    # transaction ends; a role change's link to it is not held up): two directors adding
    # ``Director`` and ``director`` at once would each find the other's name free, and the
    # database's unique name is exact, not any case.
    Group.objects.select_for_update(no_key=True).get_or_create(name=DIRECTOR)
    if usernames.holder(username, other_than=login) is not None:
        raise _taken()
    return username


def admin_saved(user, *, was_active: bool, actor: Actor) -> None:
    """What the staff page does beside the save when the Django admin's form disables or enables
    a login: its listed browsers logged out, the event log's row. A step of the admin's own
    transaction; its tokens and streams go with the save itself (``logins.revoke_when_disabled``)."""
    if user.is_active == was_active:
        return
    if not user.is_active:
        logins.end_user_sessions(user, actor=actor, reason="disabled")
    log_event(None, Action.STAFF_LOGIN_ENABLED if user.is_active else Action.STAFF_LOGIN_DISABLED, actor, login=user.pk, username=user.get_username())


def admin_keeps_director(user_id, *, active: bool, director: bool) -> None:
    """The Django admin's change form about to leave the login ``user_id`` ``active`` or not, a
    director (``is_superuser`` ticked or the director's group chosen) or not: refused
    (``last_director``) when that takes the room's last active director away, as the staff page's
    ``set_active`` and ``set_role`` refuse it. A step of the admin's own transaction, run while its
    form is checked: the directors' rows stay locked until it commits, so the save, and the groups
    the admin saves after it, cannot meet a director demoted meanwhile by another hand."""
    _lock_directors()
    user = _locked(user_id)
    if active and director:
        return
    if user.is_active and not active:
        _refuse_last_director(user, _("The last director cannot be disabled: make another login a director first."))
    _refuse_last_director(user, _("The last director keeps the director's role: make another login a director first."))


def admin_role_saved(user, *, before: str, actor: Actor) -> None:
    """What the staff page's ``set_role`` does beside the change when the Django admin's form
    changed the login's role (its groups or its superuser flag; ``before``: the role it had): the
    login's live streams end (what it may watch changed: they open again, checked) and the event
    log's row. A step of the admin's own transaction, after its groups are saved."""
    user = get_user_model().objects.get(pk=user.pk)  # the groups as saved, not the form's cache
    after = role_of(user)
    if after == before:
        return
    logins.end_streams(user.pk)
    log_event(None, Action.STAFF_ROLE_CHANGED, actor, login=user.pk, username=user.get_username(), old=before, new=after)


def admin_added(user, *, actor: Actor) -> None:
    """The event log's row of a login the Django admin added, as ``add_login`` writes it (its
    role: none yet, the admin's first form names no group). A step of the admin's transaction."""
    log_event(None, Action.STAFF_LOGIN_ADDED, actor, login=user.pk, username=user.get_username(), role=role_of(user))


def admin_delete(user_ids, *, actor: Actor) -> int:
    """The logins ``user_ids`` deleted from the Django admin (one, or the changelist's selection):
    refused (``last_director``) when no active director would be left. Each one's listed browsers
    are logged out, its live streams end once committed, and the event log keeps one row for it
    (its tokens go with it, the database deletes them). How many. A step of the admin's transaction.
    The staff page deletes nothing; a login with history (the event log's rows) is kept by the
    database itself, and the admin says so before asking."""
    User = get_user_model()
    _lock_directors()
    ids = sorted({int(pk) for pk in user_ids})
    doomed = list(User.objects.select_for_update().filter(pk__in=ids).order_by("pk"))
    directors = _directors()
    if directors and set(directors) <= {u.pk for u in doomed}:
        raise DomainError("last_director", _("The last director cannot be deleted: make another login a director first."), status=409)
    for user in doomed:
        tokens = user.device_tokens.filter(revoked_at=None).count()
        sessions = logins.end_user_sessions(user, actor=actor, reason="deleted")
        logins.end_streams(user.pk)
        log_event(None, Action.STAFF_LOGIN_DELETED, actor, login=user.pk, username=user.get_username(), role=role_of(user), tokens=tokens, sessions=sessions)
    User.objects.filter(pk__in=[u.pk for u in doomed]).delete()
    return len(doomed)


def _taken() -> DomainError:
    return DomainError(
        "username_taken", _("%(field)s: %(problem)s") % {"field": _("Username"), "problem": _("a login of that name exists.")}, field="username", status=409
    )


@retried
@service
def set_role(user_id, role: str, *, actor: Actor):
    """The login's role becomes ``role`` (its other roles go). Refused for the last active director."""
    role = _check_role(role)
    _lock_directors()
    user = _locked(user_id)
    old = role_of(user)
    if old == role:
        return user
    if old == DIRECTOR:
        _refuse_last_director(user, _("The last director keeps the director's role: make another login a director first."))
    user.groups.remove(*Group.objects.filter(name__in=ROLES))
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    user.is_staff = role == DIRECTOR
    user.is_superuser = False  # a superuser demoted is no longer a director by that flag
    user.save(update_fields=["is_staff", "is_superuser"])
    logins.end_streams(user.pk)  # what the login may watch changed: its streams open again, checked
    log_event(None, Action.STAFF_ROLE_CHANGED, actor, login=user.pk, username=user.get_username(), old=old, new=role)
    return user


@service
def reset_password(user_id, *, actor: Actor, password: str | None = None, keep_session: str | None = None):
    """A new password for the login: ``(user, password)``, the password returned when made here
    (to show once). Its browsers are logged out (``keep_session``: the one a director resetting his
    own password is using) and its API tokens are revoked."""
    user = _locked(user_id)
    shown = None
    if password:
        _check_password(password, user)
    else:
        password = shown = new_password()
    user.set_password(password)
    user.save(update_fields=["password"])  # its live streams end (logins.end_streams_on_password_change)
    revoked = logins.revoke_user_tokens(user, reason="password", actor=actor)
    ended = logins.end_user_sessions(user, actor=actor, reason="password", keep=keep_session if actor.user and actor.user.pk == user.pk else None)
    log_event(None, Action.STAFF_PASSWORD_RESET, actor, login=user.pk, username=user.get_username(), tokens=revoked, sessions=ended)
    return user, shown


@retried
@service
def set_active(user_id, active: bool, *, actor: Actor):
    """Disable a login (it logs in no more, its sessions and tokens are void; its history stays)
    or enable it again. Refused for the last active director."""
    _lock_directors()
    user = _locked(user_id)
    if bool(active) == user.is_active:
        return user
    if not active:
        _refuse_last_director(user, _("The last director cannot be disabled: make another login a director first."))
    user.is_active = bool(active)
    user.save(update_fields=["is_active"])  # disabled: logins.revoke_when_disabled revokes its tokens, ends its streams
    if not active:
        logins.end_user_sessions(user, actor=actor, reason="disabled")
    log_event(None, Action.STAFF_LOGIN_ENABLED if active else Action.STAFF_LOGIN_DISABLED, actor, login=user.pk, username=user.get_username())
    return user


@service
def choose_language(user, code: str) -> None:
    """The login's language (the picker, on any of its devices): kept until it chooses another.
    A preference of its own, not an action on the room: nothing logged."""
    if code not in dict(settings.LANGUAGES):
        raise ValidationFailed(
            "language_unknown", _("%(field)s: %(problem)s") % {"field": _("Language"), "problem": _("choose one of the languages listed.")}, field="language"
        )
    LoginLanguage.objects.update_or_create(user=user, defaults={"language": code, "chosen_at": timezone.now()})
    # every device of the login, from its next page: the pages read the language from the cache
    # (forgotten now for this transaction's own reads, and again once the choice is committed)
    key = selectors.login_language_key(user)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))
