"""Tournament clock arithmetic (RULES.md §5, CLK-01..CLK-10).

Pure Python, standard library only: no Django import. The database row is the
truth; everything a screen shows is derived from it here.

The model
---------
A *structure* is a sequence of items, each a :class:`Level` or a :class:`Break`.
The last item must be a level: it is the *cap* and repeats forever (CLK-01).

A :class:`ClockState` is what the database stores:

- ``status``: NOT_STARTED, RUNNING, PAUSED, HAND_FOR_HAND or FINISHED;
- ``item_index``: position of the current item in the structure;
- ``ends_at``: while RUNNING, the aware wall-clock time the current item ends;
- ``remaining``: in every other status, the seconds left in the current item;
- ``version``: bumped on every change, for compare-and-set updates and for the
  versioned Celery countdown;
- ``h4h_hand`` / ``h4h_seconds_per_hand``: hand-for-hand counters (CLK-06).

No drift: when an item ends, the next one ends at ``previous ends_at + its
duration`` (never ``now + duration``), so the overshoot of a late worker is
carried into the next item and the clock stays on the schedule.

Every action takes the state, the structure and ``now`` and returns a new
state (states are frozen). Invalid use raises :class:`ClockError` with a
machine-readable ``code``.

Choices where RULES.md leaves freedom
-------------------------------------
- **Cap** (CLK-01): past the last item the last level repeats: ``item_index``
  stays on it and ``ends_at`` moves on by its duration, one transition per
  period. ``has_level_ended`` is therefore never true for the cap level (until
  the clock is FINISHED), and ``next`` in the snapshot is ``None`` there.
- **Version**: ``advance`` adds one per transition crossed (a level end, a break
  end, a cap repeat), so advancing in two steps gives exactly the same state,
  version included, as advancing in one; every action adds one more.
- **Breaks inserted by the director** (CLK-04, CLK-07): :func:`insert_break`
  puts the break *in front of* the current level, so it is the current item at
  once, and stores the seconds that level still had in
  ``Break.resume_seconds_left``. When the break ends, the interrupted level
  resumes with exactly that time, not its full duration. Level numbers do not
  change (breaks are never counted). During such a mid-level break
  ``level_number`` is the interrupted level, and it does not count as "the
  break after" any level (add-on window).
- **Hand-for-hand and breaks** (RULES §14 question 9): ``h4h_next_hand`` takes
  ``break_policy``. The default, ``TAKE_BREAK``, never drops a scheduled break:
  when the level time runs out and the next item is a break, hand-for-hand
  stops, the clock is PAUSED at the start of the break with its full duration
  (hand time is not taken from the players' break), and the director resumes
  it; after the break he announces hand-for-hand again if the bubble has not
  burst. ``SKIP_BREAK`` passes over the break without consuming time (the
  director can insert a break by hand once the bubble bursts).
- **Removing time** (CLK-07): ``add_time`` and ``set_time_left`` refuse (code
  ``bad_time``) a result of zero or less, or more than 24 hours. To end an item
  now, ``jump_to`` the next one.
- **"Applies from the next hand"** (CLK-03): ``new_level_notice`` is true during
  the first ``new_level_notice_seconds`` (default 120) of a level that directly
  follows another level while the clock runs; in hand-for-hand, during the
  first hand played at the new level. It is not shown for level 1 nor after a
  break (no hand is in progress then). At the cap it shows at each repeat
  (same blinds; harmless).
- **Dealer-push hold** (CLK-05): ``hold_dealer_push`` is true while the clock
  runs (or is hand-for-hand) on a level with at most ``hold_push_seconds``
  (default 90) left before a break or a different level.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

NOT_STARTED = "NOT_STARTED"
RUNNING = "RUNNING"
PAUSED = "PAUSED"
HAND_FOR_HAND = "HAND_FOR_HAND"
FINISHED = "FINISHED"
STATUSES = (NOT_STARTED, RUNNING, PAUSED, HAND_FOR_HAND, FINISHED)

ANTE_NONE = "NONE"
TABLE_ANTE = "TABLE_ANTE"
BB_ANTE = "BB_ANTE"
ANTE_TYPES = (ANTE_NONE, TABLE_ANTE, BB_ANTE)

# Hand-for-hand break policies (RULES §14 question 9).
TAKE_BREAK = "TAKE_BREAK"
SKIP_BREAK = "SKIP_BREAK"
H4H_BREAK_POLICIES = (TAKE_BREAK, SKIP_BREAK)
DEFAULT_H4H_BREAK_POLICY = TAKE_BREAK

DEFAULT_H4H_SECONDS_PER_HAND = 120  # RP-8-B
DEFAULT_HOLD_PUSH_SECONDS = 90  # RP-7
DEFAULT_NEW_LEVEL_NOTICE_SECONDS = 120  # about one hand
MAX_ITEM_SECONDS = 24 * 3600  # sanity bound for set/add time


class ClockError(Exception):
    """A clock action that cannot be done; ``code`` is machine-readable.

    Codes: ``bad_level``, ``bad_structure``, ``bad_state``, ``bad_time``,
    ``not_running``, ``already_running``, ``already_started``, ``not_paused``,
    ``already_paused``, ``finished``, ``already_finished``, ``in_break``,
    ``hand_for_hand``, ``not_hand_for_hand``, ``already_hand_for_hand``,
    ``bad_policy``, ``bad_preset``.
    """

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code

    def __repr__(self) -> str:
        return f"ClockError({self.code!r}, {self.message!r})"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


@dataclass(frozen=True)
class Level:
    """A blind level (CLK-01). SB == BB is allowed; BB ante or table ante (CLK-02).

    ``minutes`` is keyword-only: ``Level(100, 200, minutes=20)`` or
    ``Level(100, 200, 200, BB_ANTE, minutes=20)``.
    """

    small_blind: int
    big_blind: int
    ante: int = 0
    ante_type: str = ANTE_NONE
    minutes: int = field(kw_only=True)
    game: str = field(default="", kw_only=True)

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante", "minutes"):
            if not _is_int(getattr(self, name)):
                raise ClockError("bad_level", f"{name} must be an integer")
        if self.minutes < 1:
            raise ClockError("bad_level", "a level lasts at least one minute")
        if self.small_blind < 0 or self.big_blind < 1:
            raise ClockError("bad_level", "blinds must be positive")
        if self.small_blind > self.big_blind:
            raise ClockError("bad_level", "the small blind exceeds the big blind")
        if self.ante_type not in ANTE_TYPES:
            raise ClockError("bad_level", f"unknown ante type {self.ante_type!r}")
        if self.ante < 0:
            raise ClockError("bad_level", "the ante cannot be negative")
        if (self.ante > 0) != (self.ante_type != ANTE_NONE):
            raise ClockError("bad_level", "an ante needs an ante type, and an ante type needs an ante")

    @property
    def seconds(self) -> int:
        return self.minutes * 60


@dataclass(frozen=True)
class Break:
    """A break (CLK-04), optionally with a colour-up and an add-on window.

    ``resume_seconds_left`` is set only on a break the director inserted in the
    middle of a level (see :func:`insert_break`): the seconds that level still
    had, with which it resumes after the break.
    """

    minutes: int
    color_up: str = ""
    add_on: bool = False
    resume_seconds_left: float | None = None
    # CLK-09: the chip denominations this break takes out of play (a scheduled colour-up).
    removes_denominations: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not _is_int(self.minutes) or self.minutes < 1:
            raise ClockError("bad_level", "a break lasts a whole number of minutes, at least one")
        if self.resume_seconds_left is not None and (not _is_number(self.resume_seconds_left) or self.resume_seconds_left <= 0):
            raise ClockError("bad_level", "resume_seconds_left must be positive")

    @property
    def seconds(self) -> int:
        return self.minutes * 60

    @property
    def is_mid_level(self) -> bool:
        """True for a break the director inserted inside a level."""
        return self.resume_seconds_left is not None


Item = Level | Break
Structure = Sequence[Item]


@dataclass(frozen=True)
class ClockState:
    """The clock row: see the module docstring."""

    status: str
    item_index: int
    ends_at: datetime | None
    remaining: float
    version: int
    h4h_hand: int = 0
    h4h_seconds_per_hand: int = DEFAULT_H4H_SECONDS_PER_HAND

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ClockError("bad_state", f"unknown clock status {self.status!r}")
        if not _is_int(self.item_index) or self.item_index < 0:
            raise ClockError("bad_state", "item_index must be a non-negative integer")
        if not _is_int(self.version) or self.version < 0:
            raise ClockError("bad_state", "version must be a non-negative integer")
        if not _is_number(self.remaining) or self.remaining < 0:
            raise ClockError("bad_state", "remaining must be a finite number >= 0")
        if self.status == RUNNING:
            if self.ends_at is None:
                raise ClockError("bad_state", "a running clock needs ends_at")
            _check_aware(self.ends_at, "ends_at")
        if not _is_int(self.h4h_seconds_per_hand) or self.h4h_seconds_per_hand < 1:
            raise ClockError("bad_state", "h4h_seconds_per_hand must be a positive integer")


# ---------------------------------------------------------------- structure


def _check_aware(value: datetime, name: str = "now") -> None:
    if not isinstance(value, datetime) or value.utcoffset() is None:
        raise ClockError("bad_time", f"{name} must be a timezone-aware datetime")


def _check_structure(structure: Structure) -> None:
    if not structure:
        raise ClockError("bad_structure", "the structure is empty")
    for item in structure:
        if not isinstance(item, Level | Break):
            raise ClockError("bad_structure", f"not a level or a break: {item!r}")
    if not isinstance(structure[-1], Level):
        raise ClockError("bad_structure", "the structure must end with a level (the cap)")


def _check(state: ClockState, structure: Structure, now: datetime | None) -> None:
    _check_structure(structure)
    if state.item_index >= len(structure):
        raise ClockError("bad_state", "item_index is past the end of the structure")
    if now is not None:
        _check_aware(now)


def validate_structure(structure: Structure) -> list[dict]:
    """Raise ``ClockError('bad_structure')`` for an unusable structure; return warnings.

    Errors: empty, an item that is neither Level nor Break, last item not a level.
    Warnings (dicts with ``code``, ``item_index``, ``message``): the ante goes down
    from one level to the next (RP-11, CLK-02), the big blind goes down, two
    breaks in a row.
    """
    _check_structure(structure)
    warnings: list[dict] = []
    previous_level: Level | None = None
    previous_item: Item | None = None
    for index, item in enumerate(structure):
        if isinstance(item, Break):
            if isinstance(previous_item, Break):
                warnings.append({"code": "consecutive_breaks", "item_index": index, "message": "two breaks in a row"})
        else:
            if previous_level is not None:
                if item.ante < previous_level.ante:
                    warnings.append({"code": "ante_decreases", "item_index": index, "message": "antes should not be reduced (TDA RP-11)"})
                if item.big_blind < previous_level.big_blind:
                    warnings.append({"code": "big_blind_decreases", "item_index": index, "message": "the big blind goes down"})
            previous_level = item
        previous_item = item
    return warnings


def final_table_ante_warnings(structure: Structure, from_index: int) -> list[dict]:
    """RP-11 (CLK-02): antes are not reduced, including at the final table. The levels played at
    the final table (``from_index`` on) whose ante is lower than the highest ante played before
    it: a warning each (``ante_lowered_at_final_table``), beside ``validate_structure``'s."""
    before = [item.ante for item in structure[: max(from_index, 0)] if isinstance(item, Level)]
    highest = max(before, default=0)
    return [
        {"code": "ante_lowered_at_final_table", "item_index": index, "message": "the ante is lower at the final table than before it (TDA RP-11)"}
        for index, item in enumerate(structure)
        if index >= from_index and isinstance(item, Level) and item.ante < highest
    ]


