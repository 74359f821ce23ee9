"""Keep-apart pairs (SEAT-07) in the pure engine: what the floor sees flagged, and what the draw's
log counts as exchanges."""

import random

from seating import engine


def test_a_pair_sitting_at_one_table_is_flagged_once_with_its_table():
    tables = [engine.Table(1, 9, {1: 11, 2: 12}, 1, 2), engine.Table(3, 9, {1: 5, 4: 8, 6: 7}, 1, 4)]
    assert engine.apart_conflicts(tables, [(7, 5)]) == [(3, 5, 7)]
    assert engine.apart_conflicts(tables, [(5, 7), (7, 5), (11, 8)]) == [(3, 5, 7)]
    assert engine.apart_conflicts(tables, [(11, 5)]) == []


def test_a_pair_naming_one_player_twice_keeps_nobody_apart():
    tables = [engine.Table(1, 9, {1: 4, 2: 5}, 1, 2)]
    assert engine.apart_conflicts(tables, [(4, 4)]) == []
    assert engine.partners_of([(4, 4), (4, 5)]) == {4: {5}, 5: {4}}


def test_the_draw_logs_one_exchange_when_the_tickets_seat_a_pair_together_and_none_otherwise():
    players = list(range(1, 9))
    together = apart = 0
    for seed in range(40):
        plain = engine.draw_seats(players, capacity=4, rng=random.Random(seed))
        kept = engine.draw_seats(players, capacity=4, rng=random.Random(seed), apart=[(1, 2)])
        assert engine.apart_conflicts(kept.tables, [(1, 2)]) == []
        if engine.apart_conflicts(plain.tables, [(1, 2)]):
            together += 1
            assert kept.apart_swaps == 1, seed
        else:
            apart += 1
            assert kept.apart_swaps == 0, seed
            assert kept.assignments == plain.assignments
    assert together > 5 and apart > 5


def test_a_draw_where_every_player_has_a_seat_given_by_hand_exchanges_nothing():
    draw = engine.draw_seats([1, 2, 3], capacity=9, rng=random.Random(3), apart=[(1, 2)], reserved={1: (1, 1), 2: (1, 5), 3: (1, 9)})
    assert draw.apart_swaps == 0
    assert {p: (t.number, s) for t in draw.tables for s, p in t.seats.items()} == {1: (1, 1), 2: (1, 5), 3: (1, 9)}


class TicketsInOrder(random.Random):
    """A draw whose tickets come out in table and seat order (no shuffle), so the exchanges that
    keep pairs apart can be followed one by one."""

    def shuffle(self, x):
        pass


def seats_of(draw):
    return {p: (t.number, s) for t in draw.tables for s, p in t.seats.items()}


def test_two_pairs_seated_together_take_two_exchanges_and_end_apart():
    # Tickets in order: 1-4 at table 1, 5-8 at table 2; 1 and 2 together, 7 and 8 together.
    draw = engine.draw_seats(range(1, 9), capacity=4, rng=TicketsInOrder(5), apart=[(1, 2), (7, 8)])
    assert draw.apart_swaps == 2
    assert seats_of(draw) == {5: (1, 1), 2: (1, 2), 7: (1, 3), 4: (1, 4), 1: (2, 1), 6: (2, 2), 3: (2, 3), 8: (2, 4)}


def test_an_exchange_never_sends_a_player_to_another_partner():
    # 1 must avoid 2 (at his table) and 6 (at the other): he cannot take 5's seat beside 6, so he
    # takes 6's, and 6 comes to table 1.
    draw = engine.draw_seats(range(1, 9), capacity=4, rng=TicketsInOrder(5), apart=[(1, 2), (1, 6)])
    assert draw.apart_swaps == 1
    assert seats_of(draw) == {6: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 4), 5: (2, 1), 1: (2, 2), 7: (2, 3), 8: (2, 4)}
