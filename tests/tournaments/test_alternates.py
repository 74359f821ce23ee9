"""REG-08: a full event keeps an alternates list, first come first served; an alternate admitted
buys a full starting stack and, once play has begun, draws his seat from the seat pool."""

import pytest

from seating import selectors as seating_selectors
from tdmanager.errors import DomainError
from tests.seating.test_support import started  # noqa: F401 (fixture)
from tournaments.cashier import services as cashier
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def test_reg08_an_alternate_admitted_while_play_runs_gets_a_full_stack_and_a_seat(started, make_person, cashier_actor, actor):  # noqa: F811
    t = started(3, field_cap=4, late_reg_closes_after_level=6)
    late = cashier.register(t, make_person("Last", "Place"), method="CASH", actor=cashier_actor)
    with pytest.raises(DomainError) as e:
        cashier.register(t, make_person("Walk", "In"), method="CASH", actor=cashier_actor)
    assert e.value.code == "field_full"
    cashier.add_alternate(t, make_person("Alba", "Attesa"), actor=cashier_actor)
    cashier.reverse(late.row, reason="sold to the wrong player", actor=cashier_actor)
    sale = cashier.admit_alternate(t, method="CASH", actor=cashier_actor)
    entry = Entry.objects.get(pk=sale.entry.pk)
    assert (entry.person.full_name, entry.status, entry.chips) == ("Alba Attesa", Entry.ACTIVE, 30000)
    assert str(sale.row.total) == "110.00"
    seat = seating_selectors.seat_of(entry)
    assert seat is not None and seat["table"] == 1
    assert list(t.alternates.filter(status="WAITING")) == []
    assert t.entries.filter(status=Entry.ACTIVE).count() == 4


def test_reg08_a_player_is_on_the_alternates_list_once_and_each_keeps_his_turn(tournament, make_person, cashier_actor):
    t = tournament
    t.field_cap = 1
    t.save()
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    first, second = make_person("Primo", "Attesa"), make_person("Secondo", "Attesa")
    cashier.add_alternate(t, first, actor=cashier_actor)
    with pytest.raises(DomainError) as e:
        cashier.add_alternate(t, first, actor=cashier_actor)
    assert e.value.code == "already_alternate"
    cashier.add_alternate(t, second, actor=cashier_actor)
    added = t.events.filter(action="cashier.alternate.added").order_by("pk")
    assert [(ev.payload["name"], ev.payload["position"]) for ev in added] == [("Primo Attesa", 1), ("Secondo Attesa", 2)]
    assert list(t.alternates.filter(status="WAITING").order_by("pk").values_list("person__first_name", flat=True)) == ["Primo", "Secondo"]
