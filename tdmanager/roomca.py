"""The room's own certificate authority: the HTTPS of the room's network without a public name.

A tablet gets the floor's offline app (a service worker) and Web Push only from a secure origin.
On a room's Wi-Fi there is no public name to get a certificate for, so the installation makes
its own authority once (``VAR_DIR/room-ca``: ``ca.key`` readable by its owner alone, never
served, and ``ca.crt``, the certificate each staff device installs from the trust page), and
with it the web server's certificate for every name and address the room reaches it by. The
server's certificate is short-lived and made again by itself: within ``RENEW_BEFORE`` of its end,
when the names or addresses change, or when the authority is another one (a restore). The
authority goes with the backup (``tdmanager.backup``), so a room moved to another machine keeps
the devices that trust it.
"""

import fcntl
import hashlib
import io
import ipaddress
import os
import plistlib
import socket
import tarfile
import uuid
import zlib
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from django.conf import settings

CA_KEY, CA_CERT, SERVER_KEY, SERVER_CERT = "ca.key", "ca.crt", "server.key", "server.crt"
FILES = (CA_KEY, CA_CERT, SERVER_KEY, SERVER_CERT)
SECRET_FILES = (CA_KEY, SERVER_KEY)
#: The authority outlives the devices that install it: ten years.
CA_DAYS = 3650
#: The server's certificate: well under what the browsers accept of a certificate (398 days;
#: Apple's cap for one from an authority a user installed is 825); made again by itself.
SERVER_DAYS = 180
RENEW_BEFORE = timedelta(days=30)
#: A device's clock a little behind the server's still takes a certificate just made.
BACKDATE = timedelta(hours=1)
_PROFILE_NAMESPACE = uuid.UUID("5d0c7a2e-93f1-4f47-9a55-1f6c3b0e8d21")


def ca_dir() -> Path:
    return Path(settings.VAR_DIR) / "room-ca"


def ca_exists() -> bool:
    return (ca_dir() / CA_KEY).is_file() and (ca_dir() / CA_CERT).is_file()


@contextmanager
def _locked():
    """One process at a time makes or renews (the launcher and a web process asking at once
    agree on one authority); the lock file sits beside the folder, which a restore replaces."""
    folder = ca_dir()
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / "room-ca.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            yield folder
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _write(path: Path, data: bytes, secret: bool) -> None:
    """Written whole beside its place, then renamed into it: a reader never sees half a key.
    A key is its owner's alone from its first byte (mode 0600 at creation, not after)."""
    draft = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if secret else 0o644)
    try:
        os.fchmod(fd, 0o600 if secret else 0o644)  # whatever the umask
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        draft.unlink(missing_ok=True)
        raise
    os.replace(draft, path)


def _key_pem(key) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def _now() -> datetime:
    return datetime.now(UTC)


def _make_ca(folder: Path, now: datetime):
    key = ec.generate_private_key(ec.SECP256R1())
    host = socket.gethostname() or "localhost"
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, f"TDManager room CA {host} {now:%Y-%m-%d}"[:64]),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "TDManager"),
        ]
    )
    ski = x509.SubjectKeyIdentifier.from_public_key(key.public_key())
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE)
        .not_valid_after(now + timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(ski, critical=False)
        .sign(key, hashes.SHA256())
    )
    # The key first: a certificate on the disk always has its key beside it.
    _write(folder / CA_KEY, _key_pem(key), secret=True)
    _write(folder / CA_CERT, cert.public_bytes(serialization.Encoding.PEM), secret=False)
    return cert, key


def _load_ca(folder: Path):
    cert = x509.load_pem_x509_certificate((folder / CA_CERT).read_bytes())
    key = serialization.load_pem_private_key((folder / CA_KEY).read_bytes(), password=None)
    return cert, key


