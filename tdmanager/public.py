"""What anyone may ask for without a login, and how often (the web app, ``tdmanager.asgi``).

Anything reachable without a login is bounded per token and per address, and can never make
staff wait. The web app runs the URLs named in ``PUBLIC`` on their own small pool of threads
(``TDM_WEB_PUBLIC_THREADS``), apart from the staff's pool, and before a request to one of them
takes a thread (or reads the database) it must find a token in two buckets: its client
address's and its token's (a player's ``/p/<token>/`` pages, a lobby screen's display token).
A refused request is answered 429 from the event loop with ``Retry-After``, after
``TDM_PUBLIC_REFUSAL_DELAY`` seconds: a client that asks again as soon as it is refused (a
script, a flood) then asks once per delay on each of its connections rather than as fast as
the server can refuse, and a held refusal costs a timer, not a thread.

The buckets live in the memory of one web process: with ``N`` web processes a client may get
up to ``N`` times the rates (each process refuses on its own count). Each set of buckets keeps
at most ``MAX_KEYS`` of them, the least recently used dropped first.
"""

import ipaddress
import json
import math
import time
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import parse_qsl

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, parse_cookie
from django.utils import translation

from tdmanager.realtime import TOO_MANY_STREAMS

# A bucket left alone for burst / rate seconds (15 s, 10 s by default) is full again, as a key
# never seen is: dropping the least recently used loses a count only when this many other keys
# were used since, which takes an attacker with as many addresses or tokens, whom no per-key
# limit bounds anyway. About 200 bytes each.
MAX_KEYS = 10_000


@dataclass(frozen=True)
class Public:
    """A public URL. ``token``: where its token is ("path": the URL's ``token``; "query": the
    ``token`` parameter, a lobby screen's; None: it has none, the address alone limits it).
    ``kind`` keeps a player's tokens and the screens' apart. ``limited``: False for what costs
    no database read and is asked in bursts by every page that shows a clock (the server's
    time). ``page``: refused as plain text rather than JSON. ``staff_too``: the staff's own
    pages ask it as well (a receipt's QR code, the clock page's and the table map's live
    state): asked with a login's session cookie and without a screen token it is a staff
    request (the staff pool, no limit), like any other URL a browser with that cookie asks."""

    token: str | None = None
    kind: str = ""
    limited: bool = True
    page: bool = False
    staff_too: bool = False


# By URL name (tournaments.urls, seating.urls).
PUBLIC = {
    "phone": Public(token="path", kind="p", page=True),
    "phone-state": Public(token="path", kind="p"),
    "phone-stream": Public(token="path", kind="p"),
    "phone-qr": Public(token="path", kind="p", staff_too=True),
    "phone-worker": Public(),  # the same bytes for every phone, from memory: its address alone limits it
    "phone-push": Public(token="path", kind="p"),  # a phone subscribes or stops: the page's token and address bound it
    "display": Public(token="path", kind="d", page=True),
    "overlay": Public(token="path", kind="d", page=True),  # the same screen as a stream's overlay
    "screen-image": Public(staff_too=True),  # a layout's logo: read once per process (live.screen_image)
    "live-state": Public(token="query", kind="d", staff_too=True),
    "live-stream": Public(token="query", kind="d", staff_too=True),
    "live-seats": Public(token="query", kind="d", staff_too=True),
    "live-time": Public(limited=False, staff_too=True),
    "seating-lookup": Public(page=True),
    "seating-lookup-find": Public(),
    "public-rules": Public(page=True),
    "public-changes": Public(),
    "formats-leaderboard": Public(page=True, staff_too=True),
    "schema": Public(staff_too=True),  # the API's shape, built once per process (tdmanager.apischema)
    # The trust page and its files: the same for everybody, no database read; its address alone limits it.
    "trust": Public(page=True, staff_too=True),
    "trust-ca": Public(staff_too=True),
    "trust-profile": Public(staff_too=True),
    "trust-check": Public(staff_too=True),
}


