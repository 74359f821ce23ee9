"""The payout slips read line by line (ROLE-03, PAY-02): a prize's slip and a bounty payment's,
on the desk's page, in the PDF the winner signs and as the lines the PDF prints. Every value is
the test's own: the names, the amounts the table and the bounties give, the method, the cashier."""

from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine

from payouts import leaderboard, reports, services
from payouts.models import BountyAward
from seating import services as seating
from tests.payouts.bounty_setup import bounty_event
from tests.payouts.test_bounty_desk import web
from tests.payouts.test_payout_service import finish_at, first_two_signed, sign_twice
from tests.payouts.test_reports_italian import pdf_text
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.house import HouseRules
from tournaments.models import LedgerRow, Tournament

pytestmark = pytest.mark.django_db
D = Decimal
ROME = ZoneInfo("Europe/Rome")


def lines_of(lines) -> list[tuple[str, str]]:
    return [(str(label), str(value)) for label, value in lines]


def test_role03_a_prize_slip_reads_every_line_on_the_page_and_in_the_pdf(make_tournament, make_person, cashier_actor, actor, director, cashier_user):
    t = make_tournament(name="Monday Deepstack", buy_in=D("500"), fee=D("50"))
    entries = [cashier.register(t, make_person("Anna", "Bianchi"), method="CARD", actor=cashier_actor).entry]
    entries += [cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(3)]
    first_two_signed(t, entries, director, actor)
    with time_machine.travel(datetime(2026, 12, 1, 23, 40, 5, tzinfo=ROME), tick=False):
        pay = services.pay_prize(entries[0], method="TRANSFER", reference="TRN-7", actor=cashier_actor)
    number = pay.row.receipt_number
    assert lines_of(reports.slip_lines(pay)) == [
        ("Payout slip", f"#{number}"),
        ("Date", "01/12/2026 23:40:05"),
        ("Tournament", "Monday Deepstack"),
        ("Winner", "Anna Bianchi"),
        ("Entry", f"#{entries[0].number}"),
        ("Place", "1"),
        ("Prize", "Cash"),
        ("Amount", "€1,500.00"),
        ("Paid by", "Bank transfer"),
        ("Reference", "TRN-7"),
        ("Payee", "Anna Bianchi"),
        ("Cashier", cashier_user.username),
    ]
    pdf = reports.slip_pdf(pay)
    text = pdf_text(pdf)
    assert f"(Payout slip #{number})".encode() in pdf  # the PDF's title
    assert text.count("(Monday Deepstack)") == 2  # the heading and the tournament's line
    assert "(Winner's signature: received the amount above)" in text.replace("\\", "")
    assert "(Bank transfer)" in text and "(TRN-7)" in text and "1,500.00)" in text
    page = web(cashier_user).get(f"/payouts/slip/{number}/").content.decode()
    for shown in (
        "<h1>Monday Deepstack</h1>",
        "01/12/2026 23:40:05",
        f'id="slip-number">#{number}<',
        'id="slip-winner">Anna Bianchi<',
        f"<dd>#{entries[0].number}</dd>",
        'id="slip-place">1<',
        'id="slip-prize">Cash<',
        'id="slip-amount">€1,500.00<',
        'id="slip-method">Bank transfer<',
        'id="slip-reference">TRN-7<',
        'id="slip-payee">Anna Bianchi<',
        f"<dd>{cashier_user.username}</dd>",
    ):
        assert shown in page, shown
    assert "REVERSED" not in page and 'id="slip-forfeit"' not in page


def test_pay02_a_bounty_slip_names_each_bounty_it_paid_and_says_when_it_was_reversed(make_tournament, make_person, cashier_actor, actor, cashier_user):
    # A PKO of 3 × €50 bounties, half of a bounty in cash: entry 0 knocks out 2 (25 cash, his head
    # 75) and 1 (his head 50: 25 cash), and wins: his own head, 100. He collects 150 by cheque.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=3)
    t.name = "PKO Night"
    Tournament.objects.filter(pk=t.pk).update(name="PKO Night")
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    with time_machine.travel(datetime(2026, 12, 1, 23, 50, 0, tzinfo=ROME), tick=False):
        row = services.pay_bounties(e[0], method="CHEQUE", reference="CHQ-12", actor=cashier_actor)
    winner, first, second = (x.person.full_name for x in e)
    expected = [
        ("Payout slip", f"#{row.receipt_number}"),
        ("Date", "01/12/2026 23:50:00"),
        ("Tournament", "PKO Night"),
        ("Winner", winner),
        ("Entry", f"#{e[0].number}"),
        ("Prize", "Bounties"),
        (f"Knocked out {second}", "€25.00"),
        (f"Knocked out {first}", "€25.00"),
        ("Own bounty (winner)", "€100.00"),
        ("Amount", "€150.00"),
    ]
    paid_by = [("Paid by", "Cheque"), ("Reference", "CHQ-12"), ("Payee", winner), ("Cashier", cashier_user.username)]
    assert lines_of(reports.bounty_slip_lines(row)) == expected + paid_by
    text = pdf_text(reports.bounty_slip_pdf(row))
    assert f"(Knocked out {second})" in text and "(Own bounty \\(winner\\))" in text and "150.00)" in text
    page = web(cashier_user).get(f"/payouts/slip/{row.receipt_number}/").content.decode()
    assert 'id="slip-amount">€150.00<' in page and 'id="slip-reference">CHQ-12<' in page and f'id="slip-payee">{winner}<' in page
    assert 'id="slip-place"' not in page and 'id="slip-forfeit"' not in page and "REVERSED" not in page
    assert page.count('class="bounty-line"') == 6  # three bounties, a label and an amount each
    cashier.reverse(LedgerRow.objects.get(pk=row.pk), reason="paid at the wrong desk", actor=actor)
    row = LedgerRow.objects.get(pk=row.pk)
    assert lines_of(reports.bounty_slip_lines(row)) == expected + [("Status", "REVERSED")] + paid_by
    assert "REVERSED" in web(cashier_user).get(f"/payouts/slip/{row.receipt_number}/").content.decode()


