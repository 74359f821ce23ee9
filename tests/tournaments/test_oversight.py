"""ROLE-01 (the controller witnesses draws and moves), ROLE-02 (the pre-start report's stubs and
its numbered addenda) and ROLE-05 (rulings, the dispute window, annotations), through the
services, the API and the pages."""

import csv
import io
import re
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from payouts import reports
from payouts import services as payouts
from tdmanager.errors import DomainError
from tests.conftest import client_for, make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import RegulatorGrant, Ruling, Tournament, Witness
from tournaments.oversight import rules as oversight_rules
from tournaments.oversight import services as oversight
from tournaments.setup import lifecycle

from .helpers import item_index_of_level, run_clock_at


@pytest.fixture
def started(make_tournament, make_person, cashier_actor, actor):
    """A tournament with three paid entries and one reservation, started (the seats drawn)."""
    t = make_tournament(late_reg_closes_after_level=2, buy_in=Decimal("100"), fee=Decimal("10"))
    for name in ("Anna", "Bruno", "Carla"):
        cashier.register(t, make_person(name, "Bianchi", document_id=f"DOC-{name}"), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor, override_minimum=True, prestart_report_sent=True)
    t.refresh_from_db()
    return t


def _late_sale(t, person, cashier_actor):
    run_clock_at(t, item_index_of_level(t, 1), seconds_left=600)
    return cashier.register(t, person, method="CASH", actor=cashier_actor)


# --- ROLE-01: the controller witnesses the seat draw and the moves ----------------------------


def test_the_controller_witnesses_the_seat_draw_and_the_director_cannot(started, controller_user, director, floor_user):
    draw = started.events.get(action="seating.draw.initial")
    r = client_for(director).post(f"/api/v1/tournaments/{started.pk}/witness/", {"event": draw.pk}, format="json")
    assert r.status_code == 403
    assert client_for(floor_user).post(f"/api/v1/tournaments/{started.pk}/witness/", {"event": draw.pk}, format="json").status_code == 403
    with pytest.raises(DomainError) as e:  # the service refuses too, whatever called it
        oversight.witness(started, draw.pk, actor=Actor(director))
    assert e.value.code == "not_controller"
    controller_user.first_name, controller_user.last_name = "Cora", "Conti"
    controller_user.save()
    r = client_for(controller_user).post(f"/api/v1/tournaments/{started.pk}/witness/", {"event": draw.pk}, format="json")
    assert r.status_code == 201 and r.data["name"] == "Cora Conti"
    again = client_for(controller_user).post(f"/api/v1/tournaments/{started.pk}/witness/", {"event": draw.pk}, format="json")
    assert again.status_code == 409 and again.data["code"] == "already_witnessed"
    listed = client_for(director).get(f"/api/v1/tournaments/{started.pk}/witness/").data["events"]
    assert [(e["action"], [w["name"] for w in e["witnesses"]]) for e in listed] == [("seating.draw.initial", ["Cora Conti"])]
    assert started.events.filter(action="tournaments.witness.signed", payload__event=draw.pk).exists()


def test_only_draws_and_moves_are_witnessed(started, controller_user):
    sale = started.events.filter(action="cashier.buyin.sold").first()
    r = client_for(controller_user).post(f"/api/v1/tournaments/{started.pk}/witness/", {"event": sale.pk}, format="json")
    assert r.status_code == 400 and r.data["code"] == "not_witnessable"
    assert not Witness.objects.exists()


def test_the_witness_page_signs_with_one_click(started, controller_user):
    draw = started.events.get(action="seating.draw.initial")
    page = Client()
    page.force_login(controller_user)
    html = page.get(f"/tournaments/{started.pk}/witness/").content.decode()
    assert "Seats drawn" in html and 'name="event"' in html
    assert page.post(f"/tournaments/{started.pk}/witness/", {"event": draw.pk}).status_code == 302
    assert Witness.objects.get().event == draw
    assert controller_user.username in page.get(f"/tournaments/{started.pk}/witness/").content.decode()


# --- ROLE-02: the pre-start report's stubs and the addenda ----------------------------------------


