"""The room's certificate authority, as the pages read it: its certificate, fingerprint and profile.

The authority lives in the data directory (``VAR_DIR / "room-ca"``): ``ca.crt`` is what a staff
device installs to trust the room's secure address; the keys beside it are never served. The
launcher makes it (``manage.py serve --lan``); here it is only read.
"""

import plistlib
import uuid
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.serialization import Encoding
from django.conf import settings


def ca_dir() -> Path:
    return Path(settings.VAR_DIR) / "room-ca"


def ca_exists() -> bool:
    """True when the installation has made its authority (it served the room's network)."""
    return (ca_dir() / "ca.crt").is_file()


def ca_certificate_pem() -> bytes:
    return (ca_dir() / "ca.crt").read_bytes()


def ca_certificate() -> x509.Certificate:
    return x509.load_pem_x509_certificate(ca_certificate_pem())


def ca_fingerprint() -> str:
    """The certificate's SHA-256 fingerprint, as a device shows it: "AB:CD:…"."""
    return ca_certificate().fingerprint(hashes.SHA256()).hex(":").upper()


def ensure_ca():
    raise NotImplementedError("the room's authority is made by manage.py serve --lan")


def ensure_server_certificate(names, addresses):
    raise NotImplementedError("the room's server certificate is made by manage.py serve --lan")


def mobileconfig() -> bytes:
    """An Apple configuration profile carrying the certificate (iPhone, iPad, Mac)."""
    cert = ca_certificate()
    name = cert.subject.rfc4514_string()
    der = cert.public_bytes(Encoding.DER)
    seed = cert.fingerprint(hashes.SHA256()).hex()
    payload = {
        "PayloadType": "com.apple.security.root",
        "PayloadVersion": 1,
        "PayloadIdentifier": f"tdmanager.room-ca.{seed[:16]}.cert",
        "PayloadUUID": str(uuid.UUID(seed[:32])).upper(),
        "PayloadDisplayName": name,
        "PayloadContent": der,
    }
    profile = {
        "PayloadType": "Configuration",
        "PayloadVersion": 1,
        "PayloadIdentifier": f"tdmanager.room-ca.{seed[:16]}",
        "PayloadUUID": str(uuid.UUID(seed[32:64])).upper(),
        "PayloadDisplayName": "TDManager room certificate",
        "PayloadContent": [payload],
    }
    return plistlib.dumps(profile)
