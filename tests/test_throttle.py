"""Login throttling: per username at one address (a growing delay) and per address, on the token
endpoint and the login page; a director lifts a lock-out, and each one is in the event log.

The counters live in Django's cache (Redis when REDIS_URL is set, so these tests run against it
in the PostgreSQL + Redis CI run). Time is moved with time-machine, never slept.
"""

import logging
import threading
import time
import uuid

import pytest
import time_machine
from django.core.cache import cache
from django.dispatch import Signal
from django.test import override_settings
from rest_framework.test import APIClient

from tdmanager import security
from tests.conftest import make_user
from tests.servers import closing

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"


@pytest.fixture
def name():
    """A username of its own per test, so counters never leak between tests or runs."""
    return "u" + uuid.uuid4().hex[:10]


@pytest.fixture
def address():
    n = uuid.uuid4().int
    return f"198.18.{n % 250}.{(n >> 8) % 250 + 1}"


@pytest.fixture(autouse=True)
def _forget(name, address):
    security.reset(name, address)
    security.reset(None, "127.0.0.1")
    yield
    security.reset(name, address)
    security.reset(None, "127.0.0.1")


def token(username, password, address="127.0.0.1", lang="en"):
    return APIClient().post(TOKEN, {"username": username, "password": password}, format="json", REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=lang)


def test_five_wrong_passwords_lock_the_username_at_that_address_then_the_window_ends(name, address, caplog):
    make_user(name, "cashier")
    with time_machine.travel(1_900_000_000, tick=False) as clock:
        for _ in range(5):
            assert token(name, "wrong", address).status_code == 400
        with caplog.at_level(logging.WARNING, logger="tdmanager.security"):
            r = token(name, "pw-" + name, address)  # the right password, but locked out
        assert r.status_code == 429
        assert r.json()["code"] == "throttled" and "15 minutes" in r.json()["detail"]
        assert 890 <= int(r["Retry-After"]) <= 900
        assert any("refused a login" in m and name in m for m in caplog.messages)
        # the lock is on the username *at that address*: the person named logs in from his own
        # (issue #30: five wrong passwords from anywhere used to lock the real director out)
        assert token(name, "pw-" + name, "203.0.113.9").status_code == 200
        clock.shift(14 * 60)
        assert token(name, "pw-" + name, address).status_code == 429
        clock.shift(61)
        r = token(name, "pw-" + name, address)
        assert r.status_code == 200 and r.json()["token"]


def test_a_good_login_forgets_the_usernames_failures(name, address):
    make_user(name, "cashier")
    for _ in range(4):
        token(name, "wrong", address)
    assert token(name, "pw-" + name, address).status_code == 200
    for _ in range(4):
        assert token(name, "wrong", address).status_code == 400
    assert token(name, "pw-" + name, address).status_code == 200


def test_an_unknown_user_answers_like_a_wrong_password_and_is_locked_the_same(name, address):
    make_user(name, "cashier")
    ghost = name + "x"
    try:
        wrong, missing = token(name, "wrong", address), token(ghost, "wrong", address)
        assert wrong.status_code == missing.status_code == 400
        assert wrong.json() == missing.json()
        for _ in range(4):
            token(ghost, "wrong", address)
        assert token(ghost, "wrong", address).status_code == 429
    finally:
        security.reset(ghost)


@override_settings(TDM_LOGIN_FAILURES_PER_ADDRESS=3)
def test_an_address_is_locked_across_usernames(name, address):
    make_user(name, "cashier")
    for i in range(3):
        assert token(f"{name}-{i}", "wrong", address).status_code == 400
    assert token(name, "pw-" + name, address).status_code == 429  # the right password, from that address
    assert token(name, "pw-" + name, "203.0.113.7").status_code == 200  # from elsewhere it works
    for i in range(3):
        security.reset(f"{name}-{i}")


def test_limits_and_window_come_from_settings(name, address, settings):
    settings.TDM_LOGIN_FAILURES_PER_USER = 2
    settings.TDM_LOGIN_WINDOW_SECONDS = 60
    make_user(name, "cashier")
    with time_machine.travel(1_900_000_000, tick=False) as clock:
        token(name, "wrong", address)
        token(name, "wrong", address)
        r = token(name, "pw-" + name, address)
        assert r.status_code == 429 and int(r["Retry-After"]) == 60 and "1 minute" in r.json()["detail"]
        clock.shift(60)
        assert token(name, "pw-" + name, address).status_code == 200


