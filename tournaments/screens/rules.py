"""The lobby screen's layouts and sounds: what a layout is, the built-in ones, and the
checks every stored layout passes. Pure apart from gettext.

A layout is data, never markup: a theme (background, text and accent colours) and a list of
blocks, each a kind the screen's own script knows how to draw (``BLOCKS``) placed on a grid of
``GRID`` × ``GRID`` cells (``x``, ``y``, ``w``, ``h``), with its type size (``font``, 0.5–2 times
the block's own) and colours; a text block carries its text, a logo or sponsor block the id of an
image the product re-encoded (``ScreenImage``). The page places the blocks with the CSS object
model and fills them as text nodes, so nothing in a layout reaches the page as HTML or CSS.

A screen has a layout for play, and may have one for the breaks and one for the final table
(``STATES``); a key names either a built-in (``builtin:<name>``) or a stored one (``layout:<id>``).

Sounds: the events the speaker screen announces (``SOUND_EVENTS``), each with on/off, a sound of
the built-in set (``SOUNDS``, synthesised in the page) and spoken text (the page's language, the
numbers in words; a text typed here replaces the built-in sentence).
"""

import re
from functools import lru_cache

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from num2words import num2words

from tdmanager import shown_text
from tdmanager.errors import ValidationFailed

GRID = 24
MAX_BLOCKS = 40
MAX_TEXT = 1000
FONT_RANGE = (0.5, 2.0)

#: kind → label (the editor's palette, in the reader's language)
BLOCKS = {
    "name": gettext_lazy("Tournament name and state"),
    "clock": gettext_lazy("Clock and level"),
    "blinds": gettext_lazy("Blinds and ante"),
    "next": gettext_lazy("Next level and next break"),
    "players": gettext_lazy("Players left and entries"),
    "stacks": gettext_lazy("Average stack and chips in play"),
    "pool": gettext_lazy("Prize pool"),
    "payouts": gettext_lazy("Payout table"),
    "chips": gettext_lazy("Chip set"),
    "seats": gettext_lazy("Seat list"),
    "moves": gettext_lazy("Moves"),
    "announcements": gettext_lazy("Announcements"),
    "league": gettext_lazy("League standings"),
    "bounties": gettext_lazy("Bounties"),
    "results": gettext_lazy("Results"),
    "lastbust": gettext_lazy("Last bust (a stream's lower third)"),
    "finaltable": gettext_lazy("Final table: seats, players, chips"),
    "payjumps": gettext_lazy("Pay jumps: what the next places win"),
    "ticker": gettext_lazy("Payouts ticker"),
    "rules": gettext_lazy("Rules text"),
    "text": gettext_lazy("Free text"),
    "logo": gettext_lazy("Logo"),
    "sponsor": gettext_lazy("Sponsor image"),
}
TEXT_KINDS = ("rules", "text")
IMAGE_KINDS = ("logo", "sponsor")

#: the states of a tournament a screen may show with a layout of its own
STATES = {
    "live": gettext_lazy("While the tournament plays"),
    "break": gettext_lazy("During a break"),
    "final": gettext_lazy("At the final table"),
}

THEME = {"background": "#0f172a", "text": "#e2e8f0", "accent": "#93c5fd"}
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
TRANSPARENT = "transparent"  # a block's background: nothing (a stream's overlay shows the picture)


def _b(kind, x, y, w, h, **extra):
    return {"kind": kind, "x": x, "y": y, "w": w, "h": h, "font": 1.0, "fg": "", "bg": "", **extra}


#: The block that appears once the tournament has ended and then takes the place of the blocks
#: under it (the screen hides them): the one block that may cover others.
TAKES_OVER_AT_THE_END = "results"

