"""API logins, one token per device (issue #40 item 6): each login is a token of its own, named
and listed; its user or a director revokes it; it expires unused after TDM_TOKEN_IDLE_MINUTES;
a password change or a disabled login ends every one; the database keeps no usable key."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test import Client, override_settings
from rest_framework.test import APIClient

from tournaments.models import DeviceToken, TournamentEvent

pytestmark = pytest.mark.django_db
LOGIN, TOKENS, SHIFT = "/api/v1/auth/token/", "/api/v1/auth/tokens/", "/api/v1/cashier/shift/"
T0 = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)


def log_in(user, device="", password=None, **extra):
    r = APIClient().post(LOGIN, {"username": user.username, "password": password or "pw-" + user.username, "device": device}, format="json", **extra)
    assert r.status_code == 200, r.json()
    return r.json()


def with_token(key, language="en"):
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_two_logins_are_two_devices_each_listed_by_name(cashier_user):
    desk, phone = log_in(cashier_user, "Desk 2 tablet"), log_in(cashier_user, "Carl's phone")
    assert desk["token"] != phone["token"] and desk["device"] == "Desk 2 tablet"
    assert with_token(desk["token"]).get(SHIFT).status_code == 200
    assert with_token(phone["token"]).get(SHIFT).status_code == 200
    listed = with_token(phone["token"]).get(TOKENS).json()["tokens"]
    assert sorted((d["name"], d["current"]) for d in listed) == [("Carl's phone", True), ("Desk 2 tablet", False)]
    assert {d["prefix"] for d in listed} == {desk["token"][:8], phone["token"][:8]}
    # each login is written in the event log with its device's name
    issued = TournamentEvent.objects.filter(action="auth.token.issued").values_list("payload__name", flat=True)
    assert sorted(issued) == ["Carl's phone", "Desk 2 tablet"]


def test_a_login_without_a_device_name_takes_the_browsers(cashier_user):
    got = log_in(cashier_user, HTTP_USER_AGENT="DeskApp/2.1 (Android 14)")
    assert got["device"] == "DeskApp/2.1 (Android 14)"


def test_the_user_logs_one_device_out_and_the_other_stays(cashier_user):
    desk, phone = log_in(cashier_user, "Desk"), log_in(cashier_user, "Phone")
    r = with_token(phone["token"]).post(f"{TOKENS}{desk['id']}/revoke/")
    assert r.status_code == 200 and r.json() == {"id": desk["id"], "revoked": True}
    r = with_token(desk["token"], "it").get(SHIFT)
    assert r.status_code == 401 and r.json()["code"] == "token_expired"
    assert r.json()["detail"] == "L'accesso di questo dispositivo è scaduto o è stato revocato: accedi di nuovo."
    assert with_token(phone["token"]).get(SHIFT).status_code == 200
    assert [d["name"] for d in with_token(phone["token"]).get(TOKENS).json()["tokens"]] == ["Phone"]


def test_a_director_sees_and_revokes_anyones_device_and_nobody_else_can(cashier_user, director, floor_user):
    desk = log_in(cashier_user, "Desk")
    boss = log_in(director, "Office")
    everyone = with_token(boss["token"]).get(TOKENS + "?everyone=true").json()["tokens"]
    assert sorted((d["user"], d["name"]) for d in everyone) == [(cashier_user.username, "Desk"), (director.username, "Office")]
    # another user's device does not exist for the floor, and ?everyone is a director's only
    floor = log_in(floor_user, "Floor tablet")
    r = with_token(floor["token"]).post(f"{TOKENS}{desk['id']}/revoke/")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    assert [d["name"] for d in with_token(floor["token"]).get(TOKENS + "?everyone=true").json()["tokens"]] == ["Floor tablet"]
    assert with_token(desk["token"]).get(SHIFT).status_code == 200
    assert with_token(boss["token"]).post(f"{TOKENS}{desk['id']}/revoke/").status_code == 200
    assert with_token(desk["token"]).get(SHIFT).status_code == 401
    row = DeviceToken.objects.get(pk=desk["id"])
    assert (row.revoked_by, row.revoke_reason) == (director, "director")


def test_a_password_change_logs_every_device_out(cashier_user):
    desk, phone = log_in(cashier_user, "Desk"), log_in(cashier_user, "Phone")
    cashier_user.set_password("a-new-password-1")
    cashier_user.save()
    assert with_token(desk["token"]).get(SHIFT).status_code == 401
    assert with_token(phone["token"]).get(SHIFT).status_code == 401
    again = log_in(cashier_user, "Desk", password="a-new-password-1")
    assert with_token(again["token"]).get(SHIFT).status_code == 200


def test_a_disabled_login_loses_its_devices_for_good(cashier_user):
    desk = log_in(cashier_user, "Desk")
    cashier_user.is_active = False
    cashier_user.save()
    assert with_token(desk["token"]).get(SHIFT).status_code == 401
    cashier_user.is_active = True
    cashier_user.save()
    assert with_token(desk["token"]).get(SHIFT).status_code == 401  # enabled again: the old device is not back
    assert DeviceToken.objects.get(pk=desk["id"]).revoke_reason == "disabled"


@override_settings(TDM_TOKEN_IDLE_MINUTES=60)
def test_a_device_unused_for_the_idle_time_is_logged_out_and_use_keeps_it_in(cashier_user):
    with time_machine.travel(T0, tick=False) as clock:
        busy, idle = log_in(cashier_user, "Busy"), log_in(cashier_user, "Idle")
        for _ in range(3):  # the busy device works every 50 minutes: 150 minutes in all
            clock.shift(timedelta(minutes=50))
            assert with_token(busy["token"]).get(SHIFT).status_code == 200
        r = with_token(idle["token"]).get(SHIFT)
        assert r.status_code == 401 and r.json()["code"] == "token_expired"
        clock.shift(timedelta(minutes=61))
        assert with_token(busy["token"]).get(SHIFT).status_code == 401


def test_the_database_holds_no_key_that_logs_in(cashier_user):
    key = log_in(cashier_user, "Desk")["token"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM tournaments_devicetoken")
        stored = [str(v) for row in cursor.fetchall() for v in row]
    assert key not in stored and not any(key in v for v in stored)
    assert with_token(stored[[i for i, v in enumerate(stored) if len(v) == 64][0]]).get(SHIFT).status_code == 401  # the digest is no key


def test_the_devices_page_lists_and_logs_out(cashier_user, director):
    log_in(cashier_user, "Desk 2 tablet")
    page = Client()
    page.force_login(cashier_user)
    html = page.get("/devices/").content.decode()
    assert "Desk 2 tablet" in html
    token = DeviceToken.objects.get(user=cashier_user)
    r = page.post("/devices/", {"token": token.pk}, follow=True)
    assert "Desk 2 tablet" in r.content.decode()  # the message names it
    assert 'id="devices"' in r.content.decode() and DeviceToken.objects.get(pk=token.pk).revoked_at is not None
    assert page.get("/devices/").content.decode().count("Desk 2 tablet") == 0
    # the nav's username opens the page
    assert 'href="/devices/"' in page.get("/").content.decode()


def test_an_old_token_of_one_per_user_becomes_a_device(cashier_user):
    """The migration from DRF's one key per user: each old key keeps logging in, as a device."""
    from django.apps import apps as global_apps

    from tdmanager.authentication import key_digest

    migration = __import__("tournaments.migrations.0031_device_tokens", fromlist=["tokens_to_devices"])
    Token = global_apps.get_model("authtoken", "Token")
    old = Token.objects.create(user=cashier_user)
    migration.tokens_to_devices(global_apps, None)
    assert not Token.objects.exists()
    row = DeviceToken.objects.get(user=cashier_user)
    assert row.digest == key_digest(old.key) and row.name == "earlier login"
    assert with_token(old.key).get(SHIFT).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_admin_disabling_a_login_in_its_own_transaction_revokes_its_devices(cashier_user):
    """Django's admin saves a user inside a transaction of its own: the revocation is a step of it."""
    from django.db import transaction

    desk = log_in(cashier_user, "Desk")
    with transaction.atomic():
        cashier_user.is_active = False
        cashier_user.save()
    assert DeviceToken.objects.get(pk=desk["id"]).revoke_reason == "disabled"
