"""``./tdm run --lan`` (``manage.py serve --lan``): the room's network over HTTPS with the
installation's own authority. The settings that follow from the launcher's environment, the
plain port that answers the trust page and sends the rest to HTTPS, the names and addresses the
launcher finds, and a real launcher answering with the room's certificate and renewing it."""

import json
import os
import socket
import ssl
import subprocess
import sys
from datetime import timedelta

import httpx
import pytest
from cryptography import x509
from django.core.management.base import CommandError

from tdmanager import lan, roomca
from tdmanager.management.commands.serve import Room
from tests.servers import ROOT, START_DEADLINE, database_env, free_port, start_listening, wait_for

SETTINGS = (
    "TDM_LAN",
    "TDM_ROOM_NAMES",
    "TDM_ROOM_URL",
    "TDM_HTTPS_PORT",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
)
LAN_ENV = (
    "TDM_LAN",
    "TDM_ROOM_NAMES",
    "TDM_ROOM_ADDRESSES",
    "TDM_HTTPS_PORT",
    "TDM_ROOM_URL",
    "TDM_PUBLIC_URL",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SECURE_HSTS_SECONDS",
)


def settings_under(**env) -> dict:
    """The settings a process started with ``env`` reads (a fresh interpreter: settings are read once)."""
    clean = {k: v for k, v in os.environ.items() if k not in LAN_ENV and not k.endswith("_COOKIE_SECURE")}
    script = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        f"print(json.dumps({{k: getattr(s, k) for k in {SETTINGS!r}}} | {{'lan_middleware': 'tdmanager.lan.PlainPortMiddleware' in s.MIDDLEWARE}}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "tdmanager.settings", **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout)


def test_the_room_network_settings_follow_from_the_launchers_environment():
    s = settings_under(TDM_LAN="1", TDM_ROOM_NAMES="tdm.sala,VM,vm.local,localhost", TDM_ROOM_ADDRESSES="192.168.1.10,::1", TDM_HTTPS_PORT="9443")
    assert s["TDM_LAN"] is True and s["TDM_ROOM_NAMES"] == ["tdm.sala", "vm", "vm.local", "localhost"]
    assert s["TDM_ROOM_URL"] == "https://tdm.sala:9443" and s["TDM_HTTPS_PORT"] == 9443
    assert {"tdm.sala", "vm", "vm.local", "localhost", "192.168.1.10", "[::1]", "127.0.0.1"} <= set(s["ALLOWED_HOSTS"])
    assert {"https://tdm.sala:9443", "https://vm.local:9443", "https://192.168.1.10:9443", "https://[::1]:9443"} <= set(s["CSRF_TRUSTED_ORIGINS"])
    assert s["SESSION_COOKIE_SECURE"] and s["CSRF_COOKIE_SECURE"]
    assert s["SECURE_HSTS_SECONDS"] == 86400 and not s["SECURE_HSTS_INCLUDE_SUBDOMAINS"] and not s["SECURE_HSTS_PRELOAD"]
    assert s["lan_middleware"]

    # The standard HTTPS port is left out of the addresses; an explicit address wins.
    s = settings_under(TDM_LAN="1", TDM_ROOM_NAMES="tdm.sala", TDM_HTTPS_PORT="443", TDM_ROOM_URL="https://tdm.example.com/")
    assert s["TDM_ROOM_URL"] == "https://tdm.example.com" and "https://tdm.sala" in s["CSRF_TRUSTED_ORIGINS"]
    # The players' public name, its proxy in front of the HTTPS port, is a name the room is reached by.
    s = settings_under(TDM_LAN="1", TDM_ROOM_NAMES="tdm.sala", TDM_PUBLIC_URL="https://Poker.Example.com/")
    assert "poker.example.com" in s["ALLOWED_HOSTS"] and "https://poker.example.com" in s["CSRF_TRUSTED_ORIGINS"]


