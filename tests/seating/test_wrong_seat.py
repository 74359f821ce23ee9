"""SEAT-06 (TDA 7): a player who started in the wrong seat moves to the right one with the chips
he has now (no reset to the starting stack), and the correction is logged with its reason."""

import pytest

from seating import services as seating
from tdmanager.errors import DomainError
from tournaments.models import Entry, TournamentEvent

from .test_support import arrange, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def test_a_player_in_the_wrong_seat_moves_with_his_current_stack_and_the_correction_is_logged(started, actor):
    t = started(12, table_size=10, starting_stack=30000)
    layout = arrange(t, {1: range(1, 7), 2: range(1, 7)})
    wrong = layout[1][4]
    Entry.objects.filter(pk=wrong).update(chips=41500)  # he has played a few hands there: 30,000 + 11,500 won
    seating.move_player(t, wrong, 2, 9, actor=actor, reason="wrong seat: his ticket reads table 2 seat 9")
    assert seat_map(t)[2][9] == wrong and 4 not in seat_map(t)[1]
    assert Entry.objects.get(pk=wrong).chips == 41500  # the stack he has, not the 30,000 he started with
    event = TournamentEvent.objects.filter(tournament=t, action="seating.player.moved").latest("id")
    assert (event.payload["from_table"], event.payload["from_seat"], event.payload["to_table"], event.payload["to_seat"]) == (1, 4, 2, 9)
    assert event.payload["reason"] == "wrong seat: his ticket reads table 2 seat 9"


def test_seat06_the_same_correction_sent_twice_is_refused_the_second_time_and_logged_once(started, actor):
    """The floor taps the correction again (a double tap, a retry): the player already sits at
    table 2 seat 9, so the second one is refused, he stays there with his chips, and the log holds
    one move."""
    t = started(12, table_size=10, starting_stack=30000)
    layout = arrange(t, {1: range(1, 7), 2: range(1, 7)})
    wrong = layout[1][4]
    Entry.objects.filter(pk=wrong).update(chips=41500)
    seating.move_player(t, wrong, 2, 9, actor=actor, reason="wrong seat: his ticket reads table 2 seat 9")
    with pytest.raises(DomainError) as refusal:
        seating.move_player(t, wrong, 2, 9, actor=actor, reason="wrong seat: his ticket reads table 2 seat 9")
    assert refusal.value.code == "same_seat"
    assert seat_map(t)[2][9] == wrong and Entry.objects.get(pk=wrong).chips == 41500
    assert TournamentEvent.objects.filter(tournament=t, action="seating.player.moved").count() == 1