def test_the_locked_message_is_in_the_users_language(name, address):
    make_user(name, "cashier")
    for _ in range(5):
        token(name, "wrong", address)
    r = token(name, "pw-" + name, address, lang="it")
    assert r.status_code == 429 and "Troppi" in r.json()["detail"]


def test_the_login_page_is_throttled_with_a_clear_message(client, name, address):
    make_user(name, "cashier")
    with time_machine.travel(1_900_000_000, tick=False) as clock:
        for _ in range(5):
            r = client.post("/login/", {"username": name, "password": "wrong"}, REMOTE_ADDR=address)
            assert r.status_code == 200 and b"Wrong username or password" in r.content
        r = client.post("/login/", {"username": name, "password": "pw-" + name}, REMOTE_ADDR=address)
        assert r.status_code == 429
        assert b"Too many failed logins. Try again in 15 minutes." in r.content
        assert "_auth_user_id" not in client.session
        clock.shift(15 * 60)
        r = client.post("/login/", {"username": name, "password": "pw-" + name}, REMOTE_ADDR=address)
        assert r.status_code == 302 and client.session["_auth_user_id"]


def test_the_page_and_the_api_share_the_counters(client, name, address):
    make_user(name, "cashier")
    for _ in range(3):
        client.post("/login/", {"username": name, "password": "wrong"}, REMOTE_ADDR=address)
    for _ in range(2):
        token(name, "wrong", address)
    assert client.post("/login/", {"username": name, "password": "pw-" + name}, REMOTE_ADDR=address).status_code == 429


# --- the client address behind proxies ------------------------------------------------------


class Req:
    def __init__(self, remote, xff=None):
        self.META = {"REMOTE_ADDR": remote}
        if xff is not None:
            self.META["HTTP_X_FORWARDED_FOR"] = xff


def test_x_forwarded_for_is_ignored_unless_the_peer_is_a_trusted_proxy(settings):
    settings.TDM_TRUSTED_PROXIES = []
    assert security.client_ip(Req("203.0.113.5", "1.2.3.4")) == "203.0.113.5"
    settings.TDM_TRUSTED_PROXIES = ["10.0.0.0/24"]
    assert security.client_ip(Req("203.0.113.5", "1.2.3.4")) == "203.0.113.5"  # not from the proxy
    assert security.client_ip(Req("10.0.0.2", "1.2.3.4")) == "1.2.3.4"


def test_the_right_most_untrusted_address_is_the_client(settings):
    settings.TDM_TRUSTED_PROXIES = ["10.0.0.0/24", "127.0.0.1"]
    # the client prepended a forged address; the proxies appended what they saw
    assert security.client_ip(Req("127.0.0.1", "6.6.6.6, 198.51.100.7, 10.0.0.3")) == "198.51.100.7"
    assert security.client_ip(Req("10.0.0.2", "10.0.0.4, 10.0.0.3")) == "10.0.0.4"  # only proxies: the farthest
    assert security.client_ip(Req("10.0.0.2", "garbage, 10.0.0.3")) == "10.0.0.3"
    assert security.client_ip(Req("10.0.0.2", "[2001:db8::1]:443")) == "2001:db8::1"
    assert security.client_ip(Req("10.0.0.2")) == "10.0.0.2"


def test_the_event_log_records_the_believed_address(settings, rf):
    from tournaments.eventlog.services import Actor

    settings.TDM_TRUSTED_PROXIES = ["127.0.0.1"]
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7")
    request.user = None
    assert Actor.from_request(request).device.startswith("198.51.100.7")
    request = rf.get("/", REMOTE_ADDR="198.51.100.8", HTTP_X_FORWARDED_FOR="6.6.6.6")
    request.user = None
    assert Actor.from_request(request).device.startswith("198.51.100.8")


