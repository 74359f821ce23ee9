"""Breaking tables (SEAT-04, BAL-06) and the final table (BAL-09)."""

from __future__ import annotations

import heapq
import random
import secrets
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from tournaments import defaults as house_defaults

from .apart import _keep_apart, _partners
from .cards import _card_draw, _draw_button
from .data import BREAK, FINAL_TABLE, Move, R, SeatingError, Table, _free_seats, _playing_counts, _tables_by_number, _why
from .positions import _opened_table, _spread_seats, _waits_for_button


@dataclass(frozen=True, slots=True)
class BreakDraw:
    """A broken table's two-step draw (SEAT-04), with both permutations for the log."""

    broken_table: int
    moves: list[Move]
    seat_order: list[tuple[int, int]]  # step 1: the shuffled seat cards, (table, seat)
    card_order: list[tuple[Hashable, str]]  # step 2: players by their card, highest first
    apart_swaps: int = 0  # seat cards exchanged after the draw to keep pairs apart (SEAT-07)


@dataclass(frozen=True, slots=True)
class FinalTableDraw:
    """The final-table draw (BAL-09, SEAT-08): a fresh table with everybody re-drawn."""

    table: Table
    moves: list[Move]
    seat_order: list[tuple[int, int]]
    card_order: list[tuple[Hashable, str]]
    button_seat: int
    button_cards: list[tuple[int, str]]


def table_to_break(
    tables: Sequence[Table],
    *,
    break_order: Sequence[int] | None = None,
    final_table_size: int | None = None,
) -> int | None:
    """The table to break now, or None (BAL-06).

    A table breaks when the free seats at the other tables are at least its players
    (003 Art. 4.7(2): "equivale" is the first moment; "≥" also covers late registrations).
    Only the next table in the break order is considered. Default order: the table with
    the fewest players, ties the highest-numbered (003 Art. 4.10 closes the short table,
    "l'ultimo tavolo"); an explicit ``break_order`` is a published list of table numbers.
    Locked seats are not free; locked tables are never broken and receive nobody; empty
    tables are closed already. The last table is never broken. With
    ``final_table_size`` the last two tables are not merged by a break: the final table
    forms through :func:`plan_final_table` when :func:`final_table_due` (BAL-09).
    """
    if len(tables) < 2:
        return None
    capacities = [t.capacity for t in tables]
    free = [t.capacity - len(t.seats) for t in tables]
    if sum(free) < min(capacities):
        # The usual answer, from two quick passes. Breaking a table t needs the room's
        # usable free seats ≥ t's usable seats; counting every free seat, locked ones too,
        # adds at least t's locked empty seats, so it would reach t's capacity, which is
        # at least the smallest capacity.
        return None
    counts = [capacity - f for capacity, f in zip(capacities, free, strict=True)]
    receiving, counts, rooms, remaining, with_players = _playing_counts(tables, counts, capacities)
    if len(receiving) < 2:
        return None
    if final_table_size is not None and (remaining <= final_table_size or with_players <= 2):
        return None
    # The others' free seats ≥ this table's players  ⟺  all free seats ≥ this table's room
    # (its usable seats), so one sum answers for every table.
    free_total = sum(rooms) - sum(counts)
    if break_order:
        index = {t.number: i for i, t in enumerate(receiving)}
        for number in break_order:
            if number in index:
                return number if free_total >= rooms[index[number]] else None
    if free_total < min(rooms):
        return None  # no table could fit, whichever is next (the usual answer)
    fewest = min(counts)
    shortest = [i for i, count in enumerate(counts) if count == fewest]
    number, index = max((receiving[i].number, i) for i in shortest)
    return number if free_total >= rooms[index] else None


