"""The seating API: what each role may do, the error format, and every floor action."""

import re

import pytest

from seating.models import Bust, PendingMove
from tournaments.models import Entry, TournamentEvent

from .test_support import arrange, counts, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def url(t, path=""):
    return f"/api/v1/tournaments/{t.pk}/{path}"


def test_roles(api, started, director, floor_user, cashier_user, display_user, outsider):
    t = started(12)
    entry = t.entries.first()
    bust = {"entries": [{"entry": entry.pk}]}
    assert api(display_user).get(url(t, "tables/")).status_code == 403  # stacks and penalties are not lobby content
    for user in (cashier_user, display_user):
        r = api(user).post(url(t, "busts/"), bust, format="json")
        assert r.status_code == 403 and r.json()["code"] == "permission_denied"
    assert api(cashier_user).get(url(t, "tables/")).status_code == 200  # the desk may look
    assert api(outsider).get(url(t, "tables/")).status_code == 403
    assert api(None).get(url(t, "tables/")).status_code in (401, 403)
    r = api(floor_user).post(url(t, "seating/draw/"), {"redraw": True, "reason": "x"}, format="json")
    assert r.status_code == 403  # only a director draws
    assert api(cashier_user).get(url(t, f"entries/{entry.pk}/draws/")).status_code == 403
    assert api(floor_user).post(url(t, "busts/"), bust, format="json").status_code == 201
    assert Entry.objects.get(pk=entry.pk).status == Entry.BUSTED
    r = api(director).post(url(t, "seating/draw/"), {"redraw": True, "reason": "x"}, format="json")
    assert r.status_code == 409 and r.json() == {"code": "busts_recorded", "detail": r.json()["detail"]} and r.json()["detail"]


def test_the_table_map(api, started, floor_user):
    t = started(20)
    data = api(floor_user).get(url(t, "tables/")).json()
    assert [x["number"] for x in data["tables"]] == [1, 2, 3] and data["players"] == 20
    table = data["tables"][0]
    assert len(table["seats"]) == 9 and table["next_hand"]["big_blind"] in [s["seat"] for s in table["seats"] if s["entry"]]
    occupied = [s for s in table["seats"] if s["entry"]]
    assert {"name", "entry_number", "chips_bought", "stack", "wait_for_button", "position"} <= set(occupied[0])
    assert data["settings"] == {
        "balance_trigger_difference": 2,
        "mover_rule": "NEXT_BB",
        "dest_rule": "WORST_POSITION",
        "tie_break": "TABLE_ORDER",
        "vacated_bb_seat": "EXCLUDED",
        "final_table_size": 9,
        "h4h_policy": "SHARE",
    }
    assert data["next_to_break"] == 3 and data["halted"] == [] and data["moves"] == []