def test_the_prestart_report_carries_each_stub_and_its_totals(started):
    r = reports.prestart(started)
    rows = {row[3]: row for row in r["rows"]}
    receipts = list(started.ledger.order_by("id").values_list("receipt_number", flat=True))
    assert [row[0] for row in r["rows"]] == [str(n) for n in receipts]
    assert rows["Anna Bianchi"][4] == "•••••nna" and rows["Anna Bianchi"][6:] == ["100.00", "10.00", "0.00", "110.00", "0.00"]  # no jackpot fee, nothing owed
    totals = dict((str(k), v) for k, v in r["totals"])
    assert totals["Registered"] == "3" and totals["Stubs"] == "3"
    assert totals["Total buy-ins"] == "300.00" and totals["Total fees"] == "30.00" and totals["Total"] == "330.00"


def test_late_stubs_go_into_numbered_addenda(started, make_person, cashier_actor, actor):
    late = _late_sale(started, make_person("Dario", "Late"), cashier_actor)
    assert "Dario Late" not in reports.to_csv(reports.prestart(started))  # sold after the start
    first = oversight.issue_stub_addendum(started, actor=cashier_actor)
    assert (first.number, first.stubs, first.total) == (1, 1, Decimal("110.00"))
    a1 = reports.build(started, "addendum-1")
    assert [row[0] for row in a1["rows"]] == [str(late.row.receipt_number)] and a1["rows"][0][3] == "Dario Late"
    assert dict((str(k), v) for k, v in a1["totals"])["Total"] == "110.00"
    with pytest.raises(DomainError) as e:
        oversight.issue_stub_addendum(started, actor=cashier_actor)
    assert e.value.code == "nothing_to_report"
    _late_sale(started, make_person("Elena", "Later"), cashier_actor)
    _late_sale(started, make_person("Fabio", "Later"), cashier_actor)
    r = client_for(cashier_actor.user).post(f"/api/v1/tournaments/{started.pk}/stub-reports/")
    assert r.status_code == 201 and r.data == {"number": 2, "stubs": 2, "total": "220.00", "report": "addendum-2"}
    a2 = client_for(actor.user).get(f"/api/v1/tournaments/{started.pk}/payouts/reports/addendum-2/").data
    assert [row[3] for row in a2["rows"]] == ["Elena Later", "Fabio Later"]
    assert "Dario Late" not in str(a2["rows"])
    assert client_for(actor.user).get(f"/api/v1/tournaments/{started.pk}/payouts/reports/addendum-3/").status_code == 404
    assert started.events.filter(action="tournaments.stubs.reported").count() == 2


def test_no_addendum_before_the_start(tournament, make_person, cashier_actor):
    cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor)
    r = client_for(cashier_actor.user).post(f"/api/v1/tournaments/{tournament.pk}/stub-reports/")
    assert r.status_code == 409 and r.data["code"] == "not_started"


def test_the_tournament_page_offers_the_addendum_once_late_registration_closes(started, make_person, cashier_actor):
    _late_sale(started, make_person("Dario", "Late"), cashier_actor)
    page = Client()
    page.force_login(cashier_actor.user)
    assert 'id="addendum-offer"' not in page.get(f"/tournaments/{started.pk}/").content.decode()  # still open
    run_clock_at(started, item_index_of_level(started, 3), seconds_left=600)  # late registration has closed
    html = page.get(f"/tournaments/{started.pk}/").content.decode()
    assert 'id="addendum-offer"' in html and "1 stub sold after the start" in html
    assert page.post(f"/tournaments/{started.pk}/", {"op": "addendum"}).status_code == 302
    html = page.get(f"/tournaments/{started.pk}/").content.decode()
    assert 'id="addendum-offer"' not in html and "addendum-1.pdf" in html and "prestart.pdf" in html
    # each report the control corps gets, by its name on the page, as a PDF and as a CSV
    links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', html.split('id="report-links">')[1].split("</p>")[0])
    base = f"/tournaments/{started.pk}/payouts/reports"
    assert links[:6] == [
        (f"{base}/prestart.pdf", "Pre-start report"),
        (f"{base}/prestart.csv", "CSV"),
        (f"{base}/addendum-1.pdf", "Addendum 1"),
        (f"{base}/addendum-1.csv", "CSV"),
        (f"{base}/rulings.pdf", "Rulings report"),
        (f"{base}/rulings.csv", "CSV"),
    ]


