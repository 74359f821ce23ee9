"""Web Push, the transport: which endpoints a subscription may name, the installation's VAPID
key, and one encrypted message to one phone (pywebpush: RFC 8291 ``aes128gcm``, RFC 8292 VAPID,
RFC 8030's TTL, Urgency and Topic). No model is written here: the services decide what is sent
and what a push service's answer changes (``services.push``).

A subscription's endpoint is an address the server will call: it must be on the push services'
allow-list (``TDM_PUSH_ENDPOINTS``), over https, without a user or a port of its own; a loopback
host listed there may be plain http with a port (the tests' and the benchmarks' own push
service). The call follows no redirect, so an allowed host cannot send the server elsewhere, and
it gives up after ``TDM_PUSH_TIMEOUT`` seconds.
"""

import base64
import binascii
import functools
import ipaddress
import json
import os
import threading
import time
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid
from pywebpush import WebPusher

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


def endpoint_allowed(endpoint, allowed: list[str] | None = None) -> bool:
    """Whether the server may send to ``endpoint`` (see the module's docstring)."""
    allowed = settings.TDM_PUSH_ENDPOINTS if allowed is None else allowed
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_ENDPOINT or not endpoint.isascii():
        return False
    if any(c.isspace() or ord(c) < 32 for c in endpoint):
        return False
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    host = parts.hostname or ""
    if not host or parts.username is not None or parts.password is not None or parts.fragment:
        return False
    if not host_allowed(host, allowed):
        return False
    if _is_loopback(host):
        return parts.scheme in ("http", "https")
    return parts.scheme == "https" and port in (None, 443)


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


class _PushSession(requests.Session):
    """A push service's answer is final: a redirect is not followed (it could name any address).

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
        origin = urlsplit(url)[:2]
        if origin not in self._proxies:
            self._proxies[origin] = requests.utils.get_environ_proxies(url)
        kwargs.setdefault("proxies", self._proxies[origin])
        return super().request(method, url, *args, **kwargs)


class Sent:
    """A push service's answer: ``status`` (0: no answer in time or no connection) and
    ``retry_after`` (seconds, when it said)."""

    __slots__ = ("status", "retry_after")

    def __init__(self, status: int, retry_after: int | None = None):
        self.status, self.retry_after = status, retry_after

    @property
    def delivered(self) -> bool:
        return 200 <= self.status < 300

    @property
    def gone(self) -> bool:
        return self.status in (404, 410)

    @property
    def worth_retrying(self) -> bool:
        return self.status == 0 or self.status == 429 or self.status >= 500


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


def _pace() -> None:
    """Wait until this thread may send its next notice: ``TDM_PUSH_RATE`` a second at most,
    evenly spaced (a table break's nine notices take 20 ms; 5,000 take 12.5 s)."""
    rate = settings.TDM_PUSH_RATE
    if rate <= 0:
        return
    now = time.monotonic()
    due = getattr(_local, "next_send", now)
    if due > now:
        time.sleep(due - now)
    _local.next_send = max(now, due) + 1 / rate


def send(subscription: dict, message: dict, *, private_pem: str, ttl: int, urgency: str, topic: str) -> Sent:
    """POST ``message`` (JSON, encrypted for the subscription's keys) to its endpoint, signed
    with the installation's key for the endpoint's origin. Never raises for what the push
    service answers or fails to: the caller reads ``Sent``."""
    endpoint = subscription.get("endpoint")
    if not endpoint_allowed(endpoint):
        return Sent(400)  # the allow-list changed since it subscribed: nothing is sent there
    parts = urlsplit(endpoint)
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    headers = {**vapid_headers(private_pem, f"{parts.scheme}://{parts.netloc}"), "Urgency": urgency, "Topic": topic}
    _pace()
    try:
        response = WebPusher(subscription, requests_session=_session()).send(
            body, headers, ttl=ttl, content_encoding="aes128gcm", timeout=settings.TDM_PUSH_TIMEOUT
        )
    except requests.RequestException:
        _local.session = None  # a connection in doubt: the next message opens a new one
        return Sent(0)
    retry = response.headers.get("Retry-After", "")
    return Sent(response.status_code, int(retry) if retry.isdigit() else None)
