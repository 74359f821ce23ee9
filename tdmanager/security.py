"""Who is asking, and how often they may guess a password.

``client_ip`` believes ``X-Forwarded-For`` only from the proxies in ``TDM_TRUSTED_PROXIES``
and takes the right-most address in it that is not one of them: a client can prepend any
address it likes to the header, but not append one after its own.

Login throttling counts failures per username and per client address in Django's cache
(Redis shared by every process when ``REDIS_URL`` is set). Over either limit every login path
— the login page, the admin's, the API token endpoint — refuses before looking at the
password, until the window that began with the first failure ends. A locked-out attempt is
logged on the ``tdmanager.security`` logger. The answer to a wrong password is the same
whether or not the user exists, and an unknown username is counted and locked out too.
"""

import hashlib
import ipaddress
import logging
import math
import time
from functools import lru_cache

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied

log = logging.getLogger("tdmanager.security")


# --- client address -------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _networks(entries: tuple) -> tuple:
    return tuple(ipaddress.ip_network(e, strict=False) for e in entries)


def trusted_proxies():
    return _networks(tuple(getattr(settings, "TDM_TRUSTED_PROXIES", ()) or ()))


def _parse_ip(text: str):
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _is_trusted(addr, networks) -> bool:
    return addr is not None and any(addr in net for net in networks)


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or, when that is a trusted proxy, the right-most
    address of X-Forwarded-For that is not a trusted proxy."""
    return client_address(request.META.get("REMOTE_ADDR", ""), request.META.get("HTTP_X_FORWARDED_FOR", ""))


def client_address(remote: str | None, forwarded: str | None) -> str:
    """``client_ip`` from its two inputs: the peer's address and the X-Forwarded-For header
    (several headers joined with commas), for callers without a Django request (the web app's
    limits on public URLs, read from the ASGI scope before a request is made)."""
    remote = remote or ""
    networks = trusted_proxies()
    if not networks or not _is_trusted(_parse_ip(remote), networks):
        return remote
    hops = [h for h in (forwarded or "").split(",") if h.strip()]
    found = remote
    for hop in reversed(hops):
        addr = _parse_ip(hop)
        if addr is None:
            break  # garbage: believe nothing further left; the last good hop is the answer
        found = str(addr)
        if not _is_trusted(addr, networks):
            break
    return found


# --- login throttling -------------------------------------------------------------------------


def _key(kind: str, value: str) -> str:
    return f"login-failures:{kind}:{hashlib.sha256(value.encode()).hexdigest()[:40]}"


def _subjects(username, ip):
    out = []
    if username:
        out.append(("user", str(username), settings.TDM_LOGIN_FAILURES_PER_USER))
    if ip:
        out.append(("address", str(ip), settings.TDM_LOGIN_FAILURES_PER_ADDRESS))
    return out


def _window(key: str, now: float):
    """(failures, window start) of a key, or (0, None) once its window has passed. The start is
    compared with the clock here, so an expiry does not depend on the cache's own timer."""
    start = cache.get(key + ":start")
    if start is None or now - start >= settings.TDM_LOGIN_WINDOW_SECONDS:
        return 0, None
    return cache.get(key, 0), start


def lockout(username, ip, now=None) -> int | None:
    """Seconds until a login for this username from this address is allowed again, or None."""
    now = time.time() if now is None else now
    wait = None
    try:
        for kind, value, limit in _subjects(username, ip):
            failures, start = _window(_key(kind, value), now)
            if start is not None and failures >= limit:
                left = max(1, math.ceil(start + settings.TDM_LOGIN_WINDOW_SECONDS - now))
                wait = max(wait or 0, left)
    except Exception:  # the cache is down: the desk must still be able to log in
        log.exception("login throttle: cache unavailable; not throttling")
        return None
    return wait


def record_failure(username, ip, now=None) -> None:
    now = time.time() if now is None else now
    window = settings.TDM_LOGIN_WINDOW_SECONDS
    try:
        for kind, value, limit in _subjects(username, ip):
            key = _key(kind, value)
            failures, start = _window(key, now)
            if start is None:  # a new window begins with this failure
                cache.set(key + ":start", now, window + 60)
                cache.set(key, 0, window + 60)
            try:
                failures = cache.incr(key)
            except ValueError:  # expired between the two calls
                cache.set(key, 1, window + 60)
                failures = 1
            if failures == limit:
                log.warning("login throttle: %s locked out after %d failed logins (username %r, address %s)",
                            kind, failures, username, ip)
    except Exception:
        log.exception("login throttle: cache unavailable; failure not counted")


def clear_user(username) -> None:
    """A successful login forgets the username's failures (not the address's)."""
    try:
        cache.delete_many([_key("user", str(username)), _key("user", str(username)) + ":start"])
    except Exception:
        log.exception("login throttle: cache unavailable")


def reset(username=None, ip=None) -> None:
    """Forget the counters of a username and/or an address (tests, and a director's manual unlock)."""
    keys = []
    for kind, value, _limit in _subjects(username, ip):
        keys += [_key(kind, value), _key(kind, value) + ":start"]
    if keys:
        cache.delete_many(keys)


class ThrottledModelBackend(ModelBackend):
    """Django's model backend behind the throttle. Refusing raises PermissionDenied, which stops
    ``authenticate()`` at once; the view learns why from ``request.login_throttled`` (seconds)."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(self._username_field())
        ip = client_ip(request) if request is not None else None
        wait = lockout(username, ip)
        if wait is not None:
            if request is not None:
                request.login_throttled = wait
            log.warning("login throttle: refused a login for username %r from %s (locked for %d s more)",
                        username, ip, wait)
            raise PermissionDenied
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            record_failure(username, ip)
        else:
            clear_user(username)
        return user

    @staticmethod
    def _username_field():
        from django.contrib.auth import get_user_model

        return get_user_model().USERNAME_FIELD


def throttled_seconds(request) -> int | None:
    """Set by the backend on the request (or DRF's wrapper around it) it refused."""
    for obj in (request, getattr(request, "_request", None)):
        wait = getattr(obj, "__dict__", {}).get("login_throttled") if obj is not None else None
        if wait:
            return wait
    return None
