"""Who is asking, and how often they may guess a password.

``client_ip`` believes ``X-Forwarded-For`` only from the proxies in ``TDM_TRUSTED_PROXIES``
and takes the right-most address in it that is not one of them: a client can prepend any
address it likes to the header, but not append one after its own.

Login throttling (Django's cache: Redis shared by every process when ``REDIS_URL`` is set) slows
whoever guesses, not the person he names. It counts a username's failures *from one client
address*: from the TDM_LOGIN_FAILURES_PER_USER-th on, that username is refused at that address
for TDM_LOGIN_WINDOW_SECONDS, twice as long after each further failure there (at most
TDM_LOGIN_MAX_DELAY_SECONDS), while the same username from any other address logs in as usual.
An address is also refused, for any username, once TDM_LOGIN_FAILURES_PER_ADDRESS attempts
from it failed in a window that began with the first. An attempt is counted before its password
is checked and, once it failed there, one username is tried at a time from one address, so
guesses sent all at once are no faster than the address's limit allows. Every login path — the login page, the admin's,
the API token endpoint — refuses before looking at the password. Each lock-out is logged on the
``tdmanager.security`` logger and announced (``login_locked_out``) for the audit line; a
director lifts one (``lift``). The answer to a wrong password is the same whether or not the
user exists, and an unknown username is counted and locked out too.
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
from django.dispatch import Signal

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
        text = text[1 : text.index("]")]
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

#: Sent once each time a lock-out begins: ``kind`` "user" (a username from one address: its
#: failures reached TDM_LOGIN_FAILURES_PER_USER, and each one after that locks it again, for
#: twice as long) or "address" (TDM_LOGIN_FAILURES_PER_ADDRESS failures from one address, any
#: usernames); ``username``, ``address``, ``failures``, ``seconds`` (how long it lasts). The
#: tournaments app writes the audit line (the event log); this module imports no app.
login_locked_out = Signal()


def _key(kind: str, value: str) -> str:
    return f"login-failures:{kind}:{hashlib.sha256(value.encode()).hexdigest()[:40]}"


def _pair(username, ip) -> str:
    return _key("pair", f"{username}\0{ip}")


def pair_delay(failures: int) -> int:
    """Seconds a username is refused from one address after its ``failures``-th failure there:
    none below TDM_LOGIN_FAILURES_PER_USER, then TDM_LOGIN_WINDOW_SECONDS, doubled by each
    further failure, at most TDM_LOGIN_MAX_DELAY_SECONDS."""
    over = failures - settings.TDM_LOGIN_FAILURES_PER_USER
    if over < 0:
        return 0
    return min(settings.TDM_LOGIN_MAX_DELAY_SECONDS, settings.TDM_LOGIN_WINDOW_SECONDS * 2 ** min(over, 30))


def _remember() -> int:
    """How long a username's failures from one address are kept without a new one."""
    return settings.TDM_LOGIN_MAX_DELAY_SECONDS + settings.TDM_LOGIN_WINDOW_SECONDS


def _address_window(ip, now: float):
    """(attempts counted, window start) of an address, or (0, None) once its window has passed.
    The start is compared with the clock here, so an expiry does not depend on the cache's timer."""
    key = _key("address", str(ip))
    start = cache.get(key + ":start")
    if start is None or now - start >= settings.TDM_LOGIN_WINDOW_SECONDS:
        return 0, None
    return cache.get(key, 0), start


def _address_wait(ip, now: float) -> int | None:
    attempts, start = _address_window(ip, now)
    if start is not None and attempts >= settings.TDM_LOGIN_FAILURES_PER_ADDRESS:
        return max(1, math.ceil(start + settings.TDM_LOGIN_WINDOW_SECONDS - now))
    return None


def _pair_wait(username, ip, now: float) -> int | None:
    until = cache.get(_pair(username, ip) + ":until")
    if until is not None and now < until:
        return max(1, math.ceil(until - now))
    return None


def lockout(username, ip, now=None) -> int | None:
    """Seconds until a login for this username from this address is allowed again, or None.
    Only the username's own failures *from this address* count, and the address's failures
    for any username: what others try elsewhere never locks a user out."""
    now = time.time() if now is None else now
    try:
        waits = [w for w in (_pair_wait(username, ip, now) if username and ip else None, _address_wait(ip, now) if ip else None) if w]
    except Exception:  # the cache is down: the desk must still be able to log in
        log.exception("login throttle: cache unavailable; not throttling")
        return None
    return max(waits) if waits else None


