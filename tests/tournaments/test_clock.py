"""Clock arithmetic (tournaments/clock/rules.py): RULES §5 and scenarios 1, 18, 32, 33."""

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.clock import rules as clock_rules
from tournaments.clock.rules import (
    BB_ANTE,
    FINISHED,
    HAND_FOR_HAND,
    NOT_STARTED,
    PAUSED,
    RUNNING,
    SKIP_BREAK,
    Break,
    ClockError,
    ClockState,
    Level,
)

T0 = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)


def at(minutes=0, seconds=0):
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def twenty_minute_levels(count=6):
    """Level n: 100n / 200n, 20 minutes, no breaks (scenario 18)."""
    return [Level(100 * n, 200 * n, minutes=20) for n in range(1, count + 1)]


# L1 20', L2 20', break 15' (colour-up T25, add-on), L3 20', L4 20'
WITH_BREAK = [
    Level(25, 50, minutes=20),
    Level(50, 100, minutes=20),
    Break(15, color_up="T25", add_on=True),
    Level(100, 200, 200, BB_ANTE, minutes=20),
    Level(150, 300, 300, BB_ANTE, minutes=20),
]


def running(structure, started=T0):
    return clock_rules.start(clock_rules.new_clock(structure), structure, started)


def left(state, structure, now):
    return clock_rules.seconds_left(state, structure, now)


def refused(code, fn, *args, **kwargs):
    with pytest.raises(ClockError) as info:
        fn(*args, **kwargs)
    assert info.value.code == code
    return info.value


# ---------------------------------------------------------------- structure


def test_a_level_may_have_small_blind_equal_to_big_blind():
    assert Level(100, 100, minutes=10).big_blind == 100


def test_a_small_blind_above_the_big_blind_is_refused():
    refused("bad_level", Level, 200, 100, minutes=10)


def test_an_ante_without_an_ante_type_is_refused():
    refused("bad_level", Level, 100, 200, 25, minutes=10)
    refused("bad_level", Level, 100, 200, 0, BB_ANTE, minutes=10)


def test_a_structure_must_end_with_a_level_that_acts_as_cap():
    refused("bad_structure", clock_rules.validate_structure, [Level(1, 2, minutes=5), Break(5)])
    refused("bad_structure", clock_rules.validate_structure, [])


def test_a_falling_ante_is_flagged_as_a_warning():
    structure = [
        Level(100, 200, 200, BB_ANTE, minutes=20),
        Level(150, 300, 100, BB_ANTE, minutes=20),
    ]
    warnings = clock_rules.validate_structure(structure)
    assert [w["code"] for w in warnings] == ["ante_decreases"]
    assert warnings[0]["item_index"] == 1


def test_clk02_an_ante_kept_or_raised_is_never_flagged_even_at_the_final_table():
    """The allowed case: an ante that starts, stays the same for a level, rises across a break
    and holds at the final table gives no warning, so a director is never told to fix a sound
    structure."""
    structure = [
        Level(100, 200, minutes=20),  # no ante yet
        Level(150, 300, 300, BB_ANTE, minutes=20),  # the ante starts
        Level(200, 400, 300, BB_ANTE, minutes=20),  # the same ante, blinds up
        Break(10),
        Level(300, 600, 600, BB_ANTE, minutes=20),
        Level(400, 800, 600, BB_ANTE, minutes=20),  # the final table from here: the same ante
    ]
    assert clock_rules.validate_structure(structure) == []
    assert clock_rules.final_table_ante_warnings(structure, 5) == []
    assert clock_rules.final_table_ante_warnings(structure, 4) == []


def test_level_numbers_skip_breaks():
    assert [clock_rules.level_number_of(WITH_BREAK, i) for i in range(5)] == [1, 2, 2, 3, 4]
    assert clock_rules.level_index(WITH_BREAK, 3) == 3
    refused("bad_level", clock_rules.level_index, WITH_BREAK, 5)


# ---------------------------------------------------------------- running


def test_a_new_clock_waits_on_level_one_with_its_full_time():
    state = clock_rules.new_clock(WITH_BREAK)
    assert (state.status, state.item_index, state.remaining, state.version) == (
        NOT_STARTED,
        0,
        1200.0,
        0,
    )
    assert clock_rules.level_number_at(state, WITH_BREAK, at(500)) == 1


