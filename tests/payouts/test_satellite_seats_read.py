"""A satellite's seats as the desk and the winners read them (FMT-08): the payments report names
each seat, its place and where it went (an entry in the target, or a ticket for a winner the
target does not take), and the winner's ticket says what it is for. A bust in an event marked as
a satellite but not linked to a target yet is only a bust."""

from decimal import Decimal

import pytest

from payouts import services
from seating import services as seating
from tournaments.cashier import services as cashier
from tournaments.models import Entry, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal


def test_fmt08_the_payments_report_and_the_winners_ticket_say_where_each_seat_went(make_tournament, make_person, cashier_actor, actor, api, director):
    main = make_tournament(name="Main Event", buy_in=D("1000"), fee=D("100"))
    sat = make_tournament(name="Satellite", buy_in=D("100"), fee=D("10"), format=Tournament.SATELLITE)
    entries = [cashier.register(sat, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(22)]  # €2,420: two seats
    services.link_satellite(sat, main, actor=actor)
    sat.status = Tournament.RUNNING
    sat.save(update_fields=["status"])
    first, second = entries[0].person, entries[1].person
    cashier.register(main, first, method="CARD", actor=cashier_actor)  # already in: a ticket instead
    for place, e in zip(range(22, 2, -1), reversed(entries[2:])):
        e.status, e.place = Entry.BUSTED, place
        e.save(update_fields=["status", "place"])
    services.complete_satellite(sat, actor=actor)
    seat_entry = main.entries.get(person=second)

    r = api(director).get(f"/api/v1/tournaments/{sat.pk}/payouts/reports/payments/")
    assert r.status_code == 200, r.content
    report = r.json()
    assert report["columns"][2:10] == ["Player", "Place", "Prize", "Amount", "Method", "Reference", "Payee", "Cashier"]
    assert [row[2:] for row in report["rows"]] == [
        [first.full_name, "1", "Seat", "1100.00", "Other", f"ticket {first.tickets.get().pk}", first.full_name, "", ""],
        [second.full_name, "1", "Seat", "1100.00", "Other", f"Main Event entry #{seat_entry.number}", second.full_name, "", ""],
    ]
    r = api(director).get(f"/api/v1/payouts/tickets/?person={first.pk}")
    assert [(t["value"], t["description"], t["events"], t["status"]) for t in r.json()] == [
        ("1100.00", "Satellite seat: Main Event", [{"id": main.pk, "name": "Main Event"}], "ISSUED")
    ]


def test_fmt08_a_bust_in_a_satellite_with_no_target_yet_is_only_a_bust(make_tournament, make_person, cashier_actor, actor):
    sat = make_tournament(name="Satellite", buy_in=D("100"), fee=D("10"), format=Tournament.SATELLITE)
    entries = [cashier.register(sat, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    lifecycle.start(sat, actor=actor, prestart_report_sent=True)
    seating.record_bust(sat, [entries[2].pk], actor=actor)
    sat.refresh_from_db()
    assert sat.status == Tournament.RUNNING
    assert [Entry.objects.get(pk=e.pk).status for e in entries] == [Entry.ACTIVE, Entry.ACTIVE, Entry.BUSTED]


def test_fmt08_the_ledgers_of_the_satellite_and_the_target_show_each_seat(make_tournament, make_person, cashier_actor, actor, api, director):
    """The satellite's ledger books each seat as a payout to its winner (player, entry, payee,
    where it went, no chips); the target's ledger books the entry it sold as paid by that
    satellite. A long target name is cut at 50 characters in the seat's reference. The event log
    says no tie group shared a seat: the busted players all finished below the seats."""
    name = "M" * 49 + "XYZ"  # 52 characters: the reference keeps the first 50
    main = make_tournament(name=name, buy_in=D("1000"), fee=D("100"))
    sat = make_tournament(name="Satellite", buy_in=D("100"), fee=D("10"), format=Tournament.SATELLITE)
    entries = [cashier.register(sat, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(22)]  # two seats
    services.link_satellite(sat, main, actor=actor)
    sat.status = Tournament.RUNNING
    sat.save(update_fields=["status"])
    first, second = entries[0], entries[1]
    cashier.register(main, first.person, method="CARD", actor=cashier_actor)  # already in: a ticket instead
    for place, e in zip(range(22, 2, -1), reversed(entries[2:])):
        e.status, e.place = Entry.BUSTED, place
        e.save(update_fields=["status", "place"])
    r = api(director).post(f"/api/v1/tournaments/{sat.pk}/payouts/satellite/complete/")
    assert r.status_code == 201, r.content
    seat_entry, ticket = main.entries.get(person=second.person), first.person.tickets.get()
    seats = {s["entry"]: (s["ticket"], s["seat_entry"], s["receipt_number"]) for s in r.json()["seats"]}

    r = api(director).get(f"/api/v1/tournaments/{sat.pk}/ledger/")
    assert r.status_code == 200, r.content
    payouts = [row for row in r.json() if row["kind"] == "PAYOUT"]
    assert [(row["entry"], row["person"], row["total"], row["chips"], row["method"], row["reference"], row["payee"]) for row in payouts] == [
        (first.pk, first.person.pk, "-1100.00", 0, "OTHER", f"ticket {ticket.pk}", first.person.full_name),
        (second.pk, second.person.pk, "-1100.00", 0, "OTHER", f"{name[:50]} entry #{seat_entry.number}", second.person.full_name),
    ]
    assert seats == {first.pk: (ticket.pk, None, payouts[0]["receipt_number"]), second.pk: (None, seat_entry.pk, payouts[1]["receipt_number"])}
    r = api(director).get(f"/api/v1/tournaments/{main.pk}/ledger/")
    sold = [(row["entry"], row["total"], row["method"], row["reference"]) for row in r.json() if row["person"] == second.person.pk]
    assert sold == [(seat_entry.pk, "1100.00", "OTHER", f"satellite {sat.pk}")]
    events = api(director).get(f"/api/v1/tournaments/{sat.pk}/events/?limit=500").json()
    # The log says the seats were won outright: no tie group shared a seat in money (ELM-06).
    done = [(e["sentence"], e["payload"]["seats"], e["payload"]["shared"]) for e in events if e["action"] == "payouts.satellite.completed"]
    assert done == [("Satellite completed: 2 seats won", 2, [])]
