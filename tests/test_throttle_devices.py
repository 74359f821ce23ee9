"""Lock-outs that reach the guesser, not the staff (#40 item 7): behind one public address (a
venue's NAT) a guest's wrong passwords lock that address and that username there, but a login
from a device the person logged in from before (its signed device cookie) still gets in; and
guesses at one account from many addresses are refused past TDM_LOGIN_FAILURES_PER_ACCOUNT,
except from the account's own devices."""

import uuid

import pytest
import time_machine
from django.test import Client
from rest_framework.test import APIClient

from tdmanager import security
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
VENUE = "198.51.100.7"  # the venue's one public address, staff and guests behind it


@pytest.fixture
def name():
    return "d" + uuid.uuid4().hex[:10]


@pytest.fixture(autouse=True)
def _forget(name):
    security.reset(name, VENUE)
    security.reset(None, VENUE)
    yield
    security.reset(name, VENUE)
    security.reset(None, VENUE)


def device(username, address=VENUE) -> APIClient:
    """A browser that logged in once as ``username``: it keeps its device cookie."""
    client = APIClient(REMOTE_ADDR=address)
    r = client.post(TOKEN, {"username": username, "password": "pw-" + username}, format="json")
    assert r.status_code == 200 and security.DEVICE_COOKIE in r.cookies
    return client


def guess(username, password="wrong", address=VENUE):
    return APIClient(REMOTE_ADDR=address).post(TOKEN, {"username": username, "password": password}, format="json")


def test_a_guest_locks_the_directors_name_at_the_venue_but_not_the_directors_own_tablet(name):
    make_user(name, "director")
    with time_machine.travel(1_900_000_000, tick=False):
        tablet = device(name)
        assert [guess(name).status_code for _ in range(5)] == [400] * 5
        assert guess(name, "pw-" + name).status_code == 429  # a new device at the venue is refused
        r = tablet.post(TOKEN, {"username": name, "password": "pw-" + name}, format="json", REMOTE_ADDR=VENUE)
        assert r.status_code == 200 and r.json()["token"]


def test_wrong_usernames_lock_the_venues_address_but_not_the_staffs_devices(name):
    make_user(name, "cashier")
    with time_machine.travel(1_900_000_000, tick=False):
        desk = device(name)
        for _ in range(25):
            guess("nobody-" + uuid.uuid4().hex[:6])
        assert guess(name, "pw-" + name).status_code == 429  # the address is locked for any name
        assert desk.post(TOKEN, {"username": name, "password": "pw-" + name}, format="json").status_code == 200
        page = Client(REMOTE_ADDR=VENUE)
        page.cookies[security.DEVICE_COOKIE] = desk.cookies[security.DEVICE_COOKIE].value
        r = page.post("/login/", {"username": name, "password": "pw-" + name})
        assert r.status_code == 302  # the login page too


def test_guesses_at_one_account_from_many_addresses_stop_at_the_account_limit(name, settings):
    settings.TDM_TRUSTED_PROXIES = ["127.0.0.1"]
    settings.TDM_LOGIN_FAILURES_PER_ACCOUNT = 20
    make_user(name, "director")
    checked = []
    with time_machine.travel(1_900_000_000, tick=False):
        own = device(name, "127.0.0.1")
        for i in range(300):
            r = APIClient(REMOTE_ADDR="127.0.0.1").post(
                TOKEN, {"username": name, "password": "wrong"}, format="json", HTTP_X_FORWARDED_FOR=f"10.{i // 250}.{i % 250}.9"
            )
            checked.append(r.status_code)
        assert checked.count(400) == 20 and checked.count(429) == 280  # 20 passwords checked, not 300
        stranger = APIClient(REMOTE_ADDR="127.0.0.1")
        assert stranger.post(TOKEN, {"username": name, "password": "pw-" + name}, format="json", HTTP_X_FORWARDED_FOR="10.9.9.9").status_code == 429
        r = own.post(TOKEN, {"username": name, "password": "pw-" + name}, format="json", HTTP_X_FORWARDED_FOR="10.8.8.8")
        assert r.status_code == 200  # his own device, wherever it is
    with time_machine.travel(1_900_000_000 + settings.TDM_LOGIN_WINDOW_SECONDS + 61, tick=False):
        assert stranger.post(TOKEN, {"username": name, "password": "pw-" + name}, format="json", HTTP_X_FORWARDED_FOR="10.9.9.9").status_code == 200
    for i in range(300):
        security.reset(None, f"10.{i // 250}.{i % 250}.9")


def test_a_device_cookie_is_the_accounts_own_and_cannot_be_forged(name):
    make_user(name, "director")
    other = make_user(name + "x", "cashier")
    with time_machine.travel(1_900_000_000, tick=False):
        someone_elses = device(other.username)
        for _ in range(5):
            guess(name)
        assert someone_elses.post(TOKEN, {"username": name, "password": "pw-" + name}, format="json").status_code == 429
        forged = APIClient(REMOTE_ADDR=VENUE)
        forged.cookies[security.DEVICE_COOKIE] = '{"u": "%s", "d": "abc"}' % name
        assert forged.post(TOKEN, {"username": name, "password": "pw-" + name}, format="json").status_code == 429
    security.reset(other.username, VENUE)


def test_a_known_devices_own_wrong_passwords_lock_it(name):
    make_user(name, "director")
    with time_machine.travel(1_900_000_000, tick=False):
        tablet = device(name)
        statuses = [tablet.post(TOKEN, {"username": name, "password": "wrong"}, format="json").status_code for _ in range(6)]
        assert statuses == [400] * 5 + [429]
        assert tablet.post(TOKEN, {"username": name, "password": "pw-" + name}, format="json").status_code == 429
        assert guess(name, "pw-" + name).status_code == 200  # that device's failures lock that device


def test_the_director_sees_an_accounts_lock_out_and_lifts_it(name, settings, client, director):
    settings.TDM_TRUSTED_PROXIES = ["127.0.0.1"]
    settings.TDM_LOGIN_FAILURES_PER_ACCOUNT = 5
    make_user(name, "cashier")
    with time_machine.travel(1_900_000_000, tick=False):
        for i in range(8):
            APIClient(REMOTE_ADDR="127.0.0.1").post(TOKEN, {"username": name, "password": "wrong"}, format="json", HTTP_X_FORWARDED_FOR=f"10.77.0.{i + 1}")
        new_tablet = APIClient(REMOTE_ADDR="127.0.0.1")
        assert new_tablet.post(TOKEN, {"username": name, "password": "pw-" + name}, format="json", HTTP_X_FORWARDED_FOR="10.77.1.1").status_code == 429
        client.force_login(director)
        page = client.get("/logins/").content.decode()
        row = page[page.index(name) : page.index("</tr>", page.index(name))]
        assert "every address but the user" in row
        assert 'name="kind" value="account"' in row and 'name="address" value=""' in row
        assert client.post("/logins/", {"kind": "account", "username": name, "address": ""}).status_code == 302  # what the row posts
        after = client.get("/logins/").content.decode()
        assert name not in after[after.index('id="lockouts"') :]
        assert new_tablet.post(TOKEN, {"username": name, "password": "pw-" + name}, format="json", HTTP_X_FORWARDED_FOR="10.77.1.1").status_code == 200
    for i in range(8):
        security.reset(name, f"10.77.0.{i + 1}")
