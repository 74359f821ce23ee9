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
from it failed in a window that began with the first. Each attempt is reserved before its password
is checked, with the cache's atomic steps only (``add``, ``incr``: one Redis command each, and
under a lock in the local-memory cache), never read-then-write: however the guesses arrive —
all at once, from several web processes — at most TDM_LOGIN_FAILURES_PER_USER of one username
from one address are checked before it is locked there, and then one after each lock-out ends
(``_reserve_pair``). Every login path — the login page, the admin's,
the API token endpoint — refuses before looking at the password. Each lock-out is logged on the
``tdmanager.security`` logger and announced (``login_locked_out``) for the audit line; a
director lifts one (``lift``). The answer to a wrong password is the same whether or not the
user exists, and an unknown username is counted and locked out too.

Two more rules keep a guesser from locking the real person out, and many addresses from
guessing at one account. A login that succeeds leaves its browser a *device cookie*
(``DEVICE_COOKIE``: the username signed, a random id, kept TDM_LOGIN_DEVICE_DAYS): from that
device the username is not refused for its address's failures nor for its account's, only for
its own failures there (counted like an address's, by the device's id). And a username's
failures from every address together are counted too: past TDM_LOGIN_FAILURES_PER_ACCOUNT in a
window, the username is refused from every device it has not logged in from, until the window
ends. Behind one public address (a venue's NAT), the staff's own devices then keep logging in
while a guest's wrong passwords lock that address.
"""

import hashlib
import ipaddress
import logging
import math
import secrets
import time
from functools import lru_cache

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import Signal
from django.utils.cache import add_never_cache_headers

from .usernames import folded, login_name

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
    """A username's failures at one address (or device), counted as each ends."""
    return _key("pair", f"{username}\0{ip}")


def _pair_keys(username, at) -> list[str]:
    """Every key of a username at one address (or device): its failures, its attempts reserved,
    its lock-out (``:lock``)."""
    base = _pair(username, at)
    return [base, base + ":reserved", base + ":lock"]


#: How long one password check may take at most: an attempt that reserved the last turn before a
#: lock-out holds it this long, should its process die before it ends.
_CHECK_SECONDS = 60


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


def _pair_lock(username, at):
    """(until, token) of a username's lock-out at one address (or device), or None. The token
    names the one turn allowed once ``until`` has passed (``_reserve_pair``)."""
    lock = cache.get(_pair(username, at) + ":lock")
    return lock if isinstance(lock, tuple) and len(lock) == 2 else None


def _set_pair_lock(username, at, until: float) -> None:
    # Kept as long as the failures are: once it has passed it still names the next turn.
    cache.set(_pair(username, at) + ":lock", (until, secrets.token_hex(8)), _remember())


def _pair_wait(username, ip, now: float) -> int | None:
    lock = _pair_lock(username, ip)
    if lock is not None and now < lock[0]:
        return max(1, math.ceil(lock[0] - now))
    return None


# --- known devices ------------------------------------------------------------------------

DEVICE_COOKIE = "tdm_device"
_DEVICE_SALT = "tdmanager.security.login-device"


def device_cookie_value(username: str) -> str:
    """A new device cookie for ``username``: signed (SECRET_KEY), a random id of its own."""
    return signing.dumps({"u": str(username), "d": secrets.token_hex(12)}, salt=_DEVICE_SALT, compress=True)


def known_device(request, username) -> str | None:
    """The id of the device this request comes from when ``username`` logged in from it before
    (its device cookie, signed and not older than TDM_LOGIN_DEVICE_DAYS), else None."""
    raw = getattr(request, "COOKIES", {}).get(DEVICE_COOKIE) if request is not None else None
    if not raw or not username:
        return None
    try:
        value = signing.loads(raw, salt=_DEVICE_SALT, max_age=settings.TDM_LOGIN_DEVICE_DAYS * 86400)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("u"), str) or not isinstance(value.get("d"), str):
        return None
    if folded(value["u"]) != folded(str(username)):  # the login's name as the throttle counts it: any width or case
        return None
    return value["d"]


