"""The room's network as users see it: links that leave the screen name the room (never the desk's
loopback), the trust page with the room's certificate to install and a check, and the director's
count of staff browsers on the secure address.

The room's authority is made here with ``cryptography`` in a temporary data directory, where
``tdmanager.roomca`` reads it (``VAR_DIR / "room-ca"``).
"""

import plistlib
from datetime import UTC, datetime, timedelta

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from django.test import Client, RequestFactory

from tdmanager import links, policy, reached
from tdmanager.public import PUBLIC
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.phone.views import qr_svg

pytestmark = pytest.mark.django_db

ROOM = "https://tdm.sala:8443"
HOSTS = ["127.0.0.1", "localhost", "[::1]", "testserver", "tdm.sala", "192.168.1.20", "tdm.example.org"]


def make_ca(var_dir) -> x509.Certificate:
    """A room authority as ``serve --lan`` leaves it: ``ca.key`` (0600) and ``ca.crt``, PEM."""
    folder = var_dir / "room-ca"
    folder.mkdir(parents=True)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "TDManager sala di prova")])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=1))
        .not_valid_after(now + timedelta(days=825))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(key, hashes.SHA256())
    )
    (folder / "ca.key").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    (folder / "ca.key").chmod(0o600)
    (folder / "ca.crt").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert


@pytest.fixture
def room(settings, tmp_path):
    """The room's network served securely: its authority made, ``TDM_LAN``, its address."""
    settings.VAR_DIR = tmp_path
    settings.TDM_LAN, settings.TDM_ROOM_NAMES, settings.TDM_ROOM_URL, settings.TDM_PUBLIC_URL = True, ["tdm.sala"], ROOM, ""
    settings.ALLOWED_HOSTS = HOSTS
    return make_ca(tmp_path)


@pytest.fixture
def no_room(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    settings.TDM_LAN, settings.TDM_ROOM_NAMES, settings.TDM_ROOM_URL, settings.TDM_PUBLIC_URL = False, [], "", ""
    settings.ALLOWED_HOSTS = HOSTS


def request_to(host: str, secure: bool = False):
    return RequestFactory().get("/", HTTP_HOST=host, secure=secure)


# --- links ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("127.0.0.1:8000", True),
        ("localhost", True),
        ("LOCALHOST:8000", True),
        ("desk.localhost", True),
        ("[::1]:8000", True),
        ("::1", True),
        ("127.3.4.5", True),
        ("0.0.0.0:8000", True),
        ("", True),
        ("tdm.sala:8443", False),
        ("192.168.1.20:8000", False),
        ("[fe80::1]", False),
        ("localhost.example.com", False),
    ],
)
def test_loopback_is_the_machine_itself(host, loopback):
    assert links.is_loopback(host) is loopback


def test_players_links_prefer_the_public_address_then_the_room_then_the_request(no_room, settings):
    desk = request_to("127.0.0.1:8000")
    assert links.player_url(desk, "/p/abc/") == "http://127.0.0.1:8000/p/abc/"
    assert not links.players_reach(desk) and "127.0.0.1" in links.warning_for(desk)
    lan = request_to("192.168.1.20:8000")
    assert links.player_url(lan, "/p/abc/") == "http://192.168.1.20:8000/p/abc/" and links.warning_for(lan) == ""
    settings.TDM_ROOM_URL = ROOM
    assert links.player_url(desk, "/p/abc/") == f"{ROOM}/p/abc/" and links.warning_for(desk) == ""
    settings.TDM_PUBLIC_URL = "https://torneo.example.org"
    assert links.player_url(desk, "p/abc/") == "https://torneo.example.org/p/abc/"
    assert links.staff_url(desk, "/display/x/") == f"{ROOM}/display/x/"  # the staff stay on the room's address


def test_staff_links_use_the_room_else_the_request(no_room, settings):
    assert links.staff_url(request_to("127.0.0.1:8000"), "/trust/") == "http://127.0.0.1:8000/trust/"
    assert links.room_url(request_to("127.0.0.1:8000")) == ""
    behind_a_proxy = request_to("tdm.example.org", secure=True)
    assert links.room_url(behind_a_proxy) == "https://tdm.example.org"
    assert links.room_url(request_to("localhost", secure=True)) == ""  # this computer's own is nobody else's
    settings.TDM_ROOM_URL = ROOM
    assert links.staff_url(request_to("127.0.0.1:8000"), "/trust/") == f"{ROOM}/trust/"


