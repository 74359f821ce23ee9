"""The engine's plain data: the settings it accepts, the reasons it gives, its refusal, tables and moves."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum

# Settings (RULES.md [CONFIG] points), first value = default.
# STUD_POSITION: a stud-only event (FMT-16), whose players move by position (TDA 11-A); the
# house rules choose it from the tournament's game, never as a setting of its own.
MOVER_RULES = ("NEXT_BB", "CURRENT_BB", "BUTTON_CASH", "STUD_POSITION")


DEST_RULES = ("WORST_POSITION", "NEAREST_BB", "SAME_RELATIVE_POSITION")


TIE_BREAKS = ("TABLE_ORDER", "RANDOM_DRAW")


VACATED_BB_SEAT_MODES = ("EXCLUDED", "SINGLE_BB")


# Move kinds, for the event log and the move slips.
BALANCE = "BALANCE"


BREAK = "BREAK"


FINAL_TABLE = "FINAL_TABLE"


class ReasonCode(StrEnum):
    """Why the engine chose a player or a seat, as a code (BAL-08: every slip says why).

    The engine writes no sentences: a :class:`Reason` carries these codes and their
    parameters, and the seating app's labels (``seating/labels.py``) turn them into text in
    the reader's language when a page, a slip or the API shows them. The parameters each
    code carries are listed beside it.
    """

    # balancing (BAL-03): who moves
    MOVER_BB_UNKNOWN = "MOVER_BB_UNKNOWN"  # table, seat
    MOVER_NEXT_BB = "MOVER_NEXT_BB"  # table, seat
    MOVER_CURRENT_BB = "MOVER_CURRENT_BB"  # table, seat
    MOVER_CURRENT_BB_LEFT = "MOVER_CURRENT_BB_LEFT"  # table, left_seat, seat
    MOVER_BUTTON = "MOVER_BUTTON"  # table, seat
    MOVER_DEAD_BUTTON = "MOVER_DEAD_BUTTON"  # table, button, seat
    MOVER_FIXED_SEAT = "MOVER_FIXED_SEAT"  # fixed_seat, seat (SEAT-07: the next player clockwise)
    MOVER_STUD_POSITION = "MOVER_STUD_POSITION"  # table, seat, to_seat (stud: by position, TDA 11-A)
    # balancing (BAL-04): where to
    DEST_BB_UNKNOWN = "DEST_BB_UNKNOWN"  # table, seat
    DEST_ONLY_VACATED_BB = "DEST_ONLY_VACATED_BB"  # table, seat
    DEST_VACATED_BB = "DEST_VACATED_BB"  # table, seat (single big blind)
    DEST_BB_NEXT_HAND = "DEST_BB_NEXT_HAND"  # table, seat
    DEST_BB_IN_HANDS = "DEST_BB_IN_HANDS"  # table, seat, hands
    DEST_NEAREST_BB = "DEST_NEAREST_BB"  # seat (the coming big blind's)
    DEST_SAME_POSITION = "DEST_SAME_POSITION"  # hands
    DEST_WAITS_FOR_BUTTON = "DEST_WAITS_FOR_BUTTON"
    DEST_STUD_LAST_OPEN = "DEST_STUD_LAST_OPEN"  # table, seat (stud: the last open seat is filled)
    BALANCE_COUNTS = "BALANCE_COUNTS"  # from_table, from_players, to_table, to_players
    # breaks and the final table (SEAT-04, BAL-09)
    BREAK_DRAW = "BREAK_DRAW"  # table, card, rank, of, to_table, to_seat
    FINAL_TABLE_DRAW = "FINAL_TABLE_DRAW"  # card, rank, of, to_table, to_seat
    WAIT_FOR_BUTTON = "WAIT_FOR_BUTTON"  # SEAT-05
    # late seats (SEAT-03)
    LATE_SEAT_POOL = "LATE_SEAT_POOL"  # open_seats, players, table, seat
    LATE_NEW_TABLE = "LATE_NEW_TABLE"  # table, capacity, seat
    BUTTON_UNKNOWN = "BUTTON_UNKNOWN"  # confirm the button before the player is dealt in
    SEAT_RESERVED = "SEAT_RESERVED"  # table, seat (SEAT-07: a seat given by hand, not drawn)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why, as codes: the first clause (``code`` with ``params``), then further ``notes``.

    A slip reads the clauses in order ("next big blind at table 1 (seat 4); seat 9 at table
    2 posts the big blind next hand (balancing: ...)"). ``args`` holds the parameters as
    (name, value) pairs so a reason is hashable like the moves that carry it; values are
    ints and short strings (a card). :meth:`as_dict` / :meth:`from_dict` give the JSON the
    services store.
    """

    code: str
    args: tuple[tuple[str, int | str], ...] = ()
    notes: tuple[Reason, ...] = ()

    @property
    def params(self) -> dict[str, int | str]:
        return dict(self.args)

    def clauses(self) -> list[Reason]:
        """Every clause, the first one included, in reading order (notes have no notes)."""
        return [Reason(self.code, self.args), *self.notes]

    def as_dict(self) -> dict:
        out: dict = {"code": str(self.code), "params": dict(self.args)}
        if self.notes:
            out["notes"] = [{"code": str(n.code), "params": dict(n.args)} for n in self.notes]
        return out

    @classmethod
    def from_dict(cls, data) -> Reason | None:
        """The reason a stored dict describes (None if it is not one)."""
        if not isinstance(data, dict) or not isinstance(data.get("code"), str):
            return None
        notes = tuple(n for n in (cls.from_dict(d) for d in data.get("notes") or ()) if n is not None)
        params = data.get("params") if isinstance(data.get("params"), dict) else {}
        return cls(data["code"], tuple(params.items()), notes)


