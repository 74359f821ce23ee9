"""The house rules of a tournament: one typed object, :class:`HouseRules` (docs/house-rules.md).

Every per-tournament setting is a field with its type, default, rule id (RULES.md id / C-number)
and a one-line description. Most are keys of the tournament's ``settings`` JSON; ``table_size``
and ``rule_set`` are columns, read from the row so that a service asks one object. Defaults that
depend on other settings (the final-table size on the table size, the penalty preset, the
simultaneous-bust policy and the pre-start report on the rule set) are worked out here, once.

Pure apart from gettext: ``HouseRules.of(tournament)`` reads a row (any object with
``settings``, ``table_size`` and ``rule_set``); a service reads it once per call and passes it
down. ``check_settings(value)`` returns the messages for what is wrong with a ``settings`` object
(empty when all is well); the API's serializer, the tournament page form and every service that
writes ``settings`` use it, so a tournament is never stored with a setting it cannot read.
"""

import functools
import json
from dataclasses import dataclass, field, fields
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _

from . import defaults


def _choice(*values):
    return lambda v: v in values, ", ".join(values)


def _bool():
    return lambda v: isinstance(v, bool), "true / false"


def _int(lo, hi, null=False):
    return (lambda v: (null and v is None) or (isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi)), f"{lo}…{hi}"


def _number(lo, hi, null=False, above=False):
    """A finite number (or its string), lo ≤ v ≤ hi (lo < v with ``above``)."""

    def ok(v):
        if null and v is None:
            return True
        if isinstance(v, bool) or not isinstance(v, (int, float, str)):
            return False
        try:
            d = Decimal(str(v))
        except (InvalidOperation, ValueError):
            return False
        if not d.is_finite():
            return False
        return (lo < d if above else lo <= d) and d <= hi

    return ok, f"{lo}…{hi}"


def _late_reg_stack(v):
    if v == "FULL":
        return True
    if not isinstance(v, dict) or len(v) != 1:
        return False
    ((key, n),) = v.items()
    if isinstance(n, bool) or not isinstance(n, int):
        return False
    return (key == "percent" and 1 <= n <= 100) or (key == "chips" and 1 <= n <= 10**12)


def _short_text(v):
    return isinstance(v, str) and len(v) <= 60 and "\n" not in v


def _break_order(v):
    return v is None or (isinstance(v, list) and len(v) <= 1000 and all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 10_000 for n in v))


def _envelopes(v):
    """A mystery bounty's envelopes: a list of 1…2000 positive amounts of at most two decimals."""
    if not isinstance(v, (list, tuple)) or len(v) > 2000:
        return False
    for a in v:
        if isinstance(a, bool) or not isinstance(a, (int, str, float)):
            return False
        try:
            d = Decimal(str(a))
        except (InvalidOperation, ValueError):
            return False
        if not d.is_finite() or d <= 0 or d > 10**9 or d != d.quantize(Decimal("0.01")):
            return False
    return True


def _mystery_from(v):
    """When mystery bounties start paying: "START", "ITM" (once in the money), "DAY2" or {"level": n}."""
    if v in ("START", "ITM", "DAY2"):
        return True
    return isinstance(v, dict) and set(v) == {"level"} and isinstance(v["level"], int) and not isinstance(v["level"], bool) and 1 <= v["level"] <= 1000


def _penalty_reasons(v):
    """PEN-08: null, or an object code → {"label", "source"} (added or renamed) or null (removed)."""
    if v is None:
        return True
    if not isinstance(v, dict) or len(v) > 200:
        return False
    for code, entry in v.items():
        if not (isinstance(code, str) and 1 <= len(code) <= 40 and code.replace("_", "").isalnum() and code.isascii() and code == code.upper()):
            return False
        if entry is None:
            continue
        if not (
            isinstance(entry, dict)
            and set(entry) == {"label", "source"}
            and isinstance(entry["label"], str)
            and 0 < len(entry["label"].strip()) <= 120
            and "\n" not in entry["label"]
            and isinstance(entry["source"], str)
            and len(entry["source"]) <= 120
            and "\n" not in entry["source"]
        ):
            return False
    return True


def _setting(default, check, rule, description, *, derived=""):
    """A key of ``Tournament.settings``. ``derived``: the default, in words, when it depends on
    other settings (then ``default`` is None and ``HouseRules.of`` works the value out)."""
    return field(default=default, metadata={"check": check, "rule": rule, "description": description, "derived": derived, "column": False})


