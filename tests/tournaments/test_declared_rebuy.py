"""FMT-04 / TDA 27: «Players declaring intent to rebuy before a hand are playing chips behind and
must make the re-buy». The declaration is recorded as an obligation the desk collects through its
normal rebuy sale (``cashier.rebuy`` → ``check_admission``), even once the player's stack grew
back or the rebuy period ended after he declared."""

from decimal import Decimal

import pytest

from tests.conftest import client_for
from tournaments.cashier import services as cashier
from tournaments.cashier.services import DeskError
from tournaments.models import Entry, LedgerRow, Tournament

from .helpers import item_index_of_level, run_clock_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def rebuy_t(make_tournament):
    # Rebuys until the end of level 3, only when busted (threshold 0), 50 + 5 for 30,000 chips.
    return make_tournament(
        format=Tournament.REBUY,
        status=Tournament.RUNNING,
        rebuy_price=Decimal("50"),
        rebuy_fee=Decimal("5"),
        rebuy_chips=30000,
        rebuy_until_level=3,
        rebuy_stack_threshold=0,
    )


def test_fmt04_a_rebuy_declared_before_the_hand_is_collected_after_the_period_whatever_the_stack(rebuy_t, make_person, cashier_actor, floor_user):
    run_clock_at(rebuy_t, item_index_of_level(rebuy_t, 3))
    p, q = make_person("Piero"), make_person("Quinto")
    e = cashier.register(rebuy_t, p, method="CASH", actor=cashier_actor).entry
    other = cashier.register(rebuy_t, q, method="CASH", actor=cashier_actor).entry

    # Level 3: Piero still has 2,000 in front of him and declares the rebuy before the hand.
    declared = cashier.declare_rebuy(e, actor=cashier_actor, stack=2000)
    assert declared.rebuy_declared_at is not None
    assert rebuy_t.events.filter(action="cashier.rebuy.declared", payload__entry=e.pk).count() == 1
    listed = client_for(floor_user).get(f"/api/v1/tournaments/{rebuy_t.pk}/declared-rebuys/")
    assert listed.status_code == 200
    assert [(d["entry"], d["amount"]) for d in listed.json()["declared"]] == [(e.pk, "55.00")]

    # Level 4: the period is over. He doubled up meanwhile; he is still bound to the rebuy.
    run_clock_at(rebuy_t, item_index_of_level(rebuy_t, 4))
    with pytest.raises(DeskError) as refused:
        cashier.rebuy(other, method="CASH", actor=cashier_actor, stack=0)
    assert refused.value.code == "rebuy_period_over"  # nobody else rebuys now
    sale = cashier.rebuy(e, method="CASH", actor=cashier_actor)  # no stack asked: it is owed
    assert (sale.row.kind, sale.row.total, sale.row.chips) == (LedgerRow.REBUY, Decimal("55.00"), 30000)
    e.refresh_from_db()
    assert (e.rebuys, e.chips, e.rebuy_declared_at) == (1, 60000, None)
    assert client_for(floor_user).get(f"/api/v1/tournaments/{rebuy_t.pk}/declared-rebuys/").json()["declared"] == []


def test_fmt04_declaring_asks_the_desk_rules_and_once_only(rebuy_t, make_tournament, make_person, cashier_actor):
    run_clock_at(rebuy_t, item_index_of_level(rebuy_t, 2))
    e = cashier.register(rebuy_t, make_person(), method="CASH", actor=cashier_actor).entry
    cashier.declare_rebuy(e, actor=cashier_actor, stack=500)
    with pytest.raises(DeskError) as twice:
        cashier.declare_rebuy(e, actor=cashier_actor, stack=500)
    assert twice.value.code == "rebuy_already_declared"

    # After the period nobody declares a rebuy (the same window as a sale).
    late = cashier.register(rebuy_t, make_person(), method="CASH", actor=cashier_actor).entry
    run_clock_at(rebuy_t, item_index_of_level(rebuy_t, 4))
    with pytest.raises(DeskError) as closed:
        cashier.declare_rebuy(late, actor=cashier_actor, stack=0)
    assert closed.value.code == "rebuy_period_over"

    # A freezeout has no rebuy to declare.
    free = make_tournament(name="Freeze", format=Tournament.FREEZEOUT, status=Tournament.RUNNING)
    fe = cashier.register(free, make_person(), method="CASH", actor=cashier_actor).entry
    with pytest.raises(DeskError) as none:
        cashier.declare_rebuy(fe, actor=cashier_actor, stack=0)
    assert none.value.code == "rebuy_not_allowed"


def test_fmt04_a_declared_rebuy_binds_a_player_who_then_busts(rebuy_t, make_person, cashier_actor):
    run_clock_at(rebuy_t, item_index_of_level(rebuy_t, 3))
    e = cashier.register(rebuy_t, make_person(), method="CASH", actor=cashier_actor).entry
    cashier.declare_rebuy(e, actor=cashier_actor, stack=800)
    Entry.objects.filter(pk=e.pk).update(status=Entry.BUSTED)  # he lost the hand he played with chips behind
    run_clock_at(rebuy_t, item_index_of_level(rebuy_t, 4))
    sale = cashier.rebuy(e, method="CASH", actor=cashier_actor)
    assert sale.entry.status == Entry.ACTIVE and sale.entry.rebuys == 1


def test_fmt04_the_house_may_take_declarations_only_from_a_player_out_of_chips(make_tournament, make_person, cashier_actor):
    t = make_tournament(
        format=Tournament.REBUY,
        status=Tournament.RUNNING,
        rebuy_price=Decimal("50"),
        rebuy_fee=Decimal("5"),
        rebuy_chips=30000,
        rebuy_until_level=3,
        rebuy_stack_threshold=0,
        settings={"rebuy_declare_with_chips": False},
    )
    run_clock_at(t, item_index_of_level(t, 1))
    e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry
    with pytest.raises(DeskError) as refused:
        cashier.declare_rebuy(e, actor=cashier_actor, stack=2000)
    assert refused.value.code == "not_busted"
    assert cashier.declare_rebuy(e, actor=cashier_actor, stack=0).rebuy_declared_at is not None


def test_fmt04_the_floor_declares_through_the_api_and_the_refusal_is_italian(rebuy_t, make_person, cashier_actor, floor_user, cashier_user):
    run_clock_at(rebuy_t, item_index_of_level(rebuy_t, 2))
    e = cashier.register(rebuy_t, make_person(), method="CASH", actor=cashier_actor).entry
    floor = client_for(floor_user)
    r = floor.post("/api/v1/cashier/rebuy/declare/", {"entry": e.pk, "stack": 1200}, format="json", HTTP_IDEMPOTENCY_KEY="d1")
    assert r.status_code == 201 and r.json()["entry"]["rebuy_declared_at"]
    again = floor.post("/api/v1/cashier/rebuy/declare/", {"entry": e.pk}, format="json", HTTP_IDEMPOTENCY_KEY="d2", HTTP_ACCEPT_LANGUAGE="it")
    assert again.status_code == 409 and again.json()["code"] == "rebuy_already_declared"
    assert "ha già dichiarato" in again.json()["detail"]
    # The desk sells it: no stack asked.
    sold = client_for(cashier_user).post("/api/v1/cashier/rebuy/", {"entry": e.pk, "method": "CASH"}, format="json", HTTP_IDEMPOTENCY_KEY="s1")
    assert sold.status_code == 201, sold.json()
