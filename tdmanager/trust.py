"""The trust page: how a staff device comes to trust the room's secure address, and a check.

``/trust/`` needs no login and is served on both ports (the plain one too: a device that does
not trust the room yet must reach it without a warning). It offers the room's certificate
authority (``tdmanager.roomca``) as a ``.crt`` (Android, Windows, macOS) and as an Apple profile
(iPhone, iPad), its SHA-256 fingerprint to compare with what the device shows, a QR code of the
page's secure address and the steps for each system. ``/trust/check`` answers on the secure
address, to the trust page's origin (CORS): a device whose browser reaches it trusts the room.
Without the authority (the room's network not served securely) the page says so and how to
start it, and offers nothing to download. The authority's keys are never served.
"""

from urllib.parse import urlsplit

import segno
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding
from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse
from django.http.request import split_domain_port, validate_host
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers, patch_vary_headers

from tdmanager import links, roomca


def origin_of(url: str) -> str:
    """``https://tdm.sala:8443`` of ``https://tdm.sala:8443/trust/``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def serving_securely() -> bool:
    """True when this server serves the room's network with its own authority."""
    return settings.TDM_LAN and roomca.ca_exists()


def certificate_name(pem: bytes) -> str:
    """The authority's name, as a device lists it among its certificates."""
    subject = x509.load_pem_x509_certificate(pem).subject
    names = subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)
    return str(names[0].value) if names else subject.rfc4514_string()


def trust_page(request):
    room = links.room_url(request)
    lan = serving_securely()
    context = {"room": room, "lan": lan, "check_url": room + reverse("trust-check") if room else ""}
    if lan:
        secure_page = links.staff_url(request, reverse("trust"))
        pem = roomca.ca_certificate_pem()
        context.update(
            fingerprint=roomca.ca_fingerprint(),
            certificate_name=certificate_name(pem),
            secure_page=secure_page,
            qr=segno.make(secure_page, error="m").svg_data_uri(scale=4, border=2, dark="#000", light="#fff"),
        )
    response = render(request, "trust.html", context)
    if room:  # the check asks the secure address, another origin when this page came by the plain port
        response.csp_extra = {"connect-src": [origin_of(room)]}
    return response


def _download(body: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-cache"  # a new authority (a new data directory) is fetched anew
    return response


def ca_certificate(request):
    """The authority's certificate, DER (what Android, Windows and macOS install from a ``.crt``)."""
    if not roomca.ca_exists():
        raise Http404
    der = x509.load_pem_x509_certificate(roomca.ca_certificate_pem()).public_bytes(Encoding.DER)
    return _download(der, "application/x-x509-ca-cert", "room-ca.crt")


def ca_profile(request):
    """The authority in an Apple configuration profile (iPhone, iPad: Settings installs it)."""
    if not roomca.ca_exists():
        raise Http404
    return _download(roomca.mobileconfig(), "application/x-apple-aspen-config", "room-ca.mobileconfig")


def allowed_origin(origin: str) -> bool:
    """True for an origin this server answers to (its host in ``ALLOWED_HOSTS``): the trust page
    on either port, by any of the room's names."""
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    domain, _port = split_domain_port(parts.netloc)
    return bool(domain) and validate_host(domain, settings.ALLOWED_HOSTS)


def trust_check(request):
    """A device asked the room's secure address and its browser accepted the answer: it trusts
    the room. Nothing here is private; the answer goes to the trust page's origin."""
    response = JsonResponse({"secure": request.is_secure(), "room": links.room_url(request)})
    add_never_cache_headers(response)  # each tap asks the server: a kept answer would tell nothing
    origin = request.headers.get("Origin", "")
    if origin and allowed_origin(origin):
        response["Access-Control-Allow-Origin"] = origin
        response["Cross-Origin-Resource-Policy"] = "cross-origin"
    patch_vary_headers(response, ["Origin"])
    return response
