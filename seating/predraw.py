"""SEAT-02 (004): registrants drawn in advance into sessions and tables. Pure Python.

004's «I tavoli verranno precedentemente estratti a sorte ed organizzati dallo staff
organizzatore per facilitare l'invio del programma incontri agli iscritti ed ottenere una
equilibrata distribuzione dei partecipanti»: before the event the staff draws every registrant
into one of the sessions (evenings, or Day 1A / 1B flights) and a table, so each can be told
when and where he plays, and the sessions are evenly filled.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import NamedTuple

from . import engine
from .engine.apart import _keep_apart, _partners
from .engine.positions import _spread_seats


class Assignment(NamedTuple):
    player: Hashable
    session: str
    table: int
    seat: int


def predraw(
    players: Sequence[Hashable],
    sessions: Sequence[str],
    *,
    capacity: int,
    rng: random.Random,
    max_players_per_table: int | None = None,
    table_numbers: Sequence[int] | None = None,
) -> tuple[list[Assignment], list[Hashable]]:
    """Draw ``players`` into ``sessions`` and, within each session, into tables and seats.

    The players are shuffled, then dealt round the sessions in the order given (the first
    shuffled player to the first session, the second to the second, …), so the sessions differ
    by at most one player and which player lands where is the shuffle's alone. Each session's
    players are then drawn into seats as the initial draw does (``engine.draw_seats``: as few
    tables as needed, filled evenly; each session uses the same tables again: ``table_numbers``,
    the room's tables kept for the event, else numbered from 1). Returns the assignments (by session, table, seat) and the
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
        draw = engine.draw_seats(groups[session], capacity=capacity, rng=rng, table_numbers=table_numbers, max_players_per_table=max_players_per_table)
        out += sorted((Assignment(p, session, table, seat) for p, table, seat in draw.assignments), key=lambda a: (a.table, a.seat))
    return out, order


class StartDraw(NamedTuple):
    """The start of a tournament drawn in advance (SEAT-02): who sits where the pre-draw put
    him, who was seated by hand, who was drawn into the free seats, and each table's button."""

    tables: list  # engine tables, opened with their buttons
    kept: list[tuple[Hashable, int, int]]  # (player, table, seat) as drawn in advance
    reserved: list[tuple[Hashable, int, int]]  # SEAT-07: seats given by hand, honoured
    assignments: list[tuple[Hashable, int, int]]  # the others, drawn into the free seats (in the order given)
    not_kept: list[tuple[Hashable, str]]  # drawn in advance but drawn again, and why (NOT_KEPT)
    buttons: dict[int, int]
    button_cards: dict[int, list[tuple[int, str]]]
    apart_swaps: int = 0


#: Why a player drawn in advance is drawn again at the start.
NOT_KEPT = (
    "table_not_needed",  # refunds since left fewer players than its tables need: the shortest is not opened
    "seat_given_by_hand",  # SEAT-07: the director gave that seat to another player by hand
    "no_such_seat",  # the tables have fewer seats now
)


def seat_as_predrawn(
    players: Sequence[Hashable],
    predrawn: dict[Hashable, tuple[int, int]],
    *,
    capacity: int,
    rng: random.Random,
    max_players_per_table: int | None = None,
    reserved: dict[Hashable, tuple[int, int]] | None = None,
    held: Iterable[tuple[int, int]] = (),
    apart: Iterable[tuple[Hashable, Hashable]] = (),
) -> StartDraw:
    """Seat ``players`` (entries by number) at the start when the first session was drawn in
    advance: each player of ``predrawn`` sits at the table and seat he was told (his schedule),
    so the start never contradicts it, except where the room no longer allows it.

    The start opens as many tables as the initial draw would, ceil(n / max per table): when
    refunds since the pre-draw need fewer tables than it drew, its tables with the fewest of
    its players here (ties: the highest number, the default break order) are not opened and
    their players are drawn again. A seat given by hand (SEAT-07, ``reserved``) at a table that
    opens comes first, for its own player and over the pre-draw of another (who is then drawn
    again); so is a pre-drawn seat the table no longer has. Everybody else (registered after
    the pre-draw, of a later session, drawn again) is drawn into the free seats as the initial
    draw does: new tables take the lowest free numbers; the tickets go one at a time to the
    table with the fewest players (ties: the lowest number), at random among its free seats,
    the ``held`` seats (pre-drawn for a player not paid yet) last; the tickets are shuffled and
    player i (in the order given) takes ticket i; ``apart`` pairs exchange tickets as in the
    initial draw. Every table's button is then drawn (SEAT-08)."""
    players = list(players)
    if len(set(players)) != len(players):
        raise engine.SeatingError("duplicate_player", "a player is in the draw twice")
    per_table = max_players_per_table if max_players_per_table is not None else capacity
    if not 1 <= per_table <= capacity:
        raise engine.SeatingError("bad_capacity", "max_players_per_table must be in 1..capacity")
    need = math.ceil(len(players) / per_table)
    here = Counter(predrawn[p][0] for p in players if p in predrawn)
    opened = set(sorted(here, key=lambda n: (-here[n], n))[:need])
    fixed: dict[Hashable, tuple[int, int]] = {}
    taken: set[tuple[int, int]] = set()
    by_hand = []
    reserved = reserved or {}
    for p in players:
        if p not in reserved:
            continue
        table, seat = reserved[p]
        if table in opened and 1 <= seat <= capacity and (table, seat) not in taken:
            fixed[p] = (table, seat)
            taken.add((table, seat))
            by_hand.append((p, table, seat))
    kept, not_kept = [], []
    for p in players:
        if p not in predrawn or p in fixed:
            continue
        table, seat = predrawn[p]
        if table not in opened:
            not_kept.append((p, "table_not_needed"))
        elif (table, seat) in taken:
            not_kept.append((p, "seat_given_by_hand"))
        elif not 1 <= seat <= capacity:
            not_kept.append((p, "no_such_seat"))
        else:
            fixed[p] = (table, seat)
            taken.add((table, seat))
            kept.append((p, table, seat))
    drawn = [p for p in players if p not in fixed]
    count = Counter({n: 0 for n in opened})
    count.update(table for table, _s in taken)
    numbers = sorted(count)

    def open_table():
        number = next(n for n in range(1, len(numbers) + 2) if n not in count)
        count[number] = 0
        numbers.append(number)

    while len(numbers) < need:
        open_table()
    new = Counter()
    for _ in drawn:
        room = [n for n in numbers if count[n] < per_table]
        if not room:
            open_table()
            room = [numbers[-1]]
        number = min(room, key=lambda n: (count[n], n))
        count[number] += 1
        new[number] += 1
    held = set(held)
    tickets = []
    for number in sorted(new):
        if number not in opened:  # a table the pre-draw did not use: seats spread as in the initial draw
            tickets += [(number, s) for s in _spread_seats(new[number], capacity)]
            continue
        free = [s for s in range(1, capacity + 1) if (number, s) not in taken]
        clear = [s for s in free if (number, s) not in held]
        rest = [s for s in free if (number, s) in held]
        rng.shuffle(clear)
        rng.shuffle(rest)
        tickets += [(number, s) for s in (clear + rest)[: new[number]]]
    rng.shuffle(tickets)
    swaps = 0
    if apart:
        at: dict[int, set] = {}
        for p, (table, _s) in fixed.items():
            at.setdefault(table, set()).add(p)
        slots, swaps = _keep_apart(drawn, [table for table, _s in tickets], at, _partners(apart), rng)
        tickets = [tickets[i] for i in slots]
    assignments = [(p, table, seat) for p, (table, seat) in zip(drawn, tickets, strict=True)]
    placed = [(p, table, seat) for p, (table, seat) in fixed.items()] + assignments
    draw = engine.seat_tables(placed, capacity=capacity, rng=rng, order=sorted({table for _p, table, _s in placed}))
    return StartDraw(draw.tables, kept, by_hand, assignments, not_kept, draw.buttons, draw.button_cards, swaps)
