"""The public seat lookup (issue #14): its answer as you type, the tournament and its clock,
and the result once the tournament is over."""

import pytest
from django.test import Client

from seating import selectors, services
from tournaments.clock import services as clock_services
from tournaments.models import Tournament
from tournaments.setup import lifecycle

from .test_support import started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def find(t, q):
    response = Client().get(f"/seats/{t.pk}/find/", {"q": q})
    assert response.status_code == 200
    return response.json()


def test_the_answer_as_you_type_carries_the_seat_the_move_and_the_clock(started, actor):
    t = started(12)
    clock_services.start_clock(t, actor=actor)
    entry = t.entries.get(number=4)
    entry.person.first_name, entry.person.last_name = "Giulia", "Bianchi"
    entry.person.save()
    data = find(t, "bia")
    seat = selectors.seat_of(entry)
    assert data["state"] == "running" and data["tournament"]["name"] == t.name
    # the name as the house shows it in public: first name and initial by default (issue #30)
    assert data["results"] == [{"name": "Giulia B.", "table": seat["table"], "seat": seat["seat"], "move_to": None}]
    assert data["clock"]["status"] == "RUNNING" and data["clock"]["level_number"] == 1
    assert find(t, "b")["results"] == [] and find(t, "bi")["results"] == []  # three letters at least (issue #30)
    html = Client().get(f"/seats/{t.pk}/").content.decode()
    assert 'id="lookup-clock"' in html and 'data-find="/seats/' in html


def test_before_the_start_seats_come_with_the_draw(make_tournament):
    t = make_tournament()
    data = find(t, "mario")
    assert data["state"] == "waiting" and data["results"] == [] and data["clock"] is None
    assert "Seats are drawn when the tournament starts." in Client().get(f"/seats/{t.pk}/").content.decode()


def test_a_finished_tournament_shows_the_result_not_the_draw(started, actor):
    t = started(3)
    first, second, third = (t.entries.get(number=n) for n in (1, 2, 3))
    second.person.first_name, second.person.last_name = "Lucia", "Ferri"
    second.person.save()
    services.record_bust(t, [third], actor=actor)
    services.record_bust(t, [second], actor=actor)
    lifecycle.finish(t, actor=actor)
    t.refresh_from_db()
    assert t.status == Tournament.FINISHED
    html = Client().get(f"/seats/{t.pk}/").content.decode()
    assert "Seats are drawn" not in html
    assert "The tournament is over." in html and "Final standings" in html and f"{first.person.first_name} T." in html
    data = find(t, "ferri")
    assert data["state"] == "finished" and data["results"] == [{"name": "Lucia F.", "place": 2}]
    assert [r["place"] for r in data["standings"]] == [1, 2, 3]


def test_a_cancelled_tournament_says_so(make_tournament, actor):
    t = make_tournament()
    lifecycle.cancel(t, actor=actor, reason="no players")
    html = Client().get(f"/seats/{t.pk}/").content.decode()
    assert "This tournament was cancelled." in html
