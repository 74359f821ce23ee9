"""Seat draws (SEAT-01..03): the initial draw, the seat pool, late entries."""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from .apart import _keep_apart, _partners
from .breaking import next_table_to_break
from .cards import _draw_button
from .data import R, Reason, SeatingError, Table, _free_seats, _tables_by_number, _why, _Workbench
from .positions import _opened_table, _spread_seats, _waits_for_button


@dataclass(frozen=True, slots=True)
class SeatDraw:
    """The initial random draw (SEAT-01) and the button draw of every table (SEAT-08)."""

    tables: list[Table]
    assignments: list[tuple[Hashable, int, int]]  # (player, table, seat)
    buttons: dict[int, int]  # table → button seat of its first hand
    button_cards: dict[int, list[tuple[int, str]]]  # table → (seat, card) of the button draw
    apart_swaps: int = 0  # tickets exchanged after the shuffle to keep pairs apart (SEAT-07)


@dataclass(frozen=True, slots=True)
class LateSeat:
    """A seat for a late registrant, alternate or re-entry (SEAT-03)."""

    player: Hashable
    table: int
    seat: int
    reason: Reason
    wait_for_button: bool = False
    opens_new_table: bool = False  # every table is full: the product creates this table
    capacity: int | None = None  # capacity of the new table, when one is opened

    @property
    def to_table(self) -> int:
        return self.table

    @property
    def to_seat(self) -> int:
        return self.seat


def draw_seats(
    players: Iterable[Hashable],
    *,
    capacity: int,
    rng: random.Random | None,
    table_numbers: Sequence[int] | None = None,
    max_players_per_table: int | None = None,
    apart: Iterable[tuple[Hashable, Hashable]] = (),
    reserved: dict[Hashable, tuple[int, int]] | None = None,
) -> SeatDraw:
    """The initial random seat draw (SEAT-01) and a button draw at every table (SEAT-08).

    Opens as few tables as needed, ceil(n / max per table), and fills them as evenly as
    possible (sizes differ by at most one, the extra players at the lowest-numbered tables).
    The seats used at a short table are spread evenly round it from seat 1. Seat tickets
    are shuffled and player i (in the order given) gets ticket i.

    SEAT-07: ``reserved`` players (special needs) sit where the director put them, outside
    the draw: their seats are taken out of the tickets (:func:`seat_layout`). ``apart``
    pairs: a player whose ticket seats him with his partner exchanges tickets with another
    player where that keeps both apart (``apart_swaps`` counts the exchanges); the
    assignments returned are the final ones.
    """
    rng = rng if rng is not None else secrets.SystemRandom()
    players = list(players)
    reserved = dict(reserved or {})
    if len(set(players)) != len(players):
        raise SeatingError("duplicate_player", "a player is in the draw twice")
    drawn = [p for p in players if p not in reserved]
    tickets = seat_layout(len(players), capacity=capacity, table_numbers=table_numbers, max_players_per_table=max_players_per_table, reserved=reserved.values())
    if not players:
        return SeatDraw([], [], {}, {})
    order = list(dict.fromkeys([t for t, _ in tickets] + [t for t, _ in reserved.values()]))
    rng.shuffle(tickets)
    swaps = 0
    if apart:
        fixed: dict[int, set] = {}
        for player, (number, _seat) in reserved.items():
            fixed.setdefault(number, set()).add(player)
        slots, swaps = _keep_apart(drawn, [t for t, _ in tickets], fixed, _partners(apart), rng)
        tickets = [tickets[i] for i in slots]
    assignments = [(p, t, s) for p, (t, s) in zip(drawn, tickets, strict=True)]
    placed = assignments + [(p, t, s) for p, (t, s) in reserved.items()]
    draw = seat_tables(placed, capacity=capacity, rng=rng, order=order)
    return SeatDraw(draw.tables, assignments, draw.buttons, draw.button_cards, swaps)