def test_starting_the_clock_sets_the_end_of_level_one():
    state = running(WITH_BREAK)
    assert state.status == RUNNING
    assert state.ends_at == at(20)
    assert state.version == 1


def test_the_clock_moves_to_level_two_when_level_one_runs_out():
    state = clock_rules.advance(running(WITH_BREAK), WITH_BREAK, at(20))
    assert state.item_index == 1
    assert state.ends_at == at(40)


def test_a_late_sweep_carries_the_overshoot_so_the_schedule_does_not_drift():
    state = clock_rules.advance(running(WITH_BREAK), WITH_BREAK, at(20, 7))
    assert state.ends_at == at(40)  # not 20:40:07
    assert left(state, WITH_BREAK, at(20, 7)) == 20 * 60 - 7


def test_a_stale_row_rolls_over_a_level_and_a_break_at_once():
    state = clock_rules.advance(running(WITH_BREAK), WITH_BREAK, at(56))
    assert state.item_index == 3  # L1 to 20:20, L2 to 20:40, break to 20:55
    assert state.ends_at == at(75)
    assert state.version == 1 + 3


def test_the_last_level_repeats_forever_as_a_cap():
    structure = [Level(100, 100, minutes=10), Level(500, 1000, minutes=12)]
    state = clock_rules.advance(running(structure), structure, at(10 + 12 * 5 + 3))
    assert state.item_index == 1
    assert state.ends_at == at(10 + 12 * 6)
    snap = clock_rules.snapshot(state, structure, at(75))
    assert snap["is_final_level"] is True
    assert snap["next"] is None
    assert snap["hold_dealer_push"] is False


def test_advance_leaves_a_paused_clock_alone():
    paused = clock_rules.pause(running(WITH_BREAK), WITH_BREAK, at(5))
    assert clock_rules.advance(paused, WITH_BREAK, at(500)) == paused


def test_pause_keeps_the_seconds_left_and_resume_restarts_from_them():
    paused = clock_rules.pause(running(WITH_BREAK), WITH_BREAK, at(5, 30))
    assert (paused.status, paused.remaining, paused.ends_at) == (PAUSED, 870.0, None)
    resumed = clock_rules.resume(paused, WITH_BREAK, at(45))
    assert resumed.status == RUNNING
    assert resumed.ends_at == at(45 + 14, 30)
    assert resumed.version == paused.version + 1


def test_pausing_rolls_a_stale_row_first():
    paused = clock_rules.pause(running(WITH_BREAK), WITH_BREAK, at(25))
    assert paused.item_index == 1
    assert paused.remaining == 15 * 60


def test_wrong_pause_and_resume_calls_are_refused():
    fresh = clock_rules.new_clock(WITH_BREAK)
    refused("not_running", clock_rules.pause, fresh, WITH_BREAK, T0)
    refused("not_paused", clock_rules.resume, fresh, WITH_BREAK, T0)
    state = running(WITH_BREAK)
    refused("already_running", clock_rules.resume, state, WITH_BREAK, at(1))
    refused("already_started", clock_rules.start, state, WITH_BREAK, at(1))
    paused = clock_rules.pause(state, WITH_BREAK, at(1))
    refused("already_paused", clock_rules.pause, paused, WITH_BREAK, at(2))


def test_a_naive_datetime_is_refused():
    refused("bad_time", clock_rules.advance, running(WITH_BREAK), WITH_BREAK, datetime(2026, 1, 1))


# ---------------------------------------------------------------- adjusting


def test_adding_a_minute_moves_the_end_of_the_level():
    state = clock_rules.add_time(running(WITH_BREAK), WITH_BREAK, at(5), 60)
    assert state.ends_at == at(21)
    assert state.version == 2


def test_removing_time_shortens_the_level():
    state = clock_rules.add_time(running(WITH_BREAK), WITH_BREAK, at(5), -300)
    assert left(state, WITH_BREAK, at(5)) == 600


def test_removing_more_time_than_is_left_is_refused():
    refused("bad_time", clock_rules.add_time, running(WITH_BREAK), WITH_BREAK, at(5), -900)


def test_adding_time_to_a_paused_clock_changes_the_frozen_time():
    paused = clock_rules.pause(running(WITH_BREAK), WITH_BREAK, at(5))
    assert clock_rules.add_time(paused, WITH_BREAK, at(9), 120).remaining == 17 * 60


