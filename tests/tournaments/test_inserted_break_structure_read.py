"""CLK-04: a break the director inserts is written into the event's own structure in front of
the level it interrupts; every other row is written back as it was (blinds, antes, the game,
the colour-up, the add-on, the chips leaving), read back whole."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.clock import services as clock_services
from tournaments.models import BlindStructure, StructureItem, Tournament

pytestmark = pytest.mark.django_db

FIELDS = ("kind", "small_blind", "big_blind", "ante", "big_blind_ante", "minutes", "game", "color_up", "add_on", "resume_seconds_left", "removes_denominations")


def test_an_inserted_break_is_stored_in_front_of_its_level_and_the_rest_as_it_was(make_tournament, actor):
    st = BlindStructure.objects.create(name="Evening copy", is_template=False)
    for position, row in enumerate(
        [
            dict(small_blind=100, big_blind=200, minutes=20, game="PLO"),
            dict(kind=StructureItem.BREAK, minutes=10, color_up="T25 out", add_on=True, removes_denominations=[25]),
            dict(small_blind=200, big_blind=400, ante=400, big_blind_ante=True, minutes=20),
        ]
    ):
        StructureItem.objects.create(structure=st, position=position, **row)
    t = make_tournament(status=Tournament.RUNNING, structure=st)
    t0 = timezone.now()
    clock_services.start_clock(t, actor=actor, now=t0)
    clock_services.insert_break(t, 15, actor=actor, reason="deck change", color_up="New decks", now=t0 + timedelta(minutes=5))
    rows = list(StructureItem.objects.filter(structure=st).order_by("position").values("position", *FIELDS))
    level = dict(kind="LEVEL", ante=0, big_blind_ante=False, game="", color_up="", add_on=False, resume_seconds_left=None, removes_denominations=[])
    brk = dict(kind="BREAK", small_blind=0, big_blind=0, ante=0, big_blind_ante=False, game="", resume_seconds_left=None)
    assert rows == [
        dict(brk, position=0, minutes=15, color_up="New decks", add_on=False, resume_seconds_left=900.0, removes_denominations=[]),
        dict(level, position=1, small_blind=100, big_blind=200, minutes=20, game="PLO"),
        dict(brk, position=2, minutes=10, color_up="T25 out", add_on=True, removes_denominations=[25]),
        dict(level, position=3, small_blind=200, big_blind=400, ante=400, big_blind_ante=True, minutes=20),
    ]