def seat_layout(
    players: int,
    *,
    capacity: int,
    table_numbers: Sequence[int] | None = None,
    max_players_per_table: int | None = None,
    reserved: Iterable[tuple[int, int]] = (),
) -> list[tuple[int, int]]:
    """The seat tickets of an initial draw (SEAT-01), in table and seat order, unshuffled.

    As few tables as needed, ceil(n / max per table), sizes within one of each other, the
    seats of a short table spread evenly from seat 1. ``reserved`` seats (SEAT-07, one per
    reserved player, counted in ``players``) are not tickets: a reserved seat replaces the
    ticket of its table it coincides with, or else that table's last ticket. A manual draw
    prints these tickets as seat cards.
    """
    per_table = max_players_per_table if max_players_per_table is not None else capacity
    if not 1 <= per_table <= capacity:
        raise SeatingError("bad_capacity", "max_players_per_table must be in 1..capacity")
    if players <= 0:
        return []
    count = math.ceil(players / per_table)
    numbers = list(table_numbers) if table_numbers is not None else list(range(1, count + 1))
    if len(numbers) < count or len(set(numbers[:count])) != count:
        raise SeatingError("bad_table_numbers", f"{count} distinct table numbers are needed")
    numbers = numbers[:count]
    base, extra = divmod(players, count)
    by_table = {number: _spread_seats(base + (1 if i < extra else 0), capacity) for i, number in enumerate(numbers)}
    reserved = list(reserved)
    if len(set(reserved)) != len(reserved):
        raise SeatingError("reserved_twice", "a seat is reserved twice")
    for number, seat in reserved:
        if number not in by_table or not 1 <= seat <= capacity:
            raise SeatingError("reserved_seat_missing", f"table {number}, seat {seat} is not in the draw")
    for number, seat in reserved:
        seats = by_table[number]
        if seat in seats:
            seats.remove(seat)
            continue
        free = [s for s in seats if (number, s) not in reserved]
        if not free:
            raise SeatingError("reserved_seat_missing", f"table {number} has no seat left for the reservations")
        seats.remove(free[-1])
    return [(number, seat) for number in numbers for seat in by_table[number]]


def seat_tables(
    placed: Iterable[tuple[Hashable, int, int]],
    *,
    capacity: int,
    rng: random.Random | None,
    order: Sequence[int] | None = None,
) -> SeatDraw:
    """Open the tables of a finished initial draw (players with their table and seat, drawn
    by the product or entered from a manual draw) and draw each table's button (SEAT-08)."""
    rng = rng if rng is not None else secrets.SystemRandom()
    placed = list(placed)
    seats_by_table: dict[int, dict[int, Hashable]] = {}
    for player, number, seat in placed:
        seats = seats_by_table.setdefault(number, {})
        if seat in seats or not 1 <= seat <= capacity:
            raise SeatingError("seat_taken", f"seat {seat} at table {number} is taken or does not exist")
        seats[seat] = player
    tables, buttons, button_cards = [], {}, {}
    for number in order if order is not None else sorted(seats_by_table):
        seats = dict(sorted(seats_by_table[number].items()))
        buttons[number], button_cards[number] = _draw_button(seats, rng)
        tables.append(_opened_table(number, capacity, seats, buttons[number]))
    return SeatDraw(tables, placed, buttons, button_cards)


#: SEAT-03: how the seat pool treats the table that breaks next (house rule ``seat_pool_next_break``).
NEXT_BREAK_EXCLUDED = "EXCLUDED"  # RULES SEAT-03's default: never in the pool while another table has an open seat
NEXT_BREAK_ON_TIE = "ON_TIE"  # left out only when another table has as few players
NEXT_BREAK_RULES = (NEXT_BREAK_EXCLUDED, NEXT_BREAK_ON_TIE)


def seat_pool(
    tables: Sequence[Table],
    *,
    exclude_tables: Iterable[int] = (),
    break_order: Sequence[int] | None = None,
    next_break: str = NEXT_BREAK_EXCLUDED,
) -> list[tuple[int, int]]:
    """Open seats for new entrants: at the tables with the fewest players (SEAT-03).

    Filling the shortest tables first means a new entrant does not create an imbalance among
    the tables that stay. The table next in the break order is left out (``EXCLUDED``, the
    RULES default) so nobody is seated at a table about to break; it is in the pool only when
    no other table has an open seat. ``ON_TIE`` leaves it out only when another table has as
    few players. Locked tables, locked seats and empty (closed) tables are never in the pool.
    Returns (table, seat) pairs in table and seat order.
    """
    if next_break not in NEXT_BREAK_RULES:
        raise SeatingError("unknown_setting", f"seat_pool_next_break must be one of {', '.join(NEXT_BREAK_RULES)}")
    excluded = set(exclude_tables)
    eligible = [t for t in tables if t.seats and not t.locked and t.number not in excluded and _free_seats(t) > 0]
    if not eligible:
        return []
    breaking = next_table_to_break(tables, break_order)
    if next_break == NEXT_BREAK_EXCLUDED:
        eligible = [t for t in eligible if t.number != breaking] or eligible
    fewest = min(len(t.seats) for t in eligible)
    pool_tables = [t for t in eligible if len(t.seats) == fewest]
    if len(pool_tables) > 1:
        pool_tables = [t for t in pool_tables if t.number != breaking] or pool_tables
    return [(t.number, s) for t in sorted(pool_tables, key=lambda t: t.number) for s in t.open_seats()]


