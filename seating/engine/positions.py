"""Positions at a table (POS-01): the next hand's button and blinds, hands until the big blind, seats spread at a new table."""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

from .data import Table, _copy


class Positions(NamedTuple):
    """Button, small-blind and big-blind seats of the next hand.

    ``button`` may be an empty seat (dead button); ``small_blind`` is None when the small
    blind is dead. All three are None when the big-blind position is unknown.
    """

    button: int | None
    small_blind: int | None
    big_blind: int | None


def next_hand_positions(table: Table) -> Positions:
    """Button, small blind and big blind of the next hand (POS-01, dead button, TDA 34).

    BB(h+1) is the first occupied seat clockwise after BB(h), so a busted player's blind is
    never skipped over twice; SB(h+1) is seat BB(h), dead when empty; the button is seat
    BB(h−1), dead when empty. Heads-up, the player who is not the big blind is button and
    small blind, and the big blind still moves on, so nobody posts it twice in a row.
    """
    bb = table.big_blind_seat
    seats = table.seats
    if bb is None or not seats:
        return Positions(None, None, None)
    stays = table.big_blind_twice and bb in seats
    big_blind = bb if stays else _occupied_after(seats, table.capacity, bb)
    if len(seats) == 1:
        return Positions(None, None, big_blind)
    if len(seats) == 2:
        other = next(s for s in seats if s != big_blind)
        return Positions(other, other, big_blind)
    small_blind = bb if (bb in seats and not stays) else None
    return Positions(_button_position(table), small_blind, big_blind)


def advance_hand(table: Table) -> Table:
    """The table after staff confirm "hand completed": the blinds move on (POS-01).

    After a single-big-blind hand the big blind stays on its seat and so does BB(h−1):
    the next hand has both blinds with the button where it was, as in 004 Art. 13.2
    case 2 (the button moves, then stays still once, then moves again).
    """
    bb = table.big_blind_seat
    if bb is None or not table.seats:
        return _copy(table)
    if table.big_blind_twice and bb in table.seats:
        return _copy(table, big_blind_twice=False)
    next_bb = _occupied_after(table.seats, table.capacity, bb)
    return _copy(table, big_blind_seat=next_bb, previous_big_blind_seat=bb, big_blind_twice=False)


def hands_until_big_blind(table: Table, seat: int) -> int | None:
    """Hands until a player in ``seat`` posts the big blind (BAL-04), None if unknown.

    1 + the occupied seats strictly between BB(h) and the seat, clockwise: each of them
    posts the big blind first. 1 is the "single big blind". For seat BB(h) itself the count
    goes all the way round (that seat is the next small blind).
    """
    bb = table.big_blind_seat
    if bb is None:
        return None
    between = _occupied_between(table.seats, table.capacity, bb, seat)
    if table.big_blind_twice and bb in table.seats:
        return 1 if seat == bb else 2 + between
    return 1 + between


def is_between_button_and_small_blind(table: Table, seat: int) -> bool:
    """True if a player placed in ``seat`` must wait for the button (SEAT-05).

    The gap runs strictly from the next hand's button seat BB(h−1) to its small-blind seat
    BB(h), clockwise, whether those seats are live or dead. A player there would get a hand
    without paying either blind this orbit. Heads-up there is no such gap. Unknown
    positions give False (the floor confirms the button first).
    """
    players_after = len(table.seats) + (0 if seat in table.seats else 1)
    return _waits_for_button(table, seat, players_after)


def _occupied_after(seats: dict[int, Hashable], capacity: int, seat: int) -> int | None:
    """First occupied seat clockwise strictly after ``seat`` (the seat itself after a lap)."""
    for step in range(1, capacity + 1):
        candidate = (seat + step - 1) % capacity + 1
        if candidate in seats:
            return candidate
    return None


def _occupied_before(seats: dict[int, Hashable], capacity: int, seat: int) -> int | None:
    """First occupied seat counter-clockwise strictly before ``seat``."""
    for step in range(1, capacity):
        candidate = (seat - step - 1) % capacity + 1
        if candidate in seats:
            return candidate
    return None


def _occupied_between(seats: dict[int, Hashable], capacity: int, start: int, end: int) -> int:
    """Occupied seats strictly between ``start`` and ``end`` clockwise (a full lap if equal)."""
    span = (end - start) % capacity or capacity
    return sum(1 for s in seats if 0 < (s - start) % capacity < span)


def _button_position(table: Table) -> int | None:
    """Button seat of the next hand: BB(h−1), or if unknown the occupied seat before BB(h)."""
    if table.previous_big_blind_seat is not None:
        return table.previous_big_blind_seat
    if table.big_blind_seat is None:
        return None
    return _occupied_before(table.seats, table.capacity, table.big_blind_seat)


def _waits_for_button(table: Table, seat: int, players_after: int) -> bool:
    """SEAT-05 for a seat at ``table`` once it holds ``players_after`` players."""
    bb = table.big_blind_seat
    if bb is None or players_after <= 2:
        return False
    button = _button_position(table)
    if button is None:
        return False
    capacity = table.capacity
    return 0 < (seat - button) % capacity < (bb - button) % capacity


def _opened_table(number: int, capacity: int, seats: dict[int, Hashable], button: int) -> Table:
    """A table about to play its first hand with ``button`` on the button.

    Stored as "one hand before": BB(h) = the first hand's small blind, BB(h−1) = the
    button, so :func:`next_hand_positions` gives the first hand. Heads-up the button is the
    small blind, so BB(h) is stored on the button.
    """
    if len(seats) <= 2:
        other = _occupied_after(seats, capacity, button)
        return Table(number, capacity, seats, big_blind_seat=button, previous_big_blind_seat=other)
    small_blind = _occupied_after(seats, capacity, button)
    return Table(number, capacity, seats, big_blind_seat=small_blind, previous_big_blind_seat=button)


def _spread_seats(players: int, capacity: int) -> list[int]:
    """Seats used by ``players`` at a ``capacity`` table, spread evenly from seat 1."""
    return [i * capacity // players + 1 for i in range(players)]


def _clockwise_from(table: Table, seat: int) -> list[int]:
    """The occupied seats clockwise after ``seat``: where balancing looks for the next mover when
    the player due to move sits in a seat given by hand (SEAT-07), and a stud table's move by position."""
    return [s for step in range(1, table.capacity) if (s := (seat + step - 1) % table.capacity + 1) in table.seats]