def remember_device(request, response, username) -> None:
    """After a successful login: the browser keeps a device cookie for ``username`` (a new one
    unless it already holds this username's)."""
    if known_device(request, username):
        return
    response.set_cookie(
        DEVICE_COOKIE,
        device_cookie_value(username),
        max_age=settings.TDM_LOGIN_DEVICE_DAYS * 86400,
        httponly=True,
        secure=settings.SESSION_COOKIE_SECURE,
        samesite="Lax",
    )


def _at(ip, device) -> str:
    """Where a username's failures are counted: its device's id when known, else its address."""
    return f"device:{device}" if device else str(ip)


def _account_key(username) -> str:
    return _key("account", str(username))


def _account_wait(username, now: float) -> int | None:
    """Seconds until the window of a username guessed at from everywhere ends, or None."""
    key = _account_key(username)
    start = cache.get(key + ":start")
    if start is None or now - start >= settings.TDM_LOGIN_WINDOW_SECONDS or cache.get(key, 0) < settings.TDM_LOGIN_FAILURES_PER_ACCOUNT:
        return None
    return max(1, math.ceil(start + settings.TDM_LOGIN_WINDOW_SECONDS - now))


def lockout(username, ip, now=None, device=None) -> int | None:
    """Seconds until a login for this username from this address (or known ``device``) is
    allowed again, or None. The username's own failures *from there* count; from an address
    the device is not known at, also the address's failures for any username and the account's
    from everywhere: what others try elsewhere never locks a user out of his own devices."""
    now = time.time() if now is None else now
    try:
        if device:
            waits = [_pair_wait(username, _at(ip, device), now) if username else None]
        else:
            waits = [
                _pair_wait(username, ip, now) if username and ip else None,
                _address_wait(ip, now) if ip else None,
                _account_wait(username, now) if username else None,
            ]
        waits = [w for w in waits if w]
    except Exception:  # the cache is down: the desk must still be able to log in
        log.exception("login throttle: cache unavailable; not throttling")
        return None
    return max(waits) if waits else None


def begin_attempt(username, ip, now=None, device=None) -> int | None:
    """Before a password is checked: None when it may be (the attempt is counted now, so that
    attempts sent all at once are counted as they arrive, not after their passwords were
    checked), else the seconds to wait. ``end_attempt`` must follow an allowed attempt.
    ``device``: the id of a known device (``known_device``), whose attempts count there alone."""
    now = time.time() if now is None else now
    wait = lockout(username, ip, now, device)
    if wait is not None:
        return wait
    at = _at(ip, device)
    try:
        if ip and not device:
            key = _key("address", str(ip))
            attempts, start = _address_window(ip, now)
            if start is None:  # a new window begins with this attempt
                cache.add(key + ":start", now, settings.TDM_LOGIN_WINDOW_SECONDS + 60)
            attempts = _count(key, settings.TDM_LOGIN_WINDOW_SECONDS + 60)
            if attempts > settings.TDM_LOGIN_FAILURES_PER_ADDRESS:  # others got there first
                _uncount_address(ip)
                return _address_wait(ip, now) or 1
        if username and not device:
            key = _account_key(username)
            start = cache.get(key + ":start")
            if start is None or now - start >= settings.TDM_LOGIN_WINDOW_SECONDS:
                cache.delete(key)  # a new window begins with this attempt
                cache.set(key + ":start", now, settings.TDM_LOGIN_WINDOW_SECONDS + 60)
            if _count(key, settings.TDM_LOGIN_WINDOW_SECONDS + 60) > settings.TDM_LOGIN_FAILURES_PER_ACCOUNT:
                _uncount(key)
                return _account_wait(username, now) or 1
        if username and (ip or device) and not _reserve_pair(username, at, now):
            # Its password is not checked, so it is no failure of the address's or the account's:
            # a burst at one username locks that username there, as the same guesses one by one
            # would, not the address for everyone behind it. Giving back a refused attempt's count
            # never lets more past: each admitted one counted itself before it was admitted.
            if ip and not device:
                _uncount_address(ip)
            if not device:
                _uncount(_account_key(username))
            return _pair_wait(username, at, now) or 1
    except Exception:
        log.exception("login throttle: cache unavailable; not throttling")
    return None


