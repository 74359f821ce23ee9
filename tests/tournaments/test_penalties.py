"""Penalty arithmetic and validation (tournaments/floor/penalties.py): RULES §7 and scenario 26."""

import dataclasses

import pytest

from tournaments.floor import penalties
from tournaments.floor.penalties import (
    CHIP_FORFEIT,
    DEAD_HAND,
    DISQUALIFICATION,
    MISSED_HANDS,
    MISSED_ROUNDS,
    PRESETS,
    TIME_SUSPENSION,
    WARNING,
    PenaltyError,
)


def refused(code, fn, *args, **kwargs):
    with pytest.raises(PenaltyError) as info:
        fn(*args, **kwargs)
    assert info.value.code == code


def test_seven_players_times_three_rounds_is_twenty_one_hands():
    assert penalties.missed_round_hands(7, 3) == 21


def test_the_offender_counts_himself_at_the_table():
    assert penalties.hands_to_miss(MISSED_ROUNDS, players_at_table=9, rounds=1) == 9
    assert penalties.hands_to_miss(MISSED_HANDS, hands=4) == 4
    assert penalties.hands_to_miss(WARNING) == 0


def test_a_five_round_penalty_is_refused_under_sanremo_and_montegalda_scenario_26():
    refused("too_many_rounds", penalties.validate_penalty, MISSED_ROUNDS, preset="SANREMO_003", rounds=5)
    refused("too_many_rounds", penalties.validate_penalty, MISSED_ROUNDS, preset="MONTEGALDA_004", rounds=5)
    penalties.validate_penalty(MISSED_ROUNDS, preset="SANREMO_003", rounds=4)


def test_a_five_round_penalty_is_accepted_in_tda_mode_scenario_26():
    assert penalties.validate_penalty(MISSED_ROUNDS, preset="TDA", rounds=5) is None


def test_a_45_minute_suspension_is_refused_and_20_minutes_accepted_scenario_26():
    refused("suspension_out_of_range", penalties.validate_penalty, TIME_SUSPENSION, preset="SANREMO_003", minutes=45)
    refused("suspension_out_of_range", penalties.validate_penalty, TIME_SUSPENSION, preset="SANREMO_003", minutes=4)
    penalties.validate_penalty(TIME_SUSPENSION, preset="SANREMO_003", minutes=20)
    assert TIME_SUSPENSION in penalties.DEALT_IN_WHILE_SERVING


def test_heads_up_penalties_start_at_three_rounds_and_show_both_readings():
    refused("too_few_rounds", penalties.validate_penalty, MISSED_ROUNDS, preset="HEADS_UP_001", rounds=2)
    penalties.validate_penalty(MISSED_ROUNDS, preset="HEADS_UP_001", rounds=3)
    assert penalties.heads_up_penalty_readings(3) == {"ROUNDS_OF_TWO_HANDS": 6, "BLINDS_PAID": 3}


def test_a_penalty_needs_its_own_value_and_no_other():
    refused("missing_value", penalties.validate_penalty, MISSED_ROUNDS, preset="TDA")
    refused("missing_value", penalties.validate_penalty, CHIP_FORFEIT, preset="TDA")
    refused("unexpected_value", penalties.validate_penalty, WARNING, preset="TDA", minutes=5)
    refused("unexpected_value", penalties.validate_penalty, MISSED_ROUNDS, preset="TDA", rounds=2, hands=3)
    refused("bad_value", penalties.validate_penalty, MISSED_HANDS, preset="TDA", hands=0)
    refused("bad_value", penalties.validate_penalty, CHIP_FORFEIT, preset="TDA", chips=2.5)
    penalties.validate_penalty(CHIP_FORFEIT, preset="TDA", chips=5000)
    penalties.validate_penalty(DEAD_HAND, preset="SANREMO_003")
    penalties.validate_penalty(DISQUALIFICATION, preset="TDA")


def test_unknown_types_and_presets_are_refused():
    refused("unknown_type", penalties.validate_penalty, "SPANKING", preset="TDA")
    refused("unknown_preset", penalties.validate_penalty, WARNING, preset="WSOP")
    refused("bad_value", penalties.missed_round_hands, 0, 2)


def test_an_event_can_tune_a_preset():
    strict_tda = dataclasses.replace(PRESETS["TDA"], max_rounds=4)
    refused("too_many_rounds", penalties.validate_penalty, MISSED_ROUNDS, preset=strict_tda, rounds=5)


def test_presets_say_when_players_are_counted():
    assert PRESETS["TDA"].count_players_at == penalties.COUNT_AT_ISSUE
    assert PRESETS["SANREMO_003"].count_players_at == penalties.COUNT_AT_NEXT_HAND


def test_reason_codes_carry_a_label_and_a_source():
    for code in ("DODGING_BLINDS", "STALLING_BEFORE_LEVEL_CHANGE", "SOFT_PLAY", "LATE_SEAT_TAKING"):
        label, source = penalties.REASON_CODES[code]
        assert label and source
    assert "TDA 33" in penalties.REASON_CODES["DODGING_BLINDS"][1]
    assert penalties.reason_label("PHONE_AT_TABLE") == "Using a phone at the table"
    refused("unknown_reason", penalties.reason_label, "NOPE")


def test_a_suspension_of_five_or_thirty_minutes_is_accepted_and_thirty_one_refused():
    """PEN-05 / SEAT-09 (Sanremo 4.7(3)): "from 5 to 30 minutes" takes both ends."""
    assert penalties.validate_penalty(TIME_SUSPENSION, preset="SANREMO_003", minutes=5) is None
    assert penalties.validate_penalty(TIME_SUSPENSION, preset="SANREMO_003", minutes=30) is None
    refused("suspension_out_of_range", penalties.validate_penalty, TIME_SUSPENSION, preset="SANREMO_003", minutes=31)
