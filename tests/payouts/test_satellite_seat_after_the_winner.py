"""Found by the soak (day seed 720002): a satellite's last bust gave its winner an entry in a PKO
target whose last bust had already left one player, the winner, paid his own bounty. The target
played on; a later undo of any of its busts then took that winner's own bounty back onto his
head. An event with its winner takes no entry by any path: the satellite's winner gets what the
link gives one the target does not take (a ticket, by default)."""

from decimal import Decimal

import pytest

from payouts import services as payouts
from payouts.models import BountyAward, Ticket
from seating import services as seating
from tournaments.cashier import services as cashier
from tournaments.models import Entry, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


def test_a_satellite_seat_into_an_event_with_its_winner_is_a_ticket(make_tournament, make_person, cashier_actor, actor):
    target = make_tournament(name="PKO", buy_in=Decimal("100"), fee=Decimal("10"), settings={"bounty": "PKO", "bounty_amount": "20"})
    a, b = (cashier.register(target, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(2))
    lifecycle.start(target, actor=actor, prestart_report_sent=True)
    satellite = make_tournament(name="Satellite", buy_in=Decimal("30"), fee=Decimal("3"))
    payouts.link_satellite(satellite, target, actor=actor)
    sat_entries = [cashier.register(satellite, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(5)]
    lifecycle.start(satellite, actor=actor, prestart_report_sent=True)

    seating.record_bust(target, [{"entry": b.pk, "eliminators": [a.pk]}], actor=actor)
    assert BountyAward.objects.filter(tournament=target, kind=BountyAward.OWN, winner=a, void="").exists()  # the winner's own bounty

    for e in sat_entries[1:]:  # the satellite plays down to its one seat
        seat = Entry.objects.get(pk=e.pk)
        if Tournament.objects.get(pk=satellite.pk).status == Tournament.RUNNING and seat.status == Entry.ACTIVE:
            seating.record_bust(satellite, [e.pk], actor=actor)
    assert Tournament.objects.get(pk=satellite.pk).status == Tournament.FINISHED
    winner = Entry.objects.get(pk=sat_entries[0].pk).person
    assert not target.entries.filter(person=winner).exists()  # no entry in an event that has ended
    assert Ticket.objects.filter(holder=winner, target=target).exists()
    assert list(target.entries.filter(status=Entry.ACTIVE).values_list("pk", flat=True)) == [a.pk]
