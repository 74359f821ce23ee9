"""The floor's chips answer read whole: the counted stacks against the chips in play (CR-06),
the chip set's stacks for the field and the racks a table needs, and the colour-ups the blinds
allow with the chip the next race takes (CLK-09). Every figure below is worked out by hand."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.floor import services as floor
from tournaments.models import BlindStructure, ChipDenomination, ChipSet, Entry, StructureItem, Tournament

pytestmark = pytest.mark.django_db

# A small case: 160 T100s and only 8 T1000s.
SMALL_CASE = ((100, 160), (1000, 8))


def _chip_set(name, rows):
    cs = ChipSet.objects.create(name=name)
    for value, qty in rows:
        ChipDenomination.objects.create(chip_set=cs, value=value, quantity=qty)
    return cs


@pytest.fixture
def evening(make_tournament, make_person, cashier_actor):
    """10,000 to start, an add-on of 4,100; five registered: A, B, C and E play, D's sale was
    reversed. Another event plays beside it."""
    t = make_tournament(
        status=Tournament.RUNNING,
        starting_stack=10000,
        addon_price=Decimal("20"),
        addon_chips=4100,
        chip_set=_chip_set("Small case", SMALL_CASE),
    )
    a, b, c, d, e = (cashier.register(t, make_person(name), method="CASH", actor=cashier_actor) for name in "ABCDE")
    cashier.reverse(d.row, reason="wrong event", actor=cashier_actor)
    other = make_tournament(name="Side event", status=Tournament.RUNNING)
    stranger = cashier.register(other, make_person("Z"), method="CASH", actor=cashier_actor).entry
    return t, (a.entry, b.entry, c.entry, e.entry), stranger


def test_the_floor_reads_its_counts_against_the_chips_in_play_of_its_own_players(evening, actor, api, floor_user):
    """A counted 12,000 and B 9,500 (E counted 8,000 before he went out; the side event's player
    40,000): two of the three players counted, no difference yet. C counted 18,000: 39,500
    counted against 40,000 in play (four stacks sold), 500 short."""
    t, (a, b, c, e), stranger = evening
    floor.record_chip_counts(t, [{"entry": e.pk, "chips": 8000}], occasion="BREAK", actor=actor)
    Entry.objects.filter(pk=e.pk).update(status=Entry.BUSTED)  # out since
    floor.record_chip_counts(stranger.tournament, [{"entry": stranger.pk, "chips": 40000}], occasion="BREAK", actor=actor)
    floor.record_chip_counts(t, [{"entry": a.pk, "chips": 12000}, {"entry": b.pk, "chips": 9500}], occasion="BREAK", actor=actor)
    url = f"/api/v1/tournaments/{t.pk}/floor/chips/"
    assert api(floor_user).get(url).json()["counts"] == {
        "counted_players": 2,
        "players": 3,
        "counted_total": 21500,
        "chips_in_play": 40000,
        "difference": None,
    }
    floor.record_chip_counts(t, [{"entry": c.pk, "chips": 18000}], occasion="BREAK", actor=actor)
    assert api(floor_user).get(url).json()["counts"] == {
        "counted_players": 3,
        "players": 3,
        "counted_total": 39500,
        "chips_in_play": 40000,
        "difference": -500,
    }


def test_the_chip_set_is_checked_for_each_stack_of_the_field(evening, make_tournament, api, floor_user):
    """10,000 is made of 40 T100s (at most 40 of a colour in a stack) and 6 T1000s: 46 chips,
    five racks of a hundred for nine players. For the field of four (A, B, C and E; D's sale
    reversed) that is 160 T100s, all the case holds, and 24 T1000s, 16 more than it holds. The
    4,100 add-on is 21 T100s and 2 T1000s: 84 and 8, exactly the case's 8, three racks a table.
    With a cap of 20 players and a 10,000 rebuy the field is 20."""
    t, _, _ = evening
    url = f"/api/v1/tournaments/{t.pk}/floor/chips/"
    starting = {
        "stack": 10000,
        "breakdown": {"100": 40, "1000": 6},
        "possible": True,
        "needed_for_field": {"100": 160, "1000": 24},
        "enough": False,
        "short": {"1000": 16},
        "racks_per_table": 5,
    }
    addon = {
        "stack": 4100,
        "breakdown": {"100": 21, "1000": 2},
        "possible": True,
        "needed_for_field": {"100": 84, "1000": 8},
        "enough": True,
        "short": {},
        "racks_per_table": 3,
    }
    assert api(floor_user).get(url).json()["stack_check"] == {
        "chip_set": "Small case",
        "owned": {"100": 160, "1000": 8},
        "stacks": {"starting": starting, "addon": addon},
    }
    Tournament.objects.filter(pk=t.pk).update(field_cap=20, rebuy_price=Decimal("50"), rebuy_chips=10000)
    for_twenty = dict(starting, needed_for_field={"100": 800, "1000": 120}, short={"100": 640, "1000": 112})
    assert api(floor_user).get(url).json()["stack_check"]["stacks"] == {
        "starting": for_twenty,
        "rebuy": for_twenty,
        "addon": dict(addon, needed_for_field={"100": 420, "1000": 40}, enough=False, short={"100": 260, "1000": 32}),
    }
    bare = make_tournament(name="No chips yet")
    assert api(floor_user).get(f"/api/v1/tournaments/{bare.pk}/floor/chips/").json()["stack_check"] == {"chip_set": None}


def _structure(removes_at_second_break):
    """Levels of 20 minutes, breaks of 10: L1 25/50, L2 50/100, a break, L3 100/200 ante 25,
    L4 100/200 with a 200 big blind ante, L5 1,000/1,500, a break, L6 2,000/4,000."""
    st = BlindStructure.objects.create(name="Colour-ups", is_template=False)
    rows = [
        dict(small_blind=25, big_blind=50),
        dict(small_blind=50, big_blind=100),
        dict(kind=StructureItem.BREAK),
        dict(small_blind=100, big_blind=200, ante=25),
        dict(small_blind=100, big_blind=200, ante=200, big_blind_ante=True),
        dict(small_blind=1000, big_blind=1500),
        dict(kind=StructureItem.BREAK, removes_denominations=removes_at_second_break),
        dict(small_blind=2000, big_blind=4000),
    ]
    for position, row in enumerate(rows):
        minutes = 10 if row.get("kind") == StructureItem.BREAK else 20
        StructureItem.objects.create(structure=st, position=position, minutes=minutes, **row)
    return st


def test_the_colour_ups_follow_the_blinds_and_the_ante_level_by_level(make_tournament, api, floor_user):
    """T25, T100, T500, T1000 and T5000 in the case. The T25s are still needed at level 3 (its
    ante of 25) and leave at level 4 (every amount a multiple of 100), before the break at
    position 6; level 5 frees the T100s (its 1,500 big blind still needs the T500s); the break
    at position 6 takes the T25s and T100s, so level 6 frees the T500s, with no break after it."""
    t = make_tournament(
        status=Tournament.RUNNING,
        structure=_structure([25, 100]),
        chip_set=_chip_set("Casino set", ((25, 2000), (100, 3000), (500, 2000), (1000, 2000), (5000, 1000))),
    )
    answer = api(floor_user).get(f"/api/v1/tournaments/{t.pk}/floor/chips/").json()
    assert answer["color_up_suggestions"] == [
        {"level": 4, "denominations": [25], "break_position": 6},
        {"level": 5, "denominations": [100], "break_position": 6},
        {"level": 6, "denominations": [500], "break_position": None},
    ]
    assert answer["race_denomination"] == 25  # the break at position 6 takes it


def test_with_no_break_removing_a_chip_the_race_takes_the_first_colour_up_still_to_come(make_tournament, actor):
    """The same structure, its breaks removing nothing: the race takes the smallest chip of the
    first colour-up whose break is still to come. Before the clock and during levels 1 to 5 and
    the break at position 6 that is the T25s (level 4's colour-up, at that break); at level 6
    (after 2 hours) no break is left, so the form suggests nothing."""
    t = make_tournament(
        status=Tournament.RUNNING,
        structure=_structure([]),
        chip_set=_chip_set("Casino set", ((25, 2000), (100, 3000), (500, 2000), (1000, 2000), (5000, 1000))),
    )
    assert floor.race_denomination(t) == 25
    t0 = timezone.now()
    clock_services.start_clock(t, actor=actor, now=t0)
    t = Tournament.objects.get(pk=t.pk)  # its clock now exists
    assert floor.race_denomination(t, now=t0 + timedelta(minutes=95)) == 25  # level 5
    assert floor.race_denomination(t, now=t0 + timedelta(minutes=115)) == 25  # the break at position 6
    assert floor.race_denomination(t, now=t0 + timedelta(minutes=125)) is None  # level 6
