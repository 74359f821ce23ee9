"""REG-09 FORFEIT_AT by the clock: at the end of the house's level plus the grace (tournament
clock time), every entry not arrived is out — by the Celery clock path (the countdown task at a
level change, the beat sweep inside a level), once, held by a paused clock. "Not arrived": with
check-in in use, paid and not checked in; without it, marked "not arrived" by the floor (the
table map / the API, an undoable mark). Through the services, the tasks, the API and the page."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from seating import selectors as seating_selectors
from seating.models import Bust
from tdmanager.errors import DomainError
from tournaments import tasks
from tournaments.cashier import services as cashier
from tournaments.cashier.services import registration
from tournaments.clock import services as clock_services
from tournaments.eventlog.actions import Action
from tournaments.models import Clock, Entry
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0) + timedelta(days=1)
LEVEL = timedelta(minutes=20)  # the Regular structure: level 1 is 20 minutes, level 2 follows at once
FORFEITED = Action.CASHIER_NO_SHOWS_FORFEITED


def forfeit_at(make_tournament, *, grace=5, check_in=True, **settings):
    return make_tournament(settings={"no_show_policy": "FORFEIT_AT", "no_show_level": 1, "no_show_grace_minutes": grace, "check_in_used": check_in, **settings})


def field(t, cashier_actor, make_person, n):
    return [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(n)]


def fresh(entry):
    return Entry.objects.get(pk=entry.pk)


def tick(t, at):
    """The countdown task Celery runs at a level change, at wall time ``at``."""
    with time_machine.travel(at, tick=False):
        tasks.clock_tick(t.pk, Clock.objects.get(tournament=t).version)


def sweep(at):
    """The beat's sweep, every second, at wall time ``at``."""
    with time_machine.travel(at, tick=False):
        tasks.sweep_clocks()


def start_with_arrived(t, arrived, cashier_actor, actor):
    """The players in ``arrived`` check in at the desk, the tournament starts and its clock runs from T0."""
    for e in arrived:
        registration.check_in(e, actor=cashier_actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor, now=T0)


def test_with_check_in_the_clock_forfeits_every_paid_entry_not_checked_in_at_level_end_plus_grace(make_tournament, make_person, cashier_actor, actor):
    t = forfeit_at(make_tournament, grace=5)
    entries = field(t, cashier_actor, make_person, 6)
    here, away = entries[:4], entries[4:]
    start_with_arrived(t, here, cashier_actor, actor)
    assert all(seating_selectors.seat_of(e) is not None for e in entries)  # seated like everybody, blinded out

    tick(t, T0 + LEVEL + timedelta(seconds=1))  # level 1 ended: level 2 on the clock, the grace runs
    assert Clock.objects.get(tournament=t).item_index == 1
    assert [fresh(e).status for e in away] == [Entry.ACTIVE] * 2 and not t.events.filter(action=FORFEITED).exists()
    sweep(T0 + LEVEL + timedelta(minutes=4, seconds=59))
    assert [fresh(e).status for e in away] == [Entry.ACTIVE] * 2

    sweep(T0 + LEVEL + timedelta(minutes=5, seconds=1))  # the grace is over
    out = [fresh(e) for e in away]
    assert [(e.status, e.registration_state(), e.place) for e in out] == [(Entry.BUSTED, "NO_SHOW", 5)] * 2
    busts = list(Bust.objects.filter(entry__in=away, void=""))
    # out together at the deadline (removals): their order cannot be told, they share places 5-6
    assert {(b.kind, b.place, b.shared_with) for b in busts} == {(Bust.REMOVED, 5, 2)}
    assert all(abs((b.busted_at - (T0 + LEVEL + timedelta(minutes=5, seconds=1))).total_seconds()) < 1 for b in busts)
    assert all(seating_selectors.seat_of(e) is None for e in away)  # the seats are free
    assert all(fresh(e).status == Entry.ACTIVE and seating_selectors.seat_of(e) is not None for e in here)
    ev = t.events.get(action=FORFEITED)
    assert ev.actor_label == "system" and sorted(x["entry"] for x in ev.payload["entries"]) == sorted(e.pk for e in away)
    assert (ev.payload["level"], ev.payload["minutes"], ev.payload["by"]) == (1, 5, "check_in")
    with pytest.raises(DomainError) as err:  # no refund, as for any player out
        cashier.refund(away[0], reason="asks for the money", actor=actor)
    assert err.value.code == "no_refund_after_playing"


