"""The staff page and its API (a director): logins added with a role and a first password shown
once, a role changed, a password reset (its sessions and tokens end), a login disabled (it can
do nothing: page, API, token) and enabled; the last director is neither disabled nor demoted;
every change in the event log; a dealer added here is on the room's roster form."""

import asyncio
import io
import re
import threading
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import OperationalError
from django.test import AsyncRequestFactory, Client
from rest_framework.test import APIClient

from seating.models import CardRoom
from tdmanager import realtime, usernames
from tdmanager.transactions import ATTEMPTS
from tests.conftest import client_for, make_user
from tournaments.eventlog import sentences as eventlog
from tournaments.live import views as live
from tournaments.models import BrowserSession, DisplayScreen, TournamentEvent
from tournaments.staff import services as staff

pytestmark = pytest.mark.django_db
STAFF = "/api/v1/staff/"


def session_of(user, password=None):
    client = Client()
    assert client.login(username=user.username, password=password or "pw-" + user.username)
    return client


def token_of(user, password=None):
    r = APIClient().post("/api/v1/auth/token/", {"username": user.username, "password": password or "pw-" + user.username, "device": "tablet"}, format="json")
    assert r.status_code == 200, r.json()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + r.json()["token"])
    return client


def sentences(action):
    return [eventlog.sentence(e.action, e.payload, actor=e.actor_label) for e in TournamentEvent.objects.filter(action=action).order_by("pk")]


def test_a_dealer_added_on_the_page_logs_in_with_the_password_shown_once_and_is_on_the_roster_form(director):
    page = session_of(director)
    r = page.post("/staff/", {"op": "add", "username": "dario", "role": "dealer", "password": ""})
    assert r.status_code == 200
    password = re.search(r'id="password-once" value="([^"]+)"', r.content.decode()).group(1)
    assert "dario" in page.get("/staff/").content.decode() and password not in page.get("/staff/").content.decode()  # shown once
    dealer = Client()
    assert dealer.login(username="dario", password=password)
    room = CardRoom.objects.create(name="Sala")
    roster_form = page.get(f"/room/{room.pk}/").content.decode()
    assert re.search(r'<option value="\d+">dario</option>', roster_form)
    assert sentences("staff.login.added") == ["Dora added the login dario as dealer"]


