"""REG-05: a person on the casino's ban list plays no tournament. The check is on the person, so a
namesake is sold his entry, and the banned person is refused every time he asks, at every door,
with nothing written."""

from decimal import Decimal

import pytest

from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.models import Entry, LedgerRow

pytestmark = pytest.mark.django_db


def test_reg05_a_namesake_of_a_banned_player_is_sold_his_entry(tournament, make_person, cashier_actor):
    make_person("Mario", "Bianchi", banned=True, banned_reason="casino exclusion list")
    namesake = make_person("Mario", "Bianchi")
    sale = cashier.register(tournament, namesake, method="CASH", actor=cashier_actor)
    assert (sale.entry.person.full_name, sale.entry.status, sale.row.total) == ("Mario Bianchi", Entry.ACTIVE, Decimal("110"))


def test_reg05_a_banned_player_asking_again_is_refused_every_time_and_nothing_is_written(tournament, make_person, cashier_actor):
    banned = make_person("Bruno", "Escluso", banned=True, banned_reason="casino exclusion list")
    tournament.field_cap = 1
    tournament.save()
    cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor)  # the field is full: the alternates list is open
    for ask in (
        lambda: cashier.register(tournament, banned, method="CASH", actor=cashier_actor),
        lambda: cashier.register(tournament, banned, method="CARD", actor=cashier_actor),
        lambda: cashier.pre_register(tournament, banned, actor=cashier_actor),
        lambda: cashier.add_alternate(tournament, banned, actor=cashier_actor),
    ):
        with pytest.raises(DomainError) as e:
            ask()
        assert e.value.code == "banned"
        assert str(e.value.message) == "Bruno Escluso is banned and cannot play: casino exclusion list"
    assert not Entry.objects.filter(person=banned).exists()
    assert not tournament.alternates.exists()
    assert LedgerRow.objects.filter(tournament=tournament).count() == 1