def test_set_time_left_sets_the_countdown():
    state = clock_rules.set_time_left(running(WITH_BREAK), WITH_BREAK, at(5), 90)
    assert state.ends_at == at(6, 30)
    refused("bad_time", clock_rules.set_time_left, state, WITH_BREAK, at(5), 0)
    refused("bad_time", clock_rules.set_time_left, state, WITH_BREAK, at(5), float("nan"))


def test_jumping_to_a_level_gives_it_its_full_time():
    state = clock_rules.jump_to(running(WITH_BREAK), WITH_BREAK, at(5), 3)
    assert state.item_index == 3
    assert state.ends_at == at(25)
    assert clock_rules.level_number_at(state, WITH_BREAK, at(5)) == 3


def test_jumping_with_seconds_left_and_while_paused_keeps_the_clock_paused():
    paused = clock_rules.pause(running(WITH_BREAK), WITH_BREAK, at(5))
    state = clock_rules.jump_to(paused, WITH_BREAK, at(6), 1, seconds_left=300)
    assert (state.status, state.item_index, state.remaining) == (PAUSED, 1, 300.0)


def test_jumping_to_an_unknown_item_is_refused():
    refused("bad_level", clock_rules.jump_to, running(WITH_BREAK), WITH_BREAK, at(5), 9)


def test_an_inserted_break_starts_now_and_the_level_resumes_with_its_time_left():
    state = clock_rules.advance(running(WITH_BREAK), WITH_BREAK, at(32, 30))  # level 2, 7:30 left
    structure, state = clock_rules.insert_break(state, WITH_BREAK, at(32, 30), 10)

    assert len(structure) == len(WITH_BREAK) + 1
    assert structure[1] == Break(10, resume_seconds_left=450.0)
    assert structure[2] == WITH_BREAK[1]
    assert (state.item_index, state.ends_at) == (1, at(42, 30))
    snap = clock_rules.snapshot(state, structure, at(35))
    assert snap["is_break"] and snap["is_mid_level_break"]
    assert snap["level_number"] == 2
    assert not clock_rules.in_break_after_level(1, state, structure, at(35))
    assert not clock_rules.has_level_ended(2, state, structure, at(35))

    after = clock_rules.advance(state, structure, at(43))
    assert after.item_index == 2
    assert after.ends_at == at(50)  # 20:42:30 + 7:30
    assert clock_rules.level_number_at(after, structure, at(43)) == 2
    assert clock_rules.level_number_of(structure, 4) == 3  # later levels keep their numbers
    assert clock_rules.advance(after, structure, at(50)).item_index == 3  # the scheduled break


def test_a_break_inserted_at_the_start_of_a_level_is_not_the_break_after_the_previous_one():
    structure = twenty_minute_levels(4)
    state = clock_rules.advance(running(structure), structure, at(20))  # level 2 just began
    structure, state = clock_rules.insert_break(state, structure, at(20), 10)
    assert not clock_rules.in_break_after_level(1, state, structure, at(25))
    assert clock_rules.has_break_after_level_ended(1, state, structure, at(25))
    assert not clock_rules.has_level_ended(2, state, structure, at(49, 59))
    assert clock_rules.has_level_ended(2, state, structure, at(50))


def test_a_break_inserted_on_a_paused_clock_waits_for_resume():
    paused = clock_rules.pause(running(WITH_BREAK), WITH_BREAK, at(5))
    structure, state = clock_rules.insert_break(paused, WITH_BREAK, at(6), 20)
    assert (state.status, state.item_index, state.remaining) == (PAUSED, 0, 1200.0)
    state = clock_rules.resume(state, structure, at(10))
    assert clock_rules.advance(state, structure, at(30)).ends_at == at(45)  # 15:00 of level 1 left


def test_a_break_cannot_be_inserted_during_a_break():
    state = clock_rules.advance(running(WITH_BREAK), WITH_BREAK, at(45))
    refused("in_break", clock_rules.insert_break, state, WITH_BREAK, at(45), 5)


def test_finishing_stops_the_clock_for_good():
    state = clock_rules.finish(running(WITH_BREAK), WITH_BREAK, at(30))
    assert (state.status, state.item_index, state.ends_at) == (FINISHED, 1, None)
    assert clock_rules.advance(state, WITH_BREAK, at(90)) == state
    assert clock_rules.has_level_ended(4, state, WITH_BREAK, at(31))
    refused("already_finished", clock_rules.finish, state, WITH_BREAK, at(31))
    refused("finished", clock_rules.add_time, state, WITH_BREAK, at(31), 60)


