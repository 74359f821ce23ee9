"""PAY-11: ticket prizes carry holder, value, valid events and a non-transferable flag;
redemption at the cashier checks the holder's identity (003 Allegato 1: «personali e non
cedibili», valid for IPT and EPT tournaments). A series ticket is redeemable for any one of its
events, and only through the desk's admission check (``cashier.check_admission``)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from payouts import selectors, services
from payouts.models import Ticket
from tdmanager.errors import DomainError
from tests.conftest import client_for
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def events(make_tournament):
    ipt = make_tournament(name="IPT Main", buy_in=D("500"), fee=D("50"))
    ept = make_tournament(name="EPT National", buy_in=D("500"), fee=D("50"))
    other = make_tournament(name="Daily 50", buy_in=D("50"), fee=D("20"))
    return ipt, ept, other


def test_pay11_a_series_ticket_is_redeemed_for_one_of_its_events_after_the_id_check(events, make_person, director, cashier_user):
    ipt, ept, other = events
    holder = make_person("Sara", "Conti")
    boss = client_for(director)
    r = boss.post(
        "/api/v1/payouts/tickets/", {"holder": holder.pk, "value": "550", "description": "IPT/EPT ticket", "valid_events": [ipt.pk, ept.pk]}, format="json"
    )
    assert r.status_code == 201, r.json()
    ticket_id = r.json()["id"]
    assert sorted(e["name"] for e in r.json()["events"]) == ["EPT National", "IPT Main"]
    assert r.json()["non_transferable"] is True and r.json()["holder_name"] == "Sara Conti"

    desk = client_for(cashier_user)
    listed = desk.get(f"/api/v1/payouts/tickets/?person={holder.pk}").json()
    assert [k["id"] for k in listed] == [ticket_id] and listed[0]["value"] == "550.00"
    url = f"/api/v1/payouts/tickets/{ticket_id}/redeem/"
    r = desk.post(url, {"tournament": ept.pk}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 400 and r.json()["code"] == "id_check_required" and "Sara Conti" in r.json()["detail"]
    assert "documento" in r.json()["detail"]
    r = desk.post(url, {"tournament": other.pk, "id_checked": True}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "ticket_not_valid_here"
    r = desk.post(url, {"tournament": ept.pk, "id_checked": True}, format="json")
    assert r.status_code == 201, r.json()
    entry = Entry.objects.get(pk=r.json()["entry"])
    assert entry.tournament == ept and entry.person == holder and entry.status == Entry.ACTIVE
    assert Ticket.objects.get(pk=ticket_id).status == Ticket.REDEEMED
    assert ept.events.get(action="payouts.ticket.redeemed").payload["id_checked"] is True
    r = desk.post(url, {"tournament": ipt.pk, "id_checked": True}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "ticket_used"  # one entry per ticket


def test_pay11_a_series_ticket_still_goes_through_the_desks_admission_check(events, make_person, actor, cashier_actor):
    ipt, ept, _other = events
    banned = make_person("Ugo", "Bando", banned=True, banned_reason="casino exclusion")
    ticket = services.issue_ticket(banned, value="550", actor=actor, valid_events=[ipt, ept])
    with pytest.raises(DomainError) as e:
        services.redeem_ticket(ticket, actor=cashier_actor, tournament=ipt, id_checked=True)
    assert e.value.code == "banned"
    assert not Entry.objects.filter(person=banned).exists()


def test_pay11_a_ticket_for_one_event_is_refused_elsewhere_and_needs_the_id_check(events, make_person, actor, cashier_actor):
    ipt, _ept, other = events
    holder = make_person()
    ticket = services.issue_ticket(holder, value="550", actor=actor, target=ipt)
    with pytest.raises(DomainError) as e:
        services.redeem_ticket(ticket, actor=cashier_actor, tournament=other, id_checked=True)
    assert e.value.code == "ticket_not_valid_here"
    with pytest.raises(DomainError) as e:
        services.redeem_ticket(ticket, actor=cashier_actor, tournament=ipt)
    assert e.value.code == "id_check_required"
    assert services.redeem_ticket(ticket, actor=cashier_actor, id_checked=True).tournament == ipt
    with pytest.raises(DomainError) as e:
        services.issue_ticket(holder, value="550", actor=actor, target=ipt, valid_events=[other])
    assert e.value.code == "target_or_events"
    Tournament.objects.filter(pk=other.pk).update(status=Tournament.FINISHED)
    other.refresh_from_db()
    with pytest.raises(DomainError) as e:
        services.issue_ticket(holder, value="550", actor=Actor(None), valid_events=[other])
    assert e.value.code == "event_over"


def test_pay11_only_the_director_issues_tickets_and_the_desk_reads_them(events, make_person, cashier_user, floor_user):
    holder = make_person()
    body = {"holder": holder.pk, "value": "550", "valid_events": [events[0].pk]}
    assert client_for(cashier_user).post("/api/v1/payouts/tickets/", body, format="json").status_code == 403
    assert client_for(floor_user).get(f"/api/v1/payouts/tickets/?person={holder.pk}").status_code == 403
    assert client_for(cashier_user).get(f"/api/v1/payouts/tickets/?person={holder.pk}").status_code == 200


def test_pay11_the_desk_lists_a_players_tickets_unused_first_with_the_events_each_is_good_for(make_tournament, make_person, actor, cashier_actor):
    soon = timezone.now() + timedelta(days=1)
    later = make_tournament(name="EPT National", start_at=soon + timedelta(days=2), buy_in=D("500"), fee=D("50"))
    first = make_tournament(name="IPT Main", start_at=soon, buy_in=D("500"), fee=D("50"))
    holder = make_person("Sara", "Conti")
    used = services.issue_ticket(holder, value="550", actor=actor, target=first, description="IPT Main seat")
    series = services.issue_ticket(holder, value="550", actor=actor, valid_events=[later, first], description="IPT/EPT ticket")
    anywhere = services.issue_ticket(holder, value="110", actor=actor, description="House voucher")
    entry = services.redeem_ticket(used, actor=cashier_actor, id_checked=True)

    listed = selectors.tickets_of(holder)
    # The two still to use first (in the order issued), the redeemed one last.
    assert [t["id"] for t in listed] == [series.pk, anywhere.pk, used.pk]
    assert listed[0]["events"] == [{"id": first.pk, "name": "IPT Main"}, {"id": later.pk, "name": "EPT National"}]  # by date
    assert listed[0]["any_event"] is False and listed[0]["value"] == "550.00" and listed[0]["description"] == "IPT/EPT ticket"
    assert listed[1]["events"] == [] and listed[1]["any_event"] is True and listed[1]["value"] == "110.00"
    assert listed[2]["events"] == [{"id": first.pk, "name": "IPT Main"}] and listed[2]["any_event"] is False
    assert listed[2]["status"] == Ticket.REDEEMED and listed[2]["redeemed_entry"] == entry.pk
    assert listed[0]["holder"] == holder.pk and listed[0]["holder_name"] == "Sara Conti" and listed[0]["non_transferable"] is True
    assert listed[0]["redeemed_entry"] is None and listed[0]["status"] == Ticket.ISSUED