def test_bust_undo_and_standings(api, started, floor_user):
    t = started(30)
    a, b = list(seat_map(t)[2].values())[:2]
    r = api(floor_user).post(
        url(t, "busts/"),
        {"entries": [{"entry": a, "starting_stack": 12000}, {"entry": b, "starting_stack": 8000}], "table": 2, "same_hand": True},
        format="json",
    )
    assert r.status_code == 201
    assert {(x["entry"], x["place"]) for x in r.json()["busts"]} == {(a, 29), (b, 30)}
    assert [(s["entry"], s["place"]) for s in api(floor_user).get(url(t, "standings/")).json()] == [(a, 29), (b, 30)]
    r = api(floor_user).post(url(t, "busts/"), {"entries": [{"entry": a}]}, format="json")
    # a second tablet busting him again is told who recorded it first, where and when
    refusal = r.json()
    assert r.status_code == 409 and refusal["code"] == "already_out"
    assert refusal["table"] == 2 and refusal["reported_by"] == floor_user.username
    assert "was already out at" in refusal["detail"] and "recorded at table 2 by " + floor_user.username in refusal["detail"]
    r = api(floor_user).post(url(t, "busts/"), {"entries": []}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    bust = Bust.objects.get(entry_id=a)
    r = api(floor_user).post(url(t, f"busts/{bust.pk}/undo/"), {"reason": "chips found under a card"}, format="json")
    assert r.status_code == 200
    assert Entry.objects.filter(pk__in=[a, b], status=Entry.ACTIVE).count() == 2
    assert len(api(floor_user).get(url(t, "busts/")).json()) == 2  # both rows stay, void


def test_moves_confirm_manual_move_and_undo(api, started, floor_user):
    t = started(18, table_size=10)
    layout = arrange(t, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    client = api(floor_user)
    r = client.post(url(t, "tables/1/big-blind/"), {"big_blind_seat": 3, "previous_big_blind_seat": 2, "reason": "checked"}, format="json")
    assert r.status_code == 200 and r.json()["table"]["next_hand"]["big_blind"] == 4
    (move,) = client.get(url(t, "moves/")).json()
    assert move["from_table"] == 1 and move["to_table"] == 2 and "next big blind" in move["reason"]
    r = client.post(url(t, f"moves/{move['id']}/confirm/"), format="json")
    assert r.status_code == 200 and r.json()["moves"] == [] and counts(t) == {1: 9, 2: 9}
    r = client.post(url(t, f"moves/{move['id']}/confirm/"), format="json")
    assert r.status_code == 409 and r.json()["code"] == "move_done"
    r = client.post(url(t, "moves/"), {"entry": layout[1][1], "to_table": 2, "to_seat": 10}, format="json")
    assert r.status_code == 400  # a reason is required
    r = client.post(url(t, "moves/"), {"entry": layout[1][1], "to_table": 2, "to_seat": 1, "reason": "x"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    r = client.post(url(t, "moves/"), {"entry": layout[1][1], "to_table": 2, "to_seat": 10, "reason": "special needs (SEAT-07)"}, format="json")
    assert r.status_code == 201 and seat_map(t)[2][10] == layout[1][1]
    manual = r.json()["move"]
    assert manual["kind"] == "MANUAL" and manual["status"] == "DONE"
    before_undo = seat_map(t)
    r = client.post(url(t, f"moves/{manual['id']}/undo/"), {"reason": "he asked to go back"}, format="json")
    assert r.status_code == 200 and seat_map(t)[1][1] == layout[1][1] and seat_map(t) != before_undo
    everything = client.get(url(t, "moves/") + "?status=all").json()
    # the manual move made 8 and 10: a balancing move was proposed, then superseded by the undo
    assert {m["status"] for m in everything} == {"DONE", "UNDONE", "SUPERSEDED"}


def test_open_slips_of_a_tournament_with_none_and_of_none(api, started, floor_user):
    """GET moves/ reads the slips first: no open slip is an empty list, an unknown tournament a 404."""
    t = started(18)
    client = api(floor_user)
    assert client.get(url(t, "moves/")).json() == []
    missing = t.pk + 1000
    for path in (f"/api/v1/tournaments/{missing}/moves/", f"/api/v1/tournaments/{missing}/moves/?status=all"):
        r = client.get(path)
        assert r.status_code == 404 and r.json()["code"] == "not_found" and r.json()["detail"]


def test_table_actions(api, started, floor_user, director):
    t = started(24)
    arrange(t, {1: range(1, 10), 2: range(1, 10), 3: range(1, 7)}, big_blinds={1: (1, 9), 2: (1, 9), 3: (1, 6)})
    client = api(floor_user)
    r = client.post(url(t, "tables/3/hand-completed/"), format="json")
    assert r.status_code == 200 and r.json()["table"]["big_blind_seat"] == 2 and r.json()["halted"] == [3]
    r = client.post(url(t, "tables/3/waive-halt/"), {"reason": "TD waives: 2 minutes to the break"}, format="json")
    assert r.status_code == 200 and r.json()["halted"] == []
    r = client.post(url(t, "tables/2/lock/"), {"locked": True, "seat": 4, "reason": "broken chair"}, format="json")
    assert r.status_code == 200 and r.json()["table"]["locked_seats"] == [4]
    r = client.post(url(t, "tables/1/lock/"), {"locked": True, "reason": "TV table"}, format="json")
    assert r.status_code == 200 and r.json()["table"]["locked"]
    r = client.post(url(t, "tables/9/hand-completed/"), format="json")
    assert r.status_code == 404 and r.json()["code"] == "unknown_table"
    r = client.post(url(t, "break-order/"), {"break_order": [3, 2], "reason": "published"}, format="json")
    assert r.status_code == 200 and r.json()["break_order"] == [3, 2]
    actions = set(TournamentEvent.objects.filter(tournament=t, action__startswith="seating.").values_list("action", flat=True))
    assert {"seating.hand.completed", "seating.halt.waived", "seating.seat.locked", "seating.table.locked", "seating.break_order.set"} <= actions
    assert TournamentEvent.objects.filter(tournament=t, action="seating.seat.locked", actor=floor_user).exists()


def test_the_draw_history_shows_both_permutations_of_a_break(api, started, floor_user):
    t = started(21, table_size=10)
    arrange(t, {1: range(1, 9), 2: range(1, 9), 3: range(1, 6)}, big_blinds={1: (1, 8), 2: (2, 1), 3: (1, 5)})
    mover = seat_map(t)[3][1]
    api(floor_user).post(url(t, "busts/"), {"entries": [{"entry": seat_map(t)[3][2]}]}, format="json")
    items = api(floor_user).get(url(t, f"entries/{mover}/draws/")).json()
    (brk,) = [i for i in items if i["kind"] == "break"]
    assert len(brk["seat_order"]) == 4 and mover in [p for p, _card, _name in brk["card_order"]]
    assert brk["move"]["to_table"] in (1, 2) and brk["action"] == "seating.table.broken"
    assert PendingMove.objects.get(entry_id=mover).card in brk["reason"]


def test_the_table_map_read_while_a_player_busts_shows_the_seat_as_read(api, started, floor_user, director, monkeypatch):
    """Two floor tablets: one reads the map while the other's bust commits between its reads of
    the seats and of the players (PostgreSQL's read committed). The map answers, the busted
    player still at the seat it read; the next read shows him gone."""
    from seating import services as seating
    from seating.selectors import tables as table_reads
    from tournaments.eventlog.services import Actor

    t = started(20)
    victim = t.entries.order_by("number").first()
    read_tables = table_reads.engine_tables
    busted = []

    def bust_in_between(tournament):
        tables = read_tables(tournament)
        if not busted:
            busted.append(seating.record_bust(t, [victim], actor=Actor(director, "other tablet")))
        return tables

    monkeypatch.setattr(table_reads, "engine_tables", bust_in_between)
    r = api(floor_user).get(url(t, "tables/"))
    assert r.status_code == 200 and busted
    names = [s.get("entry_number") for table in r.json()["tables"] for s in table["seats"]]
    assert victim.number in names and r.json()["players"] == 20
    monkeypatch.setattr(table_reads, "engine_tables", read_tables)
    after = api(floor_user).get(url(t, "tables/")).json()
    assert victim.number not in [s.get("entry_number") for table in after["tables"] for s in table["seats"]]
    assert after["players"] == 19


def test_a_table_action_answers_that_table_as_the_map_shows_it_reading_only_its_players(api, started, floor_user, director):
    """The answer to an action at one table carries that table, seat by seat as the whole map
    shows it (players, stacks counted, positions), read for that table
    alone: at 20 or 200 players the same players' rows."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from seating.models import Seat
    from tournaments.eventlog.services import Actor
    from tournaments.floor import services as floor

    def answer(t, number):
        with CaptureQueriesContext(connection) as ctx:
            r = api(floor_user).post(url(t, f"tables/{number}/hand-completed/"), format="json")
        assert r.status_code == 200
        # the players' read: numbers, names, chips and presence by key
        rows = [
            q["sql"]
            for q in ctx.captured_queries
            if (q["sql"] or "").startswith(
                'SELECT "tournaments_entry"."id" AS "pk", "tournaments_entry"."number" AS "number", "tournaments_person"."first_name"'
            )
        ]
        return r.json()["table"], rows

    small, big = started(20), started(200)
    for t in (small, big):
        seat = Seat.objects.filter(tournament=t, table__number=2).order_by("number").first()
        floor.record_chip_counts(t, [{"entry": seat.entry_id, "chips": 41000}], occasion="level 4", actor=Actor(director, "test"))
    table, small_rows = answer(small, 2)
    whole = next(x for x in api(floor_user).get(url(small, "tables/")).json()["tables"] if x["number"] == 2)
    assert table == whole
    seated = [s for s in table["seats"] if s["entry"]]
    assert [s["stack"] for s in seated if s["stack"] is not None] == [41000]
    big_table, big_rows = answer(big, 2)
    assert big_table == next(x for x in api(floor_user).get(url(big, "tables/")).json()["tables"] if x["number"] == 2)
    assert len(big_rows) == len(small_rows) == 1
    # the players' read names the seated of table 2 alone: at most a table's worth of keys
    keys = re.search(r'"tournaments_entry"\."id" IN \(([^)]*)\)', big_rows[0]).group(1).split(",")
    assert 0 < len(keys) <= big.table_size


def test_a_seat_that_is_not_at_the_table_is_refused_with_the_tables_seats(api, started, floor_user):
    t = started(24)
    arrange(t, {1: range(1, 10), 2: range(1, 10), 3: range(1, 7)}, big_blinds={1: (1, 9), 2: (1, 9), 3: (1, 6)})
    client = api(floor_user)
    r = client.post(url(t, "tables/1/big-blind/"), {"big_blind_seat": 10, "reason": "checked"}, format="json")
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (400, "bad_seat", "The big blind must be a seat from 1 to 9.")
    r = client.post(url(t, "tables/1/big-blind/"), {"big_blind_seat": 3, "previous_big_blind_seat": 10, "reason": "checked"}, format="json")
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (400, "bad_seat", "The big blind of the hand before must be a seat from 1 to 9.")
    r = client.post(url(t, "tables/2/lock/"), {"locked": True, "seat": 10, "reason": "broken chair"}, format="json")
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (400, "bad_seat", "The seat must be a seat from 1 to 9.")
    r = client.post(url(t, "tables/1/big-blind/"), {"big_blind_seat": 9, "previous_big_blind_seat": 8, "reason": "checked"}, format="json")
    assert r.status_code == 200 and r.json()["table"]["big_blind_seat"] == 9  # the last seat is a seat
    r = client.post(url(t, "tables/9/big-blind/"), {"big_blind_seat": 3, "reason": "checked"}, format="json")
    assert (r.status_code, r.json()["code"], r.json()["detail"]) == (404, "unknown_table", "Table 9 is not in play.")
