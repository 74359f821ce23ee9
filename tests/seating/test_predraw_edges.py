"""The pre-draw's edges (seating/predraw.py): refusals, room limits, keep-apart pairs.

SEAT-02: registrants drawn in advance into sessions, tables and seats, and the start that
keeps those seats. SEAT-07: seats given by hand and pairs kept apart. SEAT-08: every table
opened at the start draws its button. Pure: no database.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from seating.predraw import predraw, seat_as_predrawn

from .test_engine_data import refusal


def _where(out) -> dict:
    """Player → (table, seat) from a start: kept, by hand and drawn."""
    return {p: (t, s) for p, t, s in out.kept + out.reserved + out.assignments}


def test_seat02_the_predraw_refuses_no_session_and_a_session_named_twice():
    rng = random.Random(1)
    assert refusal(predraw, ["a", "b"], [], capacity=9, rng=rng) == ("no_session", "at least one session is needed")
    assert refusal(predraw, ["a", "b"], ["Day 1A", "Day 1A"], capacity=9, rng=rng) == (
        "duplicate_session",
        "a session is named twice",
    )


def test_seat02_the_predraw_uses_the_rooms_tables_and_the_players_per_table():
    players = [f"p{i}" for i in range(10)]
    out, order = predraw(players, ["Day 1A"], capacity=9, rng=random.Random(3), max_players_per_table=5, table_numbers=[5, 7])
    assert sorted(order) == players
    assert [a.table for a in out] == [5, 5, 5, 5, 5, 7, 7, 7, 7, 7]
    assert [(a.table, a.seat) for a in out] == sorted((a.table, a.seat) for a in out)  # listed by table and seat
    assert {a.session for a in out} == {"Day 1A"}


def test_seat02_the_start_refuses_a_player_twice_and_a_bad_players_per_table():
    rng = random.Random(1)
    assert refusal(seat_as_predrawn, ["a", "b", "a"], {}, capacity=9, rng=rng) == (
        "duplicate_player",
        "a player is in the draw twice",
    )
    for per_table in (0, 10):
        assert refusal(seat_as_predrawn, ["a"], {}, capacity=9, rng=rng, max_players_per_table=per_table) == (
            "bad_capacity",
            "max_players_per_table must be in 1..capacity",
        )


def test_seat02_the_start_opens_tables_by_the_players_per_table_one_each_at_most():
    out = seat_as_predrawn(["a", "b", "c"], {}, capacity=9, rng=random.Random(2), max_players_per_table=1)
    assert sorted(t for _p, t, _s in out.assignments) == [1, 2, 3]
    players = [f"p{i}" for i in range(8)]
    out = seat_as_predrawn(players, {}, capacity=9, rng=random.Random(2), max_players_per_table=4)
    assert Counter(t for _p, t, _s in out.assignments) == {1: 4, 2: 4}
    assert [t.number for t in out.tables] == [1, 2]
    assert out.apart_swaps == 0


def test_seat02_refunds_leave_the_table_with_fewer_players_unopened_even_the_lowest_number():
    predrawn = {"a": (1, 3), "b": (2, 1), "c": (2, 5), "d": (2, 9)}
    out = seat_as_predrawn(["a", "b", "c", "d"], predrawn, capacity=9, rng=random.Random(4))
    assert out.kept == [("b", 2, 1), ("c", 2, 5), ("d", 2, 9)]  # seat 9 of nine is a seat
    assert out.not_kept == [("a", "table_not_needed")]
    assert [(p, t) for p, t, _s in out.assignments] == [("a", 2)]
    assert [t.number for t in out.tables] == [2]
    assert sorted(out.tables[0].seats.values()) == ["a", "b", "c", "d"]


def test_seat07_a_seat_given_by_hand_counts_at_an_opened_table_from_seat_one_to_the_last():
    predrawn = {"a": (1, 2), "b": (1, 3), "c": (1, 4), "x": (2, 1)}
    reserved = {"r1": (1, 1), "r9": (1, 9), "r0": (1, 10), "rt": (2, 5), "r2": (1, 1)}
    players = ["a", "b", "c", "r1", "r9", "r0", "rt", "r2"]
    out = seat_as_predrawn(players, predrawn, capacity=9, rng=random.Random(5), reserved=reserved)
    assert out.reserved == [("r1", 1, 1), ("r9", 1, 9)]
    assert out.kept == [("a", 1, 2), ("b", 1, 3), ("c", 1, 4)]
    where = _where(out)
    assert where["r0"][0] == 1 and where["r0"][1] in {5, 6, 7, 8}
    assert where["rt"][0] == 1 and where["rt"][1] in {5, 6, 7, 8}  # table 2 is not opened: no seat by hand there
    assert where["r2"][0] == 1 and where["r2"][1] in {5, 6, 7, 8}


def test_seat02_a_predrawn_seat_the_table_no_longer_has_is_drawn_again_at_that_table():
    out = seat_as_predrawn(["a"], {"a": (2, 12)}, capacity=9, rng=random.Random(6))
    assert out.not_kept == [("a", "no_such_seat")]
    assert [(p, t) for p, t, _s in out.assignments] == [("a", 2)]
    assert [t.number for t in out.tables] == [2]


def test_seat02_a_new_table_takes_the_lowest_free_number_and_fills_evenly():
    predrawn = {"a": (2, 1), "b": (2, 2), "c": (2, 3)}
    late = [f"n{i}" for i in range(9)]
    out = seat_as_predrawn(["a", "b", "c", *late], predrawn, capacity=9, rng=random.Random(7))
    assert Counter(t for _p, t, _s in out.assignments) == {2: 3, 1: 6}
    assert [t.number for t in out.tables] == [1, 2]
    assert [len(t.seats) for t in out.tables] == [6, 6]
    assert set(out.buttons) == {1, 2}  # SEAT-08: every opened table draws its button
    out = seat_as_predrawn([f"n{i}" for i in range(12)], {}, capacity=9, rng=random.Random(7))
    assert [len(t.seats) for t in out.tables] == [6, 6]
    assert [t.number for t in out.tables] == [1, 2]


def test_seat02_the_last_free_seats_go_to_late_players_held_seats_last():
    predrawn = {f"p{s}": (1, s) for s in range(2, 8)}
    out = seat_as_predrawn([*predrawn, "n1"], predrawn, capacity=9, rng=random.Random(8), held=[(1, 8), (1, 9)])
    assert out.assignments == [("n1", 1, 1)]
    predrawn = {f"p{s}": (1, s) for s in range(1, 8)}
    out = seat_as_predrawn([*predrawn, "n1"], predrawn, capacity=9, rng=random.Random(8), held=[(1, 8)])
    assert out.assignments == [("n1", 1, 9)]
    out = seat_as_predrawn([*predrawn, "n1", "n2"], predrawn, capacity=9, rng=random.Random(8), held=[(1, 8)])
    assert sorted(s for _p, _t, s in out.assignments) == [8, 9]


@pytest.mark.parametrize("seed", range(6))
def test_seat07_a_late_player_is_kept_apart_from_his_partner_seated_as_predrawn(seed):
    predrawn = {"a": (1, 1), "c": (2, 1)}
    out = seat_as_predrawn(["a", "c", "b", "d"], predrawn, capacity=9, rng=random.Random(seed), max_players_per_table=2, apart=[("a", "b")])
    where = _where(out)
    assert where["a"] == (1, 1)
    assert where["b"][0] == 2
    assert where["d"][0] == 1
    assert out.apart_swaps in (0, 1)


def test_seat07_the_start_counts_the_exchange_that_keeps_a_pair_apart():
    swaps = []
    for seed in range(6):
        out = seat_as_predrawn(
            ["a", "c", "b", "d"], {"a": (1, 1), "c": (2, 1)}, capacity=9, rng=random.Random(seed), max_players_per_table=2, apart=[("a", "b")]
        )
        swaps.append(out.apart_swaps)
    assert swaps == [0, 1, 1, 0, 1, 0]


def test_seat02_each_session_is_drawn_at_the_players_per_table_not_the_seats():
    # 16 registrants, two evenings: 8 each, at most 4 a table on 10-seat tables: two tables an
    # evening, where the seats alone would put all 8 at one table.
    players = [f"p{i}" for i in range(16)]
    out, _order = predraw(players, ["Mon", "Tue"], capacity=10, rng=random.Random(9), max_players_per_table=4)
    assert Counter((a.session, a.table) for a in out) == {("Mon", 1): 4, ("Mon", 2): 4, ("Tue", 1): 4, ("Tue", 2): 4}