def draw_break(
    tables: Sequence[Table],
    number: int,
    rng: random.Random | None,
    *,
    apart: Iterable[tuple[Hashable, Hashable]] = (),
) -> BreakDraw:
    """Break table ``number`` with the two-step random process (SEAT-04, TDA 10).

    Step 1 shuffles the seat cards (the open seats chosen at the other tables, fewest
    players filled first so the result is as balanced as possible); step 2 deals each
    player of the broken table one card from a deck, and the highest card (suit order
    spades > hearts > diamonds > clubs, 000) takes the first seat card. Both orders are
    returned for the log. A player who lands between the button and the small blind waits
    for the button (SEAT-05); any other seat, blinds and button included, is dealt in.

    ``apart`` (SEAT-07): when a player's card would seat him with his partner, his seat
    card is exchanged with another mover's where that keeps both apart; the orders
    returned are the final ones (player ranked i takes seat card i) and ``apart_swaps``
    counts the exchanges.
    """
    rng = rng if rng is not None else secrets.SystemRandom()
    seat_cards = break_seat_cards(tables, number, rng)
    rng.shuffle(seat_cards)  # step 1
    broken = _tables_by_number(tables)[number]
    ranked = _card_draw(broken.players(), rng)  # step 2
    swaps = 0
    if apart:
        fixed = {t.number: set(t.seats.values()) for t in tables if t.number != number}
        slots, swaps = _keep_apart([p for p, _ in ranked], [t for t, _ in seat_cards], fixed, _partners(apart), rng)
        seat_cards = [seat_cards[i] for i in slots]
    moves = break_moves(tables, number, ranked, seat_cards)
    return BreakDraw(number, moves, seat_cards, [(p, c) for p, c in ranked], swaps)


def break_seat_cards(tables: Sequence[Table], number: int, rng: random.Random | None) -> list[tuple[int, int]]:
    """Step 1's seat cards of a break (SEAT-04), in table and seat order: the receiving
    tables filled fewest first, the seats used drawn at random among their open seats. A
    manual draw prints these cards; :func:`draw_break` shuffles them."""
    rng = rng if rng is not None else secrets.SystemRandom()
    numbers = [t.number for t in tables]
    if number not in numbers:
        raise SeatingError("unknown_table", f"table {number} does not exist")
    broken = tables[numbers.index(number)]
    taken = _fill_fewest_first(tables, numbers, number, len(broken.seats))
    seat_cards: list[tuple[int, int]] = []
    for to_table in sorted(taken):
        table, count = taken[to_table]
        seat_cards.extend((to_table, s) for s in sorted(rng.sample(table.open_seats(), count)))
    return seat_cards


def break_moves(
    tables: Sequence[Table],
    number: int,
    ranked: Sequence[tuple[Hashable, str]],
    seat_cards: Sequence[tuple[int, int]],
) -> list[Move]:
    """The moves of a break once both steps are known: the player ranked i by his card
    takes seat card i (electronic or entered by the floor from a manual draw)."""
    by_table = _tables_by_number(tables)
    broken = by_table[number]
    seat_of = {player: seat for seat, player in broken.seats.items()}
    if len(ranked) != len(seat_cards) or set(seat_of) != {p for p, _ in ranked}:
        raise SeatingError("bad_break_draw", "every player of the broken table needs one seat card")
    if len(set(seat_cards)) != len(seat_cards):
        raise SeatingError("bad_break_draw", "a seat card is used twice")
    players_after: dict[int, int] = {}
    for to_table, to_seat in seat_cards:
        table = by_table.get(to_table)
        if table is None or to_table == number:
            raise SeatingError("unknown_table", f"table {to_table} cannot receive players")
        if to_seat in table.seats or not 1 <= to_seat <= table.capacity:
            raise SeatingError("seat_taken", f"seat {to_seat} at table {to_table} is not open")
        players_after[to_table] = players_after.get(to_table, len(table.seats)) + 1
    moves = []
    for i, ((player, card), (to_table, to_seat)) in enumerate(zip(ranked, seat_cards, strict=True), 1):
        wait = _waits_for_button(by_table[to_table], to_seat, players_after[to_table])
        reason = _why(
            R.BREAK_DRAW,
            *((_why(R.WAIT_FOR_BUTTON),) if wait else ()),
            table=number,
            card=card,
            rank=i,
            of=len(ranked),
            to_table=to_table,
            to_seat=to_seat,
        )
        moves.append(
            Move(
                player,
                number,
                seat_of[player],
                to_table,
                to_seat,
                reason,
                wait,
                BREAK,
                False,
                card,
            )
        )
    return moves


def plan_break(tables: Sequence[Table], number: int, rng: random.Random | None) -> list[Move]:
    """The moves of :func:`draw_break`."""
    return draw_break(tables, number, rng).moves


def final_table_size(table_capacity: int) -> int:
    """Default final-table size (BAL-09, RP-9 EN): 9 for 8-max and larger events, 7 for 6/7-max.

    The house rule lives in ``tournaments.defaults`` (pure), which the tournament's house rules
    object uses too, so seating and payouts agree on one number.
    """
    return house_defaults.final_table_size(table_capacity)


default_final_table_size = final_table_size


