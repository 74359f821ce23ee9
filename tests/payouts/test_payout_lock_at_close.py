"""PAY-05: «the payout structure is published when registration officially closes» (003 Art. 15).
The table is generated from the final pool and locked by the close itself (logged); after the
lock a change needs the director's explicit unlock with a reason; the lobby shows the locked
table."""

from decimal import Decimal

import pytest

from payouts import selectors as sel
from payouts import services
from payouts.models import PayoutTable
from tdmanager.errors import DomainError
from tests.conftest import client_for
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.live.snapshot import build_snapshot
from tournaments.models import Tournament

from ..tournaments.helpers import item_index_of_level

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """The lock runs once the clock's transaction has committed: run what each commit schedules."""

    def jump(t, level, actor):
        with django_capture_on_commit_callbacks(execute=True):
            clock_services.jump_to(t, item_index_of_level(t, level), actor=actor)

    return jump


def running(make_tournament, make_person, cashier_actor, actor, n=10, **kw):
    t = make_tournament(**kw)  # 100 + 10: each entry puts 100 in the pool
    for _ in range(n):
        cashier.register(t, make_person(), method="CARD", actor=cashier_actor)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
    t.refresh_from_db()
    clock_services.start_clock(t, actor=actor)
    return t


def test_pay05_the_close_of_registration_locks_the_table_and_the_lobby_shows_it(make_tournament, make_person, cashier_actor, actor, commits):
    t = running(make_tournament, make_person, cashier_actor, actor, late_reg_closes_after_level=2)
    services.edit_payout_table(t, [{"place": 1, "amount": "700"}, {"place": 2, "amount": "300"}], actor=actor)
    commits(t, 2, actor)
    assert sel.table_state(t) == PayoutTable.EDITED  # level 2 still sells late entries
    commits(t, 3, actor)  # level 2 ended: registration is closed

    assert sel.table_state(t) == PayoutTable.LOCKED
    event = t.events.get(action="payouts.table.locked")
    assert event.payload["automatic"] is True and event.payload["after_level"] == 2 and event.payload["prize_pool"] == "1000.00"
    lobby = build_snapshot(t)
    assert lobby["payout_table_state"] == PayoutTable.LOCKED
    assert [(p["places"], p["amount"]) for p in lobby["payouts"]] == [("1", "700.00"), ("2", "300.00")]


def test_pay05_an_automatic_proposal_is_generated_from_the_final_pool(make_tournament, make_person, cashier_actor, actor, commits):
    t = running(make_tournament, make_person, cashier_actor, actor, n=30, late_reg_closes_after_level=1)
    commits(t, 2, actor)
    assert sel.table_state(t) == PayoutTable.LOCKED
    prizes = sel.table_prizes(t)
    assert sum((p["amount"] for p in prizes), D("0")) == D("3000.00")  # 30 × 100, to the cent
    assert len(prizes) >= 2


def test_pay05_a_rebuy_event_locks_when_the_rebuys_close_not_before(make_tournament, make_person, cashier_actor, actor, commits):
    t = running(
        make_tournament,
        make_person,
        cashier_actor,
        actor,
        format=Tournament.REBUY,
        late_reg_closes_after_level=1,
        rebuy_price=D("100"),
        rebuy_fee=D("0"),
        rebuy_chips=30000,
        rebuy_until_level=2,
    )
    commits(t, 2, actor)
    assert sel.table_state(t) != PayoutTable.LOCKED  # rebuys still feed the pool
    commits(t, 3, actor)
    assert sel.table_state(t) == PayoutTable.LOCKED


def test_pay05_after_the_lock_a_change_needs_the_directors_unlock_with_a_reason(
    make_tournament, make_person, cashier_actor, actor, director, floor_user, commits
):
    t = running(make_tournament, make_person, cashier_actor, actor, late_reg_closes_after_level=1)
    commits(t, 2, actor)
    assert sel.table_state(t) == PayoutTable.LOCKED
    with pytest.raises(DomainError) as locked:
        services.edit_payout_table(t, [{"place": 1, "amount": "600"}, {"place": 2, "amount": "400"}], actor=actor, reason="asked")
    assert locked.value.code == "table_locked"

    url = f"/api/v1/tournaments/{t.pk}/payouts/table/unlock/"
    assert client_for(floor_user).post(url, {"reason": "players asked"}, format="json").status_code == 403
    r = client_for(director).post(url, {"reason": ""}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 400 and r.json()["code"] == "reason_required" and "motivo" in r.json()["detail"]
    r = client_for(director).post(url, {"reason": "players asked for two places"}, format="json")
    assert r.status_code == 200 and r.json()["state"] == PayoutTable.EDITED
    unlocked = t.events.get(action="payouts.table.unlocked")
    assert unlocked.payload["reason"] == "players asked for two places" and unlocked.actor == director

    services.edit_payout_table(t, [{"place": 1, "amount": "600"}, {"place": 2, "amount": "400"}], actor=Actor(director))
    services.lock_payout_table(t, actor=Actor(director))
    assert [p["amount"] for p in sel.table_prizes(t)] == [D("600.00"), D("400.00")]


def test_pay05_a_close_of_registration_told_again_locks_the_table_once(make_tournament, make_person, cashier_actor, actor, commits):
    t = running(make_tournament, make_person, cashier_actor, actor, late_reg_closes_after_level=2)
    services.edit_payout_table(t, [{"place": 1, "amount": "700"}, {"place": 2, "amount": "300"}], actor=actor)
    commits(t, 3, actor)
    commits(t, 4, actor)  # the clock goes on past the close, and back to it
    commits(t, 3, actor)
    assert services.lock_at_close(t.pk, actor=actor, after_level=2) is None  # the close told again (a retried task)
    assert sel.table_state(t) == PayoutTable.LOCKED
    assert t.events.filter(action="payouts.table.locked").count() == 1
    assert [(p["places"], p["amount"]) for p in build_snapshot(t)["payouts"]] == [("1", "700.00"), ("2", "300.00")]