def test_the_forfeit_runs_once_a_clock_re_run_or_a_restarted_worker_forfeits_nobody_else(make_tournament, make_person, cashier_actor, actor):
    t = forfeit_at(make_tournament, grace=0)
    entries = field(t, cashier_actor, make_person, 5)
    start_with_arrived(t, entries[:4], cashier_actor, actor)
    version = Clock.objects.get(tournament=t).version
    tick(t, T0 + LEVEL + timedelta(seconds=2))  # grace 0: the level change itself is the deadline
    assert fresh(entries[4]).status == Entry.BUSTED
    busts = Bust.objects.filter(tournament=t).count()
    with time_machine.travel(T0 + LEVEL + timedelta(seconds=3), tick=False):
        tasks.clock_tick(t.pk, version)  # the same countdown delivered twice
        assert clock_services.apply_no_show_deadline(t.pk) is False
        assert registration.forfeit_not_arrived(t, actor=actor) is None
    late = cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry  # paid after the deadline, not checked in
    sweep(T0 + LEVEL + timedelta(minutes=3))
    assert clock_services.sweep(now=T0 + LEVEL + timedelta(minutes=4)) == 0  # a restarted worker sweeps again
    assert t.events.filter(action=FORFEITED).count() == 1
    assert Bust.objects.filter(tournament=t).count() == busts
    assert fresh(late).status == Entry.ACTIVE and seating_selectors.seat_of(late) is not None


def test_a_paused_clock_holds_the_deadline(make_tournament, make_person, cashier_actor, actor):
    t = forfeit_at(make_tournament, grace=5)
    entries = field(t, cashier_actor, make_person, 4)
    start_with_arrived(t, entries[:3], cashier_actor, actor)
    clock_services.pause(t, actor=actor, reason="dinner", now=T0 + timedelta(minutes=10))  # 10 minutes of level 1 left
    sweep(T0 + timedelta(minutes=50))  # wall time past level 1 + grace, clock time not
    assert fresh(entries[3]).status == Entry.ACTIVE and not t.events.filter(action=FORFEITED).exists()
    clock_services.resume(t, actor=actor, now=T0 + timedelta(minutes=50))  # level 1 now ends at +60, the grace at +65
    tick(t, T0 + timedelta(minutes=60, seconds=1))
    sweep(T0 + timedelta(minutes=64, seconds=50))
    assert fresh(entries[3]).status == Entry.ACTIVE
    sweep(T0 + timedelta(minutes=65, seconds=1))
    assert fresh(entries[3]).status == Entry.BUSTED and fresh(entries[3]).place == 4


def test_a_deadline_passed_while_paused_after_it_is_still_applied(make_tournament, make_person, cashier_actor, actor):
    """The worker was down across the deadline and the director paused later: the sweep applies it."""
    t = forfeit_at(make_tournament, grace=5)
    entries = field(t, cashier_actor, make_person, 3)
    start_with_arrived(t, entries[:2], cashier_actor, actor)
    with time_machine.travel(T0 + timedelta(minutes=30), tick=False):
        clock_services.pause(t, actor=actor, now=T0 + timedelta(minutes=30))
    sweep(T0 + timedelta(minutes=31))
    assert fresh(entries[2]).status == Entry.BUSTED


