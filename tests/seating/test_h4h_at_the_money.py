"""CLK-06: hand-for-hand is played for the bubble. The hand that reaches the money is its last:
once every table has finished it, the clock runs again on its own (house setting
``h4h_ends_at_money``); a player out at another table in that same hand is still that hand's,
shared or ranked as RP-8 / ELM-04 say. Meanwhile no screen calls "12 left, 12 paid" a bubble."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone, translation

from payouts import selectors as payouts
from seating import services as seating
from seating.models import Bust, Seat
from tournaments.cashier import services as cashier
from tournaments.clock import rules as clock_rules
from tournaments.clock import services as clock_services
from tournaments.live.snapshot import build_snapshot
from tournaments.models import Clock, Entry
from tournaments.oversight.selectors import event_sentences
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db
T0 = timezone.now().replace(microsecond=0) + timedelta(days=1)


def clock_of(t) -> Clock:
    return Clock.objects.get(tournament=t)


def player_at(t, table: int) -> int:
    return Seat.objects.filter(tournament=t, table__number=table).order_by("number").values_list("entry_id", flat=True).first()


def left(t) -> int:
    return t.entries.filter(status=Entry.ACTIVE).count()


@pytest.fixture
def bubble(make_tournament, make_person, actor, cashier_actor):
    """``bubble(players_left, **settings)``: 16 paid entries at two tables, 12 places paid
    (75 %), players out at both tables until ``players_left`` remain, then hand-for-hand."""

    def make(players_left=13, rule_set="TDA", **settings):
        t = make_tournament(rule_set=rule_set, settings={"percent_paid": 75, **settings})
        for _ in range(16):
            cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
        lifecycle.start(t, actor=actor, prestart_report_sent=True)
        clock_services.start_clock(t, actor=actor, now=T0)
        while left(t) > players_left:
            seating.record_bust(t, [player_at(t, 1 + left(t) % 2)], actor=actor)
        assert payouts.places_paid(t) == 12 and left(t) == players_left
        clock_services.start_hand_for_hand(t, actor=actor, reason="bubble", now=T0 + timedelta(minutes=2, seconds=30))
        return t

    return make


def test_two_players_out_in_the_bubble_hand_share_and_hand_for_hand_ends_with_that_hand(bubble, actor):
    t = bubble(13)
    frozen = clock_of(t).remaining
    first = player_at(t, 1)
    seating.record_bust(t, [{"entry": first, "starting_stack": 20000}], actor=actor, table=1)  # 12 left: the money
    snap = build_snapshot(t)
    assert (snap["players_left"], snap["places_paid"], snap["lobby_state"]) == (12, 12, "hand_for_hand")
    assert snap["h4h_in_the_money"] and snap["h4h_last_hand"]  # the screens speak of the money
    out = seating.hand_completed(t, 1, actor=actor)
    assert out.hand_for_hand["waiting"] == [2] and not out.hand_for_hand["hand_for_hand_ended"]
    assert clock_of(t).status == Clock.HAND_FOR_HAND  # table 2 still plays the same hand
    second = player_at(t, 2)
    seating.record_bust(t, [{"entry": second, "starting_stack": 50000}], actor=actor, table=2)
    # RP-8-A (TDA: SHARE): both out in the hand that burst the bubble share 12th and 13th
    rows = {b.entry_id: (b.h4h_hand, b.place, b.shared_with) for b in Bust.objects.filter(entry__in=[first, second])}
    assert rows == {first: (1, 12, 2), second: (1, 12, 2)}
    out = seating.hand_completed(t, 2, actor=actor, now=T0 + timedelta(minutes=5))
    assert out.hand_for_hand["hand_for_hand_ended"] and not out.hand_for_hand["next_hand_started"]
    clock = clock_of(t)
    assert (clock.status, clock.h4h_hand) == (Clock.RUNNING, 0)
    # the hand played cost its time too (RP-8-B), then the clock runs in real time
    assert clock.ends_at == T0 + timedelta(minutes=5) + timedelta(seconds=frozen - 120)
    assert build_snapshot(t)["lobby_state"] == "running"
    event = t.events.filter(action="tournaments.clock.hand_for_hand_ended").get()
    with translation.override("it"):
        (row,) = event_sentences([event])
    assert row.sentence == "Mano per mano terminata da sola: zona premi raggiunta (11 giocatori rimasti, 12 pagati) e ogni tavolo ha finito la mano"


def test_under_sanremo_the_two_out_in_the_bubble_hand_are_ranked_by_their_stacks(bubble, actor):
    t = bubble(13, rule_set="SANREMO_003")
    first, second = player_at(t, 1), player_at(t, 2)
    seating.record_bust(t, [{"entry": first, "starting_stack": 20000}], actor=actor, table=1)
    seating.hand_completed(t, 1, actor=actor)
    seating.record_bust(t, [{"entry": second, "starting_stack": 50000}], actor=actor, table=2)
    places = dict(Bust.objects.filter(entry__in=[first, second]).values_list("entry_id", "place"))
    assert places == {second: 12, first: 13}  # 003 Art. 4.2.30: the bigger stack ranks higher
    seating.hand_completed(t, 2, actor=actor)
    assert clock_of(t).status == Clock.RUNNING


def test_a_hand_short_of_the_money_goes_on_to_the_next_hand(bubble, actor):
    t = bubble(14)
    seating.record_bust(t, [player_at(t, 1)], actor=actor, table=1)  # 13 left: still the bubble
    assert not build_snapshot(t)["h4h_in_the_money"]
    for table in (1, 2):
        seating.hand_completed(t, table, actor=actor)
    assert (clock_of(t).status, clock_of(t).h4h_hand) == (Clock.HAND_FOR_HAND, 2)


def test_the_house_may_keep_hand_for_hand_on_past_the_money(bubble, actor):
    t = bubble(13, h4h_ends_at_money=False)
    seating.record_bust(t, [player_at(t, 1)], actor=actor, table=1)
    snap = build_snapshot(t)
    assert snap["h4h_in_the_money"] and not snap["h4h_last_hand"]
    for table in (1, 2):
        seating.hand_completed(t, table, actor=actor)
    assert (clock_of(t).status, clock_of(t).h4h_hand) == (Clock.HAND_FOR_HAND, 2)


def test_hand_for_hand_announced_in_the_money_is_the_directors_to_end(bubble, actor):
    t = bubble(12)  # announced with every player paid (a final table's bubble): nothing to reach
    for table in (1, 2):
        seating.hand_completed(t, table, actor=actor)
    assert (clock_of(t).status, clock_of(t).h4h_hand) == (Clock.HAND_FOR_HAND, 2)
    clock_services.h4h_next_hand(t, actor=actor)  # the director's own "next hand" follows the same rule
    assert clock_of(t).h4h_hand == 3


def test_the_rule_itself():
    # players left, places paid, players out in the hand → is it hand-for-hand's last hand?
    assert clock_rules.h4h_ends_with_hand(12, 12, 1)  # the 13th out: the money
    assert clock_rules.h4h_ends_with_hand(11, 12, 2)  # two out in the bubble hand
    assert not clock_rules.h4h_ends_with_hand(13, 12, 1)  # still the bubble
    assert not clock_rules.h4h_ends_with_hand(12, 12, 0)  # in the money before the hand began
    assert not clock_rules.h4h_ends_with_hand(12, 12, 1, ends_at_money=False)
    assert not clock_rules.h4h_ends_with_hand(12, None, 1) and not clock_rules.h4h_ends_with_hand(12, 0, 1)  # no payout table


def test_hand_for_hand_announced_again_right_after_the_money_is_a_new_one(bubble, actor):
    t = bubble(13)
    bubble_out = player_at(t, 1)
    seating.record_bust(t, [bubble_out], actor=actor, table=1)
    for table in (1, 2):
        seating.hand_completed(t, table, actor=actor)  # the money: over
    clock_services.start_hand_for_hand(t, actor=actor, reason="the final table's bubble")  # no bust since
    assert build_snapshot(t)["h4h_done"] == []  # nobody has played this announcement's first hand
    out = seating.hand_completed(t, 1, actor=actor)
    assert out.hand_for_hand["waiting"] == [2] and clock_of(t).status == Clock.HAND_FOR_HAND
    later = player_at(t, 2)
    seating.record_bust(t, [later], actor=actor, table=2)
    # its own hand: 12th alone, not sharing with the bubble hand's 13th
    assert dict(Bust.objects.filter(entry__in=[bubble_out, later]).values_list("entry_id", "place")) == {bubble_out: 13, later: 12}
    seating.hand_completed(t, 2, actor=actor)
    assert clock_of(t).status == Clock.HAND_FOR_HAND  # announced in the money: the director ends it


def test_the_clock_page_says_hand_for_hand_ended_by_itself_at_the_money_and_when(bubble, actor):
    t = bubble(13)
    seating.record_bust(t, [player_at(t, 1)], actor=actor, table=1)  # 12 left: the money
    seating.hand_completed(t, 1, actor=actor)
    with time_machine.travel(T0 + timedelta(minutes=5), tick=False):
        seating.hand_completed(t, 2, actor=actor, now=T0 + timedelta(minutes=5))  # the last table: over
    clock_services.pause(t, actor=actor, reason="photo of the money bubble", now=T0 + timedelta(minutes=6))
    # still said after a later clock action, with the time it ended
    assert build_snapshot(t)["h4h_ended"] == {"money_reached": True, "at": (T0 + timedelta(minutes=5)).isoformat()}


def test_hand_for_hand_the_director_ends_is_not_said_to_have_reached_the_money(bubble, actor, make_tournament, make_person, cashier_actor):
    t = bubble(12)  # announced in the money: the director ends it
    with time_machine.travel(T0 + timedelta(minutes=4), tick=False):
        clock_services.end_hand_for_hand(t, actor=actor, reason="the final table is drawn", now=T0 + timedelta(minutes=4))
    side = make_tournament(name="Side event")  # another event's hand-for-hand, announced since, is not this one's
    for _ in range(3):
        cashier.register(side, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(side, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(side, actor=actor, now=T0)
    clock_services.start_hand_for_hand(side, actor=actor, reason="bubble", now=T0 + timedelta(minutes=5))
    assert build_snapshot(t)["h4h_ended"] == {"money_reached": False, "at": (T0 + timedelta(minutes=4)).isoformat()}