def item_seconds(item: Item) -> int:
    """Full scheduled duration of an item, in seconds."""
    return item.seconds


def _entry_seconds(structure: Structure, index: int) -> float:
    """Duration the item at ``index`` gets when the clock rolls into it.

    Its full duration, unless the previous item is a mid-level break, in which
    case the interrupted level resumes with the time it had left.
    """
    if index > 0:
        previous = structure[index - 1]
        if isinstance(previous, Break) and previous.resume_seconds_left is not None:
            return float(previous.resume_seconds_left)
    return float(structure[index].seconds)


def level_number_of(structure: Structure, index: int) -> int:
    """1-based level number of the item at ``index``; breaks are not counted.

    For a level: its own number. For a scheduled break: the number of the level
    played before it (0 before level 1). For a mid-level break: the level it
    interrupts.
    """
    _check_structure(structure)
    if not 0 <= index < len(structure):
        raise ClockError("bad_level", f"no item {index}")
    before = sum(1 for item in structure[:index] if isinstance(item, Level))
    item = structure[index]
    if isinstance(item, Level) or item.is_mid_level:
        return before + 1
    return before


def level_index(structure: Structure, level_number: int) -> int:
    """Item index of level ``level_number`` (1-based, breaks not counted)."""
    _check_structure(structure)
    if not _is_int(level_number) or level_number < 1:
        raise ClockError("bad_level", "level numbers start at 1")
    count = 0
    for index, item in enumerate(structure):
        if isinstance(item, Level):
            count += 1
            if count == level_number:
                return index
    raise ClockError("bad_level", f"the structure has no level {level_number}")


