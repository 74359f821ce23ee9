"""Issue #38, found by the simulator: nine players at two 8-max tables (the final table seats
nine); a bust combined the eight left at the final table, and undoing it gave the player back a
seat at that final table: the table map was not what it had been before the mistake. An undo puts
every table back as it was, the final table the bust formed included."""

import pytest

from seating import selectors
from seating import services as seating
from seating.models import Bust, PendingMove, Seat
from tournaments.cashier import services as cashier
from tournaments.setup import lifecycle

from .test_support import arrange, blinds, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def table_map(t) -> dict:
    out = {}
    for table, seat, entry in Seat.objects.filter(tournament=t, entry__isnull=False).values_list("table__number", "number", "entry_id"):
        out.setdefault(table, {})[seat] = entry
    return out


def test_undoing_the_bust_that_formed_the_final_table_restores_both_tables(api, director, make_tournament, make_person, cashier_actor, actor):
    t = make_tournament(table_size=8)
    for _ in range(9):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    before = table_map(t)
    assert len(before) == 2  # nine players do not fit an 8-max table
    out = next(iter(before[1].values()))
    seating.record_bust(t, [out], actor=actor)
    assert len(table_map(t)) == 1  # the final table, nine seats, formed by the bust
    bust = Bust.objects.get(tournament=t, entry_id=out)
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/busts/{bust.pk}/undo/", {"reason": "wrong player"}, format="json")
    assert r.status_code in (200, 201), r.content
    assert table_map(t) == before


def tables_page(t) -> dict:
    """What the floor's tables page shows of each table: positions, locks and flags."""
    keys = ("capacity", "big_blind_seat", "previous_big_blind_seat", "next_hand", "locked", "locked_seats", "halted", "halt_waived", "is_final")
    return {table["number"]: {k: table[k] for k in keys} for table in selectors.table_map(t)["tables"]}


def test_an_undone_bust_keeps_the_locks_set_since_and_the_big_blind_posted_alone(started, actor):
    """The player goes back to his seat; a lock of the table and of a seat set since the bust,
    and the big blind a moved player posts alone (BAL-04 SINGLE_BB), stay as they are now."""
    t = started(13, settings={"vacated_bb_seat": "SINGLE_BB"})
    layout = arrange(t, {1: range(1, 8), 2: range(1, 7)}, big_blinds={1: (3, 2), 2: (4, 3)})
    seating.record_bust(t, [layout[2][4]], actor=actor)  # table 2's big blind out: 7 against 5
    (move,) = PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED)
    seating.confirm_move(t, move, actor=actor)  # table 1's next big blind takes seat 4 at table 2, alone
    before = seat_map(t)
    out = seating.record_bust(t, [layout[2][1]], actor=actor)  # 6 against 5: no move
    seating.lock_table(t, 2, True, actor=actor, reason="TV table")
    seating.lock_seat(t, 2, 9, True, actor=actor, reason="broken chair")
    seating.undo_bust(t, out.busts[0], actor=actor, reason="wrong player")
    assert seat_map(t) == before
    assert tables_page(t)[2] == {
        "capacity": 9,
        "big_blind_seat": 4,
        "previous_big_blind_seat": 3,
        "next_hand": {"button": 3, "small_blind": None, "big_blind": 4},
        "locked": True,
        "locked_seats": [9],
        "halted": False,
        "halt_waived": False,
        "is_final": False,
    }


def test_an_undone_bust_keeps_the_blinds_a_hand_completed_since_moved_on(started, actor):
    """A hand completed since the bust moved the blinds for real: the player sits again, the
    blinds stay where they are now."""
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (3, 2)})
    before = seat_map(t)
    out = seating.record_bust(t, [layout[1][7]], actor=actor)
    seating.hand_completed(t, 1, actor=actor)
    assert blinds(t)[1] == (4, 3)
    seating.undo_bust(t, out.busts[0], actor=actor, reason="wrong player")
    assert seat_map(t) == before
    assert blinds(t) == {1: (4, 3), 2: (3, 2)}
    assert tables_page(t)[1]["next_hand"] == {"button": 3, "small_blind": 4, "big_blind": 5}


def test_an_undone_bust_that_formed_the_final_table_leaves_no_table_marked_final(started, actor):
    t = started(10)  # tables of 5 and 5: the next bust forms the final table
    layout = arrange(t, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4, 5]}, big_blinds={1: (2, 1), 2: (2, 1)})
    before = seat_map(t)
    out = seating.record_bust(t, [layout[2][3]], actor=actor)
    assert out.final_table == 1 and tables_page(t)[1]["is_final"] is True
    formed = out.slips[0].event.payload  # the final table's draw, as logged: nine seats, nine players
    assert (formed["capacity"], formed["players"]) == (9, 9)
    seating.undo_bust(t, out.busts[0], actor=actor, reason="wrong player")
    assert seat_map(t) == before
    assert [(n, page["is_final"]) for n, page in tables_page(t).items()] == [(1, False), (2, False)]


def test_an_undone_bust_gives_back_the_halt_waiver_it_had_cleared(started, actor):
    """Table 2, three short, played on by the director's waiver (BAL-02); a bust at table 1 made
    it no longer short and cleared the waiver. Undone, the waiver is back: table 2 plays on."""
    t = started(15)
    arrange(t, {1: range(1, 10), 2: range(1, 7)}, big_blinds={1: (1, 9), 2: (1, 6)})
    seating.waive_halt(t, 2, actor=actor, reason="two minutes to the break")
    assert selectors.table_map(t)["halted"] == []
    out = seating.record_bust(t, [seat_map(t)[1][5]], actor=actor)
    assert tables_page(t)[2]["halt_waived"] is False  # 8 against 6: not short any more
    seating.undo_bust(t, out.busts[0], actor=actor, reason="wrong player")
    assert tables_page(t)[2]["halt_waived"] is True and selectors.table_map(t)["halted"] == []