# ---------------------------------------------------------------- hand-for-hand


def h4h_at_17_30():
    structure = twenty_minute_levels()
    state = clock_rules.start_hand_for_hand(running(structure), structure, at(2, 30))
    return structure, state


def test_hand_for_hand_takes_two_minutes_per_hand_as_printed_in_rp8():
    structure, state = h4h_at_17_30()
    assert (state.status, state.remaining, state.h4h_hand) == (HAND_FOR_HAND, 1050.0, 1)
    shown = []
    for _ in range(4):
        state = clock_rules.h4h_next_hand(state, structure)
        shown.append(state.remaining)
    assert shown == [930.0, 810.0, 690.0, 570.0]  # 15:30, 13:30, 11:30, 9:30
    assert state.h4h_hand == 5


def test_the_clock_does_not_run_in_real_time_during_hand_for_hand():
    structure, state = h4h_at_17_30()
    assert clock_rules.advance(state, structure, at(50)) == state
    assert clock_rules.snapshot(state, structure, at(50))["seconds_left"] == 1050.0


def test_an_overrun_in_hand_for_hand_is_carried_into_the_next_level():
    structure = twenty_minute_levels()
    state = clock_rules.start_hand_for_hand(running(structure), structure, at(18, 30))  # 1:30 left
    state = clock_rules.h4h_next_hand(state, structure)
    assert state.item_index == 1
    assert state.remaining == 20 * 60 - 30  # 19:30 of level 2
    snap = clock_rules.snapshot(state, structure, at(30))
    assert snap["level_number"] == 2
    assert snap["new_level_notice"] is True
    assert clock_rules.snapshot(clock_rules.h4h_next_hand(state, structure), structure, at(31))["new_level_notice"] is False


def test_time_running_out_exactly_starts_the_next_level_with_its_full_time():
    structure = twenty_minute_levels()
    state = clock_rules.start_hand_for_hand(running(structure), structure, at(18))  # 2:00 left
    state = clock_rules.h4h_next_hand(state, structure)
    assert (state.item_index, state.remaining) == (1, 1200.0)


def test_a_hand_for_hand_overrun_can_cross_several_short_levels():
    structure = [Level(n, 2 * n, minutes=1) for n in (1, 2, 3, 4)]
    state = clock_rules.start_hand_for_hand(running(structure), structure, at(0, 30))
    state = clock_rules.h4h_next_hand(state, structure)  # 30 - 120 = -90: L2 -30, L3 +30
    assert (state.item_index, state.remaining) == (2, 30.0)


def test_by_default_hand_for_hand_stops_at_a_scheduled_break_and_the_break_is_taken_in_full():
    state = clock_rules.advance(running(WITH_BREAK), WITH_BREAK, at(39))  # level 2, 1:00 left
    state = clock_rules.start_hand_for_hand(state, WITH_BREAK, at(39))
    state = clock_rules.h4h_next_hand(state, WITH_BREAK)
    assert (state.status, state.item_index, state.remaining) == (PAUSED, 2, 900.0)
    assert state.h4h_hand == 0
    state = clock_rules.resume(state, WITH_BREAK, at(41))
    assert state.ends_at == at(56)


def test_the_skip_policy_passes_over_the_break_during_hand_for_hand():
    state = clock_rules.advance(running(WITH_BREAK), WITH_BREAK, at(39))
    state = clock_rules.start_hand_for_hand(state, WITH_BREAK, at(39))
    state = clock_rules.h4h_next_hand(state, WITH_BREAK, break_policy=SKIP_BREAK)
    assert (state.status, state.item_index, state.remaining) == (HAND_FOR_HAND, 3, 1140.0)


def test_ending_hand_for_hand_runs_the_clock_from_the_frozen_time():
    structure, state = h4h_at_17_30()
    state = clock_rules.h4h_next_hand(state, structure)
    state = clock_rules.end_hand_for_hand(state, at(30))
    assert state.status == RUNNING
    assert state.ends_at == at(30 + 15, 30)
    assert state.h4h_hand == 0