def ensure_ca(now: datetime | None = None):
    """The authority's (certificate, private key): made the first time, the same ever after."""
    if ca_exists():
        return _load_ca(ca_dir())
    with _locked() as folder:
        if ca_exists():  # made by another process while this one waited
            return _load_ca(folder)
        return _make_ca(folder, now or _now())


def ca_certificate_pem() -> bytes:
    """The authority's certificate as a device installs it (PEM); never its key."""
    ensure_ca()
    return (ca_dir() / CA_CERT).read_bytes()


def ca_certificate_der() -> bytes:
    return ensure_ca()[0].public_bytes(serialization.Encoding.DER)


def ca_fingerprint() -> str:
    """SHA-256 of the authority's certificate, as a device shows it: ``AB:CD:…`` (95 characters)."""
    return _colons(ca_certificate_der())


def _colons(der: bytes) -> str:
    return ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())


def _addresses(addresses) -> list:
    out = []
    for a in addresses:
        try:
            ip = ipaddress.ip_address(str(a).strip("[]").split("%")[0])
        except ValueError:
            continue
        if ip not in out:
            out.append(ip)
    return out


def _names(names) -> list[str]:
    return list(dict.fromkeys(n.strip().lower().rstrip(".") for n in names if n and n.strip()))


def _served_by(cert) -> tuple[set[str], set]:
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return set(), set()
    return {n.lower() for n in san.get_values_for_type(x509.DNSName)}, set(san.get_values_for_type(x509.IPAddress))


def _signed_by(cert, ca_cert) -> bool:
    try:
        cert.verify_directly_issued_by(ca_cert)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return True


def _key_matches(cert, key_path: Path) -> bool:
    try:
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError):
        return False
    return key.public_key().public_numbers() == cert.public_key().public_numbers()


def server_certificate_is_current(names, addresses, now: datetime | None = None) -> bool:
    """The server's certificate on the disk can be served as it is: made by this authority, for
    exactly these names and addresses, with its key beside it, and more than ``RENEW_BEFORE``
    left."""
    folder = ca_dir()
    try:
        cert = x509.load_pem_x509_certificate((folder / SERVER_CERT).read_bytes())
        ca_cert = x509.load_pem_x509_certificate((folder / CA_CERT).read_bytes())
    except (OSError, ValueError):
        return False
    return (
        cert.not_valid_after_utc - (now or _now()) > RENEW_BEFORE
        and _served_by(cert) == (set(_names(names)), set(_addresses(addresses)))
        and _signed_by(cert, ca_cert)
        and _key_matches(cert, folder / SERVER_KEY)
    )


def ensure_server_certificate(names, addresses, now: datetime | None = None, days: int = SERVER_DAYS) -> tuple[Path, Path]:
    """The paths of the web server's certificate and key for ``names`` (DNS) and ``addresses``
    (IP), made again when it is not current (``server_certificate_is_current``)."""
    folder = ca_dir()
    if server_certificate_is_current(names, addresses, now):
        return folder / SERVER_CERT, folder / SERVER_KEY
    ca_cert, ca_key = ensure_ca(now)
    with _locked() as folder:
        if not server_certificate_is_current(names, addresses, now):
            _make_server_certificate(folder, ca_cert, ca_key, _names(names), _addresses(addresses), now or _now(), days)
    return folder / SERVER_CERT, folder / SERVER_KEY


