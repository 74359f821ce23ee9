"""What a person reads for every code the product stores: one place, in the active language.

Pages and the API show these labels, never the codes (``MISSED_ROUNDS``, ``BUY_IN``, ``CASH``,
``HAND_FOR_HAND``). The pure engines keep their English labels marked for translation
(``penalties.PENALTY_TYPE_LABELS``, ``penalties.REASON_CODES``); this module translates them.
``code_labels()`` is the map a page's script receives through ``json_script``.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from tournaments.floor import penalties

from .models import ChipAdjustment, Entry, LedgerRow, Tournament

METHODS = dict(LedgerRow.METHODS)
LEDGER_KINDS = dict(LedgerRow.KINDS)
ADJUSTMENT_KINDS = dict(ChipAdjustment.KINDS)
ENTRY_STATUSES = dict(Entry.STATUSES)
TOURNAMENT_STATUSES = dict(Tournament.STATUSES)
GAMES = dict(Tournament.GAMES)
# Calling the clock on a player (CLK-10): the rule set each preset follows.
SHOT_CLOCK_PRESETS = {"TDA": _("TDA rules"), "SANREMO": _("Sanremo rules (003)"), "HEADS_UP": _("Heads-up rules (001)")}
PENALTY_STATUSES = {"ACTIVE": _("Serving"), "SERVED": _("Served"), "CANCELLED": _("Cancelled")}
CLOCK_STATUSES = {
    "NOT_STARTED": _("Not started"),
    "RUNNING": _("Running"),
    "PAUSED": _("Paused"),
    "HAND_FOR_HAND": _("Hand-for-hand"),
    "FINISHED": _("Finished"),
}


# The heads-up bracket's match states and results, and the seat requests of a bracket (FMT-12).
FORMAT_CODES = {
    "WAITING": _("Waiting"),
    "READY": _("Ready"),
    "PLAYING": _("Playing"),
    "DONE": _("Finished"),
    "PLAYED": _("Played"),
    "BYE": _("Bye"),
    "WALKOVER": _("Walkover"),
    "LATENESS": _("Lost for lateness"),
    "NEW": _("New player"),
    "RETURNING": _("Returning player"),
    "ADMITTED": _("Admitted"),
    "REFUSED": _("Refused"),
}


# The descriptions of the blind structures the product ships (tournaments/structures/*.json), stored
# in English as the files say, and the texts the demo writes into its data (``manage.py demo``):
# shown in the reader's language. A text a director typed is shown as typed.
# tests/test_numbers_and_words_italian.py checks every shipped file is listed.
SHIPPED_TEXTS = frozenset(
    (
        gettext_noop("Excluded by the casino"),
        gettext_noop("Banned in the room's former records"),  # imports.people: a ban imported without a reason
        gettext_noop("€500+50 IPT/EPT ticket (personal, non-transferable)"),  # formats.models.DEFAULT_TICKET
        gettext_noop("40-minute levels for main events, big-blind ante from level 4, a break every 3 levels."),
        gettext_noop("20-minute levels, big-blind ante from level 3, a break every 4 levels."),
        gettext_noop("15-minute levels, big-blind ante from level 3, a break every 6 levels."),
    )
)


def shipped_text(text: str) -> str:
    """A text the product wrote into the data (a shipped structure's description) in the active
    language; any other text as it is."""
    return gettext(text) if text in SHIPPED_TEXTS else text


def humanize(code: str) -> str:
    """A code no table names, made readable rather than shown raw ("SOME_CODE" → "Some code")."""
    return str(code or "").replace("_", " ").strip().capitalize()


def penalty_kind_label(code: str) -> str:
    label = penalties.PENALTY_TYPE_LABELS.get(code)
    return gettext(label) if label else humanize(code)


def penalty_reason_label(code: str, house: dict | None = None) -> str:
    """A reason code's label: the house's as typed (``penalty_reasons``), a built-in one translated."""
    custom = (house or {}).get(code)
    if custom:
        return custom["label"]
    entry = penalties.REASON_CODES.get(code)
    return gettext(entry[0]) if entry else humanize(code)


def penalty_kinds() -> list[tuple[str, str]]:
    return [(k, penalty_kind_label(k)) for k in penalties.PENALTY_TYPES]


def penalty_reasons(house: dict | None = None) -> list[tuple[str, str]]:
    """The tournament's reason codes (PEN-08: the built-in list as the house setting
    ``penalty_reasons`` changes it) with their labels, in the order a person scans them
    (alphabetical by label, "Other" last when offered)."""
    codes = penalties.reason_codes(house)
    rows = [(c, penalty_reason_label(c, house)) for c in codes if c != "OTHER"]
    other = [("OTHER", penalty_reason_label("OTHER", house))] if "OTHER" in codes else []
    return sorted(rows, key=lambda r: r[1].lower()) + other


def code_labels(penalty_reasons: dict | None = None) -> dict[str, dict[str, str]]:
    """Every code a page's script may meet, with its label (for ``json_script``); a tournament's
    page passes its house setting ``penalty_reasons`` (PEN-08)."""

    def s(d):
        return {k: str(v) for k, v in d.items()}

    return {
        "penalty_kind": dict(penalty_kinds()),
        "penalty_reason": {c: penalty_reason_label(c, penalty_reasons) for c in {**penalties.REASON_CODES, **penalties.reason_codes(penalty_reasons)}},
        "method": s(METHODS),
        "ledger_kind": s(LEDGER_KINDS),
        "adjustment": s(ADJUSTMENT_KINDS),
        "entry_status": s(ENTRY_STATUSES),
        "tournament_status": s(TOURNAMENT_STATUSES),
        "clock_status": s(CLOCK_STATUSES),
        "game": game_names(),
    }


def game_names() -> dict[str, str]:
    """Every game code (the event's and a level's, FMT-16) with its name in the active language."""
    return {code: str(name) for code, name in GAMES.items()}


def game_label(code: str) -> str:
    """A game's name in the active language; blank for a level that names none."""
    return str(GAMES.get(code, code)) if code else ""


def name_games(clock: dict) -> dict:
    """A clock snapshot with the current and the next level's game named in the active language
    (FMT-16: a mixed event changes game by level). The published snapshot carries the codes only:
    every page names them in its reader's language."""
    if clock.get("game") is not None:
        clock["game_name"] = game_label(clock["game"])
    nxt = clock.get("next")
    if isinstance(nxt, dict) and nxt.get("kind") == "level":
        nxt["game_name"] = game_label(nxt.get("game", ""))
    return clock


def chip_names(denominations) -> str:
    """``T25``, ``T25 and T100``, ``T25, T100 and T500``: the chips named in the active language."""
    names = [f"T{d}" for d in denominations]
    if len(names) < 2:
        return "".join(names)
    return gettext("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def break_note(item) -> str:
    """What a break says (CLK-09): the director's note as typed, else the colour-up its structure
    schedules (``removes_denominations``) in the active language, else nothing. The pages' scripts
    build the same sentence from the same two messages (``TDMFormat.colourUp`` in static/live.js)."""
    typed = getattr(item, "color_up", "") or ""
    if typed:
        return typed
    removes = getattr(item, "removes_denominations", None) or ()
    if not removes:
        return ""
    return gettext("Colour-up: {chips} chips leave the table").format(chips=chip_names(removes))
