"""The payouts pages: what the director, the cashier and the floor see."""

from decimal import Decimal

import pytest
from django.test import Client

from payouts import services
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.live.snapshot import build_snapshot
from tournaments.models import Entry

pytestmark = pytest.mark.django_db
D = Decimal


def login(user):
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def field(tournament, make_person, cashier_actor):
    return [cashier.register(tournament, make_person(), method="CARD", actor=cashier_actor).entry for _ in range(20)]


def test_the_payouts_page_shows_pool_and_ladder(tournament, field, director):
    r = login(director).get(f"/tournaments/{tournament.pk}/payouts/")
    html = r.content.decode()
    assert r.status_code == 200 and "€2,000.00" in html and 'id="ladder"' in html
    r = login(director).post(f"/tournaments/{tournament.pk}/payouts/", {"op": "edit", "prizes": "1 1500\n2 600"}, follow=True)
    assert "The prizes add up to 2,100.00 but the prize pool is 2,000.00" in r.content.decode()
    r = login(director).post(f"/tournaments/{tournament.pk}/payouts/", {"op": "edit", "prizes": "1 1400\n2 600\n3 0 ITEM Chip set"}, follow=True)
    assert "Item: Chip set" in r.content.decode()
    login(director).post(f"/tournaments/{tournament.pk}/payouts/", {"op": "lock"})
    page = login(director).get(f"/tournaments/{tournament.pk}/payouts/").content.decode()
    assert 'data-state="LOCKED">Locked and published<' in page  # the state by its label, never the code


def test_the_tournament_page_links_to_payouts(tournament, director):
    html = login(director).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f"/tournaments/{tournament.pk}/payouts/" in html and "/payouts/due/" in html


def test_a_cashier_cannot_edit_the_table(tournament, field, cashier_user):
    r = login(cashier_user).post(f"/tournaments/{tournament.pk}/payouts/", {"op": "lock"})
    assert r.status_code == 403


def test_lobby_snapshot_carries_pool_and_payouts(tournament, field):
    snap = build_snapshot(tournament)
    assert snap["prize_pool"] == "2000.00" and snap["prize_pool_label"] == "net"
    assert snap["places_paid"] == 3 and snap["payouts"][0]["places"] == "1"


def test_due_page_and_slip(tournament, field, director, cashier_user):
    services.lock_payout_table(tournament, actor=Actor(director))
    e = field[0]
    e.status, e.place = Entry.BUSTED, 1
    e.save()
    html = login(cashier_user).get(f"/payouts/due/?t={tournament.pk}").content.decode()
    assert e.person.full_name in html and "waiting for ranking sign-off" in html
    services.sign_off_ranking(tournament, actor=Actor(director))
    services.sign_off_ranking(tournament, actor=Actor(make_user("ctrl", "controller")))
    html = login(cashier_user).get(f"/payouts/due/?t={tournament.pk}").content.decode()
    assert 'form class="pay' in html
    pay = services.pay_prize(e, method="CASH", actor=Actor(cashier_user))
    n = pay.row.receipt_number
    slip = login(cashier_user).get(f"/payouts/slip/{n}/").content.decode()
    assert e.person.full_name in slip and "signature" in slip.lower() and f"#{n}" in slip
    pdf = login(cashier_user).get(f"/payouts/slip/{n}.pdf")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_report_downloads(tournament, field, director, outsider):
    r = login(director).get(f"/tournaments/{tournament.pk}/payouts/reports/reconciliation.csv")
    assert r.status_code == 200 and b"Money in: total,2200.00" in r.content
    assert login(director).get(f"/tournaments/{tournament.pk}/payouts/reports/standings.pdf").content.startswith(b"%PDF")
    assert login(outsider).get(f"/tournaments/{tournament.pk}/payouts/reports/standings.pdf").status_code == 403


def test_deal_page_lists_the_players_left(tournament, field, director):
    html = login(director).get(f"/tournaments/{tournament.pk}/payouts/deal/").content.decode()
    assert html.count('class="stack"') == 20 and "PAY-09" in html
