"""The engine's data (seating/engine/data.py): stored reasons, refusals, table counts, moves.

BAL-08: a slip's reason is stored as JSON and read back clause by clause. The engine's
refusals carry a code the API returns and a sentence the director reads. A table's counts
(players, open seats, locked seats) drive balancing (BAL-02, BAL-03/04) and breaking
(BAL-06, BAL-09). Pure: no database.
"""

from __future__ import annotations

import random

import pytest

from seating.engine import (
    Move,
    Reason,
    ReasonCode,
    SeatingError,
    Table,
    apply_moves,
    halted_tables,
    plan_balance,
    table_to_break,
)

# --- BAL-08: a reason stored with a move and read back --------------------------------------


def test_bal08_a_stored_reason_reads_back_with_its_notes_and_parameters():
    stored = {
        "code": "MOVER_NEXT_BB",
        "params": {"table": 1, "seat": 4},
        "notes": [
            {"code": "DEST_BB_NEXT_HAND", "params": {"table": 2, "seat": 9}},
            "not a note",
            {"params": {"seat": 3}},
        ],
    }
    reason = Reason.from_dict(stored)
    assert reason == Reason(
        "MOVER_NEXT_BB",
        (("table", 1), ("seat", 4)),
        (Reason("DEST_BB_NEXT_HAND", (("table", 2), ("seat", 9))),),
    )
    assert reason.params == {"table": 1, "seat": 4}
    assert [c.code for c in reason.clauses()] == ["MOVER_NEXT_BB", "DEST_BB_NEXT_HAND"]
    assert reason.as_dict() == {
        "code": "MOVER_NEXT_BB",
        "params": {"table": 1, "seat": 4},
        "notes": [{"code": "DEST_BB_NEXT_HAND", "params": {"table": 2, "seat": 9}}],
    }


@pytest.mark.parametrize(
    "stored",
    [None, "MOVER_NEXT_BB", ["MOVER_NEXT_BB"], 7, {"params": {"seat": 4}}, {"code": 5}, {"code": None}],
)
def test_bal08_a_malformed_stored_reason_reads_as_none(stored):
    assert Reason.from_dict(stored) is None


@pytest.mark.parametrize("params", [None, "table 1", [["table", 1]], 3])
def test_bal08_a_stored_reason_with_malformed_parameters_keeps_its_code(params):
    assert Reason.from_dict({"code": "WAIT_FOR_BUTTON", "params": params}) == Reason("WAIT_FOR_BUTTON")
    assert Reason.from_dict({"code": ReasonCode.WAIT_FOR_BUTTON, "params": params}).as_dict() == {
        "code": "WAIT_FOR_BUTTON",
        "params": {},
    }


# --- refusals: a code for the API, a sentence for the director ------------------------------


def refusal(call, *args, **kwargs) -> tuple[str, str]:
    with pytest.raises(SeatingError) as info:
        call(*args, **kwargs)
    return info.value.code, str(info.value)


def test_pos01_a_table_refuses_a_bad_capacity_a_seat_outside_it_and_a_player_twice():
    assert refusal(Table, 1, 0, {}) == ("bad_capacity", "table 1: capacity must be positive")
    assert refusal(Table, 2, 9, {10: "a"}) == ("bad_seat", "table 2: a seat is not in 1..9")
    assert refusal(Table, 2, 9, {0: "a", 5: "b"}) == ("bad_seat", "table 2: a seat is not in 1..9")
    assert refusal(Table, 3, 9, {1: "a", 2: "a"}) == ("duplicate_player", "table 3: a player sits twice")
    heads_up_seat = Table(4, 1, {1: "solo"})  # one seat is a capacity
    assert heads_up_seat.player_count == 1
    assert heads_up_seat.is_full


def test_bal03_an_unknown_setting_is_refused_with_the_allowed_values():
    tables = [Table(1, 9, {1: "a"}), Table(2, 9, {})]
    assert refusal(plan_balance, tables, mover_rule="NEXT_HAND") == (
        "unknown_setting",
        "mover_rule must be one of NEXT_BB, CURRENT_BB, BUTTON_CASH, STUD_POSITION, not 'NEXT_HAND'",
    )


def test_bal08_moves_that_do_not_fit_the_tables_are_refused_with_code_and_message():
    one = Table(1, 9, {1: "a", 2: "b", 3: "c"})
    two = Table(2, 9, {3: "d"}, locked_seats=frozenset({5}))
    tables = [one, two]
    assert refusal(apply_moves, [one, Table(1, 9, {})], [Move("a", 1, 1, 1, 4, "")]) == (
        "duplicate_table",
        "a table number appears twice",
    )
    assert refusal(apply_moves, tables, [Move("a", 7, 1, 2, 4, "")]) == ("unknown_table", "table 7 does not exist")
    assert refusal(apply_moves, tables, [Move("a", 1, 2, 2, 4, "")]) == (
        "player_not_at_seat",
        "a is not in seat 2 at table 1",
    )
    assert refusal(apply_moves, tables, [Move("a", 1, 6, 2, 4, "")]) == (
        "player_not_at_seat",
        "a is not in seat 6 at table 1",
    )
    assert refusal(apply_moves, tables, [Move("a", 1, 1, 2, 10, "")]) == ("bad_seat", "table 2 has no seat 10")
    assert refusal(apply_moves, tables, [Move("a", 1, 1, 2, 3, "")]) == ("seat_taken", "seat 3 at table 2 is taken")
    assert refusal(apply_moves, tables, [Move("a", 1, 1, 2, 5, "")]) == ("seat_locked", "seat 5 at table 2 is locked")
    assert one.seats == {1: "a", 2: "b", 3: "c"}  # a refused plan leaves the tables as they were


