"""Shared fixtures: one user per role plus an outsider, API clients, tournaments and people."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone
from rest_framework.test import APIClient

from tournaments.eventlog.services import Actor

pytest_plugins = ["tests.browser"]  # one Chromium per test process, for every browser test


def make_user(username, role=None, **extra):
    user = get_user_model().objects.create_user(username=username, password="pw-" + username, **extra)
    if role:
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


def tournament_form(structure_id, name, **fields) -> dict:
    """The tournament page's form (new or edit) filled as a director would, a freezeout of the
    given structure; ``fields`` change or add to it."""
    return {
        "name": name,
        "start_at": "2026-07-09T19:00",
        "game": "NLHE",
        "format": "FREEZEOUT",
        "currency": "EUR",
        "buy_in": "100",
        "fee": "10",
        "starting_stack": "30000",
        "table_size": "9",
        "min_players": "2",
        "structure": structure_id,
        "late_reg_end": "END_OF_LEVEL",
        "max_entries_per_player": "1",
        "rebuy_fee": "0",
        "addon_fee": "0",
        "addon_max": "1",
        "rule_set": "TDA",
        "rebuy_stack_threshold": "0",
        **fields,
    }


@pytest.fixture
def director(db):
    return make_user("dora", "director")


@pytest.fixture
def cashier_user(db):
    return make_user("carl", "cashier")


@pytest.fixture
def floor_user(db):
    return make_user("flo", "floor")


@pytest.fixture
def controller_user(db):
    return make_user("cora", "controller")  # the administrative controller (ROLE-01)


@pytest.fixture
def display_user(db):
    return make_user("tv1", "display")


@pytest.fixture
def outsider(db):
    return make_user("otto")


def client_for(user):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def api():
    return client_for


@pytest.fixture
def actor(director):
    return Actor(director, "test")


@pytest.fixture
def cashier_actor(cashier_user):
    return Actor(cashier_user, "desk-1")


@pytest.fixture
def structure(db):
    from tournaments.structures.services import ensure_builtin_structures

    return next(s for s in ensure_builtin_structures() if s.name.startswith("Regular"))


@pytest.fixture
def make_tournament(db, structure):
    from tournaments.models import Tournament

    def make(**kw):
        defaults = dict(
            name="Sunday Special",
            start_at=timezone.now() + timedelta(hours=1),
            buy_in=Decimal("100"),
            fee=Decimal("10"),
            starting_stack=30000,
            table_size=9,
            structure=structure,
            status=Tournament.REGISTERING,
            min_players=2,
        )
        defaults.update(kw)
        return Tournament.objects.create(**defaults)

    return make


@pytest.fixture
def tournament(make_tournament):
    return make_tournament()


@pytest.fixture
def make_person(db):
    from tournaments.models import Person

    counter = {"n": 0}

    def make(first=None, last=None, **kw):
        counter["n"] += 1
        n = counter["n"]
        return Person.objects.create(first_name=first or f"Player{n}", last_name=last or f"Surname{n}", **kw)

    return make


@pytest.fixture
def person(make_person):
    return make_person("Mario", "Rossi", nickname="super", phone="+39 333 123 4567", document_id="AB123456")


@pytest.fixture
def heads_up(make_tournament, make_person, cashier_actor):
    """A heads-up event (the HEADS_UP_001 preset, two seats a table) and its two registered
    players, Paolo Bianchi and Quinto Verdi: ``(event, paolo, quinto)``."""
    from tournaments.cashier import services as cashier

    t = make_tournament(rule_set="HEADS_UP_001", table_size=2)
    p = cashier.register(t, make_person("Paolo", "Bianchi"), method="CASH", actor=cashier_actor).entry
    q = cashier.register(t, make_person("Quinto", "Verdi"), method="CASH", actor=cashier_actor).entry
    return t, p, q


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the project's language: a request in Italian activates Italian for the
    thread that served it (the test client's), which would otherwise carry into the next test."""
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _forget_failed_logins():
    """Login throttling counts failed logins in the cache, which is Redis in the PostgreSQL run
    and outlives a test: forget what this test's failed logins counted (a fuzzer posting to the
    token endpoint would otherwise lock 127.0.0.1 out of every later test's login)."""
    from django.contrib.auth.signals import user_login_failed

    from tdmanager import security

    seen = set()

    def note(sender, credentials, request=None, **kwargs):
        seen.add((credentials.get("username"), security.client_ip(request) if request is not None else None))

    user_login_failed.connect(note, weak=False, dispatch_uid="tests-forget-failed-logins")
    yield
    user_login_failed.disconnect(dispatch_uid="tests-forget-failed-logins")
    for username, ip in seen:
        security.reset(username, ip)


@pytest.fixture(autouse=True, scope="session")
def _static_collected():
    """Pages name their static files as in production, by the manifest's hashed names, and
    WhiteNoise serves them from STATIC_ROOT: collected once for the session (and for the next
    ones until a source changes)."""
    from tdmanager import staticbuild

    staticbuild.ensure_collected()


@pytest.fixture(scope="session")
def live_server(request):
    """pytest-django's live server, but /static/ is answered by WhiteNoise, as in production:
    pytest-django's own static handler looks a file up by its source name and answers 404 to the
    content-hashed names the pages ask for."""
    import os

    from pytest_django.live_server_helper import LiveServer

    addr = request.config.getvalue("liveserver") or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS") or "localhost"
    server = LiveServer(addr, start=False)
    server.thread.static_handler = lambda application: application  # the middleware's WhiteNoise serves
    server.start()
    yield server
    server.stop()


@pytest.fixture(autouse=True, scope="session")
def _receipt_journal_apart(tmp_path_factory):
    """Sales in tests write their receipt journal (``tdmanager.receipt_journal``) to a file of
    the test session's, never to var/; erasures their journal (``privacy.journal_path``) too."""
    from django.conf import settings

    from tdmanager import receipt_journal

    settings.TDM_RECEIPT_JOURNAL = str(tmp_path_factory.mktemp("receipts") / "receipts.journal")
    settings.TDM_ERASURE_JOURNAL = str(tmp_path_factory.mktemp("erasures") / "erasures.journal")
    receipt_journal.forget()


@pytest.fixture
def fc():
    """The festival's clients (``benchmarks/festival_clients.py``), importable while the test runs."""
    import sys

    from tests.servers import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import festival_clients

        yield festival_clients
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
