"""Which of the room's free tables an event's draw opens (SEAT-01): as few as its players need,
those kept for it first, then its zone, then the rest in the house's order."""

from seating.engine import FreeTable, choose_tables, tables_needed


def test_the_draw_opens_as_few_tables_as_the_players_need():
    assert [tables_needed(n, per_table=9) for n in (0, 1, 9, 10, 18, 19, 27)] == [0, 1, 1, 2, 2, 3, 3]
    assert tables_needed(12, per_table=6) == 2


def test_kept_tables_come_first_then_the_zone_then_the_house_order():
    free = [
        FreeTable(1, 9, "A", position=1),
        FreeTable(2, 9, "B", position=2),
        FreeTable(3, 9, "B", position=3),
        FreeTable(4, 9, "A", position=4, kept=True),
        FreeTable(5, 9, "A", position=0),
        FreeTable(6, 9, "B", position=3),
    ]
    assert choose_tables(free, 4, seats=9, zone="B") == ([4, 2, 3, 6], 0)
    assert choose_tables(free, 3, seats=9) == ([4, 5, 1], 0)
    assert choose_tables(free, 6, seats=9, zone="A") == ([4, 5, 1, 2, 3, 6], 0)


def test_a_table_too_small_or_already_in_play_is_never_taken_and_the_missing_are_counted():
    free = [FreeTable(1, 6, position=1), FreeTable(2, 9, position=2), FreeTable(3, 10, position=3), FreeTable(4, 9, position=4)]
    assert choose_tables(free, 3, seats=9, exclude=[4]) == ([2, 3], 1)
    assert choose_tables(free, 2, seats=6) == ([1, 2], 0)
    assert choose_tables(free, 1, seats=10) == ([3], 0)
    assert choose_tables([], 2, seats=9) == ([], 2)