def new_clock(structure: Structure) -> ClockState:
    """A clock that has not started, on the first item with its full duration."""
    _check_structure(structure)
    return ClockState(
        status=NOT_STARTED,
        item_index=0,
        ends_at=None,
        remaining=float(structure[0].seconds),
        version=0,
    )


# ---------------------------------------------------------------- derivation


def advance(state: ClockState, structure: Structure, now: datetime) -> ClockState:
    """Roll a running clock forward over every item whose end is <= ``now``.

    The next item ends at the previous end plus its duration, so the overshoot
    is carried and no drift accumulates. Past the last item the cap level
    repeats. The version grows by one per transition crossed. A clock that is
    not running, or whose current item has not ended, comes back unchanged.
    """
    _check(state, structure, now)
    if state.status != RUNNING or state.ends_at > now:
        return state
    index = state.item_index
    ends_at = state.ends_at
    last = len(structure) - 1
    transitions = 0
    while ends_at <= now:
        if index == last:
            period = timedelta(seconds=structure[last].seconds)
            repeats = (now - ends_at) // period + 1
            ends_at += period * repeats
            transitions += repeats
            break
        index += 1
        ends_at += timedelta(seconds=_entry_seconds(structure, index))
        transitions += 1
    return replace(state, item_index=index, ends_at=ends_at, version=state.version + transitions)


