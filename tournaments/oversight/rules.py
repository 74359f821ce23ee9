"""ROLE-05 dispute windows, as a pure rule (no Django).

TDA 22, 003 Art. 12.3, 004 Art. 20.3: a decision on a hand must be asked for before the next
hand begins (the first shuffle marks it). A hand that finishes during a break may be disputed
until ``break_seconds`` (one minute) after the pot is awarded. A late request is still recorded
— the floor may rule on it — but with a warning.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

HAND, BREAK = "HAND", "BREAK"


@dataclass(frozen=True)
class WindowCheck:
    late: bool
    deadline: datetime | None  # when the window closed (None: still open, no next hand known)


def dispute_window(
    window: str, *, asked_at: datetime, disputed_at: datetime | None = None, next_hand_at: datetime | None = None, break_seconds: int = 60
) -> WindowCheck:
    """Whether a request made at ``asked_at`` was late.

    ``HAND``: the window closes when the next hand began (``next_hand_at``; unknown = open).
    ``BREAK``: it closes ``break_seconds`` after the pot was awarded (``disputed_at``).
    """
    if window == BREAK:
        if disputed_at is None:
            raise ValueError("a dispute in a break needs the time the pot was awarded")
        deadline = disputed_at + timedelta(seconds=break_seconds)
        return WindowCheck(asked_at > deadline, deadline)
    if window != HAND:
        raise ValueError(f"unknown dispute window {window!r}")
    if next_hand_at is None:
        return WindowCheck(False, None)
    return WindowCheck(asked_at > next_hand_at, next_hand_at)