def test_hand_for_hand_misuse_is_refused():
    structure, state = h4h_at_17_30()
    refused("already_hand_for_hand", clock_rules.start_hand_for_hand, state, structure, at(3))
    refused("not_hand_for_hand", clock_rules.h4h_next_hand, running(structure), structure)
    refused("not_hand_for_hand", clock_rules.end_hand_for_hand, running(structure), at(1))
    refused("bad_policy", clock_rules.h4h_next_hand, state, structure, break_policy="NAP")
    refused("not_running", clock_rules.start_hand_for_hand, clock_rules.new_clock(structure), structure, T0)
    on_break = clock_rules.advance(running(WITH_BREAK), WITH_BREAK, at(45))
    refused("in_break", clock_rules.start_hand_for_hand, on_break, WITH_BREAK, at(45))
    refused("hand_for_hand", clock_rules.jump_to, state, structure + [Break(5), Level(9, 9, minutes=5)], at(3), 6)


def test_hand_for_hand_can_be_announced_on_a_paused_clock():
    structure = twenty_minute_levels()
    paused = clock_rules.pause(running(structure), structure, at(5))
    state = clock_rules.start_hand_for_hand(paused, structure, at(9), seconds_per_hand=90)
    assert (state.remaining, state.h4h_seconds_per_hand) == (900.0, 90)
    assert clock_rules.h4h_next_hand(state, structure).remaining == 810.0


# ---------------------------------------------------------------- boundaries


def test_late_registration_closes_at_the_end_of_level_three_scenario_18():
    structure = twenty_minute_levels()
    state = running(structure)
    assert clock_rules.has_level_ended(3, state, structure, at(59)) is False  # 20:59 accepted
    assert clock_rules.has_level_ended(3, state, structure, at(60)) is True
    assert clock_rules.has_level_ended(3, state, structure, at(61)) is True  # 21:01 refused


def test_late_registration_stays_open_while_the_clock_is_paused_in_level_three():
    structure = twenty_minute_levels()
    paused = clock_rules.pause(running(structure), structure, at(50))
    assert clock_rules.has_level_ended(3, paused, structure, at(61)) is False
    assert clock_rules.has_level_ended(2, paused, structure, at(61)) is True


def test_no_level_has_ended_before_the_start_and_the_cap_never_ends():
    structure = twenty_minute_levels(3)
    assert clock_rules.has_level_ended(1, clock_rules.new_clock(structure), structure, at(90)) is False
    assert clock_rules.has_level_ended(3, running(structure), structure, at(600)) is False


def test_the_break_after_a_level_opens_and_closes_the_add_on_window():
    state = running(WITH_BREAK)
    assert not clock_rules.in_break_after_level(2, state, WITH_BREAK, at(39))
    assert clock_rules.in_break_after_level(2, state, WITH_BREAK, at(40))
    assert not clock_rules.in_break_after_level(1, state, WITH_BREAK, at(40))
    assert clock_rules.in_break_after_level(2, state, WITH_BREAK, at(54, 59))
    assert not clock_rules.in_break_after_level(2, state, WITH_BREAK, at(55))


def test_the_end_of_the_break_after_a_level_is_a_second_late_registration_mode():
    state = running(WITH_BREAK)
    assert clock_rules.has_level_ended(2, state, WITH_BREAK, at(40))
    assert not clock_rules.has_break_after_level_ended(2, state, WITH_BREAK, at(54))
    assert clock_rules.has_break_after_level_ended(2, state, WITH_BREAK, at(55))
    assert clock_rules.has_break_after_level_ended(3, state, WITH_BREAK, at(75))


def test_the_next_transition_is_armed_only_while_running():
    state = running(WITH_BREAK)
    assert clock_rules.next_transition_at(state, WITH_BREAK, at(25)) == at(40)
    assert clock_rules.seconds_until_transition(state, WITH_BREAK, at(25)) == 900.0
    paused = clock_rules.pause(state, WITH_BREAK, at(25))
    assert clock_rules.next_transition_at(paused, WITH_BREAK, at(26)) is None
    assert clock_rules.seconds_until_transition(paused, WITH_BREAK, at(26)) is None


# ---------------------------------------------------------------- snapshot


