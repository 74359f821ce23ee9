"""Penalty arithmetic and validation (RULES.md §7, PEN-01..PEN-08).

Pure Python, standard library only. Storing, serving and lifting penalties is
the services' job; this module says what a penalty is worth and whether the
rule set of the event allows it.

Choices where RULES.md leaves freedom:

- Presets name the rule set an event runs under. ``TDA``: no maximum number of
  rounds (TDA 71-A escalates freely), no bounds on a time suspension beyond
  "more than zero", players counted when the penalty is given. ``SANREMO_003``:
  1–4 rounds, time suspension 5–30 minutes (003 Art. 4.7(3)), players counted
  at the start of the next hand (003 Art. 4.2.33 wording, RULES C25).
  ``MONTEGALDA_004``: 1–4 rounds (004 Art. 20.8), players counted at issue.
  ``HEADS_UP_001``: at least 3 rounds, no maximum (001 L36: "from a minimum of
  3 rounds up to expulsion"). RULES PEN-02's "max_rounds default 4" is the
  003/004 presets; scenario 26 accepts 5 rounds in TDA mode.
- An event can tune a preset: pass a :class:`PenaltyPreset` (e.g.
  ``dataclasses.replace(PRESETS["TDA"], max_rounds=4)``) wherever a preset
  name is accepted.
- A value that does not belong to the penalty type (minutes on a warning) is
  refused (``unexpected_value``) rather than silently ignored.
"""

from __future__ import annotations

from dataclasses import dataclass


def gettext_noop(text: str) -> str:
    """Marks an English label for translation (``makemessages`` collects it) and returns it as is:
    this module stays pure; ``tournaments.labels`` translates the label where a page shows it."""
    return text


WARNING = "WARNING"
MISSED_HANDS = "MISSED_HANDS"
MISSED_ROUNDS = "MISSED_ROUNDS"
TIME_SUSPENSION = "TIME_SUSPENSION"
DEAD_HAND = "DEAD_HAND"
DISQUALIFICATION = "DISQUALIFICATION"
ELIMINATION_NO_PRIZE = "ELIMINATION_NO_PRIZE"
CHIP_FORFEIT = "CHIP_FORFEIT"
PENALTY_TYPES = (
    WARNING,
    MISSED_HANDS,
    MISSED_ROUNDS,
    TIME_SUSPENSION,
    DEAD_HAND,
    DISQUALIFICATION,
    ELIMINATION_NO_PRIZE,
    CHIP_FORFEIT,
)
# What a person reads for each type (translated by ``tournaments.labels``).
PENALTY_TYPE_LABELS: dict[str, str] = {
    WARNING: gettext_noop("Warning"),
    MISSED_HANDS: gettext_noop("Missed hands"),
    MISSED_ROUNDS: gettext_noop("Missed rounds"),
    TIME_SUSPENSION: gettext_noop("Time suspension"),
    DEAD_HAND: gettext_noop("Dead hand"),
    DISQUALIFICATION: gettext_noop("Disqualification"),
    ELIMINATION_NO_PRIZE: gettext_noop("Elimination without prize"),
    CHIP_FORFEIT: gettext_noop("Chip forfeit"),
}
# Types that take the player's whole stack out of play (PEN-07, CR-06).
REMOVES_ALL_CHIPS = (DISQUALIFICATION, ELIMINATION_NO_PRIZE)

# Types during which the player's hand is still dealt and his blinds and antes
# posted, then killed (TDA 71-C; 003 Art. 4.7(3) for time suspensions).
DEALT_IN_WHILE_SERVING = (MISSED_HANDS, MISSED_ROUNDS, TIME_SUSPENSION)

COUNT_AT_ISSUE = "ISSUE"
COUNT_AT_NEXT_HAND = "NEXT_HAND"


class PenaltyError(Exception):
    """A penalty the rule set does not allow; ``code`` is machine-readable.

    Codes: ``unknown_type``, ``unknown_preset``, ``missing_value``,
    ``unexpected_value``, ``bad_value``, ``too_few_rounds``, ``too_many_rounds``,
    ``suspension_out_of_range``, ``unknown_reason``.
    """

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code

    def __repr__(self) -> str:
        return f"PenaltyError({self.code!r}, {self.message!r})"