def test_a_public_address_on_the_loopback_still_warns(no_room, settings):
    settings.TDM_PUBLIC_URL = "http://localhost:8000"
    assert links.warning_for(request_to("tdm.sala")) != ""


# --- the receipt, the desk, the phone page's QR code --------------------------------------------


def receipt_of(cashier_user, row, host):
    client = Client(HTTP_HOST=host)
    client.force_login(cashier_user)
    return client.get(f"/desk/receipt/{row.receipt_number}/").content.decode()


def test_the_receipts_qr_code_names_the_room_never_the_desks_loopback(no_room, settings, tournament, make_person, cashier_actor, cashier_user):
    sale = cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor)
    token = sale.entry.phone_token
    qr = f"/p/{token}/qr.svg"

    page = receipt_of(cashier_user, sale.row, "127.0.0.1:8000")
    assert f"http://127.0.0.1:8000/p/{token}/" in page
    assert 'id="receipt-link-warning"' in page and "127.0.0.1" in page.split('id="receipt-link-warning"')[1].split("</p>")[0]
    assert Client(HTTP_HOST="127.0.0.1:8000").get(qr).content == qr_svg(f"http://127.0.0.1:8000/p/{token}/")

    settings.TDM_ROOM_URL = ROOM
    page = receipt_of(cashier_user, sale.row, "127.0.0.1:8000")
    assert f"{ROOM}/p/{token}/" in page and "receipt-link-warning" not in page
    assert Client(HTTP_HOST="127.0.0.1:8000").get(qr).content == qr_svg(f"{ROOM}/p/{token}/")

    settings.TDM_PUBLIC_URL = "https://torneo.example.org"
    page = receipt_of(cashier_user, sale.row, "tdm.sala:8443")
    assert f"https://torneo.example.org/p/{token}/" in page and ROOM not in page
    assert Client(HTTP_HOST="tdm.sala:8443").get(qr).content == qr_svg(f"https://torneo.example.org/p/{token}/")
    pdf = Client(HTTP_HOST="127.0.0.1:8000")
    pdf.force_login(cashier_user)
    assert pdf.get(f"/desk/receipt/{sale.row.receipt_number}.pdf").status_code == 200


def test_the_desk_tells_the_cashier_when_receipts_would_name_this_computer(no_room, settings, cashier_user):
    client = Client(HTTP_HOST="127.0.0.1:8000")
    client.force_login(cashier_user)
    page = client.get("/desk/").content.decode()
    assert 'id="desk-link-warning"' in page and "./tdm run --lan" in page
    on_the_wifi = Client(HTTP_HOST="192.168.1.20:8000")
    on_the_wifi.force_login(cashier_user)
    assert "desk-link-warning" not in on_the_wifi.get("/desk/").content.decode()
    settings.TDM_ROOM_URL = ROOM
    assert "desk-link-warning" not in client.get("/desk/").content.decode()


