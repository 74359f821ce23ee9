"""The reports the controller and the house read (ROLE-02, ROLE-03, LB-01, LB-03), cell by cell:
the winners report's points under the house's reading and shared rule, its other prizes, the
payments report, the CSV the controller opens in a spreadsheet and the names the reports go by.
Every expected value is worked out here by hand from the test's own figures."""

import csv
import io
import math
from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from payouts import reports, services
from seating import services as seating
from tests.conftest import make_user
from tests.payouts.bounty_setup import bounty_event
from tests.payouts.test_payout_service import finish_at, sign_twice
from tests.payouts.test_satellite_service import bust_all_but, satellite_with
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
D = Decimal
ROME = ZoneInfo("Europe/Rome")


def placed(t, make_person, cashier_actor, places):
    """One paid entry per place given, named by its place: ``{place name: entry}``."""
    entries = []
    for n, place in enumerate(places, 1):
        e = cashier.register(t, make_person(f"Player{n}", f"Place{place}"), method="CARD", actor=cashier_actor).entry
        entries.append(e)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
    for e, place in zip(entries, places):
        finish_at(e, place)
    return entries


def points_column(t) -> list[tuple[str, str]]:
    return [(row[0], row[6]) for row in reports.standings(t)["rows"]]


def test_lb01_the_winners_report_scores_the_day_s_buy_in_when_the_house_reads_it_so(make_tournament, make_person, cashier_actor):
    # Reading D: K = 10 · (1 + log10(buy-in + 0.25)); at €50, K = 10 · (1 + log10(50.25)) = 27.0114.
    # Three players: 1st K · √3 = 46.79, 2nd K · √1.5 = 33.08, 3rd K = 27.01 (reading A would
    # give 51.98 / 36.76 / 30.01).
    t = make_tournament(buy_in=D("50"), fee=D("5"), settings={"lb_mode": "D"})
    placed(t, make_person, cashier_actor, (1, 2, 3))
    k = 10 * (1 + math.log10(50.25))
    assert round(k, 4) == 27.0114
    assert points_column(t) == [("1", "46.79"), ("2", "33.08"), ("3", "27.01")]
    # A freeroll has no buy-in to read: no points, and the report still reads
    free = make_tournament(name="Freeroll", buy_in=D("0"), fee=D("0"), settings={"lb_mode": "D"})
    placed(free, make_person, cashier_actor, (1, 2))
    assert points_column(free) == [("1", ""), ("2", "")]


def test_lb03_a_shared_place_scores_at_its_best_place_when_the_house_says_so(make_tournament, make_person, cashier_actor):
    # Four players, two of them out together sharing 2nd: at their best place, each scores
    # K · √(4 / 2) = 30.0108 · 1.4142 = 42.44 (at the average place, 2.5: 37.96).
    t = make_tournament(buy_in=D("100"), fee=D("0"), settings={"lb_shared_rule": "BEST_PLACE"})
    placed(t, make_person, cashier_actor, (1, 2, 2, 4))
    assert points_column(t) == [("1", "60.02"), ("2 (shared ×2)", "42.44"), ("2 (shared ×2)", "42.44"), ("4", "30.01")]


