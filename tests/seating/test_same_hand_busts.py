"""ELM-02: players out on the same hand at one table are ranked by their stacks at the start of
that hand, the bigger stack higher; the prizes and the standings follow those places. A slip that
names a player twice is refused and records nobody."""

from decimal import Decimal

import pytest

from seating import selectors, services
from seating.models import Bust
from tdmanager.errors import DomainError
from tests.seating.test_simultaneous_busts import PRIZES, dues_of, paid_field  # noqa: F401 (fixture)
from tests.seating.test_support import seat_map
from tournaments.models import Entry

pytestmark = pytest.mark.django_db
D = Decimal


def test_elm02_the_bigger_starting_stack_takes_the_better_place_and_its_prize(paid_field, actor):  # noqa: F811
    t = paid_field(20, PRIZES)
    small, big = sorted(seat_map(t)[1].values())[:2]
    services.record_bust(t, [{"entry": small, "starting_stack": 8000}, {"entry": big, "starting_stack": 12000}], actor=actor, table=1, same_hand=True)
    assert (dues_of(t, big), dues_of(t, small)) == ([D("10.00")], [D("6.00")])
    assert {r["entry"]: r["place"] for r in selectors.standings(t) if r["entry"] in (small, big)} == {big: 19, small: 20}


def test_elm02_a_slip_naming_one_player_twice_is_refused_and_records_nobody(paid_field, actor):  # noqa: F811
    t = paid_field(20, PRIZES)
    a, b = sorted(seat_map(t)[1].values())[:2]
    with pytest.raises(DomainError) as e:
        services.record_bust(t, [{"entry": a, "starting_stack": 8000}, {"entry": a, "starting_stack": 12000}], actor=actor, table=1, same_hand=True)
    assert e.value.code == "duplicate_entry"
    assert not Bust.objects.filter(tournament=t).exists()
    assert Entry.objects.filter(tournament=t, status=Entry.ACTIVE).count() == 20
    services.record_bust(t, [{"entry": a, "starting_stack": 8000}, {"entry": b, "starting_stack": 12000}], actor=actor, table=1, same_hand=True)
    assert (Entry.objects.get(pk=b).place, Entry.objects.get(pk=a).place) == (19, 20)