#: The built-in layouts: the default is today's screen on the grid (the clock in the middle, the
#: figures on the right, the announcements and the seats along the bottom). The results cover the
#: blocks of the play, in their place once the tournament has ended; blocks on exactly the same
#: cells take turns (the payouts and a league's standings). No other block covers another
#: (``overlaps``).
BUILTIN = {
    "default": {
        "name": gettext_lazy("Classic"),
        "portrait": False,
        "design": {
            "theme": dict(THEME),
            "blocks": [
                _b("name", 0, 0, 24, 2),
                _b("clock", 0, 2, 17, 10),
                _b("blinds", 0, 12, 17, 4),
                _b("next", 0, 16, 17, 2),
                _b("bounties", 0, 18, 17, 3),
                _b("players", 17, 2, 7, 3),
                _b("stacks", 17, 5, 7, 3),
                _b("pool", 17, 8, 7, 3),
                _b("payouts", 17, 11, 7, 10),
                _b("league", 17, 11, 7, 10),
                _b("results", 0, 2, 17, 19),
                _b("announcements", 0, 21, 10, 3),
                _b("moves", 10, 21, 5, 3),
                _b("seats", 15, 21, 9, 3),
            ],
        },
    },
    "break": {
        "name": gettext_lazy("Break"),
        "portrait": False,
        "design": {
            "theme": {"background": "#052e16", "text": "#ecfdf5", "accent": "#86efac"},
            "blocks": [
                _b("name", 0, 0, 24, 2),
                _b("clock", 0, 2, 14, 11),
                _b("blinds", 0, 13, 14, 5),
                _b("chips", 14, 2, 10, 8),
                _b("payouts", 14, 10, 10, 8),
                _b("next", 0, 18, 24, 2),
                _b("announcements", 0, 20, 24, 4),
            ],
        },
    },
    "final": {
        "name": gettext_lazy("Final table"),
        "portrait": False,
        "design": {
            "theme": {"background": "#1e1b4b", "text": "#eef2ff", "accent": "#fbbf24"},
            "blocks": [
                _b("name", 0, 0, 24, 2),
                _b("clock", 0, 2, 16, 10),
                _b("blinds", 0, 12, 16, 4),
                _b("next", 0, 16, 16, 2),
                _b("players", 0, 18, 8, 3),
                _b("stacks", 8, 18, 8, 3),
                _b("payouts", 16, 2, 8, 11),
                _b("bounties", 16, 13, 8, 5),
                _b("pool", 16, 18, 8, 3),
                _b("results", 0, 2, 24, 19),
                _b("announcements", 0, 21, 24, 3),
            ],
        },
    },
    "portrait": {
        "name": gettext_lazy("Portrait"),
        "portrait": True,
        "design": {
            "theme": dict(THEME),
            "blocks": [
                _b("name", 0, 0, 24, 2),
                _b("clock", 0, 2, 24, 6),
                _b("blinds", 0, 8, 24, 3),
                _b("next", 0, 11, 24, 1),
                _b("players", 0, 12, 12, 2),
                _b("stacks", 12, 12, 12, 2),
                _b("pool", 0, 14, 24, 2),
                _b("payouts", 0, 16, 24, 4),
                _b("league", 0, 16, 24, 4),
                _b("bounties", 0, 20, 24, 2),
                _b("results", 0, 2, 24, 20),
                _b("announcements", 0, 22, 24, 1),
                _b("seats", 0, 23, 24, 1),
            ],
        },
    },
}
DEFAULT_KEY = "builtin:default"


def builtin_key(name: str) -> str:
    return f"builtin:{name}"


def _fail(field: str, message: str):
    raise ValidationFailed("invalid", _("%(field)s: %(problem)s") % {"field": field, "problem": message}, field=field)


