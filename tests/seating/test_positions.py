"""The next hand's button and blinds at one table (POS-01, dead button) and the hands a seat waits
for its big blind (BAL-04), in the cases the floor meets at the edges: a table of one or two, a
big blind posted twice, positions not known yet."""

from random import Random

from seating.engine import Table, advance_hand, draw_seats, hands_until_big_blind, is_between_button_and_small_blind, next_hand_positions


def test_positions_are_unknown_until_the_floor_confirms_a_big_blind():
    assert tuple(next_hand_positions(Table(1, 9, {1: "a", 5: "b", 7: "c"}))) == (None, None, None)
    assert tuple(next_hand_positions(Table(1, 9, {}, big_blind_seat=3))) == (None, None, None)
    assert hands_until_big_blind(Table(1, 9, {1: "a", 5: "b"}), 5) is None
    assert is_between_button_and_small_blind(Table(1, 9, {1: "a", 5: "b", 7: "c"}), 3) is False


def test_the_big_blind_moves_to_the_next_occupied_seat_and_the_button_to_the_last_big_blind():
    table = Table(1, 9, {2: "a", 4: "b", 6: "c", 9: "d"}, big_blind_seat=4, previous_big_blind_seat=2)
    assert tuple(next_hand_positions(table)) == (2, 4, 6)
    after = advance_hand(table)
    assert (after.big_blind_seat, after.previous_big_blind_seat) == (6, 4)
    assert tuple(next_hand_positions(after)) == (4, 6, 9)
    last = advance_hand(advance_hand(after))  # round the table: seat 9, then seat 2
    assert (last.big_blind_seat, last.previous_big_blind_seat) == (2, 9)


def test_an_empty_big_blind_seat_leaves_a_dead_small_blind():
    table = Table(1, 9, {2: "a", 6: "c", 9: "d"}, big_blind_seat=4, previous_big_blind_seat=2)
    assert tuple(next_hand_positions(table)) == (2, None, 6)


def test_without_the_last_big_blind_known_the_button_is_the_player_before_the_big_blind():
    assert tuple(next_hand_positions(Table(1, 9, {2: "a", 4: "b", 6: "c", 9: "d"}, big_blind_seat=4))) == (2, 4, 6)
    assert tuple(next_hand_positions(Table(1, 9, {1: "a", 4: "b", 9: "d"}, big_blind_seat=1))) == (9, 1, 4)


def test_heads_up_the_button_posts_the_small_blind_and_a_lone_player_only_the_big_blind():
    assert tuple(next_hand_positions(Table(1, 9, {3: "a", 7: "b"}, big_blind_seat=3, previous_big_blind_seat=7))) == (3, 3, 7)
    assert tuple(next_hand_positions(Table(1, 9, {7: "b"}, big_blind_seat=3))) == (None, None, 7)
    assert is_between_button_and_small_blind(Table(1, 9, {3: "a"}, big_blind_seat=3, previous_big_blind_seat=1), 2) is False


def test_a_big_blind_posted_twice_stays_on_its_seat_for_one_more_hand():
    table = Table(1, 9, {2: "a", 4: "b", 6: "c"}, big_blind_seat=4, previous_big_blind_seat=2, big_blind_twice=True)
    assert tuple(next_hand_positions(table)) == (2, None, 4)
    assert hands_until_big_blind(table, 4) == 1
    assert hands_until_big_blind(table, 6) == 2
    assert hands_until_big_blind(table, 2) == 3
    after = advance_hand(table)
    assert (after.big_blind_seat, after.previous_big_blind_seat, after.big_blind_twice) == (4, 2, False)


def test_hands_until_the_big_blind_count_the_players_in_between():
    table = Table(1, 9, {2: "a", 4: "b", 6: "c", 9: "d"}, big_blind_seat=4, previous_big_blind_seat=2)
    assert [hands_until_big_blind(table, s) for s in (6, 7, 9, 1, 2, 4)] == [1, 2, 2, 3, 3, 4]


def test_a_table_drawn_heads_up_starts_with_the_button_on_the_small_blind():
    for seed in range(10):
        draw = draw_seats(["a", "b"], capacity=9, rng=Random(seed))
        (table,) = draw.tables
        button = draw.buttons[1]
        other = 5 if button == 1 else 1  # two players sit in seats 1 and 5
        assert table.number == 1 and sorted(table.seats) == [1, 5]
        assert tuple(next_hand_positions(table)) == (button, button, other), seed


def test_a_table_drawn_three_handed_starts_with_the_blinds_after_the_button():
    after = {1: (4, 7), 4: (7, 1), 7: (1, 4)}  # three players sit in seats 1, 4 and 7
    for seed in range(10):
        draw = draw_seats(["a", "b", "c"], capacity=9, rng=Random(seed))
        button = draw.buttons[1]
        assert tuple(next_hand_positions(draw.tables[0])) == (button, *after[button]), seed


def test_a_third_player_sitting_between_the_button_and_the_small_blind_of_a_heads_up_table_waits():
    table = Table(1, 9, {1: "a", 5: "b"}, big_blind_seat=5, previous_big_blind_seat=1)
    assert is_between_button_and_small_blind(table, 3) is True
    assert is_between_button_and_small_blind(table, 7) is False
    # heads-up itself nobody waits, even in a seat of that arc
    assert is_between_button_and_small_blind(Table(1, 9, {1: "a", 3: "b"}, big_blind_seat=5, previous_big_blind_seat=1), 3) is False


def test_a_hand_completed_before_the_big_blind_is_known_changes_nothing():
    after = advance_hand(Table(1, 9, {1: "a", 5: "b"}))
    assert (after.big_blind_seat, after.previous_big_blind_seat, after.seats) == (None, None, {1: "a", 5: "b"})
