"""The seat map written back after a change, as the floor reads it on the table map: a
table's flags (final table, locked, a halt waived), its locked seats, the big blind it owes
and the players waiting for the button, after a bust and after that bust is undone (the
undo puts back what the event log says the tables were)."""

import pytest

from seating import services
from seating.models import Bust, Seat, SeatingState, Table
from seating.services import busts as busts_module
from seating.services import room as room_module
from tournaments.models import Entry

from .test_support import arrange, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def tables(api, director, t) -> dict:
    """The table map the floor reads: {table number: its row}."""
    r = api(director).get(f"/api/v1/tournaments/{t.pk}/tables/")
    assert r.status_code == 200, r.content
    return {tb["number"]: tb for tb in r.json()["tables"]}


def halted(api, director, t) -> list:
    return api(director).get(f"/api/v1/tournaments/{t.pk}/tables/").json()["halted"]


def bust(t, actor, entry):
    services.record_bust(t, [entry], actor=actor)
    return Bust.objects.get(tournament=t, entry_id=entry, void="")


def logged(api, director, t, action) -> dict:
    """The newest event of ``action`` as the event log shows it to the staff."""
    rows = api(director).get(f"/api/v1/tournaments/{t.pk}/events/").json()
    return next(e for e in rows if e["action"] == action)


def undo(api, director, t, b):
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/busts/{b.pk}/undo/", {"reason": "wrong player"}, format="json")
    assert r.status_code in (200, 201), r.content


def test_elm01_an_undone_bust_leaves_ordinary_tables_ordinary_and_the_final_table_final(api, director, started, actor):
    t = started(11, table_size=8)  # six and five at two 8-max tables; the final table seats nine
    layout = seat_map(t)
    assert sorted(map(len, layout.values())) == [5, 6]
    b = bust(t, actor, min(layout[1].values()))
    undo(api, director, t, b)
    shown = tables(api, director, t)
    assert sorted(shown) == [1, 2] and not shown[1]["is_final"] and not shown[2]["is_final"]

    services.record_bust(t, [min(layout[1].values())], actor=actor)
    services.record_bust(t, [min(layout[2].values())], actor=actor)  # nine left: the final table
    (final,) = tables(api, director, t).values()
    assert final["is_final"] and final["capacity"] == 9 and final["players"] == 9
    formed = logged(api, director, t, "seating.player.busted")["payload"]  # the log of the bust that formed it
    assert [(s["number"], s["in_play"], s.get("is_final")) for s in formed["before"]] == [(1, True, False), (2, True, False)]
    assert [(s["number"], s["in_play"], s.get("is_final")) for s in formed["after"] if s["in_play"]] == [(final["number"], True, True)]
    b = bust(t, actor, next(s["entry"] for s in final["seats"] if s["entry"]))
    undo(api, director, t, b)
    (again,) = tables(api, director, t).values()
    assert again["number"] == final["number"] and again["is_final"] and again["players"] == 9


def test_elm01_an_undone_bust_at_a_locked_table_leaves_it_locked_with_its_locked_seat(api, director, started, actor):
    t = started(14, table_size=9)
    arrange(t, {1: range(1, 8), 2: range(1, 8)}, capacity=9)  # seven and seven: seats 8 and 9 open at each
    services.lock_table(t, 2, True, actor=actor, reason="TV")
    services.lock_seat(t, 2, 9, True, actor=actor, reason="broken chair")
    b = bust(t, actor, Seat.objects.get(tournament=t, table__number=2, number=3).entry_id)
    undo(api, director, t, b)
    shown = tables(api, director, t)[2]
    assert shown["locked"] and shown["locked_seats"] == [9] and shown["players"] == 7
    assert [s["seat"] for s in shown["seats"] if s["locked"]] == [9]
    assert not tables(api, director, t)[1]["locked"]


