"""Leaderboard points for the Sanremo daily tournaments (RULES LB-01..LB-03).

Pure Python, no Django import.

Score = K · √(n / p), n = participants, p = finishing place, stored unrounded (display to
2 decimals). The printed constant is ``10 · (1 + log(100,25))``; its reading is a setting
(LB-02, contradiction C30):

* ``A`` (default): Italian decimal comma, log₁₀(100.25) → K = 30.0108…
* ``B``: two-argument log, base 25: log₂₅(100) → K = 24.3068…
* ``C``: two-argument log, base 100: log₁₀₀(25) → K = 16.9897…
* ``D``: the buy-in of the day, log₁₀(buy_in + 0.25) (PokerStars TLB formula).

A, B and C multiply every score by the same constant, so the standings are the same.

Shared places (LB-03 [CONFIG]): players tied for places p … p+m−1 score at the average of
those places (``AVERAGE_PLACE``, default) or at the best of them (``BEST_PLACE``).

Series (LB-03): totals are summed over a cycle of ``CYCLE_LENGTH`` tournaments; after the
last one the best ``TICKETS_PER_CYCLE`` totals receive a €500+50 ticket and the totals
reset. The tie-break for the last ticket is a setting (``tie_break``); players still tied
after it are reported, not guessed: the TD decides (e.g. a draw).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

MODES = ("A", "B", "C", "D")
AVERAGE_PLACE = "AVERAGE_PLACE"
BEST_PLACE = "BEST_PLACE"
CYCLE_LENGTH = 20
TICKETS_PER_CYCLE = 4

# Tie-breaks between equal totals, applied in this order of preference.
BEST_RESULT = "BEST_RESULT"  # the higher single-tournament score ranks first
MORE_TOURNAMENTS = "MORE_TOURNAMENTS"  # the player with more scores ranks first
FEWER_TOURNAMENTS = "FEWER_TOURNAMENTS"  # the player who needed fewer ranks first
NONE = "NONE"  # equal totals share the rank
TIE_BREAKS = (BEST_RESULT, MORE_TOURNAMENTS, FEWER_TOURNAMENTS, NONE)


def leaderboard_constant(mode: str = "A", buy_in=None) -> float:
    """K = 10 · (1 + L) under the reading ``mode`` of ``log(100,25)`` (LB-02)."""
    if mode == "A":
        return 10 * (1 + math.log10(100.25))
    if mode == "B":
        return 10 * (1 + math.log(100) / math.log(25))
    if mode == "C":
        return 10 * (1 + math.log(25) / math.log(100))
    if mode == "D":
        if buy_in is None or float(buy_in) <= 0:
            raise ValueError("reading D needs the buy-in of the tournament")
        return 10 * (1 + math.log10(float(buy_in) + 0.25))
    raise ValueError(f"unknown leaderboard mode {mode!r}; use one of {MODES}")


def leaderboard_points(
    participants: int,
    place: int,
    *,
    mode: str = "A",
    buy_in=None,
    shared_with: int = 1,
    shared_rule: str = AVERAGE_PLACE,
) -> float:
    """K · √(n / p), unrounded. ``shared_with`` = m players tied for places p … p+m−1.

    Scenario 39 (n = 40, reading A): p = 1 → 189.81, p = 2 → 134.21, p = 40 → 30.01.
    """
    if participants < 1:
        raise ValueError("a tournament has at least one participant")
    if shared_with < 1:
        raise ValueError("shared_with counts the tied players, at least 1")
    if not 1 <= place <= participants - shared_with + 1:
        raise ValueError(f"places {place}..{place + shared_with - 1} are not in 1..{participants}")
    if shared_rule == AVERAGE_PLACE:
        scored_place = place + (shared_with - 1) / 2
    elif shared_rule == BEST_PLACE:
        scored_place = place
    else:
        raise ValueError(f"unknown shared rule {shared_rule!r}; use AVERAGE_PLACE or BEST_PLACE")
    return leaderboard_constant(mode, buy_in) * math.sqrt(participants / scored_place)


@dataclass(frozen=True)
class SeriesStanding:
    """One line of the general ranking (``rank`` is shared by players still tied)."""

    rank: int
    player: object
    total: float
    tournaments: int
    best: float


def series_standings(results, *, tie_break: str = BEST_RESULT) -> list[SeriesStanding]:
    """The general ranking: total points per player, best first.

    ``results`` is an iterable of ``(player, points)`` pairs, one per tournament score
    (a player appears once per tournament he scored in), or a mapping player → list of
    scores. Totals are summed with ``math.fsum`` (exact rounding, independent of order).
    Equal totals are ordered by ``tie_break``; players equal on both share the rank
    (1, 2, 2, 4) and are listed in order of first appearance.
    """
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"unknown tie-break {tie_break!r}; use one of {TIE_BREAKS}")
    scores: dict = defaultdict(list)
    pairs = ((player, s) for player, ss in results.items() for s in ss) if isinstance(results, dict) else results
    for player, points in pairs:
        scores[player].append(float(points))

    lines = []
    for player, ss in scores.items():
        lines.append((player, math.fsum(ss), len(ss), max(ss) if ss else 0.0))

    def key(line):
        _, total, count, best = line
        return (-total, tie_key(tie_break, count, best))

    return [SeriesStanding(rank, *line) for rank, line in ranked(lines, key)]


def ranked(lines, key) -> list[tuple[int, object]]:
    """``(rank, line)`` for each line, best first by ``key`` (smaller first); lines with equal
    keys share the rank (1, 2, 2, 4) and keep their order (the sort is stable)."""
    out: list[tuple[int, object]] = []
    ordered = sorted(lines, key=key)
    for index, line in enumerate(ordered):
        rank = out[-1][0] if index and key(ordered[index - 1]) == key(line) else index + 1
        out.append((rank, line))
    return out


@dataclass(frozen=True)
class CycleAwards:
    """Who gets a cycle ticket (LB-03).

    ``winners`` are certain. If players are still tied (after the tie-break) for the
    last ticket(s), they are in ``undecided`` and ``tickets_undecided`` tickets remain
    for them: the TD settles it (a draw, or a tie-break chosen for the series).
    """

    winners: list
    undecided: list
    tickets_undecided: int


def cycle_awards(totals, *, top: int = TICKETS_PER_CYCLE, tie_break: str = BEST_RESULT):
    """The ``top`` players of a finished cycle (4 tickets of €500+50 by default).

    ``totals`` is a list of ``SeriesStanding`` (from ``series_standings``), a mapping
    player → total points, or anything ``series_standings`` accepts (per-tournament
    scores, which ``tie_break`` can use). A whole group of tied players wins only if the
    group fits in the ``top``; the first group that does not fit is ``undecided``.
    """
    if top < 0:
        raise ValueError("top cannot be negative")
    if isinstance(totals, dict) and all(isinstance(v, (int, float, Decimal)) for v in totals.values()):
        totals = {player: [value] for player, value in totals.items()}
    if isinstance(totals, (list, tuple)) and all(isinstance(s, SeriesStanding) for s in totals):
        standings = list(totals)
    else:
        standings = series_standings(totals, tie_break=tie_break)
    winners: list = []
    undecided: list = []
    for group in _rank_groups(standings):
        if len(winners) + len(group) <= top:
            winners.extend(group)
            continue
        if len(winners) < top:
            undecided = group
        break
    return CycleAwards(winners, undecided, top - len(winners) if undecided else 0)


def _rank_groups(standings):
    group: list = []
    group_rank = None
    for line in standings:
        if group and line.rank != group_rank:
            yield group
            group = []
        group.append(line.player)
        group_rank = line.rank
    if group:
        yield group


def tie_key(tie_break: str, count: int, best):
    """The sort key that orders equal totals by ``tie_break`` (smaller ranks first)."""
    if tie_break == BEST_RESULT:
        return (-best,)
    if tie_break == MORE_TOURNAMENTS:
        return (-count,)
    if tie_break == FEWER_TOURNAMENTS:
        return (count,)
    return ()
