"""A satellite's seats as the desk and the winners read them (FMT-08): the payments report names
each seat, its place and where it went (an entry in the target, or a ticket for a winner the
target does not take), and the winner's ticket says what it is for. A bust in an event marked as
a satellite but not linked to a target yet is only a bust."""

from decimal import Decimal

import pytest

from payouts import selectors as sel
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


# --- the lobby's summary of a satellite ---------------------------------------------------------


def _satellite(make_tournament, make_person, cashier_actor, actor, players, *, sat_price=(D("100"), D("10")), target_price=(D("1000"), D("100")), **link):
    """A satellite of ``players`` paid entries linked to "Main Event" (entry cost buy-in + fee)."""
    main = make_tournament(name="Main Event", buy_in=target_price[0], fee=target_price[1])
    sat = make_tournament(name="Satellite", buy_in=sat_price[0], fee=sat_price[1], format=Tournament.SATELLITE)
    for _ in range(players):
        cashier.register(sat, make_person(), method="CASH", actor=cashier_actor)
    services.link_satellite(sat, main, actor=actor, **link)
    return sat, main


def test_fmt08_the_lobby_summary_of_a_satellite_shows_its_seats_and_the_cash_place(make_tournament, make_person, cashier_actor, actor):
    # 22 × €110 = €2,420, all of it (the default GROSS base): two €1,100 seats, €220 to 3rd.
    sat, _main = _satellite(make_tournament, make_person, cashier_actor, actor, 22)
    assert sel.display_summary(sat) == {
        "prize_pool": "2420.00",
        "prize_pool_label": "net",
        "prize_pool_show": "NET",
        "prize_pool_gross": None,
        "prize_pool_net": "2420.00",
        "guarantee": None,
        "guarantee_label": "gross",
        "bounty_money": None,
        "payouts": [{"places": "1–2", "amount": "1100.00", "prize": "Seat: Main Event"}, {"places": "3", "amount": "220.00", "prize": ""}],
        "places_paid": 3,
        "payout_table_state": "AUTO",
        "side_pools": [],
    }
    # Both figures shown: a satellite's pool is the seats' value, the same gross and net (the
    # buy-ins alone, €2,200, are not what it shares).
    sat.settings = {"display_pool": "BOTH"}
    sat.save(update_fields=["settings"])
    s = sel.display_summary(sat)
    assert (s["prize_pool"], s["prize_pool_gross"], s["prize_pool_net"]) == ("2420.00", "2420.00", "2420.00")


def test_fmt08_a_freshly_started_server_shows_the_satellites_seats_at_its_first_read(make_tournament, make_person, cashier_actor, actor, monkeypatch):
    """The link's query is compiled at its first use in a process: a restarted server's first
    lobby read finds the link as every later one does."""
    from payouts.selectors import satellites

    sat, _main = _satellite(make_tournament, make_person, cashier_actor, actor, 22)
    monkeypatch.setattr(satellites, "_SATELLITE_LINK", None)  # as in a process that has read no link yet
    assert sel.display_summary(sat)["payouts"] == [
        {"places": "1–2", "amount": "1100.00", "prize": "Seat: Main Event"},
        {"places": "3", "amount": "220.00", "prize": ""},
    ]
    assert sel.satellite_link(sat).target.name == "Main Event"


def test_fmt08_a_net_satellite_buys_seats_with_the_buy_ins_only(make_tournament, make_person, cashier_actor, actor):
    # NET: 22 × €100 of buy-ins (the €10 fees stay with the house) = €2,200: two seats, no cash place.
    sat, _main = _satellite(make_tournament, make_person, cashier_actor, actor, 22, prize_base="NET")
    s = sel.display_summary(sat)
    assert (s["prize_pool"], s["places_paid"]) == ("2200.00", 2)
    assert s["payouts"] == [{"places": "1–2", "amount": "1100.00", "prize": "Seat: Main Event"}]


def test_fmt08_chunks_pay_the_remainder_one_satellite_entry_at_a_time(make_tournament, make_person, cashier_actor, actor):
    # A €1 satellite (no fee) into a €3 event: 8 × €1 = €8, two €3 seats and €2 left, paid in
    # chunks of the satellite's entry (€1) to 3rd and 4th.
    sat, _main = _satellite(
        make_tournament, make_person, cashier_actor, actor, 8, sat_price=(D("1"), D("0")), target_price=(D("3"), D("0")), remainder_rule="CHUNKS"
    )
    s = sel.display_summary(sat)
    assert (s["prize_pool"], s["places_paid"]) == ("8.00", 4)
    assert s["payouts"] == [{"places": "1–2", "amount": "3.00", "prize": "Seat: Main Event"}, {"places": "3–4", "amount": "1.00", "prize": ""}]


