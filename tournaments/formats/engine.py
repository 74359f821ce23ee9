"""Format rules as plain arithmetic (RULES.md FMT-07, FMT-11..FMT-13, PAY-08).

Pure Python, standard library plus ``tdmanager.money`` (itself pure): no Django import.
The services in ``tournaments.formats.services`` lock the rows, call these functions and
write what they return.

Choices where RULES.md leaves freedom (each one is also stated where it is made):

- Bracket seeding (FMT-12): the standard layout (1 v 16, 8 v 9, …) so that the top seeds
  meet last; when the field is smaller than the bracket, the missing seeds are the highest
  numbers, so the top seeds (or, in a random draw, the first drawn) get the byes.
- Bracket places: a player who loses in a round of ``k`` players finishes ``k/2 + 1``,
  shared with every other loser of that round (ELM-06 "k (shared)").
- Heads-up lateness (FMT-12, scenario 35): late by a whole level (or more) loses game 1,
  late by two whole levels loses the match; "late" is measured from the match start.
- Heads-up seat requests for the next group (scenario 36): new players who asked before
  level 1 began, by time of asking; then players eliminated in the previous group,
  earliest elimination first; then new players who asked later, by time of asking.
- Chip ties (FMT-13 open question, PAY-08 [CONFIG]): ``SHARE`` (default) puts equal
  stacks on one shared place; ``DRAW`` orders them by a random draw the caller records.
- Chip-leader prizes (PAY-08): tied chip leaders share the prizes of the places they
  cover equally (odd cents to the first listed), or a draw orders them (``DRAW``).
- A player who bags in several Day 1 flights (FMT-11, §14 q6): ``BEST`` (default) keeps
  the biggest bag, ``FIRST`` the bag of the earliest flight.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from tdmanager.money import CENT, ZERO, split_evenly, to_money

SHARE, DRAW = "SHARE", "DRAW"
TIE_RULES = (SHARE, DRAW)
BEST, FIRST = "BEST", "FIRST"
FLIGHT_STACK_RULES = (BEST, FIRST)
BRACKET_SIZES = (2, 4, 8, 16, 32, 64)
DEFAULT_CHIP_LEADER_PRIZES = ("2000", "1000", "500")  # PAY-08 (001, L124)
HEADS_UP_LEVELS = (  # FMT-12: no ante, blinds stop at 500/1000 (the cap)
    (100, 100),
    (100, 200),
    (100, 300),
    (200, 400),
    (200, 500),
    (300, 600),
    (400, 800),
    (500, 1000),
)


class FormatRuleError(ValueError):
    """Input the rules cannot work with; ``code`` is machine-readable."""

    def __init__(self, code: str, message: str = ""):
        super().__init__(message or code)
        self.code = code


@dataclass(frozen=True)
class Place:
    """A finishing place; a shared place k of a tie group of m has ``shared_with`` = m."""

    player: Hashable
    place: int
    shared_with: int = 1


# --- heads-up brackets (FMT-12) ------------------------------------------------------------


def bracket_size_for(players: int, sizes: Sequence[int] = (16, 32, 64)) -> int:
    """The smallest allowed bracket that holds ``players``."""
    for size in sorted(sizes):
        if players <= size:
            return size
    raise FormatRuleError("too_many_players", f"{players} players do not fit a bracket of {max(sizes)}")


def seeding_order(size: int) -> list[int]:
    """Seeds in bracket order: 1, 16, 8, 9, 5, 12, 4, 13, … for 16 (seed 1 and 2 meet in the final)."""
    if size not in BRACKET_SIZES:
        raise FormatRuleError("bad_bracket_size", f"a bracket has 2, 4, 8, 16, 32 or 64 places, not {size}")
    order = [1]
    while len(order) < size:
        n = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, n - seed)]
    return order


def bracket_order(seeded: Sequence[Hashable], others: Sequence[Hashable], rng: random.Random) -> list[Hashable]:
    """A bracket's draw: the seeded players first, in the director's order, then the others in
    a random order (the service and the replay of its log both draw through here)."""
    rest = list(others)
    rng.shuffle(rest)
    return [*seeded, *rest]


def first_round(players: Sequence[Hashable], size: int) -> list[tuple[Hashable | None, Hashable | None]]:
    """Round-1 pairs: ``players[i]`` is seed i + 1. A missing seed is ``None`` (a bye for the
    other player); missing seeds are the highest, so byes go to the top seeds."""
    if len(players) > size:
        raise FormatRuleError("too_many_players", f"{len(players)} players do not fit a bracket of {size}")
    if len(players) < 2:
        raise FormatRuleError("too_few_players", "a bracket needs at least two players")
    if len(set(players)) != len(players):
        raise FormatRuleError("duplicate_player", "a player is drawn twice")
    order = seeding_order(size)
    slot = [players[seed - 1] if seed <= len(players) else None for seed in order]
    return [(slot[i], slot[i + 1]) for i in range(0, size, 2)]


def rounds_in(size: int) -> int:
    return int(math.log2(size))


def players_in_round(size: int, round_no: int) -> int:
    return size // 2 ** (round_no - 1)


def loser_place(size: int, round_no: int) -> int:
    """The (shared) place of a player who loses a match of round ``round_no`` (1 = first)."""
    return players_in_round(size, round_no) // 2 + 1


def next_slot(round_no: int, position: int) -> tuple[int, int, str]:
    """Where the winner of match (round, position) plays next: (round, position, side)."""
    return round_no + 1, position // 2, "a" if position % 2 == 0 else "b"


def match_over(a_wins: int, b_wins: int, games_to_win: int = 2) -> bool:
    return max(a_wins, b_wins) >= games_to_win


def level_one_ends(clock_started_at: datetime, level_minutes: int) -> datetime:
    return clock_started_at + timedelta(minutes=level_minutes)


def replacement_deadline(clock_started_at: datetime, level_minutes: int, grace_minutes: int = 5) -> datetime:
    """Scenario 34: a replacement must sit by the end of level 1 plus the grace (5')."""
    return level_one_ends(clock_started_at, level_minutes) + timedelta(minutes=grace_minutes)


def levels_late(match_started_at: datetime, now: datetime, level_minutes: int) -> int:
    """Whole levels a qualified player is late: 0, 1 (game 1 lost) or 2 (match lost) — scenario 35."""
    late = (now - match_started_at).total_seconds()
    if late <= 0:
        return 0
    return min(2, int(late // (level_minutes * 60)))


def match_level(clock_started_at: datetime, now: datetime, level_minutes: int, levels: Sequence = HEADS_UP_LEVELS) -> dict:
    """Level (1-based, capped at the last), blinds and seconds left of a match clock."""
    elapsed = max(0.0, (now - clock_started_at).total_seconds())
    index = int(elapsed // (level_minutes * 60))
    capped = min(index, len(levels) - 1)
    small, big = levels[capped]
    left = level_minutes * 60 - (elapsed - index * level_minutes * 60)
    return {
        "level": capped + 1,
        "small_blind": small,
        "big_blind": big,
        "seconds_left": None if index >= len(levels) - 1 else round(left),
        "capped": index >= len(levels) - 1,
    }


NEW_EARLY, RETURNING, NEW_LATE = 0, 1, 2


def seat_request_priority(kind: str, requested_at: datetime, level_one_starts: datetime, previous_busted_at: datetime | None):
    """Sort key of a request for a seat in the next group (scenario 36; see the module doc)."""
    if kind == "RETURNING":
        return (RETURNING, previous_busted_at or requested_at, requested_at)
    if requested_at <= level_one_starts:
        return (NEW_EARLY, requested_at, requested_at)
    return (NEW_LATE, requested_at, requested_at)


# --- chip counts: timed events and chip leaders (FMT-13, PAY-08) ------------------------------


def rank_by_chips(stacks: Iterable[tuple[Hashable, int]], *, tie: str = SHARE, rng: random.Random | None = None, first_place: int = 1) -> list[Place]:
    """Players ranked by chips, biggest first, from ``first_place``. Equal stacks share the
    place (``SHARE``) or are ordered by a random draw (``DRAW``, ``rng`` required)."""
    if tie not in TIE_RULES:
        raise FormatRuleError("bad_tie_rule", f"unknown tie rule {tie!r}")
    stacks = list(stacks)
    if any(int(c) < 0 for _p, c in stacks):
        raise FormatRuleError("bad_chips", "a stack cannot be negative")
    groups: dict[int, list] = {}
    for player, chips in stacks:  # stable: ties keep the order given
        groups.setdefault(int(chips), []).append(player)
    out, place = [], first_place
    for chips in sorted(groups, reverse=True):
        members = list(groups[chips])
        if len(members) > 1 and tie == DRAW:
            if rng is None:
                raise FormatRuleError("rng_required", "a draw needs a random source")
            rng.shuffle(members)
            out.extend(Place(p, place + i, 1) for i, p in enumerate(members))
        else:
            out.extend(Place(p, place, len(members)) for p in members)
        place += len(members)
    return out


def places_below(busted: Iterable[tuple[Hashable, datetime]], first_place: int) -> list[Place]:
    """Eliminated players ranked below the survivors: the later out, the better (ELM-01);
    busts at the same instant share (ELM-03)."""
    groups: dict[datetime, list] = {}
    for player, at in busted:
        groups.setdefault(at, []).append(player)
    out, place = [], first_place
    for at in sorted(groups, reverse=True):
        members = groups[at]
        out.extend(Place(p, place, len(members)) for p in members)
        place += len(members)
    return out


@dataclass(frozen=True)
class ChipLeaderPrize:
    player: Hashable
    rank: int
    chips: int
    amount: Decimal
    shared_with: int = 1


def chip_leader_prizes(
    bags: Iterable[tuple[Hashable, int]], prizes: Sequence = DEFAULT_CHIP_LEADER_PRIZES, *, tie: str = SHARE, rng: random.Random | None = None
) -> list[ChipLeaderPrize]:
    """PAY-08: the biggest bags of a flight win ``prizes`` (2000, 1000, 500 by default).

    A tie group covering ranks k … k+m−1 shares the prizes of those ranks (the ranks past
    the prize list count zero) equally, odd cents to the first listed; under ``DRAW`` the
    draw orders the group and each gets the prize of his rank.
    """
    bags = list(bags)
    prizes = [to_money(p) for p in prizes]
    ranked = rank_by_chips(bags, tie=tie, rng=rng)
    chips_of = {p: int(c) for p, c in bags}
    out: list[ChipLeaderPrize] = []
    i = 0
    while i < len(ranked) and ranked[i].place <= len(prizes):
        first = ranked[i]
        group = [r for r in ranked[i:] if r.place == first.place]
        covered = prizes[first.place - 1 : first.place - 1 + len(group)]
        total = sum(covered, ZERO)
        shares = split_evenly(total, len(group)) if len(group) > 1 else [total]
        for r, share in zip(group, shares):
            if share > ZERO:
                out.append(ChipLeaderPrize(r.player, r.place, chips_of[r.player], share, len(group)))
        i += len(group)
    return out


# --- multi-day events (FMT-11) ------------------------------------------------------------


@dataclass(frozen=True)
class FlightBag:
    """One surviving bag of a player: the flight's order, the bag and its chips."""

    flight_order: int
    bag: Hashable
    chips: int


def day2_bag(bags: Sequence[FlightBag], rule: str = BEST) -> FlightBag:
    """Which of a player's bags goes to Day 2 (§14 q6 [CONFIG]): ``BEST`` = the biggest
    (ties: the earlier flight), ``FIRST`` = the earliest flight's."""
    if rule not in FLIGHT_STACK_RULES:
        raise FormatRuleError("bad_flight_stack_rule", f"unknown rule {rule!r}")
    if not bags:
        raise FormatRuleError("no_bag", "the player has no bag")
    if rule == FIRST:
        return min(bags, key=lambda b: b.flight_order)
    return min(bags, key=lambda b: (-b.chips, b.flight_order))


# --- daily series (FMT-10) ----------------------------------------------------------------

# 003 Allegato 1: the daily tournaments' buy-in + fee by weekday (Monday = 0); none on
# Tuesday and Wednesday.
SANREMO_DAILY_PRICES = {0: ("50", "20"), 3: ("50", "20"), 4: ("200", "20"), 5: ("150", "20"), 6: ("80", "20")}


def daily_price(weekday: int, prices: dict | None = None) -> tuple[Decimal, Decimal] | None:
    prices = SANREMO_DAILY_PRICES if prices is None else {int(k): v for k, v in prices.items()}
    pair = prices.get(int(weekday))
    return None if pair is None else (to_money(pair[0]).quantize(CENT), to_money(pair[1]).quantize(CENT))
