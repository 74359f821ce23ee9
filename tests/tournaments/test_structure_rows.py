"""A structure as the clock plays it and the pages show it: each row named as players say it
("Level 2", "Break after level 2", CLK-01), and what the phone shows of the level or the break
on the clock, its blinds, ante type and game, its colour-up, add-on and chips leaving play
(CLK-01, CLK-02, CLK-04, CLK-09)."""

import re

import pytest
from django.test import Client

from tournaments.cashier import services as cashier
from tournaments.models import Clock
from tournaments.structures import services as structures

pytestmark = pytest.mark.django_db

ITEMS = [
    {"kind": "BREAK", "minutes": 10, "color_up": "Seats drawn at the desk"},
    {"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "minutes": 20},
    {"kind": "LEVEL", "small_blind": 200, "big_blind": 400, "ante": 50, "minutes": 20, "game": "PLO"},
    {"kind": "BREAK", "minutes": 15, "color_up": "Race off the T25s", "add_on": True, "removes_denominations": [25]},
    {"kind": "LEVEL", "small_blind": 300, "big_blind": 600, "ante": 600, "big_blind_ante": True, "minutes": 20},
]


@pytest.fixture
def event(tournament, actor):
    tournament.structure = structures.save_structure(name="Starts with a break", items=ITEMS, actor=actor, is_template=False)
    tournament.save()
    return tournament


def phone_clock(t, entry, item_index):
    """The phone's clock with the clock paused on ``item_index``, five minutes left."""
    Clock.objects.update_or_create(tournament=t, defaults={"status": Clock.PAUSED, "item_index": item_index, "remaining": 300, "version": 1})
    return Client().get(f"/p/{entry.phone_token}/state/").json()["clock"]


def test_the_clock_page_names_each_row_as_players_say_it(event, client, director):
    client.force_login(director)
    page = client.get(f"/tournaments/{event.pk}/clock/").content.decode()
    names = re.findall(r'<tr data-index="\d+" data-name="([^"]*)"', page)
    assert names == ["Break before level 1", "Level 1", "Level 2", "Break after level 2", "Level 3"]


def test_the_phone_shows_the_level_on_the_clock_its_blinds_ante_type_and_game(event, make_person, cashier_actor):
    entry = cashier.register(event, make_person(), method="CASH", actor=cashier_actor).entry
    clock = phone_clock(event, entry, 2)
    assert (clock["level_number"], clock["small_blind"], clock["big_blind"], clock["ante"]) == (2, 200, 400, 50)
    assert (clock["ante_type"], clock["game"]) == ("TABLE_ANTE", "PLO")  # an ante from every player
    clock = phone_clock(event, entry, 4)
    assert (clock["small_blind"], clock["big_blind"], clock["ante"], clock["ante_type"], clock["game"]) == (300, 600, 600, "BB_ANTE", "")
    clock = phone_clock(event, entry, 1)
    assert (clock["small_blind"], clock["big_blind"], clock["ante"], clock["ante_type"]) == (100, 200, 0, "NONE")


def test_the_phone_shows_the_break_on_the_clock_its_colour_up_add_on_and_chips_leaving(event, make_person, cashier_actor):
    entry = cashier.register(event, make_person(), method="CASH", actor=cashier_actor).entry
    clock = phone_clock(event, entry, 3)
    assert clock["is_break"] and (clock["color_up"], clock["add_on"], clock["removes_denominations"]) == ("Race off the T25s", True, [25])
    clock = phone_clock(event, entry, 0)
    assert clock["is_break"] and (clock["color_up"], clock["add_on"], clock["removes_denominations"]) == ("Seats drawn at the desk", False, [])


def test_before_the_clock_starts_the_chip_race_form_takes_the_chip_of_the_break_it_starts_with(event, api, floor_user):
    event.structure.items.filter(position=0).update(removes_denominations=[5])  # the T5s leave in the opening break
    chips = api(floor_user).get(f"/api/v1/tournaments/{event.pk}/floor/chips/")
    assert chips.status_code == 200 and chips.json()["race_denomination"] == 5