def test_bal06_a_break_of_a_duplicated_table_number_is_refused():
    from seating.engine import break_moves

    tables = [Table(1, 9, {1: "a"}), Table(1, 9, {2: "b"})]
    assert refusal(break_moves, tables, 1, [("a", "As")], [(2, 3)]) == (
        "duplicate_table",
        "a table number appears twice",
    )


# --- a table's counts ------------------------------------------------------------------------


def test_seat07_a_table_counts_its_players_and_open_seats_around_locked_ones():
    table = Table(5, 9, {9: "i", 1: "a", 2: "b"}, locked_seats=[7, 8, 9])
    assert table.locked_seats == frozenset({7, 8, 9})
    assert table.player_count == 3
    assert table.free_seat_count == 4
    assert not table.is_full
    assert table.open_seats() == [3, 4, 5, 6]
    assert table.occupied_seats() == [1, 2, 9]
    assert table.players() == ["a", "b", "i"]
    assert table.seat_of("b") == 2
    assert table.seat_of("i") == 9
    assert table.seat_of("z") is None


def test_bal02_an_empty_table_is_closed_not_halted():
    full = [Table(n, 9, {s: f"{n}-{s}" for s in range(1, 10)}) for n in (1, 2)]
    assert halted_tables([*full, Table(3, 9, {})]) == []
    assert halted_tables([*full, Table(3, 9, {1: "x", 2: "y"})]) == [3]


def test_bal06_the_short_table_breaks_into_open_seats_beside_an_empty_table():
    tables = [
        Table(1, 9, {s: f"1-{s}" for s in range(1, 6)}),
        Table(2, 9, {1: "2-1", 2: "2-2", 3: "2-3"}),
        Table(3, 9, {}),
    ]
    assert table_to_break(tables) == 2
    locked = [tables[0], tables[1], Table(3, 9, {1: "3-1"}, locked=True)]
    assert table_to_break(locked) == 2


def test_bal09_two_tables_with_players_and_an_empty_one_wait_for_the_final_table():
    tables = [
        Table(1, 9, {s: f"1-{s}" for s in range(1, 5)}),
        Table(2, 9, {s: f"2-{s}" for s in range(1, 5)}),
        Table(3, 9, {}),
    ]
    assert table_to_break(tables, final_table_size=6) is None
    assert table_to_break(tables) == 2


# --- applying moves --------------------------------------------------------------------------


def test_bal04_a_move_keeps_the_tables_lock_and_single_big_blind_marks():
    tv = Table(1, 9, {1: "a", 2: "b", 3: "c"}, big_blind_seat=2, locked=True)
    single = Table(2, 9, {4: "d", 6: "e"}, big_blind_seat=4, big_blind_twice=True)
    after = apply_moves([tv, single], [Move("a", 1, 1, 2, 8, "by hand")])
    assert after[0].seats == {2: "b", 3: "c"}
    assert after[0].locked is True
    assert after[0].big_blind_twice is False
    assert after[1].seats == {4: "d", 6: "e", 8: "a"}
    assert after[1].locked is False
    assert after[1].big_blind_twice is True  # d still posts the big blind alone
    assert after[1].big_blind_seat == 4


def test_bal04_the_single_big_blind_mark_leaves_with_its_player_only():
    single = Table(1, 9, {4: "d", 6: "e", 7: "f"}, big_blind_seat=4, big_blind_twice=True)
    other = Table(2, 9, {1: "x"})
    after = apply_moves([single, other], [Move("e", 1, 6, 2, 5, "")])
    assert after[0].big_blind_twice is True
    after = apply_moves([single, other], [Move("d", 1, 4, 2, 5, "")])
    assert after[0].big_blind_twice is False
    assert after[1].big_blind_twice is False
    after = apply_moves([single, other], [Move("d", 1, 4, 2, 5, "", single_big_blind=True)])
    assert after[0].big_blind_twice is False
    assert after[1].big_blind_twice is True
    plain = Table(3, 9, {4: "g", 5: "h"}, big_blind_seat=4)
    after = apply_moves([plain, other], [Move("g", 3, 4, 2, 5, "")])
    assert after[0].big_blind_twice is False


def test_seat04_a_break_draw_in_a_room_listing_a_table_twice_is_refused():
    from seating.engine import draw_break

    tables = [Table(1, 9, {1: "a", 2: "b"}), Table(2, 9, {1: "c"}), Table(2, 9, {5: "d"})]
    assert refusal(draw_break, tables, 1, random.Random(1)) == ("duplicate_table", "a table number appears twice")
