"""Undo × a prize already paid (issue 38, found by the simulated days: day seed 600020)."""

import pytest

from payouts import reports, services
from seating import services as seating
from tests.payouts.bounty_setup import bounty_event
from tournaments.models import Entry, Tournament
from tournaments.services.events import Actor

pytestmark = pytest.mark.django_db


def test_a_bust_whose_place_was_paid_is_not_undone_until_the_payment_is_reversed(make_tournament, make_person, cashier_actor, actor, director, controller_user):
    """Found by the simulated days (day seed 600020): the winner was paid his €1,000, then the
    last bust was undone: the event played on with €1,000 paid for a place not decided ("premi
    pagati 1000, posizioni ancora da decidere 1000, differenza -1000"). The undo is refused until
    the desk has reversed the payment."""
    from tdmanager.errors import DomainError
    from tournaments.services import cashier

    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=2, bounty="NONE")
    last = seating.record_bust(t, [{"entry": e[0].pk}], actor=actor).busts[0]
    services.lock_payout_table(t, actor=Actor(director))
    services.sign_off_ranking(t, actor=Actor(director))
    services.sign_off_ranking(t, actor=Actor(controller_user))
    payment = services.pay_prize(e[1], method="CASH", actor=cashier_actor)
    with pytest.raises(DomainError) as refused:
        seating.undo_bust(t, last, actor=actor, reason="wrong player")
    assert refused.value.code == "prize_paid" and e[1].person.full_name in str(refused.value.message)
    assert (Entry.objects.get(pk=e[0].pk).status, Entry.objects.get(pk=e[1].pk).place) == (Entry.BUSTED, 1)
    assert reports.reconciliation_data(Tournament.objects.get(pk=t.pk))["balanced"]

    cashier.reverse(payment.row, reason="paid by mistake", actor=Actor(director))
    seating.undo_bust(t, last, actor=actor, reason="wrong player")
    assert Entry.objects.get(pk=e[0].pk).status == Entry.ACTIVE
    assert reports.reconciliation_data(Tournament.objects.get(pk=t.pk))["balanced"]
