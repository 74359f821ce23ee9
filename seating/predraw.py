"""SEAT-02 (004): registrants drawn in advance into sessions and tables. Pure Python.

004's «I tavoli verranno precedentemente estratti a sorte ed organizzati dallo staff
organizzatore per facilitare l'invio del programma incontri agli iscritti ed ottenere una
equilibrata distribuzione dei partecipanti»: before the event the staff draws every registrant
into one of the sessions (evenings, or Day 1A / 1B flights) and a table, so each can be told
when and where he plays, and the sessions are evenly filled.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import NamedTuple

from . import engine


class Assignment(NamedTuple):
    player: Hashable
    session: str
    table: int
    seat: int


def predraw(
    players: Sequence[Hashable], sessions: Sequence[str], *, capacity: int, rng: random.Random, max_players_per_table: int | None = None
) -> tuple[list[Assignment], list[Hashable]]:
    """Draw ``players`` into ``sessions`` and, within each session, into tables and seats.

    The players are shuffled, then dealt round the sessions in the order given (the first
    shuffled player to the first session, the second to the second, …), so the sessions differ
    by at most one player and which player lands where is the shuffle's alone. Each session's
    players are then drawn into seats as the initial draw does (``engine.draw_seats``: as few
    tables as needed, filled evenly; tables numbered from 1 in each session, as each session
    uses the room's tables again). Returns the assignments (by session, table, seat) and the
    shuffled order, which the event log keeps."""
    players = list(players)
    if not sessions:
        raise engine.SeatingError("no_session", "at least one session is needed")
    if len(set(sessions)) != len(sessions):
        raise engine.SeatingError("duplicate_session", "a session is named twice")
    order = players[:]
    rng.shuffle(order)
    groups: dict[str, list[Hashable]] = {s: [] for s in sessions}
    for i, player in enumerate(order):
        groups[sessions[i % len(sessions)]].append(player)
    out: list[Assignment] = []
    for session in sessions:
        if not groups[session]:
            continue
        draw = engine.draw_seats(groups[session], capacity=capacity, rng=rng, max_players_per_table=max_players_per_table)
        out += sorted((Assignment(p, session, table, seat) for p, table, seat in draw.assignments), key=lambda a: (a.table, a.seat))
    return out, order
