"""CLK-08 (TDA 26, C32): an optional deck-change reminder at level changes — a house setting, off
by default. On, the staff's clock snapshot says "deck change" while the new level's notice lasts."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.clock import services as clock_services
from tournaments.house import HouseRules
from tournaments.live.snapshot import clock_snapshot

pytestmark = pytest.mark.django_db


def test_the_reminder_is_off_unless_the_house_switches_it_on(make_tournament, actor):
    assert HouseRules().deck_change_reminder is False
    t0 = timezone.now()
    on = make_tournament(settings={"deck_change_reminder": True})
    off = make_tournament()
    for t in (on, off):
        clock_services.start_clock(t, actor=actor, now=t0)
    first = on.structure.items.order_by("position").first()
    new_level = t0 + timedelta(minutes=first.minutes, seconds=20)
    snap = clock_snapshot(on, now=new_level)
    assert snap["level_number"] == 2 and snap["new_level_notice"] is True and snap["deck_change"] is True
    assert clock_snapshot(off, now=new_level)["deck_change"] is False
    # only at the change: a few minutes into the level it is gone
    assert clock_snapshot(on, now=new_level + timedelta(minutes=3))["deck_change"] is False


def test_the_clock_page_has_the_reminders_words(client, director, make_tournament):
    t = make_tournament(settings={"deck_change_reminder": True})
    client.force_login(director)
    assert "Deck change: new decks at every table" in client.get(f"/tournaments/{t.pk}/clock/").content.decode()


def test_clk08_every_level_change_reminds_again_and_the_break_does_not(make_tournament, actor):
    """The shipped structure: levels of 20 minutes, a 15-minute break after level 4. With the
    reminder on, the first hand of level 2, of level 3 and of level 4 each say "deck change";
    the break between level 4 and level 5 says nothing while it runs."""
    t0 = timezone.now()
    t = make_tournament(settings={"deck_change_reminder": True})
    clock_services.start_clock(t, actor=actor, now=t0)
    for level, minutes in ((2, 20), (3, 40), (4, 60)):
        snap = clock_snapshot(t, now=t0 + timedelta(minutes=minutes, seconds=20))
        assert (snap["level_number"], snap["deck_change"]) == (level, True)
    for minutes in (80, 94):
        snap = clock_snapshot(t, now=t0 + timedelta(minutes=minutes, seconds=20))
        assert (snap["is_break"], snap["deck_change"]) == (True, False)
