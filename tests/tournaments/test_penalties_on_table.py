"""PEN-02 / PEN-03 / PEN-05 / C25 / C26 (issue #16): penalties run on the table.

Hands are served by the table's own "hand completed" (a misdeal does not count), the rounds
are bounded by the house rule ``max_rounds`` (the heads-up preset asks at least 3), the players
are counted when the penalty is given or at the start of the next hand (``count_players_at``),
and a time suspension runs on the tournament clock.
"""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from seating import selectors as seating_selectors
from seating import services as seating
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.floor import services as floor
from tournaments.models import Penalty, Tournament
from tournaments.setup import lifecycle


def _table_of_six(make_tournament, make_person, director, **kw):
    actor = Actor(director, "test")
    t = make_tournament(table_size=6, **kw)
    entries = [cashier.register(t, make_person(), method="CASH", actor=actor).entry for _ in range(6)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    table = seating_selectors.seat_of(entries[0])["table"]
    seating.set_big_blind(t, table, 2, actor=actor)
    return t, entries, table, actor


def _map_row(t, entry):
    return next(s for tb in seating_selectors.table_map(t)["tables"] for s in tb["seats"] if s["entry"] == entry.pk)


@pytest.mark.django_db
def test_two_rounds_at_six_players_count_down_with_the_tables_hands_and_a_misdeal_does_not_count(make_tournament, make_person, director):
    t, entries, table, actor = _table_of_six(make_tournament, make_person, director)
    p = floor.issue_penalty(t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=2, actor=actor)
    assert (p.hands_total, p.started) == (12, False)  # 6 players x 2 rounds, fixed at issue (TDA)
    assert _map_row(t, entries[0])["penalties"][0]["label"] == "Missed rounds: starts after this hand"
    seating.hand_completed(t, table, actor=actor)  # the hand in play when it was given (PEN-03)
    p.refresh_from_db()
    assert (p.started, p.hands_left) == (True, 12)
    seating.misdeal(t, table, actor=actor, reason="exposed card")  # TDA 35-C: the re-deal is the same hand
    p.refresh_from_db()
    assert p.hands_left == 12
    for left in range(11, 0, -1):
        seating.hand_completed(t, table, actor=actor)
        p.refresh_from_db()
        assert p.hands_left == left
        assert _map_row(t, entries[0])["penalties"][0]["hands_left"] == left
    seating.hand_completed(t, table, actor=actor)
    p.refresh_from_db()
    assert (p.hands_left, p.status) == (0, Penalty.SERVED)
    assert _map_row(t, entries[0])["penalties"] == []
    assert t.events.filter(action="tournaments.penalty.served", payload__penalty=p.pk).count() == 1
    assert t.events.filter(action="seating.misdeal.reported").count() == 1


@pytest.mark.django_db
def test_given_between_hands_the_next_hand_is_the_first_missed(make_tournament, make_person, director):
    t, entries, table, actor = _table_of_six(make_tournament, make_person, director)
    p = floor.issue_penalty(t, entries[1], kind="MISSED_HANDS", reason_code="PHONE_AT_TABLE", hands=2, between_hands=True, actor=actor)
    seating.hand_completed(t, table, actor=actor)
    seating.hand_completed(t, table, actor=actor)
    p.refresh_from_db()
    assert p.status == Penalty.SERVED


@pytest.mark.django_db
def test_max_rounds_is_a_house_rule_defaulting_to_four(make_tournament, make_person, director):
    t, entries, table, actor = _table_of_six(make_tournament, make_person, director, settings={"max_rounds": 2})
    with pytest.raises(DomainError) as err:
        floor.issue_penalty(t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=3, actor=actor)
    assert err.value.code == "too_many_rounds"
    assert floor.issue_penalty(t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=2, actor=actor).hands_total == 12
    # The 004 rule set: 4 at most unless the house says otherwise; 0 lifts the limit.
    t2, e2, _table, _ = _table_of_six(make_tournament, make_person, director, rule_set="MONTEGALDA_004")
    with pytest.raises(DomainError) as err:
        floor.issue_penalty(t2, e2[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=5, actor=actor)
    assert err.value.code == "too_many_rounds"
    Tournament.objects.filter(pk=t2.pk).update(settings={"max_rounds": 0})
    assert floor.issue_penalty(t2, e2[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=5, actor=actor).hands_total == 30


@pytest.mark.django_db
def test_the_heads_up_rule_set_applies_the_heads_up_preset(make_tournament, make_person, director):
    t, entries, table, actor = _table_of_six(make_tournament, make_person, director, rule_set="HEADS_UP_001")
    with pytest.raises(DomainError) as err:
        floor.issue_penalty(t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=2, actor=actor)
    assert err.value.code == "too_few_rounds"
    p = floor.issue_penalty(
        t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=3, actor=actor, heads_up_reading="ROUNDS_OF_TWO_HANDS"
    )  # PEN-06: the director's reading
    assert p.preset == "HEADS_UP_001"


@pytest.mark.django_db
def test_count_players_at_next_hand_counts_the_table_when_the_penalty_starts(make_tournament, make_person, director):
    # C25: the house chooses 003's text (the default counts at issue, TDA 71-A)
    t, entries, table, actor = _table_of_six(make_tournament, make_person, director, rule_set="SANREMO_003", settings={"count_players_at": "NEXT_HAND"})
    p = floor.issue_penalty(t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=2, actor=actor)
    assert (p.hands_total, p.players_at_table) == (0, None)  # not known until the next hand
    seating.record_bust(t, [entries[5].pk], actor=actor)  # a player busts in the hand in play
    seating.hand_completed(t, table, actor=actor)
    p.refresh_from_db()
    assert (p.players_at_table, p.hands_total, p.hands_left) == (5, 10, 10)
    # The same event counting at issue (the default): 6 players.
    Tournament.objects.filter(pk=t.pk).update(settings={"count_players_at": "ISSUE"})
    q = floor.issue_penalty(t, entries[1], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=2, actor=actor)
    assert q.hands_total == 10  # five are seated now


@pytest.mark.django_db
def test_a_time_suspension_runs_on_the_tournament_clock(make_tournament, make_person, director):
    t, entries, table, actor = _table_of_six(make_tournament, make_person, director, rule_set="SANREMO_003")
    t0 = timezone.now()
    clock_services.start_clock(t, actor=actor, now=t0)
    p = floor.issue_penalty(t, entries[2], kind="TIME_SUSPENSION", reason_code="LATE_SEAT_TAKING", minutes=10, actor=actor, now=t0)
    assert p.ends_at == t0 + timedelta(minutes=10)
    clock_services.pause(t, actor=actor, now=t0 + timedelta(minutes=4))
    p.refresh_from_db()
    assert (p.ends_at, p.seconds_left) == (None, 360)
    # An hour paused: the suspension is still running, six minutes left, shown as paused.
    later = t0 + timedelta(minutes=64)
    assert floor.active_penalties(t, now=later).filter(pk=p.pk).exists()
    row = _map_row(t, entries[2])["penalties"][0]
    assert (row["seconds_left"], row["clock_paused"]) == (360, True)
    assert row["label"] == "Time suspension: 6:00 left · clock paused"
    clock_services.resume(t, actor=actor, now=later)
    p.refresh_from_db()
    assert p.ends_at == later + timedelta(minutes=6)
    assert not floor.active_penalties(t, now=later + timedelta(minutes=6, seconds=1)).filter(pk=p.pk).exists()
    p.refresh_from_db()
    assert p.status == Penalty.SERVED


@pytest.mark.django_db
def test_the_api_issues_between_hands_and_the_tables_api_counts_the_hands(api, make_tournament, make_person, director, floor_user):
    t, entries, table, actor = _table_of_six(make_tournament, make_person, director)
    client = api(floor_user)
    r = client.post(
        f"/api/v1/tournaments/{t.pk}/floor/penalties/",
        {"entry": entries[3].pk, "kind": "MISSED_ROUNDS", "reason_code": "ABUSIVE_CONDUCT", "rounds": 1, "between_hands": True},
        format="json",
    )
    assert r.status_code == 201 and r.data["progress"]["hands_left"] == 6 and r.data["started"] is True
    assert client.post(f"/api/v1/tournaments/{t.pk}/tables/{table}/misdeal/", {"reason": "flashed card"}, format="json").status_code == 200
    r = client.post(f"/api/v1/tournaments/{t.pk}/tables/{table}/hand-completed/", {}, format="json")
    assert r.status_code == 200
    row = next(s for s in r.data["table"]["seats"] if s["entry"] == entries[3].pk)
    assert row["penalties"][0]["hands_left"] == 5
    listed = client.get(f"/api/v1/tournaments/{t.pk}/floor/penalties/").data
    assert [x["progress"]["label"] for x in listed] == ["Missed rounds: 5 of 6 hands left"]
    r = client.post(
        f"/api/v1/tournaments/{t.pk}/floor/penalties/",
        {"entry": entries[3].pk, "kind": "MISSED_ROUNDS", "reason_code": "ABUSIVE_CONDUCT", "rounds": 2},
        format="json",
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert r.status_code == 201 and r.data["progress"]["label"].endswith(": inizia dopo questa mano")
    Tournament.objects.filter(pk=t.pk).update(settings={"max_rounds": 1})
    r = client.post(
        f"/api/v1/tournaments/{t.pk}/floor/penalties/",
        {"entry": entries[3].pk, "kind": "MISSED_ROUNDS", "reason_code": "ABUSIVE_CONDUCT", "rounds": 2},
        format="json",
    )
    assert r.status_code == 400 and r.data["code"] == "too_many_rounds"


@pytest.mark.django_db
def test_bal07_dodging_the_blinds_after_a_move_is_penalised_at_the_new_seat_and_a_second_time_is_a_second_penalty(
    api, make_tournament, make_person, director, floor_user
):
    """Ten players at two 6-max tables of five: a player moved to the other table skips his big
    blind there. The floor gives him 2 missed hands for DODGING_BLINDS (TDA 33); the list names
    the reason and his new table and seat, the table map shows it at his new seat. He does it
    again: a second penalty of 4 hands, both listed and both in his history."""
    actor = Actor(director, "test")
    t = make_tournament(table_size=6)
    entries = [cashier.register(t, make_person(), method="CASH", actor=actor).entry for _ in range(10)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    mover = entries[0]
    home = seating_selectors.seat_of(mover)["table"]
    to_table, to_seat = next(
        (tb["number"], s["seat"]) for tb in seating_selectors.table_map(t)["tables"] if tb["number"] != home for s in tb["seats"] if s["entry"] is None
    )
    seating.move_player(t, mover, to_table, to_seat, actor=actor, reason="table change")
    client = api(floor_user)
    url = f"/api/v1/tournaments/{t.pk}/floor/penalties/"
    body = {"entry": mover.pk, "kind": "MISSED_HANDS", "hands": 2, "reason_code": "DODGING_BLINDS", "between_hands": True}
    first = client.post(url, body, format="json")
    assert first.status_code == 201, first.data
    assert first.data["reason_label"] == "Dodging blinds (including when moving from a broken table)"
    assert (first.data["table_number"], first.data["seat"]) == (to_table, {"table": to_table, "seat": to_seat})
    assert [x["label"] for x in _map_row(t, mover)["penalties"]] == ["Missed hands: 2 of 2 hands left"]
    second = client.post(url, {**body, "hands": 4}, format="json")
    assert second.status_code == 201 and second.data["id"] != first.data["id"]
    listed = [(x["reason_code"], x["hands_total"]) for x in client.get(url).data if x["entry"] == mover.pk]
    assert sorted(listed) == [("DODGING_BLINDS", 2), ("DODGING_BLINDS", 4)]
    history = client.get(f"/api/v1/people/{mover.person_id}/penalties/").data
    assert sorted(p["hands_total"] for p in history) == [2, 4]


@pytest.mark.django_db
def test_a_time_suspension_sent_again_after_a_lost_answer_suspends_the_player_once(api, make_tournament, make_person, director, floor_user):
    """PEN-05 / SEAT-09: the tablet sends a 10-minute suspension for late seat-taking, loses the
    answer and sends it again with the same key: one suspension, 10:00 on the table map (the
    clock has not started: it waits)."""
    t, entries, table, actor = _table_of_six(make_tournament, make_person, director, rule_set="SANREMO_003")
    client = api(floor_user)
    url = f"/api/v1/tournaments/{t.pk}/floor/penalties/"
    body = {"entry": entries[2].pk, "kind": "TIME_SUSPENSION", "minutes": 10, "reason_code": "LATE_SEAT_TAKING"}
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="suspend-1")
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="suspend-1")
    assert first.status_code == again.status_code == 201 and again.data["id"] == first.data["id"]
    assert Penalty.objects.filter(tournament=t, kind="TIME_SUSPENSION").count() == 1
    assert [x["label"] for x in _map_row(t, entries[2])["penalties"]] == ["Time suspension: 10:00 left · clock paused"]  # not started yet


@pytest.mark.django_db
def test_pen02_missed_rounds_sent_again_after_a_lost_answer_are_counted_once(api, make_tournament, make_person, director, floor_user):
    """Two rounds at a table of six, sent twice with the same key after a lost answer: one
    penalty of 12 hands, and the floor's list says "Missed rounds: starts after this hand" once."""
    t, entries, table, actor = _table_of_six(make_tournament, make_person, director)
    client = api(floor_user)
    url = f"/api/v1/tournaments/{t.pk}/floor/penalties/"
    body = {"entry": entries[4].pk, "kind": "MISSED_ROUNDS", "rounds": 2, "reason_code": "ABUSIVE_CONDUCT"}
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="rounds-1")
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="rounds-1")
    assert first.status_code == again.status_code == 201 and (again.data["id"], again.data["hands_total"]) == (first.data["id"], 12)
    assert [x["progress"]["label"] for x in client.get(url).data] == ["Missed rounds: starts after this hand"]


@pytest.mark.django_db
def test_pen05_a_running_suspension_counts_down_on_the_map_and_leaves_it_when_its_time_is_up(api, make_tournament, make_person, director, floor_user):
    """PEN-05: ten minutes for late seat-taking with the clock running. 3 min 25 s later the table
    map and the floor's list say 6:35 left, the clock not paused. Half a minute after the ten
    minutes the map no longer shows it, even before anyone lists it served; the floor's full list
    still shows it running at 0:00 until the floor's list marks it served, then just its kind."""
    t, entries, table, actor = _table_of_six(make_tournament, make_person, director, rule_set="SANREMO_003")
    t0 = timezone.now().replace(microsecond=0)
    clock_services.start_clock(t, actor=actor, now=t0)
    p = floor.issue_penalty(t, entries[2], kind="TIME_SUSPENSION", reason_code="LATE_SEAT_TAKING", minutes=10, actor=actor, now=t0)
    client = api(floor_user)
    url = f"/api/v1/tournaments/{t.pk}/floor/penalties/"
    with time_machine.travel(t0 + timedelta(minutes=3, seconds=25), tick=False):
        running = {
            "kind_label": "Time suspension",
            "started": True,
            "hands_left": None,
            "seconds_left": 395,
            "clock_paused": False,
            "label": "Time suspension: 6:35 left",
        }
        assert _map_row(t, entries[2])["penalties"] == [running]
        assert [x["progress"] for x in client.get(url).data] == [running]
    with time_machine.travel(t0 + timedelta(minutes=10, seconds=30), tick=False):
        assert _map_row(t, entries[2])["penalties"] == []
        listed = client.get(url, {"all": 1}).data
        assert [(x["id"], x["status"], x["progress"]["label"], x["progress"]["seconds_left"]) for x in listed] == [
            (p.pk, "ACTIVE", "Time suspension: 0:00 left", 0)
        ]
        assert client.get(url).data == []  # the floor's list: served now
        served = {"kind_label": "Time suspension", "started": True, "hands_left": None, "seconds_left": None, "clock_paused": False, "label": "Time suspension"}
        assert [(x["status"], x["progress"]) for x in client.get(url, {"all": 1}).data] == [("SERVED", served)]


@pytest.mark.django_db
def test_pen03_counted_at_the_next_hand_the_map_shows_no_hands_left_until_the_hand_is_over(make_tournament, make_person, director):
    """PEN-03 with the players counted at the next hand (C25): while the hand in play goes on the
    number of hands is not known, so the map shows none (not 0); when the hand is over the
    penalty starts with 5 players x 2 rounds = 10 hands."""
    t, entries, table, actor = _table_of_six(make_tournament, make_person, director, rule_set="SANREMO_003", settings={"count_players_at": "NEXT_HAND"})
    floor.issue_penalty(t, entries[0], kind="MISSED_ROUNDS", reason_code="ABUSIVE_CONDUCT", rounds=2, actor=actor)
    [before] = _map_row(t, entries[0])["penalties"]
    assert (before["started"], before["hands_left"], before["label"]) == (False, None, "Missed rounds: starts after this hand")
    seating.record_bust(t, [entries[5].pk], actor=actor)
    seating.hand_completed(t, table, actor=actor)
    [after] = _map_row(t, entries[0])["penalties"]
    assert (after["started"], after["hands_left"], after["label"]) == (True, 10, "Missed rounds: 10 of 10 hands left")


@pytest.mark.django_db
def test_pen03_each_events_floor_list_shows_only_its_own_penalties(api, make_tournament, make_person, director, floor_user):
    """Two events running side by side, a penalty in each: each event's floor list shows its own
    player's penalty, not the other event's."""
    t, entries, _table, actor = _table_of_six(make_tournament, make_person, director)
    other, others, _other_table, _ = _table_of_six(make_tournament, make_person, director)
    mine = floor.issue_penalty(t, entries[1], kind="MISSED_HANDS", reason_code="ABUSIVE_CONDUCT", hands=2, actor=actor)
    theirs = floor.issue_penalty(other, others[1], kind="MISSED_HANDS", reason_code="ABUSIVE_CONDUCT", hands=3, actor=actor)
    client = api(floor_user)
    assert [(x["id"], x["entry"]) for x in client.get(f"/api/v1/tournaments/{t.pk}/floor/penalties/").data] == [(mine.pk, entries[1].pk)]
    assert [(x["id"], x["entry"]) for x in client.get(f"/api/v1/tournaments/{other.pk}/floor/penalties/").data] == [(theirs.pk, others[1].pk)]
