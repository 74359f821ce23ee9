"""The public seat lookup does not hand out the roster (issue #30 item 7): a name of at least
three letters, answered only with the players whose name begins so (few of them), each name as
the house shows names in public, never a player who opted out, and a limit per address."""

import itertools
import string
import uuid

import pytest
import time_machine
from django.test import Client
from rest_framework.test import APIClient

from seating import selectors
from tournaments.models import TournamentEvent

from .test_support import started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

NAMES = [
    ("Giulia", "Bianchi", "Giuly"),
    ("Marco", "Rossi", ""),
    ("Anna", "Verdi", ""),
    ("Luca", "Neri", "Lucky"),
    ("Sara", "Conti", ""),
    ("Paolo", "Gallo", ""),
    ("Elena", "Greco", ""),
    ("Davide", "Costa", ""),
    ("Chiara", "Ricci", ""),
    ("Matteo", "Fontana", ""),
    ("Laura", "Moretti", ""),
    ("Simone", "Rizzo", ""),
]


@pytest.fixture
def room(started):
    """A running tournament of 12 players with real names, seats drawn."""
    t = started(12)
    for entry, (first, last, nick) in zip(t.entries.order_by("number"), NAMES, strict=True):
        p = entry.person
        p.first_name, p.last_name, p.nickname = first, last, nick
        p.save()
    return t


def address():
    n = uuid.uuid4().int
    return f"198.19.{n % 250}.{(n >> 8) % 250 + 1}"


def find(t, q, ip=None, status=200):
    r = Client(REMOTE_ADDR=ip or address()).get(f"/seats/{t.pk}/find/", {"q": q})
    assert r.status_code == status, (q, r.status_code)
    return r


def seat_text(t, last):
    seat = selectors.seat_of(t.entries.get(person__last_name=last))
    return seat["table"], seat["seat"]


def test_the_676_two_letter_queries_return_no_roster(room):
    ip = address()
    found = set()
    for a, b in itertools.product(string.ascii_lowercase, repeat=2):
        data = find(room, a + b, ip).json()
        found.update(r["name"] for r in data["results"])
    assert found == set()


def test_three_letters_that_begin_many_names_list_none(started):
    t = started(12)  # Player001 Test … Player012 Test
    data = find(t, "pla").json()
    assert data["results"] == [] and data["more"] is True
    data = find(t, "player007").json()
    assert [r["name"] for r in data["results"]] == ["Player007 T."] and data["more"] is False


def test_a_name_is_found_by_how_it_begins_not_by_letters_inside_it(room):
    table, seat = seat_text(room, "Bianchi")
    assert find(room, "ian").json()["results"] == []  # inside "Bianchi", "Giulia"
    assert find(room, "bia").json()["results"] == [{"name": "Giulia B.", "table": table, "seat": seat, "move_to": None}]
    assert [r["name"] for r in find(room, "giu bia").json()["results"]] == ["Giulia B."]


def test_names_show_as_the_house_chooses(room):
    assert [r["name"] for r in find(room, "bianchi").json()["results"]] == ["Giulia B."]  # the default
    room.settings = {"seat_lookup_names": "FULL"}
    room.save()
    assert [r["name"] for r in find(room, "bianchi").json()["results"]] == ["Giulia Bianchi"]
    room.settings = {"seat_lookup_names": "NICKNAME"}
    room.save()
    assert [r["name"] for r in find(room, "bianchi").json()["results"]] == ["Giuly"]
    assert [r["name"] for r in find(room, "rossi").json()["results"]] == ["Marco R."]  # no nickname


def test_a_player_who_opted_out_through_the_api_is_not_found(room, cashier_user):
    person = room.entries.get(person__last_name="Rossi").person
    assert find(room, "rossi").json()["results"] != []
    api = APIClient()
    api.force_authenticate(cashier_user)
    r = api.patch(f"/api/v1/people/{person.pk}/", {"hide_from_lookup": True}, format="json")
    assert r.status_code == 200 and r.json()["hide_from_lookup"] is True
    assert find(room, "rossi").json()["results"] == []
    assert find(room, "marco").json()["results"] == []
    html = Client(REMOTE_ADDR=address()).get(f"/seats/{room.pk}/?q=rossi").content.decode()
    assert "Marco" not in html and "Nobody seated with that name." in html


def test_the_desk_hides_a_player_from_the_lookup_and_shows_him_again(room, client, cashier_user):
    person = room.entries.get(person__last_name="Verdi").person
    client.force_login(cashier_user)
    page = client.get(f"/people/{person.pk}/").content.decode()
    assert 'name="hide_from_lookup"' in page
    assert client.post(f"/people/{person.pk}/", {"hide_from_lookup": "1"}).status_code == 302
    assert find(room, "verdi").json()["results"] == []
    event = TournamentEvent.objects.filter(action="people.person.lookup_privacy").latest("id")
    assert event.payload == {"person": person.pk, "hidden": True} and event.actor == cashier_user
    client.post(f"/people/{person.pk}/", {})
    assert [r["name"] for r in find(room, "verdi").json()["results"]] == ["Anna V."]


def test_an_address_may_look_up_so_many_names_a_minute(room, settings):
    settings.TDM_SEAT_LOOKUP_PER_MINUTE = 5
    ip, other = address(), address()
    with time_machine.travel(1_900_000_040, tick=False) as clock:  # 20 s into a minute
        for q in ("bia", "ros", "ver", "ner", "con"):
            find(room, q, ip)
        r = find(room, "gal", ip, status=429)
        assert r.json()["code"] == "rate_limited" and int(r["Retry-After"]) == 40
        assert "Gallo" not in r.content.decode()
        find(room, "bia", ip)  # the same name again (the page refreshes its clock): answered
        find(room, "bi", ip)  # too short to answer anybody: not counted
        page = Client(REMOTE_ADDR=ip).get(f"/seats/{room.pk}/?q=gre")
        assert page.status_code == 429 and "Greco" not in page.content.decode()
        assert find(room, "gal", other).json()["results"][0]["name"] == "Paolo G."  # another address
        clock.shift(60)
        assert find(room, "gal", ip).json()["results"][0]["name"] == "Paolo G."


def test_the_lobby_screens_seat_list_follows_the_opt_out_and_the_name_style(room, cashier_user):
    """The lobby TV's rotating seat list (``/live/<id>/seats/``, a screen's token) names players
    as the seat lookup does, and never one who opted out (#40 item 4)."""
    from tournaments.models import DisplayScreen

    DisplayScreen.objects.create(name="Lobby", tournament=room, token="lobby-tv")
    person = room.entries.get(person__last_name="Rossi").person
    api = APIClient()
    api.force_authenticate(cashier_user)
    assert api.patch(f"/api/v1/people/{person.pk}/", {"hide_from_lookup": True}, format="json").status_code == 200

    def names():
        r = Client().get(f"/live/{room.pk}/seats/", {"token": "lobby-tv", "size": 200})
        assert r.status_code == 200
        return [s["name"] for s in r.json()["seats"]]

    shown = names()
    assert len(shown) == 11 and "Giulia B." in shown
    assert not any("Marco" in n or "Rossi" in n for n in shown)
    assert not any(last in n for n in shown for _, last, _ in NAMES)  # no surname in full
    room.settings = {"seat_lookup_names": "FULL"}
    room.save()
    assert "Giulia Bianchi" in names()