def _int(value, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        _fail(field, _("a whole number from %(lo)s to %(hi)s") % {"lo": lo, "hi": hi})
    return value


def _colour(value, field: str, blank: bool = True) -> str:
    if value in ("", None) and blank:
        return ""
    if not isinstance(value, str) or not _COLOUR.fullmatch(value):
        _fail(field, _("a colour as #rrggbb"))
    return value.lower()


def clean_design(design) -> dict:
    """The layout's design as stored, or ``ValidationFailed`` naming the first wrong field (e.g.
    ``blocks[3].w``; ``blocks_overlap`` naming the later of two blocks that overlap without taking
    turns, ``overlaps``). Only the known keys are kept: a layout never carries anything the page would
    not draw. Image ids are checked to be ids here; the service checks they exist."""
    if not isinstance(design, dict):
        _fail("design", _("an object with a theme and blocks"))
    theme_in = design.get("theme") or {}
    if not isinstance(theme_in, dict):
        _fail("theme", _("an object of colours"))
    theme = {key: _colour(theme_in.get(key, default), f"theme.{key}", blank=False) for key, default in THEME.items()}
    blocks_in = design.get("blocks")
    if not isinstance(blocks_in, list) or not 1 <= len(blocks_in) <= MAX_BLOCKS:
        _fail("blocks", _("a list of 1 to %(n)s blocks") % {"n": MAX_BLOCKS})
    blocks, placed = [], set()
    for i, b in enumerate(blocks_in):
        at = f"blocks[{i}]"
        if not isinstance(b, dict) or not isinstance(b.get("kind"), str) or b["kind"] not in BLOCKS:
            _fail(f"{at}.kind", _("one of %(kinds)s") % {"kinds": ", ".join(BLOCKS)})
        if b["kind"] in placed and b["kind"] not in TEXT_KINDS + IMAGE_KINDS:
            _fail(f"{at}.kind", _("the screen shows %(kind)s once; texts and images may be placed again") % {"kind": b["kind"]})
        placed.add(b["kind"])
        x, y = _int(b.get("x"), f"{at}.x", 0, GRID - 1), _int(b.get("y"), f"{at}.y", 0, GRID - 1)
        w, h = _int(b.get("w"), f"{at}.w", 1, GRID - x), _int(b.get("h"), f"{at}.h", 1, GRID - y)
        font = b.get("font", 1.0)
        if isinstance(font, bool) or not isinstance(font, (int, float)) or not FONT_RANGE[0] <= font <= FONT_RANGE[1]:
            _fail(f"{at}.font", _("a size from %(lo)s to %(hi)s") % {"lo": FONT_RANGE[0], "hi": FONT_RANGE[1]})
        block = {"kind": b["kind"], "x": x, "y": y, "w": w, "h": h, "font": round(float(font), 2)}
        # a block over a stream's picture may paint nothing behind its text (its outline reads it)
        bg = b.get("bg", "")
        block["fg"], block["bg"] = _colour(b.get("fg", ""), f"{at}.fg"), (TRANSPARENT if bg == TRANSPARENT else _colour(bg, f"{at}.bg"))
        if b["kind"] in TEXT_KINDS:
            text = b.get("text", "")
            if not isinstance(text, str) or len(text) > MAX_TEXT or "\x00" in text:
                _fail(f"{at}.text", _("a text of at most %(n)s characters") % {"n": MAX_TEXT})
            shown_text.check(text, f"{at}.text", f"{at}.text")
            block["text"] = text.replace("\r\n", "\n").strip()
        if b["kind"] in IMAGE_KINDS:
            block["image"] = _int(b.get("image"), f"{at}.image", 1, 2**31 - 1)
        blocks.append(block)
    _refuse_overlaps(blocks)
    return {"theme": theme, "blocks": blocks}


def _cells(b: dict) -> tuple[int, int, int, int]:
    return b["x"], b["y"], b["w"], b["h"]


def _meet(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def turns(blocks: list[dict]) -> list[list[int]]:
    """The blocks that take turns: each group of two or more on exactly the same cells (indexes).
    The screen shows one of a group at a time, each for a while (``display.js``)."""
    groups: dict[tuple, list[int]] = {}
    for i, b in enumerate(blocks):
        groups.setdefault(_cells(b), []).append(i)
    return [g for g in groups.values() if len(g) > 1]


def overlaps(blocks: list[dict]) -> list[tuple[int, int]]:
    """The pairs of blocks (indexes, in order) whose cells meet although they do not take turns
    (not on exactly the same cells) and neither is the block that takes over at the end: a TV
    would print one over the other."""
    return [
        (i, j)
        for i, a in enumerate(blocks)
        for j in range(i + 1, len(blocks))
        if _meet(a, blocks[j]) and _cells(a) != _cells(blocks[j]) and TAKES_OVER_AT_THE_END not in (a["kind"], blocks[j]["kind"])
    ]


def describe_cells(b: dict) -> str:
    """Where a block is, as the designer shows it: columns and rows counted from 1."""
    return _("column %(x)s, row %(y)s, %(w)s by %(h)s cells") % {"x": b["x"] + 1, "y": b["y"] + 1, "w": b["w"], "h": b["h"]}


def _refuse_overlaps(blocks: list[dict]) -> None:
    clashes = overlaps(blocks)
    if not clashes:
        return
    i, j = clashes[0]
    a, b = blocks[i], blocks[j]
    problem = _("%(a)s (%(a_cells)s) overlaps %(b)s (%(b_cells)s): place them apart, or on exactly the same cells to take turns") % {
        "a": BLOCKS[b["kind"]],
        "a_cells": describe_cells(b),
        "b": BLOCKS[a["kind"]],
        "b_cells": describe_cells(a),
    }
    field = f"blocks[{j}]"
    raise ValidationFailed("blocks_overlap", _("%(field)s: %(problem)s") % {"field": field, "problem": problem}, field=field)


def images_of(design: dict) -> set[int]:
    return {b["image"] for b in design.get("blocks", []) if b.get("kind") in IMAGE_KINDS and b.get("image")}


# --- sounds ---------------------------------------------------------------------------------

SOUND_EVENTS = {
    "level": gettext_lazy("A level starts"),
    "minutes_left": gettext_lazy("Minutes left in the level"),
    "break_start": gettext_lazy("A break starts"),
    "break_end": gettext_lazy("A break ends"),
    "colour_up": gettext_lazy("Colour-up"),
    "hand_for_hand": gettext_lazy("Hand-for-hand starts"),
    "bubble": gettext_lazy("The bubble bursts"),
    "final_table": gettext_lazy("The final table"),
    "last_two": gettext_lazy("The last two players"),
    "announcement": gettext_lazy("An announcement typed by the director"),
}
SOUNDS = {
    "chime": gettext_lazy("Chime"),
    "bell": gettext_lazy("Bell"),
    "beep": gettext_lazy("Beep"),
    "horn": gettext_lazy("Horn"),
    "triple": gettext_lazy("Three tones"),
    "none": gettext_lazy("No sound"),
}
_DEFAULT_SOUND = {"level": "chime", "minutes_left": "beep", "break_start": "bell", "break_end": "chime", "colour_up": "bell", "hand_for_hand": "horn"}


def default_sounds() -> dict:
    return {
        "warn_minutes": 1,
        "events": {e: {"on": True, "sound": _DEFAULT_SOUND.get(e, "triple"), "speak": True, "text": ""} for e in SOUND_EVENTS},
    }


def clean_sounds(value) -> dict:
    """A screen's sounds as stored: over the defaults, each event's on/off, sound, speech and
    text; ``ValidationFailed`` naming the field otherwise."""
    out = default_sounds()
    if value in (None, {}):
        return out
    if not isinstance(value, dict):
        _fail("sounds", _("an object of events"))
    if "warn_minutes" in value:
        out["warn_minutes"] = _int(value["warn_minutes"], "sounds.warn_minutes", 1, 30)
    events = value.get("events", {})
    if not isinstance(events, dict) or set(events) - set(SOUND_EVENTS):
        _fail("sounds.events", _("an object of events: %(events)s") % {"events": ", ".join(SOUND_EVENTS)})
    for name, given in events.items():
        at = f"sounds.events.{name}"
        if not isinstance(given, dict):
            _fail(at, _("an object with on, sound, speak and text"))
        event = out["events"][name]
        for key in ("on", "speak"):
            if key in given:
                if not isinstance(given[key], bool):
                    _fail(f"{at}.{key}", _("true or false"))
                event[key] = given[key]
        if "sound" in given:
            if not isinstance(given["sound"], str) or given["sound"] not in SOUNDS:
                _fail(f"{at}.sound", _("one of %(sounds)s") % {"sounds": ", ".join(SOUNDS)})
            event["sound"] = given["sound"]
        if "text" in given:
            text = given["text"]
            if not isinstance(text, str) or len(text) > 200 or "\n" in text or "\x00" in text:
                _fail(f"{at}.text", _("a line of at most 200 characters"))
            shown_text.check(text, f"{at}.text", f"{at}.text")
            event["text"] = text.strip()
    return out


# --- the speaker's numbers in words ---------------------------------------------------------------

#: Spanish shortens "uno" before "mil" and "millones" ("veintiún mil", "treinta y un mil"); the
#: library writes the full form there
_ES_APOCOPE = (re.compile(r"veintiuno(?= mil)"), "veintiún"), (re.compile(r"\buno(?= mil)"), "un")


@lru_cache(maxsize=8192)
def in_words(n: int, language: str) -> str:
    """``n`` as the speaker says it in ``language`` (an ISO code, "de-AT" speaks as "de"), by
    num2words; a language it does not know keeps the digits (the voice reads them)."""
    code = language.split("-")[0].lower()
    try:
        said = num2words(n, lang=code)
    except NotImplementedError:
        return str(n)
    if code == "es":
        for pattern, short in _ES_APOCOPE:
            said = pattern.sub(short, said)
    return said


def speaker_words(structures, warn_minutes: int, languages) -> dict:
    """What the speaker may say of the screen's structures in each of its languages: every number
    in words, and the sentences whose words follow a number's plural (the warning's minutes, each
    break's length), whole:
    ``{language: {"numbers": {"1500": "eintausendfünfhundert", ...}, "warning": "Noch fünf Minuten
    in diesem Level", "breaks": {"20": "Pause: zwanzig Minuten"}}}``.
    ``structures``: each structure's items as ``(is_break, small, big, ante, minutes, removed
    denominations)``; level numbers count the levels, not the breaks."""
    numbers, breaks = {warn_minutes}, set()
    for items in structures:
        level = 0
        for is_break, small, big, ante, minutes, removed in items:
            if is_break:
                breaks.add(minutes)
            else:
                level += 1
                numbers |= {level, small, big, ante}
            numbers |= {d for d in removed or () if isinstance(d, int)}
    numbers |= breaks
    said = {}
    for lang in languages:
        with translation.override(lang):
            words = {str(n): in_words(n, lang) for n in sorted(numbers)}
            # Translators: the lobby speaker, N minutes before a level ends; {minutes} comes in words
            warning = ngettext("One minute left in this level", "{minutes} minutes left in this level", warn_minutes)
            # Translators: the lobby speaker as a break starts; {minutes} comes in words
            sentences = {n: ngettext("Break: one minute", "Break: {minutes} minutes", n) for n in sorted(breaks)}
        said[lang] = {
            "numbers": words,
            "warning": warning.replace("{minutes}", words[str(warn_minutes)]),
            "breaks": {str(n): sentence.replace("{minutes}", words[str(n)]) for n, sentence in sentences.items()},
        }
    return said
