"""The addresses that leave the screen: a receipt's QR code, a lobby screen's link, a tablet's.

A link printed or shown to be opened on another device must name this server as that device
reaches it, never as the desk's own browser does (``127.0.0.1`` on the desk's computer is the
player's phone itself). So:

- the staff's links (a lobby screen's, the trust page's) use the room's secure address
  (``TDM_ROOM_URL``, ``https://tdm.sala:8443``), else the address the request came by;
- the players' links (the receipt's QR code) use ``TDM_PUBLIC_URL`` (a public name with a public
  certificate: a player's phone cannot install the room's), else the room's address, else the
  request's own, unless that is loopback: then the link still says it (it works on this
  computer), and :func:`warning_for` tells the cashier it cannot work on a phone, and why.
"""

import ipaddress

from django.conf import settings
from django.utils.translation import gettext as _

LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")


def split_host(host: str) -> str:
    """The name or address of ``host`` without its port ("[::1]:8000" → "::1")."""
    host = (host or "").strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host[1:]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def is_loopback(host: str) -> bool:
    """True when ``host`` (a name or an address, with or without its port) names the machine
    it is opened on: ``localhost`` and its kind, 127.0.0.0/8, ``::1``, or no address at all
    (0.0.0.0, ::). Another device opening it reaches itself, not this server."""
    name = split_host(host)
    if not name or name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_unspecified


def request_base(request) -> str:
    """The scheme and host the request came by: ``http://127.0.0.1:8000``."""
    return f"{request.scheme}://{request.get_host()}"


def room_url(request=None) -> str:
    """The room's secure address (``TDM_ROOM_URL``), or the request's own when it came over
    HTTPS by a name another device can reach (a proxy with its own certificate); "" when none
    is known."""
    if settings.TDM_ROOM_URL:
        return settings.TDM_ROOM_URL
    if request is not None and request.is_secure() and not is_loopback(request.get_host()):
        return request_base(request)
    return ""


def _join(base: str, path: str) -> str:
    return base.rstrip("/") + "/" + path.lstrip("/")


def staff_url(request, path: str) -> str:
    """``path`` as a staff device opens it: on the room's secure address when there is one."""
    return _join(room_url(request) or request_base(request), path)


def player_base(request) -> str:
    """Where a player's phone reaches this server: ``TDM_PUBLIC_URL``, else the room's address,
    else the request's own (loopback included: :func:`warning_for` says so)."""
    return settings.TDM_PUBLIC_URL or settings.TDM_ROOM_URL or request_base(request)


def player_url(request, path: str) -> str:
    """``path`` as a player's phone opens it (a receipt's QR code)."""
    return _join(player_base(request), path)


def players_secure_url(request, path: str) -> str:
    """``path`` at the players' secure address, for a page opened elsewhere (over plain HTTP):
    only ``TDM_PUBLIC_URL`` over HTTPS, whose certificate a phone trusts (the room's own it
    does not); "" without one, or when the page is there already."""
    base = settings.TDM_PUBLIC_URL
    if not base.startswith("https://") or base == request_base(request):
        return ""
    return _join(base, path)


def players_reach(request) -> bool:
    """False when the players' links would name the desk's own computer (loopback)."""
    return not is_loopback(player_base(request).partition("://")[2].split("/", 1)[0])


def warning_for(request) -> str:
    """What the cashier must know before handing out a receipt: "" when its QR code reaches
    this server from a player's phone; else why it does not, and what to do."""
    if players_reach(request):
        return ""
    return _(
        "The QR code on the receipts points to this computer's own address (%(host)s): a player's phone cannot open it. "
        "Ask the director to start TDManager on the room's network (./tdm run --lan --name a name for the room) "
        "or to give it its public address (TDM_PUBLIC_URL)."
    ) % {"host": split_host(request.get_host())}
