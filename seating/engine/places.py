"""Finishing places (ELM-01..07): busts grouped, ranked and shared."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from .data import SeatingError, _check_setting

H4H_POLICIES = ("SHARE", "RANK_BY_STARTING_STACK")


@dataclass(frozen=True, slots=True)
class Bust:
    """One elimination (ELM-01). ``order`` is the bust sequence (or a timestamp)."""

    player: Hashable
    table: int
    seat: int
    order: int
    hand_group: Hashable | None = None  # same hand at the same table
    h4h_hand: int | None = None  # hand-for-hand hand number
    starting_stack: int | None = None  # stack at the start of the hand, if entered


@dataclass(frozen=True, slots=True)
class Place:
    """A finishing place; a shared place k of a tie group of m has ``shared_with`` = m."""

    player: Hashable
    place: int
    shared_with: int = 1


def finishing_places(
    busts: Iterable[Bust],
    entries_total: int,
    *,
    h4h_policy: str = "SHARE",
    winner: Hashable | None = None,
) -> list[Place]:
    """Finishing places from the bust list (ELM-01..06), best place first.

    The first player out finishes ``entries_total``th and the last one out best. Busts on
    the same hand at one table (same ``hand_group``) are ranked by starting stack, the
    bigger stack better (003 Art. 4.2.30). Busts in one hand-for-hand hand, at any tables,
    share under ``SHARE`` (TDA RP-8-A) or are ranked by starting stack under
    ``RANK_BY_STARTING_STACK`` (003 non-EPT). Equal or unknown stacks cannot be ordered and
    share; so do groups with equal ``order`` (ELM-03). A tie group over places k..k+m−1 is
    recorded as place k with ``shared_with`` = m. ``winner`` adds place 1.
    """
    _check_setting("h4h_policy", h4h_policy, H4H_POLICIES)
    busts = list(busts)
    if len({b.player for b in busts}) != len(busts):
        raise SeatingError("duplicate_bust", "a player is eliminated twice")
    if len(busts) + (1 if winner is not None else 0) > entries_total:
        raise SeatingError("too_many_busts", "more places than entries")
    places: list[Place] = []
    worst = entries_total
    for _, same_time in itertools.groupby(_bust_groups(busts), key=lambda g: g[0]):
        groups = list(same_time)
        members = [b for _, _, group in groups for b in group]
        best = worst - len(members) + 1
        kind = groups[0][1]
        if len(groups) > 1 or (kind == "h4h" and h4h_policy == "SHARE"):
            places.extend(Place(b.player, best, len(members)) for b in members)
        elif kind == "single":
            places.append(Place(members[0].player, worst, 1))
        else:
            places.extend(_rank_by_starting_stack(members, best))
        worst -= len(members)
    if winner is not None:
        if worst != 1:
            raise SeatingError("winner_too_early", f"{worst} players are still in, not one")
        places.append(Place(winner, 1, 1))
    return sorted(places, key=lambda p: p.place)  # stable: a shared place keeps bust order


def _bust_groups(busts: list[Bust]) -> list[tuple[int, str, list[Bust]]]:
    """Busts grouped into (order, kind, members), first out first.

    kind: "h4h" (one hand-for-hand hand, any table), "hand" (same hand, same table) or
    "single". A group's order is its earliest member's.
    """
    grouped: dict[Hashable, list[Bust]] = {}
    kinds: dict[Hashable, str] = {}
    for i, bust in enumerate(busts):
        if bust.h4h_hand is not None:
            key, kind = ("h4h", bust.h4h_hand), "h4h"
        elif bust.hand_group is not None:
            key, kind = ("hand", bust.table, bust.hand_group), "hand"
        else:
            key, kind = ("single", i), "single"
        grouped.setdefault(key, []).append(bust)
        kinds[key] = kind
    groups = [(min(b.order for b in members), kinds[key], members) for key, members in grouped.items()]
    groups.sort(key=lambda g: g[0])
    return groups


def _rank_by_starting_stack(members: list[Bust], best: int) -> list[Place]:
    """Rank one hand's busts (ELM-02): the bigger starting stack finishes better; equal stacks share.

    If any stack is unknown the order cannot be determined, so the whole group shares
    (003 Art. 4.2.30: "si divideranno equamente").
    """
    if any(b.starting_stack is None for b in members):
        return [Place(b.player, best, len(members)) for b in members]
    places = []
    for stack in sorted({b.starting_stack for b in members}, reverse=True):
        bigger = sum(1 for b in members if b.starting_stack > stack)
        equal = [b for b in members if b.starting_stack == stack]
        places.extend(Place(b.player, best + bigger, len(equal)) for b in equal)
    return places
