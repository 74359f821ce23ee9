"""The staff's reads: logins with their role and last use, their devices, browsers and lock-outs."""

import re
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db.models import Max, OuterRef, Prefetch, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.authentication import refusal
from tdmanager.roles import ROLES
from tournaments.cashier.selectors import _BROWSERS, _SYSTEMS
from tournaments.eventlog.actions import Action
from tournaments.models import (
    BrowserSession,
    DeviceToken,
    LoginLanguage,
    TournamentEvent,
)


def login_language_key(user) -> str:
    """The cache's copy of a login's chosen language ("": it chose none). The date it joined
    too: a login deleted and another created under its number never inherits its choice."""
    return f"staff:language:{user.pk}:{user.date_joined.timestamp()}"


def login_language(user) -> str:
    """The language ``user`` chose, "" if none: from the cache, so a page costs no database
    read, and a choice made on one device reaches the others' next page."""
    key = login_language_key(user)
    code = cache.get(key)
    if code is None:
        code = LoginLanguage.objects.filter(user=user).values_list("language", flat=True).first() or ""
        cache.set(key, code, 24 * 3600)
    return code


def device_tokens(user=None, *, current=None, now=None) -> list[dict]:
    """The API logins still standing, one per device, newest use first: ``user``'s, or every
    user's (None: a director's list). Each ``{"id", "user", "name", "prefix", "created_at",
    "last_used_at", "expires_at", "current"}``; a token revoked, expired or issued under an old
    password is not listed (it logs nobody in). ``current``: the token of the request asking."""
    now = now or timezone.now()
    idle = settings.TDM_TOKEN_IDLE_MINUTES
    qs = DeviceToken.objects.filter(revoked_at=None, user__is_active=True).select_related("user").order_by("-last_used_at", "-id")
    if user is not None:
        qs = qs.filter(user=user)
    return [
        {
            "id": t.pk,
            "user": t.user.get_username(),
            "name": t.name,
            "prefix": t.prefix,
            "created_at": t.created_at,
            "last_used_at": t.last_used_at,
            "expires_at": t.last_used_at + timedelta(minutes=idle) if idle else None,
            "current": current is not None and t.pk == current.pk,
        }
        for t in qs
        if not refusal(t, t.user, now)
    ]


def login_lockouts(now=None) -> list[dict]:
    """The staff login lock-outs still in force (``tdmanager.security``), newest first, from the
    event log: each ``{"kind", "username", "address", "failures", "until", "started_at"}`` (kind
    "user": a username at an address; "address": any username there; "account": a username from
    every address, its ``address`` ""); one lifted by a director since it began is not listed."""
    now = time.time() if now is None else now
    since = timezone.now() - timedelta(seconds=settings.TDM_LOGIN_MAX_DELAY_SECONDS + 60)
    rows = (
        TournamentEvent.objects.filter(tournament=None, created_at__gte=since, action__in=[Action.AUTH_LOCKOUT_STARTED, Action.AUTH_LOCKOUT_LIFTED])
        .order_by("-id")
        .values("action", "payload", "created_at")
    )
    lifted, out, seen = set(), [], set()
    for row in rows:  # newest first: a lift hides the lock-outs before it
        p = row["payload"] or {}
        kind = p.get("kind")
        # a username at one address; an address, any username; an account, from every address
        key = (kind, p.get("username", "") if kind in ("user", "account") else "", "" if kind == "account" else p.get("address", ""))
        if row["action"] == Action.AUTH_LOCKOUT_LIFTED:
            lifted.add(key)  # that one alone (security.lift): a user's at an address leaves the account's
        elif key not in lifted and key not in seen and (p.get("until") or 0) > now:
            seen.add(key)
            out.append(
                {
                    "kind": key[0],
                    "username": key[1],
                    "address": key[2],
                    "failures": p.get("failures"),
                    "until": datetime.fromtimestamp(p["until"], tz=timezone.get_current_timezone()),
                    "started_at": row["created_at"],
                }
            )
    return out


def browser_name(user_agent: str) -> str:
    """A browser as a person tells two apart: "Chrome · Android", "Firefox · Windows"."""
    agent = user_agent or ""
    browser = next((name for mark, name in _BROWSERS if mark in agent), "")
    system = next((name for mark, name in _SYSTEMS if re.search(re.escape(mark), agent)), "")
    return " · ".join(filter(None, (browser, system))) or _("Unknown browser")


def browser_sessions(user=None, *, current_key: str | None = None, now=None) -> list[dict]:
    """The browsers logged in, newest use first: ``user``'s, or every user's (None: a director's
    list). Each ``{"id", "user", "name", "created_at", "last_used_at", "expires_at", "current"}``;
    a session that ended (logged out, expired, idle past ``TDM_SESSION_IDLE_MINUTES``) is not
    listed. ``current_key``: the session of the request asking ("this browser")."""
    now = now or timezone.now()
    idle = settings.TDM_SESSION_IDLE_MINUTES
    alive = Session.objects.filter(expire_date__gt=now).values("session_key")
    qs = BrowserSession.objects.filter(session_key__in=alive, user__is_active=True).select_related("user").order_by("-last_used_at", "-id")
    if idle:
        qs = qs.filter(last_used_at__gt=now - timedelta(minutes=idle))
    if user is not None:
        qs = qs.filter(user=user)
    return [
        {
            "id": b.pk,
            "user": b.user.get_username(),
            "name": browser_name(b.user_agent),
            "created_at": b.created_at,
            "last_used_at": b.last_used_at,
            "expires_at": b.last_used_at + timedelta(minutes=idle) if idle else None,
            "current": current_key is not None and b.session_key == current_key,
        }
        for b in qs
    ]


def last_use(user) -> object:
    """The latest of a login's uses the row was annotated with (``staff_logins``), or None."""
    uses = [u for u in (user.last_login, getattr(user, "token_used", None), getattr(user, "session_used", None)) if u is not None]
    return max(uses) if uses else None


def staff_logins(query: str = ""):
    """The staff page's logins, by username: each with its roles (``groups``), whether it may
    log in, and when its devices and browsers were last used (``token_used``, ``session_used``;
    ``last_use`` takes the latest with the last login: the database's GREATEST is null with any
    null on SQLite). ``query``: a part of the username or of the name."""
    User = get_user_model()
    sessions = BrowserSession.objects.filter(user=OuterRef("pk")).order_by("-last_used_at").values("last_used_at")[:1]
    rows = User.objects.annotate(token_used=Max("device_tokens__last_used_at"), session_used=Subquery(sessions))
    q = " ".join((query or "").split())[:150]
    if q:
        rows = rows.filter(Q(username__icontains=q) | Q(first_name__icontains=q) | Q(last_name__icontains=q))
    return rows.prefetch_related(Prefetch("groups", queryset=Group.objects.filter(name__in=ROLES))).order_by("username", "pk")
