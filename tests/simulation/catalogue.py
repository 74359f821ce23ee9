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
    actions_h4h,  # noqa: F401  (the bubble's hand-for-hand: moves that wait for a table's hand)
    actions_languages,  # noqa: F401  (a staff login picks its language)
    actions_money,  # noqa: F401  (deals, foreign tender, tickets, jackpot, side pools, penalties, chips)
    actions_push,  # noqa: F401  (the players' phones: subscribed, stopped, told what changed)
    actions_screens,  # noqa: F401  (the lobby screens' links: a new one, stopped, the screen deleted)
    actions_sheets,  # noqa: F401  (structures and payout charts brought in from sheets)
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
    "series": {
        "create_series",
        "attach_to_series",
        "schedule_daily",
        "score_series",
        "close_season",
        "settle_series_tie",
        "finish_event",
        "import_league_results",
    }
    | _SPECIAL,
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
        "group_buys_in",
        "create_money_event",
        "start_money_event",
        "h4h_busts",
        "mark_simultaneous",
        "bust_simultaneous",
        "confirm_and_undo_move",
        "late_tablet_queue",
        "move_by_hand",
        "confirm_slips",
        "hand_for_hand",
        "alternate",
        "admit_alternate",
    },
}
FOCUS = 10

#: a field of several tables playing: a group bought in (twice as often as a start), then a start
_RUNNING_FIELD = ("group_buys_in", "group_buys_in", "start_event", "start_money_event")
#: what frees one of the two places the room keeps for special events (``actions_formats._room``)
_SPECIAL_ENDS = ("play_down", "finish_timed", "play_match", "finish_day2")

#: What sets an action's state up: the actions whose outcome it acts on (a Day 2 is finished once
#: built, built once its flights are bagged; a jackpot paid once a royal flush was hit at a jackpot
#: event; a balancing slip confirmed once a bust unbalanced two tables). A soak that counts
#: (``wanting``) follows them: an action still short of its runs that finds nothing to act on gives
#: its draw to one of these, and that one, if it has nothing either, to one of its own, so the day
#: is driven along the chain to the state the short action needs (``driver.play``).
NEEDS: dict[str, tuple[str, ...]] = {
    # addon, declare_rebuy, rebuy: a rebuy event in its rebuy period (created, bought into, started)
    "addon": ("create_event", "group_buys_in", "start_event"),
    "admit_alternate": ("alternate",),
    "alternate": ("create_money_event",),
    "attach_to_series": ("create_series",),
    "award_side_pool": ("last_longer",),
    "bag_flight": ("players_arrive", "sell_stack_choice", "create_multiday"),
    "build_day2": ("bag_flight",),
    "bust_simultaneous": _RUNNING_FIELD,
    "chip_race": ("time_passes", "clock_jump"),
    "close_season": ("score_series",),
    "complete_satellite": ("start_special_event", "players_arrive", "create_satellite"),
    "confirm_and_undo_move": ("bust", "bust_same_hand", *_RUNNING_FIELD),
    "confirm_slips": ("bust", "bust_same_hand", *_RUNNING_FIELD),
    "create_headsup": _SPECIAL_ENDS,
    "create_money_event": ("start_money_event", "bust", "finish_event"),
    "create_multiday": _SPECIAL_ENDS,
    "create_qualifiers": ("create_timed", *_SPECIAL_ENDS),
    "create_satellite": _SPECIAL_ENDS,
    "create_sit_and_go": _SPECIAL_ENDS,
    "create_timed": _SPECIAL_ENDS,
    "deal": ("bust", "play_down"),
    "deal_by_place": ("bust", "play_down"),
    "deal_chop": ("bust", "play_down"),
    "deal_custom": ("bust", "play_down"),
    "dealer_reports_a_hand": ("push_dealers", "start_event", "start_money_event"),
    "declare_rebuy": ("create_event", "group_buys_in", "start_event"),
    "draw_bracket": ("request_headsup_seats", "players_arrive", "create_headsup"),
    "erase_person": ("finish_event", "bust"),
    "fill_sit_and_go": ("create_sit_and_go",),
    "finish_day2": ("build_day2",),
    "finish_event": ("bust", "play_down"),
    "finish_timed": ("start_special_event", "players_arrive", "create_timed"),
    "group_buys_in": ("create_event", "create_money_event"),
    "h4h_busts": _RUNNING_FIELD,
    "h4h_move_waits": _RUNNING_FIELD,
    "import_league_results": ("create_series",),
    "import_people_choosing": ("sell_entry", "create_event"),
    "last_longer": ("create_money_event", "create_event"),
    "lock_payout_table": ("bust", "start_money_event"),
    "mark_simultaneous": _RUNNING_FIELD,
    "pay_bounties": ("bust", "start_money_event"),
    "pay_in_foreign_tender": ("create_event",),
    "pay_jackpot": ("royal_flush",),
    "pay_side_prize": ("award_side_pool",),
    "players_arrive": ("create_timed", "create_satellite", "create_qualifiers", "create_multiday"),
    "rebuy": ("create_event", "group_buys_in", "start_event"),
    "redeem_satellite_ticket": ("complete_satellite",),
    "redeem_ticket": ("issue_ticket",),
    "reenter": ("bust", "create_event", "start_event"),
    "request_headsup_seats": ("create_headsup",),
    "royal_flush": ("sell_with_jackpot", "start_money_event"),
    "satellite_player_buys_target": ("create_satellite", "players_arrive"),
    "schedule_daily": ("create_series", *_SPECIAL_ENDS),
    "score_series": ("attach_to_series", "finish_event", "play_down"),
    "sell_stack_choice": ("create_multiday",),
    "sell_with_jackpot": ("create_money_event",),
    # a qualifying table played out and ended by hand (finish_timed would send its winner itself)
    "send_qualifier_winner": ("start_special_event", "players_arrive", "create_qualifiers"),
    "set_envelopes": ("create_money_event",),
    "settle_series_tie": ("close_season",),
    "start_event": ("group_buys_in", "create_event"),
    "start_final": ("send_qualifier_winner", "finish_timed", "create_qualifiers"),
    "start_money_event": ("group_buys_in", "create_money_event"),
    "start_special_event": ("players_arrive",),
    "stop_phone": ("subscribe_phone",),
    "tell_players": ("subscribe_phone",),
    "unlock_payout_table": ("lock_payout_table",),
}