def test_the_snapshot_shows_blinds_next_level_and_time_to_the_break():
    snap = clock_rules.snapshot(running(WITH_BREAK), WITH_BREAK, at(5))
    assert snap["level_number"] == 1
    assert (snap["small_blind"], snap["big_blind"], snap["ante"]) == (25, 50, 0)
    assert snap["seconds_left"] == 900.0
    assert snap["ends_at"] == "2026-01-01T20:20:00+00:00"
    assert snap["next"]["kind"] == "level" and snap["next"]["big_blind"] == 100
    assert snap["next_break_index"] == 2
    assert snap["seconds_to_next_break"] == 900.0 + 1200.0
    json.dumps(snap)


def test_the_snapshot_of_a_break_shows_the_colour_up_and_the_level_to_come():
    snap = clock_rules.snapshot(running(WITH_BREAK), WITH_BREAK, at(41))
    assert snap["is_break"] is True
    assert snap["small_blind"] is None
    assert (snap["color_up"], snap["add_on"]) == ("T25", True)
    assert snap["level_number"] == 2
    assert snap["next"]["level_number"] == 3 and snap["next"]["ante_type"] == BB_ANTE
    assert snap["next_break_index"] is None
    assert snap["new_level_notice"] is False and snap["hold_dealer_push"] is False


def test_a_stale_row_still_gives_the_right_snapshot():
    state = running(WITH_BREAK)
    snap = clock_rules.snapshot(state, WITH_BREAK, at(61))
    assert (snap["item_index"], snap["level_number"], snap["seconds_left"]) == (3, 3, 840.0)
    assert snap["version"] == state.version + 3


def test_the_new_level_applies_from_the_next_hand_and_pushes_are_held_scenario_32():
    structure = [Level(100 * n, 200 * n, minutes=15) for n in (1, 2, 3)]
    state = running(structure)  # level 1 ends at 20:15:00

    def snap(minutes, seconds=0):
        return clock_rules.snapshot(state, structure, at(minutes, seconds))

    assert snap(13, 29)["hold_dealer_push"] is False
    assert snap(13, 30)["hold_dealer_push"] is True
    assert snap(14, 59)["hold_dealer_push"] is True
    assert snap(14, 59)["new_level_notice"] is False

    changed = snap(15)
    assert changed["level_number"] == 2
    assert changed["new_level_notice"] is True
    assert changed["hold_dealer_push"] is False
    assert snap(16, 59)["new_level_notice"] is True
    assert snap(17)["new_level_notice"] is False


def test_the_first_level_and_a_level_after_a_break_carry_no_next_hand_notice():
    assert clock_rules.snapshot(running(WITH_BREAK), WITH_BREAK, at(0))["new_level_notice"] is False
    assert clock_rules.snapshot(running(WITH_BREAK), WITH_BREAK, at(55))["new_level_notice"] is False


def test_the_hold_window_is_configurable():
    snap = clock_rules.snapshot(running(WITH_BREAK), WITH_BREAK, at(18), hold_push_seconds=150)
    assert snap["hold_dealer_push"] is True


def test_clk05_the_push_is_held_before_a_break_and_in_hand_for_hand_not_while_paused_in_a_break_or_at_the_cap():
    """Level 2 ends at 20:40 with the break: the push is held from 20:38:30, also when the
        clock is hand-for-hand; not on a paused clock, not during the break itself (no hand is dealt,
    even in its last 90 seconds), and not in the
        last level, which repeats for ever (no change comes)."""
    state = running(WITH_BREAK)

    def held(s, minutes, seconds=0):
        return clock_rules.snapshot(s, WITH_BREAK, at(minutes, seconds))["hold_dealer_push"]

    assert held(state, 38, 29) is False
    assert held(state, 38, 30) is True  # 90 seconds before the scheduled break
    assert held(state, 53, 31) is False  # the break is on, 89 seconds to its end: no hand is dealt
    assert held(clock_rules.pause(state, WITH_BREAK, at(39)), 39) is False
    assert held(clock_rules.start_hand_for_hand(state, WITH_BREAK, at(39)), 39) is True
    assert held(state, 93, 31) is False  # the cap level: 89 seconds to its nominal end


# ---------------------------------------------------------------- calling the clock