def _seconds_left(state: ClockState, now: datetime) -> float:
    if state.status == RUNNING:
        return max(0.0, (state.ends_at - now).total_seconds())
    return float(state.remaining)


def seconds_left(state: ClockState, structure: Structure, now: datetime) -> float:
    """Seconds left in the current item (clock time, after ``advance``)."""
    return _seconds_left(advance(state, structure, now), now)


UPCOMING = 6  # items after the next one in a snapshot: an hour or two of a usual structure


def _item_summary(structure: Structure, index: int) -> dict:
    item = structure[index]
    if isinstance(item, Break):
        return {
            "kind": "break",
            "item_index": index,
            "minutes": item.minutes,
            "color_up": item.color_up,
            "removes_denominations": list(item.removes_denominations),
            "add_on": item.add_on,
        }
    return {
        "kind": "level",
        "item_index": index,
        "level_number": level_number_of(structure, index),
        "small_blind": item.small_blind,
        "big_blind": item.big_blind,
        "ante": item.ante,
        "ante_type": item.ante_type,
        "minutes": item.minutes,
        "game": item.game,
    }


def _next_break(structure: Structure, index: int, left: float) -> tuple[int | None, float | None]:
    """Index of the next break after ``index`` and the clock seconds until it starts."""
    seconds = left
    for later in range(index + 1, len(structure)):
        if isinstance(structure[later], Break):
            return later, seconds
        seconds += _entry_seconds(structure, later)
    return None, None


def _hold_dealer_push(state: ClockState, structure: Structure, left: float, hold_push_seconds: float) -> bool:
    index = state.item_index
    if state.status not in (RUNNING, HAND_FOR_HAND):
        return False
    if not isinstance(structure[index], Level) or index == len(structure) - 1:
        return False
    return 0 < left <= hold_push_seconds


def _new_level_notice(state: ClockState, structure: Structure, left: float, notice_seconds: float) -> bool:
    index = state.item_index
    if index == 0 or not isinstance(structure[index], Level):
        return False
    if not isinstance(structure[index - 1], Level):
        return False
    elapsed = _entry_seconds(structure, index) - left
    if state.status == RUNNING:
        return 0 <= elapsed < notice_seconds
    if state.status == HAND_FOR_HAND:
        return 0 <= elapsed < state.h4h_seconds_per_hand
    return False


def snapshot(
    state: ClockState,
    structure: Structure,
    now: datetime,
    *,
    hold_push_seconds: float = DEFAULT_HOLD_PUSH_SECONDS,
    new_level_notice_seconds: float = DEFAULT_NEW_LEVEL_NOTICE_SECONDS,
) -> dict:
    """The JSON-able display state at ``now`` (a stale row gives the right answer).

    Keys: status, version, item_index, level_number, is_break, is_mid_level_break,
    is_final_level, small_blind, big_blind, ante, ante_type, game (None during a
    break), minutes, item_seconds (the duration this item got, for progress bars),
    color_up (the director's note as typed), removes_denominations, add_on (breaks), seconds_left, ends_at (ISO, RUNNING only),
    server_time (ISO ``now``, for the browsers' clock offset), next (summary of
    the next item or None at the cap), next_break_index, seconds_to_next_break
    (clock seconds), new_level_notice (CLK-03), hold_dealer_push (CLK-05),
    hand_for_hand, h4h_hand, h4h_seconds_per_hand.
    """
    state = advance(state, structure, now)
    index = state.item_index
    item = structure[index]
    left = _seconds_left(state, now)
    is_break = isinstance(item, Break)
    last = len(structure) - 1
    next_break_index, to_next_break = _next_break(structure, index, left)
    if state.status == FINISHED:
        next_break_index, to_next_break = None, None
    data = {
        "status": state.status,
        "version": state.version,
        "item_index": index,
        "level_number": level_number_of(structure, index),
        "is_break": is_break,
        "is_mid_level_break": is_break and item.is_mid_level,
        "is_final_level": index == last,
        "small_blind": None if is_break else item.small_blind,
        "big_blind": None if is_break else item.big_blind,
        "ante": None if is_break else item.ante,
        "ante_type": None if is_break else item.ante_type,
        "game": None if is_break else item.game,
        "minutes": item.minutes,
        "item_seconds": _entry_seconds(structure, index),
        "color_up": item.color_up if is_break else None,
        # The chips this break takes out (CLK-09): pages say it in the reader's language.
        "removes_denominations": list(item.removes_denominations) if is_break else None,
        "add_on": item.add_on if is_break else None,
        "seconds_left": round(left, 3),
        "ends_at": state.ends_at.isoformat() if state.status == RUNNING else None,
        "server_time": now.isoformat(),
        "next": None if index == last else _item_summary(structure, index + 1),
        # the items after the next: a screen that loses the network goes on through them by itself
        "upcoming": [_item_summary(structure, i) for i in range(index + 2, min(index + 2 + UPCOMING, last + 1))],
        "next_break_index": next_break_index,
        "seconds_to_next_break": None if to_next_break is None else round(to_next_break, 3),
        "new_level_notice": _new_level_notice(state, structure, left, new_level_notice_seconds),
        "hold_dealer_push": _hold_dealer_push(state, structure, left, hold_push_seconds),
        "hand_for_hand": state.status == HAND_FOR_HAND,
        "h4h_hand": state.h4h_hand,
        "h4h_seconds_per_hand": state.h4h_seconds_per_hand,
        "actions": allowed_actions(state, structure, now),
    }
    return data