def test_elm01_undoing_the_bust_of_a_big_blind_owed_twice_owes_it_to_him_again(api, director, started, actor):
    t = started(12, table_size=9)
    layout = arrange(t, {1: range(1, 7), 2: range(1, 7)}, capacity=9, big_blinds={1: (3, 2), 2: (3, 2)})
    Table.objects.filter(tournament=t, number=1).update(big_blind_twice=True)  # he came to the big blind by a move and posts it alone
    room_module.forget(t.pk)
    assert tables(api, director, t)[1]["next_hand"]["big_blind"] == 3  # he posts it again
    assert tables(api, director, t)[2]["next_hand"]["big_blind"] == 4

    b = bust(t, actor, layout[1][3])
    assert tables(api, director, t)[1]["next_hand"]["big_blind"] == 4  # out: the big blind moves on
    assert not Table.objects.get(tournament=t, number=1).big_blind_twice
    undo(api, director, t, b)
    shown = tables(api, director, t)[1]
    assert shown["players"] == 6 and shown["next_hand"]["big_blind"] == 3
    assert tables(api, director, t)[2]["next_hand"]["big_blind"] == 4


def test_seat05_a_player_waiting_for_the_button_still_waits_after_an_undone_bust_and_nobody_else_does(api, director, started, actor):
    t = started(12, table_size=9)
    layout = arrange(t, {1: range(1, 7), 2: range(1, 7)}, capacity=9, big_blinds={1: (3, 2), 2: (3, 2)})
    Seat.objects.filter(tournament=t, entry_id=layout[1][5]).update(wait_for_button=True)
    room_module.forget(t.pk)
    b = bust(t, actor, layout[1][5])  # himself, by mistake
    undo(api, director, t, b)
    waiting = {s["entry"] for tb in tables(api, director, t).values() for s in tb["seats"] if s["entry"] and s["wait_for_button"]}
    assert waiting == {layout[1][5]}
    b = bust(t, actor, layout[1][2])  # then another player at his table, from the room the undo left
    undo(api, director, t, b)
    waiting = {s["entry"] for tb in tables(api, director, t).values() for s in tb["seats"] if s["entry"] and s["wait_for_button"]}
    assert waiting == {layout[1][5]}


def test_seat05_a_player_dealt_in_once_the_button_passed_him_stays_dealt_in_after_an_undone_bust(api, director, started, actor):
    t = started(12, table_size=9)
    layout = arrange(t, {1: range(1, 7), 2: range(1, 7)}, capacity=9, big_blinds={1: (3, 2), 2: (3, 2)})
    Seat.objects.filter(tournament=t, entry_id=layout[1][1]).update(wait_for_button=True)
    room_module.forget(t.pk)
    for _hand in range(4):  # the big blind goes round to seat 1 and the button past him
        r = api(director).post(f"/api/v1/tournaments/{t.pk}/tables/1/hand-completed/", {}, format="json")
        assert r.status_code == 200, r.content
    assert not any(s["wait_for_button"] for s in tables(api, director, t)[1]["seats"] if s["entry"])
    b = bust(t, actor, layout[1][2])
    undo(api, director, t, b)
    assert not any(s["wait_for_button"] for s in tables(api, director, t)[1]["seats"] if s["entry"])


def test_elm01_an_undone_bust_puts_back_the_halt_and_the_waiver_the_tables_had(api, director, started, actor):
    t = started(15, table_size=9)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 7)}, capacity=9)  # nine and six: table 2 is three short
    assert halted(api, director, t) == [2]
    b = bust(t, actor, layout[2][1])
    undo(api, director, t, b)
    assert halted(api, director, t) == [2] and not tables(api, director, t)[2]["halt_waived"]

    r = api(director).post(f"/api/v1/tournaments/{t.pk}/tables/2/waive-halt/", {"reason": "last hand before the break"}, format="json")
    assert r.status_code == 200, r.content
    assert halted(api, director, t) == [] and tables(api, director, t)[2]["halt_waived"]
    b = bust(t, actor, layout[1][1])  # eight and six: table 2 is no longer halted, the waiver ends
    assert halted(api, director, t) == [] and not tables(api, director, t)[2]["halt_waived"]
    undo(api, director, t, b)  # nine and six again: the waiver is back
    assert halted(api, director, t) == [] and tables(api, director, t)[2]["halt_waived"]
    assert not tables(api, director, t)[1]["halt_waived"]


