"""Two directors demoting each other at the same moment, on PostgreSQL (its row locks are what
is tested; SQLite serialises writers whole): one is served, the other is told he is the last
director. Never a 500, never a room without a director."""

import threading
import time

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import client_for, make_user
from tests.servers import closing
from tournaments.staff import services as staff

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"], reason="PostgreSQL's row locks; run with DATABASE_URL"),
]


def meeting(monkeypatch, dora, diego):
    """Each demotion holds its own login's row before it goes on, until the other one holds his
    too or waits on a lock: the moment two demotions meet."""
    holding, deadline = [threading.Event(), threading.Event()], time.monotonic() + 10
    locked = staff._locked

    def locked_then_wait(user_id):
        user = locked(user_id)
        mine = 0 if user.pk == dora.pk else 1
        holding[mine].set()
        while not holding[1 - mine].wait(0.02) and time.monotonic() < deadline:
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
                if cursor.fetchone()[0]:
                    break
        return user

    monkeypatch.setattr(staff, "_locked", locked_then_wait)


def test_two_directors_demoting_each_other_at_once_are_served_one_after_the_other(monkeypatch):
    dora, diego = make_user("dora", "director"), make_user("diego", "director")
    meeting(monkeypatch, dora, diego)
    answers = {}

    @closing
    def demote(by, whom):
        api = client_for(by)
        api.raise_request_exception = False  # a 500 is answered, as the room would see it
        r = api.post(f"/api/v1/staff/{whom.pk}/role/", {"role": "floor"}, format="json")
        answers[whom.username] = (r.status_code, r.json().get("code") if r.status_code < 500 else None)

    threads = [threading.Thread(target=demote, args=(dora, diego)), threading.Thread(target=demote, args=(diego, dora))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert sorted(answers.values(), key=str) == [(200, None), (409, "last_director")], answers
    assert [staff.role_of(u) for u in (dora, diego)].count("director") == 1


def test_a_director_demoted_in_the_admin_while_the_other_is_on_the_staff_page_leaves_one(monkeypatch):
    """The admin's change form takes ``dora`` out of the director's group (its groups saved after
    the login itself) while ``diego`` demotes himself through the API: one is served, the other refused (the form's
    error, or ``409 last_director``), and one director is left."""
    from django.contrib.auth.models import Permission
    from django.test import Client

    dora, diego = make_user("dora", "director"), make_user("diego", "director")
    keeper = make_user("keeper", is_staff=True)
    keeper.user_permissions.add(*Permission.objects.filter(content_type__app_label="auth", codename__in=("view_user", "change_user")))
    meeting(monkeypatch, dora, diego)
    answers = {}

    @closing
    def in_the_admin():
        admin = Client(raise_request_exception=False)
        admin.force_login(keeper)
        form = {"username": "dora", "is_active": "on", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"}
        form.update({"initial-date_joined_0": "2026-01-01", "initial-date_joined_1": "00:00:00"})
        r = admin.post(f"/admin/auth/user/{dora.pk}/change/", form)
        refused = r.status_code == 200 and "The last director" in " ".join(r.context["adminform"].form.non_field_errors())
        answers["dora"] = (r.status_code, "last_director" if refused else None)

    @closing
    def on_the_api():
        api = client_for(diego)
        api.raise_request_exception = False
        r = api.post(f"/api/v1/staff/{diego.pk}/role/", {"role": "floor"}, format="json")
        answers["diego"] = (r.status_code, r.json().get("code") if r.status_code < 500 else None)

    threads = [threading.Thread(target=in_the_admin), threading.Thread(target=on_the_api)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert sorted(answers.values(), key=str) in ([(200, "last_director"), (200, None)], [(302, None), (409, "last_director")]), answers
    assert [staff.role_of(u) for u in (dora, diego)].count("director") == 1