def test_without_check_in_the_floor_marks_who_has_not_arrived_and_only_they_forfeit(make_tournament, make_person, cashier_actor, actor, floor_user):
    t = forfeit_at(make_tournament, grace=0, check_in=False)
    entries = field(t, cashier_actor, make_person, 6)  # nobody checks in: the desk does not use check-in here
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor, now=T0)
    floor = registration.Actor(floor_user, "table map")
    never, changed_mind, stepped_out = entries[0], entries[1], entries[2]
    assert registration.mark_arrival(never, arrived=False, actor=floor).presence == Entry.NOT_ARRIVED
    registration.mark_arrival(changed_mind, arrived=False, actor=floor)
    registration.mark_arrival(changed_mind, arrived=True, actor=floor)  # the undo: he sat down after all
    registration.set_presence(stepped_out, presence=Entry.ABSENT, actor=floor)  # came, then left the table
    with pytest.raises(DomainError) as err:
        registration.mark_arrival(stepped_out, arrived=False, actor=floor)
    assert err.value.code == "has_arrived"
    with pytest.raises(DomainError) as err:
        registration.mark_arrival(entries[3], arrived=True, actor=floor)
    assert err.value.code == "not_marked"
    logged = list(t.events.filter(action__in=(Action.CASHIER_ENTRY_NOT_ARRIVED, Action.CASHIER_ENTRY_ARRIVED)).values_list("action", "payload__entry"))
    assert logged == [
        (Action.CASHIER_ENTRY_NOT_ARRIVED, never.pk),
        (Action.CASHIER_ENTRY_NOT_ARRIVED, changed_mind.pk),
        (Action.CASHIER_ENTRY_ARRIVED, changed_mind.pk),
    ]
    tick(t, T0 + LEVEL + timedelta(seconds=1))
    assert [fresh(e).status for e in entries] == [Entry.BUSTED] + [Entry.ACTIVE] * 5
    assert fresh(never).place == 6 and Bust.objects.get(entry=never).shared_with == 1
    assert t.events.get(action=FORFEITED).payload["by"] == "floor_mark"


def test_blind_out_never_forfeits_by_the_clock(make_tournament, make_person, cashier_actor, actor, floor_user):
    t = make_tournament(settings={"check_in_used": True})  # BLIND_OUT, the default
    entries = field(t, cashier_actor, make_person, 4)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor, now=T0)
    registration.mark_arrival(entries[0], arrived=False, actor=registration.Actor(floor_user))
    tick(t, T0 + LEVEL + timedelta(seconds=1))
    sweep(T0 + 3 * LEVEL)
    assert [fresh(e).status for e in entries] == [Entry.ACTIVE] * 4 and not t.events.filter(action=FORFEITED).exists()


def test_if_nobody_arrived_nobody_is_forfeited_and_the_run_is_logged(make_tournament, make_person, cashier_actor, actor):
    t = forfeit_at(make_tournament, grace=0)
    entries = field(t, cashier_actor, make_person, 3)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor, now=T0)
    tick(t, T0 + LEVEL + timedelta(seconds=1))
    assert [fresh(e).status for e in entries] == [Entry.ACTIVE] * 3
    assert t.events.get(action=FORFEITED).payload["skipped"] == "nobody_arrived"


# --- the mark through the API and the table map ---------------------------------------------