def _column(default, rule, description):
    """A column of the tournament row, exposed here so a service asks one object."""
    return field(default=default, metadata={"check": None, "rule": rule, "description": description, "derived": "", "column": True})


@dataclass(frozen=True)
class HouseRules:
    """One tournament's house rules; each field's metadata gives its rule id and description."""

    # the tournament row (FMT-14, §0.3)
    table_size: int = _column(9, "FMT-14, C20", "seats per table (a column of the tournament), at most `max_seats_per_table`")
    rule_set: str = _column("TDA", "C24", "TDA, SANREMO_003, MONTEGALDA_004, … (a column); some defaults follow it")
    game: str = _column(
        "NLHE", "FMT-16, BAL-03", 'the game (a column): NLHE, PLHE, LHE, PLO, MIXED or "STUD", whose balancing moves players by position (no button: TDA 11-A)'
    )
    # cashier (REG-04, FMT-14, FMT-04, REG-09, FMT-09, ROLE-02)
    late_reg_stack: str | dict = _setting(
        "FULL",
        (_late_reg_stack, '"FULL", {"percent": 1…100} or {"chips": n}'),
        "REG-04, C6",
        'late registrant\'s stack: "FULL", {"percent": p} of it or {"chips": n}, never more than full',
    )
    field_cap_counts: str = _setting(
        "ENTRIES", _choice("ENTRIES", "LIVE_PLAYERS"), "FMT-14, REG-08", 'what the field cap counts: every sold or reserved entry, or "LIVE_PLAYERS"'
    )
    rebuy_before_start: bool = _setting(False, _bool(), "FMT-04", "rebuys are sold before the tournament starts")
    late_entry_prebooked_only: bool = _setting(False, _bool(), "REG-04, REG-09", "once running, only pre-booked players enter (004)")
    late_entry_at_final_table: str = _setting(
        "ASK",
        _choice("ASK", "REFUSE", "ALLOW"),
        "REG-04, BAL-09",
        'an entry that would open a table once the final table is formed: "ASK" (409 final_table_formed until the desk confirms), "REFUSE" or "ALLOW"',
    )
    late_reg_default_level: int = _setting(
        3,
        _int(1, 100),
        "REG-04, FMT-05, PAY-12",
        "late registration (re-entries, the jackpot's late percentage with it) closes at the end "
        "of this level when the tournament names none: never open all event by omission",
    )
    rebuy_default_level: int = _setting(3, _int(1, 100), "FMT-04", "rebuys are sold until the end of this level when the tournament names none (003: level 3)")
    rebuy_declare_with_chips: bool = _setting(
        True,
        _bool(),
        "FMT-04",
        "a rebuy may be declared before a hand with chips still in front of the player "
        "(TDA 27: they are played behind and the rebuy must be made); `false`: only at or below the "
        "rebuy threshold (003: «avesse esaurito la sua dotazione»)",
    )
    check_in_requires_id: bool = _setting(
        None, _bool(), "REG-02", "check-in asks for the player's identity document", derived="`true` for SANREMO_003, else `false`"
    )
    no_show_policy: str = _setting(
        None,
        _choice("BLIND_OUT", "FORFEIT_AT", "LOSE_GAME"),
        "REG-09, ELM-05",
        "a registered player who has not arrived: seated and blinded out, out at the end of "
        "`no_show_level` plus `no_show_grace_minutes`, or loses the game (the entry is still owed)",
        derived='`"LOSE_GAME"` for MONTEGALDA_004, `"FORFEIT_AT"` for HEADS_UP_001, else `"BLIND_OUT"`',
    )
    no_show_level: int = _setting(1, _int(1, 100), "REG-09", "FORFEIT_AT: the level at whose end an absent player forfeits")
    no_show_grace_minutes: int = _setting(0, _int(0, 240), "REG-09", "FORFEIT_AT: minutes of grace after that level's end")
    check_in_used: bool = _setting(
        False,
        _bool(),
        "REG-02, REG-09",
        "the desk checks players in: at the FORFEIT_AT deadline a paid entry not checked in has "
        'not arrived (else: the players the floor marked "not arrived" on the table map)',
    )
    max_seats_per_table: int = _setting(10, _int(2, 11), "FMT-14, C20", "most seats a table may have (003 Art. 4.5: 10); 11 for 004's tables")
    sng_tables: int = _setting(1, _int(1, 100), "FMT-09", "a sit & go without a field cap seats 10 × this many players")
    require_prestart_report: bool = _setting(
        None, _bool(), "ROLE-02", "the registered list is sent before the start", derived="`true` for SANREMO_003, else `false`"
    )
    fee_override: Decimal | None = _setting(
        None,
        _number(0, 10**9, null=True),
        "REG-03, C15, FMT-10",
        "a fee instead of the statutory 10 % (buy-in ≤ 3,000) / 6 % (above): daily "
        "events' flat 20 (003 Allegato 1), international rules; null: the statutory fee",
    )
    # clock (CLK-06)
    h4h_seconds_per_hand: int = _setting(120, _int(1, 3600), "CLK-06", "hand-for-hand: seconds taken off the clock per hand (RP-8-B)")
    deck_change_reminder: bool = _setting(
        False, _bool(), "CLK-08, C32", "at each level change the staff's clock page reminds the dealers to change decks (TDA 26)"
    )
    h4h_break_policy: str = _setting(
        "TAKE_BREAK", _choice("TAKE_BREAK", "SKIP_BREAK"), "CLK-06", 'a break reached in hand-for-hand is taken (clock paused at its start) or "SKIP_BREAK"'
    )
    h4h_ends_at_money: bool = _setting(
        True,
        _bool(),
        "CLK-06",
        "hand-for-hand ends by itself once the hand that reached the money is finished at every table (a player out at "
        "another table in that hand is still that hand's); `false`: it goes on until the director ends it (announced "
        "already in the money, it always does)",
    )
    # calling the clock (CLK-10, C7): the event's preset; the director sets a player's own time
    clock_call_preset: str = _setting(
        None,
        _choice("TDA", "SANREMO", "HEADS_UP"),
        "CLK-10, C7",
        'a called clock: "TDA" 25 + 5 s (dead hand if facing a bet, else check), "SANREMO" '
        '60 + 10 s (dead hand) or "HEADS_UP" 30 s, reducible per player to 10 s',
        derived='`"SANREMO"` for SANREMO_003, `"HEADS_UP"` for HEADS_UP_001, else `"TDA"`',
    )
    clock_call_seconds: int = _setting(
        None,
        _int(1, 600),
        "CLK-10, C7",
        "seconds a player has to act when the clock is called (heads-up: 10–30)",
        derived="the preset's: `25` (TDA), `60` (SANREMO), `30` (HEADS_UP)",
    )
    clock_call_countdown_seconds: int = _setting(
        None, _int(0, 60), "CLK-10, C7", "the countdown after those seconds", derived="the preset's: `5` (TDA), `10` (SANREMO), `0` (HEADS_UP)"
    )
    # chip races (CR-02, CR-03)
    race_conversion: str = _setting(
        "ROUND_HALF_UP", _choice("ROUND_HALF_UP", "FLOOR"), "CR-02, C9", 'odd chips converted by rounding (003), or "FLOOR" (004: the rest is removed)'
    )
    race_start: str = _setting("SEAT_1", _choice("SEAT_1", "LAST_HAND_SB"), "CR-03, C8", 'the race is dealt from seat 1 (TDA, 003) or "LAST_HAND_SB" (004)')
    race_tie: str = _setting(
        "SUIT_ORDER", _choice("SUIT_ORDER", "FIRST_DEALT"), "CR-03, C10", 'a tie goes by suit (spades > hearts > diamonds > clubs) or "FIRST_DEALT" (004)'
    )
    # penalties (PEN-02, PEN-05, PEN-06)
    penalty_preset: str = _setting(
        None,
        _choice("TDA", "SANREMO_003", "MONTEGALDA_004", "HEADS_UP_001"),
        "PEN-02, PEN-05, PEN-06, C26",
        "penalty limits: TDA, SANREMO_003 (time suspensions of 5–30 minutes), MONTEGALDA_004, "
        "HEADS_UP_001 (at least 3 rounds; the director chooses how they count)",
        derived='the rule set\'s (SANREMO_003, MONTEGALDA_004, HEADS_UP_001), else `"TDA"`',
    )
    max_rounds: int = _setting(
        None,
        _int(0, 100),
        "PEN-02, C26",
        "most rounds a missed-rounds penalty may give (003, 004: 1–4); 0: no maximum (TDA escalates freely)",
        derived="the penalty preset's: `4` for SANREMO_003 and MONTEGALDA_004, else `0` (no maximum: TDA, HEADS_UP_001)",
    )
    penalty_reasons: dict | None = _setting(
        None,
        (_penalty_reasons, 'null or {"CODE": {"label": text, "source": text} or null}'),
        "PEN-08",
        "the penalty reason codes: null is the built-in list (tournaments/floor/penalties.py); a code with "
        '{"label", "source"} adds or renames one, a code with null removes it',
    )
    count_players_at: str = _setting(
        "ISSUE",
        _choice("ISSUE", "NEXT_HAND"),
        "PEN-02, C25",
        "missed rounds count the players at the table when the penalty is given (TDA 71-A), or "
        '"NEXT_HAND" (at the start of the hand it begins with, 003\'s text)',
    )
    # seating (BAL-*, SEAT-01, ELM-04)
    balance_trigger_difference: int = _setting(2, _int(2, 10), "BAL-01, C3", "tables are balanced when they differ by this many players")
    mover_rule: str = _setting("NEXT_BB", _choice("NEXT_BB", "CURRENT_BB", "BUTTON_CASH"), "BAL-03, C1", "who moves when balancing")
    dest_rule: str = _setting("WORST_POSITION", _choice("WORST_POSITION", "NEAREST_BB", "SAME_RELATIVE_POSITION"), "BAL-04, C2", "where the moved player sits")
    vacated_bb_seat: str = _setting(
        "EXCLUDED", _choice("EXCLUDED", "SINGLE_BB"), "BAL-04", "the seat the big blind just left is not offered, or taken as a single big blind"
    )
    tie_break: str = _setting("TABLE_ORDER", _choice("TABLE_ORDER", "RANDOM_DRAW"), "BAL-05, C5", "equal tables: the published table order, or a draw")
    break_order: list[int] | None = _setting(
        None, (_break_order, "null or a list of table numbers"), "BAL-06", "published order in which tables break (null: fewest players, highest number)"
    )
    seat_pool_next_break: str = _setting(
        "EXCLUDED",
        _choice("EXCLUDED", "ON_TIE"),
        "SEAT-03",
        'the table breaking next is left out of the seat pool while another table has an open seat, or "ON_TIE": only when another table has as few players',
    )
    final_table_size: int = _setting(
        None,
        _int(2, 11),
        "BAL-09, C21, PAY-09",
        "players at the final table: seating combines at this many, deals need at most this many",
        derived="9 for 8-max and larger, 7 for 6/7-max, the table size below",
    )
    start_players_per_table: int | None = _setting(
        None, _int(2, 11, null=True), "SEAT-01", "at most this many players per table at the initial draw (null: table size)"
    )
    room: int | None = _setting(
        None,
        _int(1, 2**31 - 1, null=True),
        "SEAT-01, SEAT-03",
        "the room (its id) whose physical tables the event's draws take (null: the first room with free tables enough; none kept: the event numbers its own tables)",
    )
    room_zone: str = _setting(
        "",
        (_short_text, "a zone name, at most 60 characters"),
        "SEAT-01, SEAT-03",
        "the zone of the room whose free tables the event takes first (empty: the house's order alone)",
    )
    draw_mode: str = _setting(
        "ELECTRONIC",
        _choice("ELECTRONIC", "MANUAL"),
        "SEAT-01, SEAT-04",
        'seat draws by the product, or "MANUAL": printed seat cards, the floor enters who drew which card (the start and each table break)',
    )
    h4h_simultaneous_policy: str = _setting(
        None,
        _choice("SHARE", "RANK_BY_STARTING_STACK"),
        "ELM-04, C12",
        "busts in one hand-for-hand hand share the place or rank by starting stack (key `h4h_policy` too)",
        derived='`"RANK_BY_STARTING_STACK"` for SANREMO_003, else `"SHARE"`',
    )
    # payouts (PAY-*, ELM-06, LB-*)
    category: str = _setting("MAIN", _choice("MAIN", "SIDE"), "PAY-04", "MAIN pays 15 % of the field, SIDE 10 %")
    satellite_remainder_rule: str = _setting(
        "NEXT_PLACE",
        _choice("NEXT_PLACE", "SHARED", "CHUNKS"),
        "FMT-08, PAY-06, C13",
        "a satellite's money left after the last seat: cash to the first place without a seat "
        '(003 Art. 6), "SHARED" by the seat winners or "CHUNKS" to the next places',
    )
    satellite_prize_base: str = _setting(
        "GROSS",
        _choice("GROSS", "NET"),
        "FMT-08, C14",
        'a satellite\'s seats are paid from everything the players paid (003 Art. 6 example) or "NET": the buy-ins less deductions',
    )
    percent_paid: Decimal | None = _setting(None, _number(0, 100, null=True, above=True), "PAY-04", "percentage of the field paid, instead of the category's")
    places_paid_rounding: str = _setting(
        "HALF_UP",
        _choice("HALF_UP", "DOWN", "UP"),
        "PAY-04",
        'a fractional number of places paid is rounded half up (63 × 15 % = 9.45 → 9), "DOWN" or "UP" (→ 10)',
    )
    places_paid_counts: str = _setting("ENTRIES", _choice("ENTRIES", "PLAYERS"), "PAY-04", 'places paid count entries (re-entries too) or "PLAYERS"')
    payout_rounding: Decimal = _setting(Decimal(5), _number(0, 100000, above=True), "PAY-05", "prizes are multiples of this unit, the difference on 1st")
    min_cash_multiple: Decimal = _setting(Decimal("1.5"), _number(0, 1000), "PAY-05", "the smallest prize is this many buy-ins")
    guarantee_is_gross: bool = _setting(True, _bool(), "PAY-02", "the guarantee is the gross pool")
    display_pool: str = _setting(
        "NET", _choice("NET", "GROSS", "BOTH"), "PAY-02", 'what the lobby and the payout page show, labelled: the pool to share ("NET"), the gross or both'
    )
    forfeited_prize: str = _setting(
        "HOLD",
        _choice("HOLD", "REDISTRIBUTE", "NEXT_PLACE"),
        "PEN-07, C27",
        "a prize forfeited by elimination without prize: held by the house, shared by the other paid places, or the places below move up one",
    )
    streaming_live: bool = _setting(
        False, _bool(), "ROLE-08, PAY-09", "the TV table is streaming live: no deal, extra breaks only when the TV table is the final table"
    )
    shared_odd_cents: str = _setting(
        "FIRST_LISTED", _choice("FIRST_LISTED", "HOUSE"), "ELM-06", "odd cents of a shared place go to the first listed player or the house"
    )
    lb_mode: str = _setting("A", _choice("A", "B", "C", "D"), "LB-02, C30", "reading of the leaderboard's log(100,25)")
    lb_shared_rule: str = _setting(
        "AVERAGE_PLACE", _choice("AVERAGE_PLACE", "BEST_PLACE"), "LB-03", "leaderboard points of a shared place: at the average place or the best"
    )
    # bounties (PAY-02: the bounty part of each buy-in and re-entry is kept apart from the pool)
    bounty: str = _setting(
        "NONE",
        _choice("NONE", "FIXED", "PKO", "MYSTERY"),
        "PAY-02",
        'a bounty event: "FIXED" knockout (the eliminator wins the whole bounty), "PKO" (progressive: part in cash, the rest onto his own bounty) or "MYSTERY" (envelopes drawn from a stage)',
    )
    bounty_amount: Decimal = _setting(
        Decimal(0), _number(0, 10**7), "PAY-02", "the bounty part of each buy-in and re-entry, sold on top of the buy-in and the fee, never in the prize pool"
    )
    bounty_cash_percent: Decimal = _setting(
        Decimal(50), _number(0, 100), "PAY-02", "PKO: the eliminator's share of a bounty paid in cash; the rest goes onto his own bounty"
    )
    bounty_split: str = _setting(
        "EQUAL", _choice("EQUAL", "POT"), "PAY-02", 'a split pot\'s eliminators share the bounty equally or "POT": by their share of the pot'
    )
    bounty_remainder: str = _setting(
        "FIRST",
        _choice("FIRST", "HOUSE"),
        "PAY-02",
        'what rounding leaves of a shared bounty goes to the first eliminator listed (from the button\'s left) or "HOUSE"',
    )
    bounty_rounding: Decimal = _setting(
        Decimal(1),
        _number(0, 100000, above=True),
        "PAY-02",
        "a bounty's cash shares are multiples of this unit (a PKO's rest goes onto the eliminator's bounty)",
    )
    mystery_from: str | dict = _setting(
        "ITM",
        (_mystery_from, '"START", "ITM", "DAY2" or {"level": n}'),
        "PAY-02",
        'mystery bounties are paid from this stage: "ITM" (once the players left are paid), "START", "DAY2" or {"level": n}; knockouts before it pay nothing',
    )
    mystery_envelopes: tuple | list = _setting(
        (),
        (_envelopes, "a list of positive amounts"),
        "PAY-02",
        "the mystery envelopes, as the director sets them up; they add up to the bounty money taken in",
    )
    mystery_leftover: str = _setting(
        "WINNER",
        _choice("WINNER", "CARRY_OVER"),
        "PAY-02",
        'envelopes still in the bag at the end go to the winner, or "CARRY_OVER": kept for the next mystery event',
    )
    bounty_in_deal: str = _setting(
        "APART",
        _choice("APART", "ADDED"),
        "PAY-09",
        'a deal in a bounty event: each player takes his own bounty apart from the prizes (a mystery event\'s envelopes left: shared equally), or "ADDED": the bounty money in play is shared with the deal, by chips (an even chop: equally)',
    )
    # the progressive jackpot (REG-11, PAY-12)
    jackpot: bool = _setting(False, _bool(), "REG-11", "the tournament takes part in the progressive jackpot: the desk offers its fee")
    jackpot_fee: Decimal = _setting(Decimal(5), _number(0, 1000, above=True), "REG-11", "the jackpot fee, a line of its own on top of the buy-in (001: €5)")
    jackpot_sale_until_level: int = _setting(1, _int(1, 100), "REG-11", "the jackpot fee is sold until the end of this level")
    jackpot_reentry: str = _setting(
        "PAY_AGAIN",
        _choice("PAY_AGAIN", "COVERED", "NONE"),
        "REG-11",
        'a re-entry plays for the jackpot only if it pays the fee again; "COVERED": the player\'s earlier fee covers it; "NONE": re-entries cannot join',
    )
    jackpot_sale_when_won: bool = _setting(False, _bool(), "PAY-12", "the fee is still sold on a day the jackpot was won (it cannot be won again that day)")
    jackpot_full_until_level: int = _setting(1, _int(1, 100), "PAY-12", "a royal flush up to the end of this level wins the full percentage")
    jackpot_full_percent: Decimal = _setting(
        Decimal(100), _number(0, 100, above=True), "PAY-12", "percentage of the fund won up to the end of `jackpot_full_until_level`"
    )
    jackpot_late_percent: Decimal = _setting(
        Decimal(30), _number(0, 100, above=True), "PAY-12", "percentage won after that, until late registration closes (then no jackpot)"
    )
    jackpot_restart: str = _setting(
        "BASE_AFTER_FULL",
        _choice("BASE_AFTER_FULL", "REMAINDER"),
        "PAY-12",
        'the next day the fund restarts from the base after a full win, from what is left after a partial one; "REMAINDER": always from what is left',
    )
    jackpot_split: str = _setting(
        "EQUAL", _choice("EQUAL", "FIRST_CLAIM"), "PAY-12", 'royal flushes in the same hand share the jackpot equally (003 L1766), or "FIRST_CLAIM"'
    )
    # event changes (FMT-02)
    change_notice_hours: int = _setting(
        12, _int(0, 24 * 14), "FMT-02", "a published event's change shows on its lobby screens for this many hours (0: not shown)"
    )
    # the public seat lookup (ROLE-06: personal data, as little as needed)
    seat_lookup_names: str = _setting(
        "INITIAL",
        _choice("INITIAL", "FULL", "NICKNAME"),
        "ROLE-06",
        'how every public page (seat lookup, lobby screens and their ticker, bounty list, league, leaderboard, heads-up bracket) shows a name: first name and initial ("Mario R."), "FULL" name, or "NICKNAME" (first name and initial when there is none); two players who would read the same carry their entry number',
    )
    # player information (ROLE-06)
    official_languages: str = _setting(
        "Italiano, English",
        (_short_text, "text of at most 60 characters"),
        "ROLE-06",
        'the tables\' official language(s) (TDA 6; 000 and 003: Italian and English), posted on the lobby screens; "" posts none',
    )
    # rulings (ROLE-05)
    ruling_break_window_seconds: int = _setting(
        60, _int(0, 3600), "ROLE-05", "a pot awarded in a break may be disputed this many seconds after it is awarded (TDA 22)"
    )
    # notices on the players' phones (ROLE-06: Web Push, tournaments.notices)
    notify_seat: bool = _setting(
        True, _bool(), "ROLE-06", "a subscribed player's phones are told the seat drawn at the start, at a late registration or a re-entry"
    )
    notify_move: bool = _setting(True, _bool(), "ROLE-06", "… where to go when the player's table breaks or is balanced, or the seat is changed")
    notify_final_table: bool = _setting(True, _bool(), "ROLE-06", "… the seat at the final table when it is drawn")
    notify_starts_soon: bool = _setting(True, _bool(), "ROLE-06", "… that the event starts in `starts_soon_minutes`")
    starts_soon_minutes: int = _setting(15, _int(1, 240), "ROLE-06", "how many minutes before the start the players registered are told it comes")
    notify_reg_closes: bool = _setting(
        True, _bool(), "ROLE-06", "… to the players of the event's series not registered in it, that its late registration closes at the end of this level"
    )
    notify_break_ends: bool = _setting(True, _bool(), "ROLE-06", "… that the break ends in 2 minutes")
    notify_announcement: bool = _setting(True, _bool(), "ROLE-06", "… the director's announcements to the event's players, typed on the clock page")
    notify_in_money: bool = _setting(True, _bool(), "ROLE-06", "… that the player is in the money")
    notify_busted: bool = _setting(True, _bool(), "ROLE-06", "… the place when the player is out, and the prize waiting at the desk")
    notify_bounty: bool = _setting(True, _bool(), "ROLE-06", "… a bounty won")
    notify_prize_ready: bool = _setting(
        True, _bool(), "ROLE-06", "… that a prize won is ready at the desk (the payout table locked, the place signed off, nothing held)"
    )
    push_keep_days: int = _setting(
        30, _int(1, 3650), "ROLE-06", "a player's phone subscriptions are deleted this many days after the start of the last event entered"
    )
    # formats (set by their services)
    multiday_day: int | None = _setting(None, _int(1, 2), "FMT-11", "day of a multi-day event (set by the flights service)")

    @classmethod
    def of(cls, tournament) -> "HouseRules":
        """The tournament's house rules: stored values over defaults, dependent defaults worked out.

        A value stored before validation existed and not valid now reads as the default.
        """
        stored = tournament.settings if isinstance(tournament.settings, dict) else {}
        key = json.dumps(stored, sort_keys=True, default=str)
        return _rules_of(key, tournament.table_size, tournament.rule_set, getattr(tournament, "game", "NLHE"))

    @classmethod
    def from_settings(cls, stored: dict, *, table_size: int = 9, rule_set: str = "TDA", game: str = "NLHE") -> "HouseRules":
        stored = dict(stored)
        if stored.get("h4h_policy"):  # the older key, which wins as it always did
            stored["h4h_simultaneous_policy"] = stored["h4h_policy"]
        values = {"table_size": int(table_size), "rule_set": rule_set or "TDA", "game": game or "NLHE"}
        for f in fields(cls):
            if f.metadata["column"]:
                continue
            v = stored.get(f.name)
            ok, _expected = f.metadata["check"]
            if f.name in stored and ok(v) and not (v is None and f.metadata["derived"]):
                values[f.name] = v
        for name in (
            "percent_paid",
            "payout_rounding",
            "min_cash_multiple",
            "jackpot_fee",
            "jackpot_full_percent",
            "jackpot_late_percent",
            "bounty_amount",
            "bounty_cash_percent",
            "bounty_rounding",
        ):
            if values.get(name) is not None:
                values[name] = Decimal(str(values[name]))
        if values.get("fee_override") is not None:  # REG-03: an amount, like the fee it replaces
            values["fee_override"] = Decimal(str(values["fee_override"]))
        if values.get("break_order") == []:
            values["break_order"] = None
        size, rs = values["table_size"], values["rule_set"]
        values.setdefault("final_table_size", defaults.final_table_size(size))
        values.setdefault("penalty_preset", defaults.penalty_preset(rs))
        values.setdefault("max_rounds", defaults.max_rounds(values["penalty_preset"]))
        values.setdefault("clock_call_preset", defaults.clock_call_preset(rs))
        values.setdefault("clock_call_seconds", defaults.clock_call_time(values["clock_call_preset"])[0])
        values.setdefault("clock_call_countdown_seconds", defaults.clock_call_time(values["clock_call_preset"])[1])
        values.setdefault("h4h_simultaneous_policy", defaults.h4h_simultaneous_policy(rs))
        values.setdefault("require_prestart_report", defaults.require_prestart_report(rs))
        values.setdefault("check_in_requires_id", defaults.check_in_requires_id(rs))
        values.setdefault("no_show_policy", defaults.no_show_policy(rs))
        return cls(**values)

    @property
    def bounty_part(self) -> Decimal:
        """The bounty part of each buy-in and re-entry: ``bounty_amount`` in a bounty event, else 0."""
        return Decimal(0) if self.bounty == "NONE" else self.bounty_amount.quantize(Decimal("0.01"))

    def entry_cost(self, t) -> Decimal:
        """What the desk charges for an entry of ``t`` (this house's rules being ``t``'s): the
        buy-in and the fee, and the bounty part in a bounty event (PAY-02). The jackpot's fee is
        the player's choice, apart."""
        return t.entry_price + self.bounty_part

    @property
    def envelopes(self) -> list[Decimal]:
        """The mystery envelopes' amounts, in the director's order (numbered from 1)."""
        return [Decimal(str(a)).quantize(Decimal("0.01")) for a in self.mystery_envelopes]

    def notifies(self, kind: str) -> bool:
        """Whether the house sends this kind of notice (``tournaments.notices.rules.KINDS``) in
        this event: a bounty won only in a bounty event, so no player is offered it elsewhere."""
        if kind == "bounty" and self.bounty == "NONE":
            return False
        return bool(getattr(self, f"notify_{kind}", False))

    def late_stack(self, full: int) -> int:
        """REG-04 / C6: a late registrant's stack, given the full stack the entry buys (the
        tournament's, or the chosen option's under stack choice, FMT-07). A reduced stack is a
        reduction: ``{"chips": n}`` is n chips but never more than the full stack."""
        policy = self.late_reg_stack
        if isinstance(policy, dict) and "percent" in policy:
            return full * int(policy["percent"]) // 100
        if isinstance(policy, dict) and "chips" in policy:
            return min(full, int(policy["chips"]))
        return full

    def late_registration_level(self, tournament) -> int:
        """REG-04: the level at whose end late registration closes: the tournament's, else the
        house default (RULES: the end of level 3). Never "open all event"."""
        return tournament.late_reg_closes_after_level or self.late_reg_default_level

    def rebuy_level(self, tournament) -> int:
        """FMT-04: the last level rebuys are sold in: the tournament's, else the house default (003: level 3)."""
        return tournament.rebuy_until_level or self.rebuy_default_level

    def balance_kwargs(self) -> dict:
        """The balancing engine's settings (``seating.engine``)."""
        # BAL-03 / FMT-16: a stud-only event has no button; its players move by position (TDA 11-A).
        mover_rule = "STUD_POSITION" if self.game == "STUD" else self.mover_rule
        return {
            "trigger_difference": self.balance_trigger_difference,
            "mover_rule": mover_rule,
            "dest_rule": self.dest_rule,
            "tie_break": self.tie_break,
            "vacated_bb_seat": self.vacated_bb_seat,
        }


