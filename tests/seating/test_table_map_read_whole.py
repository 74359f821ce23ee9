"""The table map as the floor's API sends it, read whole: every table in play with each seat's
player, name, nickname, stack, position and flags, the next hand's blinds, the tables' flags and
the house settings the page shows; and the one table the answer to a table action carries.
Each expectation is written out from the seats arranged here, not read from the code."""

from datetime import UTC, datetime

import pytest

from seating.models import Seat, Table
from seating.services import room as room_module
from tournaments.models import ChipCount, Entry, Person

from .test_support import arrange, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def url(t, path=""):
    return f"/api/v1/tournaments/{t.pk}/{path}"


def empty(seat, *, locked=False) -> dict:
    return {"seat": seat, "locked": locked, "entry": None, "position": ""}


def player(e, seat, position="", **shown) -> dict:
    """A seat as the map shows it: the player's number and name, the chips bought, no count, no
    flag (what the test sets changes it)."""
    plain = {"nickname": "", "chips_bought": 30000, "stack": None, "wait_for_button": False, "penalties": [], "keep_apart": False}
    plain |= {"presence": "", "bounty": None}
    item = {"seat": seat, "locked": False, "entry": e.pk, "entry_number": e.number, "name": f"Player{e.number:03d} Test", **plain}
    return {**item, "position": position, **shown}


def a_room_of_three_tables(started, actor):
    """Seven players at 7-max tables: #1-#4 at table 1 (seats 1, 2, 3, 5; seat 4 locked), #5-#7
    at table 2 (seats 2, 4, 6), table 3 in play and empty, table 4 closed. Table 1's last big
    blinds were seats 3 then 2 before it; table 2's big blind (seat 4) posts again alone."""
    t = started(7, table_size=7, settings={"final_table_size": 6})
    arrange(t, {1: [1, 2, 3, 5], 2: [2, 4, 6], 3: []}, big_blinds={1: (3, 2), 2: (4, 2)})
    Table.objects.create(tournament=t, number=4, capacity=7, in_play=False)
    Table.objects.filter(tournament=t, number=1).update(locked_seats=[4])
    Table.objects.filter(tournament=t, number=2).update(big_blind_twice=True, tv=True, halt_waived=True)
    e = {x.number: x for x in Entry.objects.filter(tournament=t)}
    Person.objects.filter(pk=e[1].person_id).update(nickname="Ace")
    Entry.objects.filter(pk=e[2].pk).update(presence="ABSENT")
    Seat.objects.filter(entry=e[7]).update(wait_for_button=True)
    ChipCount.objects.create(tournament=t, entry=e[4], chips=41500, counted_at=datetime(2026, 3, 14, 21, 0, tzinfo=UTC))
    ChipCount.objects.create(tournament=t, entry=e[5], chips=18000, counted_at=datetime(2026, 3, 14, 21, 0, tzinfo=UTC))
    room_module.forget(t.pk)
    return t, e


def table_1(e) -> dict:
    # Big blinds 3 then 2: the next big blind is the first player after seat 3 (seat 5), the
    # small blind seat 3, the button seat 2.
    return {
        "number": 1,
        "capacity": 7,
        "players": 4,
        "big_blind_seat": 3,
        "previous_big_blind_seat": 2,
        "next_hand": {"button": 2, "small_blind": 3, "big_blind": 5},
        "locked": False,
        "locked_seats": [4],
        "halted": False,
        "halt_waived": False,
        "is_final": False,
        "tv": False,
        "seats": [
            player(e[1], 1, nickname="Ace"),
            player(e[2], 2, "BTN", presence="ABSENT"),
            player(e[3], 3, "SB"),
            empty(4, locked=True),
            player(e[4], 5, "BB", stack=41500),
            empty(6),
            empty(7),
        ],
    }


def table_2(e) -> dict:
    # The big blind posts again alone on seat 4: no small blind, the button on seat 2 (the
    # big blind before it).
    return {
        "number": 2,
        "capacity": 7,
        "players": 3,
        "big_blind_seat": 4,
        "previous_big_blind_seat": 2,
        "next_hand": {"button": 2, "small_blind": None, "big_blind": 4},
        "locked": False,
        "locked_seats": [],
        "halted": False,
        "halt_waived": True,
        "is_final": False,
        "tv": True,
        "seats": [
            empty(1),
            player(e[5], 2, "BTN", stack=18000),
            empty(3),
            player(e[6], 4, "BB"),
            empty(5),
            player(e[7], 6, wait_for_button=True),
            empty(7),
        ],
    }


def table_3() -> dict:
    return {
        "number": 3,
        "capacity": 7,
        "players": 0,
        "big_blind_seat": None,
        "previous_big_blind_seat": None,
        "next_hand": {"button": None, "small_blind": None, "big_blind": None},
        "locked": False,
        "locked_seats": [],
        "halted": False,
        "halt_waived": False,
        "is_final": False,
        "tv": False,
        "seats": [empty(s) for s in range(1, 8)],
    }


