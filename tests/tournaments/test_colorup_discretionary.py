"""CR-05 / CLK-09 (issue #16): a discretionary colour-up of a player or a table is announced and
logged and leaves the chips in play unchanged; a structure's ``removes_denominations`` survives
into the tournament's own copy of its structure and into the copy stored after an edit."""

import pytest
from django.utils import timezone

from seating import selectors as seating_selectors
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.clock import selectors as clock_selectors
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.floor import services as floor
from tournaments.floor.selectors import chips_in_play
from tournaments.models import BlindStructure
from tournaments.setup import lifecycle
from tournaments.structures import services as structures

ITEMS = [
    {"kind": "LEVEL", "small_blind": 25, "big_blind": 50, "minutes": 20},
    {"kind": "LEVEL", "small_blind": 50, "big_blind": 100, "minutes": 20},
    {"kind": "BREAK", "minutes": 10, "color_up": "T25 out", "removes_denominations": [25]},
    {"kind": "LEVEL", "small_blind": 100, "big_blind": 200, "minutes": 20},
]


def _running(make_tournament, make_person, director, **kw):
    actor = Actor(director, "test")
    t = make_tournament(table_size=6, **kw)
    entries = [cashier.register(t, make_person(), method="CASH", actor=actor).entry for _ in range(6)]
    lifecycle.start(t, actor=actor)
    return t, entries, actor


@pytest.mark.django_db
def test_a_table_or_a_player_is_coloured_up_with_an_announcement_and_the_chips_in_play_stay(make_tournament, make_person, director):
    t, entries, actor = _running(make_tournament, make_person, director)
    before = chips_in_play(t)
    table = seating_selectors.seat_of(entries[0])["table"]
    out = floor.discretionary_color_up(t, from_denomination=25, to_denomination=100, table=table, actor=actor, note="T25 short")
    assert out["announcement"] == f"Colour-up at table {table}: T25 chips are exchanged for T100 chips of the same value."
    assert chips_in_play(t) == before == out["chips_in_play"]
    ev = t.events.get(action="tournaments.colorup.discretionary")
    assert (ev.payload["table"], ev.payload["from_denomination"], ev.payload["to_denomination"]) == (table, 25, 100)
    one = floor.discretionary_color_up(t, from_denomination=25, to_denomination=100, entry=entries[1], actor=actor)
    assert one["announcement"].startswith(f"Colour-up for {entries[1].person.display_name}: ")
    assert one["table"] == seating_selectors.seat_of(entries[1])["table"]
    for kw, code in (
        ({"table": table, "entry": entries[1]}, "table_or_player"),
        ({}, "table_or_player"),
        ({"table": table, "to_denomination": 25}, "bad_denominations"),
        ({"table": 99}, "unknown_table"),
    ):
        args = {"from_denomination": 25, "to_denomination": 100, **kw}
        with pytest.raises(DomainError) as err:
            floor.discretionary_color_up(t, actor=actor, **args)
        assert err.value.code == code
    assert t.events.filter(action="tournaments.colorup.discretionary").count() == 2


@pytest.mark.django_db
def test_the_floor_colours_up_through_the_api(api, make_tournament, make_person, director, floor_user, cashier_user):
    t, entries, actor = _running(make_tournament, make_person, director)
    table = seating_selectors.seat_of(entries[0])["table"]
    url = f"/api/v1/tournaments/{t.pk}/floor/color-up/"
    r = api(floor_user).post(url, {"table": table, "from_denomination": 25, "to_denomination": 100}, format="json")
    assert r.status_code == 201 and r.data["chips_in_play"] == chips_in_play(t) and "T100" in r.data["announcement"]
    r = api(floor_user).post(url, {"entry": entries[2].pk, "from_denomination": 100, "to_denomination": 25}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 400 and r.data["code"] == "bad_denominations" and "gettone" in r.data["detail"]
    assert api(cashier_user).post(url, {"table": table, "from_denomination": 25, "to_denomination": 100}, format="json").status_code == 403


@pytest.mark.django_db
def test_removed_denominations_survive_the_tournaments_copy_and_an_inserted_break(make_tournament, make_person, director):
    actor = Actor(director, "test")
    template = structures.save_structure(name="With colour-up", items=ITEMS, actor=actor)
    t = make_tournament(table_size=6, structure=template)
    for _ in range(4):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor)
    t.refresh_from_db()
    assert t.structure_id != template.pk  # the tournament's own copy
    assert [it.removes_denominations for it in t.structure.items.order_by("position")] == [[], [], [25], []]
    assert clock_selectors.structure_items(t)[2].removes_denominations == (25,)
    # An extra break stores the edited structure again: the scheduled colour-up is still there.
    now = timezone.now()
    clock_services.start_clock(t, actor=actor, now=now)
    clock_services.insert_break(t, 5, actor=actor, reason="dinner", now=now)
    t = type(t).objects.get(pk=t.pk)
    rows = list(t.structure.items.order_by("position"))
    assert len(rows) == 5 and [r.removes_denominations for r in rows if r.kind == "BREAK"][-1] == [25]
    assert BlindStructure.objects.get(pk=template.pk).items.get(position=2).removes_denominations == [25]
    # The colour-up suggestions read the copy: T25 is no longer offered after that break.
    assert all(25 not in s["denominations"] or s["level"] <= 2 for s in floor.color_up_suggestions(t))