def test_the_warning_is_in_italian_for_an_italian_desk(no_room, cashier_user):
    client = Client(HTTP_HOST="127.0.0.1:8000", HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(cashier_user)
    page = client.get("/desk/").content.decode()
    warning = page.split('id="desk-link-warning"')[1].split("</p>")[0]
    assert "telefono" in warning and "127.0.0.1" in warning


def test_a_lobby_screens_address_is_written_whole_on_the_rooms_address(no_room, settings, director):
    from tournaments.models import DisplayScreen

    DisplayScreen.objects.create(name="Sala", token="screen-token-1")
    client = Client(HTTP_HOST="127.0.0.1:8000")
    client.force_login(director)
    assert "http://127.0.0.1:8000/display/screen-token-1/" in client.get("/displays/").content.decode()
    settings.TDM_ROOM_URL = ROOM
    assert f"{ROOM}/display/screen-token-1/" in client.get("/displays/").content.decode()


# --- the trust page ---------------------------------------------------------------------------


def test_the_trust_page_offers_the_certificate_its_fingerprint_a_qr_code_and_the_steps(room):
    page = Client(HTTP_HOST="tdm.sala:8000").get("/trust/")
    assert page.status_code == 200
    html = page.content.decode()
    fingerprint = room.fingerprint(hashes.SHA256()).hex(":").upper()
    assert fingerprint in html and "TDManager sala di prova" in html
    assert 'href="/trust/room-ca.crt"' in html and 'href="/trust/room-ca.mobileconfig"' in html
    assert f"{ROOM}/trust/" in html and 'src="data:image/svg+xml' in html
    for system in ("Android", "iPhone, iPad", "Windows", "macOS"):
        assert f"<h3>{system}</h3>" in html
    assert "Keychain Access" in html and "Trusted Root Certification Authorities" in html
    assert f'data-check="{ROOM}/trust/check"' in html
    assert "connect-src 'self' https://tdm.sala:8443" in page["Content-Security-Policy"]
    assert "<script>" not in html and "onclick" not in html


def test_the_trust_page_speaks_italian(room):
    html = Client(HTTP_HOST="tdm.sala:8000", HTTP_ACCEPT_LANGUAGE="it").get("/trust/").content.decode()
    assert 'lang="it"' in html
    assert "Scarica il certificato" in html and "impronta" in html.lower() and "Controlla questo dispositivo" in html
    assert "Download the certificate" not in html


def test_the_certificate_and_the_apple_profile_download_with_their_types(room):
    crt = Client(HTTP_HOST="tdm.sala:8000").get("/trust/room-ca.crt")
    assert crt.status_code == 200 and crt["Content-Type"] == "application/x-x509-ca-cert"
    assert 'filename="room-ca.crt"' in crt["Content-Disposition"]
    assert x509.load_der_x509_certificate(crt.content) == room
    profile = Client().get("/trust/room-ca.mobileconfig")
    assert profile.status_code == 200 and profile["Content-Type"] == "application/x-apple-aspen-config"
    assert 'filename="room-ca.mobileconfig"' in profile["Content-Disposition"]
    carried = plistlib.loads(profile.content)
    assert carried["PayloadType"] == "Configuration"
    (root,) = [p for p in carried["PayloadContent"] if p["PayloadType"] == "com.apple.security.root"]
    assert x509.load_der_x509_certificate(root["PayloadContent"]) == room
    assert b"PRIVATE KEY" not in crt.content + profile.content  # the key is never served


def test_without_the_rooms_network_the_page_says_how_to_start_it_and_offers_nothing(no_room):
    html = Client().get("/trust/").content.decode()
    assert "not serving the room's network securely" in html and "./tdm run --lan --name" in html
    assert "room-ca.crt" not in html and "room-ca.mobileconfig" not in html and "data:image/svg" not in html
    assert Client().get("/trust/room-ca.crt").status_code == 404
    assert Client().get("/trust/room-ca.mobileconfig").status_code == 404
    italian = Client(HTTP_ACCEPT_LANGUAGE="it").get("/trust/").content.decode()
    assert "./tdm run --lan --name" in italian and "not serving" not in italian


def test_an_authority_left_from_an_earlier_evening_is_not_offered_while_the_room_is_not_served(no_room, tmp_path):
    make_ca(tmp_path)
    html = Client().get("/trust/").content.decode()
    assert "room-ca.crt" not in html and "./tdm run --lan" in html


def test_the_check_answers_the_trust_pages_origin(room):
    client = Client(HTTP_HOST="tdm.sala:8443")
    plain = client.get("/trust/check", HTTP_ORIGIN="http://tdm.sala:8000", secure=True)
    assert plain.status_code == 200 and plain.json() == {"secure": True, "room": ROOM}
    assert plain["Access-Control-Allow-Origin"] == "http://tdm.sala:8000" and "Origin" in plain["Vary"]
    assert "no-store" in plain["Cache-Control"]
    by_address = client.get("/trust/check", HTTP_ORIGIN="http://192.168.1.20:8000", secure=True)
    assert by_address["Access-Control-Allow-Origin"] == "http://192.168.1.20:8000"
    elsewhere = client.get("/trust/check", HTTP_ORIGIN="https://evil.example", secure=True)
    assert elsewhere.status_code == 200 and "Access-Control-Allow-Origin" not in elsewhere


def test_the_trust_routes_need_no_login_and_are_bounded_as_public(room):
    for name in ("trust", "trust-ca", "trust-profile", "trust-check"):
        assert policy.is_public(name, "GET") and set(policy.POLICY[name]) == {"GET"}
        assert PUBLIC[name].limited
    anonymous = Client(HTTP_HOST="tdm.sala:8000")
    for path in ("/trust/", "/trust/room-ca.crt", "/trust/room-ca.mobileconfig", "/trust/check"):
        assert anonymous.get(path).status_code == 200, path
    assert anonymous.post("/trust/").status_code in (302, 403, 405)  # refused: read only


# --- what the pages say a device can do -------------------------------------------------------


def test_the_floor_pages_carry_the_notice_of_where_offline_mode_works(no_room, settings, floor_user, tournament):
    client = Client(HTTP_HOST="tdm.sala:8000")
    client.force_login(floor_user)
    html = client.get(f"/tournaments/{tournament.pk}/tables/").content.decode()
    notice = html.split('id="floor-offline-unable"')[1].split("</div>")[0]
    assert "needs a secure (https) address: ask the director" in notice
    settings.TDM_ROOM_URL = ROOM
    html = client.get(f"/tournaments/{tournament.pk}/tables/").content.decode()
    notice = html.split('id="floor-offline-unable"')[1].split("</div>")[0]
    assert f'href="{ROOM}/tournaments/{tournament.pk}/tables/"' in notice and 'href="/trust/"' in notice
    assert "Offline mode needs the secure address" in notice


def test_the_phone_page_gives_the_public_secure_address_for_its_notices(no_room, settings, tournament, make_person, cashier_actor):
    token = cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor).entry.phone_token
    assert "push-secure" not in Client(HTTP_HOST="tdm.sala:8000").get(f"/p/{token}/").content.decode()
    settings.TDM_ROOM_URL = ROOM  # the room's own certificate: a player's phone does not trust it
    assert "push-secure" not in Client(HTTP_HOST="tdm.sala:8000").get(f"/p/{token}/").content.decode()
    settings.TDM_PUBLIC_URL = "https://torneo.example.org"
    html = Client(HTTP_HOST="tdm.sala:8000").get(f"/p/{token}/").content.decode()
    assert f'href="https://torneo.example.org/p/{token}/"' in html