def test_bal06_a_player_moved_from_a_broken_table_is_out_at_his_new_seat_on_the_next_bust(api, director, started, actor):
    t = started(12, table_size=9)
    layout = arrange(t, {1: range(1, 8), 2: range(1, 4), 3: range(1, 3)}, capacity=9)  # seven, three and two
    services.record_bust(t, [layout[1][1]], actor=actor)  # eleven left: table 3 breaks into the open seats
    now = seat_map(t)
    assert 3 not in now
    moved = layout[3][1]
    table, seat = next((n, s) for n, seats in now.items() for s, e in seats.items() if e == moved)
    assert room_module.kept(t.pk) is not None  # the next bust is served from the room kept
    b = bust(t, actor, moved)
    assert (b.table_number, b.seat_number, b.place) == (table, seat, 11)
    assert Entry.objects.get(pk=moved).status == Entry.BUSTED
    assert len(SeatingState.objects.get(tournament=t).token) == 32  # the size of its column (PostgreSQL refuses more)


def test_bal06_the_bust_that_broke_a_table_is_undone_after_a_bust_at_a_table_the_break_left_alone(api, director, started, actor):
    t = started(26, table_size=9)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10), 3: range(1, 7), 4: range(1, 3)}, capacity=9)  # nine, nine, six and two
    b = bust(t, actor, layout[4][1])  # table 4 breaks: its last player goes to the open seats of table 3
    broken = seat_map(t)
    assert 4 not in broken and len(broken[3]) == 7 and broken[1] == layout[1] and broken[2] == layout[2]
    services.record_bust(t, [layout[1][1]], actor=actor)  # table 1, which the break left alone
    undo(api, director, t, b)
    shown = tables(api, director, t)
    assert sorted(shown) == [1, 2, 3, 4]
    assert {s["seat"]: s["entry"] for s in shown[4]["seats"] if s["entry"]} == layout[4]
    assert shown[3]["players"] == 6 and shown[1]["players"] == 8


def test_bal06_a_break_order_published_logs_that_no_table_changed(api, director, started, actor):
    t = started(20, table_size=9)
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/break-order/", {"break_order": [2, 1, 3], "reason": "the side room first"}, format="json")
    assert r.status_code == 200, r.content
    payload = logged(api, director, t, "seating.break_order.set")["payload"]
    assert payload["break_order"] == [2, 1, 3] and payload["before"] == [] and payload["after"] == []


def test_elm01_a_bust_that_loses_the_race_to_another_writer_is_refused_in_words_and_the_next_try_counts(api, director, started, actor, monkeypatch):
    t = started(20)
    out = min(seat_map(t)[1].values())
    real_lock = busts_module.lock

    def lock_then_lose_the_race(tournament):
        locked, room = real_lock(tournament)
        SeatingState.objects.filter(tournament=locked).update(token="written-by-someone-else")  # another writer, between read and write
        return locked, room

    monkeypatch.setattr(busts_module, "lock", lock_then_lose_the_race)
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/busts/", {"entries": [{"entry": out}]}, format="json")
    assert r.status_code == 409, r.content
    assert r.json() == {"code": "concurrent_change", "detail": "The seat map was changed by someone else at the same moment; try again."}
    assert not Bust.objects.filter(tournament=t).exists() and room_module.kept(t.pk) is None

    monkeypatch.setattr(busts_module, "lock", real_lock)
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/busts/", {"entries": [{"entry": out}]}, format="json")
    assert r.status_code == 201, r.content
    assert [b["place"] for b in r.json()["busts"]] == [20]