def test_each_tournament_s_page_links_its_own_addenda_by_their_numbers(started, make_tournament, make_person, cashier_actor, actor):
    """ROLE-02: the addenda are numbered per tournament: a second tournament's first addendum is
    "Addendum 1" on its page, and opens the stubs sold late there."""
    _late_sale(started, make_person("Dario", "Late"), cashier_actor)
    oversight.issue_stub_addendum(started, actor=cashier_actor)
    other = make_tournament(name="Monday Turbo", late_reg_closes_after_level=2, buy_in=Decimal("100"), fee=Decimal("10"))
    for name in ("Elena", "Fabio"):
        cashier.register(other, make_person(name, "Verdi"), method="CASH", actor=cashier_actor)
    lifecycle.start(other, actor=actor, override_minimum=True, prestart_report_sent=True)
    other.refresh_from_db()
    _late_sale(other, make_person("Gina", "Late"), cashier_actor)
    oversight.issue_stub_addendum(other, actor=cashier_actor)
    _late_sale(other, make_person("Ivo", "Later"), cashier_actor)
    oversight.issue_stub_addendum(other, actor=cashier_actor)
    page = Client()
    page.force_login(cashier_actor.user)
    html = page.get(f"/tournaments/{other.pk}/").content.decode()
    links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', html.split('id="report-links">')[1].split("</p>")[0])
    base = f"/tournaments/{other.pk}/payouts/reports"
    assert [link for link in links if link[1] != "CSV" and link[0].startswith(base)] == [
        (f"{base}/prestart.pdf", "Pre-start report"),
        (f"{base}/addendum-1.pdf", "Addendum 1"),
        (f"{base}/addendum-2.pdf", "Addendum 2"),
        (f"{base}/rulings.pdf", "Rulings report"),
    ]
    second = client_for(actor.user).get(f"/api/v1/tournaments/{other.pk}/payouts/reports/addendum-2/").data
    assert [row[3] for row in second["rows"]] == ["Ivo Later"]


# --- ROLE-05: rulings -------------------------------------------------------------------------------


def test_the_dispute_window_rule():
    t0 = timezone.now()
    assert not oversight_rules.dispute_window("HAND", asked_at=t0).late  # no next hand yet
    assert oversight_rules.dispute_window("HAND", asked_at=t0, next_hand_at=t0 - timedelta(seconds=1)).late
    assert not oversight_rules.dispute_window("BREAK", asked_at=t0 + timedelta(seconds=60), disputed_at=t0).late
    assert oversight_rules.dispute_window("BREAK", asked_at=t0 + timedelta(seconds=61), disputed_at=t0).late
    with pytest.raises(ValueError):
        oversight_rules.dispute_window("BREAK", asked_at=t0)


def test_a_ruling_is_recorded_with_the_window_checked(started, floor_user):
    now = timezone.now()
    body = {
        "asked_by": "Seat 4 (Anna Bianchi)",
        "question": "Was the all-in called?",
        "decision": "Call stands.",
        "table_number": 2,
        "hand": "#57",
        "window": "BREAK",
        "disputed_at": (now - timedelta(seconds=90)).isoformat(),
        "asked_at": now.isoformat(),
    }
    r = client_for(floor_user).post(f"/api/v1/tournaments/{started.pk}/rulings/", body, format="json")
    assert r.status_code == 201 and r.data["late"] and "dispute window" in r.data["warning"]
    assert r.data["decided_by"] == floor_user.username and r.data["table_number"] == 2
    on_time = {**body, "disputed_at": (now - timedelta(seconds=30)).isoformat()}
    r = client_for(floor_user).post(f"/api/v1/tournaments/{started.pk}/rulings/", on_time, format="json")
    assert r.status_code == 201 and not r.data["late"] and r.data["warning"] == ""
    assert started.events.filter(action="tournaments.ruling.recorded").count() == 2


def test_the_break_window_is_a_house_setting(started, floor_user):
    started.settings = {**(started.settings or {}), "ruling_break_window_seconds": 120}
    started.save()
    now = timezone.now()
    r = oversight.record_ruling(
        started, asked_by="x", question="q", decision="d", window=Ruling.BREAK, disputed_at=now - timedelta(seconds=90), asked_at=now, actor=Actor(floor_user)
    )
    assert not r.late