def test_role03_the_winners_report_lists_each_other_prize_and_counts_no_item_in_the_prizes_won(make_tournament, make_person, cashier_actor, actor, director):
    # 3 × €100: 200 / 100 in cash; the winner also takes a trophy worth €50 of the house's and an
    # unnamed keepsake. The items are listed with their value; the prizes won are the cash only.
    t = make_tournament(name="Trophy Night", buy_in=D("100"), fee=D("0"))
    e = placed(t, make_person, cashier_actor, (1, 2, 3))
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.REGISTERING)
    table = [
        {"place": 1, "amount": "200"},
        {"place": 2, "amount": "100"},
        {"place": 1, "kind": "ITEM", "amount": "50", "description": "Trophy"},
        {"place": 1, "kind": "ITEM", "amount": "0", "description": ""},
    ]
    services.edit_payout_table(t, table, actor=actor)
    services.lock_payout_table(t, actor=actor)
    report = reports.standings(t)
    assert [row[:6] for row in report["rows"]] == [
        ["1", e[0].person.full_name, str(e[0].number), "200.00", "Item: Trophy (50.00); Item (0.00)", "0.00"],
        ["2", e[1].person.full_name, str(e[1].number), "100.00", "", "0.00"],
        ["3", e[2].person.full_name, str(e[2].number), "0.00", "", "0.00"],
    ]
    assert [(str(k), v) for k, v in report["totals"]] == [("Prize pool", "300.00"), ("Prizes won", "300.00"), ("Paid", "0.00"), ("Participants", "3")]
    # Handed over at the desk: the cash by cheque, the trophy and the keepsake with no money and no
    # method; the money paid is the cash only.
    sign_twice(t, director)
    with time_machine.travel(datetime(2026, 12, 1, 23, 10, tzinfo=ROME), tick=False):
        cash = services.pay_prize(e[0], method="CHEQUE", reference="CHQ-4", actor=cashier_actor)
        trophy = services.pay_prize(e[0], method="CASH", actor=cashier_actor, source="MAIN:ITEM")
    winner, desk = e[0].person.full_name, cashier_actor.user.username
    assert reports.payments(t)["rows"] == [
        [str(cash.row.receipt_number), "01/12/2026 23:10", winner, "1", "Cash", "200.00", "Cheque", "CHQ-4", winner, desk, ""],
        ["", "01/12/2026 23:10", winner, "1", "Item", "50.00", "", "", winner, desk, ""],
    ]
    assert [(str(k), v) for k, v in reports.payments(t)["totals"]] == [("Paid", "200.00"), ("Payments", "2")]
    # The trophy's slip, with no receipt: numbered by the payment, no method, no reference
    assert [(str(k), str(v)) for k, v in reports.slip_lines(trophy)] == [
        ("Payout slip", f"P{trophy.pk}"),
        ("Date", "01/12/2026 23:10:00"),
        ("Tournament", "Trophy Night"),
        ("Winner", winner),
        ("Entry", f"#{e[0].number}"),
        ("Place", "1"),
        ("Prize", "Item"),
        ("Amount", "€50.00"),
        ("Payee", winner),
        ("Cashier", desk),
    ]


