"""The room's own network: the names and addresses it is served by, and its plain port.

``manage.py serve --lan`` serves the staff over HTTPS (``tdmanager.roomca``'s certificate) on
``TDM_HTTPS_PORT`` and keeps the plain ``TDM_PORT`` for a device that does not trust the room's
authority yet: there it answers the trust page (and the files that page needs) and sends every
other request to the same name on the HTTPS port.
"""

import ipaddress
import re
import socket

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpResponseRedirect
from django.http.request import split_domain_port

#: What the plain port answers itself: the trust page and its downloads, the static files a page
#: there loads (a device that does not trust the room's authority cannot fetch them over HTTPS),
#: the icon, a health probe.
PLAIN_PATHS = ("/trust/", "/static/", "/favicon.ico", "/healthz")

_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_DNS_NAME = re.compile(rf"^(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*$")


def is_dns_name(name: str) -> bool:
    return bool(_DNS_NAME.match(name.lower()))


def is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return False
    return True


def host_names() -> list[str]:
    """The machine's own names: its host name, ``<host>.local`` (what mDNS answers on the room's
    network), ``localhost``; those a certificate can carry."""
    host = socket.gethostname().lower().rstrip(".")
    names = [host, f"{host.split('.')[0]}.local", "localhost"] if host else ["localhost"]
    return [n for n in dict.fromkeys(names) if is_dns_name(n)]


ANY_INTERFACE = ("0.0.0.0", "::", "[::]", "")
#: Addresses of the documentation ranges (RFC 5737, RFC 3849): a UDP socket "connected" to one
#: says which local address the way out goes from; nothing is sent.
_PROBES = ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1"))


def _primary_addresses() -> list[str]:
    found = []
    for family, probe in _PROBES:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                found.append(s.getsockname()[0])
        except OSError:  # no route of that family
            continue
    return found


def _named_addresses() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, proto=socket.IPPROTO_TCP)
    except OSError:
        return []
    return [info[4][0] for info in infos]


def served_addresses(host: str) -> list[str]:
    """The addresses a server bound to ``host`` is reached by: that one address, or for every
    interface the machine's addresses that can be found without asking anything outside it (the
    host name's, the way out's, loopback). A link-local IPv6 address needs its interface's name,
    which no certificate or URL carries: left out."""
    if host not in ANY_INTERFACE:
        return [host.strip("[]")]
    wanted = [*_primary_addresses(), *_named_addresses(), "127.0.0.1"]
    if host != "0.0.0.0":  # "::" serves IPv6 too
        wanted.append("::1")
    out = []
    for text in wanted:
        try:
            ip = ipaddress.ip_address(text.split("%")[0])
        except ValueError:
            continue
        if (ip.version == 6 and ip.is_link_local) or (host == "0.0.0.0" and ip.version == 6) or str(ip) in out:
            continue
        out.append(str(ip))
    return out


def as_host(address: str) -> str:
    """An address as a Host header and a URL carry it: an IPv6 one in brackets."""
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


def origin(host: str, port: int) -> str:
    return f"https://{host}" + ("" if port == 443 else f":{port}")


class PlainPortMiddleware:
    """On the room's network (``TDM_LAN``), a request that came in plain is sent to the same name
    on the HTTPS port, but for ``PLAIN_PATHS``. The name is the request's own (checked against
    ``ALLOWED_HOSTS`` first), so a device that reached the room by its address stays on it. Off
    the room's network it is not in the chain at all."""

    def __init__(self, get_response):
        if not settings.TDM_LAN:
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request):
        if request.is_secure() or request.path.startswith(PLAIN_PATHS) or request.path == "/trust":
            return self.get_response(request)
        domain, _port = split_domain_port(request.get_host())
        response = HttpResponseRedirect(origin(domain, settings.TDM_HTTPS_PORT) + request.get_full_path())
        if request.method not in ("GET", "HEAD"):
            response.status_code = 307  # the same method and body again, not a GET
        return response