def _reserve_pair(username, at, now: float) -> bool:
    """Whether this attempt of a username at one address (or device) may have its password
    checked. Reading the failures and counting the attempt after its check let every attempt
    that arrived meanwhile past (all read a count below the limit): the turn is taken here, by
    atomic steps alone. The first TDM_LOGIN_FAILURES_PER_USER attempts take one of the numbered
    turns (``incr``: each gets a number of its own, whatever the process); any later one only
    the single turn a lock-out that has passed leaves (``add`` of a key named by that lock-out:
    one attempt wins it), and the next turn comes with the lock-out its failure starts."""
    limit = settings.TDM_LOGIN_FAILURES_PER_USER
    reserved = _pair(username, at) + ":reserved"
    n = _count(reserved, _remember())
    if n <= limit:
        if n == limit:
            # The last turn is out: no other until it has ended (its failure locks the username
            # here, its success forgets everything) or, should its process die, a check's time.
            _set_pair_lock(username, at, now + _CHECK_SECONDS)
        return True
    _uncount(reserved)  # the turns past the limit are the lock-outs', not this counter's
    lock = _pair_lock(username, at)
    if lock is None:
        return _lost_lock_turn(_pair(username, at), now)
    if now < lock[0]:  # the last numbered turn is still being checked, or locked out
        return False
    return cache.add(f"{_pair(username, at)}:turn:{lock[1]}", 1, _CHECK_SECONDS)


def _lost_lock_turn(pair: str, now: float) -> bool:
    """The turns are out but no lock-out names the next one. For a moment that is the last
    numbered turn between taking its number and setting the lock: refused. Should it last a
    password check's time, the cache let the lock go (a full cache evicts keys one by one) and
    kept the counter, and without a turn the username would be refused here until the counter
    expired (hours): one attempt then gets a turn, and its failure locks the username again."""
    seen = pair + ":lockless"
    since = cache.get(seen)
    if since is None:
        cache.add(seen, now, 2 * _CHECK_SECONDS)
        return False
    if now - since < _CHECK_SECONDS:
        return False
    cache.delete(seen)  # the next lockless spell is timed from its own start
    return cache.add(f"{pair}:turn:lost:{since}", 1, _CHECK_SECONDS)


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


def end_attempt(username, ip, ok: bool, now=None, device=None) -> None:
    """After the password was checked. A good login forgets the username's failures from this
    address (or known device) and does not count against the address or the account; a
    failure counts, and from the TDM_LOGIN_FAILURES_PER_USER-th on locks the username there
    (``pair_delay``)."""
    now = time.time() if now is None else now
    at = _at(ip, device)
    try:
        if ok:
            if ip and not device:
                _uncount_address(ip)
            if username and not device:
                _uncount(_account_key(username))
            if username and (ip or device):
                cache.delete_many(_pair_keys(username, at))
            return
        if ip and not device:
            attempts, start = _address_window(ip, now)
            key = _key("address", str(ip))
            if start is not None and attempts == settings.TDM_LOGIN_FAILURES_PER_ADDRESS and _first_to_announce(key, start):
                seconds = max(1, math.ceil(start + settings.TDM_LOGIN_WINDOW_SECONDS - now))
                _locked("address", username, ip, attempts, seconds)
        if username and not device and cache.get(_account_key(username), 0) == settings.TDM_LOGIN_FAILURES_PER_ACCOUNT:
            if _first_to_announce(_account_key(username), cache.get(_account_key(username) + ":start")):
                seconds = _account_wait(username, now) or settings.TDM_LOGIN_WINDOW_SECONDS
                _locked("account", username, ip, settings.TDM_LOGIN_FAILURES_PER_ACCOUNT, seconds)
        if username and (ip or device):
            key = _pair(username, at)
            failures = _count(key, _remember())
            cache.touch(key, _remember())
            cache.touch(key + ":reserved", _remember())
            seconds = pair_delay(failures)
            if seconds:
                _set_pair_lock(username, at, now + seconds)
                _locked("user", username, ip, failures, seconds)
    except Exception:
        log.exception("login throttle: cache unavailable; failure not counted")