@functools.lru_cache(maxsize=512)
def _rules_of(stored: str, table_size: int, rule_set: str, game: str) -> HouseRules:
    """``HouseRules.of``'s object, built once per distinct settings (their JSON, keys sorted):
    every sale, bust and snapshot asks for it several times, and working out some ninety
    checked fields cost more than the JSON that names them. The object is frozen and its
    values are read, never changed, so one copy serves every caller."""
    return HouseRules.from_settings(json.loads(stored), table_size=table_size, rule_set=rule_set, game=game)


def default_text(f) -> str:
    """A field's default as the table of docs/house-rules.md shows it."""
    if f.metadata["derived"]:
        return f.metadata["derived"]
    v = f.default
    if isinstance(v, bool):
        return f"`{str(v).lower()}`"
    if v is None:
        return "`null`"
    if isinstance(v, str):
        return f'`"{v}"`'
    if v == ():
        return "`[]`"
    return f"`{v}`"


HOUSE_FIELDS = tuple(f for f in fields(HouseRules))

# The keys a ``settings`` object may hold, and what each accepts: one per field, and the older
# name ``h4h_policy`` of ``h4h_simultaneous_policy``.
SETTINGS = {f.name: f.metadata["check"] for f in HOUSE_FIELDS if not f.metadata["column"]}
SETTINGS["h4h_policy"] = SETTINGS["h4h_simultaneous_policy"]


def check_settings(value) -> dict[str, str]:
    """``{key: message}`` for each thing wrong with ``value`` (``{"": message}`` when it is not an object)."""
    if not isinstance(value, dict):
        return {"": _("The house settings must be an object of settings (see docs/house-rules.md).")}
    errors = {}
    for key, v in value.items():
        spec = SETTINGS.get(key)
        if spec is None:
            errors[key] = _("Unknown setting.")
            continue
        ok, expected = spec
        if not ok(v):
            errors[key] = _("Expected %(expected)s.") % {"expected": expected}
    return errors