def test_the_room_network_passes_the_deploy_check():
    env = {k: v for k, v in os.environ.items() if k not in (*LAN_ENV, "DEBUG") and not k.startswith("PYTEST")}
    env.update(
        TDM_LAN="1", TDM_ROOM_NAMES="tdm.sala,localhost", TDM_ROOM_ADDRESSES="192.168.1.10", SECRET_KEY="a-long-random-secret-for-the-deploy-check-" + "x" * 40
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_off_the_room_network_nothing_changes():
    s = settings_under(TDM_ROOM_NAMES="tdm.sala")
    assert s["TDM_LAN"] is False and s["TDM_ROOM_URL"] == ""
    assert s["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost", "[::1]"] and s["CSRF_TRUSTED_ORIGINS"] == []
    assert not s["SESSION_COOKIE_SECURE"] and s["SECURE_HSTS_SECONDS"] == 0


@pytest.fixture
def on_the_room_network(settings):
    settings.TDM_LAN = True
    settings.TDM_HTTPS_PORT = 8443
    settings.ALLOWED_HOSTS = ["tdm.sala", "192.168.1.10", "[::1]"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "host, location",
    [
        ("tdm.sala:8000", "https://tdm.sala:8443/login/?next=/x%2F"),
        ("192.168.1.10:8000", "https://192.168.1.10:8443/login/?next=/x%2F"),
        ("[::1]:8000", "https://[::1]:8443/login/?next=/x%2F"),
    ],
)
def test_the_plain_port_sends_a_page_to_the_same_name_over_https(on_the_room_network, client, host, location):
    answer = client.get("/login/?next=/x%2F", HTTP_HOST=host)
    assert answer.status_code == 302 and answer["Location"] == location
    # A form sent there goes on as itself (method and body), not as a GET.
    answer = client.post("/login/", {"username": "x"}, HTTP_HOST=host)
    assert answer.status_code == 307 and answer["Location"] == location.split("?")[0]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/trust/", "/trust", "/trust/ca.crt", "/static/tdm.css", "/favicon.ico", "/healthz"])
def test_the_plain_port_answers_the_trust_page_itself(on_the_room_network, client, path):
    answer = client.get(path, HTTP_HOST="tdm.sala:8000")
    if path == "/trust":  # only its slash added, on the plain port: never sent to the secure one
        assert answer.status_code == 301 and answer["Location"] == "/trust/"
        return
    assert answer.status_code not in (301, 302, 307, 308), answer.get("Location")


@pytest.mark.django_db
def test_the_https_port_and_a_host_not_served_are_not_redirected(on_the_room_network, client):
    assert client.get("/login/", HTTP_HOST="tdm.sala:8443", secure=True).status_code == 200
    assert client.get("/login/", HTTP_HOST="evil.example:8000").status_code == 400  # never a redirect to a name not served


@pytest.mark.django_db
def test_off_the_room_network_the_plain_port_serves_everything(client):
    assert client.get("/login/").status_code == 200


def test_the_launcher_finds_the_rooms_names_and_addresses(monkeypatch):
    monkeypatch.setattr(socket, "gethostname", lambda: "Box.example.org")
    room = Room(["tdm.sala", "TDM.Sala.", "192.168.1.20"], "127.0.0.1", 8000, 8443)
    assert room.names == ["tdm.sala", "box.example.org", "box.local", "localhost"]
    assert room.addresses == ["192.168.1.20", "127.0.0.1"]
    assert room.url() == "https://tdm.sala:8443"
    assert room.env() == {
        "TDM_LAN": "1",
        "TDM_ROOM_NAMES": "tdm.sala,box.example.org,box.local,localhost",
        "TDM_ROOM_ADDRESSES": "192.168.1.20,127.0.0.1",
        "TDM_PORT": "8000",
        "TDM_HTTPS_PORT": "8443",
    }
    for bad in ("tdm_sala", "-tdm", "tdm sala", "a" * 64 + ".sala"):
        with pytest.raises(CommandError, match="neither a host name"):
            Room([bad], "127.0.0.1", 8000, 8443)


def test_every_interface_is_served_by_every_address_found():
    v4 = lan.served_addresses("0.0.0.0")
    assert "127.0.0.1" in v4 and all(":" not in a for a in v4)
    both = lan.served_addresses("::")
    assert {"127.0.0.1", "::1"} <= set(both) and not any(a.lower().startswith("fe80") for a in both)
    assert lan.served_addresses("192.168.1.10") == ["192.168.1.10"] and lan.served_addresses("[::1]") == ["::1"]


# --- A real launcher ----------------------------------------------------------------------------


def served_certificate(port: int, name: str, ca_file, tls_version=None) -> x509.Certificate:
    """The certificate the server on ``port`` shows for ``name``, checked against the room's
    authority alone (ssl.SSLCertVerificationError when it does not hold)."""
    context = ssl.create_default_context(cafile=str(ca_file))
    if tls_version:
        context.maximum_version = tls_version
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw, context.wrap_socket(raw, server_hostname=name) as tls:
        return x509.load_der_x509_certificate(tls.getpeercert(binary_form=True))


def https_get(port: int, name: str, ca_file, path: str) -> bytes:
    context = ssl.create_default_context(cafile=str(ca_file))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw, context.wrap_socket(raw, server_hostname=name) as tls:
        tls.sendall(f"GET {path} HTTP/1.1\r\nHost: {name}:{port}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := tls.recv(65536):
            answer += chunk
        return answer


def _handshakes(port, name, ca_file) -> bool:
    try:
        served_certificate(port, name, ca_file)
        return True
    except (OSError, ssl.SSLError):
        return False


@pytest.mark.processes
@pytest.mark.django_db(transaction=True)
def _accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def test_a_room_launcher_serves_https_with_the_rooms_authority_and_renews_its_certificate(tmp_path, settings):
    var = tmp_path / "var"
    env = {k: v for k, v in database_env().items() if k not in LAN_ENV}
    env.update(TDM_VAR_DIR=str(var), TDM_STATIC_ROOT=str(settings.STATIC_ROOT), TDM_ROOM_CERT_CHECK_SECONDS="1")
    settings.VAR_DIR = var  # this process reads the same folder (roomca)
    ca_file = var / "room-ca" / "ca.crt"
    ports = {}
    log_path = tmp_path / "serve.log"

    def start(port):
        ports["plain"], ports["https"] = port, free_port()
        with open(log_path, "w") as log:
            return subprocess.Popen(
                [
                    sys.executable,
                    "manage.py",
                    "serve",
                    "--lan",
                    "--name",
                    "tdm.sala",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--https-port",
                    str(ports["https"]),
                    "--no-worker",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    # ready when both doors are: the HTTPS one shakes hands, the plain one (its redirect) accepts
    ready = lambda proc, port: ca_file.exists() and _handshakes(ports["https"], "tdm.sala", ca_file) and _accepts(ports["plain"])  # noqa: E731
    proc = start_listening(start, "the room's web server", ready)
    try:
        plain, secure = ports["plain"], ports["https"]
        cert = served_certificate(secure, "tdm.sala", ca_file)
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        names = san.get_values_for_type(x509.DNSName)
        assert names[0] == "tdm.sala" and {"localhost", f"{socket.gethostname().lower()}"} <= set(names)
        assert [str(a) for a in san.get_values_for_type(x509.IPAddress)] == ["127.0.0.1"]
        served_certificate(secure, "localhost", ca_file)
        served_certificate(secure, "tdm.sala", ca_file, tls_version=ssl.TLSVersion.TLSv1_2)  # an older tablet's
        with pytest.raises(ssl.SSLCertVerificationError):  # a name it does not carry
            served_certificate(secure, "other.sala", ca_file)
        with pytest.raises(ssl.SSLCertVerificationError):  # nobody else's authority vouches for it
            with socket.create_connection(("127.0.0.1", secure), timeout=10) as raw, ssl.create_default_context().wrap_socket(raw, server_hostname="tdm.sala"):
                pass
        page = https_get(secure, "tdm.sala", ca_file, "/login/")
        assert page.startswith(b"HTTP/1.1 200") and b"strict-transport-security: max-age=86400" in page.lower()

        redirect = httpx.get(f"http://127.0.0.1:{plain}/?a=1", headers={"Host": f"tdm.sala:{plain}"}, timeout=10)
        assert redirect.status_code == 302 and redirect.headers["location"] == f"https://tdm.sala:{secure}/?a=1"
        trust = httpx.get(f"http://127.0.0.1:{plain}/trust/", headers={"Host": f"tdm.sala:{plain}"}, timeout=10)
        assert trust.status_code not in (301, 302, 307, 308)

        # A certificate near its end (a launcher left running for months): the launcher's next look
        # makes a new one and the web server serves it, the authority unchanged.
        fingerprint = roomca.ca_fingerprint()
        (var / "room-ca" / roomca.SERVER_CERT).unlink()
        roomca.ensure_server_certificate(names, ["127.0.0.1"], days=10)
        short = x509.load_pem_x509_certificate((var / "room-ca" / roomca.SERVER_CERT).read_bytes())

        def renewed():
            try:
                now = served_certificate(secure, "tdm.sala", ca_file)
            except (OSError, ssl.SSLError):  # the web server restarting
                return False
            return now.serial_number not in (cert.serial_number, short.serial_number)

        wait_for(renewed, START_DEADLINE, "the renewed certificate", proc=proc)
        now = served_certificate(secure, "tdm.sala", ca_file)
        assert now.not_valid_after_utc - now.not_valid_before_utc > timedelta(days=100) and roomca.ca_fingerprint() == fingerprint
        wait_for(lambda: _plain_answers(plain), START_DEADLINE, "the plain port again", proc=proc)
        assert "the server's certificate was made again" in log_path.read_text()
    finally:
        proc.terminate()
        proc.wait(60)
    out = log_path.read_text()
    assert out.rstrip().endswith("stopped") and "Traceback" not in out, out[-3000:]
    assert f"TDManager is running at https://tdm.sala:{secure}/" in out and roomca.ca_fingerprint() in out


def _plain_answers(port) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/", headers={"Host": f"tdm.sala:{port}"}, timeout=2).status_code == 302
    except httpx.HTTPError:
        return False
