"""Every random draw is random (SEAT-01..04, SEAT-08, BAL-09): over many seeded draws each
outcome an auditor can see (balancing's tie-break and a chip race too) in the log comes up about equally often.

Each test counts one outcome over fixed seeds and compares the counts with equal expected
counts by a χ² statistic; the bound is the χ² table's value at p = 0.001 for the test's
degrees of freedom. A fair draw stays far below it with these seeds; a draw whose shuffle or
choice is taken out (the same outcome every time) scores about N × (cells − 1), hundreds of
times the bound. Deterministic: the seeds are fixed.
"""

import random
from collections import Counter

from seating.engine import Table, draw_break, draw_late_seat, draw_seats, plan_balance, plan_final_table
from seating.predraw import predraw, seat_as_predrawn
from tournaments.floor import chiprace

# χ² at p = 0.001 by degrees of freedom (from the published table, not computed here).
CHI2_P001 = {2: 13.82, 3: 16.27, 5: 20.52, 8: 26.12, 17: 40.79}


def chi2(counts: Counter, cells: list) -> float:
    assert set(counts) <= set(cells), set(counts) - set(cells)  # nothing outside the possible outcomes
    expected = sum(counts.values()) / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def assert_uniform(counts: Counter, cells: list) -> None:
    value = chi2(counts, cells)
    assert value < CHI2_P001[len(cells) - 1], (value, counts)


def seated(number: int, players: list, capacity: int = 9) -> Table:
    return Table(number, capacity, {seat: p for seat, p in enumerate(players, 1)}, big_blind_seat=2, previous_big_blind_seat=1)


def test_the_initial_draw_gives_every_registration_position_every_seat_and_every_seat_the_button():
    # 18 players, 2 tables of 9: the first and the last registered each get each of the 18
    # seats about 1,800 / 18 = 100 times; table 1's button is each seat about 200 times.
    first, last, button = Counter(), Counter(), Counter()
    for seed in range(1800):
        draw = draw_seats(range(18), capacity=9, rng=random.Random(seed))
        where = {p: (t, s) for p, t, s in draw.assignments}
        first[where[0]] += 1
        last[where[17]] += 1
        button[draw.buttons[1]] += 1
    seats = [(t, s) for t in (1, 2) for s in range(1, 10)]
    assert_uniform(first, seats)
    assert_uniform(last, seats)
    assert_uniform(button, list(range(1, 10)))


def test_both_steps_of_a_break_draw_are_random():
    # Table 3 (6 players) breaks into the 6 open seats of tables 1 and 2. Step 1: each seat
    # card comes first about 1,200 / 6 = 200 times; step 2: each player ranks first as often.
    tables = [seated(1, ["a1", "a2", "a3", "a4", "a5", "a6"]), seated(2, ["b1", "b2", "b3", "b4", "b5", "b6"]), seated(3, ["c1", "c2", "c3", "c4", "c5", "c6"])]
    first_card, first_player = Counter(), Counter()
    for seed in range(1200):
        draw = draw_break(tables, 3, random.Random(seed))
        first_card[tuple(draw.seat_order[0])] += 1
        first_player[draw.card_order[0][0]] += 1
    assert_uniform(first_card, [(t, s) for t in (1, 2) for s in (7, 8, 9)])
    assert_uniform(first_player, ["c1", "c2", "c3", "c4", "c5", "c6"])


