"""Hand-for-hand × balancing, through the API, on two tables.

At the bubble, a player went out at table 1 while table 2 was still playing the hand-for-hand
hand: a balancing move off table 2 was proposed at once, its Done active and shown on the lobby,
and when table 2 reported the hand the move was swapped for another player (the blinds had moved
on). A floor who confirmed early would have moved the wrong player.

During hand-for-hand a move off or onto a table is proposed once that table has finished the
hand; until then it waits (no player, no Done: a confirmation is refused, 409), and once shown
its player stands."""

import pytest
from django.utils import translation

from seating import replay
from seating.models import PendingMove, Seat
from tournaments.clock import services as clock_services
from tournaments.eventlog.actions import Action
from tournaments.eventlog.sentences import sentence
from tournaments.live.snapshot import build_snapshot
from tournaments.models import TournamentEvent

from .test_support import arrange, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def url(t, path=""):
    return f"/api/v1/tournaments/{t.pk}/{path}"


def at(t, table: int, seat: int) -> int:
    return Seat.objects.get(tournament=t, table__number=table, number=seat).entry_id


@pytest.fixture
def bubble(started, actor):
    """13 players: table 1 six (seats 1–6, big blind of the last hand 3), table 2 seven (seats
    1–7, big blind 4); the clock runs and hand-for-hand is announced."""
    t = started(13)
    arrange(t, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6, 7]}, big_blinds={1: (3, 2), 2: (4, 3)})
    clock_services.start_clock(t, actor=actor)
    clock_services.start_hand_for_hand(t, actor=actor, reason="bubble")
    return t