def begin_attempt(username, ip, now=None) -> int | None:
    """Before a password is checked: None when it may be (the attempt is counted now, so that
    attempts sent all at once are counted as they arrive, not after their passwords were
    checked), else the seconds to wait. ``end_attempt`` must follow an allowed attempt."""
    now = time.time() if now is None else now
    wait = lockout(username, ip, now)
    if wait is not None:
        return wait
    try:
        if ip:
            key = _key("address", str(ip))
            attempts, start = _address_window(ip, now)
            if start is None:  # a new window begins with this attempt
                cache.add(key + ":start", now, settings.TDM_LOGIN_WINDOW_SECONDS + 60)
            attempts = _count(key, settings.TDM_LOGIN_WINDOW_SECONDS + 60)
            if attempts > settings.TDM_LOGIN_FAILURES_PER_ADDRESS:  # others got there first
                _uncount_address(ip)
                return _address_wait(ip, now) or 1
        if username and ip:
            busy = _pair(username, ip) + ":busy"
            in_flight = _count(busy, 60)
            # One guess at a time per username and address once it failed there (a first
            # attempt sent twice, a double click on "Log in", is not refused).
            if in_flight > 1 and cache.get(_pair(username, ip), 0):
                _uncount(busy)  # it stays counted against the address: giving it back let a late one past the limit
                return _pair_wait(username, ip, now) or 1
    except Exception:
        log.exception("login throttle: cache unavailable; not throttling")
    return None


def _count(key: str, timeout: int) -> int:
    """Add one to a counter and return it, creating it at 0 if it is missing. Only atomic
    steps: ``add`` creates the counter unless another attempt did, ``incr`` counts. A counter
    that expired between the two is created again; never ``set``, which would wipe the
    counts of attempts arriving at the same moment (each would then believe it came first)."""
    for _ in range(3):
        cache.add(key, 0, timeout)
        try:
            return cache.incr(key)
        except ValueError:  # expired between add and incr: create it again
            continue
    raise RuntimeError(f"login throttle: the cache keeps losing {key}")


def _uncount(key: str) -> None:
    try:
        cache.decr(key)
    except ValueError:
        pass


def _uncount_address(ip) -> None:
    _uncount(_key("address", str(ip)))


def end_attempt(username, ip, ok: bool, now=None) -> None:
    """After the password was checked. A good login forgets the username's failures from this
    address and does not count against the address; a failure counts, and from the
    TDM_LOGIN_FAILURES_PER_USER-th on locks the username at this address (``pair_delay``)."""
    now = time.time() if now is None else now
    try:
        if username and ip:
            _uncount(_pair(username, ip) + ":busy")
        if ok:
            if ip:
                _uncount_address(ip)
            if username and ip:
                cache.delete_many([_pair(username, ip), _pair(username, ip) + ":until"])
            return
        if ip:
            attempts, start = _address_window(ip, now)
            if start is not None and attempts == settings.TDM_LOGIN_FAILURES_PER_ADDRESS:
                seconds = max(1, math.ceil(start + settings.TDM_LOGIN_WINDOW_SECONDS - now))
                _locked("address", username, ip, attempts, seconds)
        if username and ip:
            key = _pair(username, ip)
            failures = _count(key, _remember())
            cache.touch(key, _remember())
            seconds = pair_delay(failures)
            if seconds:
                cache.set(key + ":until", now + seconds, seconds + 60)
                _locked("user", username, ip, failures, seconds)
    except Exception:
        log.exception("login throttle: cache unavailable; failure not counted")


def _locked(kind: str, username, ip, failures: int, seconds: int) -> None:
    log.warning("login throttle: %s locked out for %d s after %d failed logins (username %r, address %s)", kind, seconds, failures, username, ip)
    try:
        login_locked_out.send(sender=None, kind=kind, username=str(username or ""), address=str(ip or ""), failures=failures, seconds=seconds)
    except Exception:  # the audit line must not turn a refused login into a 500
        log.exception("login throttle: the lock-out's audit line was not written")


def reset(username=None, ip=None) -> None:
    """Forget the counters of a username at an address and/or of an address (tests, and a
    director lifting a lock-out: ``lift``)."""
    keys = []
    if username and ip:
        keys += [_pair(username, ip), _pair(username, ip) + ":until", _pair(username, ip) + ":busy"]
    if ip:
        keys += [_key("address", str(ip)), _key("address", str(ip)) + ":start"]
    if keys:
        cache.delete_many(keys)


def lift(username, ip) -> None:
    """A director lifts a lock-out: the username's at that address (its failures forgotten), or,
    without a username, the address's."""
    if username:
        keys = [_pair(username, ip), _pair(username, ip) + ":until", _pair(username, ip) + ":busy"]
    else:
        keys = [_key("address", str(ip)), _key("address", str(ip)) + ":start"]
    cache.delete_many(keys)


class ThrottledModelBackend(ModelBackend):
    """Django's model backend behind the throttle. Refusing raises PermissionDenied, which stops
    ``authenticate()`` at once; the view learns why from ``request.login_throttled`` (seconds)."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(self._username_field())
        ip = client_ip(request) if request is not None else None
        wait = begin_attempt(username, ip)
        if wait is not None:
            if request is not None:
                request.login_throttled = wait
            log.warning("login throttle: refused a login for username %r from %s (locked for %d s more)", username, ip, wait)
            raise PermissionDenied
        user = None
        try:
            user = super().authenticate(request, username=username, password=password, **kwargs)
        finally:
            end_attempt(username, ip, ok=user is not None)
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