def test_pay02_a_mystery_slip_names_the_envelope_drawn_and_the_envelopes_left(make_tournament, make_person, cashier_actor, actor, cashier_user):
    # 3 × €50 of bounty money in two envelopes of 75, drawn from the money (the table pays 2):
    # the 3rd out draws nothing, the 2nd draws one; the winner takes the other, left in the bag.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=3, bounty="MYSTERY", mystery_from="ITM")
    services.edit_payout_table(t, [{"place": 1, "amount": "100"}, {"place": 2, "amount": "50"}], actor=actor)
    services.lock_payout_table(t, actor=actor)
    services.set_envelopes(t, ["75", "75"], actor=actor)
    seating.record_bust(t, [{"entry": e[2].pk, "eliminators": [e[0].pk]}], actor=actor)
    seating.record_bust(t, [{"entry": e[1].pk, "eliminators": [e[0].pk]}], actor=actor)
    drawn = BountyAward.objects.get(tournament=t, knocked_out=e[1], envelope__isnull=False).envelope
    row = services.pay_bounties(e[0], method="CASH", actor=cashier_actor)
    lines = lines_of(reports.bounty_slip_lines(row))
    assert lines[6:9] == [
        (f"Knocked out {e[1].person.full_name}: envelope {drawn}", "€75.00"),
        ("Mystery envelopes left", "€75.00"),
        ("Amount", "€150.00"),
    ]
    assert lines[-3:] == [("Paid by", "Cash"), ("Payee", e[0].person.full_name), ("Cashier", cashier_user.username)]