def allowed_actions(state: ClockState, structure: Structure, now: datetime) -> list[str]:
    """The director's clock actions (the API's ``clock/<op>/`` names) this state allows, in
    the order the clock page shows them. Each is tried on its own function here, so the page's
    buttons and the refusals can never disagree."""
    probes = (
        ("start", lambda: start(state, structure, now)),
        ("pause", lambda: pause(state, structure, now)),
        ("resume", lambda: resume(state, structure, now)),
        ("add-time", lambda: add_time(state, structure, now, 1)),
        ("set-time", lambda: set_time_left(state, structure, now, 60)),
        ("jump", lambda: jump_to(state, structure, now, state.item_index)),
        ("insert-break", lambda: insert_break(state, structure, now, 1)),
        ("hand-for-hand", lambda: start_hand_for_hand(state, structure, now)),
        ("next-hand", lambda: h4h_next_hand(state, structure)),
        ("end-hand-for-hand", lambda: end_hand_for_hand(state, now)),
        ("finish", lambda: finish(state, structure, now)),
    )
    allowed = []
    for name, probe in probes:
        try:
            probe()
        except ClockError:
            continue
        allowed.append(name)
    return allowed


# ---------------------------------------------------------------- actions


def _check_seconds(seconds: float, name: str = "seconds") -> None:
    if not _is_number(seconds):
        raise ClockError("bad_time", f"{name} must be a finite number")


def _with_left(state: ClockState, now: datetime, left: float, **changes) -> ClockState:
    """New state keeping the status, with ``left`` seconds in the current item."""
    if state.status == RUNNING:
        changes.update(ends_at=now + timedelta(seconds=left), remaining=0.0)
    else:
        changes.update(ends_at=None, remaining=float(left))
    return replace(state, version=state.version + 1, **changes)


def _refuse_finished(state: ClockState) -> None:
    if state.status == FINISHED:
        raise ClockError("finished", "the clock is finished")


def start(state: ClockState, structure: Structure, now: datetime) -> ClockState:
    """Start the clock: the current item runs with the time it has left."""
    _check(state, structure, now)
    if state.status != NOT_STARTED:
        raise ClockError("already_started", "the clock has already been started")
    left = state.remaining or float(structure[state.item_index].seconds)
    return replace(
        state,
        status=RUNNING,
        ends_at=now + timedelta(seconds=left),
        remaining=0.0,
        version=state.version + 1,
    )


def pause(state: ClockState, structure: Structure, now: datetime) -> ClockState:
    """Pause a running clock, keeping the seconds left (CLK-07)."""
    state = advance(state, structure, now)
    if state.status == PAUSED:
        raise ClockError("already_paused", "the clock is already paused")
    if state.status != RUNNING:
        raise ClockError("not_running", "only a running clock can be paused")
    return replace(
        state,
        status=PAUSED,
        ends_at=None,
        remaining=_seconds_left(state, now),
        version=state.version + 1,
    )


def resume(state: ClockState, structure: Structure, now: datetime) -> ClockState:
    """Resume a paused clock: it ends ``remaining`` seconds from ``now``."""
    _check(state, structure, now)
    if state.status == RUNNING:
        raise ClockError("already_running", "the clock is already running")
    if state.status != PAUSED:
        raise ClockError("not_paused", "only a paused clock can be resumed")
    return replace(
        state,
        status=RUNNING,
        ends_at=now + timedelta(seconds=state.remaining),
        remaining=0.0,
        version=state.version + 1,
    )


def _check_new_left(left: float) -> None:
    if left <= 0:
        raise ClockError("bad_time", "the time left must stay above zero; jump to the next item instead")
    if left > MAX_ITEM_SECONDS:
        raise ClockError("bad_time", "the time left cannot exceed 24 hours")


def add_time(state: ClockState, structure: Structure, now: datetime, seconds: float) -> ClockState:
    """Add (or, with a negative number, remove) time from the current item.

    Refused with ``bad_time`` when the result would be zero or less.
    """
    _check_seconds(seconds)
    state = advance(state, structure, now)
    _refuse_finished(state)
    left = _seconds_left(state, now) + seconds
    _check_new_left(left)
    if state.status == RUNNING:
        return replace(
            state,
            ends_at=state.ends_at + timedelta(seconds=seconds),
            version=state.version + 1,
        )
    return replace(state, remaining=float(left), version=state.version + 1)