@dataclass(frozen=True)
class PenaltyPreset:
    """Penalty limits of one rule set."""

    name: str
    max_rounds: int | None
    min_rounds: int = 1
    suspension_min_minutes: int | None = None
    suspension_max_minutes: int | None = None
    count_players_at: str = COUNT_AT_ISSUE
    source: str = ""


PRESETS: dict[str, PenaltyPreset] = {
    "TDA": PenaltyPreset("TDA", max_rounds=None, source="TDA 71-A"),
    "SANREMO_003": PenaltyPreset(
        "SANREMO_003",
        max_rounds=4,
        suspension_min_minutes=5,
        suspension_max_minutes=30,
        count_players_at=COUNT_AT_NEXT_HAND,
        source="003 Art. 4.2.33, Art. 4.7(3)",
    ),
    "MONTEGALDA_004": PenaltyPreset("MONTEGALDA_004", max_rounds=4, source="004 Art. 20.8"),
    "HEADS_UP_001": PenaltyPreset("HEADS_UP_001", max_rounds=None, min_rounds=3, source="001 L36 (heads-up rules)"),
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def get_preset(preset: str | PenaltyPreset) -> PenaltyPreset:
    """A preset by name, or the given :class:`PenaltyPreset` itself."""
    if isinstance(preset, PenaltyPreset):
        return preset
    try:
        return PRESETS[preset]
    except (KeyError, TypeError):
        raise PenaltyError("unknown_preset", f"unknown penalty preset {preset!r}") from None


def missed_round_hands(players_at_table: int, rounds: int) -> int:
    """Hands to miss for a missed-rounds penalty (PEN-02, TDA 71-A).

    One hand per player at the table, the offender included, per round:
    7 players x 3 rounds = 21 hands. The result is stored as a fixed count and
    is not recalculated when the player moves table (PEN-04).
    """
    if not _is_int(players_at_table) or players_at_table < 1:
        raise PenaltyError("bad_value", "players at the table must be a whole number >= 1")
    if not _is_int(rounds) or rounds < 1:
        raise PenaltyError("bad_value", "rounds must be a whole number >= 1")
    return players_at_table * rounds


ROUNDS_OF_TWO_HANDS = "ROUNDS_OF_TWO_HANDS"
BLINDS_PAID = "BLINDS_PAID"
HEADS_UP_READINGS = {
    ROUNDS_OF_TWO_HANDS: gettext_noop("Rounds of two hands (TDA: 2 hands per round)"),
    BLINDS_PAID: gettext_noop("Blinds paid (001: one hand per round)"),
}


def heads_up_penalty_readings(rounds: int) -> dict[str, int]:
    """Both readings of a heads-up penalty of ``rounds`` rounds, in hands (PEN-06, C28).

    ``ROUNDS_OF_TWO_HANDS``: TDA arithmetic, 2 players x rounds. ``BLINDS_PAID``:
    001's «pagamento di 3 bui», one hand per round. The director chooses
    (``tournaments.floor.services.issue_penalty``).
    """
    return {
        ROUNDS_OF_TWO_HANDS: missed_round_hands(2, rounds),
        BLINDS_PAID: missed_round_hands(1, rounds),
    }


def validate_penalty(
    kind: str,
    *,
    preset: str | PenaltyPreset,
    rounds: int | None = None,
    minutes: int | None = None,
    hands: int | None = None,
    chips: int | None = None,
) -> None:
    """Check a penalty against the event's rule set; raise :class:`PenaltyError`.

    - MISSED_ROUNDS needs ``rounds`` within the preset's min/max (PEN-02, PEN-06).
    - MISSED_HANDS needs ``hands`` >= 1.
    - TIME_SUSPENSION needs ``minutes`` >= 1 and within the preset's bounds
      (PEN-05: 5–30 in the 003 preset).
    - CHIP_FORFEIT needs ``chips`` >= 1 (PEN-07).
    - WARNING, DEAD_HAND, DISQUALIFICATION, ELIMINATION_NO_PRIZE take no value.
    """
    limits = get_preset(preset)
    if kind not in PENALTY_TYPES:
        raise PenaltyError("unknown_type", f"unknown penalty type {kind!r}")
    needed = {
        MISSED_ROUNDS: "rounds",
        MISSED_HANDS: "hands",
        TIME_SUSPENSION: "minutes",
        CHIP_FORFEIT: "chips",
    }.get(kind)
    values = {"rounds": rounds, "minutes": minutes, "hands": hands, "chips": chips}
    for name, value in values.items():
        if name != needed and value is not None:
            raise PenaltyError("unexpected_value", f"{kind} takes no {name}")
    if needed is None:
        return
    value = values[needed]
    if value is None:
        raise PenaltyError("missing_value", f"{kind} needs {needed}")
    if not _is_int(value) or value < 1:
        raise PenaltyError("bad_value", f"{needed} must be a whole number >= 1")

    if kind == MISSED_ROUNDS:
        if value < limits.min_rounds:
            raise PenaltyError("too_few_rounds", f"{limits.name}: at least {limits.min_rounds} rounds")
        if limits.max_rounds is not None and value > limits.max_rounds:
            raise PenaltyError("too_many_rounds", f"{limits.name}: at most {limits.max_rounds} rounds")
    elif kind == TIME_SUSPENSION:
        low = limits.suspension_min_minutes
        high = limits.suspension_max_minutes
        if (low is not None and value < low) or (high is not None and value > high):
            raise PenaltyError(
                "suspension_out_of_range",
                f"{limits.name}: a time suspension lasts {low}–{high} minutes",
            )


def hands_to_miss(
    kind: str,
    *,
    players_at_table: int | None = None,
    rounds: int | None = None,
    hands: int | None = None,
) -> int:
    """The fixed number of hands a penalty keeps the player away (0 if not hand-based)."""
    if kind == MISSED_ROUNDS:
        if players_at_table is None or rounds is None:
            raise PenaltyError("missing_value", "missed rounds need players_at_table and rounds")
        return missed_round_hands(players_at_table, rounds)
    if kind == MISSED_HANDS:
        if not _is_int(hands) or hands < 1:
            raise PenaltyError("bad_value", "hands must be a whole number >= 1")
        return hands
    if kind not in PENALTY_TYPES:
        raise PenaltyError("unknown_type", f"unknown penalty type {kind!r}")
    return 0


# PEN-08: reason code -> (English label, source reference).
REASON_CODES: dict[str, tuple[str, str]] = {
    "DISCLOSURE": (gettext_noop("Disclosing or discussing hand contents, advising play"), "TDA 67; 003 Art. 11.2; 004 Art. 19.3–19.4"),
    "ONE_PLAYER_TO_A_HAND": (gettext_noop("One player to a hand violated"), "TDA 67; 004 Art. 20.8"),
    "CARD_EXPOSURE": (gettext_noop("Exposing cards with action pending"), "TDA 68; 004 Art. 20.8, 20.11"),
    "SOFT_PLAY": (gettext_noop("Soft play"), "TDA 69; 004 Art. 20.12"),
    "CHIP_DUMPING": (gettext_noop("Chip dumping / passing chips"), "TDA 69; 004 Art. 20.12"),
    "COLLUSION": (gettext_noop("Collusion"), "TDA 69; 003 Art. 11.1; 004 Art. 19.2"),
    "PERSISTENT_DELAY": (gettext_noop("Persistent or deliberate delay of the game"), "TDA 70; 003 Art. 11.2; 004 Art. 20.13"),
    "TOUCHING_OTHERS": (gettext_noop("Touching another player's person, cards or chips"), "TDA 70; 004 Art. 20.13"),
    "ACTING_OUT_OF_TURN": (gettext_noop("Repeatedly acting out of turn"), "TDA 70; 003 Art. 11.2"),
    "POOR_CHIP_VISIBILITY": (gettext_noop("Poor card or chip visibility and countability"), "TDA 70; TDA 25-A"),
    "BETTING_OUT_OF_REACH": (gettext_noop("Betting out of reach of the dealer"), "TDA 70"),
    "ABUSIVE_CONDUCT": (gettext_noop("Abusive conduct, insults"), "TDA 70; 001 L12 (Codice di comportamento)"),
    "THREATS": (gettext_noop("Verbal or physical threats"), "003 Art. 11.1; 004 Art. 19.2; 001 L12"),
    "PROFANITY": (gettext_noop("Profane or obscene language"), "003 Art. 11.1; 004 Art. 19.2"),
    "OFFENSIVE_HYGIENE": (gettext_noop("Offensive hygiene"), "TDA 70"),
    "EXCESSIVE_CHATTER": (gettext_noop("Excessive chatter"), "TDA 70; 004 Art. 20.13"),
    "DISRUPTIVE_NOISE": (gettext_noop("Disturbance by arguing, shouting or noise"), "003 Art. 11.1; 004 Art. 19.2; 001 L12"),
    "DAMAGING_CARDS": (gettext_noop("Throwing, tearing, bending or crumpling cards"), "003 Art. 11.1; 004 Art. 19.2"),
    "DAMAGING_PROPERTY": (gettext_noop("Damaging the room's property"), "003 Art. 11.1; 004 Art. 19.2"),
    "ILLEGAL_SUBSTANCES": (gettext_noop("Use of illegal substances"), "003 Art. 11.1; 004 Art. 19.2"),
    "WEAPONS": (gettext_noop("Carrying weapons"), "003 Art. 11.1; 004 Art. 19.2"),
    "THROWING_CHIPS": (gettext_noop("Throwing chips violently"), "003 Art. 11.2; 004 Art. 19.3"),
    "READING_HANDS": (gettext_noop("Reading a hand for another player before it is tabled"), "TDA 67; 003 Art. 11.2; 004 Art. 19.3"),
    "THROWING_CARDS": (gettext_noop("Deliberately throwing cards away when losing"), "003 Art. 11.2; 004 Art. 19.3"),
    "CHIPS_INTERFERING": (gettext_noop("Chips placed to interfere with the deal or the view of cards"), "003 Art. 11.2"),
    "PHONE_AT_TABLE": (gettext_noop("Using a phone at the table"), "003 Art. 11.2, Art. 4.2.22"),
    "LEAVING_TABLE_WITH_LIVE_HAND": (gettext_noop("Leaving the table with a live hand"), "TDA 31"),
    "DODGING_BLINDS": (gettext_noop("Dodging blinds (including when moving from a broken table)"), "TDA 33; 003 Art. 4.2.21; 004 Art. 13.5 (BAL-07)"),
    "TINY_CHIP_CALL": (gettext_noop("Silently calling with a relatively tiny chip"), "TDA 41"),
    "STALLING_BEFORE_LEVEL_CHANGE": (gettext_noop("Stalling to gain position before a level change"), "004 Art. 17.1 (CLK-03)"),
    "LATE_SEAT_TAKING": (gettext_noop("Not taking the drawn seat promptly"), "003 Art. 4.7(3); 004 Art. 8.4 (PEN-05)"),
    "CHIPS_OUT_OF_VIEW": (gettext_noop("Chips held or carried out of view, or pocketed"), "TDA 63; 003 Art. 4.2.4"),
    "FALSE_HAND_DECLARATION": (gettext_noop("Deliberately declaring a wrong hand value"), "004 Art. 20.9"),
    "STANDING_BEHIND_PLAYERS": (gettext_noop("Standing behind players at a table"), "001 L12"),
    "OTHER": (gettext_noop("Other (see note)"), "TDA 1; 004 Art. 20"),
}


def reason_codes(house: dict | None = None) -> dict[str, tuple[str, str]]:
    """PEN-08: the reason codes a tournament offers: the built-in ones, with the house setting
    ``penalty_reasons`` (code → {"label", "source"} to add or rename, code → None to remove)
    applied. A built-in label is English to translate; a house's label is shown as typed."""
    codes = dict(REASON_CODES)
    for code, entry in (house or {}).items():
        if entry is None:
            codes.pop(code, None)
        else:
            codes[code] = (entry["label"], entry["source"])
    return codes


def reason_label(code: str) -> str:
    """English label of a reason code (raises ``unknown_reason`` for an unknown one)."""
    try:
        return REASON_CODES[code][0]
    except KeyError:
        raise PenaltyError("unknown_reason", f"unknown reason code {code!r}") from None
