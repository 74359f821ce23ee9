"""FMT-16 / BAL-03: a stud-only event balances by position (TDA 11-A: «players move by position
(last seat open at the short table is the seat filled)»); flop games keep the big-blind mover.

Worked example: 10-max tables, table 1 full (seats 1-10), table 2 with seats 1-5 and 7-10. A
player at table 2 seat 2 busts: 10 against 8, one player moves. Table 2's open seats are 2 and 6,
the last open seat is 6, so the player in seat 6 of table 1 moves into seat 6 of table 2. In
hold'em the next big blind would move instead, whatever the seat numbers.
"""

import pytest
from django.utils import translation

from seating import services
from seating.engine import ReasonCode as R
from seating.engine import Table, plan_balance
from seating.models import PendingMove
from tournaments.house import HouseRules

from .test_support import arrange, counts, seat_map, started  # noqa: F401 (fixture)


def test_fmt16_bal03_stud_moves_the_player_in_the_seat_number_of_the_last_open_seat():
    full = Table(1, 10, {s: f"a{s}" for s in range(1, 11)}, big_blind_seat=3)
    short = Table(2, 10, {s: f"b{s}" for s in (1, 3, 4, 5, 7, 8, 9, 10)}, big_blind_seat=5)
    (move,) = plan_balance([full, short], mover_rule="STUD_POSITION")
    assert (move.player, move.from_table, move.from_seat, move.to_table, move.to_seat) == ("a6", 1, 6, 2, 6)
    assert move.reason.code == R.MOVER_STUD_POSITION and not move.wait_for_button and not move.single_big_blind
    # The same tables under hold'em: the next big blind of table 1 (seat 4) moves.
    (holdem,) = plan_balance([full, short])
    assert holdem.from_seat == 4


def test_fmt16_bal03_stud_takes_the_next_player_when_that_seat_is_empty_at_the_full_table():
    # Table 1 has seat 6 empty: the next player clockwise after seat 6 (seat 7) moves to seat 6.
    full = Table(1, 10, {s: f"a{s}" for s in (1, 2, 3, 4, 5, 7, 8, 9, 10)})
    short = Table(2, 10, {s: f"b{s}" for s in (1, 3, 4, 5, 8, 9, 10)})  # open 2, 6, 7: last is 7
    (move,) = plan_balance([full, short], mover_rule="STUD_POSITION")
    assert (move.from_seat, move.to_seat) == (7, 7)
    short = Table(2, 10, {s: f"b{s}" for s in (1, 3, 4, 5, 7, 8, 9)})  # open 2, 6, 10: last is 10
    (move,) = plan_balance([full, short], mover_rule="STUD_POSITION")
    assert (move.from_seat, move.to_seat) == (10, 10)
    full = Table(1, 10, {s: f"a{s}" for s in range(1, 10)})  # seat 10 empty: after 10 comes seat 1
    (move,) = plan_balance([full, Table(2, 10, {s: f"b{s}" for s in (1, 3, 4, 5, 7, 8, 9)})], mover_rule="STUD_POSITION")
    assert (move.from_seat, move.to_seat) == (1, 10)


def test_fmt16_the_game_decides_the_engines_mover_rule():
    assert HouseRules.from_settings({}, game="STUD").balance_kwargs()["mover_rule"] == "STUD_POSITION"
    assert HouseRules.from_settings({"mover_rule": "CURRENT_BB"}, game="PLO").balance_kwargs()["mover_rule"] == "CURRENT_BB"


@pytest.mark.django_db
def test_bal03_a_stud_tournament_proposes_the_move_by_position_and_says_why(started, actor, client, director):
    t = started(19, table_size=10, game="STUD")
    layout = arrange(t, {1: range(1, 11), 2: [1, 2, 3, 4, 5, 7, 8, 9, 10]})
    services.record_bust(t, [layout[2][2]], actor=actor)  # 10 against 8: table 2's open seats are 2 and 6
    (move,) = PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED)
    assert (move.entry_id, move.from_table, move.from_seat, move.to_table, move.to_seat) == (layout[1][6], 1, 6, 2, 6)
    assert move.reason_code == "MOVER_STUD_POSITION"
    with translation.override("en"):
        assert "stud, by position" in move.reason_text and "the last open seat at table 2, seat 6" in move.reason_text
    services.confirm_move(t, move, actor=actor)
    assert counts(t) == {1: 9, 2: 9} and seat_map(t)[2][6] == layout[1][6]
    # The public rules page says so to the players (BAL-05).
    text = client.get(f"/rules/{t.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Stud has no button: the player moves by position." in text


def test_bal03_mixed_games_move_the_player_who_would_be_big_blind_in_holdem_even_in_stud_rounds():
    """TDA 11-B: in a mixed game the player moved during a stud round is the one who would be big
    blind in hold'em (the button frozen where the next hold'em hand would have it): the engine
    keeps the next-big-blind mover for MIXED, never the stud-only "by position" one."""
    assert HouseRules.from_settings({}, game="MIXED").balance_kwargs()["mover_rule"] == "NEXT_BB"
    full = Table(1, 10, {s: f"a{s}" for s in range(1, 11)}, big_blind_seat=3)
    short = Table(2, 10, {s: f"b{s}" for s in (1, 3, 4, 5, 7, 8, 9, 10)}, big_blind_seat=5)
    (move,) = plan_balance([full, short], **HouseRules.from_settings({}, game="MIXED").balance_kwargs())
    assert move.from_seat == 4 and move.reason.code == R.MOVER_NEXT_BB  # seat 4: big blind of the next hold'em hand


@pytest.mark.django_db
def test_fmt16_the_game_comes_from_the_configured_list_and_omaha_is_never_no_limit(api, director, structure):
    """003 Art. 10: Omaha «mai No-Limit»: the list holds Pot-Limit Omaha only, so a No-Limit Omaha
    event cannot be created (at Sanremo or anywhere); a stud event can."""
    base = {"name": "Omaha", "start_at": "2026-07-09T19:00:00Z", "buy_in": "100", "fee": "10", "starting_stack": 30000, "structure": structure.pk}
    r = api(director).post("/api/v1/tournaments/", {**base, "game": "NLO", "rule_set": "SANREMO_003"}, format="json")
    assert r.status_code == 400 and "game" in r.json()["fields"]
    r = api(director).post("/api/v1/tournaments/", {**base, "name": "Stud", "game": "STUD"}, format="json")
    assert r.status_code == 201 and r.json()["game"] == "STUD"
