"""FMT-07: an event may sell several buy-in products, each its own price and starting stack. Each
player's stack is the one chosen, the prize pool gets each product's buy-in, and a player out of a
re-entry event who chooses again buys a re-entry with the stack of his new choice."""

from decimal import Decimal

import pytest

from payouts import selectors as payout_selectors
from tdmanager.errors import DomainError
from tournaments.formats.services import stackchoice
from tournaments.models import Entry, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal


def test_fmt07_each_player_gets_the_stack_he_chose_and_a_second_choice_after_a_bust_is_a_re_entry(make_tournament, make_person, actor, cashier_actor):
    t = make_tournament(status=Tournament.PLANNED, format=Tournament.REENTRY, max_entries_per_player=2, late_reg_closes_after_level=6)
    deep = stackchoice.add_stack_option(t, label="Deep", buy_in=D("150"), fee=D("15"), chips=45000, actor=actor)
    turbo = stackchoice.add_stack_option(t, label="Turbo", buy_in=D("50"), fee=D("5"), chips=15000, actor=actor)
    with pytest.raises(DomainError) as e:
        stackchoice.add_stack_option(t, label="Deep", buy_in=D("200"), fee=D("20"), chips=60000, actor=actor)
    assert (e.value.code, str(e.value.message)) == ("duplicate_option", "There is already an option called Deep.")
    lifecycle.open_registration(t, actor=actor)
    ann, bob = make_person("Ann", "Deep"), make_person("Bob", "Turbo")
    first = stackchoice.register_with_stack_choice(t, ann, deep, method="CASH", actor=cashier_actor)
    stackchoice.register_with_stack_choice(t, bob, turbo, method="CASH", actor=cashier_actor)
    assert {e.person.first_name: e.chips for e in t.entries.all()} == {"Ann": 45000, "Bob": 15000}
    assert payout_selectors.pool_breakdown(t).collected == D("200.00")  # 150 + 50; the fees apart
    Entry.objects.filter(pk=first.entry.pk).update(status=Entry.BUSTED)
    again = stackchoice.register_with_stack_choice(t, ann, turbo, method="CASH", actor=cashier_actor)
    assert (again.row.kind, again.entry.person_entry_no, again.entry.chips, again.row.total) == ("RE_ENTRY", 2, 15000, D("55.00"))
    assert payout_selectors.pool_breakdown(t).collected == D("250.00")