def test_seat05_the_floor_api_sends_every_table_in_play_with_each_seat_its_player_and_position(api, started, actor, floor_user):
    t, e = a_room_of_three_tables(started, actor)
    assert api(floor_user).get(url(t, "tables/")).json() == {
        "tournament": t.pk,
        "players": 7,
        "tables": [table_1(e), table_2(e), table_3()],  # table 4 is closed: not on the map
        "moves": [],
        "waiting_moves": [],
        "halted": [],
        "halt_advisory": False,  # 7-max is a full ring: a halt holds play
        "next_to_break": 2,  # the fewest players of the tables playing
        "break_due": None,  # 3 free seats at the others, 2 of them at a table in play
        "break_order": None,
        "draw_mode": "ELECTRONIC",
        "manual_draws": [],
        "settings": {
            "balance_trigger_difference": 2,
            "mover_rule": "NEXT_BB",
            "dest_rule": "WORST_POSITION",
            "tie_break": "TABLE_ORDER",
            "vacated_bb_seat": "EXCLUDED",
            "final_table_size": 6,
            "h4h_policy": "SHARE",
        },
    }


def test_seat05_a_table_action_answers_with_that_table_as_the_map_shows_it(api, started, actor, floor_user):
    t, e = a_room_of_three_tables(started, actor)
    client = api(floor_user)
    r = client.post(url(t, "tables/2/misdeal/"), {"reason": "two cards exposed"}, format="json")
    assert r.status_code == 200 and r.json()["table"] == table_2(e)
    r = client.post(url(t, "tables/1/misdeal/"), {"reason": "the button dealt first"}, format="json")
    assert r.status_code == 200 and r.json()["table"] == table_1(e)


def breaking(t) -> dict:
    """What the map's balancing panel reads: the tables holding play (and each table's flag),
    whether a halt is only advice, the next table to break and the one due now."""
    data = api_get(t)
    flags = {tb["number"]: tb["halted"] for tb in data["tables"]}
    return {k: data[k] for k in ("halted", "halt_advisory", "next_to_break", "break_due", "break_order")} | {"flags": flags}


def api_get(t):
    from tests.conftest import client_for, make_user

    return client_for(make_user(f"floor{t.pk}", "floor")).get(url(t, "tables/")).json()


def test_bal02_the_map_names_the_halted_table_whether_it_is_advice_and_the_table_to_break(started):
    # 7-max, 14 players at 6, 6 and 2, the break order published as tables 2 then 3: table 3 is
    # four short of the fullest (halted, a full ring: play holds); table 2, first in the order,
    # breaks now (its 6 players fit the 1 + 5 open seats of tables 1 and 3).
    t = started(14, table_size=7, settings={"break_order": [2, 3]})
    arrange(t, {1: range(1, 7), 2: range(1, 7), 3: [1, 2]}, big_blinds={1: (2, 1), 2: (2, 1), 3: (2, 1)})
    assert breaking(t) == {
        "halted": [3],
        "halt_advisory": False,
        "next_to_break": 2,
        "break_due": 2,
        "break_order": [2, 3],
        "flags": {1: False, 2: False, 3: True},
    }
    # 6-max, 7 players at 4, 2 and 1: table 3 is three short (a halt, only advice short-handed);
    # it would break next, but 7 left is the final table's size (7 for 6-max): no break is due,
    # the final table forms by its own draw.
    t = started(7, table_size=6)
    arrange(t, {1: [1, 2, 3, 4], 2: [1, 2], 3: [1]}, big_blinds={1: (2, 1), 2: (2, 1)})
    assert breaking(t) == {
        "halted": [3],
        "halt_advisory": True,
        "next_to_break": 3,
        "break_due": None,
        "break_order": None,
        "flags": {1: False, 2: False, 3: True},
    }


def test_pay02_the_map_and_a_table_action_show_the_bounty_on_each_head(make_tournament, make_person, cashier_actor, actor, api, floor_user):
    from tests.payouts.bounty_setup import bounty_event

    # A PKO of 4 players, €50 on each head
    t, entries = bounty_event(make_tournament, make_person, cashier_actor, actor, players=4)
    arrange(t, {1: [1, 2, 3, 4]}, big_blinds={1: (2, 1)})
    heads = {e.pk: "50.00" for e in entries}
    data = api(floor_user).get(url(t, "tables/")).json()
    assert {s["entry"]: s["bounty"] for s in data["tables"][0]["seats"] if s["entry"]} == heads
    r = api(floor_user).post(url(t, "tables/1/misdeal/"), {"reason": "a card flashed"}, format="json")
    assert {s["entry"]: s["bounty"] for s in r.json()["table"]["seats"] if s["entry"]} == heads
