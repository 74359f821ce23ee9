"""Every action the simulated days draw from: each module registers its own in ``ACTIONS``.

A day has a theme (``THEMES``, from its seed): the actions of one family of features are drawn
``FOCUS`` times as often as their weight says, every other action as usual. A format's actions
need each other in turn (a Day 2 is built from flights bagged, a final starts from qualifying
tables finished, a season closes on events scored); in a day of a few hundred steps spread over
every feature those chains seldom reach their end, and their last actions would be played too
rarely to be tested. Every feature still meets every other on every day.
"""

from . import (
    actions_backup,  # noqa: F401  (a backup, and a restore at a random point: the soak plays them)
    actions_formats,  # noqa: F401  (registers the formats' actions)
    actions_money,  # noqa: F401  (deals, foreign tender, tickets, jackpot, side pools, penalties, chips)
)
from .actions import ACTIONS

_SPECIAL = {"players_arrive", "start_special_event", "play_down"}

THEMES: dict[str, set[str]] = {
    "the mix": set(),
    "sit & go": {"create_sit_and_go", "fill_sit_and_go"} | _SPECIAL,
    "satellites": {"create_satellite", "satellite_player_buys_target", "complete_satellite", "redeem_satellite_ticket"} | _SPECIAL,
    # players come to the flights and the brackets in groups, as to every special event
    "multi-day": {"create_multiday", "sell_stack_choice", "bag_flight", "build_day2", "finish_day2", "players_arrive"},
    "heads-up": {"create_headsup", "request_headsup_seats", "draw_bracket", "play_match", "players_arrive"},
    "qualifiers": {"create_timed", "finish_timed", "create_qualifiers", "send_qualifier_winner", "start_final"} | _SPECIAL,
    "series": {"create_series", "attach_to_series", "schedule_daily", "score_series", "close_season", "settle_series_tie", "finish_event"} | _SPECIAL,
    "jackpot and side pools": {
        "create_money_event",
        "start_money_event",
        "sell_with_jackpot",
        "royal_flush",
        "pay_jackpot",
        "last_longer",
        "award_side_pool",
        "pay_side_prize",
    },
    "the final table": {
        "create_money_event",
        "start_money_event",
        "set_envelopes",
        "deal",
        "deal_chop",
        "deal_by_place",
        "deal_custom",
        "pay_prize",
        "sign_off",
        "finish_event",
    },
    "the floor": {
        # the fields of two tables and more the floor's tie groups and hand-for-hand need
        "create_money_event",
        "start_money_event",
        "h4h_busts",
        "mark_simultaneous",
        "bust_simultaneous",
        "confirm_and_undo_move",
        "move_by_hand",
        "confirm_slips",
        "hand_for_hand",
        "alternate",
        "admit_alternate",
    },
}
FOCUS = 10

_unknown = {name for names in THEMES.values() for name in names} - set(ACTIONS)
assert not _unknown, f"themes name actions that do not exist: {sorted(_unknown)}"


def theme_of(seed: int) -> str:
    """The theme of the day of ``seed`` (the days of a soak take them in turn)."""
    return list(THEMES)[seed % len(THEMES)]


def weights(theme: str, boost: dict[str, float] | None = None) -> dict[str, float]:
    """Each action's weight on a day of ``theme``, times its ``boost`` (``wanting``)."""
    boost = boost or {}
    return {name: a.weight * (FOCUS if name in THEMES[theme] else 1) * boost.get(name, 1) for name, a in ACTIONS.items()}


#: how much more often an action never played yet is drawn by a soak that counts (``wanting``)
WANT = 20


def wanting(played: dict[str, int], each: int) -> tuple[dict[str, float], str]:
    """For a soak that plays every action ``each`` times (``simulate_days.py --each``): each
    action's boost, from 1 + ``WANT`` for one never played yet down to 1 for one played ``each``
    times, and the day's theme: the one whose actions still want the most plays (the chains of a
    format reach their last actions on its days). Every action is still drawn every day."""
    missing = {name: max(0.0, 1 - played.get(name, 0) / each) for name in ACTIONS}
    boost = {name: 1 + WANT * share for name, share in missing.items()}
    themed = [(sum(missing[n] for n in names) / len(names), theme) for theme, names in THEMES.items() if names]
    share, theme = max(themed)
    return boost, theme if share > 0 else "the mix"


__all__ = ["ACTIONS", "THEMES", "theme_of", "wanting", "weights"]