def test_fmt08_a_satellite_row_from_before_the_price_checks_awards_nothing(make_tournament, make_person, cashier_actor, actor):
    """Linking refuses a free target, and a free satellite under the chunks rule (a chunk of
    nothing): a row saved before those checks shows no seat, and the lobby still answers."""
    sat, main = _satellite(make_tournament, make_person, cashier_actor, actor, 22)
    Tournament.objects.filter(pk=main.pk).update(buy_in=0, fee=0)
    assert sel.display_summary(sat)["payouts"] == []
    chunks, _main = _satellite(make_tournament, make_person, cashier_actor, actor, 22, remainder_rule="CHUNKS")
    Tournament.objects.filter(pk=chunks.pk).update(buy_in=0, fee=0)  # its €2,420 taken in stays
    s = sel.display_summary(Tournament.objects.get(pk=chunks.pk))
    assert (s["prize_pool"], s["payouts"], s["places_paid"]) == ("2420.00", [], 0)


def test_fmt08_the_director_s_own_satellite_table_must_add_up_to_the_seats_pool(make_tournament, make_person, cashier_actor, actor, api, director):
    # The €220 left after the two seats, paid as two €110 places instead of one: €2,420 in all.
    sat, main = _satellite(make_tournament, make_person, cashier_actor, actor, 22)
    seat = {"kind": "SEAT", "amount": "1100.00", "description": "Main Event", "target": main.pk}
    prizes = [{"place": 1, **seat}, {"place": 2, **seat}, {"place": 3, "kind": "CASH", "amount": "110.00"}, {"place": 4, "kind": "CASH", "amount": "110.00"}]
    r = api(director).post(f"/api/v1/tournaments/{sat.pk}/payouts/table/", {"prizes": prizes, "reason": "two cash places"}, format="json")
    assert r.status_code == 200, r.content
    assert (r.json()["prize_pool"], r.json()["places_paid"], r.json()["total"]) == ("2420.00", 4, "2420.00")
    assert sel.display_summary(sat)["payouts"] == [
        {"places": "1–2", "amount": "1100.00", "prize": "Seat: Main Event"},
        {"places": "3–4", "amount": "110.00", "prize": ""},
    ]
    prizes[3]["amount"] = "220.00"  # €2,530: more than the satellite took in
    r = api(director).post(f"/api/v1/tournaments/{sat.pk}/payouts/table/", {"prizes": prizes, "reason": "too much"}, format="json")
    assert r.status_code == 400, r.content


def test_fmt08_the_lobby_summary_of_a_satellite_reads_its_link_and_table_once(make_tournament, make_person, cashier_actor, actor):
    """Rebuilt after every change of a running event: the link and the payout table's row, read
    once, serve the seats, the pool and the table's state."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    sat, _main = _satellite(make_tournament, make_person, cashier_actor, actor, 22)
    sel.display_summary(sat)  # warm: the compiled queries

    def read_once():
        with CaptureQueriesContext(connection) as ctx:
            s = sel.display_summary(sat)
        sql = [q["sql"] or "" for q in ctx.captured_queries]
        assert len([q for q in sql if 'FROM "payouts_satellitelink"' in q]) == 1, sql
        assert len([q for q in sql if 'FROM "payouts_payouttable"' in q]) == 1, sql
        return s

    s = read_once()  # the seats proposed from the link and the pool
    assert (s["payout_table_state"], s["places_paid"]) == ("AUTO", 3)
    services.lock_payout_table(sat, actor=actor)
    s = read_once()  # the table stored when it was locked
    assert (s["payout_table_state"], s["places_paid"]) == ("LOCKED", 3)


def test_fmt08_a_one_euro_target_still_gets_its_seats(make_tournament, make_person, cashier_actor, actor):
    # A €0.50 satellite into a €1 event: 5 × €0.50 = €2.50, two €1 seats and €0.50 to 3rd.
    sat, _main = _satellite(make_tournament, make_person, cashier_actor, actor, 5, sat_price=(D("0.50"), D("0")), target_price=(D("1"), D("0")))
    assert sel.display_summary(sat)["payouts"] == [
        {"places": "1–2", "amount": "1.00", "prize": "Seat: Main Event"},
        {"places": "3", "amount": "0.50", "prize": ""},
    ]