def test_a_ruling_is_final_and_only_annotated(started, floor_user, director, cashier_user, controller_user):
    r = oversight.record_ruling(started, asked_by="Bruno", question="q?", decision="Dead hand.", actor=Actor(floor_user))
    with pytest.raises(TypeError):
        r.decision = "changed"
        r.save()
    with pytest.raises(TypeError):
        Ruling.objects.filter(pk=r.pk).update(decision="changed")
    resp = client_for(director).post(f"/api/v1/tournaments/{started.pk}/rulings/{r.pk}/notes/", {"text": "Player informed."}, format="json")
    assert resp.status_code == 201 and resp.data["decision"] == "Dead hand."
    assert [n["text"] for n in resp.data["notes"]] == ["Player informed."]
    # the desk does not rule; the controller reads but does not rule
    assert (
        client_for(cashier_user)
        .post(f"/api/v1/tournaments/{started.pk}/rulings/", {"asked_by": "x", "question": "q", "decision": "d"}, format="json")
        .status_code
        == 403
    )
    assert client_for(controller_user).post(f"/api/v1/tournaments/{started.pk}/rulings/{r.pk}/notes/", {"text": "x"}, format="json").status_code == 403
    assert [x["id"] for x in client_for(controller_user).get(f"/api/v1/tournaments/{started.pk}/rulings/").data["rulings"]] == [r.pk]
    other = Tournament.objects.create(name="Other", start_at=started.start_at, buy_in=1, starting_stack=100)
    resp = client_for(director).post(f"/api/v1/tournaments/{other.pk}/rulings/{r.pk}/notes/", {"text": "x"}, format="json")
    assert resp.status_code == 404 and resp.data["code"] == "no_such_ruling"


def test_bad_ruling_input_is_a_4xx_and_writes_nothing(started, floor_user):
    client = client_for(floor_user)
    for body in (
        {"asked_by": "", "question": "q", "decision": "d"},
        {"asked_by": "x", "question": "q", "decision": "d", "window": "BREAK"},
        {"asked_by": "x", "question": "q", "decision": "d", "asked_at": (timezone.now() + timedelta(hours=2)).isoformat()},
        ["not", "an", "object"],
    ):
        r = client.post(f"/api/v1/tournaments/{started.pk}/rulings/", body, format="json")
        assert 400 <= r.status_code < 500 and "code" in r.json(), body
    assert not Ruling.objects.exists()