class Buckets:
    """Token buckets by key: each holds up to ``burst`` tokens and gains ``rate`` a second; a
    request takes one. At most ``keys`` buckets are kept (least recently used dropped). Used
    from the event loop only, so never from two threads at once."""

    def __init__(self, rate: float, burst: float, keys: int = MAX_KEYS):
        self.rate, self.burst, self.keys = rate, max(1.0, burst), keys
        self._held: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key: (tokens, when)

    def __len__(self):
        return len(self._held)

    def level(self, key: str, now: float) -> float:
        held = self._held.get(key)
        if held is None:
            return self.burst
        tokens, when = held
        return min(self.burst, tokens + (now - when) * self.rate)

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` has a token (0: it has one now)."""
        missing = 1.0 - self.level(key, now)
        return missing / self.rate if missing > 0 else 0.0

    def take(self, key: str, now: float) -> None:
        self._held[key] = (self.level(key, now) - 1.0, now)
        self._held.move_to_end(key)
        while len(self._held) > self.keys:
            self._held.popitem(last=False)


@lru_cache(maxsize=4096)
def address_key(address: str) -> str:
    """The key of a client address: an IPv6 client is its /64 (one subscriber's network, in
    which a host may take any address it likes), an IPv4 one its address."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


def _header(scope, name: bytes, joint: str = ",") -> str:
    """A header's value; several of one name joined as the WSGI environ joins them."""
    return joint.join(v.decode("latin1") for k, v in scope.get("headers", ()) if k.lower() == name)


def _cookies(scope) -> dict:
    return parse_cookie(_header(scope, b"cookie", "; "))


def query_token(scope) -> str:
    """The ``token`` parameter as the view reads it (``request.GET.get``: the last one given)."""
    query = scope.get("query_string", b"")
    if b"token" not in query:
        return ""
    token = ""
    for name, value in parse_qsl(query.decode("latin1"), keep_blank_values=True):
        if name == "token":
            token = value
    return token


def is_staff_request(route: Public, scope) -> bool:
    if not route.staff_too or (route.token == "query" and query_token(scope)):
        return False
    return bool(_cookies(scope).get(settings.SESSION_COOKIE_NAME))


class Limits:
    """The buckets of one web process: per client address and per token."""

    def __init__(self, clock=time.monotonic):
        from tdmanager.security import client_address  # it reads the auth app: once Django is set up

        self.client_address = client_address
        self.clock = clock
        per_address = (settings.TDM_PUBLIC_ADDRESS_RATE, settings.TDM_PUBLIC_ADDRESS_BURST)
        per_token = (settings.TDM_PUBLIC_TOKEN_RATE, settings.TDM_PUBLIC_TOKEN_BURST)
        self.addresses = Buckets(*per_address) if per_address[0] > 0 else None
        self.tokens = Buckets(*per_token) if per_token[0] > 0 else None

    def client(self, scope) -> str:
        peer = (scope.get("client") or ("", 0))[0]
        return self.client_address(peer, _header(scope, b"x-forwarded-for"))

    def wait(self, route: Public, path_token: str | None, scope) -> float:
        """0 when the request may go (a token taken from each of its buckets), else the seconds
        until it may: nothing is taken from either bucket then."""
        if not route.limited:
            return 0.0
        now = self.clock()
        held = []
        if self.addresses is not None:
            held.append((self.addresses, address_key(self.client(scope))))
        token = path_token if route.token == "path" else query_token(scope) if route.token == "query" else ""
        if token and self.tokens is not None:
            held.append((self.tokens, f"{route.kind}:{token[:128]}"))
        wait = max((buckets.wait(key, now) for buckets, key in held), default=0.0)
        if wait == 0.0:
            for buckets, key in held:
                buckets.take(key, now)
        return wait


def refusal(route: Public, wait: float, scope) -> tuple[int, list, bytes]:
    """The 429 of a refused public request: status, headers, body (in the client's language)."""
    return _refusal(route.page, max(1, math.ceil(wait)), client_language(scope))


def too_many_streams(scope) -> tuple[int, list, bytes]:
    """The 429 of one public stream too many from an address (``TDM_STREAMS_PER_ADDRESS``), as
    the live views answer it: status, headers, body."""
    return _too_many_streams(client_language(scope))


# A flood is refused thousands of times a second, in a handful of languages: each answer is
# made once (the headers are a list the server only reads).
@lru_cache(maxsize=256)
def _refusal(page: bool, seconds: int, language: str) -> tuple[int, list, bytes]:
    with translation.override(language):
        detail = translation.gettext("Too many requests. Try again later.")
    if page:
        body, kind = detail.encode(), b"text/plain; charset=utf-8"
    else:
        body, kind = json.dumps({"code": "rate_limited", "detail": detail}).encode(), b"application/json"
    return 429, _refused_headers(kind, seconds, body), body


@lru_cache(maxsize=64)
def _too_many_streams(language: str) -> tuple[int, list, bytes]:
    with translation.override(language):
        body = json.dumps({"code": "too_many_streams", "detail": str(TOO_MANY_STREAMS)}).encode()
    return 429, _refused_headers(b"application/json", 60, body), body


def _refused_headers(kind: bytes, seconds: int, body: bytes) -> list:
    return [
        (b"content-type", kind),
        (b"retry-after", str(seconds).encode()),
        (b"cache-control", b"no-store"),
        (b"x-content-type-options", b"nosniff"),
        (b"content-length", str(len(body)).encode()),
    ]


def client_language(scope) -> str:
    """The language Django's LocaleMiddleware would choose (language cookie, Accept-Language)."""
    return _language_of(_cookies(scope).get(settings.LANGUAGE_COOKIE_NAME, ""), _header(scope, b"accept-language"))


@lru_cache(maxsize=1024)
def _language_of(cookie: str, accept_language: str) -> str:
    request = HttpRequest()
    if cookie:
        request.COOKIES = {settings.LANGUAGE_COOKIE_NAME: cookie}
    request.META["HTTP_ACCEPT_LANGUAGE"] = accept_language
    return translation.get_language_from_request(request)


@receiver(setting_changed)
def _forget_languages(setting, **kwargs):
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LANGUAGE_COOKIE_NAME"):
        _language_of.cache_clear()
