"""Web Push, the transport: which endpoints a subscription may name, the installation's VAPID
key, and one encrypted message to one phone (pywebpush: RFC 8291 ``aes128gcm``, RFC 8292 VAPID,
RFC 8030's TTL, Urgency and Topic). No model is written here: the services decide what is sent
and what a push service's answer changes (``notices.services``).

A subscription's endpoint is an address the server will call: it is read once
(``parse_endpoint``), and only in a form every URL parser reads alike, the sending client's
(urllib3's) included: the host a plain name of letters, digits and hyphens (or a loopback IP
literal), no user, no empty port or label, no backslash, no percent-escape in the host. It must
be on the push services' allow-list (``TDM_PUSH_ENDPOINTS``), over https on the standard port; a
loopback host listed there may be plain http with a port (the tests' and the benchmarks' own
push service). The same function passes it again right before each call, so a row written
under an older rule or allow-list is never called. The call follows no redirect, so an allowed
host cannot send the server elsewhere.

One push service that is slow or dead delays only its own phones: a call gives up after
``TDM_PUSH_CONNECT_TIMEOUT`` seconds to connect and ``TDM_PUSH_TIMEOUT`` to answer; a push
service that failed ``TDM_PUSH_BREAKER_FAILURES`` times running is not called for
``TDM_PUSH_BREAKER_SECONDS`` (the circuit, kept in the cache: every worker process sees it); and
a worker process sends to each push service in a lane of its own (``Lanes``), so a call that
hangs holds its lane's thread, never the task that hands the next push service its batch.
"""

import base64
import binascii
import functools
import ipaddress
import json
import logging
import math
import os
import re
import threading
import time
from collections import deque
from typing import NamedTuple
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.cache import cache
from py_vapid import Vapid
from pywebpush import WebPusher, WebPushException
from urllib3.exceptions import LocationParseError
from urllib3.util import parse_url

log = logging.getLogger("tdmanager.push")

#: Message lifetimes and urgency by how soon the news goes stale (RFC 8030 5.2, 5.3): a seat or
#: a move is worth nothing once the player has walked over; a notice about the event, hours.
SOON = {"ttl": 10 * 60, "urgency": "high"}
LATER = {"ttl": 4 * 3600, "urgency": "normal"}

MAX_ENDPOINT = 1000