def test_the_api_adds_a_login_with_a_typed_password_and_refuses_a_weak_one_or_a_taken_name(director):
    api = client_for(director)
    r = api.post(STAFF, {"username": "carla", "role": "cashier", "password": "short"}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "password"
    r = api.post(STAFF, {"username": "carla", "role": "cashier", "password": "a-long-enough-one"}, format="json")
    assert r.status_code == 201 and r.json()["role"] == "cashier" and "password" not in r.json()
    assert Client().login(username="carla", password="a-long-enough-one")
    r = api.post(STAFF, {"username": "CARLA", "role": "floor"}, format="json")
    assert r.status_code == 409 and r.json()["field"] == "username"
    listed = api.get(STAFF + "?q=car").json()
    assert listed["count"] == 1 and listed["results"][0]["username"] == "carla" and listed["results"][0]["last_used"] is not None
    api.post(STAFF, {"username": "nuovo", "role": "floor"}, format="json")
    assert api.get(STAFF + "?q=nuovo").json()["results"][0]["last_used"] is None  # never logged in


def test_the_last_director_is_neither_disabled_nor_demoted_until_there_is_another(director):
    api = client_for(director)
    for op, body in (("disable", {}), ("role", {"role": "floor"})):
        r = api.post(f"{STAFF}{director.pk}/{op}/", body, format="json")
        assert r.status_code == 409 and r.json()["code"] == "last_director", op
    page = session_of(director)
    r = page.post("/staff/", {"op": "disable", "login": director.pk}, follow=True)
    assert "The last director cannot be disabled" in r.content.decode()
    director.refresh_from_db()
    assert director.is_active and director.groups.filter(name="director").exists()
    second = make_user("diego", "director")
    assert api.post(f"{STAFF}{second.pk}/role/", {"role": "floor"}, format="json").json()["role"] == "floor"
    r = api.post(f"{STAFF}{second.pk}/role/", {"role": "director"}, format="json")
    assert r.status_code == 200
    assert api.post(f"{STAFF}{director.pk}/role/", {"role": "floor"}, format="json").json()["role"] == "floor"
    assert sentences("staff.role.changed") == [
        "Dora changed the role of diego from director to floor",
        "Dora changed the role of diego from floor to director",
        "Dora changed the role of dora from director to floor",
    ]


def test_a_reset_password_ends_the_logins_sessions_and_tokens(director, cashier_user):
    session, token = session_of(cashier_user), token_of(cashier_user)
    assert session.get("/desk/").status_code == 200 and token.get("/api/v1/cashier/shift/").status_code == 200
    assert BrowserSession.objects.filter(user=cashier_user).count() == 1  # listed on the devices page
    r = client_for(director).post(f"{STAFF}{cashier_user.pk}/password/", {}, format="json")
    assert not BrowserSession.objects.filter(user=cashier_user).exists()  # no longer listed
    assert r.status_code == 200
    new = r.json()["password"]
    assert session.get("/desk/").status_code == 302  # back to the login page
    assert token.get("/api/v1/cashier/shift/").status_code == 401
    assert not Client().login(username="carl", password="pw-carl")
    assert session_of(cashier_user, new).get("/desk/").status_code == 200
    assert sentences("staff.password.reset") == ["Dora reset the password of carl: its sessions and devices are logged out"]


def test_a_disabled_login_can_do_nothing_and_keeps_its_history_until_enabled(director, cashier_user):
    session, token = session_of(cashier_user), token_of(cashier_user)
    page = session_of(director)
    r = page.post("/staff/", {"op": "disable", "login": cashier_user.pk}, follow=True)
    assert "disabled" in r.content.decode()
    assert session.get("/desk/").status_code == 302  # the page: to the login form
    assert session.get("/api/v1/cashier/shift/").status_code in (401, 403)  # the API through the session
    assert token.get("/api/v1/cashier/shift/").status_code == 401  # the token
    assert not Client().login(username="carl", password="pw-carl")  # a new login
    assert not BrowserSession.objects.filter(user=cashier_user).exists()
    assert TournamentEvent.objects.filter(action="auth.token.issued", payload__user="carl").exists()  # the history stays
    page.post("/staff/", {"op": "enable", "login": cashier_user.pk})
    assert session_of(cashier_user).get("/desk/").status_code == 200
    assert token.get("/api/v1/cashier/shift/").status_code == 401  # enabling brings no token back
    assert sentences("staff.login.disabled") == ["Dora disabled the login carl"]
    assert sentences("staff.login.enabled") == ["Dora enabled the login carl again"]


def test_only_a_director_opens_the_staff_page_and_its_api(director, cashier_user, floor_user):
    for user in (cashier_user, floor_user):
        assert session_of(user).get("/staff/").status_code == 403
        assert client_for(user).get(STAFF).status_code == 403
        assert client_for(user).post(STAFF, {"username": "x", "role": "director"}, format="json").status_code == 403
    assert session_of(director).get("/staff/").status_code == 200


def test_a_director_resetting_his_own_password_stays_logged_in_here_and_nowhere_else(director):
    here, elsewhere = session_of(director), session_of(director)
    here.get("/staff/"), elsewhere.get("/staff/")  # both browsers listed on the devices page
    r = here.post("/staff/", {"op": "password", "login": director.pk, "password": "a-new-long-one"})
    assert r.status_code == 302 and here.get("/staff/").status_code == 200
    assert elsewhere.get("/staff/").status_code == 302
    assert TournamentEvent.objects.filter(action="auth.session.ended").count() == 1  # the other browser only


def test_a_name_that_reads_as_a_logins_own_is_that_login_on_every_path(director, capsys):
    """Fullwidth letters, another case, a Cyrillic look-alike: the staff page, its API and the
    command refuse each with an error naming the field, never a second login nor a 500."""
    make_user("cassa4", "cashier")
    api, page = client_for(director), session_of(director)
    for name in ("Ｄirector", "ｃａｓｓａ4", "DORA", "Ｄｏｒａ"):
        if name == "Ｄirector":
            make_user("director", "director")
        r = api.post(STAFF, {"username": name, "role": "floor"}, format="json")
        assert r.status_code == 409 and r.json()["code"] == "username_taken" and r.json()["field"] == "username", name
        r = page.post("/staff/", {"op": "add", "username": name, "role": "floor"}, follow=True)
        assert "Username: a login of that name exists." in r.content.decode(), name
        with pytest.raises(CommandError, match="already exists"):
            call_command("createdirector", name, role="floor", stdout=io.StringIO())
    for name in ("dirеctor", "pаul", "αlice"):  # a Cyrillic е, a Cyrillic а, a Greek α among Latin letters
        r = api.post(STAFF, {"username": name, "role": "floor"}, format="json")
        assert r.status_code == 400 and r.json()["code"] == "username_mixed_scripts" and r.json()["field"] == "username", name
        with pytest.raises(CommandError, match="one alphabet"):
            call_command("createdirector", name, role="floor", stdout=io.StringIO())
    assert sorted(get_user_model().objects.values_list("username", flat=True)) == ["cassa4", "director", "dora"]
    r = api.post(STAFF, {"username": "Ｐａｏｌａ", "role": "floor"}, format="json")  # stored and logged as it reads
    assert r.status_code == 201 and r.json()["username"] == "Paola"
    assert api.post(STAFF, {"username": "Ελένη", "role": "floor"}, format="json").status_code == 201  # one alphabet, not Latin
    assert sentences("staff.login.added")[0] == "Dora added the login Paola as floor"


def test_a_login_signs_in_by_its_name_typed_in_any_width_or_case(director, cashier_user):
    for typed in ("Ｄｏｒａ", "DORA", "dora"):
        assert Client().login(username=typed, password="pw-dora"), typed
    r = APIClient().post("/api/v1/auth/token/", {"username": "ＣＡＲＬ", "password": "pw-carl", "device": "tablet"}, format="json")
    assert r.status_code == 200
    assert TournamentEvent.objects.filter(action="auth.token.issued").get().payload["user"] == "carl"
    assert not Client().login(username="Ｄｏｒａ", password="wrong")


def test_a_name_taken_between_the_look_and_the_write_is_refused_not_a_500(director, monkeypatch):
    """Two directors adding ``cassa4`` at the same moment: the second finds the name free, then
    the database's unique name refuses it; he is told the name is taken."""
    make_user("cassa4", "cashier")
    monkeypatch.setattr(usernames, "holder", lambda name, **kw: None)  # the look made before the other's write
    r = client_for(director).post(STAFF, {"username": "cassa4", "role": "floor"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "username_taken" and r.json()["field"] == "username"


def test_a_role_change_the_database_keeps_refusing_for_a_lock_is_busy_not_a_500(director, floor_user, monkeypatch):
    """The database ends a change of the directors to break a deadlock: it is run again, and
    still refused after a few tries the director is told to try again (409 busy)."""

    class Deadlock(Exception):
        sqlstate = "40P01"

    tries = []

    def deadlocked():
        tries.append(1)
        raise OperationalError("deadlock detected") from Deadlock()

    monkeypatch.setattr(staff, "_lock_directors", deadlocked)
    api = client_for(director)
    for op, body in (("role", {"role": "cashier"}), ("disable", {})):
        tries.clear()
        r = api.post(f"{STAFF}{floor_user.pk}/{op}/", body, format="json")
        assert r.status_code == 409 and r.json()["code"] == "busy" and len(tries) == ATTEMPTS, op
    floor_user.refresh_from_db()
    assert floor_user.is_active and staff.role_of(floor_user) == "floor"


@pytest.fixture
def hub(settings, monkeypatch):
    """A fresh live hub on the in-process path (no Redis), a fake builder."""
    settings.REDIS_URL = ""
    listeners = list(realtime.changes._local_listeners)
    hub = realtime.Hub()
    hub.snapshot_builder = lambda tid: {"tournament": tid, "state": 0}
    monkeypatch.setattr(realtime, "hub", hub)
    yield hub
    realtime.changes._local_listeners[:] = listeners


@pytest.fixture
def loop(hub):
    """The web process's event loop, on a thread of its own: the streams are read there."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(hub.stop_heartbeat)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)


class Watching:
    """A staff login's live stream of a tournament, read on ``loop``: ``opened`` once the first
    state came, ``ended`` once the stream ended by itself."""

    def __init__(self, loop, user, tournament_id):
        request = AsyncRequestFactory().get(f"/live/{tournament_id}/stream/")
        request.user = user
        self.response = live.live_stream(request, tournament_id)
        self.opened, self.ended, self.chunks = threading.Event(), threading.Event(), []
        self.task = asyncio.run_coroutine_threadsafe(self.read(), loop)

    async def read(self):
        async for chunk in self.response.streaming_content:
            self.chunks.append(chunk.decode())
            if chunk.startswith(b"event: state"):
                self.opened.set()
        self.ended.set()


@pytest.mark.parametrize("op", ["disable", "password", "role"])
def test_an_open_live_stream_ends_when_its_login_is_disabled_reset_or_given_another_role(
    op, hub, loop, director, floor_user, make_tournament, django_capture_on_commit_callbacks
):
    t = make_tournament()
    watching, other = Watching(loop, floor_user, t.pk), Watching(loop, director, t.pk)
    assert watching.opened.wait(10) and other.opened.wait(10)
    with django_capture_on_commit_callbacks(execute=True):
        r = session_of(director).post("/staff/", {"op": op, "login": floor_user.pk, "role": "cashier"})
    assert r.status_code in (200, 302)
    assert watching.ended.wait(5), watching.chunks  # within five seconds, however long the heartbeat
    assert not other.ended.is_set() and hub.by_login.keys() == {director.pk}  # another login's stream goes on
    realtime.login_ended(director.pk)
    assert other.ended.wait(5)


def test_a_stream_whose_login_ended_after_its_check_ends_at_once(hub, floor_user, make_tournament):
    """The login was checked, then disabled before its stream joined the hub: it ends all the same."""
    t = make_tournament()
    request = AsyncRequestFactory().get(f"/live/{t.pk}/stream/")
    request.user = floor_user
    response = live.live_stream(request, t.pk)

    async def run():
        hub._ensure_started()
        realtime.login_ended(floor_user.pk)
        await asyncio.sleep(0)  # the hub hears it (call_soon_threadsafe) before the stream reads
        return [chunk async for chunk in response.streaming_content]

    assert asyncio.run(asyncio.wait_for(run(), 10)) == [] and hub.by_login == {}


def test_no_cache_keeps_an_answer_that_shows_a_secret(director, floor_user, make_tournament):
    """A password made to be shown once, a device's token, the lobby screens' links (their keys):
    neither a proxy nor the browser's history keeps the answer that shows one."""
    t = make_tournament()
    screens = [DisplayScreen.objects.create(name=f"TV {i}", tournament=t, token=f"tv-secret-{i}") for i in (1, 2)]
    page, api = session_of(director), client_for(director)
    answers = {
        "staff page, login added": page.post("/staff/", {"op": "add", "username": "dario", "role": "dealer", "password": ""}),
        "staff page, password reset": page.post("/staff/", {"op": "password", "login": floor_user.pk, "password": ""}),
        "staff API, login added": api.post(STAFF, {"username": "ettore", "role": "floor"}, format="json"),
        "staff API, password reset": api.post(f"{STAFF}{floor_user.pk}/password/", {}, format="json"),
        "token login": APIClient().post("/api/v1/auth/token/", {"username": "dora", "password": "pw-dora", "device": "tablet"}, format="json"),
        "screens page": page.get("/displays/"),
        "screens API": api.get("/api/v1/screens/"),
        "screen's new link": api.post(f"/api/v1/screens/{screens[0].pk}/rotate-token/"),
        "lobby login's screens": session_of(make_user("tv", "display")).get("/"),
    }
    assert {what: r.status_code for what, r in answers.items() if r.status_code not in (200, 201)} == {}
    assert [what for what, r in answers.items() if "no-store" not in r.get("Cache-Control", "")] == []
    assert "tv-secret-2" in answers["lobby login's screens"].content.decode()


def test_the_throttle_counts_every_variant_of_a_name_as_one_and_logs_it_folded():
    """Five wrong passwords for ``Mara…`` typed five ways lock it out at that address; the
    lock-out's row writes the name as it is compared, not the variant typed."""
    name = "Mara" + uuid.uuid4().hex[:8]  # counters of its own (the cache may be a shared Redis)
    make_user(name, "cashier")
    wide = "".join(chr(ord(c) + 0xFEE0) for c in name)
    api = APIClient(REMOTE_ADDR=f"198.51.100.{uuid.uuid4().int % 250 + 1}")
    for typed in (wide, name.upper(), name, wide.lower(), name.swapcase()):
        assert api.post("/api/v1/auth/token/", {"username": typed, "password": "wrong"}, format="json").status_code == 400, typed
    assert api.post("/api/v1/auth/token/", {"username": name, "password": "pw-" + name}, format="json").status_code == 429
    assert TournamentEvent.objects.get(action="auth.lockout.started").payload["username"] == name.lower()


STRONG = "Lungo-e-Sicuro-2026"


def admin_session():
    root = get_user_model().objects.create_superuser("root", password="pw-root")
    client = Client()
    client.force_login(root)
    return client


def admin_change(user, **fields):
    """The admin's change form of ``user`` as it shows it, with ``fields`` changed (None: left empty)."""
    data = {
        "username": user.username,
        "first_name": "",
        "last_name": "",
        "email": "",
        "is_active": "on" if user.is_active else None,
        "groups": [g.pk for g in user.groups.all()],
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
        "initial-date_joined_0": "2026-01-01",
        "initial-date_joined_1": "00:00:00",
    }
    data.update(fields)
    return {k: v for k, v in data.items() if v is not None}


def test_the_admin_adds_and_renames_a_login_by_the_staff_pages_rule(director, cashier_user):
    """Django's own forms would store ``Ｄｏｒａ`` beside ``dora`` and a Cyrillic ``cаrl`` beside
    ``carl``: the admin refuses them as the staff page does, on the username field, in the
    reader's language, and lets a login be renamed to its own name in another case."""
    admin = admin_session()
    refused = {
        "Ｄｏｒａ": "a login of that name exists.",
        "DORA": "a login of that name exists.",
        "cаrl": "letters of one alphabet only",  # a Cyrillic а
        "dirеctor": "letters of one alphabet only",  # a Cyrillic е
    }
    for name, problem in refused.items():
        r = admin.post("/admin/auth/user/add/", {"username": name, "usable_password": "true", "password1": STRONG, "password2": STRONG})
        assert r.status_code == 200 and problem in " ".join(r.context["adminform"].form.errors["username"]), name
        r = admin.post(f"/admin/auth/user/{cashier_user.pk}/change/", admin_change(cashier_user, username=name))
        assert r.status_code == 200 and problem in " ".join(r.context["adminform"].form.errors["username"]), name
    r = admin.post(f"/admin/auth/user/{cashier_user.pk}/change/", admin_change(cashier_user, username="DORA"), HTTP_ACCEPT_LANGUAGE="it")
    assert "esiste già un'utenza con questo nome." in " ".join(r.context["adminform"].form.errors["username"])
    assert sorted(get_user_model().objects.values_list("username", flat=True)) == ["carl", "dora", "root"]
    r = admin.post(f"/admin/auth/user/{cashier_user.pk}/change/", admin_change(cashier_user, username="Ｃａｒｌ"))  # its own name, as it reads
    assert r.status_code == 302
    r = admin.post("/admin/auth/user/add/", {"username": "Ｐａｏｌａ", "usable_password": "true", "password1": STRONG, "password2": STRONG})
    assert r.status_code == 302
    assert sorted(get_user_model().objects.values_list("username", flat=True)) == ["Carl", "Paola", "dora", "root"]


def test_a_password_changed_by_any_path_ends_the_logins_streams_once(director, floor_user, monkeypatch, django_capture_on_commit_callbacks):
    """The admin's password form, ``manage.py changepassword``, a ``set_password`` and save, the
    staff page's reset: the login's streams end, announced once; a save that keeps the password
    (its last login, a name) ends nothing."""
    ended = []
    monkeypatch.setattr(realtime, "login_ended", ended.append)
    monkeypatch.setattr("django.contrib.auth.management.commands.changepassword.getpass.getpass", lambda prompt="": STRONG + "!")
    admin = admin_session()

    def admin_form():
        r = admin.post(f"/admin/auth/user/{floor_user.pk}/password/", {"usable_password": "true", "password1": STRONG, "password2": STRONG})
        assert r.status_code == 302

    def by_hand():
        user = get_user_model().objects.get(pk=floor_user.pk)
        user.set_password(STRONG + "?")
        user.save()

    def staff_page():
        r = session_of(director).post("/staff/", {"op": "password", "login": floor_user.pk, "password": ""})
        assert r.status_code in (200, 302)

    paths = {
        "admin's password form": admin_form,
        "changepassword": lambda: call_command("changepassword", floor_user.username, stdout=io.StringIO()),
        "set_password and save": by_hand,
        "staff page's reset": staff_page,
    }
    with django_capture_on_commit_callbacks(execute=True):
        user = get_user_model().objects.get(pk=floor_user.pk)
        user.first_name = "Felice"
        user.save()
        session_of(floor_user)  # its last login written
    assert ended == []
    for what, change in paths.items():
        ended.clear()
        with django_capture_on_commit_callbacks(execute=True):
            change()
        assert ended == [floor_user.pk], what


@pytest.mark.parametrize("op", ["admin-disable", "admin-password"])
def test_an_open_live_stream_ends_when_the_admin_disables_its_login_or_changes_its_password(
    op, hub, loop, director, floor_user, make_tournament, django_capture_on_commit_callbacks
):
    t = make_tournament()
    watching, other = Watching(loop, floor_user, t.pk), Watching(loop, director, t.pk)
    assert watching.opened.wait(10) and other.opened.wait(10)
    admin = admin_session()
    with django_capture_on_commit_callbacks(execute=True):
        if op == "admin-disable":
            r = admin.post(f"/admin/auth/user/{floor_user.pk}/change/", admin_change(floor_user, is_active=None))
        else:
            r = admin.post(f"/admin/auth/user/{floor_user.pk}/password/", {"usable_password": "true", "password1": STRONG, "password2": STRONG})
    assert r.status_code == 302
    assert watching.ended.wait(5), watching.chunks
    assert not other.ended.is_set()
    if op == "admin-disable":  # as on the staff page: in the event log
        assert sentences("staff.login.disabled") == [f"Root disabled the login {floor_user.username}"]
    realtime.login_ended(director.pk)
    assert other.ended.wait(5)


def user_admin(*perms):
    """A login that works the admin's user pages without being a director itself (the user
    permissions only): the room's last director is then another login."""
    from django.contrib.auth.models import Permission

    keeper = make_user("keeper", is_staff=True)
    keeper.user_permissions.add(*Permission.objects.filter(content_type__app_label="auth", codename__in=perms or ("view_user", "change_user", "delete_user")))
    client = Client()
    client.force_login(keeper)
    return client


def admin_messages(r):
    return [str(m) for m in r.context["messages"]]


def test_the_admin_neither_disables_demotes_nor_deletes_the_last_director(director, floor_user):
    """The staff page's rule in the admin: the last active director is not disabled, taken out
    of the director's group (for none or another), deleted on its page or with the list's
    "delete selected", each refused in the reader's language with nothing changed, not even the
    admin's own history; with another director, it is."""
    from django.contrib.admin.models import LogEntry

    admin = user_admin()
    floor = floor_user.groups.get()
    refused = {
        "disabled": admin_change(director, is_active=None),
        "left with no group": admin_change(director, groups=[]),
        "given the floor's group": admin_change(director, groups=[floor.pk]),
    }
    for what, form in refused.items():
        r = admin.post(f"/admin/auth/user/{director.pk}/change/", form)
        assert r.status_code == 200, what
        assert "The last director" in " ".join(r.context["adminform"].form.non_field_errors()), what
    r = admin.post(f"/admin/auth/user/{director.pk}/change/", admin_change(director, is_active=None), HTTP_ACCEPT_LANGUAGE="it")
    assert "L'ultimo direttore non può essere disattivato" in " ".join(r.context["adminform"].form.non_field_errors())
    r = admin.post(f"/admin/auth/user/{director.pk}/delete/", {"post": "yes"}, follow=True)
    assert any("The last director cannot be deleted" in m for m in admin_messages(r))
    r = admin.post("/admin/auth/user/", {"action": "delete_selected", "_selected_action": [director.pk, floor_user.pk], "post": "yes"}, follow=True)
    assert any("The last director cannot be deleted" in m for m in admin_messages(r))
    director.refresh_from_db()
    assert director.is_active and staff.role_of(director) == "director"
    assert get_user_model().objects.filter(pk__in=[director.pk, floor_user.pk]).count() == 2
    assert not LogEntry.objects.exists() and not TournamentEvent.objects.exists()
    # Another director: the first one may go, on its page and in a selection.
    r = admin.post(f"/admin/auth/user/{floor_user.pk}/change/", admin_change(floor_user, groups=[director.groups.get().pk]))
    assert r.status_code == 302
    r = admin.post(f"/admin/auth/user/{director.pk}/change/", admin_change(director, is_active=None))
    assert r.status_code == 302
    director.refresh_from_db()
    assert not director.is_active


def test_a_superuser_in_the_admin_does_not_untick_the_last_directors_flag():
    """A superuser is a director by its flag: the last one keeps it, and keeps itself."""
    admin = admin_session()
    root = get_user_model().objects.get(username="root")
    r = admin.post(f"/admin/auth/user/{root.pk}/change/", admin_change(root, is_superuser=None, is_staff="on"))
    assert r.status_code == 200 and "The last director keeps the director's role" in " ".join(r.context["adminform"].form.non_field_errors())
    r = admin.post("/admin/auth/user/", {"action": "delete_selected", "_selected_action": [root.pk], "post": "yes"}, follow=True)
    assert any("The last director cannot be deleted" in m for m in admin_messages(r))
    root.refresh_from_db()
    assert root.is_superuser and root.is_active


def test_a_login_added_in_the_admin_is_in_the_event_log_once_as_on_the_staff_page(director):
    admin = admin_session()
    r = admin.post("/admin/auth/user/add/", {"username": "Ｐａｏｌａ", "usable_password": "true", "password1": STRONG, "password2": STRONG})
    assert r.status_code == 302
    paola = get_user_model().objects.get(username="Paola")
    rows = list(TournamentEvent.objects.filter(action="staff.login.added").values_list("payload", flat=True))
    assert rows == [{"login": paola.pk, "username": "Paola", "role": ""}]
    assert sentences("staff.login.added") == ["Root added the login Paola, with no role yet"]
    r = admin.post(f"/admin/auth/user/{paola.pk}/change/", admin_change(paola, first_name="Paola"))
    assert r.status_code == 302 and TournamentEvent.objects.filter(action="staff.login.added").count() == 1


def test_a_login_deleted_in_the_admin_is_logged_out_everywhere_and_in_the_event_log(
    hub, loop, director, floor_user, cashier_user, make_tournament, django_capture_on_commit_callbacks
):
    t = make_tournament()
    watching, other = Watching(loop, floor_user, t.pk), Watching(loop, director, t.pk)
    assert watching.opened.wait(10) and other.opened.wait(10)
    # A login with history (an API login issued is a row of its own) is kept by the event log:
    # the admin refuses before asking. This one only ever used a browser.
    browser = session_of(floor_user)
    assert browser.get("/devices/").status_code == 200
    admin = admin_session()
    with django_capture_on_commit_callbacks(execute=True):
        r = admin.post(f"/admin/auth/user/{floor_user.pk}/delete/", {"post": "yes"})
    assert r.status_code == 302
    assert watching.ended.wait(5), watching.chunks
    assert not other.ended.is_set()
    assert browser.get("/devices/").status_code == 302  # to the login page
    assert sentences("staff.login.deleted") == ["Root deleted the login flo: its sessions and devices are logged out"]
    r = admin.post("/admin/auth/user/", {"action": "delete_selected", "_selected_action": [cashier_user.pk], "post": "yes"})
    assert r.status_code == 302 and not get_user_model().objects.filter(pk=cashier_user.pk).exists()
    assert sentences("staff.login.deleted")[1:] == ["Root deleted the login carl: its sessions and devices are logged out"]
    realtime.login_ended(director.pk)
    assert other.ended.wait(5)


def test_a_role_changed_in_the_admin_ends_the_logins_streams_and_is_in_the_event_log(
    hub, loop, director, floor_user, cashier_user, make_tournament, django_capture_on_commit_callbacks
):
    """The admin's groups are the staff page's roles: a login moved from one to another (or to
    none) is in the event log by the roles' names, and its open live stream ends (what it may
    watch changed), as ``set_role`` does; a save that leaves the role as it was writes nothing."""
    t = make_tournament()
    watching, other = Watching(loop, floor_user, t.pk), Watching(loop, cashier_user, t.pk)
    assert watching.opened.wait(10) and other.opened.wait(10)
    admin = admin_session()
    cashier = cashier_user.groups.get()
    with django_capture_on_commit_callbacks(execute=True):
        r = admin.post(f"/admin/auth/user/{floor_user.pk}/change/", admin_change(floor_user, groups=[cashier.pk]))
    assert r.status_code == 302
    assert watching.ended.wait(5), watching.chunks
    assert not other.ended.is_set()
    with django_capture_on_commit_callbacks(execute=True):
        r = admin.post(f"/admin/auth/user/{cashier_user.pk}/change/", admin_change(cashier_user, first_name="Carla", groups=[cashier.pk]))
    assert r.status_code == 302 and not other.ended.is_set()
    r = admin.post(f"/admin/auth/user/{floor_user.pk}/change/", admin_change(floor_user, groups=[]))
    assert r.status_code == 302
    assert sentences("staff.role.changed") == [
        "Root changed the role of flo from floor to cashier",
        "Root changed the role of flo from cashier to no role",
    ]
    realtime.login_ended(cashier_user.pk)
    assert other.ended.wait(5)
