"""Item 10 (issue #39): the floor's list of later seat changes says "tavolo 1" for one table and
"tavoli 1, 2" for more, never "tavoli 1"."""

from django.utils import translation

from seating.services.later import describe
from tournaments.eventlog.actions import Action
from tournaments.models import TournamentEvent


def _table(number, seats):
    return {"number": number, "in_play": True, "seats": [[s, 100 + s] for s in seats]}


def test_one_table_is_singular_and_two_are_plural_in_italian():
    one = TournamentEvent(action=Action.SEATING_PLAYER_SEATED, payload={"entry": 7, "before": [_table(1, [1])], "after": [_table(1, [1, 2])]})
    two = TournamentEvent(
        action=Action.SEATING_PLAYER_SEATED,
        payload={"entry": 7, "before": [_table(1, [1]), _table(2, [3])], "after": [_table(1, [1, 2]), _table(2, [])]},
    )
    with translation.override("it"):
        assert describe(one, {7: "Mario Rossi #7"}).endswith(" — tavolo 1")
        assert describe(two, {7: "Mario Rossi #7"}).endswith(" — tavoli 1, 2")