def _first_to_announce(key: str, start) -> bool:
    """Whether this failure announces the lock-out of the window that began at ``start``: the
    failures ending together all read the count at the limit, and one audit line is enough."""
    return cache.add(f"{key}:announced:{start}", 1, settings.TDM_LOGIN_WINDOW_SECONDS + 60)


def _locked(kind: str, username, ip, failures: int, seconds: int) -> None:
    log.warning("login throttle: %s locked out for %d s after %d failed logins (username %r, address %s)", kind, seconds, failures, username, ip)
    try:
        login_locked_out.send(sender=None, kind=kind, username=str(username or ""), address=str(ip or ""), failures=failures, seconds=seconds)
    except Exception:  # the audit line must not turn a refused login into a 500
        log.exception("login throttle: the lock-out's audit line was not written")


def _window_keys(key: str) -> list[str]:
    """An address's or an account's counter, its window's start, and that window's lock-out
    announced (a lock-out after a lift is announced again, even at the same instant)."""
    return [key, key + ":start", f"{key}:announced:{cache.get(key + ':start')}"]


def reset(username=None, ip=None) -> None:
    """Forget the counters of a username at an address and/or of an address (tests, and a
    director lifting a lock-out: ``lift``)."""
    keys = []
    if username and ip:
        keys += _pair_keys(username, ip)
    if ip:
        keys += _window_keys(_key("address", str(ip)))
    if username:
        keys += _window_keys(_account_key(username))
    if keys:
        cache.delete_many(keys)


def lift(kind: str, username, ip) -> None:
    """A director lifts one lock-out, as listed: ``kind`` "user" (the username at that address:
    its failures there forgotten), "address" (the address's, for every username) or "account"
    (the username's from every address). Each lifts that one alone: lifting a username at one
    address leaves what others guessed at it from everywhere."""
    if kind == "user":
        keys = _pair_keys(username, ip)
    elif kind == "address":
        keys = _window_keys(_key("address", str(ip)))
    elif kind == "account":
        keys = _window_keys(_account_key(username))
    else:
        raise ValueError(f"no such lock-out: {kind!r}")
    cache.delete_many(keys)


class ThrottledModelBackend(ModelBackend):
    """Django's model backend behind the throttle. Refusing raises PermissionDenied, which stops
    ``authenticate()`` at once; the view learns why from ``request.login_throttled`` (seconds)."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(self._username_field())
        typed = username
        # Every variant of a name (``Ｄirector``, ``DIRECTOR``) is one name to the throttle, and a
        # lock-out's event-log row writes it folded. Worked out without the database: a guess the
        # throttle refuses reads nothing.
        username = folded(username) if isinstance(username, str) else username
        ip = client_ip(request) if request is not None else None
        device = known_device(request, username)
        wait = begin_attempt(username, ip, device=device)
        if wait is not None:
            if request is not None:
                request.login_throttled = wait
            log.warning("login throttle: refused a login for username %r from %s (locked for %d s more)", username, ip, wait)
            raise PermissionDenied
        user = None
        try:
            user = super().authenticate(request, username=login_name(typed), password=password, **kwargs)
        finally:
            end_attempt(username, ip, ok=user is not None, device=device)
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


# --- secrets shown ------------------------------------------------------------------------------


def no_store(response):
    """``response`` shows a secret (a password made to be shown once, a device's token, a lobby
    screen's link): no cache keeps it, neither a proxy nor the browser (its history, its back
    button, its disk). ``Cache-Control: no-store`` and Django's other never-cache headers."""
    add_never_cache_headers(response)
    return response