_unknown = {name for names in [*THEMES.values(), NEEDS.keys(), *NEEDS.values()] for name in names} - set(ACTIONS)
assert not _unknown, f"themes or needs name actions that do not exist: {sorted(_unknown)}"


def theme_of(seed: int) -> str:
    """The theme of the day of ``seed`` (the days of a soak take them in turn)."""
    return list(THEMES)[seed % len(THEMES)]


def weights(theme: str, boost: dict[str, float] | None = None) -> dict[str, float]:
    """Each action's weight on a day of ``theme``, times its ``boost`` (``wanting``)."""
    boost = boost or {}
    return {name: a.weight * (FOCUS if name in THEMES[theme] else 1) * boost.get(name, 1) for name, a in ACTIONS.items()}


#: how much more often an action never played yet is drawn by a soak that counts (``wanting``)
WANT = 20
#: the weight a soak that counts draws an action still short of its runs with, at the least
LIGHT = 3


def wanting(ran: dict[str, int], each: int) -> tuple[dict[str, float], str]:
    """For a soak that runs every action ``each`` times (``simulate_days.py --each``; a refusal
    does not count): each action's boost, from 1 + ``WANT`` for one never run yet down to 1 for
    one run ``each`` times, and the day's theme: the one whose actions still want the most runs
    (the chains of a format reach their last actions on its days). Every action is still drawn
    every day."""
    missing = {name: max(0.0, 1 - ran.get(name, 0) / each) for name in ACTIONS}
    # an action of a small weight (an erasure, an unlock) still short is drawn as one of ``LIGHT``
    boost = {name: (1 + WANT * share) * (max(1.0, LIGHT / ACTIONS[name].weight) if share else 1.0) for name, share in missing.items()}
    themed = [(sum(missing[n] for n in names) / len(names), theme) for theme, names in THEMES.items() if names]
    share, theme = max(themed)
    return boost, theme if share > 0 else "the mix"


__all__ = ["ACTIONS", "NEEDS", "THEMES", "theme_of", "wanting", "weights"]