def test_both_steps_of_the_final_table_draw_are_random():
    # 9 players left at two tables: each of the 9 seat cards comes first, and each player
    # ranks first, about 1,800 / 9 = 200 times.
    tables = [seated(1, ["a1", "a2", "a3", "a4", "a5"]), seated(2, ["b1", "b2", "b3", "b4"])]
    first_card, first_player = Counter(), Counter()
    for seed in range(1800):
        draw = plan_final_table(tables, random.Random(seed))
        first_card[tuple(draw.seat_order[0])] += 1
        first_player[draw.card_order[0][0]] += 1
    assert_uniform(first_card, [(1, s) for s in range(1, 10)])
    assert_uniform(first_player, ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4"])


def test_a_seat_from_the_seat_pool_is_any_open_seat_of_the_pool():
    # One table, players in seats 1–5, no hand played yet (no button: no seat to avoid): each
    # of the open seats 6–9 is drawn about 800 / 4 = 200 times.
    table = Table(1, 9, {s: f"p{s}" for s in range(1, 6)})
    drawn = Counter()
    for seed in range(800):
        late = draw_late_seat([table], "NEW", random.Random(seed))
        drawn[late.seat] += 1
    assert_uniform(drawn, [6, 7, 8, 9])


def test_the_draw_in_advance_sends_each_registrant_to_each_session_as_often():
    # 12 registrants, 3 sessions: the first and the last registered each go to each session
    # about 900 / 3 = 300 times.
    first, last = Counter(), Counter()
    for seed in range(900):
        out, _order = predraw(range(12), ["1A", "1B", "1C"], capacity=9, rng=random.Random(seed))
        session = {a.player: a.session for a in out}
        first[session[0]] += 1
        last[session[11]] += 1
    assert_uniform(first, ["1A", "1B", "1C"])
    assert_uniform(last, ["1A", "1B", "1C"])


def test_the_start_after_a_draw_in_advance_gives_a_late_registrant_and_a_player_drawn_again_any_open_seat():
    # Two tables of 9, each with 6 players drawn in advance into seats 1–6; "late" registered
    # after the pre-draw and "moved" was drawn into seat 10 (the tables have 9 now): one goes
    # to table 1, the other to table 2 (the fewest players, the lowest number first), each
    # takes a random open seat there (the shuffle of a table's free seats) and who takes which
    # table's seat is the shuffle of the tickets. So each of them gets each of the 6 open seats
    # about 1,200 / 6 = 200 times: without the first shuffle seat 7 every time, without the
    # second always the same table.
    predrawn = {f"{t}-{s}": (t, s) for t in (1, 2) for s in range(1, 7)} | {"moved": (2, 10)}
    players = [*predrawn, "late"]
    first, last = Counter(), Counter()
    for seed in range(1200):
        start = seat_as_predrawn(players, predrawn, capacity=9, rng=random.Random(seed))
        assert start.not_kept == [("moved", "no_such_seat")] and len(start.kept) == 12
        where = {p: (t, s) for p, t, s in start.assignments}
        first[where["moved"]] += 1
        last[where["late"]] += 1
    seats = [(t, s) for t in (1, 2) for s in (7, 8, 9)]
    assert_uniform(first, seats)
    assert_uniform(last, seats)


def test_a_balancing_tie_break_by_draw_takes_each_equally_full_table_as_often():
    # BAL-05 RANDOM_DRAW: three tables of 7 and one of 4; the first mover comes from table
    # 1, 2 or 3, each about 600 / 3 = 200 times.
    tables = [seated(n, [f"{n}-{i}" for i in range(7)]) for n in (1, 2, 3)] + [seated(4, [f"4-{i}" for i in range(4)])]
    drawn = Counter()
    for seed in range(600):
        drawn[plan_balance(tables, tie_break="RANDOM_DRAW", rng=random.Random(seed))[0].from_table] += 1
    assert_uniform(drawn, [1, 2, 3])


def test_a_random_chip_race_gives_the_chip_to_each_racer_as_often():
    # CR-03: three players with 25 each over a 100 chip: one chip (rounded up), one deal;
    # each seat wins it about 600 / 3 = 200 times.
    players = [chiprace.RacePlayer(seat=s, odd_value=25, stack_after_exchange=1000) for s in (2, 5, 8)]
    drawn = Counter()
    for seed in range(600):
        drawn[chiprace.race(players, removed_denomination=25, new_denomination=100, rng=random.Random(seed)).winners[0]] += 1
    assert_uniform(drawn, [2, 5, 8])


def test_a_heads_up_bracket_draw_puts_each_unseeded_player_in_each_slot_as_often():
    # 8 players, 2 seeded: each of the 6 others opens the unseeded part of the bracket about
    # 1,200 / 6 = 200 times, and the seeds keep the top of the bracket every time.
    from tournaments.formats.engine import bracket_order

    first = Counter()
    for seed in range(1200):
        order = bracket_order(["s1", "s2"], ["p1", "p2", "p3", "p4", "p5", "p6"], random.Random(seed))
        assert order[:2] == ["s1", "s2"]
        first[order[2]] += 1
    assert_uniform(first, ["p1", "p2", "p3", "p4", "p5", "p6"])


def test_equal_stacks_ranked_by_a_draw_take_each_place_as_often():
    # A timed event's end or a flight's chip leaders (chip_tie / chip_leader_ties DRAW): four
    # equal stacks, each ranks first about 1,200 / 4 = 300 times; the bigger stack is always first.
    from tournaments.formats.engine import DRAW, rank_by_chips

    top = Counter()
    for seed in range(1200):
        ranked = rank_by_chips([("big", 9000), ("a", 5000), ("b", 5000), ("c", 5000), ("d", 5000)], tie=DRAW, rng=random.Random(seed))
        assert ranked[0].player == "big"
        top[ranked[1].player] += 1
    assert_uniform(top, ["a", "b", "c", "d"])
