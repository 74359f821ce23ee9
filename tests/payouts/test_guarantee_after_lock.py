"""Found by the simulator (day seed 1900109, SQLite): a running satellite's payout table was
locked and published (one seat and the cash remainder), then its guarantee was raised to 2,500.
The prize pool followed the guarantee, the seats did not: the published table no longer added up
to the pool (``satellite_seats_and_remainder_make_its_pool``). A guarantee is part of the pool
the players are promised: once the table is locked and published, or a paid place is decided,
it no longer changes (PAY-05); the director unlocks the table first, and a satellite's table
goes back to the automatic proposal, whose seats follow the pool. The page, the API and every
other caller get the refusal from the setup service."""

from decimal import Decimal

import pytest
from django.test import Client

from payouts import reports, services
from payouts import selectors as psel
from payouts.models import PayoutTable
from tests.tournaments.test_tournament_setup import page_data
from tournaments.cashier import services as cashier
from tournaments.models import Entry, Tournament
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def satellite(make_tournament, make_person, cashier_actor, actor):
    """A NET satellite into a €1,000 + €100 Main Event: twelve €100 (+ €10) entries, one seat and
    the remainder in cash, running."""
    target = make_tournament(name="Main Event", buy_in=D("1000"), fee=D("100"))
    sat = make_tournament(name="Satellite", buy_in=D("100"), fee=D("10"), format=Tournament.SATELLITE)
    for _ in range(12):
        cashier.register(sat, make_person(), method="CASH", actor=cashier_actor)
    services.link_satellite(sat, target, actor=actor, prize_base="NET")
    sat.status = Tournament.RUNNING
    sat.save(update_fields=["status"])
    return sat


def seats(t) -> int:
    return sum(1 for p in psel.table_prizes(t) if p["kind"] == "SEAT")


def adds_up(t) -> bool:
    """The satellite's table (its seats and the cash) adds up to its pool (the simulator's invariant)."""
    return sum((p["amount"] for p in psel.table_prizes(t)), D(0)) == psel.satellite_pool(t)


def raise_guarantee(api, director, t, amount="2500", **headers):
    return api(director).patch(f"/api/v1/tournaments/{t.pk}/", {"guarantee": amount, "override_reason": "sponsor money"}, format="json", **headers)


def test_a_satellites_guarantee_does_not_change_under_its_locked_seats(satellite, api, director):
    r = api(director).post(f"/api/v1/tournaments/{satellite.pk}/payouts/table/lock/", {}, format="json")
    assert r.status_code == 200, r.content
    assert seats(satellite) == 1 and adds_up(satellite)

    r = raise_guarantee(api, director, satellite, HTTP_ACCEPT_LANGUAGE="it")
    assert (r.status_code, r.json()["code"]) == (409, "table_locked"), r.content
    assert "garantito" in r.json()["detail"] and "sblocca" in r.json()["detail"] and r.json()["fields"] == ["guarantee"]
    satellite.refresh_from_db()
    assert satellite.guarantee is None and seats(satellite) == 1 and adds_up(satellite)
    assert not satellite.changes.exists()  # no version announced to the lobby screens

    # the page calls the same service: the form shows the refusal and nothing is saved
    c = Client()
    c.force_login(director)
    page = c.post(f"/tournaments/{satellite.pk}/edit/", page_data(satellite, guarantee="2500", override_reason="sponsor money"))
    assert page.status_code == 200 and "the guarantee cannot change under it" in page.content.decode()
    satellite.refresh_from_db()
    assert satellite.guarantee is None and adds_up(satellite)


def test_unlocked_a_satellite_goes_back_to_its_automatic_seats_before_the_guarantee_changes(satellite, api, director, actor):
    services.lock_payout_table(satellite, actor=actor)
    services.unlock_payout_table(satellite, actor=actor, reason="sponsor money")
    assert psel.table_state(satellite) == PayoutTable.EDITED
    r = raise_guarantee(api, director, satellite)
    assert (r.status_code, r.json()["code"]) == (409, "table_edited"), r.content
    assert "automatic proposal" in r.json()["detail"] and adds_up(satellite)

    r = api(director).post(f"/api/v1/tournaments/{satellite.pk}/payouts/table/propose/", {}, format="json")
    assert r.status_code == 200, r.content
    r = raise_guarantee(api, director, satellite)
    assert r.status_code == 200, r.content
    satellite.refresh_from_db()
    assert psel.satellite_pool(satellite) == D("2500.00")
    assert seats(satellite) == 2 and adds_up(satellite)  # the seats followed the pool
    services.lock_payout_table(satellite, actor=actor)
    assert seats(satellite) == 2 and adds_up(satellite)


def test_no_event_changes_its_guarantee_once_its_table_is_locked_or_a_paid_place_decided(make_tournament, make_person, cashier_actor, actor, api, director):
    t = make_tournament(buy_in=D("100"), fee=D("10"), guarantee=D("1000"))
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(5)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    services.lock_payout_table(t, actor=actor)
    for amount in ("2500", None):  # raised or taken away, the pool would move under the table
        r = api(director).patch(f"/api/v1/tournaments/{t.pk}/", {"guarantee": amount, "override_reason": "sponsor"}, format="json")
        assert (r.status_code, r.json()["code"]) == (409, "table_locked"), r.content
    assert psel.prize_pool(t) == D("1000.00")

    services.unlock_payout_table(t, actor=actor, reason="a place decided")
    places = psel.places_paid(t)
    last = entries[-1]
    last.status, last.place = Entry.BUSTED, places  # a player finished in the last paid place
    last.save(update_fields=["status", "place"])
    r = api(director).patch(f"/api/v1/tournaments/{t.pk}/", {"guarantee": "2500", "override_reason": "sponsor"}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "prize_places_decided"), r.content
    t.refresh_from_db()
    assert t.guarantee == D("1000.00") and reports.reconciliation_data(t)["balanced"]
