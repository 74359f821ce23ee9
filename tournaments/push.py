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
import ipaddress
import json
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

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


class _NoRedirects(requests.Session):
    """A push service's answer is final: a redirect is not followed (it could name any address)."""

    def request(self, *args, **kwargs):
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


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


def send(subscription: dict, message: dict, *, private_pem: str, ttl: int, urgency: str, topic: str) -> Sent:
    """POST ``message`` (JSON, encrypted for the subscription's keys) to its endpoint, signed
    with the installation's key for the endpoint's origin. Never raises for what the push
    service answers or fails to: the caller reads ``Sent``."""
    if not endpoint_allowed(subscription.get("endpoint")):
        return Sent(400)  # the allow-list changed since it subscribed: nothing is sent there
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        with _NoRedirects() as session:
            response = webpush(
                subscription,
                body,
                vapid_private_key=Vapid.from_pem(private_pem.encode()),
                vapid_claims={"sub": settings.TDM_PUSH_CONTACT},
                ttl=ttl,
                headers={"Urgency": urgency, "Topic": topic},
                timeout=settings.TDM_PUSH_TIMEOUT,
                requests_session=session,
            )
    except WebPushException as exc:
        response = exc.response
        if response is None:
            return Sent(0)
    except requests.RequestException:
        return Sent(0)
    retry = response.headers.get("Retry-After", "")
    return Sent(response.status_code, int(retry) if retry.isdigit() else None)