def test_the_api_and_the_table_map_mark_a_player_not_arrived_and_undo_it(make_tournament, make_person, cashier_actor, actor, api, floor_user, client):
    t = forfeit_at(make_tournament, grace=0, check_in=False)
    entries = field(t, cashier_actor, make_person, 4)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    floor = api(floor_user)
    r = floor.post("/api/v1/cashier/arrival/", {"entry": entries[0].pk, "arrived": False}, format="json")
    assert r.status_code == 200 and r.json()["entry"]["presence"] == "NOT_ARRIVED"
    r = floor.post("/api/v1/cashier/arrival/", {"entry": entries[0].pk, "arrived": False}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "already_not_arrived"
    r = floor.post("/api/v1/cashier/arrival/", {"entry": entries[0].pk, "arrived": True}, format="json")
    assert r.status_code == 200 and r.json()["entry"]["presence"] == ""

    client.force_login(floor_user)
    page = client.get(f"/tournaments/{t.pk}/tables/").content.decode()
    assert f'id="arrival-{entries[1].pk}"' in page and 'class="not-arrived"' in page
    blind_out = make_tournament(name="Blind out")
    field(blind_out, cashier_actor, make_person, 2)
    lifecycle.start(blind_out, actor=actor, prestart_report_sent=True)
    assert 'class="not-arrived"' not in client.get(f"/tournaments/{blind_out.pk}/tables/").content.decode()  # no deadline to come
    client.post(f"/tournaments/{t.pk}/tables/", {"op": "not_arrived", "entry": entries[1].pk, "table": 1})
    assert fresh(entries[1]).presence == Entry.NOT_ARRIVED
    page = client.get(f"/tournaments/{t.pk}/tables/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "mancato arrivo" in page and 'class="arrived"' in page
    client.post(f"/tournaments/{t.pk}/tables/", {"op": "arrived", "entry": entries[1].pk, "table": 1})
    assert fresh(entries[1]).presence == ""


def test_the_forfeit_is_undone_like_any_bust_and_the_player_plays_on(make_tournament, make_person, cashier_actor, actor):
    from seating import services as seating

    t = forfeit_at(make_tournament, grace=0)
    entries = field(t, cashier_actor, make_person, 5)
    start_with_arrived(t, entries[:3], cashier_actor, actor)
    tick(t, T0 + LEVEL + timedelta(seconds=1))
    late, later = fresh(entries[3]), fresh(entries[4])
    assert (late.place, later.place) == (4, 4)
    seating.undo_bust(t, Bust.objects.get(entry=late, void=""), actor=actor, reason="they were at the bar, with their chips")
    late, later = fresh(entries[3]), fresh(entries[4])
    assert [(e.status, e.registration_state(), e.place) for e in (late, later)] == [(Entry.ACTIVE, "PAID", None)] * 2
    assert seating_selectors.seat_of(late) is not None and seating_selectors.seat_of(later) is not None
    sweep(T0 + LEVEL + timedelta(minutes=2))  # the deadline is not applied twice
    assert fresh(late).status == Entry.ACTIVE and t.events.filter(action=FORFEITED).count() == 1


def test_the_grace_ends_on_its_very_second_of_clock_time(make_tournament, make_person, cashier_actor, actor):
    t = forfeit_at(make_tournament, grace=5)
    entries = field(t, cashier_actor, make_person, 3)
    start_with_arrived(t, entries[:2], cashier_actor, actor)
    clock_services.sweep(now=T0 + LEVEL + timedelta(minutes=4, seconds=59))  # level 2 on the clock, a second of grace left
    assert fresh(entries[2]).status == Entry.ACTIVE
    clock_services.sweep(now=T0 + LEVEL + timedelta(minutes=5))  # level 1 ended 5 minutes ago: out
    assert (fresh(entries[2]).status, fresh(entries[2]).place) == (Entry.BUSTED, 3)


def test_a_no_show_level_past_the_last_level_never_comes_and_nobody_forfeits(make_tournament, make_person, cashier_actor, actor):
    t = forfeit_at(make_tournament, grace=0, no_show_level=25)  # the Regular structure has 24 levels, the last repeats
    entries = field(t, cashier_actor, make_person, 3)
    start_with_arrived(t, entries[:2], cashier_actor, actor)
    clock_services.sweep(now=T0 + timedelta(hours=12))  # every level played, the last one repeating
    assert fresh(entries[2]).status == Entry.ACTIVE and not t.events.filter(action=FORFEITED).exists()
