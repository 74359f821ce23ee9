"""League points: a season of tournaments scored by a formula the director chooses.

Pure Python, no Django import. Points are ``Decimal`` rounded to the hundredth (half up),
so a standing printed on the lobby adds up to the points printed for each event.

Formulas (``FORMULAS``; each shown on the league page with its parameters):

* ``TABLE``: points by place from the director's table (``table``: points for 1st, 2nd, …);
  places beyond the table score ``participation`` (default 0).
* ``SQRT``: ``multiplier · √(n / p)``: n entries, p the place (multiplier default 10).
* ``SQRT_BUYIN``: ``multiplier · √(n / p) · (1 + log₁₀(buy-in + 0.25))``: the square-root
  formula weighted by the buy-in, so a bigger event is worth more (multiplier default 10).
* ``LINEAR``: ``n − p + 1``: one point for every player outlasted, plus one.

Every formula adds ``participation`` points for playing (TABLE: only beyond the table) and
``knockout_points`` per knockout in bounty events. A season counts each player's best
``best_of`` results (None: all), and equal totals are ordered by the house's tie-break
(``payouts.leaderboard.TIE_BREAKS``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from payouts.leaderboard import AVERAGE_PLACE, BEST_PLACE, BEST_RESULT, TIE_BREAKS, ranked, tie_key

TABLE = "TABLE"
SQRT = "SQRT"
SQRT_BUYIN = "SQRT_BUYIN"
LINEAR = "LINEAR"
#: The Tournament Director's own points formula, kept by a league brought in from its save files:
#: each imported event's points are TD3's, worked out at the import; an event played here in
#: such a league is scored by the same formula (``tournaments.formats.td3_here``), not by this engine
TD3 = "TD3"
FORMULAS = (TABLE, SQRT, SQRT_BUYIN, LINEAR, TD3)

HUNDREDTH = Decimal("0.01")


class LeagueError(ValueError):
    def __init__(self, code: str, detail: str = ""):
        super().__init__(detail or code)
        self.code = code


@dataclass(frozen=True)
class Formula:
    """A league's scoring: the formula's name and its parameters."""

    name: str = SQRT
    multiplier: Decimal = Decimal(10)
    table: tuple = ()
    participation: Decimal = Decimal(0)
    knockout_points: Decimal = Decimal(0)
    best_of: int | None = None
    tie_break: str = BEST_RESULT

    def __post_init__(self):
        if self.name not in FORMULAS:
            raise LeagueError("bad_formula", f"unknown formula {self.name!r}; use one of {FORMULAS}")
        if self.name == TABLE and not self.table:
            raise LeagueError("empty_table", "a points table needs the points of at least the 1st place")
        if any(Decimal(p) < 0 for p in self.table) or Decimal(self.multiplier) <= 0:
            raise LeagueError("bad_points", "points and the multiplier must not be negative")
        if Decimal(self.participation) < 0 or Decimal(self.knockout_points) < 0:
            raise LeagueError("bad_points", "points and the multiplier must not be negative")
        if self.best_of is not None and self.best_of < 1:
            raise LeagueError("bad_best_of", "best_of counts at least one result")
        if self.tie_break not in TIE_BREAKS:
            raise LeagueError("bad_tie_break", f"unknown tie-break {self.tie_break!r}; use one of {TIE_BREAKS}")


def event_points(
    formula: Formula, *, entries: int, place: int, buy_in=None, knockouts: int = 0, shared_with: int = 1, shared_rule: str = AVERAGE_PLACE
) -> Decimal:
    """One player's points for one event: ``entries`` in the field, his ``place``.

    ``shared_with`` players tied for places p … p+m−1 each score the average of those places'
    points (``AVERAGE_PLACE``) or the best place's (``BEST_PLACE``), as the Sanremo leaderboard.
    """
    if shared_with < 1 or place + shared_with - 1 > entries:
        raise LeagueError("bad_place", f"places {place}..{place + shared_with - 1} are not in 1..{entries}")
    if shared_with > 1 and shared_rule == AVERAGE_PLACE:
        each = [_place_points(formula, entries, p, buy_in) for p in range(place, place + shared_with)]
        points = sum(each, Decimal(0)) / shared_with
    elif shared_rule in (AVERAGE_PLACE, BEST_PLACE):
        points = _place_points(formula, entries, place, buy_in)
    else:
        raise LeagueError("bad_shared_rule", f"unknown shared rule {shared_rule!r}")
    if knockouts < 0:
        raise LeagueError("bad_knockouts", "knockouts cannot be negative")
    points += Decimal(formula.knockout_points) * knockouts
    return points.quantize(HUNDREDTH, rounding=ROUND_HALF_UP)


def _place_points(formula: Formula, entries: int, place: int, buy_in) -> Decimal:
    if entries < 1:
        raise LeagueError("bad_entries", "an event has at least one entry")
    if not 1 <= place <= entries:
        raise LeagueError("bad_place", f"place {place} is not in 1..{entries}")
    if formula.name == TD3:
        raise LeagueError("td3_formula", "TD3's formula scores the events imported from TD3 only")
    participation = Decimal(formula.participation)
    if formula.name == TABLE:
        points = Decimal(formula.table[place - 1]) if place <= len(formula.table) else participation
    elif formula.name == LINEAR:
        points = Decimal(entries - place + 1) + participation
    else:
        value = float(formula.multiplier) * math.sqrt(entries / place)
        if formula.name == SQRT_BUYIN:
            if buy_in is None or Decimal(buy_in) <= 0:
                raise LeagueError("needs_buy_in", "this formula needs the event's buy-in")
            value *= 1 + math.log10(float(buy_in) + 0.25)
        points = Decimal(repr(value)) + participation
    return points


@dataclass(frozen=True)
class Standing:
    """One line of a season's standings: ``counted`` are the results that make the total."""

    rank: int
    player: object
    total: Decimal
    events: int
    counted: tuple = field(default=())


def standings(results, formula: Formula) -> list[Standing]:
    """The season's standings from ``(player, points)`` pairs, one per event played.

    Each player's best ``formula.best_of`` results count; equal totals are ordered by the
    tie-break, and players equal on it share the rank."""
    per_player: dict = {}
    for player, points in results:
        per_player.setdefault(player, []).append(Decimal(points))
    lines = []
    for player, scores in per_player.items():
        best = sorted(scores, reverse=True)
        kept = tuple(best[: formula.best_of] if formula.best_of else best)
        lines.append((player, sum(kept, Decimal(0)).quantize(HUNDREDTH), len(scores), kept))

    # Exact Decimal totals: two totals that print the same are equal, and the tie-break decides.
    def key(line):
        _, total, count, kept = line
        return (-total, tie_key(formula.tie_break, count, kept[0]))

    return [Standing(rank, *line) for rank, line in ranked(lines, key)]