def test_login_counts_the_address_behind_a_trusted_proxy(settings, name):
    settings.TDM_TRUSTED_PROXIES = ["127.0.0.1"]
    settings.TDM_LOGIN_FAILURES_PER_ADDRESS = 2
    client = APIClient()
    post = lambda who, ip: client.post(TOKEN, {"username": who, "password": "x"}, format="json", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=ip)
    try:
        post(name + "1", "198.51.100.20")
        post(name + "2", "198.51.100.20")
        assert post(name + "3", "198.51.100.20").status_code == 429
        assert post(name + "3", "198.51.100.21").status_code == 400  # another client behind the same proxy
    finally:
        security.reset(None, "198.51.100.20")
        security.reset(None, "198.51.100.21")
        for i in "123":
            security.reset(name + i)


# --- issue #30: the attacker slows himself, not the person he names -----------------------------


def test_fifty_wrong_passwords_from_anywhere_never_lock_the_real_user_out(name, address):
    make_user(name, "director")
    with time_machine.travel(1_900_000_000, tick=False):
        for i in range(50):
            token(name, "wrong", f"203.0.113.{i % 5 + 1}")
        r = token(name, "pw-" + name, address)  # the director, at his own desk
        assert r.status_code == 200 and r.json()["token"]
    for i in range(5):
        security.reset(name, f"203.0.113.{i + 1}")
        security.reset(None, f"203.0.113.{i + 1}")


def test_each_failure_past_the_limit_doubles_the_wait_at_that_address(name, address):
    make_user(name, "cashier")
    with time_machine.travel(1_900_000_000, tick=False) as clock:
        for _ in range(5):
            token(name, "wrong", address)
        assert 890 <= int(token(name, "pw-" + name, address)["Retry-After"]) <= 900
        clock.shift(900)
        assert token(name, "wrong", address).status_code == 400  # the sixth failure
        r = token(name, "pw-" + name, address)
        assert r.status_code == 429 and int(r["Retry-After"]) == 1800 and "30 minutes" in r.json()["detail"]
        clock.shift(1800)
        token(name, "wrong", address)  # the seventh
        assert int(token(name, "pw-" + name, address)["Retry-After"]) == 3600


def test_fifty_wrong_passwords_from_one_address_are_not_all_tried(name, address):
    """The brute-force figure: of 50 guesses for one username from one address, 5 are checked;
    of 50 usernames guessed from one address, 20 (TDM_LOGIN_FAILURES_PER_ADDRESS)."""
    with time_machine.travel(1_900_000_000, tick=False):
        answers = [token(name, "wrong", address).status_code for _ in range(50)]
        assert answers.count(400) == 5 and answers.count(429) == 45
        other = "198.51.100.77"
        security.reset(None, other)
        answers = [token(f"{name}-{i}", "wrong", other).status_code for i in range(50)]
        assert answers.count(400) == 20 and answers.count(429) == 30
        security.reset(None, other)


def test_guesses_sent_at_once_are_checked_one_at_a_time(name, address, held_checks):
    """50 guesses arriving together for one username from one address, after a first wrong one:
    the passwords are checked one at a time, so the lock-out stops them (each attempt is counted
    before its password is)."""
    backend = security.ThrottledModelBackend()
    backend.authenticate(Req(address), username=name, password="first-guess")  # a first wrong password
    burst(backend, held_checks, [name] * 50, address)
    assert len(held_checks) == 5  # the first guess and the four turns left of five


class HeldChecks(list):
    """Every password check, recorded; during a burst each is held until every attempt of the
    burst has either been refused or reached its own check — the moment a real hash, which takes
    a while, gives the others to arrive — so how many get checked does not depend on timing."""

    DEADLINE = 60  # only a hung attempt makes a check wait this long

    def __init__(self):
        super().__init__()
        self.arrived = threading.Condition()
        self.expected = self.come = 0
        self.inside = threading.local()

    def check(self, backend, request, username=None, password=None, **kw):
        self.inside.checked = True
        with self.arrived:
            self.append(password)
            self.come += 1
            self.arrived.notify_all()
            self.arrived.wait_for(lambda: self.come >= self.expected, timeout=self.DEADLINE)

    def refused(self):
        with self.arrived:
            self.come += 1
            self.arrived.notify_all()


