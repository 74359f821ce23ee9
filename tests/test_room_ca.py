"""The room's own certificate authority (``tdmanager.roomca``): made once and kept, the web
server's certificate it signs (names, addresses, purpose, lifetime, made again when due and only
then), its keys' modes, and the profile an Apple device installs it from."""

import ipaddress
import os
import plistlib
import stat
import subprocess
import sys
from datetime import timedelta

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.x509.oid import ExtendedKeyUsageOID

from tdmanager import roomca
from tests.servers import ROOT

NAMES = ["tdm.sala", "vm", "vm.local", "localhost"]
ADDRESSES = ["192.168.1.10", "127.0.0.1", "::1"]


@pytest.fixture(autouse=True)
def var(settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"
    return settings.VAR_DIR


def served():
    return x509.load_pem_x509_certificate((roomca.ca_dir() / roomca.SERVER_CERT).read_bytes())


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_authority_is_made_once_and_kept_across_calls_and_processes(var):
    assert not roomca.ca_exists()
    cert, _key = roomca.ensure_ca()
    first = roomca.ca_fingerprint()
    assert roomca.ca_exists() and roomca.ensure_ca()[0] == cert and roomca.ca_fingerprint() == first
    assert len(first) == 95 and all(len(pair) == 2 and pair == pair.upper() for pair in first.split(":"))
    # A process started afterwards (the launcher again, a web process) finds the same authority.
    env = {**os.environ, "TDM_VAR_DIR": str(var), "DJANGO_SETTINGS_MODULE": "tdmanager.settings"}
    script = "import django; django.setup(); from tdmanager import roomca; print(roomca.ca_fingerprint())"
    again = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=120)
    assert again.stdout.strip() == first


def test_the_authority_signs_certificates_and_nothing_else_below_it():
    cert, key = roomca.ensure_ca()
    assert cert.subject == cert.issuer and cert.subject.rfc4514_string().startswith("O=TDManager,CN=TDManager room CA ")
    cert.verify_directly_issued_by(cert)
    constraints = cert.extensions.get_extension_for_class(x509.BasicConstraints)
    assert constraints.critical and constraints.value.ca and constraints.value.path_length == 0
    usage = cert.extensions.get_extension_for_class(x509.KeyUsage)
    assert usage.critical and usage.value.key_cert_sign and usage.value.crl_sign and not usage.value.digital_signature
    assert timedelta(days=3640) < cert.not_valid_after_utc - cert.not_valid_before_utc <= timedelta(days=3651)
    assert key.public_key().public_numbers() == cert.public_key().public_numbers()
    assert b"PRIVATE KEY" not in roomca.ca_certificate_pem() and roomca.ca_certificate_pem().startswith(b"-----BEGIN CERTIFICATE-----")


def test_the_keys_are_their_owners_alone_whatever_the_umask():
    old = os.umask(0)
    try:
        roomca.ensure_server_certificate(NAMES, ADDRESSES)
    finally:
        os.umask(old)
    folder = roomca.ca_dir()
    assert mode(folder) == 0o700
    assert mode(folder / roomca.CA_KEY) == 0o600 and mode(folder / roomca.SERVER_KEY) == 0o600
    assert mode(folder / roomca.CA_CERT) == 0o644 and mode(folder / roomca.SERVER_CERT) == 0o644
    assert sorted(p.name for p in folder.iterdir()) == sorted(roomca.FILES)  # no draft left behind