def test_the_director_sees_the_rooms_address_and_the_browsers_that_reached_it(room, director, floor_user):
    reached.forget()
    for user in (director, floor_user):  # each logged in on the secure address: counted at its first page
        tablet = Client(HTTP_HOST="tdm.sala:8443")
        tablet.force_login(user)
        tablet.get("/", secure=True)
    plain = Client(HTTP_HOST="tdm.sala:8000")
    plain.force_login(make_user("cassa", "cashier"))
    plain.get("/desk/")  # over plain HTTP: not counted
    boss = Client(HTTP_HOST="tdm.sala:8443")
    boss.force_login(director)
    html = boss.get("/", secure=True).content.decode()
    line = html.split('id="room-address"')[1].split("</p>")[0]
    assert f'href="{ROOM}"' in line and "3 staff browsers reached it" in line and 'href="/trust/"' in line
    assert reached.count() == 3
    floor = Client(HTTP_HOST="tdm.sala:8443")
    floor.force_login(floor_user)
    assert "room-address" not in floor.get("/", secure=True).content.decode()  # the director's alone


def test_the_count_forgets_a_browser_after_a_day(room):
    reached.forget()
    reached.seen("a", now=1000.0)
    reached.seen("b", now=1000.0 + reached.WINDOW - 10)
    assert reached.count(now=1000.0 + reached.WINDOW + 1) == 1


def test_without_a_secure_address_the_director_is_told_how_to_start_it(no_room, director):
    client = Client()
    client.force_login(director)
    line = client.get("/").content.decode().split('id="room-address"')[1].split("</p>")[0]
    assert "does not serve the room's network securely" in line and 'href="/trust/"' in line
