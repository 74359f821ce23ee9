"""Which of a room's free physical tables an event takes.

The house orders its tables (``position``: nearest the desk first, or any list it likes) and
may give each event a zone of the room; an event takes the free tables big enough for its
size, those kept for it first, then those of its zone, then the rest, each group in the house's
order, ties by number.
Pure: the services read the free tables, call this, and take the numbers it returns.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FreeTable:
    number: int
    seats: int
    zone: str = ""
    position: int = 0
    kept: bool = False  # kept for this event (a director's reservation, a draw in advance): taken first


def tables_needed(players: int, *, per_table: int) -> int:
    """Tables an initial draw opens for ``players`` at ``per_table`` at most (SEAT-01)."""
    return math.ceil(players / per_table) if players > 0 else 0


def choose_tables(free: Iterable[FreeTable], count: int, *, seats: int, zone: str = "", exclude: Sequence[int] = ()) -> tuple[list[int], int]:
    """The numbers of ``count`` tables for an event of ``seats``-max, and how many are missing
    (0 when there are enough: then the list has ``count`` numbers). Tables with fewer seats, and
    the numbers in ``exclude`` (the event's tables already in play), are never taken."""
    fitting = [t for t in free if t.seats >= seats and t.number not in set(exclude)]
    fitting.sort(key=lambda t: (not t.kept, bool(zone) and t.zone != zone, t.position, t.number))
    chosen = [t.number for t in fitting[:count]]
    return chosen, max(0, count - len(chosen))
