"""Keep-apart pairs (SEAT-07): players who must not sit at one table."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence

from .data import Table


def _partners(apart: Iterable[tuple[Hashable, Hashable]]) -> dict[Hashable, set]:
    """Player → the players he must not sit with."""
    if isinstance(apart, dict):
        return apart
    out: dict[Hashable, set] = {}
    for a, b in apart:
        if a != b:
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    return out


def partners_of(apart: Iterable[tuple[Hashable, Hashable]]) -> dict[Hashable, set]:
    """The pairs as a lookup (player → partners), for callers that check many players."""
    return _partners(apart)


def _meets_partner(player: Hashable, table: Table, partners: dict[Hashable, set]) -> bool:
    mine = partners.get(player)
    return bool(mine) and any(p in mine for p in table.seats.values())


def apart_conflicts(tables: Sequence[Table], apart: Iterable[tuple[Hashable, Hashable]]) -> list[tuple[int, Hashable, Hashable]]:
    """Pairs kept apart who sit at one table anyway: (table, player, partner), each pair once."""
    partners = _partners(apart)
    if not partners:
        return []
    out = []
    for t in tables:
        here = set(t.seats.values())
        for seat in sorted(t.seats):
            player = t.seats[seat]
            for other in partners.get(player, ()):
                if other in here and repr(player) < repr(other):
                    out.append((t.number, player, other))
    return out


def _keep_apart(
    players: list[Hashable],
    slot_tables: list[int],
    fixed: dict[int, set],
    partners: dict[Hashable, set],
    rng: random.Random,
) -> tuple[list[int], int]:
    """Exchange slots so no player shares a table with a partner, when possible (SEAT-07).

    Player i holds slot i (a ticket or seat card at table ``slot_tables[i]``); ``fixed``
    are the players already at each table. Returns the slot order (player i takes slot
    ``order[i]``) and the number of exchanges. An exchange is made only when it leaves
    both players clear of their partners; what cannot be cleared stays (and is flagged
    by the caller).
    """
    order = list(range(len(players)))
    if not partners or not players:
        return order, 0
    at: dict[int, set] = {}
    for i, p in enumerate(players):
        at.setdefault(slot_tables[i], set()).add(p)

    def clash(p, table, without=()):
        mine = partners.get(p)
        if not mine:
            return False
        others = (fixed.get(table, set()) | at.get(table, set())) - {p, *without}
        return bool(mine & others)

    swaps = 0
    for _round in range(3):
        bad = [i for i, p in enumerate(players) if clash(p, slot_tables[order[i]])]
        if not bad:
            break
        for i in bad:
            p = players[i]
            ti = slot_tables[order[i]]
            if not clash(p, ti):
                continue
            candidates = [j for j in range(len(players)) if slot_tables[order[j]] != ti]
            rng.shuffle(candidates)
            for j in candidates:
                q, tj = players[j], slot_tables[order[j]]
                if clash(p, tj, (q,)) or clash(q, ti, (p,)):
                    continue
                at[ti].discard(p)
                at[tj].discard(q)
                at[ti].add(q)
                at[tj].add(p)
                order[i], order[j] = order[j], order[i]
                swaps += 1
                break
    return order, swaps