def set_time_left(state: ClockState, structure: Structure, now: datetime, seconds: float) -> ClockState:
    """Set the seconds left in the current item (must be > 0)."""
    _check_seconds(seconds)
    state = advance(state, structure, now)
    _refuse_finished(state)
    _check_new_left(seconds)
    return _with_left(state, now, seconds)


def jump_to(
    state: ClockState,
    structure: Structure,
    now: datetime,
    item_index: int,
    seconds_left: float | None = None,
) -> ClockState:
    """Make ``item_index`` the current item with its full duration (or ``seconds_left``).

    The status is kept: a running clock keeps running, a paused one stays paused,
    hand-for-hand continues on the new level (jumping onto a break during
    hand-for-hand is refused: end hand-for-hand first).
    """
    state = advance(state, structure, now)
    _refuse_finished(state)
    if not _is_int(item_index) or not 0 <= item_index < len(structure):
        raise ClockError("bad_level", f"no item {item_index} in the structure")
    if state.status == HAND_FOR_HAND and isinstance(structure[item_index], Break):
        raise ClockError("hand_for_hand", "end hand-for-hand before going to a break")
    if seconds_left is None:
        left = float(structure[item_index].seconds)
    else:
        _check_seconds(seconds_left, "seconds_left")
        _check_new_left(seconds_left)
        left = float(seconds_left)
    return _with_left(state, now, left, item_index=item_index)


def insert_break(
    state: ClockState,
    structure: Structure,
    now: datetime,
    minutes: int,
    *,
    color_up: str = "",
    add_on: bool = False,
) -> tuple[list[Item], ClockState]:
    """Insert an extra break now; return ``(new_structure, new_state)`` (CLK-04, CLK-07).

    The break goes in front of the current level and becomes the current item
    at once, with its full duration; it records the seconds the level had left
    (``resume_seconds_left``), and after the break the level resumes with them.
    Level numbers are unchanged. A running clock runs the break; a paused or
    not-started one stays so (the break starts on resume/start). Refused during
    a break (``in_break``: add time instead), during hand-for-hand and after the
    finish. The caller must store the new structure (items after the current
    one shift by one position) together with the new state.
    """
    state = advance(state, structure, now)
    _refuse_finished(state)
    if state.status == HAND_FOR_HAND:
        raise ClockError("hand_for_hand", "end hand-for-hand before inserting a break")
    index = state.item_index
    if isinstance(structure[index], Break):
        raise ClockError("in_break", "already on a break: add time to lengthen it")
    left = _seconds_left(state, now)
    extra = Break(minutes=minutes, color_up=color_up, add_on=add_on, resume_seconds_left=left)
    new_structure = list(structure[:index]) + [extra] + list(structure[index:])
    return new_structure, _with_left(state, now, float(extra.seconds))


def finish(state: ClockState, structure: Structure, now: datetime) -> ClockState:
    """Stop the clock for good (the tournament is over or cancelled)."""
    state = advance(state, structure, now)
    if state.status == FINISHED:
        raise ClockError("already_finished", "the clock is already finished")
    return replace(
        state,
        status=FINISHED,
        ends_at=None,
        remaining=_seconds_left(state, now),
        h4h_hand=0,
        version=state.version + 1,
    )


# ---------------------------------------------------------------- hand-for-hand


def start_hand_for_hand(
    state: ClockState,
    structure: Structure,
    now: datetime,
    seconds_per_hand: int = DEFAULT_H4H_SECONDS_PER_HAND,
    first_hand: int = 1,
) -> ClockState:
    """Announce hand-for-hand (CLK-06): freeze the countdown at the time left.

    The hand in progress at the announcement is H4H hand ``first_hand`` (1, unless
    the caller must keep its numbers apart from an earlier announcement's); when
    every table has finished it, call :func:`h4h_next_hand`. Allowed from RUNNING
    or PAUSED, on a level (not during a break).
    """
    state = advance(state, structure, now)
    if state.status == HAND_FOR_HAND:
        raise ClockError("already_hand_for_hand", "hand-for-hand is already on")
    if state.status not in (RUNNING, PAUSED):
        raise ClockError("not_running", "hand-for-hand needs a started clock")
    if isinstance(structure[state.item_index], Break):
        raise ClockError("in_break", "hand-for-hand cannot start during a break")
    if not _is_int(seconds_per_hand) or not 1 <= seconds_per_hand <= 3600:
        raise ClockError("bad_time", "seconds per hand must be between 1 and 3600")
    return replace(
        state,
        status=HAND_FOR_HAND,
        ends_at=None,
        remaining=_seconds_left(state, now),
        h4h_hand=max(1, int(first_hand)),
        h4h_seconds_per_hand=seconds_per_hand,
        version=state.version + 1,
    )