def test_clock_call_presets_scenario_33():
    assert clock_rules.clock_call_seconds("TDA") == (25, 5)
    assert clock_rules.clock_call_expiry_text("TDA") == "dead hand if facing a bet, else check"
    assert clock_rules.clock_call_expiry_text("TDA", facing_bet=False) == "check"
    assert clock_rules.clock_call_seconds("SANREMO") == (60, 10)
    assert clock_rules.clock_call_expiry_text("SANREMO", facing_bet=False) == "dead hand"
    assert clock_rules.clock_call_seconds("HEADS_UP") == (30, 0)


def test_the_heads_up_clock_call_can_be_cut_to_ten_seconds_but_not_below():
    assert clock_rules.clock_call_seconds("HEADS_UP", 10) == (10, 0)
    refused("bad_time", clock_rules.clock_call_seconds, "HEADS_UP", 9)
    refused("bad_preset", clock_rules.clock_call_seconds, "WSOP")


# ---------------------------------------------------------------- properties

minutes_st = st.integers(min_value=1, max_value=30)
level_st = st.builds(lambda m: Level(100, 200, minutes=m), minutes_st)
break_st = st.builds(Break, minutes_st)
structures = st.lists(st.one_of(level_st, break_st), max_size=8).flatmap(lambda items: level_st.map(lambda cap: [*items, cap]))
levels_only = st.lists(level_st, min_size=1, max_size=6)
offsets = st.integers(min_value=0, max_value=6 * 3600 * 10**6).map(lambda us: timedelta(microseconds=us))


def entry_seconds(structure, index):
    return clock_rules._entry_seconds(structure, index)


@settings(max_examples=300)
@given(structures, offsets, offsets)
def test_advancing_in_two_steps_equals_advancing_in_one(structure, a, b):
    t1, t2 = T0 + min(a, b), T0 + max(a, b)
    state = running(structure)
    assert clock_rules.advance(clock_rules.advance(state, structure, t1), structure, t2) == clock_rules.advance(state, structure, t2)


@settings(max_examples=300)
@given(structures, offsets)
def test_elapsed_structure_time_equals_wall_time_while_running(structure, offset):
    now = T0 + offset
    state = clock_rules.advance(running(structure), structure, now)
    index = state.item_index
    scheduled = sum(entry_seconds(structure, j) for j in range(index + 1))
    beyond = (state.ends_at - T0).total_seconds() - scheduled
    cap = structure[-1].seconds
    assert beyond >= 0
    assert beyond == 0 or (index == len(structure) - 1 and beyond % cap == 0)
    assert 0 < (state.ends_at - now).total_seconds() <= entry_seconds(structure, index)


@settings(max_examples=200)
@given(structures, offsets, offsets)
def test_a_pause_loses_and_gains_no_time(structure, a, pause_length):
    paused_at = T0 + a
    state = running(structure)
    before = left(state, structure, paused_at)
    paused = clock_rules.pause(state, structure, paused_at)
    resumed = clock_rules.resume(paused, structure, paused_at + pause_length)
    assert left(resumed, structure, paused_at + pause_length) == pytest.approx(before, abs=1e-6)
    assert resumed.item_index == clock_rules.advance(state, structure, paused_at).item_index


@settings(max_examples=200)
@given(levels_only, st.integers(min_value=1, max_value=1800), st.integers(0, 40), st.integers(min_value=30, max_value=240))
def test_hand_for_hand_consumes_exactly_what_the_running_clock_would(structure, time_left, hands, per_hand):
    time_left = min(time_left, structure[0].seconds)
    frozen = ClockState(HAND_FOR_HAND, 0, None, float(time_left), 7, 1, per_hand)
    as_running = replace(frozen, status=RUNNING, ends_at=T0 + timedelta(seconds=time_left), remaining=0.0)
    for _ in range(hands):
        frozen = clock_rules.h4h_next_hand(frozen, structure)
    later = T0 + timedelta(seconds=hands * per_hand)
    ran = clock_rules.advance(as_running, structure, later)
    assert frozen.item_index == ran.item_index
    assert frozen.remaining == left(ran, structure, later)
    assert frozen.h4h_hand == 1 + hands


@settings(max_examples=200)
@given(structures, offsets)
def test_every_snapshot_is_json(structure, offset):
    """What the screens are sent comes back from JSON unchanged: no tuple, date, Decimal,
    non-text key or NaN that the wire would turn into something else."""
    snap = clock_rules.snapshot(running(structure), structure, T0 + offset)
    assert json.loads(json.dumps(snap, allow_nan=False)) == snap