def test_the_floor_records_a_ruling_on_its_page_and_the_report_prints_it(started, floor_user, director):
    page = Client()
    page.force_login(floor_user)
    assert 'id="rulings-link"' in page.get(f"/tournaments/{started.pk}/floor/").content.decode()
    late = (timezone.now() - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M:%S")
    r = page.post(
        f"/tournaments/{started.pk}/rulings/",
        {
            "op": "record",
            "asked_by": "Carla Bianchi",
            "question": "Misdeal?",
            "decision": "Misdeal, redeal.",
            "window": "HAND",
            "next_hand_at": late,
            "table_number": "1",
        },
        follow=True,
    )
    html = r.content.decode()
    assert "Misdeal, redeal." in html and "dispute window" in html
    assert f"/tournaments/{started.pk}/payouts/reports/rulings.pdf" in html
    ruling = Ruling.objects.get()
    assert ruling.late and ruling.decided_by == floor_user
    page.post(f"/tournaments/{started.pk}/rulings/", {"op": "annotate", "ruling": ruling.pk, "text": "TD confirmed."})
    report = reports.build(started, "rulings")
    assert report["rows"][0][4:7] == ["Carla Bianchi", "Misdeal?", "Misdeal, redeal."] and "TD confirmed." in report["rows"][0][10]
    assert dict((str(k), v) for k, v in report["totals"])["Asked late"] == "1"
    boss = Client()
    boss.force_login(director)
    pdf = boss.get(f"/tournaments/{started.pk}/payouts/reports/rulings.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_a_regulator_reads_the_rulings_of_his_tournament(started, floor_user, director):
    oversight.record_ruling(started, asked_by="x", question="q", decision="Chips stay.", actor=Actor(floor_user))
    reg = make_user("corpo", "regulator")
    oversight.set_regulator_access(started, "corpo", granted=True, actor=Actor(director))
    page = Client()
    page.force_login(reg)
    html = page.get(f"/tournaments/{started.pk}/rulings/").content.decode()
    assert "Chips stay." in html and 'id="new-ruling"' not in html and 'value="annotate"' not in html
    assert "Chips stay." in page.get(f"/tournaments/{started.pk}/payouts/reports/rulings.csv").content.decode()


# --- ELM-07: the signatures print on the ranking and the payments report -----------------------------


def test_the_two_signatures_print_on_the_ranking_and_the_payments_report(started, director, controller_user, cashier_user):
    director.first_name, director.last_name = "Dora", "Direttrice"
    director.save()
    controller_user.first_name, controller_user.last_name = "Cora", "Conti"
    controller_user.save()
    payouts.lock_payout_table(started, actor=Actor(director))
    winner = started.entries.order_by("number").first()
    winner.status, winner.place = "BUSTED", 1
    winner.save()
    assert reports.payments(started)["signatures"] == []
    assert "not signed" in reports.to_csv(reports.payments(started))
    payouts.sign_off_ranking(started, actor=Actor(director))
    r = client_for(controller_user).post(f"/api/v1/tournaments/{started.pk}/payouts/signoff/")
    assert r.status_code == 201 and r.data["released_places"] == [1]
    payouts.pay_prize(winner, method="TRANSFER", reference="IBAN-1", actor=Actor(cashier_user))
    for name in ("payments", "standings"):
        data = client_for(cashier_user).get(f"/api/v1/tournaments/{started.pk}/payouts/reports/{name}/").data
        assert [(s["name"], s["role"]) for s in data["signatures"]] == [("Dora Direttrice", "director"), ("Cora Conti", "administrative controller")]
        csv_text = reports.to_csv(reports.build(started, name))
        assert "Dora Direttrice,director," in csv_text and "Cora Conti,administrative controller," in csv_text
    page = Client()
    page.force_login(controller_user)
    html = page.get(f"/tournaments/{started.pk}/payouts/").content.decode()
    assert "Dora Direttrice (director" in html and "Cora Conti (administrative controller" in html


def test_the_demo_makes_a_controller_and_a_regulator_who_reads_its_tournament(db):
    call_command("createdirector", "director", password="pw-director", stdout=io.StringIO())
    call_command("demo", stdout=io.StringIO())
    users = get_user_model().objects
    assert users.get(username="controller").groups.filter(name="controller").exists()
    grant = RegulatorGrant.objects.get()
    assert grant.user.username == "regulator" and grant.user.groups.filter(name="regulator").exists()


# --- ROLE-05: the rulings report, read whole ----------------------------------------------------


def _rulings_at(t, floor_user, director):
    """Two rulings: the director's, asked late at a break, at table 2, with two notes; the floor's,
    at no table, in time, with none (the floor has no full name: his username)."""
    director.first_name, director.last_name = "Dora", "Direttrice"
    director.save()
    rome = ZoneInfo("Europe/Rome")
    with time_machine.travel(datetime(2026, 12, 1, 21, 5, 30, tzinfo=rome), tick=False):
        now = timezone.now()
        first = oversight.record_ruling(
            t,
            asked_by="Seat 4 (Anna Bianchi)",
            question="Was the all-in called?",
            decision="Call stands.",
            table_number=2,
            hand="#57",
            window=Ruling.BREAK,
            disputed_at=now - timedelta(seconds=90),
            asked_at=now - timedelta(seconds=10),
            actor=Actor(director),
        )
    with time_machine.travel(datetime(2026, 12, 1, 21, 20, 0, tzinfo=rome), tick=False):
        second = oversight.record_ruling(t, asked_by="Bruno", question="Misdeal?", decision="Redeal.", actor=Actor(floor_user))
    with time_machine.travel(datetime(2026, 12, 1, 21, 30, 0, tzinfo=rome), tick=False):
        oversight.annotate_ruling(first.pk, "Player informed.", tournament=t, actor=Actor(floor_user))
    with time_machine.travel(datetime(2026, 12, 1, 21, 31, 15, tzinfo=rome), tick=False):
        oversight.annotate_ruling(first.pk, "TD confirmed.", tournament=t, actor=Actor(director))
    return first, second


def test_role05_the_rulings_report_prints_every_cell_of_each_ruling_and_its_notes(started, floor_user, director):
    first, second = _rulings_at(started, floor_user, director)
    report = reports.build(started, "rulings")
    assert report["title"] == "Rulings: " + started.name
    assert [str(c) for c in report["columns"]] == [
        "No.",
        "Asked",
        "Table",
        "Hand",
        "Asked by",
        "Question",
        "Decision",
        "Decided by",
        "Decided",
        "Window",
        "Notes",
    ]
    assert report["rows"] == [
        [
            str(first.pk),
            "01/12/2026 21:05:20",
            "2",
            "#57",
            "Seat 4 (Anna Bianchi)",
            "Was the all-in called?",
            "Call stands.",
            "Dora Direttrice",
            "01/12/2026 21:05:30",
            "late",
            "01/12 21:30 flo: Player informed. | 01/12 21:31 dora: TD confirmed.",
        ],
        [str(second.pk), "01/12/2026 21:20:00", "", "", "Bruno", "Misdeal?", "Redeal.", "flo", "01/12/2026 21:20:00", "", ""],
    ]
    assert [(str(k), v) for k, v in report["totals"]] == [("Rulings", "2"), ("Asked late", "1")]
    # The CSV the regulator downloads: the title, the columns, the rows, a blank line, the totals.
    lines = list(csv.reader(io.StringIO(reports.to_csv(report))))
    assert lines[0] == ["Rulings: " + started.name]
    assert lines[1][:3] == ["No.", "Asked", "Table"] and lines[2:4] == report["rows"]
    assert lines[4:] == [[], ["Rulings", "2"], ["Asked late", "1"]]
    # A note on the ruling asked in time makes it no later
    oversight.annotate_ruling(second.pk, "Cards reshuffled.", tournament=started, actor=Actor(floor_user))
    assert [(str(k), v) for k, v in reports.build(started, "rulings")["totals"]] == [("Rulings", "2"), ("Asked late", "1")]


def test_role05_the_rulings_report_reads_as_many_queries_for_three_rulings_as_for_one(started, floor_user, director):
    def queries() -> int:
        with CaptureQueriesContext(connection) as done:
            reports.build(started, "rulings")
        return len(done)

    ruling = oversight.record_ruling(started, asked_by="x", question="q", decision="d", actor=Actor(floor_user))
    oversight.annotate_ruling(ruling.pk, "seen", tournament=started, actor=Actor(floor_user))
    one = queries()
    for _ in range(2):
        ruling = oversight.record_ruling(started, asked_by="y", question="q", decision="d", actor=Actor(director))
        oversight.annotate_ruling(ruling.pk, "seen", tournament=started, actor=Actor(director))
    assert queries() == one


# --- ROLE-02: a bounty event's pre-start report, read whole -----------------------------------


def test_role02_a_bounty_event_s_prestart_report_reads_every_cell_and_total(make_tournament, make_person, cashier_actor):
    # A PKO: €50 buy-in + €50 bounty + €10 fee = €110 a stub. Carla has pre-registered (listed,
    # no stub); then Anna and Bruno buy in. The bounty has its column and its total from the start.
    t = make_tournament(name="PKO Friday", buy_in=Decimal("50"), fee=Decimal("10"), settings={"bounty": "PKO", "bounty_amount": "50"})
    carla = cashier.pre_register(t, make_person("Carla", "Bianchi", document_id="DOC-Carla"), actor=cashier_actor, channel="whatsapp")
    columns = ["Receipt", "Time", "Entry", "Player", "Document", "Stub", "Buy-in", "Fee", "Jackpot", "Bounty", "Amount", "Owed"]
    reserved = ["", "", str(carla.number), "Carla Bianchi", carla.person.document_masked, "Pre-registered", *["0.00"] * 6]
    r = reports.prestart(t)
    assert [str(c) for c in r["columns"]] == columns and r["rows"] == [reserved]
    assert ("Total bounty parts (apart from the prize pool)", "0.00") in [(str(k), v) for k, v in r["totals"]]
    sales = []
    for name, minute in (("Anna", 0), ("Bruno", 5)):
        with time_machine.travel(datetime(2026, 12, 1, 19, minute, 0, tzinfo=ZoneInfo("Europe/Rome")), tick=False):
            sales.append(cashier.register(t, make_person(name, "Rossi", document_id=f"DOC-{name}"), method="CASH", actor=cashier_actor))
    with time_machine.travel(datetime(2026, 12, 1, 19, 30, 0, tzinfo=ZoneInfo("Europe/Rome")), tick=False):
        r = reports.prestart(t)
    assert r["title"] == "Pre-start report: PKO Friday" and [str(c) for c in r["columns"]] == columns
    assert r["rows"] == [
        [
            str(s.row.receipt_number),
            f"01/12/2026 19:0{minute}",
            str(s.entry.number),
            f"{name} Rossi",
            s.entry.person.document_masked,
            "Buy-in",
            "50.00",
            "10.00",
            "0.00",
            "50.00",
            "110.00",
            "0.00",
        ]
        for s, name, minute in ((sales[0], "Anna", 0), (sales[1], "Bruno", 5))
    ] + [reserved]
    assert [(str(k), v) for k, v in r["totals"]] == [
        ("Registered", "3"),
        ("Stubs", "2"),
        ("Entries", "2"),
        ("Total buy-ins", "100.00"),
        ("Total fees", "20.00"),
        ("Total jackpot fees", "0.00"),
        ("Total bounty parts (apart from the prize pool)", "100.00"),
        ("Total", "220.00"),
        ("Receivables: still owed", "0.00"),
        ("Generated", "01/12/2026 19:30"),
    ]


def test_role02_an_addendum_keeps_its_own_stubs_and_the_time_it_was_issued_once_later_ones_follow(started, make_person, cashier_actor):
    rome = ZoneInfo("Europe/Rome")
    dario = _late_sale(started, make_person("Dario", "Late"), cashier_actor)
    with time_machine.travel(datetime(2026, 12, 1, 21, 15, 0, tzinfo=rome), tick=False):
        oversight.issue_stub_addendum(started, actor=cashier_actor)
    _late_sale(started, make_person("Elena", "Later"), cashier_actor)
    oversight.issue_stub_addendum(started, actor=cashier_actor)
    first = reports.build(started, "addendum-1")
    assert first["title"] == f"Addendum 1 to the pre-start report: {started.name}"
    assert [row[0] for row in first["rows"]] == [str(dario.row.receipt_number)]
    totals = [(str(k), v) for k, v in first["totals"]]
    assert totals[0] == ("Stubs", "1") and totals[-1] == ("Issued", "01/12/2026 21:15")
    # The pre-start report counts the three registered before the start, never the late two.
    assert dict((str(k), v) for k, v in reports.prestart(started)["totals"])["Registered"] == "3"


def test_role02_each_report_goes_by_its_name_and_an_addendum_by_the_number_it_was_issued(started, make_person, cashier_actor):
    titles = {
        "prestart": f"Pre-start report: {started.name}",
        "standings": f"Final standings: {started.name}",
        "payments": f"Prize payments: {started.name}",
        "reconciliation": f"Reconciliation: {started.name}",
        "rulings": f"Rulings: {started.name}",
    }
    for name, title in titles.items():
        assert reports.is_report(started, name) and reports.build(started, name)["title"] == title
    assert not reports.is_report(started, "addendum-1")  # none issued yet
    _late_sale(started, make_person("Dario", "Late"), cashier_actor)
    oversight.issue_stub_addendum(started, actor=cashier_actor)
    assert reports.is_report(started, "addendum-1") and reports.is_report(started, "addendum-01")
    assert reports.build(started, "addendum-1")["title"] == f"Addendum 1 to the pre-start report: {started.name}"
    # Not a report: a number not issued, not a number, another report's name with a number, a
    # name written otherwise, a number of more digits than any addendum has, a digit not ASCII.
    for name in (
        "addendum-2",
        "addendum-",
        "addendum-abc",
        "addendum-1x",
        "standings-1",
        "rulings-1",
        "Addendum-1",
        "PRESTART",
        "addendum",
        "1",
        "addendum-9999999999",
        "addendum-¹",
    ):
        assert not reports.is_report(started, name), name