def _why(code: ReasonCode, *notes: Reason, **params: int | str) -> Reason:
    return Reason(code, tuple(params.items()), notes)


R = ReasonCode


class SeatingError(ValueError):
    """A seating request the engine refuses; ``code`` is machine-readable for the API."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(slots=True)
class Table:
    """One table: who sits where, and where the big blind was (POS-01).

    ``seats`` holds occupied seats only (seat number → player id). A ``locked`` table (a TV
    table, a table being repaired) neither gives nor receives players; ``locked_seats`` are
    empty seats that are never offered. ``big_blind_twice`` means the player now in
    ``big_blind_seat`` arrived there by a single-big-blind move and posts the big blind
    alone on the next hand (BAL-04 ``SINGLE_BB``).
    """

    number: int
    capacity: int
    seats: dict[int, Hashable]
    big_blind_seat: int | None = None
    previous_big_blind_seat: int | None = None
    locked_seats: frozenset[int] = frozenset()
    locked: bool = False
    big_blind_twice: bool = False

    def __post_init__(self) -> None:
        if self.capacity < 1:
            raise SeatingError("bad_capacity", f"table {self.number}: capacity must be positive")
        if self.seats and (min(self.seats) < 1 or max(self.seats) > self.capacity):
            raise SeatingError("bad_seat", f"table {self.number}: a seat is not in 1..{self.capacity}")
        if len(set(self.seats.values())) != len(self.seats):
            raise SeatingError("duplicate_player", f"table {self.number}: a player sits twice")
        if not isinstance(self.locked_seats, frozenset):
            self.locked_seats = frozenset(self.locked_seats)

    @property
    def player_count(self) -> int:
        return len(self.seats)

    @property
    def free_seat_count(self) -> int:
        """Open seats that may be offered (locked seats do not count)."""
        return _free_seats(self)

    @property
    def is_full(self) -> bool:
        return _free_seats(self) == 0

    def open_seats(self) -> list[int]:
        """Empty, unlocked seats in seat order."""
        seats, locked = self.seats, self.locked_seats
        return [s for s in range(1, self.capacity + 1) if s not in seats and s not in locked]

    def occupied_seats(self) -> list[int]:
        return sorted(self.seats)

    def players(self) -> list[Hashable]:
        """Players in seat order."""
        return [self.seats[s] for s in sorted(self.seats)]

    def seat_of(self, player: Hashable) -> int | None:
        for seat, who in self.seats.items():
            if who == player:
                return seat
        return None


@dataclass(frozen=True, slots=True)
class Move:
    """One player's move slip: from table/seat to table/seat, and why (BAL-08)."""

    player: Hashable
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: Reason | str  # the engine's own moves carry a Reason; a move by hand, the words typed
    wait_for_button: bool = False  # SEAT-05: not dealt in until the button passes him
    kind: str = BALANCE
    single_big_blind: bool = False  # BAL-04 SINGLE_BB: posts the big blind alone next hand
    card: str | None = None  # the card he drew (breaks and the final table)