def h4h_next_hand(
    state: ClockState,
    structure: Structure,
    *,
    break_policy: str = DEFAULT_H4H_BREAK_POLICY,
) -> ClockState:
    """Every table has finished the hand: take ``h4h_seconds_per_hand`` off the clock.

    Once per hand, never in batches (RP-8-C). When the time falls to zero or
    below, the level ends and the next one starts with its duration minus the
    overrun (RP-8-D), possibly over several items. A break reached this way is
    handled by ``break_policy`` (module docstring): TAKE_BREAK (default) stops
    hand-for-hand and pauses the clock at the start of the break with its full
    duration; SKIP_BREAK passes over it.
    """
    _check(state, structure, None)
    if break_policy not in H4H_BREAK_POLICIES:
        raise ClockError("bad_policy", f"unknown hand-for-hand break policy {break_policy!r}")
    if state.status != HAND_FOR_HAND:
        raise ClockError("not_hand_for_hand", "hand-for-hand is not on")
    remaining = state.remaining - state.h4h_seconds_per_hand
    index = state.item_index
    last = len(structure) - 1
    transitions = 0
    while remaining <= 0:
        if index == last:
            remaining += structure[last].seconds
            transitions += 1
            continue
        index += 1
        transitions += 1
        if isinstance(structure[index], Break):
            if break_policy == SKIP_BREAK:
                continue
            return replace(
                state,
                status=PAUSED,
                item_index=index,
                ends_at=None,
                remaining=float(structure[index].seconds),
                h4h_hand=0,
                version=state.version + transitions + 1,
            )
        remaining += _entry_seconds(structure, index)
    return replace(
        state,
        item_index=index,
        remaining=float(remaining),
        h4h_hand=state.h4h_hand + 1,
        version=state.version + transitions + 1,
    )


def in_the_money(players_left: int, places_paid: int | None) -> bool:
    """Every player left is paid: the bubble has burst (no payout table yet: never)."""
    return bool(places_paid) and players_left <= places_paid


def h4h_ends_with_hand(players_left: int, places_paid: int | None, busts_this_hand: int, *, ends_at_money: bool = True) -> bool:
    """Whether the hand-for-hand hand in play is the last one (CLK-06, RP-8).

    Hand-for-hand is played for the bubble. The hand that reached the money (it began
    with more players than places paid, ``players_left + busts_this_hand``, and leaves no
    more than are paid) is its last: once every table has finished it, play goes back to
    normal. Until then it is still that hand, so a player out in it at another table is
    ranked with the others of the hand (shared or by starting stack, ELM-04).
    ``ends_at_money`` False (the house's setting): it goes on until the director ends it.
    Hand-for-hand announced already in the money (for the final table's or a satellite's
    seat bubble) reaches nothing: the director ends it."""
    return ends_at_money and in_the_money(players_left, places_paid) and players_left + busts_this_hand > places_paid


def h4h_hand_over(
    state: ClockState,
    structure: Structure,
    now: datetime,
    *,
    last: bool = False,
    break_policy: str = DEFAULT_H4H_BREAK_POLICY,
) -> ClockState:
    """Every table has finished the hand-for-hand hand: its seconds come off the clock and
    the next hand starts (:func:`h4h_next_hand`); the ``last`` hand (:func:`h4h_ends_with_hand`)
    also costs its time (RP-8-B), then the clock runs again from there. A break reached on the
    way is handled as :func:`h4h_next_hand` handles it (TAKE_BREAK: paused at its start)."""
    state = h4h_next_hand(state, structure, break_policy=break_policy)
    if not last or state.status != HAND_FOR_HAND:
        return state
    return end_hand_for_hand(state, now)


def end_hand_for_hand(state: ClockState, now: datetime) -> ClockState:
    """Back to normal play: the clock runs again from the frozen time left."""
    _check_aware(now)
    if state.status != HAND_FOR_HAND:
        raise ClockError("not_hand_for_hand", "hand-for-hand is not on")
    return replace(
        state,
        status=RUNNING,
        ends_at=now + timedelta(seconds=state.remaining),
        remaining=0.0,
        h4h_hand=0,
        version=state.version + 1,
    )


# ---------------------------------------------------------------- boundary queries


def level_number_at(state: ClockState, structure: Structure, now: datetime) -> int:
    """Level number on the clock at ``now`` (see :func:`level_number_of` for breaks)."""
    state = advance(state, structure, now)
    return level_number_of(structure, state.item_index)


def has_level_ended(level_number: int, state: ClockState, structure: Structure, now: datetime) -> bool:
    """True once the clock has moved past the last second of level ``level_number``.

    Clock time, not wall time: a paused clock keeps the level open (REG-04).
    True for every level once the clock is FINISHED; never true for the cap
    level otherwise (it repeats). Unknown level numbers raise ``bad_level``.
    """
    index = level_index(structure, level_number)
    state = advance(state, structure, now)
    if state.status == FINISHED:
        return True
    if state.status == NOT_STARTED:
        return False
    return state.item_index > index


def clock_seconds_since_level_ended(level_number: int, state: ClockState, structure: Structure, now: datetime) -> float | None:
    """Clock seconds played since level ``level_number`` ended (None while it has not ended):
    the items after it, whole, plus what has run of the current one (REG-09 grace). A paused
    clock holds it."""
    index = level_index(structure, level_number)
    state = advance(state, structure, now)
    if state.status in (NOT_STARTED, FINISHED) or state.item_index <= index:
        return None if state.status != FINISHED else float("inf")
    between = sum(_entry_seconds(structure, i) for i in range(index + 1, state.item_index))
    return between + max(0.0, _entry_seconds(structure, state.item_index) - _seconds_left(state, now))