def draw_late_seat(
    tables: Sequence[Table],
    player: Hashable,
    rng: random.Random | None,
    *,
    exclude_tables: Iterable[int] = (),
    capacity: int | None = None,
    new_table_number: int | None = None,
    break_order: Sequence[int] | None = None,
    apart: Iterable[tuple[Hashable, Hashable]] = (),
    next_break: str = NEXT_BREAK_EXCLUDED,
) -> LateSeat:
    """A random seat from the seat pool for a late registrant, alternate or re-entry.

    TDA 8-A: same pool, same random process, dealt in except between the small blind and
    the button; seats outside that gap are preferred, and a seat inside it is flagged
    ``wait_for_button``. If every table is full, the answer opens a new table (the
    product creates it): ``new_table_number`` or the highest number + 1, with ``capacity``
    (default: the largest existing capacity) and a random seat. ``next_break``: how the pool
    treats the table breaking next (:func:`seat_pool`). ``apart`` (SEAT-07): seats
    at a table where the player's partner sits are left out of the pool; when that empties
    it, any open seat at another playing table will do; only when none is open does he sit
    with his partner.
    """
    rng = rng if rng is not None else secrets.SystemRandom()
    if any(player in t.seats.values() for t in tables):
        raise SeatingError("already_seated", f"{player} already has a seat")
    pool = seat_pool(tables, exclude_tables=exclude_tables, break_order=break_order, next_break=next_break)
    if pool and apart:
        # SEAT-07: not at a partner's table: another seat of the pool, else an open seat at
        # another table (balancing evens it out later), else the pool as it is (flagged).
        partners = _partners(apart).get(player, set())
        clear = [(t.number, s) for t in tables if t.seats and not t.locked and not partners & set(t.seats.values()) for s in t.open_seats()]
        pool = [ts for ts in pool if ts in set(clear)] or clear or pool
    if pool:
        return _draw_from_pool(tables, player, pool, rng)
    size = capacity if capacity is not None else max((t.capacity for t in tables), default=None)
    if size is None:
        raise SeatingError("capacity_needed", "no table exists: give the capacity of the new table")
    numbers = {t.number for t in tables}
    number = new_table_number if new_table_number is not None else max(numbers, default=0) + 1
    if number in numbers:
        raise SeatingError("table_exists", f"table {number} already exists")
    seat = rng.randrange(1, size + 1)
    reason = _why(R.LATE_NEW_TABLE, table=number, capacity=size, seat=seat)
    return LateSeat(player, number, seat, reason, False, True, size)


def apply_late_seat(tables: Sequence[Table], late: LateSeat) -> list[Table]:
    """New tables with the late entrant seated (a new table is created when needed)."""
    if late.opens_new_table:
        return [*tables, Table(late.table, late.capacity, {late.seat: late.player})]
    bench = _Workbench(tables)
    bench.seat(late.player, late.table, late.seat, False)
    return bench.result()


def _draw_from_pool(tables: Sequence[Table], player: Hashable, pool: list[tuple[int, int]], rng: random.Random) -> LateSeat:
    by_number = _tables_by_number(tables)
    clear = [(t, s) for t, s in pool if not _waits_for_button(by_number[t], s, len(by_number[t].seats) + 1)]
    choices = clear or pool
    number, seat = rng.choice(choices)
    table = by_number[number]
    wait = not clear and _waits_for_button(table, seat, len(table.seats) + 1)
    notes = (_why(R.BUTTON_UNKNOWN),) if table.big_blind_seat is None else (_why(R.WAIT_FOR_BUTTON),) if wait else ()
    reason = _why(R.LATE_SEAT_POOL, *notes, open_seats=len(pool), players=len(table.seats), table=number, seat=seat)
    return LateSeat(player, number, seat, reason, wait)
