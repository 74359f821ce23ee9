"""Undo × a prize already paid (issue 38, found by the simulated days: day seed 600020)."""

from decimal import Decimal

import pytest

from payouts import reports, services
from payouts import selectors as psel
from seating import services as seating
from tests.payouts.bounty_setup import bounty_event
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def test_a_bust_whose_place_was_paid_is_not_undone_until_the_payment_is_reversed(make_tournament, make_person, cashier_actor, actor, director, controller_user):
    """Found by the simulated days (day seed 600020): the winner was paid his €1,000, then the
    last bust was undone: the event played on with €1,000 paid for a place not decided ("premi
    pagati 1000, posizioni ancora da decidere 1000, differenza -1000"). The undo is refused until
    the desk has reversed the payment."""
    from tdmanager.errors import DomainError
    from tournaments.cashier import services as cashier

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


def test_a_bust_that_would_share_a_place_already_paid_waits_for_the_next_hand(make_tournament, make_person, cashier_actor, actor, director, controller_user):
    """Found by the soak (day seed 720018): in hand-for-hand, two players out in one hand shared
    3rd and were paid; the hand was never reported over, so the next bust joined their hand and
    the three shared 2nd: their paid prizes grew by 16.31 each ("differenza 32,63"). A bust that
    would share a place already paid is refused until the hand is over (or the payment reversed)."""
    from tdmanager.errors import DomainError
    from tournaments.clock import services as clock_services

    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=4, bounty="NONE")
    clock_services.start_clock(t, actor=actor)
    clock_services.start_hand_for_hand(t, actor=actor, reason="bubble")
    seating.record_bust(t, [{"entry": e[0].pk}], actor=actor)
    seating.record_bust(t, [{"entry": e[1].pk}], actor=actor)  # the same hand: they share 3rd
    assert [Entry.objects.get(pk=x.pk).place for x in e[:2]] == [3, 3]
    pool = psel.prize_pool(t)
    shares = [(pool * p / 100).quantize(Decimal("0.01")) for p in (40, 30, 20)]
    table = [*shares, pool - sum(shares)]  # four places paid, each its own amount
    services.edit_payout_table(t, [{"place": i, "amount": str(a)} for i, a in enumerate(table, 1)], actor=Actor(director))
    services.lock_payout_table(t, actor=Actor(director))
    services.sign_off_ranking(t, actor=Actor(director))
    services.sign_off_ranking(t, actor=Actor(controller_user))
    services.pay_prize(e[0], method="CASH", actor=cashier_actor)

    with pytest.raises(DomainError) as refused:
        seating.record_bust(t, [{"entry": e[2].pk}], actor=actor)
    assert refused.value.code == "prize_paid" and e[0].person.full_name in str(refused.value.message)
    assert Entry.objects.get(pk=e[2].pk).status == Entry.ACTIVE
    assert [Entry.objects.get(pk=x.pk).place for x in e[:2]] == [3, 3]

    clock_services.h4h_next_hand(t, actor=actor)  # the hand is over at every table
    seating.record_bust(t, [{"entry": e[2].pk}], actor=actor)
    assert [Entry.objects.get(pk=x.pk).place for x in e[:3]] == [3, 3, 2]
    assert reports.reconciliation_data(Tournament.objects.get(pk=t.pk))["balanced"]


def test_an_event_whose_prizes_were_paid_is_not_cancelled_until_the_payments_are_reversed(
    make_tournament, make_person, cashier_actor, actor, director, controller_user
):
    """Found by the soak (day seed 750038): 4th place was paid 519.59, then the event was
    cancelled, which owes every entry its buy-in back on top ("premi pagati 519,59"). A
    cancellation waits until the paid prizes are reversed (or the event ends with a deal)."""
    from tdmanager.errors import DomainError
    from tournaments.cashier import services as cashier
    from tournaments.setup import lifecycle

    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=4, bounty="NONE")
    pool = psel.prize_pool(t)
    shares = [(pool * p / 100).quantize(Decimal("0.01")) for p in (40, 30, 20)]
    table = [*shares, pool - sum(shares)]
    services.edit_payout_table(t, [{"place": i, "amount": str(a)} for i, a in enumerate(table, 1)], actor=Actor(director))
    seating.record_bust(t, [{"entry": e[0].pk}], actor=actor)
    services.lock_payout_table(t, actor=Actor(director))
    services.sign_off_ranking(t, actor=Actor(director))
    services.sign_off_ranking(t, actor=Actor(controller_user))
    payment = services.pay_prize(e[0], method="CASH", actor=cashier_actor)

    with pytest.raises(DomainError) as refused:
        lifecycle.cancel(t, actor=Actor(director), reason="the room closes")
    assert refused.value.code == "prizes_paid"
    assert Tournament.objects.get(pk=t.pk).status == Tournament.RUNNING
    assert reports.reconciliation_data(Tournament.objects.get(pk=t.pk))["balanced"]

    cashier.reverse(payment.row, reason="the event is cancelled", actor=Actor(director))
    lifecycle.cancel(t, actor=Actor(director), reason="the room closes")
    for entry in e:
        cashier.pay_refund(Entry.objects.get(pk=entry.pk), method="CASH", actor=cashier_actor)
    assert reports.reconciliation_data(Tournament.objects.get(pk=t.pk))["balanced"]
