"""FMT-16 (TDA 11-B, CLK-01): a mixed event names the game of each level in its structure, and
the clock's snapshot (lobby screens, the staff's clock page) says which game is played now and
which comes next."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.clock import services as clock_services
from tournaments.live.snapshot import clock_snapshot
from tournaments.models import StructureItem

pytestmark = pytest.mark.django_db

ROTATION = ["NLHE", "RAZZ", "STUD", "O8"]  # HORSE-like: a game a level


def test_a_mixed_event_shows_each_levels_game_and_the_next_one(make_tournament, actor):
    t = make_tournament(game="MIXED")
    levels = list(t.structure.items.filter(kind=StructureItem.LEVEL).order_by("position"))
    assert len(levels) >= 3 and levels[0].position == 0 and levels[1].position == 1  # levels 1 and 2 come first
    for level, game in zip(levels, ROTATION * 10):
        StructureItem.objects.filter(pk=level.pk).update(game=game)
    t0 = timezone.now()
    clock_services.start_clock(t, actor=actor, now=t0)
    first = clock_snapshot(t, now=t0 + timedelta(minutes=1))
    assert (first["level_number"], first["game"], first["next"]["game"]) == (1, "NLHE", "RAZZ")
    second = clock_snapshot(t, now=t0 + timedelta(minutes=levels[0].minutes, seconds=30))
    assert (second["level_number"], second["game"]) == (2, "RAZZ")
