"""PAY-01 (003 Art. 14): a tournament under the Sanremo rule set keeps 3 % of the buy-ins for
the casino unless the director types other deductions; the other rule sets take none by default.
Through the setup service, the API and the tournament page."""

from decimal import Decimal

import pytest

from payouts import selectors as sel
from tournaments.cashier import services as cashier
from tournaments.models import Tournament
from tournaments.setup import lifecycle
from tournaments.setup import services as setup

pytestmark = pytest.mark.django_db

D = Decimal


def values(structure, **kw):
    base = dict(name="Sanremo Main", start_at="2026-07-09T19:00:00Z", buy_in=D("100"), starting_stack=30000, structure=structure, rule_set="SANREMO_003")
    base.update(kw)
    return base


def sell(t, make_person, n, actor):
    for _ in range(n):
        cashier.register(t, make_person(), method="CARD", actor=actor)


def test_forty_sanremo_buy_ins_of_100_make_a_pool_of_3880(structure, actor, cashier_actor, make_person):
    t = setup.create_tournament(values(structure), actor=actor)
    lifecycle.open_registration(t, actor=actor)
    sell(t, make_person, 40, cashier_actor)
    # 40 × €100 = €4,000 of buy-ins; 3 % of it (€120) stays with the casino: €3,880.
    breakdown = sel.pool_breakdown(t)
    assert breakdown.collected == D("4000.00")
    assert breakdown.deductions == {"casino": D("120.00")}
    assert breakdown.total == D("3880.00")


def test_typed_deductions_replace_the_rule_sets_and_other_rule_sets_take_none(structure, actor):
    typed = setup.create_tournament(values(structure, name="Typed", deductions=[{"name": "casino", "percent": "5"}]), actor=actor)
    assert typed.deductions == [{"name": "casino", "percent": "5"}]
    none = setup.create_tournament(values(structure, name="None asked", deductions=[]), actor=actor)
    assert none.deductions == []
    tda = setup.create_tournament(values(structure, name="TDA", rule_set="TDA"), actor=actor)
    assert tda.deductions == []


def test_the_api_and_the_page_give_a_sanremo_event_its_three_percent(client, director, structure):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(director)
    r = api.post(
        "/api/v1/tournaments/",
        {"name": "API", "start_at": "2026-07-09T19:00:00Z", "buy_in": "100", "starting_stack": 30000, "structure": structure.pk, "rule_set": "SANREMO_003"},
        format="json",
    )
    assert r.status_code == 201, r.json()
    assert r.json()["deductions"] == [{"name": "casino", "percent": "3"}]
    client.force_login(director)
    page = client.get("/tournaments/new/").content.decode()
    assert "&#x27;casino 3&#x27; under Sanremo" in page or "'casino 3' under Sanremo" in page
    form = {
        "name": "Page",
        "start_at": "2026-07-09T19:00",
        "game": "NLHE",
        "format": "FREEZEOUT",
        "currency": "EUR",
        "buy_in": "100",
        "starting_stack": "30000",
        "table_size": "9",
        "min_players": "10",
        "structure": structure.pk,
        "late_reg_end": "END_OF_LEVEL",
        "max_entries_per_player": "1",
        "rebuy_stack_threshold": "0",
        "addon_max": "1",
        "rule_set": "SANREMO_003",
        "fee_preset": "STATUTORY",
        "rebuy_fee": "0",
        "addon_fee": "0",
        "deductions_text": "",
    }
    r = client.post("/tournaments/new/", form)
    assert r.status_code == 302, r.context["form"].errors
    t = Tournament.objects.get(name="Page")
    assert t.deductions == [{"name": "casino", "percent": "3"}]
    assert "casino 3" in client.get(f"/tournaments/{t.pk}/edit/").content.decode()


def test_pay01_a_re_entry_is_a_buy_in_too_and_loses_its_three_percent_once(structure, actor, cashier_actor, make_person):
    t = setup.create_tournament(values(structure, format=Tournament.REENTRY, max_entries_per_player=2, late_reg_closes_after_level=6), actor=actor)
    lifecycle.open_registration(t, actor=actor)
    again = make_person("Rita", "Rientro")
    first = cashier.register(t, again, method="CARD", actor=cashier_actor).entry
    cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    first.status = first.BUSTED
    first.save()
    cashier.reenter(t, again, method="CARD", actor=cashier_actor)
    # Three buy-ins of €100 (two of them Rita's): 3 % of €300 stays with the casino.
    breakdown = sel.pool_breakdown(t)
    assert (breakdown.collected, breakdown.deductions, breakdown.total) == (D("300.00"), {"casino": D("9.00")}, D("291.00"))
