"""``compiled.prepare_related``: the one door to Django's ``_prepare_related_fields_for_save``
(private API), which ``seating.sql`` uses to write a row pointing at a row saved after it was
set. A Django upgrade that renames or changes it fails here first."""

import pytest

from seating.models import PendingMove
from tdmanager import compiled
from tournaments.models import TournamentEvent

pytestmark = pytest.mark.django_db


def test_a_row_takes_the_key_of_a_row_saved_after_it_was_set(make_tournament):
    t = make_tournament()
    event = TournamentEvent(tournament=t, action="seating.moves.confirmed", payload={})
    slip = PendingMove(tournament=t, from_table=1, from_seat=1, to_table=2, to_seat=2, done_event=event)
    assert slip.done_event_id is None
    with pytest.raises(ValueError, match="done_event"):  # refused while the event has no key, as save() refuses it
        compiled.prepare_related(slip)
    event.save()
    compiled.prepare_related(slip)
    assert slip.done_event_id == event.pk


def test_only_the_fields_named_are_prepared(make_tournament):
    t = make_tournament()
    event = TournamentEvent(tournament=t, action="seating.moves.confirmed", payload={})
    slip = PendingMove(tournament=t, from_table=1, from_seat=1, to_table=2, to_seat=2, done_event=event)
    compiled.prepare_related(slip, fields=[PendingMove._meta.get_field("tournament")])  # the unsaved event is not looked at
    assert slip.tournament_id == t.pk and slip.done_event_id is None
