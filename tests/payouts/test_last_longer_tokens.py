"""REG-10: «al momento della registrazione in cassa riceverà una fiche o placca speciale»: the
Last Longer chip or plaque handed to each pre-registered participant is recorded (which one, to
whom, when, by whom), logged, and listed for the staff, never on the lobby."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from payouts import services
from tdmanager.errors import DomainError
from tests.conftest import client_for
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.live.snapshot import build_snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def last_longer(tournament, make_person, cashier_actor, actor):
    booked = cashier.pre_register(tournament, make_person("Lia", "Bruni"), actor=cashier_actor)
    booked = cashier.pay_reservation(booked, method="CASH", actor=cashier_actor).entry
    walk_in = cashier.register(tournament, make_person("Walter", "Inn"), method="CASH", actor=cashier_actor).entry
    pool = services.create_side_pool(tournament, kind="LAST_LONGER", name="Last Longer", actor=actor)
    return tournament, pool, booked, walk_in


def test_reg10_the_desk_records_which_plaque_each_pre_registered_player_got(last_longer, cashier_user, director):
    t, pool, booked, walk_in = last_longer
    desk = client_for(cashier_user)
    url = f"/api/v1/payouts/side-pools/{pool.pk}/token/"
    r = desk.post(url, {"entry": booked.pk, "label": "P-07"}, format="json")
    assert r.status_code == 201, r.json()
    row = next(p for p in r.json() if p["id"] == pool.pk)
    assert [(k["entry"], k["label"], k["issued_by"]) for k in row["tokens"]] == [(booked.pk, "P-07", "carl")]
    assert row["tokens"][0]["issued_at"]
    event = t.events.get(action="payouts.last_longer.token_issued")
    assert event.payload["label"] == "P-07" and event.payload["entry"] == booked.pk and event.actor == cashier_user

    # The staff read it; the lobby shows the pool, never who holds a plaque.
    listed = client_for(director).get(f"/api/v1/tournaments/{t.pk}/payouts/side-pools/").json()
    assert next(p for p in listed if p["id"] == pool.pk)["tokens"][0]["label"] == "P-07"
    lobby = build_snapshot(t)
    assert "P-07" not in str(lobby)
    assert [p["name"] for p in lobby["side_pools"]] == ["Last Longer"]  # the side prize itself is shown


def test_reg10_only_pre_registered_players_once_each_and_each_plaque_once(last_longer, cashier_actor, make_person):
    t, pool, booked, walk_in = last_longer
    with pytest.raises(DomainError) as e:
        services.issue_side_token(pool, walk_in, label="P-01", actor=cashier_actor)
    assert e.value.code == "not_pre_registered"
    services.issue_side_token(pool, booked, label="P-01", actor=cashier_actor)
    with pytest.raises(DomainError) as e:
        services.issue_side_token(pool, booked, label="P-02", actor=cashier_actor)
    assert e.value.code == "token_already_issued"
    other = cashier.pre_register(t, make_person("Olga", "Tre"), actor=cashier_actor)
    other = cashier.pay_reservation(other, method="CASH", actor=cashier_actor).entry
    with pytest.raises(DomainError) as e:
        services.issue_side_token(pool, other, label="P-01", actor=cashier_actor)
    assert e.value.code == "token_label_taken"
    with pytest.raises(DomainError) as e:
        services.issue_side_token(pool, other, label="  ", actor=cashier_actor)
    assert e.value.code == "label_required"


def test_reg10_the_payouts_page_lists_and_records_the_plaques(last_longer, cashier_user, floor_user):
    t, pool, booked, walk_in = last_longer
    page = Client()
    page.force_login(cashier_user)
    r = page.post(f"/tournaments/{t.pk}/payouts/", {"op": "token", "pool": pool.pk, "entry_number": booked.number, "label": "P-12"}, follow=True)
    html = r.content.decode()
    assert f'id="last-longer-{pool.pk}"' in html and "P-12" in html and "Lia Bruni" in html
    assert pool.tokens.get().label == "P-12"
    floor = Client()
    floor.force_login(floor_user)  # the floor reads the list but hands nothing over
    assert floor.post(f"/tournaments/{t.pk}/payouts/", {"op": "token", "pool": pool.pk, "entry_number": booked.number, "label": "P-13"}).status_code == 403
    assert "P-12" in floor.get(f"/tournaments/{t.pk}/payouts/").content.decode()


def _booked(t, who, cashier_actor):
    return cashier.pay_reservation(cashier.pre_register(t, who, actor=cashier_actor), method="CASH", actor=cashier_actor).entry


def test_reg10_the_staff_list_shows_the_pools_money_and_the_plaques_in_the_order_handed_over(last_longer, cashier_actor, actor, make_person, director):
    """The staff's list of side pools: the Last Longer's money (60.00 put in, 20.00 awarded, 40.00
    left) and, before any plaque, an empty list of plaques. The plaques are listed by the time
    they were handed over (the service takes that time), not by the order they were entered; a
    plaque recorded by the system (no one signed in) names no one as its giver."""
    t, pool, booked, walk_in = last_longer
    other = _booked(t, make_person("Olga", "Tre"), cashier_actor)
    services.contribute_side_pool(pool, Decimal("60"), actor=actor)
    services.award_side_pool(pool, awards=[(booked, Decimal("20"))], actor=actor)
    staff = client_for(director)
    url = f"/api/v1/tournaments/{t.pk}/payouts/side-pools/"
    assert staff.get(url).json() == [{"id": pool.pk, "name": "Last Longer", "kind": "LAST_LONGER", "amount": "60.00", "left": "40.00", "tokens": []}]
    t0 = timezone.now().replace(microsecond=0)
    services.issue_side_token(pool, booked, label="P-07", actor=cashier_actor, now=t0 + timedelta(minutes=5))
    services.issue_side_token(pool, other, label="P-03", actor=Actor(None, "system"), now=t0)  # handed over first, recorded second
    [row] = staff.get(url).json()
    assert [(k["entry"], k["entry_number"], k["name"], k["label"], k["issued_by"]) for k in row["tokens"]] == [
        (other.pk, other.number, "Olga Tre", "P-03", ""),
        (booked.pk, booked.number, "Lia Bruni", "P-07", "carl"),
    ]


def test_reg10_the_staff_list_reads_the_plaques_in_as_many_queries_for_one_as_for_three(last_longer, cashier_actor, make_person, director):
    """The list is read again after each plaque at the desk: its queries do not grow with the
    plaques handed over (each plaque's player and giver come with it)."""
    t, pool, booked, walk_in = last_longer
    staff = client_for(director)
    url = f"/api/v1/tournaments/{t.pk}/payouts/side-pools/"
    services.issue_side_token(pool, booked, label="P-01", actor=cashier_actor)
    staff.get(url)  # the first request also reads the user's roles
    with CaptureQueriesContext(connection) as one:
        assert len(staff.get(url).json()[0]["tokens"]) == 1
    for label, name in (("P-02", "Ada"), ("P-03", "Bea")):
        services.issue_side_token(pool, _booked(t, make_person(name, "Rossi"), cashier_actor), label=label, actor=cashier_actor)
    with CaptureQueriesContext(connection) as three:
        assert len(staff.get(url).json()[0]["tokens"]) == 3
    assert len(three.captured_queries) == len(one.captured_queries)
