"""Balancing, halts, breaking and the final table through the services (BAL-01..09),
with RULES.md scenarios 10, 11, 12, 15 and 17."""

import pytest

from seating import selectors, services
from seating.models import PendingMove, Table
from tdmanager.errors import DomainError
from tournaments.models import TournamentEvent

from .test_support import arrange, blinds, counts, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def open_moves(t):
    return list(PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED).order_by("id"))


def test_scenario_10_the_next_big_blind_of_the_ten_table_moves_to_the_eight_table(started, actor):
    t = started(18, table_size=10)
    layout = arrange(t, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    services.set_big_blind(t, 1, 3, previous_big_blind_seat=2, actor=actor, reason="confirmed at the table")
    (move,) = open_moves(t)
    # Mover: the player who is big blind on table 1's next hand (seat 4, NEXT_BB); he goes to
    # the open seat at table 2 that posts the big blind soonest, never the small blind.
    assert (move.entry_id, move.from_table, move.from_seat, move.to_table) == (layout[1][4], 1, 4, 2)
    assert move.to_seat == 9 and move.to_seat != selectors.table_map(t)["tables"][1]["next_hand"]["small_blind"]
    assert "next big blind at table 1 (seat 4)" in move.reason_text and move.reason_code == "MOVER_NEXT_BB"
    assert counts(t) == {1: 10, 2: 8}  # proposed only: nobody has moved yet
    out = services.confirm_move(t, move, actor=actor)
    assert counts(t) == {1: 9, 2: 9} and seat_map(t)[2][9] == layout[1][4]
    assert out.event.action == "seating.move.confirmed" and out.event.actor_label == actor.label
    assert PendingMove.objects.get(pk=move.pk).status == PendingMove.DONE and not open_moves(t)


def test_scenario_10_current_bb_mode_moves_the_player_in_the_big_blind(started, actor):
    t = started(18, table_size=10, settings={"mover_rule": "CURRENT_BB"})
    layout = arrange(t, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    services.set_big_blind(t, 1, 3, previous_big_blind_seat=2, actor=actor)
    (move,) = open_moves(t)
    assert (move.entry_id, move.from_seat) == (layout[1][3], 3)


def test_scenario_11_the_trigger_is_a_house_setting(started, actor):
    t = started(16, settings={"balance_trigger_difference": 3})
    arrange(t, {1: range(1, 10), 2: range(1, 8)}, big_blinds={1: (1, 9), 2: (1, 7)})
    services.set_big_blind(t, 1, 1, actor=actor)
    assert not open_moves(t)  # 9 and 7: no move with trigger 3
    services.record_bust(t, [seat_map(t)[2][3]], actor=actor)
    assert len(open_moves(t)) == 1  # 9 and 6


def test_scenario_12_a_table_three_short_halts_until_the_td_waives_it(started, actor):
    t = started(24)
    arrange(t, {1: range(1, 10), 2: range(1, 10), 3: range(1, 7)}, big_blinds={1: (1, 9), 2: (1, 9), 3: (1, 6)})
    out = services.set_big_blind(t, 3, 1, actor=actor)
    assert out.halted == [3] and selectors.table_map(t)["halted"] == [3]
    assert len(open_moves(t)) == 2  # 9, 9, 6 → 8, 8, 8
    with pytest.raises(DomainError) as e:
        services.waive_halt(t, 3, actor=actor, reason="")
    assert e.value.code == "reason_required"
    services.waive_halt(t, 3, actor=actor, reason="last hand before the break")
    assert selectors.table_map(t)["halted"] == []
    waiver = TournamentEvent.objects.get(tournament=t, action="seating.halt.waived")
    assert waiver.payload["reason"] == "last hand before the break" and waiver.actor == actor.user
    with pytest.raises(DomainError) as e:
        services.waive_halt(t, 1, actor=actor, reason="x")
    assert e.value.code == "not_halted"


def test_scenario_12_nine_nine_seven_halts_nobody_but_proposes_a_move(started, actor):
    t = started(25)
    arrange(t, {1: range(1, 10), 2: range(1, 10), 3: range(1, 8)}, big_blinds={1: (1, 9), 2: (1, 9), 3: (1, 7)})
    out = services.set_big_blind(t, 3, 1, actor=actor)
    assert out.halted == [] and len(open_moves(t)) == 1


def test_scenario_15_the_short_table_breaks_into_the_four_open_seats_by_a_logged_two_step_draw(started, actor):
    t = started(20, table_size=10)
    layout = arrange(t, {1: range(1, 9), 2: range(1, 9), 3: range(1, 5)}, big_blinds={1: (1, 8), 2: (1, 8), 3: (1, 4)})
    out = services.set_break_order(t, [3, 2, 1], actor=actor, reason="highest number first")
    assert out.broken == [3]
    assert counts(t) == {1: 10, 2: 10}
    assert not Table.objects.get(tournament=t, number=3).in_play
    event = TournamentEvent.objects.get(tournament=t, action="seating.table.broken")
    assert sorted(map(tuple, event.payload["seat_order"])) == [(1, 9), (1, 10), (2, 9), (2, 10)]  # step 1
    assert sorted(p for p, _card in event.payload["card_order"]) == sorted(layout[3].values())  # step 2
    slips = open_moves(t)
    assert len(slips) == 4 and all(s.kind == PendingMove.BREAK and s.applied for s in slips)
    for slip in slips:  # the seat map already shows them at their new seats
        assert seat_map(t)[slip.to_table][slip.to_seat] == slip.entry_id and slip.card in slip.reason_text
    services.confirm_moves(t, slips, actor=actor)
    assert not open_moves(t) and counts(t) == {1: 10, 2: 10}


def test_a_break_takes_priority_over_balancing(started, actor):
    t = started(20, table_size=10)
    arrange(t, {1: range(1, 10), 2: range(1, 8), 3: range(1, 5)}, big_blinds={1: (1, 9), 2: (1, 7), 3: (1, 4)})
    out = services.set_big_blind(t, 1, 1, actor=actor)  # 9, 7, 4: table 3 fits the 4 open seats
    assert out.broken == [3] and sum(counts(t).values()) == 20 and max(counts(t).values()) == 10
    assert not [m for m in open_moves(t) if m.kind == PendingMove.BALANCE]


def test_scenario_17_ten_left_balance_five_five_then_the_tenth_bust_forms_the_final_table(started, actor):
    t = started(11)  # 9-handed: 6 and 5
    assert counts(t) == {1: 6, 2: 5}
    services.record_bust(t, [next(iter(seat_map(t)[2].values()))], actor=actor)  # 6 and 4
    (move,) = open_moves(t)
    services.confirm_move(t, move, actor=actor)
    assert counts(t) == {1: 5, 2: 5}
    out = services.record_bust(t, [next(iter(seat_map(t)[1].values()))], actor=actor)
    assert out.final_table == 1 and counts(t) == {1: 9}
    final = Table.objects.get(tournament=t, number=1)
    assert final.is_final and not Table.objects.get(tournament=t, number=2).in_play
    event = TournamentEvent.objects.get(tournament=t, action="seating.final_table.formed")
    assert len(event.payload["card_order"]) == 9 and len(event.payload["button_cards"]) == 9  # fresh draw and button draw
    assert event.payload["button_seat"] in seat_map(t)[1]
    assert len(out.slips) == 9 and all(s.kind == PendingMove.FINAL_TABLE for s in out.slips)


def test_an_open_proposal_stays_while_still_needed_and_is_superseded_when_not(started, actor):
    t = started(27, table_size=10)
    arrange(t, {1: range(1, 11), 2: range(1, 9), 3: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4), 3: (1, 9)})
    services.set_big_blind(t, 1, 3, previous_big_blind_seat=2, actor=actor)
    (move,) = open_moves(t)
    services.record_bust(t, [seat_map(t)[3][2]], actor=actor)  # 10, 8, 8: the same move is still the plan
    assert [m.pk for m in open_moves(t)] == [move.pk]
    services.record_bust(t, [seat_map(t)[1][7]], actor=actor)  # 9, 8, 8: no move needed
    assert not open_moves(t) and PendingMove.objects.get(pk=move.pk).status == PendingMove.SUPERSEDED
    with pytest.raises(DomainError) as e:
        services.confirm_move(t, move, actor=actor)
    assert e.value.code == "move_superseded"


def test_confirming_one_move_leaves_the_other_open_slips_as_they_are_when_their_seats_were_drawn(started, actor):
    """The short tables' big blinds are unknown, so each destination seat is drawn (BAL-04).
    Confirming one move plans the rest again; the other slips keep their seats, keys and
    words instead of being superseded and written again with new seats (issue #15)."""
    t = started(32, table_size=10)
    arrange(t, {1: range(1, 11), 2: range(1, 11), 3: range(1, 7), 4: range(1, 7)}, big_blinds={1: (3, 2), 2: (5, 4)})
    services.record_bust(t, [seat_map(t)[3][6]], actor=actor)  # 10, 10, 5, 6: 31 players need four tables
    first, *others = open_moves(t)
    assert len(others) >= 2 and all(m.kind == PendingMove.BALANCE and m.to_table in (3, 4) for m in [first, *others])
    before = [(m.pk, m.entry_id, m.to_table, m.to_seat, m.reason_text) for m in others]
    services.confirm_move(t, first, actor=actor)
    assert [(m.pk, m.entry_id, m.to_table, m.to_seat, m.reason_text) for m in open_moves(t)] == before
    assert not PendingMove.objects.filter(tournament=t, status=PendingMove.SUPERSEDED).exists()
    for move in open_moves(t):
        services.confirm_move(t, move, actor=actor)
    assert max(counts(t).values()) - min(counts(t).values()) <= 1


def test_bal08_a_confirmed_single_big_blind_move_posts_the_big_blind_alone_next_hand(started, actor):
    """Under SINGLE_BB the mover takes the seat the big blind left (BAL-04). Once the floor
    confirms the slip, the table map shows him posting the big blind alone on the next hand:
    no small blind, the button where it was."""
    t = started(13, settings={"vacated_bb_seat": "SINGLE_BB"})
    layout = arrange(t, {1: range(1, 8), 2: range(1, 7)}, big_blinds={1: (3, 2), 2: (4, 3)})
    services.record_bust(t, [layout[2][4]], actor=actor)  # table 2's big blind goes out: 7 against 5
    (move,) = open_moves(t)
    # table 1's next big blind (seat 4) goes to seat 4 at table 2, the seat the big blind left
    assert (move.entry_id, move.from_table, move.from_seat, move.to_table, move.to_seat, move.single_big_blind) == (layout[1][4], 1, 4, 2, 4, True)
    services.confirm_move(t, move, actor=actor)
    table_2 = selectors.table_map(t)["tables"][1]
    assert table_2["number"] == 2 and seat_map(t)[2][4] == layout[1][4]
    assert table_2["next_hand"] == {"button": 3, "small_blind": None, "big_blind": 4}


def test_a_locked_table_neither_gives_nor_receives_and_is_never_broken(started, actor):
    t = started(18, table_size=10)
    arrange(t, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    services.lock_table(t, 1, True, actor=actor, reason="TV table")
    assert not open_moves(t)
    services.lock_table(t, 1, False, actor=actor, reason="TV off")
    assert len(open_moves(t)) == 1
    locked = TournamentEvent.objects.get(tournament=t, action="seating.table.locked")
    assert locked.payload["reason"] == "TV table"


def test_a_locked_seat_is_never_a_destination(started, actor):
    t = started(18, table_size=10)
    arrange(t, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    services.lock_seat(t, 2, 9, True, actor=actor, reason="broken chair")
    (move,) = open_moves(t)
    assert (move.to_table, move.to_seat) == (2, 10)
    assert selectors.table_map(t)["tables"][1]["locked_seats"] == [9]


def test_the_blinds_move_on_when_a_hand_is_completed(started, actor):
    t = started(9)
    arrange(t, {1: [1, 2, 4, 5, 6, 7, 8, 9, 10]}, capacity=10)
    with pytest.raises(DomainError) as e:
        services.hand_completed(t, 1, actor=actor)
    assert e.value.code == "big_blind_unknown"
    services.set_big_blind(t, 1, 2, previous_big_blind_seat=1, actor=actor, reason="set at the table")
    assert selectors.table_map(t)["tables"][0]["next_hand"] == {"button": 1, "small_blind": 2, "big_blind": 4}
    services.hand_completed(t, 1, actor=actor)  # seat 3 is empty: the big blind skips it
    assert blinds(t)[1] == (4, 2)
    assert selectors.table_map(t)["tables"][0]["next_hand"] == {"button": 2, "small_blind": 4, "big_blind": 5}
    assert TournamentEvent.objects.filter(tournament=t, action="seating.hand.completed").count() == 1


def test_a_break_order_names_the_next_table_to_break(started, actor):
    t = started(27)
    assert selectors.table_map(t)["next_to_break"] == 3  # default: fewest players, highest number
    services.set_break_order(t, [1, 2], actor=actor, reason="table 1 is by the bar")
    t.refresh_from_db()
    assert t.settings["break_order"] == [1, 2] and selectors.table_map(t)["next_to_break"] == 1
    with pytest.raises(DomainError) as e:
        services.set_break_order(t, [1, 1], actor=actor)
    assert e.value.code == "bad_break_order"


def test_bal02_a_waiver_holds_hand_after_hand_and_a_table_short_again_halts_again(started, actor):
    """9, 9, 6: the director waives table 3's halt once; it plays its next two hands without
    being halted again. Once the two moves make it 8, 8, 8 the waiver has done its job, and three
    busts at table 3 (8, 8, 5) halt it anew."""
    t = started(24)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10), 3: range(1, 7)}, big_blinds={1: (1, 9), 2: (1, 9), 3: (1, 6)})
    services.set_big_blind(t, 3, 1, actor=actor)
    services.waive_halt(t, 3, actor=actor, reason="last hand before the break")
    for _ in range(2):
        services.hand_completed(t, 3, actor=actor)
        assert selectors.table_map(t)["halted"] == []
    assert TournamentEvent.objects.filter(tournament=t, action="seating.halt.waived").count() == 1
    for move in open_moves(t):
        services.confirm_move(t, move, actor=actor)
    assert counts(t) == {1: 8, 2: 8, 3: 8}
    services.record_bust(t, [layout[3][s] for s in (1, 2, 3)], actor=actor)
    assert selectors.table_map(t)["halted"] == [3]


def test_bal06_the_published_break_order_breaks_its_first_table_not_the_shortest(started, actor):
    """Six, eight and five at 10-max tables: nineteen fit two tables. The house's order names
    table 1 first, so table 1 breaks though table 3 is shorter."""
    t = started(19, table_size=10)
    arrange(t, {1: range(1, 7), 2: range(1, 9), 3: range(1, 6)}, big_blinds={1: (1, 6), 2: (1, 8), 3: (1, 5)})
    out = services.set_break_order(t, [1, 2, 3], actor=actor, reason="table 1 is by the bar")
    assert out.broken == [1]
    assert counts(t) == {2: 10, 3: 9}
