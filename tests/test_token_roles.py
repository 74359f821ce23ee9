"""API tokens (tdmanager.authentication.TokenWithRoles): the user and the roles in one query; who
may call what unchanged; refusals as DRF words them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.conftest import make_user


def token_client(user, key=None):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key or Token.objects.create(user=user).key}")
    return client


@pytest.mark.django_db
def test_the_user_and_the_roles_come_in_one_query(cashier_user):
    client = token_client(cashier_user)
    with CaptureQueriesContext(connection) as queries:
        r = client.get("/api/v1/cashier/shift/")
    assert r.status_code == 200
    asked = [q["sql"] for q in queries.captured_queries if "auth_group" in q["sql"] or "authtoken_token" in q["sql"]]
    assert len(asked) == 1 and "auth_group" in asked[0] and "authtoken_token" in asked[0]


@pytest.mark.django_db
def test_roles_decide_as_before(cashier_user, floor_user, outsider):
    assert token_client(cashier_user).get("/api/v1/cashier/shift/").status_code == 200
    assert token_client(floor_user).get("/api/v1/cashier/shift/").status_code == 403
    assert token_client(outsider).get("/api/v1/cashier/shift/").status_code == 403
    two = make_user("two-roles", "floor")
    two.groups.add(cashier_user.groups.get())
    assert token_client(two).get("/api/v1/cashier/shift/").status_code == 200
    boss = make_user("root", is_superuser=True)
    assert token_client(boss).get("/api/v1/cashier/shift/").status_code == 200  # a superuser counts as a director


@pytest.mark.django_db
def test_refusals_are_drfs_own(cashier_user):
    r = token_client(cashier_user, key="no-such-token").get("/api/v1/cashier/shift/")
    assert r.status_code == 401 and r.json() == {"code": "authentication_failed", "detail": "Invalid token."}
    client = token_client(cashier_user)
    cashier_user.is_active = False
    cashier_user.save()
    r = client.get("/api/v1/cashier/shift/")
    assert r.status_code == 401 and r.json()["detail"] == "User inactive or deleted."
