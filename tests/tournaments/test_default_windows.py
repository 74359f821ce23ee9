"""A tournament that names no late-registration or rebuy level closes them at RULES' default, the
end of level 3 (REG-04, FMT-04; issue 29): a house setting, shown on the form, the API and the
lobby — never "open all event" by omission. Re-entries and the jackpot's 30 % follow late
registration (FMT-05, PAY-12)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from payouts import services as payout_services
from payouts.services import PayoutError
from tests.conftest import client_for
from tournaments.cashier import services as cashier
from tournaments.cashier.services import DeskError
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.live.snapshot import build_snapshot
from tournaments.models import Entry, Tournament

from .helpers import item_index_of_level, run_clock_at

pytestmark = pytest.mark.django_db
D = Decimal


def at_level(t, n):
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.RUNNING)
    run_clock_at(t, item_index_of_level(t, n))
    t.refresh_from_db()
    return t


def test_late_registration_without_a_level_closes_at_the_end_of_level_3(make_tournament, make_person, cashier_actor):
    t = make_tournament()
    assert t.late_reg_closes_after_level is None
    at_level(t, 3)
    assert cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry.status == Entry.ACTIVE
    at_level(t, 4)
    with pytest.raises(DeskError) as e:
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    assert e.value.code == "late_registration_closed"
    snap = build_snapshot(t)
    assert (snap["late_registration_open"], snap["late_registration_level"]) == (False, 3)


def test_the_house_default_is_a_setting(make_tournament, make_person, cashier_actor):
    t = at_level(make_tournament(settings={"late_reg_default_level": 5}), 5)
    assert cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry.status == Entry.ACTIVE
    assert build_snapshot(t)["late_registration_level"] == 5
    at_level(t, 6)
    with pytest.raises(DeskError) as e:
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    assert e.value.code == "late_registration_closed"


def test_a_level_the_tournament_names_still_wins(make_tournament, make_person, cashier_actor):
    t = at_level(make_tournament(late_reg_closes_after_level=8), 8)
    assert cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry.status == Entry.ACTIVE


def test_re_entry_follows_the_default_window(make_tournament, make_person, cashier_actor):
    t = make_tournament(format=Tournament.REENTRY, max_entries_per_player=3)
    person = make_person()
    first = cashier.register(t, person, method="CASH", actor=cashier_actor).entry
    Entry.objects.filter(pk=first.pk).update(status=Entry.BUSTED)
    at_level(t, 4)
    with pytest.raises(DeskError) as e:
        cashier.reenter(t, person, method="CASH", actor=cashier_actor)
    assert e.value.code == "late_registration_closed"


def test_rebuys_without_a_level_end_after_level_3(make_tournament, make_person, cashier_actor):
    t = make_tournament(format=Tournament.REBUY, rebuy_price=D("100"), rebuy_chips=30000, late_reg_closes_after_level=8)
    entry = cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry
    at_level(t, 3)
    assert cashier.rebuy(entry, method="CASH", actor=cashier_actor, stack=0).row.kind == "REBUY"
    at_level(t, 4)
    with pytest.raises(DeskError) as e:
        cashier.rebuy(entry, method="CASH", actor=cashier_actor, stack=0)
    assert e.value.code == "rebuy_period_over" and "level 3" in str(e.value.message)


def test_the_jackpots_late_percentage_ends_with_the_default_window(make_tournament, make_person, cashier_actor, floor_user, actor):
    payout_services.set_jackpot_base(D("1000.00"), actor=actor)
    t = make_tournament(settings={"jackpot": True})
    e = cashier.register(t, make_person(), method="CASH", actor=cashier_actor, jackpot=True).entry
    at_level(t, 5)
    with pytest.raises(PayoutError) as err:
        payout_services.claim_jackpot(t, [e], both_hole_cards=True, actor=Actor(floor_user))
    assert err.value.code == "jackpot_window_over"


def test_the_clock_announces_the_default_close(make_tournament, actor):
    t = at_level(make_tournament(), 3)
    run_clock_at(t, item_index_of_level(t, 3), seconds_left=1)
    assert clock_services.advance_clock(t.pk, now=timezone.now() + timedelta(seconds=5), actor=actor)
    closed = t.events.filter(action="tournaments.late_registration.closed")
    assert [ev.payload["after_level"] for ev in closed] == [3]


def test_the_form_and_the_api_say_the_default(make_tournament, director, client):
    t = make_tournament()
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/edit/")
    assert page.status_code == 200 and "Empty: the end of level 3 (house default, REG-04)" in page.content.decode()
    data = client_for(director).get(f"/api/v1/tournaments/{t.pk}/").json()
    assert (data["late_reg_closes_after_level"], data["late_registration_level"], data["rebuy_level"]) == (None, 3, 3)
