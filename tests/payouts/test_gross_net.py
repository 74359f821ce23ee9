"""PAY-02: a guarantee is gross of the 4 % staff fee and the other deductions by default; the
lobby screens and the payout page label the prize pool they show (gross / net) and can show
both (house setting ``display_pool``)."""

from decimal import Decimal

import pytest
from django.test import Client

from payouts import selectors as sel
from tests.conftest import client_for
from tournaments.cashier import services as cashier
from tournaments.house import HouseRules

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def guaranteed(make_tournament, make_person, cashier_actor):
    """A €1,000 guarantee, 4 % staff fee, 5 × €100 collected: the house adds 500."""
    t = make_tournament(buy_in=D("100"), fee=D("10"), guarantee=D("1000"), deductions=[{"name": "staff service", "percent": "4"}])
    for _ in range(5):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    return t


def test_by_default_the_guarantee_is_gross_and_the_lobby_shows_the_net_labelled(guaranteed):
    t = guaranteed
    assert HouseRules.of(t).guarantee_is_gross and HouseRules.of(t).display_pool == "NET"
    s = sel.display_summary(t)
    assert (s["prize_pool"], s["prize_pool_label"], s["prize_pool_show"]) == ("960.00", "net", "NET")
    assert (s["guarantee"], s["guarantee_label"]) == ("1000.00", "gross")
    assert s["prize_pool_gross"] is None


@pytest.mark.parametrize(
    "show, pool, label, gross, net",
    [
        ("GROSS", "1000.00", "gross", "1000.00", None),
        ("BOTH", "960.00", "net", "1000.00", "960.00"),
    ],
)
def test_the_setting_says_which_figure_the_lobby_shows(guaranteed, show, pool, label, gross, net):
    t = guaranteed
    t.settings = {"display_pool": show}
    t.save()
    s = sel.display_summary(t)
    assert (s["prize_pool"], s["prize_pool_label"], s["prize_pool_gross"], s["prize_pool_net"]) == (pool, label, gross, net)


def test_a_net_guarantee_is_labelled_net_and_lifts_the_pool_after_deductions(make_tournament, make_person, cashier_actor):
    t = make_tournament(
        buy_in=D("100"),
        fee=D("0"),
        guarantee=D("1000"),
        deductions=[{"name": "staff service", "percent": "4"}],
        settings={"guarantee_is_gross": False, "display_pool": "BOTH"},
    )
    for _ in range(5):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    s = sel.display_summary(t)
    assert s["guarantee_label"] == "net" and s["prize_pool"] == "1000.00" and s["prize_pool_label"] == "net"


def test_the_api_the_live_snapshot_and_the_payout_page_carry_the_labels(guaranteed, director):
    t = guaranteed
    api = client_for(director)
    r = api.patch(f"/api/v1/tournaments/{t.pk}/", {"settings": {"display_pool": "EVERYTHING"}}, format="json")
    assert r.status_code == 400
    r = api.patch(f"/api/v1/tournaments/{t.pk}/", {"settings": {"display_pool": "BOTH"}}, format="json")
    assert r.status_code == 200, r.content
    display = api.get(f"/api/v1/tournaments/{t.pk}/payouts/").json()["display"]
    assert (display["prize_pool"], display["prize_pool_gross"], display["prize_pool_label"]) == ("960.00", "1000.00", "net")
    browser = Client()
    browser.force_login(director)
    snap = browser.get(f"/live/{t.pk}/state/").json()
    snap = snap.get("snap", snap)
    assert snap["prize_pool_show"] == "BOTH" and snap["prize_pool_gross"] == "1000.00"
    page = browser.get(f"/tournaments/{t.pk}/payouts/").content.decode()
    assert 'id="pool-gross"' in page and 'id="pool-total-label"' in page and 'id="guarantee"' in page


def test_pay02_two_side_prizes_with_the_same_name_each_come_out_of_the_gross_pool(guaranteed, actor):
    from payouts import services

    t = guaranteed
    assert sel.pool_breakdown(t).total == D("960.00")  # 1,000 gross less the 4 % staff fee
    services.create_side_pool(t, kind="CHIP_LEADER", name="Chip leader", key="chip-leader-1a", from_prize_pool="50", actor=actor)
    services.create_side_pool(t, kind="CHIP_LEADER", name="Chip leader", key="chip-leader-1b", from_prize_pool="50", actor=actor)
    b = sel.pool_breakdown(t)
    assert b.deductions == {"staff service": D("40.00"), "Chip leader": D("100.00")}
    assert (b.overlay, b.total) == (D("500.00"), D("860.00"))