def test_the_server_certificate_carries_every_name_and_address_for_serving_only():
    cert_path, key_path = roomca.ensure_server_certificate([*NAMES, "TDM.Sala"], ADDRESSES)
    assert (cert_path.name, key_path.name) == (roomca.SERVER_CERT, roomca.SERVER_KEY)
    cert = served()
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert san.get_values_for_type(x509.DNSName) == NAMES
    assert san.get_values_for_type(x509.IPAddress) == [ipaddress.ip_address(a) for a in ADDRESSES]
    assert cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value == x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH])
    usage = cert.extensions.get_extension_for_class(x509.KeyUsage).value
    assert usage.digital_signature and not usage.key_cert_sign
    assert not cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert cert.not_valid_after_utc - cert.not_valid_before_utc <= timedelta(days=397)
    cert.verify_directly_issued_by(roomca.ensure_ca()[0])
    key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    assert key.public_key().public_numbers() == cert.public_key().public_numbers()


def test_the_server_certificate_is_kept_until_it_is_due():
    roomca.ensure_server_certificate(NAMES, ADDRESSES)
    first = served()
    # The same names, in another order and case: the same certificate.
    roomca.ensure_server_certificate([n.upper() for n in reversed(NAMES)], list(reversed(ADDRESSES)))
    assert served().serial_number == first.serial_number
    end = first.not_valid_after_utc
    roomca.ensure_server_certificate(NAMES, ADDRESSES, now=end - timedelta(days=31))
    assert served().serial_number == first.serial_number
    # Within 30 days of its end: made again, for as long as a new one.
    roomca.ensure_server_certificate(NAMES, ADDRESSES, now=end - timedelta(days=29))
    renewed = served()
    assert renewed.serial_number != first.serial_number and renewed.not_valid_after_utc > end + timedelta(days=100)
    assert roomca.server_certificate_is_current(NAMES, ADDRESSES)


@pytest.mark.parametrize(
    "names, addresses",
    [([*NAMES, "tdm2.sala"], ADDRESSES), (NAMES[1:], ADDRESSES), (NAMES, [*ADDRESSES, "10.0.0.7"]), (NAMES, ADDRESSES[:1])],
    ids=["a name more", "a name less", "an address more", "addresses less"],
)
def test_the_server_certificate_is_made_again_when_the_names_change(names, addresses):
    roomca.ensure_server_certificate(NAMES, ADDRESSES)
    first = served()
    assert not roomca.server_certificate_is_current(names, addresses)
    roomca.ensure_server_certificate(names, addresses)
    assert served().serial_number != first.serial_number
    assert roomca.server_certificate_is_current(names, addresses)


def test_a_certificate_of_another_authority_is_made_again():
    roomca.ensure_server_certificate(NAMES, ADDRESSES)
    first_ca = roomca.ca_fingerprint()
    for name in (roomca.CA_KEY, roomca.CA_CERT):
        (roomca.ca_dir() / name).unlink()
    roomca.ensure_ca()  # another authority (a restore, a folder emptied by hand)
    assert roomca.ca_fingerprint() != first_ca and not roomca.server_certificate_is_current(NAMES, ADDRESSES)
    roomca.ensure_server_certificate(NAMES, ADDRESSES)
    served().verify_directly_issued_by(roomca.ensure_ca()[0])


def test_the_apple_profile_installs_the_authority_and_is_the_same_profile_each_time(var, tmp_path, settings):
    profile = plistlib.loads(roomca.mobileconfig())
    assert profile["PayloadType"] == "Configuration" and profile["PayloadVersion"] == 1
    (root,) = profile["PayloadContent"]
    assert root["PayloadType"] == "com.apple.security.root"
    assert root["PayloadContent"] == roomca.ensure_ca()[0].public_bytes(serialization.Encoding.DER)
    assert plistlib.loads(roomca.mobileconfig()) == profile  # downloaded again, it replaces itself
    assert roomca.mobileconfig().startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    uuids = {profile["PayloadUUID"], root["PayloadUUID"]}
    settings.VAR_DIR = tmp_path / "another"
    other = plistlib.loads(roomca.mobileconfig())
    assert {other["PayloadUUID"], other["PayloadContent"][0]["PayloadUUID"]}.isdisjoint(uuids)
    assert other["PayloadIdentifier"] != profile["PayloadIdentifier"]