def test_h4h_balancing_move_off_a_table_is_proposed_only_once_its_hand_is_complete(bubble, api, floor_user):
    t, floor = bubble, api(floor_user)
    out = at(t, 1, 1)
    r = floor.post(url(t, "busts/"), {"table": 1, "entries": [{"entry": out}]}, format="json")
    assert r.status_code == 201, r.content
    # 5 against 7: a move from table 2 to table 1, but table 2 is still playing the hand
    assert r.json()["moves"] == []
    (waiting,) = r.json()["waiting"]
    assert (waiting["from_table"], waiting["to_table"], waiting["waiting_for"], waiting["status"]) == (2, 1, [1, 2], "WAITING")
    assert "player" not in waiting and "to_seat" not in waiting  # not chosen yet
    assert not PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED).exists()
    snap = build_snapshot(t.pk)
    assert snap["moves"] == [] and snap["moves_pending"] == 0
    assert snap["moves_waiting"] == [{"from_table": 2, "to_table": 1}]

    # Done on a waiting move: refused, saying why, in the user's language
    r = floor.post(url(t, f"moves/{waiting['id']}/confirm/"), {}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 409, r.content
    assert r.json()["code"] == "move_waiting_for_hand"
    assert r.json()["detail"] == (
        "I tavoli 1, 2 stanno ancora giocando la mano del mano per mano: questo spostamento dal tavolo 2 al tavolo 1 "
        "viene proposto quando hanno finito la mano."
    )
    r = floor.post(url(t, "moves/confirm/"), {"moves": [waiting["id"]]}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "move_waiting_for_hand", r.content

    r = floor.post(url(t, "tables/1/hand-completed/"), {}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["moves"] == [] and [w["waiting_for"] for w in r.json()["waiting"]] == [[2]]  # off table 2: still playing

    r = floor.post(url(t, "tables/2/hand-completed/"), {}, format="json")  # the last table: the hand is over
    assert r.status_code == 200, r.content
    assert "waiting" not in r.json()
    (move,) = r.json()["moves"]
    # the same slip, now with its player: the next big blind at table 2 once its blinds moved
    # on (seat 6: seat 5 posted the big blind in the hand just played)
    assert move["id"] == waiting["id"] and move["status"] == "PROPOSED"
    assert (move["entry"], move["from_table"], move["from_seat"], move["to_table"]) == (at(t, 2, 6), 2, 6, 1)
    snap = build_snapshot(t.pk)
    assert snap["moves_waiting"] == [] and snap["moves_pending"] == 1
    assert [(m["from_table"], m["from_seat"], m["to_table"], m["to_seat"]) for m in snap["moves"]] == [(2, 6, 1, move["to_seat"])]
    # each plan replays from its seed and inputs (SEAT-01), the tables playing the hand among them
    plans = TournamentEvent.objects.filter(tournament=t, action=Action.SEATING_MOVES_PROPOSED).order_by("pk")
    assert [(len(e.payload["moves"]), e.payload["hand_for_hand"]["playing"]) for e in plans] == [(0, [1, 2]), (1, [])]
    assert all(replay.replay(e.action, e.payload).matches for e in plans)
    with translation.override("it"):
        assert sentence(plans[0].action, plans[0].payload) == "Bilanciamento: 1 spostamento attende che i suoi tavoli finiscano la mano del mano per mano"


def test_h4h_balancing_move_shown_stands_when_the_next_hand_is_reported(bubble, api, floor_user):
    t, floor = bubble, api(floor_user)
    floor.post(url(t, "busts/"), {"table": 1, "entries": [{"entry": at(t, 1, 1)}]}, format="json")
    floor.post(url(t, "tables/1/hand-completed/"), {}, format="json")
    (move,) = floor.post(url(t, "tables/2/hand-completed/"), {}, format="json").json()["moves"]

    # The next hand-for-hand hand is dealt before the floor has made the move: the tables report
    # it, their blinds move on; the player shown still moves, to the seat shown.
    for number in (1, 2):
        r = floor.post(url(t, f"tables/{number}/hand-completed/"), {}, format="json")
        assert r.status_code == 200, r.content
        (still,) = r.json()["moves"]
        assert {k: still[k] for k in ("id", "entry", "from_seat", "to_seat")} == {k: move[k] for k in ("id", "entry", "from_seat", "to_seat")}
    r = floor.post(url(t, f"moves/{move['id']}/confirm/"), {}, format="json")
    assert r.status_code == 200, r.content
    assert Seat.objects.get(entry_id=move["entry"]).table.number == 1


def test_h4h_balancing_move_waits_while_the_table_holds_an_all_in(bubble, api, floor_user):
    """A table holding an all-in (cards face down, RP-8-F) is still playing the hand; the move
    off it is made once it has reported the hand complete."""
    t, floor = bubble, api(floor_user)
    floor.post(url(t, "tables/2/h4h-state/"), {"state": "ALL_IN_HOLD"}, format="json")
    floor.post(url(t, "tables/1/hand-completed/"), {}, format="json")
    r = floor.post(url(t, "busts/"), {"table": 1, "entries": [{"entry": at(t, 1, 1)}]}, format="json")
    assert r.status_code == 201, r.content
    assert r.json()["moves"] == [] and [w["waiting_for"] for w in r.json()["waiting"]] == [[2]]
    r = floor.post(url(t, "tables/2/hand-completed/"), {}, format="json")
    assert [(m["from_table"], m["from_seat"], m["to_table"]) for m in r.json()["moves"]] == [(2, 6, 1)]


@pytest.mark.parametrize("op", ["next-hand", "end-hand-for-hand"])
def test_h4h_balancing_move_waiting_is_proposed_when_the_director_closes_the_hand(bubble, api, floor_user, director, op):
    """The director's «Next hand (all tables done)» or «End hand-for-hand» closes the hand at
    every table at once: the move that waited for it is proposed then, the same slip."""
    t, floor = bubble, api(floor_user)
    (waiting,) = floor.post(url(t, "busts/"), {"table": 1, "entries": [{"entry": at(t, 1, 1)}]}, format="json").json()["waiting"]
    r = api(director).post(url(t, f"clock/{op}/"), {}, format="json")
    assert r.status_code == 200, r.content
    (move,) = floor.get(url(t, "moves/")).json()
    assert (move["id"], move["from_table"], move["to_table"], move["status"]) == (waiting["id"], 2, 1, "PROPOSED")
    assert not PendingMove.objects.filter(tournament=t, status=PendingMove.WAITING).exists()


def test_h4h_a_done_on_a_waiting_move_names_the_tables_still_playing_and_the_move(bubble, api, floor_user):
    t, floor = bubble, api(floor_user)
    r = floor.post(url(t, "busts/"), {"table": 1, "entries": [{"entry": at(t, 1, 1)}]}, format="json")
    (waiting,) = r.json()["waiting"]
    r = floor.post(url(t, f"moves/{waiting['id']}/confirm/"), {}, format="json")
    assert r.status_code == 409, r.content
    body = r.json()
    assert (body["code"], body["move"], body["waiting_for"]) == ("move_waiting_for_hand", waiting["id"], [1, 2])
    assert body["detail"] == (
        "Tables 1, 2 are still playing the hand-for-hand hand: this move from table 2 to table 1 is proposed once they have finished the hand."
    )
    floor.post(url(t, "tables/1/hand-completed/"), {}, format="json")
    r = floor.post(url(t, "moves/confirm/"), {"moves": [waiting["id"]]}, format="json")
    assert r.status_code == 409 and (r.json()["move"], r.json()["waiting_for"]) == (waiting["id"], [2]), r.content
    assert r.json()["detail"] == (
        "Table 2 is still playing the hand-for-hand hand: this move from table 2 to table 1 is proposed once it has finished the hand."
    )


def test_h4h_the_waiting_slip_proposed_reads_its_player_seat_reason_and_time_chosen_now(bubble, api, floor_user):
    """The slip that waited is proposed in place once the hand is over at both tables: the floor
    reads on it the player chosen now, the seat he takes, why, and the time it was proposed."""
    t, floor = bubble, api(floor_user)
    (waiting,) = floor.post(url(t, "busts/"), {"table": 1, "entries": [{"entry": at(t, 1, 1)}]}, format="json").json()["waiting"]
    floor.post(url(t, "tables/1/hand-completed/"), {}, format="json")
    floor.post(url(t, "tables/2/hand-completed/"), {}, format="json")
    (move,) = floor.get(url(t, "moves/")).json()
    keys = ("id", "status", "entry", "from_table", "from_seat", "to_table", "to_seat", "reason", "reason_code", "wait_for_button", "single_big_blind")
    # table 2's next big blind once its blinds moved on (seat 6); table 1 (2–6 left, its big
    # blind at 4 now) gives the seat that posts the big blind soonest after them, seat 7
    assert {k: move[k] for k in keys} == {
        "id": waiting["id"],
        "status": "PROPOSED",
        "entry": at(t, 2, 6),
        "from_table": 2,
        "from_seat": 6,
        "to_table": 1,
        "to_seat": 7,
        "reason": "next big blind at table 2 (seat 6); seat 7 at table 1 posts the big blind in 3 hands (balancing: table 2 had 7 players, table 1 had 5)",
        "reason_code": "MOVER_NEXT_BB",
        "wait_for_button": False,
        "single_big_blind": False,
    }
    assert move["created_at"] > waiting["created_at"]  # proposed now, not when it began to wait


def test_h4h_a_table_that_finished_the_last_hand_but_not_this_one_is_still_playing(bubble, api, floor_user):
    """Both tables reported the first hand-for-hand hand; in the next one a player goes out at
    table 1 while table 2 still plays it: the move off table 2 waits for that hand, not the last."""
    t, floor = bubble, api(floor_user)
    for number in (1, 2):
        assert floor.post(url(t, f"tables/{number}/hand-completed/"), {}, format="json").status_code == 200
    r = floor.post(url(t, "busts/"), {"table": 1, "entries": [{"entry": at(t, 1, 1)}]}, format="json")
    assert r.status_code == 201, r.content
    assert r.json()["moves"] == []
    (waiting,) = r.json()["waiting"]
    assert (waiting["from_table"], waiting["to_table"], waiting["status"]) == (2, 1, "WAITING")


def test_h4h_the_moves_made_when_the_director_closes_the_hand_are_logged_in_his_name(bubble, api, floor_user, director):
    t, floor = bubble, api(floor_user)
    floor.post(url(t, "busts/"), {"table": 1, "entries": [{"entry": at(t, 1, 1)}]}, format="json")
    assert api(director).post(url(t, "clock/next-hand/"), {}, format="json").status_code == 200
    rows = [row for row in api(director).get(url(t, "events/")).json() if row["action"] == "seating.moves.proposed"]
    assert [(row["actor_label"], len(row["payload"]["moves"])) for row in rows] == [(director.get_username(), 1), (floor_user.get_username(), 0)]