def test_seat07_a_break_keeps_apart_this_events_entries_of_a_venue_wide_pair_only(api, director, started, actor, make_person):
    t = started(12, table_size=9)
    other = started(4, table_size=9)  # another event running in the venue
    layout = arrange(t, {1: range(1, 8), 2: range(1, 4), 3: range(1, 3)}, capacity=9)  # seven, three and two
    a, b = Entry.objects.get(pk=layout[3][1]), Entry.objects.get(pk=layout[2][1])
    for number, person in ((5, a.person), (6, b.person)):  # the same two people play the other event too
        Entry.objects.create(tournament=other, person=person, number=number, status=Entry.ACTIVE, chips=other.starting_stack)
    services.add_keep_apart(None, a.person, b.person, actor=actor, reason="partners", everywhere=True)
    for pair in ((make_person(), a.person), (b.person, make_person())):  # with people not in this event
        services.add_keep_apart(None, *pair, actor=actor, reason="partners", everywhere=True)
    services.record_bust(t, [layout[1][1]], actor=actor)  # eleven left: table 3 breaks
    assert 3 not in seat_map(t)
    assert logged(api, director, t, "seating.table.broken")["payload"]["apart"] == [sorted([a.pk, b.pk])]


def test_seat07_a_balancing_plan_logs_the_player_given_his_seat_by_hand_as_kept_in_it(api, director, started, actor):
    t = started(16, table_size=9)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 8)}, capacity=9)  # nine and seven
    given = layout[1][9]
    reservation = services.reserve_seat(t, Entry.objects.get(pk=given), 2, 8, actor=actor, reason="near the exit")
    assert reservation.pk != given and seat_map(t)[2][8] == given  # eight and eight
    services.record_bust(t, [layout[2][1]], actor=actor)
    services.record_bust(t, [layout[2][2]], actor=actor)  # eight and six: a player moves to table 2
    plan = logged(api, director, t, "seating.moves.proposed")["payload"]
    assert plan["fixed"] == [given] and plan["moves"]


def test_elm01_a_process_locking_its_first_room_on_a_database_records_the_bust(api, director, started, actor, monkeypatch):
    t = started(20)
    out = min(seat_map(t)[1].values())
    room_module.forget()
    monkeypatch.setattr(room_module, "_lock_positions", {})  # a worker just started: the lock's columns not yet found
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/busts/", {"entries": [{"entry": out}]}, format="json")
    assert r.status_code == 201, r.content
    assert [b["place"] for b in r.json()["busts"]] == [20] and out not in {e for s in seat_map(t).values() for e in s.values()}


def test_elm01_a_bust_and_its_undo_served_by_processes_that_kept_no_room_keep_the_locked_seat_waiver_and_final_flag(api, director, started, actor):
    # Every web process keeps its own seat map: a bust served by another one reads the room from
    # the database, and its log's "before" (what the undo puts back) holds the flags read there.
    t = started(15, table_size=9)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 7)}, capacity=9)  # nine and six: table 2 is three short
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/tables/2/waive-halt/", {"reason": "last hand before the break"}, format="json")
    assert r.status_code == 200, r.content
    services.lock_seat(t, 2, 9, True, actor=actor, reason="broken chair")
    room_module.forget()
    b = bust(t, actor, layout[2][1])  # five left at table 2, still short: its waiver stands
    room_module.forget()
    undo(api, director, t, b)
    shown = tables(api, director, t)[2]
    assert (shown["locked_seats"], shown["halt_waived"], shown["players"]) == ([9], True, 6)
    assert halted(api, director, t) == []

    for seat in (2, 3, 4, 5, 6, 7):  # down to nine players: the final table
        room_module.forget()
        bust(t, actor, layout[1][seat])
    (final,) = tables(api, director, t).values()
    assert final["is_final"] and final["players"] == 9
    room_module.forget()
    b = bust(t, actor, next(s["entry"] for s in final["seats"] if s["entry"]))
    room_module.forget()
    undo(api, director, t, b)
    (still,) = tables(api, director, t).values()
    assert still["number"] == final["number"] and still["is_final"] and still["players"] == 9