@pytest.fixture
def held_checks(monkeypatch):
    """``HeldChecks`` in place of the password check and of the login's name looked up for it
    (``usernames.login_name``: held at the check, twenty threads would each hold a connection of
    the pool, whose twentieth is the test's); no audit row from the burst's threads (SQLite would
    keep each waiting on the test's own open transaction for its busy timeout)."""
    from django.contrib.auth.backends import ModelBackend

    checks = HeldChecks()
    monkeypatch.setattr(ModelBackend, "authenticate", lambda *args, **kw: checks.check(*args, **kw))
    monkeypatch.setattr(security, "login_name", lambda name: name)
    monkeypatch.setattr(security, "login_locked_out", Signal())
    return checks


def burst(backend, checks, usernames, address):
    """A login for each of ``usernames`` from ``address``, released together (a barrier), each on
    a thread of its own: its own connection to the cache, as many web processes would be."""
    start = threading.Barrier(len(usernames))
    with checks.arrived:
        checks.expected, checks.come = len(usernames), 0

    def guess(i, username):
        checks.inside.checked = False
        start.wait()
        try:
            backend.authenticate(Req(address), username=username, password=f"guess-{i}")
        except Exception:
            pass
        if not checks.inside.checked:
            checks.refused()

    threads = [threading.Thread(target=guess, args=(i, username)) for i, username in enumerate(usernames)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with checks.arrived:
        checks.expected = 0


def test_a_burst_for_one_username_checks_exactly_the_limit(name, address, held_checks):
    """40 wrong passwords for one username from one address sent at once: exactly
    TDM_LOGIN_FAILURES_PER_USER (5) are checked, the others refused before theirs is (each turn is
    taken atomically in the cache, not read and counted later); once the lock-out ends, a second
    burst gets one turn, whose failure locks twice as long."""
    backend = security.ThrottledModelBackend()
    with time_machine.travel(1_900_000_000, tick=False) as clock:
        burst(backend, held_checks, [name] * 40, address)
        assert len(held_checks) == 5
        assert 890 <= security.lockout(name, address) <= 900
        clock.shift(900)
        assert security.lockout(name, address) is None
        burst(backend, held_checks, [name] * 40, address)
        assert len(held_checks) == 6
        assert security.lockout(name, address) == 1800


def test_the_last_turn_comes_back_if_its_check_never_ended(name, address, held_checks):
    """An attempt that took the last turn and never ended (its process died) holds it only a
    password check's time."""
    with time_machine.travel(1_900_000_000, tick=False) as clock:
        for _ in range(5):
            assert security.begin_attempt(name, address) is None
        assert security.begin_attempt(name, address) is not None
        clock.shift(61)
        assert security.begin_attempt(name, address) is None
        assert security.begin_attempt(name, address) is not None


def test_a_lockout_the_cache_let_go_of_leaves_a_turn_not_a_wall(name, address):
    """A full cache evicts keys one by one: should it drop a username's lock-out at an address
    and keep its counter of turns, the username is not refused there until the counter expires
    (hours). Once no lock-out has named a turn for a password check's time (a moment without one
    is the last turn setting its lock: refused, so a burst never gets past), one attempt gets its
    turn, and its failure locks again."""
    make_user(name, "cashier")
    with time_machine.travel(1_900_000_000, tick=False) as clock:
        for _ in range(5):
            token(name, "wrong", address)
        assert token(name, "pw-" + name, address).status_code == 429
        cache.delete(security._pair(name, address) + ":lock")  # evicted; the counters stay
        assert token(name, "pw-" + name, address).status_code == 429  # maybe the last turn setting it
        clock.shift(61)
        assert token(name, "wrong", address).status_code == 400  # its turn: checked, a failure
        assert token(name, "pw-" + name, address).status_code == 429  # locked again by it
        cache.delete(security._pair(name, address) + ":lock")
        assert token(name, "pw-" + name, address).status_code == 429
        clock.shift(61)
        assert token(name, "pw-" + name, address).status_code == 200  # the right password, in its turn


def test_a_burst_of_first_guesses_stops_at_the_address_limit(name, address, held_checks, monkeypatch):
    """The same burst with no failure before, each for a username of its own: every attempt is
    counted against the address before its password is checked, so at most
    TDM_LOGIN_FAILURES_PER_ADDRESS (20) are."""
    announced = Signal()  # the lock-outs announced, counted
    monkeypatch.setattr(security, "login_locked_out", announced)
    kinds = []
    announced.connect(lambda sender, kind, **kw: kinds.append(kind), weak=False)
    usernames = [f"{name}-{i}" for i in range(50)]
    burst(security.ThrottledModelBackend(), held_checks, usernames, address)
    assert len(held_checks) == 20
    assert kinds == ["address"]  # one audit line, however many failures ended at the limit together
    for username in usernames:
        security.reset(username, address)


def test_a_double_click_on_log_in_is_not_refused(name, address, monkeypatch):
    """Two logins with the right password at once, nothing failed before: both succeed."""
    import threading

    user = make_user(name, "cashier")
    from django.contrib.auth.backends import ModelBackend

    start, answers = threading.Barrier(2), []

    def slow_ok(self, request, username=None, password=None, **kw):
        time.sleep(0.2)
        return user

    monkeypatch.setattr(ModelBackend, "authenticate", slow_ok)
    backend = security.ThrottledModelBackend()

    @closing  # a web process's thread gives its connection back after each request (the login's name is read)
    def login():
        start.wait()
        try:
            answers.append(backend.authenticate(Req(address), username=name, password="pw-" + name))
        except Exception as exc:
            answers.append(exc)

    threads = [threading.Thread(target=login) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [user, user]


def test_a_director_lifts_a_lockout_and_the_event_log_has_both(name, address, client):
    from tournaments.models import TournamentEvent

    make_user(name, "cashier")
    with time_machine.travel(1_900_000_000, tick=False):
        for _ in range(5):
            token(name, "wrong", address)
        assert token(name, "pw-" + name, address).status_code == 429
        started = TournamentEvent.objects.filter(action="auth.lockout.started", payload__username=name).get()
        assert started.payload["address"] == address and started.payload["seconds"] == 900
        boss = make_user("boss-" + name, "director")
        api = APIClient()
        api.force_authenticate(boss)
        listed = api.get("/api/v1/auth/lockouts/").json()["lockouts"]
        assert [(x["username"], x["address"]) for x in listed if x["username"] == name] == [(name, address)]
        cashier = make_user("c-" + name, "cashier")
        api.force_authenticate(cashier)
        assert api.post("/api/v1/auth/lockouts/lift/", {"username": name, "address": address}, format="json").status_code == 403
        api.force_authenticate(boss)
        r = api.post("/api/v1/auth/lockouts/lift/", {"username": name, "address": address}, format="json")
        assert r.status_code == 200
        assert token(name, "pw-" + name, address).status_code == 200
        lifted = TournamentEvent.objects.filter(action="auth.lockout.lifted").latest("id")
        assert lifted.actor == boss and lifted.payload == {"kind": "user", "username": name, "address": address}
        assert [x for x in api.get("/api/v1/auth/lockouts/").json()["lockouts"] if x["username"] == name] == []
        r = api.post("/api/v1/auth/lockouts/lift/", {}, format="json")  # names no lock-out
        assert r.status_code == 400 and r.json()["field"] == "username"
        r = api.post("/api/v1/auth/lockouts/lift/", {"kind": "user", "username": name}, format="json")
        assert r.status_code == 400 and r.json()["field"] == "address"


def account_locked_out(name, settings):
    """``name`` locked out from every address: TDM_LOGIN_FAILURES_PER_ACCOUNT (3 here) wrong
    passwords, each from an address of its own."""
    settings.TDM_LOGIN_FAILURES_PER_ACCOUNT = 3
    for i in range(3):
        assert token(name, "wrong", f"203.0.113.{i + 11}").status_code == 400
    assert token(name, "pw-" + name, "203.0.113.50").status_code == 429  # from anywhere new


def forget_account(name):
    for i in range(3):
        security.reset(name, f"203.0.113.{i + 11}")
    security.reset(name)


def test_an_account_lockout_is_lifted_as_it_is_listed(name, settings):
    """``GET …/lockouts/`` lists an account's lock-out with ``"address": ""``; that very object,
    posted to ``…/lift/``, lifts it. An address named with it is refused (400 naming it), and a
    username's lift at some other address lifts that one alone, not the account's."""
    make_user(name, "cashier")
    try:
        with time_machine.travel(1_900_000_000, tick=False):
            account_locked_out(name, settings)
            api = APIClient()
            api.force_authenticate(make_user("boss-" + name, "director"))
            listed = [x for x in api.get("/api/v1/auth/lockouts/").json()["lockouts"] if x["username"] == name]
            assert [(x["kind"], x["address"]) for x in listed] == [("account", "")]
            # the address of no lock-out of his lifts nothing of the account's
            r = api.post("/api/v1/auth/lockouts/lift/", {"username": name, "address": "203.0.113.99"}, format="json")
            assert r.status_code == 200 and r.json()["kind"] == "user"
            assert token(name, "pw-" + name, "203.0.113.50").status_code == 429
            assert [x["kind"] for x in api.get("/api/v1/auth/lockouts/").json()["lockouts"] if x["username"] == name] == ["account"]
            r = api.post("/api/v1/auth/lockouts/lift/", {"kind": "account", "username": name, "address": "203.0.113.99"}, format="json")
            assert r.status_code == 400 and r.json()["field"] == "address"
            r = api.post("/api/v1/auth/lockouts/lift/", {"kind": "account", "address": ""}, format="json")
            assert r.status_code == 400 and r.json()["field"] == "username"
            r = api.post("/api/v1/auth/lockouts/lift/", listed[0], format="json")  # exactly as listed
            assert r.status_code == 200 and r.json() == {"kind": "account", "username": name, "address": "", "lifted": True}
            assert [x for x in api.get("/api/v1/auth/lockouts/").json()["lockouts"] if x["username"] == name] == []
            assert token(name, "pw-" + name, "203.0.113.50").status_code == 200
    finally:
        forget_account(name)


def test_an_account_lockout_lifted_with_no_address_at_all(name, settings):
    """The address left out, not empty: the kind and the username name the account's."""
    make_user(name, "cashier")
    try:
        with time_machine.travel(1_900_000_000, tick=False):
            account_locked_out(name, settings)
            api = APIClient()
            api.force_authenticate(make_user("boss-" + name, "director"))
            assert api.post("/api/v1/auth/lockouts/lift/", {"kind": "account", "username": name}, format="json").status_code == 200
            assert token(name, "pw-" + name, "203.0.113.50").status_code == 200
    finally:
        forget_account(name)


def test_the_logins_page_lifts_an_account_lockout(name, settings, client):
    make_user(name, "cashier")
    try:
        with time_machine.travel(1_900_000_000, tick=False):
            account_locked_out(name, settings)
            client.force_login(make_user("boss-" + name, "director"))
            page = client.get("/logins/").content.decode()
            assert f'name="kind" value="account"><input type="hidden" name="username" value="{name}"><input type="hidden" name="address" value="">' in page
            r = client.post("/logins/", {"kind": "account", "username": name, "address": ""})
            assert r.status_code == 302
            after = client.get("/logins/").content.decode()
            assert "Lock-out lifted" in after and f"<td>{name}</td>" not in after.split('id="lockouts"')[1]
            assert token(name, "pw-" + name, "203.0.113.50").status_code == 200
    finally:
        forget_account(name)


def test_the_logins_page_lists_a_lockout_and_lifts_it(name, address, client):
    make_user(name, "cashier")
    for _ in range(5):
        token(name, "wrong", address)
    boss = make_user("boss-" + name, "director")
    client.force_login(boss)
    page = client.get("/logins/")
    assert page.status_code == 200 and f"<td>{name}</td><td>{address}</td>" in page.content.decode()
    r = client.post("/logins/", {"username": name, "address": address})
    assert r.status_code == 302
    after = client.get("/logins/").content.decode()
    assert "Lock-out lifted" in after and f"<td>{name}</td>" not in after.split('id="lockouts"')[1]
    assert token(name, "pw-" + name, address).status_code == 200
