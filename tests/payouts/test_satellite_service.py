"""Satellites award seats in the target tournament (FMT-08, PAY-06): RULES scenarios 8 and 9."""

from decimal import Decimal

import pytest

from payouts import reports, services
from payouts import selectors as sel
from payouts.models import Ticket
from seating import services as seating
from seating.models import Bust
from tdmanager.errors import DomainError
from tests.conftest import make_user
from tests.payouts.reconciliation_rows import BALANCED, expected, read
from tournaments.cashier import services as cashier
from tournaments.cashier.selectors import shift_totals
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, LedgerRow, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def main_event(make_tournament):
    return make_tournament(name="Main Event", buy_in=D("1000"), fee=D("100"))


def satellite_with(make_tournament, make_person, cashier_actor, actor, target, entries):
    sat = make_tournament(name="Satellite", buy_in=D("100"), fee=D("10"), format=Tournament.SATELLITE)
    sold = [cashier.register(sat, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(entries)]
    services.link_satellite(sat, target, actor=actor)
    sat.status = Tournament.RUNNING
    sat.save()
    return sat, sold


def bust_all_but(entries, keep):
    """Bust players from the last entry down, giving places n, n−1, … until ``keep`` are left."""
    n = len(entries)
    for i, e in enumerate(reversed(entries[keep:])):
        e.status, e.place = Entry.BUSTED, n - i
        e.save()


def test_scenario_8_printed_example_six_seats_and_330_to_seventh(make_tournament, make_person, cashier_actor, actor, main_event, director):
    sat, entries = satellite_with(make_tournament, make_person, cashier_actor, actor, main_event, 63)
    summary = sel.display_summary(sat)
    assert summary["prize_pool"] == "6930.00"  # 63 × €110, GROSS
    assert summary["payouts"] == [{"places": "1–6", "amount": "1100.00", "prize": "Seat: Main Event"}, {"places": "7", "amount": "330.00", "prize": ""}]
    bust_all_but(entries, 7)
    with pytest.raises(DomainError) as e:
        services.complete_satellite(sat, actor=actor)
    assert e.value.code == "seats_not_decided" and "7 players are left for 6 seats" in str(e.value.message)
    bust_all_but(entries, 6)  # the 7th-place player busts: 6 remain
    seats = services.complete_satellite(sat, actor=actor)
    sat.refresh_from_db()
    assert sat.status == Tournament.FINISHED and len(seats) == 6
    created = main_event.entries.filter(status=Entry.ACTIVE)
    assert created.count() == 6
    assert {e.person_id for e in created} == {e.person_id for e in entries[:6]}
    rows = LedgerRow.objects.filter(tournament=main_event)
    assert all(r.method == "OTHER" and r.note == "satellite seat" and r.prize_amount == D("1000") for r in rows)
    assert sel.prize_pool(main_event) == D("6000.00")
    # The seventh place is paid €330 in cash at the desk after the sign-off.
    seventh = entries[6]
    assert seventh.__class__.objects.get(pk=seventh.pk).place == 7
    services.sign_off_ranking(sat, actor=Actor(director))
    services.sign_off_ranking(sat, actor=Actor(make_user("ctrl", "controller")))
    pay = services.pay_prize(seventh, method="CASH", actor=cashier_actor)
    assert pay.amount == D("330.00")
    data = reports.reconciliation_data(sat)
    assert data["balanced"] and {str(k): v for k, v in data["lines"]}["Money out: prizes paid"] == D("6930.00")


def test_scenario_9_no_remainder_seven_seats_ends_at_seven(make_tournament, make_person, cashier_actor, actor, main_event):
    sat, entries = satellite_with(make_tournament, make_person, cashier_actor, actor, main_event, 70)
    summary = sel.display_summary(sat)
    assert summary["payouts"] == [{"places": "1–7", "amount": "1100.00", "prize": "Seat: Main Event"}]
    assert summary["places_paid"] == 7
    bust_all_but(entries, 8)
    assert services.after_bust(sat, actor=actor) is None  # 8 left for 7 seats: play on
    bust_all_but(entries, 7)
    assert len(services.after_bust(sat, actor=actor)) == 7
    assert main_event.entries.count() == 7
    assert not [d for d in sel.dues(sat) if d["kind"] == "CASH"]
    assert sat.events.filter(action="payouts.satellite.completed").count() == 1


def test_a_winner_already_registered_gets_a_ticket(make_tournament, make_person, cashier_actor, actor, main_event):
    sat, entries = satellite_with(make_tournament, make_person, cashier_actor, actor, main_event, 11)  # 1,210 → 1 seat + 110
    cashier.register(main_event, entries[0].person, method="CARD", actor=cashier_actor)
    bust_all_but(entries, 1)
    (seat,) = services.complete_satellite(sat, actor=actor)
    assert seat.ticket is not None and seat.ticket.holder == entries[0].person and seat.ticket.value == D("1100.00")
    assert main_event.entries.count() == 1  # no second entry
    assert Ticket.objects.get().status == Ticket.ISSUED


def test_a_pre_registered_winner_has_the_reservation_paid(make_tournament, make_person, cashier_actor, actor, main_event):
    sat, entries = satellite_with(make_tournament, make_person, cashier_actor, actor, main_event, 10)
    services.link_satellite(sat, main_event, actor=actor, prize_base="GROSS")
    reserved = cashier.pre_register(main_event, entries[0].person, actor=cashier_actor)
    bust_all_but(entries, 1)
    services.complete_satellite(sat, actor=actor)
    reserved.refresh_from_db()
    assert reserved.status == Entry.ACTIVE and reserved.ledger.get().note == "satellite seat"


def test_net_prize_base_takes_the_fee_and_deductions_off(make_tournament, make_person, cashier_actor, actor, main_event):
    sat, _entries = satellite_with(make_tournament, make_person, cashier_actor, actor, main_event, 63)
    sat.deductions = [{"name": "casino", "percent": "3"}]
    sat.save()
    services.link_satellite(sat, main_event, actor=actor, prize_base="NET")
    # 63 × 100 = 6,300 − 3 % = 6,111 → 5 seats and 611 cash.
    payouts = sel.display_summary(sat)["payouts"]
    assert payouts == [{"places": "1–5", "amount": "1100.00", "prize": "Seat: Main Event"}, {"places": "6", "amount": "611.00", "prize": ""}]


# --- issue 29: a same-hand bust below the seats; a winner the target does not take ------------


def started_satellite(make_tournament, make_person, cashier_actor, actor, target, entries):
    """A satellite of ``entries`` × €110 for ``target``, started with its seats drawn."""
    from tournaments.setup import lifecycle

    sat = make_tournament(name="Satellite", buy_in=D("100"), fee=D("10"), format=Tournament.SATELLITE)
    for _ in range(entries):
        cashier.register(sat, make_person(), method="CARD", actor=cashier_actor)
    services.link_satellite(sat, target, actor=actor)
    lifecycle.start(sat, actor=actor, prestart_report_sent=True)
    sat.refresh_from_db()
    return sat


def two_at_one_table(sat):
    from seating.models import Seat

    seats = list(Seat.objects.filter(tournament=sat).values_list("table__number", "entry_id").order_by("table__number", "number"))
    for (table_a, a), (table_b, b) in zip(seats, seats[1:]):
        if table_a == table_b:
            return Entry.objects.get(pk=a), Entry.objects.get(pk=b)
    raise AssertionError("no table with two players")


def test_a_same_hand_bust_of_two_at_8_left_for_7_seats_gives_the_bigger_stack_the_7th_seat(make_tournament, make_person, cashier_actor, actor, main_event):
    from seating import services as seating

    sat = started_satellite(make_tournament, make_person, cashier_actor, actor, main_event, 70)  # €7,700: 7 seats
    playing = list(sat.entries.filter(status=Entry.ACTIVE).order_by("number"))
    seating.record_bust(sat, playing[:62], actor=actor)  # 8 left
    big, small = two_at_one_table(sat)
    # One hand, one table: 6 are left for 7 seats, so the satellite ends by itself (FMT-08),
    # and the bigger stack at the start of the hand is 7th (ELM-02): the 7th seat is his.
    seating.record_bust(sat, [{"entry": small, "starting_stack": 3000}, {"entry": big, "starting_stack": 9000}], actor=actor, same_hand=True)
    sat.refresh_from_db()
    assert sat.status == Tournament.FINISHED
    big.refresh_from_db()
    small.refresh_from_db()
    assert (big.place, small.place) == (7, 8)
    seated = main_event.entries.filter(status=Entry.ACTIVE)
    assert seated.count() == 7
    assert big.person_id in {e.person_id for e in seated} and small.person_id not in {e.person_id for e in seated}
    assert sel.prize_pool(main_event) == D("7000.00")
    assert not [d for d in sel.dues(sat) if not d["paid"]]  # nothing left to hand out: 7 seats, 7 entries


def test_a_tie_over_the_last_seat_shares_its_value_in_money(make_tournament, make_person, cashier_actor, actor, main_event, director):
    sat, entries = satellite_with(make_tournament, make_person, cashier_actor, actor, main_event, 70)  # 7 seats
    bust_all_but(entries, 8)
    for e in entries[6:8]:  # equal stacks on one hand: both 7th, places 7–8 shared (ELM-02, ELM-06)
        e.status, e.place = Entry.BUSTED, 7
        e.save()
    assert services.satellite_ready(sat)
    seats = services.after_bust(sat, actor=actor)
    assert len(seats) == 6 and main_event.entries.filter(status=Entry.ACTIVE).count() == 6
    tied = [d for d in sel.dues(sat) if d["entry_id"] in {entries[6].pk, entries[7].pk}]
    assert [(d["kind"], d["amount"], d["held"]) for d in tied] == [("CASH", D("550.00"), False)] * 2  # (1,100 + 0) ÷ 2
    services.sign_off_ranking(sat, actor=Actor(director))
    services.sign_off_ranking(sat, actor=Actor(make_user("ctrl", "controller")))
    assert services.pay_prize(entries[6], method="CASH", actor=cashier_actor).amount == D("550.00")
    assert services.pay_prize(entries[7], method="CASH", actor=cashier_actor).amount == D("550.00")
    assert reports.reconciliation_data(sat)["balanced"]


def test_already_registered_cash_pays_the_seat_value_instead_of_a_ticket(make_tournament, make_person, cashier_actor, actor, main_event, director):
    from payouts.models import SatelliteLink

    sat, entries = satellite_with(make_tournament, make_person, cashier_actor, actor, main_event, 20)  # 2 seats
    SatelliteLink.objects.filter(satellite=sat).update(already_registered=SatelliteLink.CASH)
    cashier.register(main_event, entries[0].person, method="CARD", actor=cashier_actor)
    bust_all_but(entries, 2)
    services.complete_satellite(sat, actor=actor)
    assert not Ticket.objects.exists()
    assert main_event.entries.filter(person=entries[0].person).count() == 1  # his own entry, no second
    assert main_event.entries.filter(person=entries[1].person, status=Entry.ACTIVE).count() == 1  # the other winner's seat
    (due,) = [d for d in sel.dues(sat) if d["entry_id"] == entries[0].pk]
    assert (due["kind"], due["amount"], due["paid"]) == ("CASH", D("1100.00"), False)
    services.sign_off_ranking(sat, actor=Actor(director))
    services.sign_off_ranking(sat, actor=Actor(make_user("ctrl", "controller")))
    paid = services.pay_prize(entries[0], source=due["source"], method="CASH", actor=cashier_actor)
    assert paid.amount == D("1100.00") and paid.row.prize_amount == D("-1100.00") and paid.row.method == "CASH"
    assert reports.reconciliation_data(sat)["balanced"]


def test_already_registered_is_set_when_linking(make_tournament, make_person, cashier_actor, actor, main_event):
    from payouts.models import SatelliteLink

    sat, _entries = satellite_with(make_tournament, make_person, cashier_actor, actor, main_event, 10)
    services.link_satellite(sat, main_event, actor=actor, already_registered="CASH")
    assert SatelliteLink.objects.get(satellite=sat).already_registered == "CASH"
    with pytest.raises(DomainError) as e:
        services.link_satellite(sat, main_event, actor=actor, already_registered="REFUND")
    assert e.value.code == "bad_already_registered"


def test_a_seat_in_a_bounty_event_is_worth_its_bounty_part_too(make_tournament, make_person, cashier_actor, actor):
    """Found by the simulator: a satellite to a €200 + €20 event with a €20 bounty awarded seats
    worth €220, and the seat's entry in the target carried a €20 bounty part nobody paid (the
    floor's shift showed €20 after the deciding bust). A seat is worth everything a player pays
    to enter: €240, its bounty part included."""
    target = make_tournament(name="Bounty Main", buy_in=D("200"), fee=D("20"), settings={"bounty": "FIXED", "bounty_amount": "20"})
    sat, entries = satellite_with(make_tournament, make_person, cashier_actor, actor, target, 5)  # 5 × €110 = €550
    summary = sel.display_summary(sat)
    assert summary["payouts"] == [{"places": "1–2", "amount": "240.00", "prize": "Seat: Bounty Main"}, {"places": "3", "amount": "70.00", "prize": ""}]
    bust_all_but(entries, 2)
    services.complete_satellite(sat, actor=actor)
    seat_rows = LedgerRow.objects.filter(tournament=target)
    assert [(r.prize_amount, r.fee_amount, r.bounty_amount) for r in seat_rows] == [(D("200"), D("20"), D("20"))] * 2
    paid_out = -sum(r.prize_amount for r in LedgerRow.objects.filter(tournament=sat, kind=LedgerRow.PAYOUT))
    assert paid_out == sum(r.total for r in seat_rows) == D("480")
    assert reports.reconciliation_data(target)["balanced"]


def test_seats_decided_by_the_floors_bust_are_on_nobodys_shift(make_tournament, make_person, cashier_actor, actor, main_event):
    """Found by the simulator: the floor's bust that decided the seats booked the seats and a
    winner's ticket on the floor's shift (Other: −1,100.00 in a drawer he does not have). The
    seats are the house's: their rows are on no shift."""
    floor = Actor(make_user("floor-sat", "floor"), "floor tablet")
    sat, entries = satellite_with(make_tournament, make_person, cashier_actor, actor, main_event, 22)  # 2 seats of €1,100
    cashier.register(main_event, entries[0].person, method="CASH", actor=cashier_actor)  # a winner in already: a ticket
    bust_all_but(entries, 2)
    services.complete_satellite(sat, actor=floor)
    assert shift_totals(floor.user)["rows"] == 0
    seat_rows = LedgerRow.objects.filter(note="satellite seat")
    assert seat_rows.count() == 3 and not seat_rows.exclude(cashier=None).exists()  # two payouts, one seat entry


def test_the_bust_that_decided_the_seats_is_not_undone(make_tournament, make_person, cashier_actor, actor, main_event):
    """Found by the simulator: the bust that left as many players as seats ended the satellite
    (seats issued in the target) and was then undone: the places came back as undecided while
    the seats stayed given, and the reconciliation was 1,100 short. Once the seats are awarded
    the satellite has ended: the undo is refused with a code and the seats stand."""
    sat = make_tournament(name="Satellite", buy_in=D("100"), fee=D("10"), format=Tournament.SATELLITE)
    entries = [cashier.register(sat, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(11)]  # one seat
    services.link_satellite(sat, main_event, actor=actor)
    lifecycle.start(sat, actor=actor, override_minimum=True, prestart_report_sent=True)
    for e in entries[1:]:
        seating.record_bust(sat, [e], actor=actor)
    sat.refresh_from_db()
    assert sat.status == Tournament.FINISHED and main_event.entries.filter(person=entries[0].person).exists()
    last = Bust.objects.filter(tournament=sat, void="").order_by("-pk").first()
    with pytest.raises(DomainError) as refused:
        seating.undo_bust(sat, last, actor=actor, reason="wrong player")
    assert sat.status == Tournament.FINISHED and refused.value.code == "tournament_closed"
    assert Entry.objects.get(pk=last.entry_id).status == Entry.BUSTED
    assert reports.reconciliation_data(sat)["balanced"]


def test_role03_a_gross_satellite_s_reconciliation_reads_line_by_line(make_tournament, make_person, cashier_actor, actor, main_event, director):
    """12 × €110 = €1,320, its prize base gross: the fees are the seats' prize pool too, so the
    house keeps none of them. One seat of €1,100 and €220 to the second, paid in cash."""
    sat, entries = satellite_with(make_tournament, make_person, cashier_actor, actor, main_event, 12)
    money_in = {"Money in: prize parts": "1200.00", "Money in: fees": "120.00", "Money in: total": "1320.00", "Prize pool": "1320.00"}
    gross = "Satellite prize base GROSS: the fees (120.00) are part of the seats' prize pool."
    rows, result = read(sat)
    assert rows == expected({**money_in, "Prize pool not yet paid": "1320.00", "… places still to be decided": "1320.00"}, (gross,))
    assert result == BALANCED
    bust_all_but(entries, 1)
    services.complete_satellite(sat, actor=actor)
    services.sign_off_ranking(sat, actor=Actor(director))
    services.sign_off_ranking(sat, actor=Actor(make_user("ctrl", "controller")))
    services.pay_prize(entries[1], method="CASH", actor=cashier_actor)
    rows, result = read(sat)
    assert rows == expected({**money_in, "Money out: prizes paid": "1320.00"}, (gross,))  # the seat and the €220
    assert result == BALANCED
