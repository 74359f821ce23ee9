"""Two events playing in the room at once, each read on its own: the tables that report each
hand-for-hand hand (CLK-06), the players at a penalised player's table (PEN-03), the TV table
(ROLE-08) and the floor overview's columns (BAL-02) of one event never count the other's."""

import pytest

from seating import selectors, services
from seating.models import PendingMove

from .test_support import arrange, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def side_by_side(started):  # noqa: F811
    """Event A: two full tables of nine. Event B: nine, nine and six, and an empty table 4 set up
    for the evening (in play, nobody seated yet)."""
    a, b = started(18, table_size=9), started(24, table_size=9)
    arrange(a, {1: range(1, 10), 2: range(1, 10)})
    arrange(b, {1: range(1, 10), 2: range(1, 10), 3: range(1, 7), 4: []})
    return a, b


def test_clk06_the_tables_that_report_each_hand_are_the_events_own_with_players(side_by_side):
    a, b = side_by_side
    assert selectors.table_numbers(a) == [1, 2]
    assert selectors.table_numbers(b) == [1, 2, 3]  # table 4 has nobody to report a hand


def test_pen03_a_penalty_counts_the_players_at_the_events_own_table(side_by_side):
    a, b = side_by_side
    assert [selectors.players_at_table(a, n) for n in (1, 2)] == [9, 9]
    assert [selectors.players_at_table(b, n) for n in (1, 2, 3, 4)] == [9, 9, 6, 0]


def test_role08_the_tv_table_is_the_events_own(side_by_side, actor):
    a, b = side_by_side
    assert selectors.tv_table(a) is None and selectors.tv_table(b) is None
    services.set_tv_table(b, 3, True, actor=actor)
    assert selectors.tv_table(a) is None
    assert selectors.tv_table(b) == {"table": 3, "is_final": False}


def test_bal02_the_floor_overview_counts_the_events_own_tables_moves_and_halts(side_by_side, actor):
    a, b = side_by_side
    assert selectors.overview(a) == {"tables": 2, "moves_pending": 0, "halted_tables": []}
    assert selectors.overview(b) == {"tables": 3, "moves_pending": 0, "halted_tables": [3]}  # six, three short of nine
    services.set_big_blind(b, 1, 3, previous_big_blind_seat=2, actor=actor)  # a hand known: the plan proposes its moves
    proposed = PendingMove.objects.filter(tournament=b, status=PendingMove.PROPOSED).count()
    assert proposed >= 1
    assert selectors.overview(a)["moves_pending"] == 0
    assert selectors.overview(b)["moves_pending"] == proposed
