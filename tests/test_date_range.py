"""Every date and time a person types lies between the years 2000 and 2100 (docs/api.md), on
every path: the room page's shift form, the API's shift, the dealers' report as CSV and PDF (its
``?day=``), the API's report. Year 9999 overflowed when a service added hours or a day (a 500),
year 0001 was stored; both are a 4xx that names the field, and a date in range still works."""

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import timezone

from seating.models import DealerShift
from seating.services import cardrooms
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

OUT_OF_RANGE = ("9999-12-31", "0001-01-01")


@pytest.fixture
def hall(actor):
    room = cardrooms.save_room("Sala", actor=actor)
    cardrooms.save_table(room, 1, seats=9, actor=actor)
    return room


@pytest.fixture
def anna(db):
    return make_user("anna", "dealer", first_name="Anna")


def page_client(user):
    c = Client()
    c.force_login(user)
    return c


def _page_shift(director, hall, anna, starts, ends):
    r = page_client(director).post(f"/room/{hall.pk}/", {"op": "add_shift", "dealer": anna.pk, "starts_at": starts, "ends_at": ends}, follow=True)
    return r, [str(m) for m in get_messages(r.wsgi_request)]


@pytest.mark.parametrize("day", OUT_OF_RANGE)
def test_the_shift_form_refuses_a_year_outside_the_range_naming_the_field(director, hall, anna, day):
    r, said = _page_shift(director, hall, anna, f"{day}T20:00", f"{day}T23:00")
    assert r.status_code == 200
    assert any(m.startswith("From:") and "2000" in m and "2100" in m for m in said), said
    assert not DealerShift.objects.exists()


def test_the_shift_form_takes_a_date_in_the_range(director, hall, anna):
    r, said = _page_shift(director, hall, anna, "2031-05-04T20:00", "2031-05-05T02:00")
    assert r.status_code == 200 and DealerShift.objects.filter(dealer=anna).count() == 1, said


@pytest.mark.parametrize("day", OUT_OF_RANGE)
def test_the_api_refuses_a_shift_outside_the_range_naming_the_field(api, director, hall, anna, day):
    r = api(director).post(f"/api/v1/rooms/{hall.pk}/dealers/", {"dealer": anna.pk, "starts_at": f"{day}T20:00", "ends_at": f"{day}T23:00"}, format="json")
    assert r.status_code == 400, r.content
    body = r.json()
    assert set(body) >= {"code", "detail", "fields"} and "starts_at" in body["fields"] and "ends_at" in body["fields"], body
    assert not DealerShift.objects.exists()


def test_the_api_takes_a_shift_in_the_range(api, director, hall, anna):
    start = timezone.now().replace(microsecond=0) + timedelta(days=1)
    r = api(director).post(
        f"/api/v1/rooms/{hall.pk}/dealers/",
        {"dealer": anna.pk, "starts_at": start.isoformat(), "ends_at": (start + timedelta(hours=6)).isoformat()},
        format="json",
    )
    assert r.status_code == 201, r.content


@pytest.mark.parametrize("kind", ["csv", "pdf"])
@pytest.mark.parametrize("day", OUT_OF_RANGE)
def test_the_shift_report_refuses_a_day_outside_the_range_naming_it(director, hall, kind, day):
    r = page_client(director).get(f"/room/{hall.pk}/dealers.{kind}?day={day}")
    assert r.status_code == 400, r.content[:200]
    text = r.content.decode()
    assert text.startswith("Report day:") and "2000" in text, text


@pytest.mark.parametrize("kind", ["csv", "pdf"])
def test_the_shift_report_of_a_day_in_the_range_still_comes(director, hall, kind):
    r = page_client(director).get(f"/room/{hall.pk}/dealers.{kind}?day=2031-05-04")
    assert r.status_code == 200 and "2031-05-04" in r["Content-Disposition"]


@pytest.mark.parametrize("day", OUT_OF_RANGE)
def test_the_api_report_refuses_a_day_outside_the_range_naming_it(api, director, hall, day):
    r = api(director).get(f"/api/v1/rooms/{hall.pk}/dealers/report/?day={day}")
    assert r.status_code == 400, r.content
    body = r.json()
    assert body["field"] == "day" and "day" in body["fields"] and {"code", "detail"} <= set(body), body


def test_the_api_report_of_a_day_in_the_range(api, director, hall):
    r = api(director).get(f"/api/v1/rooms/{hall.pk}/dealers/report/?day=2031-05-04")
    assert r.status_code == 200 and r.json()["day"] == "2031-05-04"


@pytest.mark.parametrize("when", ["9999-12-31T20:00:00Z", "0001-01-01T00:00:00Z"])
def test_a_copied_tournament_and_a_ruling_refuse_a_year_outside_the_range(api, director, make_tournament, when):
    t = make_tournament()
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/copy/", {"name": "Copy", "start_at": when}, format="json")
    assert r.status_code == 400 and "start_at" in r.json()["fields"], r.content
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/rulings/", {"asked_by": "Mario", "question": "Q", "decision": "D", "asked_at": when}, format="json")
    assert r.status_code == 400 and "asked_at" in r.json()["fields"], r.content


def test_the_exchange_rates_refuse_a_day_outside_the_range(api, director):
    for day in OUT_OF_RANGE:
        r = api(director).get(f"/api/v1/cashier/exchange-rates/?date={day}")
        assert r.status_code == 400 and r.json()["field"] == "date", r.content
    assert api(director).get("/api/v1/cashier/exchange-rates/?date=2031-05-04").status_code == 200
