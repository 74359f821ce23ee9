"""The seating engine's reasons in words, in the reader's language (nothing raw reaches a person).

The engine (``seating.engine``, pure) says why it chose a player or a seat with a
:class:`~seating.engine.Reason`: reason codes and their parameters, never a sentence. The
services store that as JSON (``PendingMove.reason_data``, the ``reason`` of the event
payloads); the table map, the move slips, a player's draw history and the API turn it into
text here, when they show it, so the language is the reader's, not the writer's.

``reason_text`` also reads what older rows hold: the English sentence the engine used to
write, or the words a person typed for a move by hand, shown as they are.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from .engine import Reason, ReasonCode

R = ReasonCode

#: One template per code, with the parameters ``ReasonCode`` lists beside it; where a number
#: decides the form, the template is plural-aware and names the parameter that counts.
REASON_TEXTS: dict[str, object] = {
    R.MOVER_BB_UNKNOWN: _("big-blind position unknown at table %(table)s: moved the player in the highest occupied seat (%(seat)s) (fallback)"),
    R.MOVER_NEXT_BB: _("next big blind at table %(table)s (seat %(seat)s)"),
    R.MOVER_CURRENT_BB: _("big blind of the last hand at table %(table)s (seat %(seat)s)"),
    R.MOVER_CURRENT_BB_LEFT: _(
        "the big blind of the last hand at table %(table)s (seat %(left_seat)s) has left: moved the next big blind (seat %(seat)s) instead"
    ),
    R.MOVER_BUTTON: _("button at table %(table)s (seat %(seat)s)"),
    R.MOVER_DEAD_BUTTON: _("dead button at table %(table)s (seat %(button)s): moved seat %(seat)s, who acts last in the next hand"),
    R.MOVER_FIXED_SEAT: _("seat %(fixed_seat)s was given by hand (special needs), so the next player clockwise moves: seat %(seat)s"),
    R.MOVER_STUD_POSITION: _("stud, by position: the player in seat %(seat)s at table %(table)s, the seat number filled (%(to_seat)s) or the next after it"),
    R.DEST_STUD_LAST_OPEN: _("stud: the last open seat at table %(table)s, seat %(seat)s"),
    R.DEST_BB_UNKNOWN: _(
        "big-blind position unknown at table %(table)s: seat %(seat)s drawn at random from the open seats "
        "(fallback); confirm the button before the player is dealt in"
    ),
    R.DEST_ONLY_VACATED_BB: _(
        "seat %(seat)s at table %(table)s is the only open seat and the big blind just left it: the "
        "player posts the big blind alone next hand, never the small blind (fallback)"
    ),
    R.DEST_VACATED_BB: _("seat %(seat)s at table %(table)s, which the big blind just left, posts the big blind again next hand (single big blind)"),
    R.DEST_BB_NEXT_HAND: _("seat %(seat)s at table %(table)s posts the big blind next hand"),
    R.DEST_BB_IN_HANDS: ngettext_lazy(
        "seat %(seat)s at table %(table)s posts the big blind in %(hands)s hand",
        "seat %(seat)s at table %(table)s posts the big blind in %(hands)s hands",
        "hands",
    ),
    R.DEST_NEAREST_BB: _("the open seat nearest the big blind, seat %(seat)s"),
    R.DEST_SAME_POSITION: ngettext_lazy(
        "nearest to the old position: big blind in %(hands)s hand", "nearest to the old position: big blind in %(hands)s hands", "hands"
    ),
    R.DEST_WAITS_FOR_BUTTON: _("it lies between the button and the small blind, so the player waits for the button (no other open seat)"),
    R.BALANCE_COUNTS: ngettext_lazy(
        "balancing: table %(from_table)s had %(from_players)s player, table %(to_table)s had %(to_players)s",
        "balancing: table %(from_table)s had %(from_players)s players, table %(to_table)s had %(to_players)s",
        "from_players",
    ),
    R.BREAK_DRAW: _(
        "table %(table)s breaks: the player's card %(card)s ranks %(rank)s of %(of)s, so the player takes seat "
        "card %(rank)s: table %(to_table)s, seat %(to_seat)s"
    ),
    R.FINAL_TABLE_DRAW: _(
        "final table draw: the player's card %(card)s ranks %(rank)s of %(of)s, so the player takes seat card %(rank)s: table %(to_table)s, seat %(to_seat)s"
    ),
    R.WAIT_FOR_BUTTON: _("the seat lies between the button and the small blind: wait for the button"),
    R.LATE_SEAT_POOL: ngettext_lazy(
        "seat pool: %(open_seats)s open seat at the tables with the fewest players (%(players)s); drew table %(table)s, seat %(seat)s at random",
        "seat pool: %(open_seats)s open seats at the tables with the fewest players (%(players)s); drew table %(table)s, seat %(seat)s at random",
        "open_seats",
    ),
    R.LATE_NEW_TABLE: _("every table is full: open table %(table)s (%(capacity)s seats); seat %(seat)s drawn at random; draw the button when the table starts"),
    R.BUTTON_UNKNOWN: _("big-blind position unknown: confirm the button before the player is dealt in"),
    R.SEAT_RESERVED: _("seat given by hand (special needs): table %(table)s, seat %(seat)s"),
}

#: Clauses read as an aside to the clause before them: "…next hand (the open seat nearest…)".
ASIDES = frozenset({R.DEST_NEAREST_BB, R.DEST_SAME_POSITION, R.BALANCE_COUNTS})


def clause_text(code: str, params) -> str:
    """One clause in the active language; a code no template names is made readable, never shown raw."""
    template = REASON_TEXTS.get(code)
    if template is None:
        return str(code or "").replace("_", " ").strip().lower()
    try:
        return str(template % (dict(params) if isinstance(params, Mapping) else {}))
    except (KeyError, TypeError, ValueError):  # a stored row without a parameter the template names
        return gettext("details not recorded")


def as_reason(value) -> Reason | None:
    """The engine reason a value holds: a ``Reason``, or its stored dict; None for words or nothing."""
    if isinstance(value, Reason):
        return value
    return Reason.from_dict(value) if isinstance(value, Mapping) else None


def reason_text(value) -> str:
    """Why, in the active language: a ``Reason`` or its stored dict, clause after clause; words
    (a move by hand, a row written before the codes) as they are."""
    reason = as_reason(value)
    if reason is None:
        return value if isinstance(value, str) else ""
    text = ""
    for clause in reason.clauses():
        part = clause_text(clause.code, clause.params)
        if not text:
            text = part
        elif clause.code in ASIDES:
            text += " (" + part + ")"
        else:
            text += "; " + part
    return text


def reason_code(value) -> str:
    """The code of a reason's first clause ("" for words typed by a person or an older row)."""
    reason = as_reason(value)
    return str(reason.code) if reason is not None else ""
