"""A staff login ends after TDM_SESSION_IDLE_MINUTES without activity (issue #30 item 9): the
next page asks to log in again and says why, the API answers as to nobody logged in; what pages
ask by themselves (live state, API reads) keeps nobody logged in."""

import pytest
import time_machine

from tests.conftest import make_user

pytestmark = pytest.mark.django_db

T0 = 1_900_000_000


def test_a_login_ends_after_the_idle_time_and_the_login_page_says_why(client, settings):
    settings.TDM_SESSION_IDLE_MINUTES = 120
    with time_machine.travel(T0, tick=False) as clock:
        client.force_login(make_user("idle-dora", "director"))
        assert client.get("/").status_code == 200
        clock.shift(119 * 60)
        assert client.get("/").status_code == 200  # activity: the idle time starts again
        clock.shift(121 * 60)
        r = client.get("/desk/")
        assert r.status_code == 302 and r["Location"].startswith("/login/?next=%2Fdesk%2F&idle=1")
        page = client.get(r["Location"]).content.decode()
        assert "You were logged out after 120 minutes without activity." in page
        assert client.get("/api/v1/tournaments/").status_code == 401


def test_the_api_refuses_a_session_left_idle(client, settings):
    settings.TDM_SESSION_IDLE_MINUTES = 30
    with time_machine.travel(T0, tick=False) as clock:
        client.force_login(make_user("idle-carl", "cashier"))
        assert client.get("/api/v1/tournaments/").status_code == 200
        clock.shift(31 * 60)
        r = client.get("/api/v1/tournaments/")
        assert r.status_code == 401 and r.json()["code"] == "not_authenticated"


def test_what_a_page_asks_by_itself_keeps_nobody_logged_in(client, settings, make_tournament):
    settings.TDM_SESSION_IDLE_MINUTES = 60
    t = make_tournament()
    with time_machine.travel(T0, tick=False) as clock:
        client.force_login(make_user("idle-flo", "floor"))
        assert client.get(f"/tournaments/{t.pk}/clock/").status_code == 200  # the clock page, then left alone
        for _ in range(5):
            clock.shift(15 * 60)
            assert client.get(f"/live/{t.pk}/state/").status_code in (200, 403)
            client.get("/api/v1/tournaments/")
        assert client.get(f"/tournaments/{t.pk}/clock/").status_code == 302


def test_zero_means_a_login_never_idles_out(client, settings):
    settings.TDM_SESSION_IDLE_MINUTES = 0
    with time_machine.travel(T0, tick=False) as clock:
        client.force_login(make_user("idle-ever", "director"))
        assert client.get("/").status_code == 200
        clock.shift(7 * 24 * 3600)
        assert client.get("/").status_code == 200