def final_table_due(tables: Sequence[Table], final_table_size: int) -> bool:
    """True when the remaining players, spread over two or more tables, fit the final table.

    BAL-09: combine on the bust that leaves ``final_table_size`` players ("≤" also covers
    two players busting on one hand).
    """
    remaining = with_players = 0
    for t in tables:
        if t.seats:
            remaining += len(t.seats)
            if remaining > final_table_size:
                return False  # usually after the first two tables
            with_players += 1
    return with_players > 1


def plan_final_table(
    tables: Sequence[Table],
    rng: random.Random | None,
    *,
    final_table_number: int | None = None,
    capacity: int | None = None,
) -> FinalTableDraw:
    """Draw every remaining player into the final table, then draw its button (BAL-09).

    A fresh two-step draw for everybody (003 Art. 4.2.2), including players who keep their
    table number, so every player gets a move slip; then one card per seat for the button.
    """
    rng = rng if rng is not None else secrets.SystemRandom()
    seated = [(t.number, seat, t.seats[seat]) for t in sorted(tables, key=lambda t: t.number) for seat in sorted(t.seats)]
    if not seated:
        raise SeatingError("no_players", "no players left to seat at the final table")
    number = final_table_number if final_table_number is not None else min(t.number for t in tables if t.seats)
    size = capacity if capacity is not None else max(max(t.capacity for t in tables), len(seated))
    if len(seated) > size:
        raise SeatingError("too_many_players", f"{len(seated)} players do not fit {size} seats")
    seat_cards = [(number, s) for s in _spread_seats(len(seated), size)]
    rng.shuffle(seat_cards)
    ranked = _card_draw([player for _, _, player in seated], rng)
    origin = {player: (t, s) for t, s, player in seated}
    moves = []
    seats: dict[int, Hashable] = {}
    for i, ((player, card), (_, to_seat)) in enumerate(zip(ranked, seat_cards, strict=True), 1):
        from_table, from_seat = origin[player]
        seats[to_seat] = player
        reason = _why(R.FINAL_TABLE_DRAW, card=card, rank=i, of=len(ranked), to_table=number, to_seat=to_seat)
        moves.append(
            Move(
                player,
                from_table,
                from_seat,
                number,
                to_seat,
                reason,
                False,
                FINAL_TABLE,
                False,
                card,
            )
        )
    button, button_cards = _draw_button(seats, rng)
    table = _opened_table(number, size, seats, button)
    return FinalTableDraw(table, moves, seat_cards, [(p, c) for p, c in ranked], button, button_cards)


def _fill_fewest_first(tables: Sequence[Table], numbers: list[int], breaking: int, players: int) -> dict[int, tuple[Table, int]]:
    """How many of the broken table's players each receiving table takes.

    ``numbers`` are the tables' numbers in order. Returns table number → (table, players
    it takes).

    One at a time to the table with the fewest players (ties: lowest number), so the
    tables end as balanced as the open seats allow. Only the ``players`` shortest tables
    with an open seat can receive anyone, so the others are never looked at again (a break
    stays cheap with a thousand tables in play).
    """
    # Table indexes in (players, number) order: two stable sorts of plain int lists.
    counts = [len(t.seats) for t in tables]
    order = sorted(range(len(tables)), key=numbers.__getitem__)
    order.sort(key=counts.__getitem__)
    shortest: list[Table] = []
    for i in order:
        t = tables[i]
        if t.seats and not t.locked and t.number != breaking and _free_seats(t) > 0:
            shortest.append(t)
            if len(shortest) == players:
                break
    free = {t.number: _free_seats(t) for t in shortest}
    table_of = {t.number: t for t in shortest}
    heap = [(len(t.seats), t.number) for t in shortest]
    heapq.heapify(heap)
    taken: dict[int, int] = {}
    for _ in range(players):
        if not heap:
            raise SeatingError("not_enough_seats", "the other tables do not have enough open seats")
        count, number = heapq.heappop(heap)
        taken[number] = taken.get(number, 0) + 1
        if taken[number] < free[number]:
            heapq.heappush(heap, (count + 1, number))
    return {number: (table_of[number], k) for number, k in taken.items()}


def next_table_to_break(tables: Sequence[Table], break_order: Sequence[int] | None = None) -> int | None:
    """The table that breaks next (due or not): explicit order first, else the default."""
    playing = [t for t in tables if t.seats and not t.locked]
    if len(playing) < 2:
        return None
    numbers = {t.number for t in playing}
    for number in break_order or ():
        if number in numbers:
            return number
    return min(playing, key=lambda t: (len(t.seats), -t.number)).number
