"""Tournament lifecycle: open, start (minimum field), cancel with refunds."""

from decimal import Decimal

import pytest

from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.cashier.selectors import ledger_totals
from tournaments.models import Clock, Entry, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db


def test_start_is_blocked_below_the_minimum_unless_overridden(make_tournament, make_person, actor, cashier_actor):
    t = make_tournament(min_players=3)
    for _ in range(2):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    with pytest.raises(DomainError) as e:
        lifecycle.start(t, actor=actor)
    assert e.value.code == "below_minimum"
    t = lifecycle.start(t, actor=actor, override_minimum=True)
    assert t.status == Tournament.RUNNING and Clock.objects.filter(tournament=t).exists()
    assert t.events.filter(action="tournaments.tournament.started", payload__override_minimum=True).exists()


def test_cancelling_refunds_every_paid_entry_in_full(make_tournament, make_person, actor, cashier_actor):
    t = make_tournament()
    paid = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3)]
    reserved = cashier.pre_register(t, make_person(), actor=cashier_actor)
    lifecycle.cancel(t, actor=actor, reason="not enough players")
    assert set(Entry.objects.filter(tournament=t).values_list("status", flat=True)) == {Entry.CANCELLED}
    assert not t.ledger.filter(kind="REFUND").exists()  # issue #28: due at the desk, paid there by a cashier
    for entry in paid:
        cashier.pay_refund(entry, method="CASH", actor=cashier_actor)
    totals = ledger_totals(t)
    assert totals["prize"] == Decimal("0") and totals["fee"] == Decimal("0")
    assert t.ledger.filter(kind="REFUND").count() == len(paid) and reserved.ledger.count() == 0


def test_the_dashboard_and_desk_pages_check_roles(client, director, cashier_user, floor_user, outsider, tournament):
    client.force_login(outsider)
    assert client.get("/desk/").status_code == 403
    client.force_login(floor_user)
    assert client.get("/desk/").status_code == 403
    assert client.get("/").status_code == 200
    client.force_login(cashier_user)
    r = client.get("/desk/")
    assert r.status_code == 200 and tournament.name.encode() in r.content
    client.logout()
    assert client.get("/desk/").status_code == 302


def test_a_receipt_prints_as_html_and_pdf(client, cashier_user, tournament, person, cashier_actor):
    row = cashier.register(tournament, person, method="CASH", actor=cashier_actor).row
    client.force_login(cashier_user)
    html = client.get(f"/desk/receipt/{row.receipt_number}/").content.decode()
    assert "Mario Rossi" in html and "110.00" in html and f"#{row.receipt_number}" in html and "30,000" in html  # chips grouped by the language
    pdf = client.get(f"/desk/receipt/{row.receipt_number}.pdf")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_a_director_creates_a_tournament_from_the_page(client, director, structure):
    client.force_login(director)
    r = client.post(
        "/tournaments/new/",
        {
            "name": "Friday Deep",
            "start_at": "2026-12-04T20:00",
            "game": "NLHE",
            "format": "REENTRY",
            "currency": "EUR",
            "buy_in": "200",
            "fee": "20",
            "starting_stack": "50000",
            "table_size": "9",
            "min_players": "10",
            "structure": structure.pk,
            "late_reg_closes_after_level": "6",
            "late_reg_end": "END_OF_LEVEL",
            "max_entries_per_player": "2",
            "rebuy_fee": "0",
            "rebuy_stack_threshold": "0",
            "addon_fee": "0",
            "addon_max": "1",
            "rule_set": "TDA",
            "deductions_text": "casino 3\nstaff 4",
        },
    )
    assert r.status_code == 302, r.content
    t = Tournament.objects.get(name="Friday Deep")
    assert t.deductions == [{"name": "casino", "percent": "3"}, {"name": "staff", "percent": "4"}]


def test_a_sanremo_start_needs_the_prestart_report_confirmed(make_tournament, make_person, actor, cashier_actor):
    # RULES scenario 40 / ROLE-02.
    t = make_tournament(rule_set="SANREMO_003")
    for _ in range(2):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    with pytest.raises(DomainError) as e:
        lifecycle.start(t, actor=actor)
    assert e.value.code == "prestart_report_required"
    t = lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert t.status == Tournament.RUNNING
    assert t.events.filter(action="tournaments.tournament.started", payload__prestart_report_sent=True).exists()


def test_the_minimum_refusal_counts_one_payer_in_the_singular(make_tournament, make_person, actor, cashier_actor):
    # Issue #39: "Only 1 players have paid".
    from django.utils import translation

    t = make_tournament(min_players=3)
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    with pytest.raises(DomainError) as e:
        lifecycle.start(t, actor=actor)
    assert str(e.value.message) == "Only 1 player has paid; the minimum is 3."
    with translation.override("it"), pytest.raises(DomainError) as e:
        lifecycle.start(t, actor=actor)
    assert str(e.value.message) == "Solo 1 iscrizione pagata; il minimo è 3."