def _b64url(text: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_allowed(host: str, allowed: list[str]) -> bool:
    """``host`` is one of ``allowed`` (hosts; ``*.example.com``: any host under example.com)."""
    host = host.lower().rstrip(".")
    for entry in allowed:
        entry = entry.lower().strip()
        if entry.startswith("*."):
            if host.endswith(entry[1:]) and len(host) > len(entry) - 1:
                return True
        elif host == entry:
            return True
    return False


class Target(NamedTuple):
    """An endpoint as read: where the call goes. ``origin`` (``scheme://host[:port]``) is the
    push service's: its VAPID audience, its circuit and its lane."""

    scheme: str
    host: str
    port: int | None
    origin: str


_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
# scheme://host[:port]/path[?query]: no user, no fragment, a path; the host and port checked apart.
_ENDPOINT = re.compile(r"(?P<scheme>https?)://(?P<host>[A-Za-z0-9.-]+)(?::(?P<port>[1-9][0-9]{0,4}))?(?P<path>/[^#]*)")


def parse_endpoint(endpoint, allowed: list[str] | None = None) -> Target | None:
    """``endpoint`` read once, or None when the server may not send there (see the module's
    docstring). Anything two parsers could read as two hosts is refused, not guessed at: a
    backslash (urllib3 reads ``https://127.0.0.1\\.push.apple.com/`` as 127.0.0.1, urlsplit as a
    host under push.apple.com), an ``@``, an empty port or label, a percent-escape in the host;
    and the sending client's own parser must then read the same scheme, host and port."""
    allowed = settings.TDM_PUSH_ENDPOINTS if allowed is None else allowed
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_ENDPOINT or not endpoint.isascii():
        return None
    if not endpoint.isprintable() or any(c.isspace() or c == "\\" for c in endpoint):
        return None
    m = _ENDPOINT.fullmatch(endpoint)
    if m is None:
        return None
    scheme, host = m["scheme"], m["host"].lower()
    port = int(m["port"]) if m["port"] else None
    if port is not None and port > 65535:
        return None
    if len(host) > 253 or not _HOST.fullmatch(host):
        return None
    loopback = _is_loopback(host)
    if host.rsplit(".", 1)[-1].isdigit() and not loopback:
        return None  # a number where a name ends is an IP address to a browser (or a riddle): only loopback's is taken
    if not host_allowed(host, allowed):
        return None
    if not loopback and (scheme != "https" or port not in (None, 443)):
        return None
    try:  # what requests will do with it: the same scheme, host and port, or nothing is sent
        theirs, split = parse_url(endpoint), urlsplit(endpoint)
        if (theirs.scheme, theirs.host, theirs.port, theirs.auth) != (scheme, host, port, None):
            return None
        if (split.scheme, split.hostname, split.port, split.username) != (scheme, host, port, None):
            return None
    except (LocationParseError, ValueError):
        return None
    return Target(scheme, host, port, f"{scheme}://{host}" + (f":{port}" if port is not None else ""))


def endpoint_allowed(endpoint, allowed: list[str] | None = None) -> bool:
    """Whether the server may send to ``endpoint`` (``parse_endpoint``)."""
    return parse_endpoint(endpoint, allowed) is not None


def keys_valid(p256dh, auth) -> bool:
    """The browser's keys as RFC 8291 wants them: a P-256 public key (65 bytes, uncompressed
    point) and a 16-byte authentication secret, both base64url."""
    if not isinstance(p256dh, str) or not isinstance(auth, str) or len(p256dh) > 120 or len(auth) > 60:
        return False
    point, secret = _b64url(p256dh), _b64url(auth)
    if point is None or secret is None or len(point) != 65 or point[0] != 4 or len(secret) != 16:
        return False
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return False
    return True


def new_keys() -> tuple[str, str]:
    """A new VAPID key pair: (private key PEM, public key base64url as ``applicationServerKey``)."""
    private = ec.generate_private_key(ec.SECP256R1())
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    point = private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return pem, base64.urlsafe_b64encode(point).rstrip(b"=").decode()


class EndpointRefused(requests.RequestException):
    """The address is not one the server may call (``parse_endpoint``)."""


class _PushSession(requests.Session):
    """A push service's answer is final: a redirect is not followed (it could name any address),
    and every address is passed by ``parse_endpoint`` right before it is called.

    requests reads the environment at every request (its proxy variables, walked in full, the
    CA bundle's, ``~/.netrc``): a fifth of a notice's CPU. Here the environment is read once, the
    proxies once per push service (``no_proxy`` honoured), and ``.netrc`` never: a push service
    is authorised by the VAPID header alone."""

    def __init__(self):
        super().__init__()
        self.trust_env = False
        self.verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
        self._proxies: dict[tuple[str, str], dict] = {}

    def request(self, method, url, *args, **kwargs):
        kwargs["allow_redirects"] = False
        if parse_endpoint(url) is None:
            raise EndpointRefused(url)
        origin = urlsplit(url)[:2]
        if origin not in self._proxies:
            self._proxies[origin] = requests.utils.get_environ_proxies(url)
        kwargs.setdefault("proxies", self._proxies[origin])
        return super().request(method, url, *args, **kwargs)


class Sent:
    """A push service's answer: ``status`` (0: no answer in time or no connection) and
    ``retry_after`` (seconds, when it said). ``refused``: nothing was sent, nor ever will be (an
    endpoint the server may not call, keys nothing can be encrypted for); ``skipped``: nothing
    was sent, for now (the push service's circuit is open, or it failed earlier in the batch)."""

    __slots__ = ("status", "retry_after", "refused", "skipped")

    def __init__(self, status: int, retry_after: int | None = None, *, refused: bool = False, skipped: bool = False):
        self.status, self.retry_after, self.refused, self.skipped = status, retry_after, refused, skipped

    @property
    def delivered(self) -> bool:
        return 200 <= self.status < 300

    @property
    def gone(self) -> bool:
        return self.status in (404, 410)

    @property
    def worth_retrying(self) -> bool:
        return not self.refused and (self.status == 0 or self.status == 429 or self.status >= 500)

    @property
    def failed(self) -> bool:
        """A failure the circuit counts: no answer, or the push service's own error."""
        return not self.refused and not self.skipped and (self.status == 0 or self.status >= 500)


#: RFC 8292: a VAPID token is good until its ``exp`` (at most 24 hours; 12 here) for every
#: message to one push service: signed once per origin and reused until an hour before it ends.
VAPID_LIFETIME = 12 * 3600
VAPID_RENEW_BEFORE = 3600


@functools.lru_cache(maxsize=4)
def _vapid(private_pem: str) -> Vapid:
    return Vapid.from_pem(private_pem.encode())


_signed: dict[tuple[str, str, str], tuple[float, dict]] = {}  # (key, origin, contact) -> (exp, headers)
_local = threading.local()


def vapid_headers(private_pem: str, origin: str) -> dict:
    """The ``Authorization`` header for messages to ``origin`` (RFC 8292), signed once per
    origin and process and reused while it is good."""
    key = (private_pem, origin, settings.TDM_PUSH_CONTACT)
    now = time.time()
    held = _signed.get(key)
    if held is None or held[0] - VAPID_RENEW_BEFORE < now:
        exp = int(now) + VAPID_LIFETIME
        held = (exp, _vapid(private_pem).sign({"sub": settings.TDM_PUSH_CONTACT, "aud": origin, "exp": exp}))
        _signed[key] = held
    return held[1]


def _session() -> requests.Session:
    """This thread's session: its connections to the push services are kept open between
    messages (one TLS handshake per push service, not one per message). A forked worker process
    makes its own."""
    session = getattr(_local, "session", None)
    if session is None or getattr(_local, "pid", None) != os.getpid():
        session = _local.session = _PushSession()
        _local.pid = os.getpid()
    return session


_pace_lock = threading.Lock()
_next_send = [0.0]


def _pace() -> None:
    """Wait until this process may send its next notice: ``TDM_PUSH_RATE`` a second at most,
    evenly spaced, whichever lane sends it (a table break's nine notices take 20 ms; 5,000 take
    12.5 s)."""
    rate = settings.TDM_PUSH_RATE
    if rate <= 0:
        return
    with _pace_lock:
        now = time.monotonic()
        due = max(now, _next_send[0])
        _next_send[0] = due + 1 / rate
    if due > now:
        time.sleep(due - now)


def _circuit_keys(origin: str) -> tuple[str, str]:
    return f"push:circuit:open:{origin}", f"push:circuit:failed:{origin}"


def circuit(origin: str) -> tuple[float, int]:
    """The push service's circuit, as every worker process sees it: (seconds it stays open, 0
    when closed; its failures running)."""
    opened, failed = _circuit_keys(origin)
    held = cache.get_many([opened, failed])
    return max(0.0, (held.get(opened) or 0) - time.time()), held.get(failed) or 0


def _note(origin: str, sent: Sent, failures: int) -> None:
    """Count a failure; ``TDM_PUSH_BREAKER_FAILURES`` running open the circuit for
    ``TDM_PUSH_BREAKER_SECONDS``. An answer ends the run (a write only after failures)."""
    opened, failed = _circuit_keys(origin)
    seconds = settings.TDM_PUSH_BREAKER_SECONDS
    if not sent.failed:
        if failures and sent.status:
            cache.delete(failed)
        return
    cache.add(failed, 0, seconds)
    try:
        count = cache.incr(failed)
    except ValueError:  # expired meanwhile
        cache.set(failed, 1, seconds)
        count = 1
    if count >= settings.TDM_PUSH_BREAKER_FAILURES:
        cache.set(opened, time.time() + seconds, seconds)
        cache.delete(failed)
        log.warning("push service %s: %s failures running, not called for %s s", origin, count, seconds)


_calls: dict[str, float] = {}  # origin -> when this process's call to it began (monotonic)


def calling_since(origin: str) -> float | None:
    """When this process's call to ``origin`` now in progress began (None: none is)."""
    return _calls.get(origin)


def post_encrypted(subscription: dict, message: dict, *, private_pem: str, ttl: int, urgency: str, topic: str) -> Sent:
    """POST ``message`` (JSON, encrypted for the subscription's keys) to its endpoint, signed
    with the installation's key for the endpoint's origin. Never raises for what the push
    service answers or fails to: the caller reads ``Sent``."""
    target = parse_endpoint(subscription.get("endpoint"))
    if target is None:
        return Sent(400, refused=True)  # malformed, or the allow-list changed since it subscribed
    shut, failures = circuit(target.origin)
    if shut:
        return Sent(0, math.ceil(shut), skipped=True)
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    headers = {**vapid_headers(private_pem, target.origin), "Urgency": urgency, "Topic": topic}
    _pace()
    timeout = (settings.TDM_PUSH_CONNECT_TIMEOUT, settings.TDM_PUSH_TIMEOUT)
    _calls[target.origin] = time.monotonic()
    try:
        response = WebPusher(subscription, requests_session=_session()).send(body, headers, ttl=ttl, content_encoding="aes128gcm", timeout=timeout)
    except (EndpointRefused, requests.exceptions.InvalidURL, requests.exceptions.InvalidSchema, requests.exceptions.MissingSchema):
        return Sent(400, refused=True)
    except requests.RequestException:
        _local.session = None  # a connection in doubt: the next message opens a new one
        sent = Sent(0)
    except (WebPushException, ValueError, TypeError):  # keys nothing can be encrypted for
        return Sent(400, refused=True)
    else:
        retry = response.headers.get("Retry-After", "")
        sent = Sent(response.status_code, int(retry) if retry.isdigit() else None)
    finally:
        _calls.pop(target.origin, None)
    _note(target.origin, sent, failures)
    return sent


class Lanes:
    """A worker process's sending, one lane per push service: a lane is a thread that sends its
    push service's batches one after the other, at most ``threads`` lanes at once. Handing a
    batch over (``put``) returns at once, so a push service that hangs holds its own lane and
    nothing else; a batch for a push service whose call has hung for ``SLOW`` seconds is not
    queued behind it (``put`` says so, and the caller sends it later)."""

    SLOW = 2.0  # seconds a call may take before its push service's next batches go round it
    QUEUED = 4  # batches waiting per lane: beyond it, ``put`` waits for the lane

    def __init__(self):
        self.cond = threading.Condition()
        self.pending: dict[str, deque] = {}

    def put(self, origin: str, job, wait: float) -> bool:
        """Queue ``job`` (a callable) on ``origin``'s lane; False when that lane is stuck, or
        no lane was free for ``wait`` seconds."""
        end = time.monotonic() + wait
        with self.cond:
            while True:
                began = calling_since(origin)
                if began is not None and time.monotonic() - began > self.SLOW:
                    return False
                queue = self.pending.get(origin)
                if queue is None and len(self.pending) < max(1, settings.TDM_PUSH_THREADS):
                    self.pending[origin] = deque([job])
                    threading.Thread(target=self._run, args=(origin,), name=f"push {origin}", daemon=True).start()
                    return True
                if queue is not None and len(queue) < self.QUEUED:
                    queue.append(job)
                    return True
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(min(left, 0.25))

    def _run(self, origin: str) -> None:
        while True:
            with self.cond:
                queue = self.pending[origin]
                if not queue:
                    del self.pending[origin]
                    self.cond.notify_all()
                    return
                job = queue.popleft()
                self.cond.notify_all()
            try:
                job()
            except Exception:  # a lane outlives a batch that failed: the next is someone else's
                log.exception("push lane %s", origin)

    def idle(self, deadline: float) -> bool:
        """Wait until no lane has work (the worker's shutdown, tests)."""
        end = time.monotonic() + deadline
        with self.cond:
            while self.pending:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
        return True


lanes = Lanes()