def _make_server_certificate(folder: Path, ca_cert, ca_key, names: list[str], addresses: list, now: datetime, days: int) -> None:
    if not names and not addresses:
        raise ValueError("a server certificate needs a name or an address")
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, (names or [str(addresses[0])])[0][:64])])
    ca_ski = ca_cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE)
        .not_valid_after(min(now + timedelta(days=days), ca_cert.not_valid_after_utc))
        .add_extension(x509.SubjectAlternativeName([*(x509.DNSName(n) for n in names), *(x509.IPAddress(a) for a in addresses)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    _write(folder / SERVER_KEY, _key_pem(key), secret=True)
    _write(folder / SERVER_CERT, cert.public_bytes(serialization.Encoding.PEM), secret=False)


def mobileconfig() -> bytes:
    """An Apple configuration profile (iPhone, iPad, Mac) that installs the authority's
    certificate. Its identifiers follow from the certificate: the profile downloaded again is
    the same profile (it replaces itself), another authority's is another one."""
    der = ca_certificate_der()
    fingerprint = hashlib.sha256(der).hexdigest()
    common_name = ensure_ca()[0].subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value
    profile_uuid = str(uuid.uuid5(_PROFILE_NAMESPACE, f"profile:{fingerprint}")).upper()
    payload_uuid = str(uuid.uuid5(_PROFILE_NAMESPACE, f"root:{fingerprint}")).upper()
    profile = {
        "PayloadContent": [
            {
                "PayloadCertificateFileName": "tdmanager-room-ca.cer",
                "PayloadContent": der,
                "PayloadDescription": "The certificate authority of the room's TDManager.",
                "PayloadDisplayName": common_name,
                "PayloadIdentifier": f"com.apple.security.root.{payload_uuid}",
                "PayloadType": "com.apple.security.root",
                "PayloadUUID": payload_uuid,
                "PayloadVersion": 1,
            }
        ],
        "PayloadDescription": "Lets this device open the room's TDManager over HTTPS.",
        "PayloadDisplayName": common_name,
        "PayloadIdentifier": f"tdmanager.roomca.{fingerprint[:16]}",
        "PayloadOrganization": "TDManager",
        "PayloadRemovalDisallowed": False,
        "PayloadType": "Configuration",
        "PayloadUUID": profile_uuid,
        "PayloadVersion": 1,
    }
    return plistlib.dumps(profile, fmt=plistlib.FMT_XML)


# --- Backup and restore (tdmanager.backup carries the archive) -----------------------------------


def archive() -> bytes | None:
    """The whole folder as a gzipped tar (the keys with it), or None when there is no authority."""
    if not ca_exists():
        return None
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name in FILES:
            path = ca_dir() / name
            if path.is_file():
                tar.add(path, arcname=name, recursive=False)
    return buffer.getvalue()


def fingerprint_of(data: bytes) -> str:
    """The fingerprint of the authority in an archive (``archive``); ValueError: it is damaged."""
    files = _read_archive(data)
    return _colons(x509.load_pem_x509_certificate(files[CA_CERT]).public_bytes(serialization.Encoding.DER))


def _read_archive(data: bytes) -> dict[str, bytes]:
    """The archive's files by name: only the folder's own names, only plain files (never a path
    or a link out of it), and both of the authority's."""
    files = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            for member in tar.getmembers():
                if member.name in FILES and member.isfile():
                    files[member.name] = tar.extractfile(member).read()
    except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
        raise ValueError(f"the archive is damaged: {exc}") from exc
    if CA_KEY not in files or CA_CERT not in files:
        raise ValueError("the archive holds no certificate authority")
    return files


def restore_archive(data: bytes, stamp: str) -> Path | None:
    """The authority of an archive in place of the installation's. Another one there before is
    moved aside (``room-ca.before-restore-<stamp>``, returned): the devices that trust it may
    still be wanted. Keys are written readable by their owner alone, whatever the archive says."""
    files = _read_archive(data)
    folder = ca_dir()
    aside = None
    with _locked():
        if ca_exists() and (folder / CA_CERT).read_bytes() == files[CA_CERT] and (folder / CA_KEY).read_bytes() == files[CA_KEY]:
            aside = None
        elif any(folder.iterdir()):
            aside = folder.with_name(f"room-ca.before-restore-{stamp}")
            folder.rename(aside)
            folder.mkdir(mode=0o700)
        for name in FILES:
            if name in files:
                _write(folder / name, files[name], secret=name in SECRET_FILES)
            else:
                (folder / name).unlink(missing_ok=True)
    return aside