def test_role03_the_payments_report_reads_each_payment_s_player_receipt_and_cashier_with_it(make_tournament, make_person, cashier_actor, actor, director):
    # A PKO of 4: 1 knocks out 3 and collects his bounty; 0 knocks out 2 and 1 and wins. The 2nd's
    # prize and the first bounty payment, then the winner's bounties and prize: the report reads
    # each payment's player, receipt and cashier, and each bounty line's reversal, with it.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=4)
    services.edit_payout_table(t, [{"place": 1, "amount": "120"}, {"place": 2, "amount": "80"}], actor=actor)
    services.lock_payout_table(t, actor=actor)
    seating.record_bust(t, [{"entry": e[3].pk, "eliminators": [e[1].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)
    nothing = [("Paid", "0.00"), ("Payments", "0"), ("Bounties paid (apart from the prizes)", "0.00"), ("Bounty payments", "0")]
    assert [(str(k), v) for k, v in reports.payments(t)["totals"]] == nothing  # a PKO says so before its first payment
    services.pay_bounties(e[1], method="CASH", actor=cashier_actor)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    sign_twice(t, director)
    services.pay_prize(e[1], method="CASH", actor=cashier_actor)

    def read():
        t.refresh_from_db()
        with CaptureQueriesContext(connection) as queries:
            report = reports.payments(t)
        return [(row[2], row[4]) for row in report["rows"]], len(queries)

    two, few = read()
    services.pay_bounties(e[0], method="CASH", actor=cashier_actor)
    services.pay_prize(e[0], method="CASH", actor=cashier_actor)
    four, more = read()
    second, winner = e[1].person.full_name, e[0].person.full_name
    assert two == [(second, "Bounty"), (second, "Cash")]
    assert four == [(second, "Bounty"), (second, "Cash"), (winner, "Bounty"), (winner, "Cash")]
    # one query more, for the second prize: whether its receipt was reversed (``is_void`` asks the
    # ledger for each prize payment); its player, receipt and cashier, and the bounty lines, none
    assert more == few + 1


def test_elm07_the_winners_report_is_signed_by_those_who_signed_the_ranking_as_it_stands(make_tournament, make_person, cashier_actor, actor, director):
    # The director signs the ranking with the 3rd place decided; the 2nd and 1st are decided
    # after: his signature is of another ranking. The controller, then the director, sign it again.
    t = make_tournament(name="Signed Night", buy_in=D("100"), fee=D("0"))
    e = placed(t, make_person, cashier_actor, (1, 2, 3))
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.REGISTERING)
    services.edit_payout_table(t, [{"place": 1, "amount": "200"}, {"place": 2, "amount": "100"}], actor=actor)
    services.lock_payout_table(t, actor=actor)
    for x in e[:2]:
        x.place, x.status = None, "ACTIVE"
        x.save()
    director.first_name, director.last_name = "Dora", "Rossi"
    director.save()
    controller = make_user("cora", "controller")
    with time_machine.travel(datetime(2026, 12, 1, 22, 50, tzinfo=ROME), tick=False):
        services.sign_off_ranking(t, actor=Actor(director))
    finish_at(e[1], 2)
    finish_at(e[0], 1)
    with time_machine.travel(datetime(2026, 12, 1, 23, 5, tzinfo=ROME), tick=False):
        services.sign_off_ranking(t, actor=Actor(controller))
    with time_machine.travel(datetime(2026, 12, 1, 23, 6, tzinfo=ROME), tick=False):
        services.sign_off_ranking(t, actor=Actor(director))
    signed = [("cora", "administrative controller", "01/12/2026 23:05"), ("Dora Rossi", "director", "01/12/2026 23:06")]
    assert reports.standings(t)["signatures"] == signed
    assert reports.payments(t)["signatures"] == signed


def test_role03_the_csv_reads_as_the_report_and_no_cell_starts_a_formula(make_tournament, make_person, cashier_actor, actor, director):
    # A player registered as "=1+2 Cmd" is written with an apostrophe before it: a spreadsheet
    # shows the name, runs nothing. The amounts stay numbers.
    t = make_tournament(name="Csv Night", buy_in=D("100"), fee=D("0"))
    e = [
        cashier.register(t, make_person(first, last), method="CARD", actor=cashier_actor).entry
        for first, last in (("=1+2", "Cmd"), ("Bea", "Due"), ("Ciro", "Tre"))
    ]
    services.edit_payout_table(t, [{"place": 1, "amount": "200"}, {"place": 2, "amount": "100"}], actor=actor)
    services.lock_payout_table(t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
    for x, place in zip(e, (1, 2, 3)):
        finish_at(x, place)

    def lines(name):
        return list(csv.reader(io.StringIO(reports.to_csv(reports.build(t, name)))))

    unsigned = lines("payments")
    assert unsigned == [
        ["Prize payments: Csv Night"],
        ["Receipt", "Time", "Player", "Place", "Prize", "Amount", "Method", "Reference", "Payee", "Cashier", ""],
        [],
        ["Paid", "0.00"],
        ["Payments", "0"],
        [],
        ["Signatures", "Role", "Time"],
        ["not signed"],
    ]
    director.first_name, director.last_name = "Dora", "Rossi"
    director.save()
    with time_machine.travel(datetime(2026, 12, 1, 23, 0, tzinfo=ROME), tick=False):
        sign_twice(t, director)
    assert lines("standings") == [
        ["Final standings: Csv Night"],
        ["Place", "Player", "Entry", "Cash prize", "Other prizes", "Paid", "Points"],
        ["1", "'=1+2 Cmd", str(e[0].number), "200.00", "", "0.00", "51.98"],
        ["2", "Bea Due", str(e[1].number), "100.00", "", "0.00", "36.76"],
        ["3", "Ciro Tre", str(e[2].number), "0.00", "", "0.00", "30.01"],
        [],
        ["Prize pool", "300.00"],
        ["Prizes won", "300.00"],
        ["Paid", "0.00"],
        ["Participants", "3"],
        [],
        ["Signatures", "Role", "Time"],
        ["Dora Rossi", "director", "01/12/2026 23:00"],
        ["controller", "administrative controller", "01/12/2026 23:00"],
    ]


def test_role03_a_satellite_s_seat_is_handed_out_by_no_cashier_and_its_pool_is_the_seats_and_cash(make_tournament, make_person, cashier_actor, actor):
    # 11 × €110 in a satellite to a €1,000 + €100 event: one seat (1,100) and 110 in cash. The
    # seat is the house's, handed out when the satellite ends by no cashier: its reference is the
    # entry it gave in the main event.
    main = make_tournament(name="Main Event", buy_in=D("1000"), fee=D("100"))
    sat, entries = satellite_with(make_tournament, make_person, cashier_actor, actor, main, 11)
    bust_all_but(entries, 1)
    with time_machine.travel(datetime(2026, 12, 1, 23, 30, tzinfo=ROME), tick=False):
        (seat,) = services.complete_satellite(sat, actor=actor)
    winner = entries[0].person.full_name
    assert reports.payments(sat)["rows"] == [
        [
            str(seat.row.receipt_number),
            "01/12/2026 23:30",
            winner,
            "1",
            "Seat",
            "1100.00",
            "Other",
            f"Main Event entry #{seat.seat_entry.number}",
            winner,
            "",
            "",
        ]
    ]
    assert [(str(k), str(v)) for k, v in reports.slip_lines(seat)][-2:] == [("Payee", winner), ("Cashier", "")]
    # The winners report's pool is the satellite's: the seat and the cash, 11 × €110
    assert dict((str(k), v) for k, v in reports.standings(sat)["totals"])["Prize pool"] == "1210.00"