def _check_setting(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise SeatingError("unknown_setting", f"{name} must be one of {', '.join(allowed)}, not {value!r}")


def _free_seats(table: Table) -> int:
    """Open seats that may be offered: capacity − players − empty locked seats."""
    free = table.capacity - len(table.seats)
    if table.locked_seats:
        free -= sum(1 for s in table.locked_seats if s not in table.seats)
    return free


def _copy(table: Table, **changes) -> Table:
    """A new table with its own seat map (``dataclasses.replace``, but a lot faster:
    it runs after every bust, for every table whose hand is completed)."""
    copy = Table(
        table.number,
        table.capacity,
        dict(table.seats),
        table.big_blind_seat,
        table.previous_big_blind_seat,
        table.locked_seats,
        table.locked,
        table.big_blind_twice,
    )
    for name, value in changes.items():
        setattr(copy, name, value)
    return copy


def _tables_by_number(tables: Sequence[Table]) -> dict[int, Table]:
    by_number = {t.number: t for t in tables}
    if len(by_number) != len(tables):
        raise SeatingError("duplicate_table", "a table number appears twice")
    return by_number


def _playing_counts(
    tables: Sequence[Table],
    counts: list[int] | None = None,
    capacities: list[int] | None = None,
) -> tuple[list[Table], list[int], list[int], int, int]:
    """The tables that play, give and receive players (unlocked, not empty), in one go.

    Returns (those tables, their players, their rooms = usable seats, players remaining
    at all tables, tables with players). ``counts`` and ``capacities`` of all tables may be
    passed in when the caller has them already. It runs after busts on a room of a
    thousand tables, so the common case (nothing locked, no empty table) is one quick pass.
    """
    counts = counts if counts is not None else [len(t.seats) for t in tables]
    if 0 not in counts and not [t for t in tables if t.locked or t.locked_seats]:
        if capacities is None:
            capacities = [t.capacity for t in tables]
        return list(tables), counts, capacities, sum(counts), len(counts)
    playing = [t for t in tables if t.seats and not t.locked]
    playing_counts = [len(t.seats) for t in playing]
    rooms = [_free_seats(t) + len(t.seats) for t in playing]
    return playing, playing_counts, rooms, sum(counts), len(counts) - counts.count(0)


class _Workbench:
    """Copy-on-write working tables: a plan changes copies, never the caller's tables."""

    def __init__(self, tables: Sequence[Table]):
        self.tables = list(tables)
        numbers = [t.number for t in self.tables]
        self.positions = dict(zip(numbers, range(len(numbers)), strict=True))  # number → index
        if len(self.positions) != len(numbers):
            raise SeatingError("duplicate_table", "a table number appears twice")
        self.copies: dict[int, Table] = {}

    def _index(self, number: int) -> int:
        try:
            return self.positions[number]
        except KeyError:
            raise SeatingError("unknown_table", f"table {number} does not exist") from None

    def table(self, number: int) -> Table:
        copy = self.copies.get(number)
        return copy if copy is not None else self.tables[self._index(number)]

    def writable(self, number: int) -> Table:
        copy = self.copies.get(number)
        if copy is None:
            copy = _copy(self.tables[self._index(number)])
            self.copies[number] = copy
        return copy

    def take_out(self, player: Hashable, number: int, seat: int) -> None:
        table = self.writable(number)
        if seat not in table.seats or table.seats[seat] != player:
            raise SeatingError("player_not_at_seat", f"{player} is not in seat {seat} at table {number}")
        del table.seats[seat]
        if table.big_blind_twice and seat == table.big_blind_seat:
            table.big_blind_twice = False

    def seat(self, player: Hashable, number: int, seat: int, single_big_blind: bool) -> None:
        table = self.writable(number)
        if not 1 <= seat <= table.capacity:
            raise SeatingError("bad_seat", f"table {number} has no seat {seat}")
        if seat in table.seats:
            raise SeatingError("seat_taken", f"seat {seat} at table {number} is taken")
        if seat in table.locked_seats:
            raise SeatingError("seat_locked", f"seat {seat} at table {number} is locked")
        table.seats[seat] = player
        if single_big_blind:
            table.big_blind_twice = True

    def move(self, move: Move) -> None:
        self.take_out(move.player, move.from_table, move.from_seat)
        self.seat(move.player, move.to_table, move.to_seat, move.single_big_blind)

    def result(self) -> list[Table]:
        """The tables in the caller's order, the changed ones replaced by their copies."""
        result = list(self.tables)
        for number, copy in self.copies.items():
            result[self._index(number)] = copy
        return result
