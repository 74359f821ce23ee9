"""A floor tablet on the room's network, as a room sets it up: ``manage.py serve --lan --name
tdm.sala`` (the real launcher, its own authority and certificate), a Chromium that resolves
``tdm.sala`` to it (``--host-resolver-rules``) and trusts the room's authority the way a tablet
does once the trust page's certificate is installed: in its certificate store (an NSS database
under its own home, written with ``certutil``). Nothing tells this Chromium to ignore certificate
errors: the page is secure because the room's certificate holds.

Over that address the table map gets the floor's service worker, and reloaded without network it
is drawn from the tablet's copy. The same Chromium without the authority installed cannot open the
page at all, which is what the trust page is for. (Plain HTTP on the room's name says why there is
no offline app: ``test_lan_pages_browser``.)
"""

import os
import shutil
import subprocess
import sys

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser import ARGS, chromium_path, login, new_page
from tests.conftest import make_user
from tests.seating.test_floor_offline_browser import until
from tests.seating.test_support import arrange, started  # noqa: F401 (fixture)
from tests.servers import ROOT, database_env, free_port, start_listening, stop
from tests.test_serve_lan import LAN_ENV, _handshakes

SERVED_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
pytestmark = [
    pytest.mark.browser,
    pytest.mark.processes,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(shutil.which("certutil") is None, reason="certutil (Debian's libnss3-tools) writes the tablet's certificate store"),
]


@pytest.fixture
def room(tmp_path, settings):
    """The room's launcher on 127.0.0.1 (web only): its HTTPS port and its authority's file."""
    var = tmp_path / "var"
    env = {k: v for k, v in database_env().items() if k not in LAN_ENV}
    env.update(TDM_VAR_DIR=str(var), TDM_STATIC_ROOT=str(settings.STATIC_ROOT))
    ca_file = var / "room-ca" / "ca.crt"
    ports = {}
    log = open(tmp_path / "serve.log", "w")  # noqa: SIM115 (closed with the launcher)

    def start(port):
        ports["https"] = free_port()
        command = ["manage.py", "serve", "--lan", "--name", "tdm.sala", "--host", "127.0.0.1", "--port", str(port)]
        command += ["--https-port", str(ports["https"]), "--no-worker"]
        return subprocess.Popen([sys.executable, *command], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    proc = start_listening(start, "the room's web server", lambda proc, port: ca_file.exists() and _handshakes(ports["https"], "tdm.sala", ca_file))
    try:
        yield {"port": ports["https"], "ca": ca_file}
    finally:
        stop(proc)
        log.close()


def tablet_home(tmp_path, ca_file=None):
    """A home folder whose certificate store (``.pki/nssdb``, where Chromium on Linux reads the
    authorities a user installed) holds the room's authority, trusted for web sites, when given."""
    home = tmp_path / ("home-trusting" if ca_file else "home-plain")
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-N", "-d", f"sql:{nssdb}", "--empty-password"], check=True, capture_output=True)
    if ca_file:
        subprocess.run(["certutil", "-A", "-d", f"sql:{nssdb}", "-n", "TDManager room", "-t", "C,,", "-i", str(ca_file)], check=True, capture_output=True)
    return home


def tablet(chromium_browser, home):
    """A Chromium of the test's own with ``home`` as its home folder and ``tdm.sala`` resolved to
    this machine: what a tablet on the room's Wi-Fi is."""
    return chromium_browser.browser_type.launch(
        executable_path=chromium_path(),
        args=[*ARGS, "--host-resolver-rules=MAP tdm.sala 127.0.0.1"],
        env={**os.environ, "HOME": str(home)},
    )


def test_a_tablet_that_trusts_the_room_gets_the_offline_table_map_over_https(chromium_browser, room, tmp_path, started, settings):  # noqa: F811
    t = started(18)
    arrange(t, {1: range(1, 10), 2: range(1, 10)})
    settings.PASSWORD_HASHERS = SERVED_HASHERS  # the launcher checks the password as it is deployed
    make_user("flo", "floor")
    own = tablet(chromium_browser, tablet_home(tmp_path, room["ca"]))
    try:
        page = new_page(own)
        page.base_url = f"https://tdm.sala:{room['port']}"
        login(page, "flo", "pw-flo")
        page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
        assert page.evaluate("() => window.isSecureContext") is True
        expect(page.locator("#floor-offline-unable")).to_be_hidden()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        until(page, "async () => !!(await caches.match(location.href))")
        seated = page.locator("tr[data-entry]").count()
        assert seated == 18

        page.context.set_offline(True)
        page.reload()
        expect(page.locator("tr[data-entry]")).to_have_count(seated)  # the tablet's copy, no network
        expect(page.locator("#floor-offline-unable")).to_be_hidden()
    finally:
        own.close()


def test_a_tablet_without_the_rooms_authority_cannot_open_the_secure_address(chromium_browser, room, tmp_path):
    own = tablet(chromium_browser, tablet_home(tmp_path))
    try:
        page = new_page(own)
        with pytest.raises(PlaywrightError, match="ERR_CERT_AUTHORITY_INVALID"):
            page.goto(f"https://tdm.sala:{room['port']}/login/")
    finally:
        own.close()
