"""The lists a season makes long are paged with their count: the people (and the person just
created is on the last page, or found as one types), the tournaments that ended, the staff's
logins, a tournament's event log; through the API, the event log and the desk's sales read page
by page. Fifty a page (ten for the ended tournaments), newest or by name."""

import re

import pytest
from django.test import Client

from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.models import Tournament, TournamentEvent
from tournaments.people import services as people

pytestmark = pytest.mark.django_db


def page_of(user, url, language="en"):
    client = Client()
    client.force_login(user)
    r = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 200
    return r.content.decode()


def names(html, table_id):
    body = re.search(rf'<table[^>]*id="{table_id}".*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    return re.findall(r"<tr", body)


def test_the_people_list_is_paged_with_its_count_and_the_person_just_created_is_on_it(director, actor, make_person):
    for _ in range(61):
        make_person()
    zoe = people.create_person(actor=actor, first_name="Zoe", last_name="Zzyzx")  # last by name
    first = page_of(director, "/people/")
    assert len(names(first, "people")) == 50 and "1–50 of 62" in first and "Zzyzx" not in first
    following = re.search(r'href="([^"]+)" rel="next"', first).group(1).replace("&amp;", "&")
    second = page_of(director, "/people/" + following)
    assert len(names(second, "people")) == 12 and "51–62 of 62" in second and f'href="/people/{zoe.pk}/"' in second
    found = page_of(director, "/people/?q=zzy")
    assert len(names(found, "people")) == 1 and "Zzyzx" in found and "1–1 of 1" in found
    assert "1–50 di 62" in page_of(director, "/people/", "it")


def test_the_ended_tournaments_the_staff_and_the_event_log_are_paged(director, make_tournament, actor):
    for n in range(12):
        make_tournament(name=f"Ended {n:02d}", status=Tournament.FINISHED)
    dashboard = page_of(director, "/")
    assert "1–10 of 12" in dashboard and 'rel="next"' in dashboard
    assert "11–12 of 12" in page_of(director, "/?ended=2")
    for n in range(60):
        make_user(f"staff{n:02d}", "dealer")
    staff = page_of(director, "/staff/")
    assert len(names(staff, "staff")) == 50 and "1–50 of 61" in staff
    assert "staff59" in page_of(director, "/staff/?page=2")
    t = make_tournament(name="Long day")
    TournamentEvent.objects.bulk_create([TournamentEvent(tournament=t, action="tournaments.tournament.created", payload={}) for _ in range(70)])
    detail = page_of(director, f"/tournaments/{t.pk}/")
    assert len(names(detail, "event-log")) == 50 and "1–50 of 70" in detail
    assert len(names(page_of(director, f"/tournaments/{t.pk}/?events=2"), "event-log")) == 20


def test_the_event_log_and_the_desks_sales_are_read_page_by_page_through_the_api(api, director, cashier_user, cashier_actor, make_tournament, make_person):
    t = make_tournament(name="Long day")
    sales = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor) for _ in range(20)]
    newest_first = [s.row.receipt_number for s in reversed(sales)]
    desk = api(cashier_user)
    assert [r["receipt_number"] for r in desk.get(f"/api/v1/cashier/sales/?tournament={t.pk}&limit=15").json()] == newest_first[:15]
    assert [r["receipt_number"] for r in desk.get(f"/api/v1/cashier/sales/?tournament={t.pk}&limit=15&offset=15").json()] == newest_first[15:]
    log = [e["id"] for e in api(director).get(f"/api/v1/tournaments/{t.pk}/events/?limit=500").json()]
    assert len(log) == 20
    assert [e["id"] for e in api(director).get(f"/api/v1/tournaments/{t.pk}/events/?limit=10&offset=10").json()] == log[10:20]
    assert api(director).get(f"/api/v1/tournaments/{t.pk}/events/?offset=-1").status_code == 400
