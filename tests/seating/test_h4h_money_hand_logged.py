"""CLK-06 / PAY-07: hand-for-hand ending by itself with the hand that reached the money is
logged in the name of the floor who reported that hand's last table."""

import pytest

from seating import services as seating
from tests.seating.test_h4h_at_the_money import bubble, player_at  # noqa: F401 (a fixture)
from tournaments.eventlog.services import Actor

pytestmark = pytest.mark.django_db


def test_the_end_at_the_money_is_logged_in_the_name_of_who_reported_the_last_table(bubble, actor, floor_user):  # noqa: F811
    t = bubble(13)
    seating.record_bust(t, [player_at(t, 1)], actor=actor, table=1)  # 12 left: the money
    floor = Actor(floor_user, "tablet-2")
    seating.hand_completed(t, 1, actor=floor)
    out = seating.hand_completed(t, 2, actor=floor)
    assert out.hand_for_hand["hand_for_hand_ended"]
    ended = t.events.get(action="tournaments.clock.hand_for_hand_ended")
    assert (ended.actor_id, ended.device) == (floor_user.pk, "tablet-2")
