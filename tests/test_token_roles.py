"""API tokens (tdmanager.authentication.TokenWithRoles): the user and the roles in one query; who
may call what unchanged; refusals as DRF words them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.conftest import make_user
from tournaments.staff.logins import issue_token


def token_client(user, key=None):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key or issue_token(user, device='test')[1]}")
    return client


@pytest.mark.django_db
def test_the_user_and_the_roles_come_in_one_query(cashier_user):
    client = token_client(cashier_user)
    with CaptureQueriesContext(connection) as queries:
        r = client.get("/api/v1/cashier/shift/")
    assert r.status_code == 200
    asked = [q["sql"] for q in queries.captured_queries if "auth_group" in q["sql"] or "devicetoken" in q["sql"]]
    assert len(asked) == 1 and "auth_group" in asked[0] and "tournaments_devicetoken" in asked[0]


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


@pytest.mark.django_db
def test_the_query_compiled_once_gives_what_the_orm_gives(cashier_user, floor_user):
    """The token query is compiled once per connection: every later key still finds its own
    token, its user (loaded along, types converted as the ORM does) and roles, in one query."""
    from django.contrib.auth.models import Group
    from django.utils import timezone

    from tdmanager.authentication import TokenWithRoles, key_digest

    floor_user.groups.add(Group.objects.get_or_create(name="cashier")[0])
    floor_user.last_login = timezone.now()
    floor_user.save()
    boss = make_user("root", is_superuser=True)
    auth = TokenWithRoles()
    for user, roles in ((cashier_user, {"cashier"}), (floor_user, {"floor", "cashier"}), (boss, {"director"})):
        key = issue_token(user, device="test")[1]
        expected = auth.query(key_digest(key)).get()
        with CaptureQueriesContext(connection) as queries:
            found, token = auth.authenticate_credentials(key)
            assert found.pk == user.pk and found.username == user.username and found.last_login == user.last_login
        assert len(queries.captured_queries) == 1
        assert type(token).user.is_cached(token) and found is token.user
        assert {k: v for k, v in vars(token).items() if k != "_state"} == {k: v for k, v in vars(expected).items() if k != "_state"}
        got = {k: (v, type(v)) for k, v in vars(found).items() if k not in ("_state", "_tdm_roles")}
        assert got == {k: (v, type(v)) for k, v in vars(expected.user).items() if k != "_state"}
        assert found._tdm_roles == roles and not token._state.adding and found._state.db == "default"
