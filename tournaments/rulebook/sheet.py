"""The house's procedures as players read them (BAL-05, ROLE-06, FMT-02): pure apart from gettext.

TDA 11-C and 003 Art. 4.2.32 want the table a player is moved from decided by "a predetermined
procedure", and RULES.md BAL-05 wants it shown to players before the event. The public rules
page (``tournaments.rulebook.views``) states it from the tournament's own house rules, so the page
and the seating engine read the same settings: what the page says is what the floor does.
"""

from django.utils.translation import gettext as _

from tdmanager.formatting import money
from tournaments.house import HouseRules


def mover_text(rules: HouseRules) -> str:
    """BAL-03: who moves when two tables are balanced."""
    if rules.game == "STUD":
        return _(
            "Stud has no button: the player moves by position. The seat filled is the last open seat of the short "
            "table; the player who moves is the one in that seat number at the fuller table (or the next "
            "player after it)."
        )
    return {
        "NEXT_BB": _("The player who would be big blind in the next hand moves."),
        "CURRENT_BB": _("The player who posted the big blind in the hand just finished moves."),
        "BUTTON_CASH": _("The player on the button moves once the hand ends."),
    }[rules.mover_rule]


def destination_text(rules: HouseRules) -> str:
    """BAL-04: where the moved player sits."""
    if rules.game == "STUD":
        return _("The player moved takes the last open seat of the short table.")
    text = {
        "WORST_POSITION": _("The player moved takes the worst position: the open seat that will pay the big blind soonest, never the small blind."),
        "NEAREST_BB": _("The player moved takes the open seat nearest the big blind, never the small blind."),
        "SAME_RELATIVE_POSITION": _("The player moved takes the open seat nearest the position left at the old table."),
    }[rules.dest_rule]
    if rules.vacated_bb_seat == "SINGLE_BB":
        text += " " + _("The seat the big blind just left may be taken: the player then posts the big blind alone.")
    return text


def mystery_stage_text(stage) -> str:
    """PAY-02: from when a mystery event's knockouts draw an envelope."""
    if isinstance(stage, dict):
        return _("Envelopes are drawn from level %(n)s; a knockout before it wins no envelope.") % {"n": stage.get("level")}
    return {
        "START": _("Envelopes are drawn from the start of the event."),
        "ITM": _("Envelopes are drawn once the players left are all in the money; a knockout before it wins no envelope."),
        "DAY2": _("Envelopes are drawn from Day 2; a knockout before it wins no envelope."),
    }.get(stage, "")


def bounty_text(rules: HouseRules, currency: str) -> list[str]:
    """PAY-02: a bounty event's rules as players read them (none in an event without bounties):
    its kind, the bounty part of each entry, who wins what and how it is paid."""
    if rules.bounty == "NONE":
        return []
    amount = money(rules.bounty_part, currency)
    if rules.bounty == "MYSTERY":
        lines = [
            _("Mystery bounty: %(amount)s of each entry and re-entry goes into the mystery envelopes, apart from the prize pool.") % {"amount": amount},
            _("The player who knocks a player out draws an envelope and wins the amount in it."),
            mystery_stage_text(rules.mystery_from),
            _("Envelopes still in the bag at the end go to the winner.")
            if rules.mystery_leftover == "WINNER"
            else _("Envelopes still in the bag at the end are kept for the next mystery event."),
        ]
    else:
        lines = [
            _("Each entry and re-entry puts a bounty of %(amount)s on the player's head, apart from the prize pool.") % {"amount": amount},
            _("Knockout: the player who knocks a player out wins that player's whole bounty.")
            if rules.bounty == "FIXED"
            else _(
                "Progressive knockout: the player who knocks a player out wins %(cash)s%% of that player's bounty in cash; "
                "the other %(head)s%% goes onto the winner's own bounty."
            )
            % {"cash": f"{rules.bounty_cash_percent.normalize():f}", "head": f"{(100 - rules.bounty_cash_percent).normalize():f}"},
        ]
        lines.append(
            _("Players who knock out the same player share the bounty equally.")
            if rules.bounty_split == "EQUAL"
            else _("Players who knock out the same player share the bounty by their share of the pot.")
        )
    lines.append(_("Bounties won are paid in cash at the cash desk, in multiples of %(unit)s.") % {"unit": money(rules.bounty_rounding, currency)})
    return [line for line in lines if line]


def procedure(tournament) -> dict:
    """What the public rules page shows: ``{"languages", "balancing": [...], "house": [...]}``,
    each a list of sentences in the current language, worked out from the tournament row alone."""
    rules = HouseRules.of(tournament)
    order = rules.break_order
    balancing = [
        _("Tables are balanced when they differ by %(n)s or more players.") % {"n": rules.balance_trigger_difference},
        _("A player moves from the table with the most players to the table with the fewest."),
        _("Equal tables: the table is drawn by lot.")
        if rules.tie_break == "RANDOM_DRAW"
        else _("Equal tables: the highest-numbered table gives the player, the lowest-numbered receives the player."),
        mover_text(rules),
        destination_text(rules),
        _("A table breaks when the open seats at the other tables can take all its players; they draw their new seats.")
        + " "
        + (
            _("Tables break in this published order: %(order)s.") % {"order": ", ".join(str(n) for n in order)}
            if order
            else _("The table with the fewest players breaks first (the highest-numbered of equal ones).")
        ),
        _("The final table is formed with %(n)s players.") % {"n": rules.final_table_size},
    ]
    house = [
        _("Late registration and re-entry close at the end of level %(n)s.") % {"n": rules.late_registration_level(tournament)},
        _("Calling the clock: %(s)s seconds to act, then a %(c)s-second countdown.") % {"s": rules.clock_call_seconds, "c": rules.clock_call_countdown_seconds},
        _("Hand-for-hand: each hand takes %(s)s seconds off the clock.") % {"s": rules.h4h_seconds_per_hand},
        _("Players out in the same hand-for-hand hand share the places.")
        if rules.h4h_simultaneous_policy == "SHARE"
        else _("Players out in the same hand-for-hand hand are ranked by their stacks at the start of the hand."),
        {
            "BLIND_OUT": _("A registered player who has not arrived is seated and blinded out."),
            "FORFEIT_AT": _("A registered player who has not arrived by the end of level %(n)s is out.") % {"n": rules.no_show_level},
            "LOSE_GAME": _("A registered player who does not arrive loses the game; the entry is still owed."),
        }[rules.no_show_policy],
    ]
    return {
        "languages": rules.official_languages,
        "balancing": balancing,
        "house": house,
        "bounties": bounty_text(rules, getattr(tournament, "currency", "")),
    }