def has_break_after_level_ended(level_number: int, state: ClockState, structure: Structure, now: datetime) -> bool:
    """True once the clock has passed level N and the break(s) right after it.

    For ``late_reg_end = end_of_break_after_level(N)`` (REG-04). Only scheduled
    breaks count; with none after level N this is :func:`has_level_ended`.
    """
    index = level_index(structure, level_number)
    while index + 1 < len(structure):
        following = structure[index + 1]
        if not isinstance(following, Break) or following.is_mid_level:
            break
        index += 1
    state = advance(state, structure, now)
    if state.status == FINISHED:
        return True
    if state.status == NOT_STARTED:
        return False
    return state.item_index > index


def in_break_after_level(level_number: int, state: ClockState, structure: Structure, now: datetime) -> bool:
    """True during a scheduled break that follows level N (add-on window, FMT-06).

    A mid-level break inserted by the director does not count.
    """
    level_index(structure, level_number)  # validates the number
    state = advance(state, structure, now)
    if state.status in (NOT_STARTED, FINISHED):
        return False
    item = structure[state.item_index]
    if not isinstance(item, Break) or item.is_mid_level:
        return False
    return level_number_of(structure, state.item_index) == level_number


def next_transition_at(state: ClockState, structure: Structure, now: datetime) -> datetime | None:
    """Wall time of the next item change, for arming the countdown task; None unless running."""
    state = advance(state, structure, now)
    return state.ends_at if state.status == RUNNING else None


def seconds_until_transition(state: ClockState, structure: Structure, now: datetime) -> float | None:
    """Seconds from ``now`` to the next item change; None unless running."""
    at = next_transition_at(state, structure, now)
    return None if at is None else (at - now).total_seconds()


# ---------------------------------------------------------------- calling the clock

# CLK-10: (seconds to act, countdown seconds).
SHOT_CLOCK_PRESETS: dict[str, tuple[int, int]] = {
    "TDA": (25, 5),  # TDA 29
    "SANREMO": (60, 10),  # 003 Art. 4.2.34
    "HEADS_UP": (30, 0),  # 001 L36
}
# The time a director may set for a player, per preset: 001 L36 «un limite massimo pari a 30
# secondi», reducible «fino a 10 secondi» for abuse; TDA 29 "TDs may adjust the time".
SHOT_CLOCK_MIN_SECONDS: dict[str, int] = {"TDA": 1, "SANREMO": 1, "HEADS_UP": 10}
SHOT_CLOCK_MAX_SECONDS: dict[str, int] = {"TDA": 600, "SANREMO": 600, "HEADS_UP": 30}

DEAD_HAND = "DEAD_HAND"
DEAD_IF_FACING_BET_ELSE_CHECK = "DEAD_IF_FACING_BET_ELSE_CHECK"
SHOT_CLOCK_EXPIRY: dict[str, str] = {
    "TDA": DEAD_IF_FACING_BET_ELSE_CHECK,  # TDA 29
    "SANREMO": DEAD_HAND,  # 003 Art. 4.2.34: «la mano è dead»
    "HEADS_UP": DEAD_IF_FACING_BET_ELSE_CHECK,  # 001 silent: TDA default
}


def _check_preset(preset: str) -> None:
    if preset not in SHOT_CLOCK_PRESETS:
        raise ClockError("bad_preset", f"unknown clock-call preset {preset!r}")


def clock_call_seconds(preset: str = "TDA", seconds: int | None = None) -> tuple[int, int]:
    """(seconds to act, countdown) for a clock call; ``seconds`` is the time the director set.

    The time must lie between the preset's minimum and maximum (heads-up: 10 to 30 s, 001 L36;
    otherwise 1 s to 10 minutes); the countdown of the preset is kept.
    """
    _check_preset(preset)
    base, countdown = SHOT_CLOCK_PRESETS[preset]
    if seconds is None:
        return base, countdown
    low, high = SHOT_CLOCK_MIN_SECONDS[preset], SHOT_CLOCK_MAX_SECONDS[preset]
    if not _is_int(seconds) or not low <= seconds <= high:
        raise ClockError("bad_time", f"clock-call time must be between {low} and {high} s")
    return seconds, countdown


def clock_call_expiry_text(preset: str = "TDA", facing_bet: bool | None = None) -> str:
    """What happens when a called clock runs out (CLK-10).

    With ``facing_bet`` unknown, the rule as a sentence; otherwise the outcome.
    """
    _check_preset(preset)
    if SHOT_CLOCK_EXPIRY[preset] == DEAD_HAND:
        return "dead hand"
    if facing_bet is None:
        return "dead hand if facing a bet, else check"
    return "dead hand" if facing_bet else "check"
