"""House-rule defaults that depend on other settings (RULES.md [CONFIG] points), pure Python.

``tournaments.house.HouseRules`` works its dependent defaults out with these, and the seating
engine asks the same function, so the final table has one size (BAL-09) for seating and payouts.
"""

from tournaments.clock.rules import SHOT_CLOCK_PRESETS
from tournaments.floor.penalties import get_preset

# PEN-02: the penalty limits follow the event's rule set unless the house names a preset.
RULE_SET_PENALTY_PRESET = {"SANREMO_003": "SANREMO_003", "MONTEGALDA_004": "MONTEGALDA_004", "HEADS_UP_001": "HEADS_UP_001"}


def final_table_size(table_size: int) -> int:
    """BAL-09 / C21 (RP-9 EN): the final table plays 9-handed for 8/9-max events, 7-handed for
    6/7-max. RP-9 does not cover 10/11-max tables (003 and 004 allow them); 9 is used there too.
    Events at 5-max or smaller play a final table of their own size."""
    if table_size >= 8:
        return 9
    if table_size >= 6:
        return 7
    return table_size


#: PAY-01 (003 Art. 14): a Sanremo prize pool is the buy-ins less 3 % the casino keeps.
SANREMO_DEDUCTIONS = ({"name": "casino", "percent": "3"},)


def max_rounds(penalty_preset: str) -> int:
    """PEN-02 / C26: the most penalty rounds the preset allows (0: no maximum). The cap of 4 is
    003's and 004's (scenario 26); a TDA event escalates freely unless the house sets one."""
    return get_preset(penalty_preset).max_rounds or 0


def prize_pool_deductions(rule_set: str) -> list[dict]:
    """PAY-01: the deductions a new tournament takes when none are typed: 003's 3 % for Sanremo
    events, none otherwise (a venue types its own, e.g. 001's 4 % staff fee)."""
    return [dict(d) for d in SANREMO_DEDUCTIONS] if rule_set == "SANREMO_003" else []


def penalty_preset(rule_set: str) -> str:
    return RULE_SET_PENALTY_PRESET.get(rule_set, "TDA")


def h4h_simultaneous_policy(rule_set: str) -> str:
    """ELM-04 / C12: 003 events rank simultaneous hand-for-hand busts by starting stack; TDA and EPT share."""
    return "RANK_BY_STARTING_STACK" if rule_set == "SANREMO_003" else "SHARE"


def require_prestart_report(rule_set: str) -> bool:
    """ROLE-02: Sanremo (003) events send the registered list before the start."""
    return rule_set == "SANREMO_003"


def no_show_policy(rule_set: str) -> str:
    """REG-09: 004 events — not showing loses the game (the entry is still owed); heads-up
    (001) — a player absent by the end of level 1 forfeits his place; otherwise blinded out."""
    return {"MONTEGALDA_004": "LOSE_GAME", "HEADS_UP_001": "FORFEIT_AT"}.get(rule_set, "BLIND_OUT")


def check_in_requires_id(rule_set: str) -> bool:
    """REG-02: 003 check-in asks for an identity document."""
    return rule_set == "SANREMO_003"


def clock_call_preset(rule_set: str) -> str:
    """CLK-10 / C7: 003 events call the clock at 60 + 10 s, heads-up (001) at 30 s, else TDA 25 + 5 s."""
    return {"SANREMO_003": "SANREMO", "HEADS_UP_001": "HEADS_UP"}.get(rule_set, "TDA")


def clock_call_time(preset: str) -> tuple[int, int]:
    """CLK-10: the preset's (seconds to act, countdown)."""
    return SHOT_CLOCK_PRESETS.get(preset, SHOT_CLOCK_PRESETS["TDA"])