def test_role03_the_winners_report_reads_every_place_shared_paid_and_its_points(make_tournament, make_person, cashier_actor, actor, director):
    # 6 × €100: the table pays 300 / 150 / 100 / 50. Two players tie for 3rd: places 3 and 4 are
    # shared, (100 + 50) / 2 = 75 each. The winner collects his 300 at the desk.
    t = make_tournament(name="Sunday Main", buy_in=D("100"), fee=D("0"))
    names = [("Anna", "Uno"), ("Bruno", "Due"), ("Carla", "Tre"), ("Dario", "Quattro"), ("Elena", "Cinque"), ("Fabio", "Sei")]
    e = [cashier.register(t, make_person(*n), method="CARD", actor=cashier_actor).entry for n in names]
    services.edit_payout_table(t, [{"place": i, "amount": a} for i, a in enumerate(("300", "150", "100", "50"), 1)], actor=actor)
    services.lock_payout_table(t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
    for entry, place in zip(e, (1, 2, 3, 3, 5, 6)):
        finish_at(entry, place)
    sign_twice(t, director)
    services.pay_prize(e[0], method="CASH", actor=cashier_actor)
    report = reports.standings(t)
    assert report["title"] == "Final standings: Sunday Main"
    assert [str(c) for c in report["columns"]] == ["Place", "Player", "Entry", "Cash prize", "Other prizes", "Paid", "Points"]
    points = [
        leaderboard.leaderboard_points(6, p, mode="A", buy_in=D("100"), shared_with=n, shared_rule=HouseRules.of(t).lb_shared_rule)
        for p, n in ((1, 1), (2, 1), (3, 2), (3, 2), (5, 1), (6, 1))
    ]
    assert points[2] != leaderboard.leaderboard_points(6, 3, mode="A", buy_in=D("100"))  # the shared rule counts here
    expected = [
        ["1", "Anna Uno", str(e[0].number), "300.00", "", "300.00"],
        ["2", "Bruno Due", str(e[1].number), "150.00", "", "0.00"],
        ["3 (shared ×2)", "Carla Tre", str(e[2].number), "75.00", "", "0.00"],
        ["3 (shared ×2)", "Dario Quattro", str(e[3].number), "75.00", "", "0.00"],
        ["5", "Elena Cinque", str(e[4].number), "0.00", "", "0.00"],
        ["6", "Fabio Sei", str(e[5].number), "0.00", "", "0.00"],
    ]
    assert report["rows"] == [row + [f"{p:.2f}"] for row, p in zip(expected, points)]
    assert [(str(k), v) for k, v in report["totals"]] == [("Prize pool", "600.00"), ("Prizes won", "600.00"), ("Paid", "300.00"), ("Participants", "6")]


def test_role03_the_payments_report_lists_prizes_and_bounties_in_time_order_with_the_reversed_one(
    make_tournament, make_person, cashier_actor, actor, director, cashier_user
):
    # A PKO of 3 (€50 + €50 bounty): 0 knocks out 2 and 1 and wins, 25 + 25 + his own 100 = 150 in
    # bounties; the table pays 100 / 50. The desk pays 0's bounties, then his prize by transfer,
    # then 1's prize in cash, which the director reverses: it stays listed, out of the totals.
    t, e = bounty_event(make_tournament, make_person, cashier_actor, actor, players=3)
    services.edit_payout_table(t, [{"place": 1, "amount": "100"}, {"place": 2, "amount": "50"}], actor=actor)
    services.lock_payout_table(t, actor=actor)
    for x in (e[2], e[1]):
        seating.record_bust(t, [{"entry": x.pk, "eliminators": [e[0].pk]}], actor=actor)
    sign_twice(t, director)
    at = [datetime(2026, 12, 1, 20, m, 0, tzinfo=ROME) for m in (0, 5, 10)]
    with time_machine.travel(at[0], tick=False):
        bounties = services.pay_bounties(e[0], method="CASH", actor=cashier_actor)
    with time_machine.travel(at[1], tick=False):
        first = services.pay_prize(e[0], method="TRANSFER", reference="TRN-1", actor=cashier_actor)
    with time_machine.travel(at[2], tick=False):
        second = services.pay_prize(e[1], method="CASH", actor=cashier_actor)
    cashier.reverse(second.row, reason="paid the wrong person", actor=Actor(director, "desk-1"))
    a, b = e[0].person.full_name, e[1].person.full_name
    report = reports.payments(t)
    assert report["title"] == f"Prize payments: {t.name}"
    assert report["rows"] == [
        [str(bounties.receipt_number), "01/12/2026 20:00", a, "", "Bounty", "150.00", "Cash", "", a, cashier_user.username, ""],
        [str(first.row.receipt_number), "01/12/2026 20:05", a, "1", "Cash", "100.00", "Bank transfer", "TRN-1", a, cashier_user.username, ""],
        [str(second.row.receipt_number), "01/12/2026 20:10", b, "2", "Cash", "50.00", "Cash", "", b, cashier_user.username, "reversed"],
    ]
    assert "Payout slip — REVERSED" in web(cashier_user).get(f"/payouts/slip/{second.row.receipt_number}/").content.decode()
    assert "REVERSED" not in web(cashier_user).get(f"/payouts/slip/{first.row.receipt_number}/").content.decode()
    assert [(str(k), v) for k, v in report["totals"]] == [
        ("Paid", "100.00"),
        ("Payments", "1"),
        ("Bounties paid (apart from the prizes)", "150.00"),
        ("Bounty payments", "1"),
    ]


def test_role03_a_trophy_reads_beside_the_cash_and_is_handed_over_with_no_receipt_and_no_money(make_tournament, make_person, cashier_actor, actor, director):
    # 3 × €100: 200 / 100, and a trophy for the winner. Handed over at the desk it moves no money:
    # the payments report lists it with no receipt, out of the money paid.
    t = make_tournament(name="Trophy Night", buy_in=D("100"), fee=D("0"))
    e = [cashier.register(t, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(3)]
    table = [{"place": 1, "amount": "200"}, {"place": 2, "amount": "100"}, {"place": 1, "kind": "ITEM", "amount": "0", "description": "Trophy"}]
    services.edit_payout_table(t, table, actor=actor)
    services.lock_payout_table(t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
    for entry, place in zip(e, (1, 2, 3)):
        finish_at(entry, place)
    sign_twice(t, director)
    services.pay_prize(e[0], method="CASH", actor=cashier_actor)
    services.pay_prize(e[0], method="CASH", actor=cashier_actor, source="MAIN:ITEM")
    rows = reports.standings(t)["rows"]
    assert [row[3:6] for row in rows] == [["200.00", "Item: Trophy (0.00)", "200.00"], ["100.00", "", "0.00"], ["0.00", "", "0.00"]]
    assert dict((str(k), v) for k, v in reports.standings(t)["totals"])["Prizes won"] == "300.00"
    payments = reports.payments(t)
    assert [(row[0] == "", row[3], row[4], row[5]) for row in payments["rows"]] == [(False, "1", "Cash", "200.00"), (True, "1", "Item", "0.00")]
    assert [(str(k), v) for k, v in payments["totals"]] == [("Paid", "200.00"), ("Payments", "2")]
