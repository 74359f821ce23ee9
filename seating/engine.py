"""Seating engine: seat draws, positions, balancing, breaking, final table, finishing places.

RULES.md §3 (SEAT-01..09), §4 (POS-01, BAL-01..09) and §8 (ELM-01..07).

Pure Python, standard library only: the seating services lock the rows, call these
functions, write what they return and log it. Every function takes plain data and returns
new plain data; nothing here mutates its inputs.

Seats are numbered 1..capacity clockwise, so "clockwise after seat 9" at a 10-max table is
seat 10, then seat 1. A table stores two numbers about the blinds (POS-01):

- ``big_blind_seat`` = BB(h), the big-blind seat of the last completed hand;
- ``previous_big_blind_seat`` = BB(h−1), the big-blind seat of the hand before.

Everything about the next hand follows from them: BB(h+1) is the first occupied seat
clockwise after BB(h); the small blind is seat BB(h) (dead if it is empty); the button is
seat BB(h−1) (a dead button if it is empty). A table that has not played yet stores the
positions "one hand before its first hand": ``big_blind_seat`` = the small blind of the
first hand, ``previous_big_blind_seat`` = its button, so the same rule gives the first hand.

Tables with no players are treated as closed: they neither give nor receive players, are
never "due to break" and are not in the seat pool. A table opens through
:func:`draw_late_seat` (``opens_new_table``) or a draw.

Choices where RULES.md leaves freedom (each one is also stated where it is made):

- Balancing ties (BAL-05, ``TABLE_ORDER``): the source is the highest-numbered of the
  fullest tables and the destination the lowest-numbered of the shortest ones, because the
  default break order breaks the highest-numbered short table first: players leave the
  tables that break soonest and go to the tables that last longest. ``RANDOM_DRAW`` draws
  among the tied tables with the rng.
- Unknown big blind (``big_blind_seat`` is None): the mover is the player in the highest
  occupied seat, and the destination seat is drawn at random (rng) among the open seats;
  the move's reason says so, and the floor must confirm the button before he is dealt in.
  An unknown BB(h−1) is taken as the occupied seat just before BB(h) (the normal case
  with no dead blinds).
- ``CURRENT_BB`` when the big blind of the last hand has left (busted or already moved):
  the next big blind moves instead (004 Art. 16.2, "the future blinds").
- ``BUTTON_CASH`` moves the button of the coming hand; with a dead button, the player just
  before it, who acts last in that hand.
- ``WORST_POSITION``: the open seat with the fewest hands until the big blind; ties go to
  the seat first clockwise from BB(h). Under ``SINGLE_BB`` the seat the big blind just left
  is offered with "1 hand", but an ordinary single-big-blind seat wins a tie with it (no
  big blind twice when it is not needed). Under ``EXCLUDED`` that seat is used only when it
  is the only open seat, and then as a single big blind, never as a small blind.
- A single-big-blind move into the seat the big blind just left marks the table
  ``big_blind_twice``: the next hand has that seat as big blind, no small blind and the
  button on BB(h−1); then the button stays still once, as in 004 Art. 13.2 case 2.
- ``NEAREST_BB`` (003 Art. 4.9): the open seat physically nearest the coming hand's big
  blind (either side), then the one that posts the big blind sooner; never the small blind.
- ``SAME_RELATIVE_POSITION`` (004 Art. 8.2): the open seat whose hands-until-big-blind is
  closest to the mover's at his old table, then the sooner one; never the small blind.
- Breaking (SEAT-04): the receiving tables are filled one player at a time, always the
  table with the fewest players (ties: lowest number), so the result is as balanced as the
  seats allow; at each receiving table the seats used are drawn at random among its open
  seats. Seat cards are then shuffled (step 1) and each player is dealt a card from one
  deck; the highest card (suit order spades > hearts > diamonds > clubs) takes the first
  seat card (step 2).
- Breaking order (BAL-06): by default the table with the fewest players, ties the
  highest-numbered. The order is strict: only the next table in it is considered, and it
  breaks when its players fit. An explicit ``break_order`` names tables; its first
  existing, unlocked, non-empty table is the next one; when the list is used up the
  default order applies. Locked tables are never broken.
- Initial draw (SEAT-01): the extra players go to the lowest-numbered tables; a table of m
  players at a c-seat table uses seats ``i*c//m + 1`` (i = 0..m−1), i.e. spread evenly from
  seat 1 (5 players at 10-max: seats 1, 3, 5, 7, 9), so the floor knows which seat cards to
  put in the draw. The button of each table is a high-card draw (SEAT-08).
- Final table (BAL-09): default size 9 for 8- to 10-max events (RP-9 EN; 10-max is not
  in RP-9), 7 for 6/7-max; ``table_to_break(final_table_size=...)`` never merges the last
  two tables, so they stay balanced (5/5) until :func:`final_table_due`. Default number:
  the lowest table number still playing; default capacity: the largest table capacity (or
  more if more players remain); seats spread as in the initial draw; all players re-drawn
  with the two-step process; button by high card.
- Seat pool (SEAT-03): open seats at the tables with the fewest players; the table next in
  the break order is left out only when another table ties with it (otherwise the new
  player would create an imbalance); seats between the button and the small blind are
  drawn only when the pool has no other seat.
- Finishing places (ELM): busts in one hand-for-hand hand form one group (``h4h_policy``);
  busts with the same ``hand_group`` at one table form one group ranked by starting stack;
  equal or unknown starting stacks share. Groups whose ``order`` is equal cannot be ordered
  (ELM-03) and share. A shared group occupying places k..k+m−1 is recorded as place k with
  ``shared_with`` = m (ELM-06: "k (shared)").
"""

from __future__ import annotations

import heapq
import itertools
import math
import random
import secrets
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import NamedTuple

from tournaments import defaults as house_defaults

# Settings (RULES.md [CONFIG] points), first value = default.
# STUD_POSITION: a stud-only event (FMT-16), whose players move by position (TDA 11-A); the
# house rules choose it from the tournament's game, never as a setting of its own.
MOVER_RULES = ("NEXT_BB", "CURRENT_BB", "BUTTON_CASH", "STUD_POSITION")
DEST_RULES = ("WORST_POSITION", "NEAREST_BB", "SAME_RELATIVE_POSITION")
TIE_BREAKS = ("TABLE_ORDER", "RANDOM_DRAW")
VACATED_BB_SEAT_MODES = ("EXCLUDED", "SINGLE_BB")
H4H_POLICIES = ("SHARE", "RANK_BY_STARTING_STACK")

# Move kinds, for the event log and the move slips.
BALANCE = "BALANCE"
BREAK = "BREAK"
FINAL_TABLE = "FINAL_TABLE"

HALT_SHORT_BY = 3  # BAL-02: play halts 3 or more players short of the fullest table

# Cards for the simulated draws: rank 2..14 (ace high), suit 3 = spades .. 0 = clubs.
RANK_LABELS = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
SUIT_SYMBOLS = {3: "♠", 2: "♥", 1: "♦", 0: "♣"}
DECK: tuple[tuple[int, int], ...] = tuple(
    (rank, suit) for rank in range(2, 15) for suit in range(4)
)


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


# --------------------------------------------------------------------------- data


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
            raise SeatingError(
                "bad_seat", f"table {self.number}: a seat is not in 1..{self.capacity}"
            )
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


class Positions(NamedTuple):
    """Button, small-blind and big-blind seats of the next hand.

    ``button`` may be an empty seat (dead button); ``small_blind`` is None when the small
    blind is dead. All three are None when the big-blind position is unknown.
    """

    button: int | None
    small_blind: int | None
    big_blind: int | None


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


@dataclass(frozen=True, slots=True)
class BreakDraw:
    """A broken table's two-step draw (SEAT-04), with both permutations for the log."""

    broken_table: int
    moves: list[Move]
    seat_order: list[tuple[int, int]]  # step 1: the shuffled seat cards, (table, seat)
    card_order: list[tuple[Hashable, str]]  # step 2: players by their card, highest first
    apart_swaps: int = 0  # seat cards exchanged after the draw to keep pairs apart (SEAT-07)


@dataclass(frozen=True, slots=True)
class SeatDraw:
    """The initial random draw (SEAT-01) and the button draw of every table (SEAT-08)."""

    tables: list[Table]
    assignments: list[tuple[Hashable, int, int]]  # (player, table, seat)
    buttons: dict[int, int]  # table → button seat of its first hand
    button_cards: dict[int, list[tuple[int, str]]]  # table → (seat, card) of the button draw
    apart_swaps: int = 0  # tickets exchanged after the shuffle to keep pairs apart (SEAT-07)


@dataclass(frozen=True, slots=True)
class FinalTableDraw:
    """The final-table draw (BAL-09, SEAT-08): a fresh table with everybody re-drawn."""

    table: Table
    moves: list[Move]
    seat_order: list[tuple[int, int]]
    card_order: list[tuple[Hashable, str]]
    button_seat: int
    button_cards: list[tuple[int, str]]


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


# ------------------------------------------------------------------ positions


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


# ------------------------------------------------------------------- balancing


def plan_balance(
    tables: Sequence[Table],
    *,
    trigger_difference: int = 2,
    mover_rule: str = "NEXT_BB",
    dest_rule: str = "WORST_POSITION",
    tie_break: str = "TABLE_ORDER",
    rng: random.Random | None = None,
    vacated_bb_seat: str = "EXCLUDED",
    apart: Iterable[tuple[Hashable, Hashable]] = (),
    fixed: Collection[Hashable] = (),
) -> list[Move]:
    """Moves that bring every table within one player of the others (BAL-01, 03, 04, 05).

    Nothing moves until the fullest and the shortest table differ by ``trigger_difference``
    (2 under 003 and 004 Art. 8.2, 3 under 004 Art. 16.2). Then, one move at a time, a
    player moves from the fullest to the shortest table until no two tables differ by more
    than one; this is the smallest number of moves that reaches the most even spread.
    The plan is built on a working copy, so a second move from the same table takes that
    table's next mover and no destination seat is handed out twice. Locked and empty
    tables are left out. Apply the plan with :func:`apply_moves`.

    ``apart`` (SEAT-07): pairs of players kept at different tables. A mover whose partner
    sits at the chosen destination goes to another short table instead, or the move comes
    from another of the fullest tables; when no choice avoids it the move stands (the
    service flags it: :func:`apart_conflicts`). ``fixed`` players sit in a seat given by
    hand (SEAT-07, special needs): the rule's mover is passed over for the next player
    clockwise at his table.
    """
    _check_setting("mover_rule", mover_rule, MOVER_RULES)
    _check_setting("dest_rule", dest_rule, DEST_RULES)
    _check_setting("tie_break", tie_break, TIE_BREAKS)
    _check_setting("vacated_bb_seat", vacated_bb_seat, VACATED_BB_SEAT_MODES)
    if trigger_difference < 2:
        # A trigger of 1 would move a player back and forth between a 9 and an 8.
        raise SeatingError("bad_trigger", "trigger_difference must be at least 2")
    if len(tables) < 2:
        return []
    # Leaving out locked and empty tables can only narrow the spread, so one look at all
    # tables settles the common case (called after every bust, a thousand tables).
    counts = [len(t.seats) for t in tables]
    if max(counts) - min(counts) < trigger_difference:
        return []
    _, counts, _, _, _ = _playing_counts(tables, counts)
    if len(counts) < 2 or max(counts) - min(counts) < trigger_difference:
        return []
    rng = rng if rng is not None else secrets.SystemRandom()
    bench = _Workbench(tables)
    live = {t.number: len(t.seats) for t in tables if t.seats and not t.locked}
    moves: list[Move] = []
    while True:
        most, fewest = max(live.values()), min(live.values())
        if most - fewest <= 1:
            return moves
        source = _pick_table([n for n, c in live.items() if c == most], "source", tie_break, rng)
        receivers = {
            n: c for n, c in live.items() if c <= most - 2 and _free_seats(bench.table(n)) > 0
        }
        if not receivers:
            return moves  # only locked seats are left where players are short
        low = min(receivers.values())
        dest = _pick_table(
            [n for n, c in receivers.items() if c == low], "destination", tie_break, rng
        )
        move = _balance_move(
            bench.table(source), bench.table(dest), mover_rule, dest_rule, vacated_bb_seat, rng, fixed
        )
        if apart:
            partners = _partners(apart)
            if _meets_partner(move.player, bench.table(dest), partners):
                source, dest, move = _apart_balance_move(
                    bench, live, most, receivers, (source, dest, move), partners,
                    (mover_rule, dest_rule, vacated_bb_seat, tie_break), rng, fixed,
                )
        bench.move(move)
        live[source] -= 1
        live[dest] += 1
        moves.append(move)


def apply_moves(tables: Sequence[Table], moves: Sequence[Move]) -> list[Table]:
    """New tables with the moves carried out; the inputs are left untouched.

    All movers leave their seats first, then all take their new seats, so a plan that
    re-seats players at the same table (the final table) works as well as a balancing plan.
    Untouched tables are returned as the same objects. A single-big-blind move marks the
    destination so the mover posts the big blind alone on the next hand.
    """
    if not moves:
        return list(tables)
    if len({m.player for m in moves}) != len(moves):
        raise SeatingError("duplicate_move", "a player appears in more than one move")
    bench = _Workbench(tables)
    for move in moves:
        bench.take_out(move.player, move.from_table, move.from_seat)
    for move in moves:
        bench.seat(move.player, move.to_table, move.to_seat, move.single_big_blind)
    return bench.result()


def halted_tables(tables: Sequence[Table], *, short_by: int = HALT_SHORT_BY) -> list[int]:
    """Tables that hold play: ``short_by`` (3) or more players short of the fullest (BAL-02).

    Locked and empty tables are left out; a single table is never halted.
    """
    playing, counts, _, _, _ = _playing_counts(tables)
    if len(playing) < 2:
        return []
    fullest = max(counts)
    return sorted(
        t.number for t, c in zip(playing, counts, strict=True) if fullest - c >= short_by
    )


# -------------------------------------------------------------------- breaking


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
    for i, ((player, card), (to_table, to_seat)) in enumerate(
        zip(ranked, seat_cards, strict=True), 1
    ):
        wait = _waits_for_button(by_table[to_table], to_seat, players_after[to_table])
        reason = _why(
            R.BREAK_DRAW, *((_why(R.WAIT_FOR_BUTTON),) if wait else ()),
            table=number, card=card, rank=i, of=len(ranked), to_table=to_table, to_seat=to_seat,
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
    seated = [
        (t.number, seat, t.seats[seat])
        for t in sorted(tables, key=lambda t: t.number)
        for seat in sorted(t.seats)
    ]
    if not seated:
        raise SeatingError("no_players", "no players left to seat at the final table")
    number = (
        final_table_number
        if final_table_number is not None
        else min(t.number for t in tables if t.seats)
    )
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
        reason = _why(
            R.FINAL_TABLE_DRAW, card=card, rank=i, of=len(ranked), to_table=number, to_seat=to_seat
        )
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
    return FinalTableDraw(
        table, moves, seat_cards, [(p, c) for p, c in ranked], button, button_cards
    )


# ---------------------------------------------------------------------- draws


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
    tickets = seat_layout(len(players), capacity=capacity, table_numbers=table_numbers,
                          max_players_per_table=max_players_per_table, reserved=reserved.values())
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
    by_table = {
        number: _spread_seats(base + (1 if i < extra else 0), capacity)
        for i, number in enumerate(numbers)
    }
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


def seat_pool(
    tables: Sequence[Table],
    *,
    exclude_tables: Iterable[int] = (),
    break_order: Sequence[int] | None = None,
) -> list[tuple[int, int]]:
    """Open seats for new entrants: at the tables with the fewest players (SEAT-03).

    Filling the shortest tables first means a new entrant never creates an imbalance. The
    table next in the break order is left out when another table ties with it, so nobody
    is seated at a table about to break. Locked tables, locked seats and empty (closed)
    tables are never in the pool. Returns (table, seat) pairs in table and seat order.
    """
    excluded = set(exclude_tables)
    eligible = [
        t
        for t in tables
        if t.seats and not t.locked and t.number not in excluded and _free_seats(t) > 0
    ]
    if not eligible:
        return []
    fewest = min(len(t.seats) for t in eligible)
    pool_tables = [t for t in eligible if len(t.seats) == fewest]
    if len(pool_tables) > 1:
        breaking = next_table_to_break(tables, break_order)
        pool_tables = [t for t in pool_tables if t.number != breaking] or pool_tables
    return [
        (t.number, s) for t in sorted(pool_tables, key=lambda t: t.number) for s in t.open_seats()
    ]


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
) -> LateSeat:
    """A random seat from the seat pool for a late registrant, alternate or re-entry.

    TDA 8-A: same pool, same random process, dealt in except between the small blind and
    the button; seats outside that gap are preferred, and a seat inside it is flagged
    ``wait_for_button``. If every table is full, the answer opens a new table (the
    product creates it): ``new_table_number`` or the highest number + 1, with ``capacity``
    (default: the largest existing capacity) and a random seat. ``apart`` (SEAT-07): seats
    at a table where the player's partner sits are left out of the pool; when that empties
    it, any open seat at another playing table will do; only when none is open does he sit
    with his partner.
    """
    rng = rng if rng is not None else secrets.SystemRandom()
    if any(player in t.seats.values() for t in tables):
        raise SeatingError("already_seated", f"{player} already has a seat")
    pool = seat_pool(tables, exclude_tables=exclude_tables, break_order=break_order)
    if pool and apart:
        # SEAT-07: not at a partner's table: another seat of the pool, else an open seat at
        # another table (balancing evens it out later), else the pool as it is (flagged).
        partners = _partners(apart).get(player, set())
        clear = [(t.number, s) for t in tables if t.seats and not t.locked and not partners & set(t.seats.values())
                 for s in t.open_seats()]
        pool = [ts for ts in pool if ts in set(clear)] or clear or pool
    if pool:
        return _draw_from_pool(tables, player, pool, rng)
    size = capacity if capacity is not None else max((t.capacity for t in tables), default=None)
    if size is None:
        raise SeatingError(
            "capacity_needed", "no table exists: give the capacity of the new table"
        )
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


# ------------------------------------------------------------ finishing places


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


# -------------------------------------------------------------------- helpers


def _check_setting(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise SeatingError(
            "unknown_setting", f"{name} must be one of {', '.join(allowed)}, not {value!r}"
        )


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


def _pick_table(candidates: list[int], role: str, tie_break: str, rng: random.Random) -> int:
    """BAL-05 tie-break between equally full (source) or equally short (destination) tables."""
    if len(candidates) == 1:
        return candidates[0]
    if tie_break == "RANDOM_DRAW":
        return rng.choice(sorted(candidates))
    return max(candidates) if role == "source" else min(candidates)


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
            raise SeatingError(
                "player_not_at_seat", f"{player} is not in seat {seat} at table {number}"
            )
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


def keep_drawn_seats(plan: Sequence[Move], open_slips: Iterable[tuple], tables: Sequence[Table]) -> list[Move]:
    """``plan`` with the seats the floor already holds slips for, where the seat was a draw.

    BAL-04 with the destination's big blind unknown: the open seat is drawn at random. The
    plan is made again after every confirmed move, and each time it drew the open slips'
    seats anew: every other slip was superseded and written again with a new seat, under
    the hands of the floor carrying them (a bust with several balancing moves made as many
    rounds). A drawn move of the same player from the same
    seat to the same table as an open slip (``(player, from_table, from_seat, to_table,
    to_seat)``) keeps the slip's seat while it is open and no move whose seat the big blind
    chose takes it; a drawn move whose own draw is now a kept slip's takes a seat that a kept
    move gave up at that table (a draw as good as its own). No seat is handed out twice."""
    held = {(p, ft, fs, tt): ts for p, ft, fs, tt, ts in open_slips}
    if not held:
        return list(plan)
    by_number = {t.number: t for t in tables}
    chosen = {(m.to_table, m.to_seat) for m in plan if not _seat_drawn(m)}
    kept: dict[int, int] = {}
    claimed: set[tuple[int, int]] = set()
    for i, m in enumerate(plan):
        seat = held.get((m.player, m.from_table, m.from_seat, m.to_table))
        if seat is None or not _seat_drawn(m) or (m.to_table, seat) in chosen or (m.to_table, seat) in claimed:
            continue
        dest = by_number.get(m.to_table)
        if dest is not None and seat in dest.open_seats():
            kept[i] = seat
            claimed.add((m.to_table, seat))
    given_up = [(plan[i].to_table, plan[i].to_seat) for i in kept if (plan[i].to_table, plan[i].to_seat) not in claimed]
    out = []
    for i, m in enumerate(plan):
        seat = kept.get(i)
        if seat is None and (m.to_table, m.to_seat) in claimed:  # its draw is a kept slip's: one given up instead
            seat = next(s for table, s in given_up if table == m.to_table)
            given_up.remove((m.to_table, seat))
        if seat is None or seat == m.to_seat:
            out.append(m)
        else:
            out.append(replace(m, to_seat=seat, reason=_drawn_seat_is(m.reason, seat)))
    return out


def _seat_drawn(m: Move) -> bool:
    return isinstance(m.reason, Reason) and any(n.code == R.DEST_BB_UNKNOWN for n in m.reason.notes)


def _drawn_seat_is(reason: Reason, seat: int) -> Reason:
    notes = tuple(replace(n, args=tuple((k, seat if k == "seat" else v) for k, v in n.args))
                  if n.code == R.DEST_BB_UNKNOWN else n for n in reason.notes)
    return replace(reason, notes=notes)


class _SeatChoice(NamedTuple):
    seat: int
    why: tuple[Reason, ...]  # the clauses of the move's reason about the destination
    wait_for_button: bool
    single_big_blind: bool


def _balance_move(
    source: Table,
    dest: Table,
    mover_rule: str,
    dest_rule: str,
    vacated_bb_seat: str,
    rng: random.Random,
    fixed: Collection[Hashable] = (),
) -> Move:
    if mover_rule == "STUD_POSITION":
        return _stud_balance_move(source, dest, fixed)
    from_seat, mover = _pick_mover(source, mover_rule)
    notes: list[Reason] = []
    if fixed and source.seats[from_seat] in fixed:
        free = [s for s in _clockwise_from(source, from_seat) if source.seats[s] not in fixed]
        if free:
            notes.append(_why(R.MOVER_FIXED_SEAT, fixed_seat=from_seat, seat=free[0]))
            from_seat = free[0]
    mover_hands = hands_until_big_blind(source, from_seat)
    choice = _pick_destination_seat(dest, dest_rule, vacated_bb_seat, rng, mover_hands)
    notes.extend(choice.why)
    notes.append(_why(R.BALANCE_COUNTS, from_table=source.number, from_players=len(source.seats),
                      to_table=dest.number, to_players=len(dest.seats)))
    reason = Reason(mover.code, mover.args, tuple(notes))
    return Move(
        source.seats[from_seat],
        source.number,
        from_seat,
        dest.number,
        choice.seat,
        reason,
        choice.wait_for_button,
        BALANCE,
        choice.single_big_blind,
    )


def _stud_balance_move(source: Table, dest: Table, fixed: Collection[Hashable] = ()) -> Move:
    """BAL-03 / FMT-16, TDA 11-A for stud-only events: there is no button, and «players move
    by position (last seat open at the short table is the seat filled)». The seat filled is
    the last open seat of the short table, the highest-numbered one [INFERENCE: seats are
    numbered from the dealer's left, so "last" is read as the highest number]; the player who
    moves is the one in that seat number at the fuller table, else the next player clockwise
    after that seat (a player seated by hand, SEAT-07, is passed over). No big blind, so no
    wait for the button and no single big blind."""
    open_seats = dest.open_seats()
    if not open_seats:
        raise SeatingError("no_open_seat", f"table {dest.number} has no open seat")
    to_seat = open_seats[-1]
    order = [to_seat] if to_seat in source.seats else []
    order += [s for s in _clockwise_from(source, to_seat) if s != to_seat]
    free = [s for s in order if source.seats[s] not in fixed] or order
    from_seat = free[0]
    notes = (_why(R.DEST_STUD_LAST_OPEN, table=dest.number, seat=to_seat),
             _why(R.BALANCE_COUNTS, from_table=source.number, from_players=len(source.seats),
                  to_table=dest.number, to_players=len(dest.seats)))
    reason = Reason(R.MOVER_STUD_POSITION, (("table", source.number), ("seat", from_seat), ("to_seat", to_seat)), notes)
    return Move(source.seats[from_seat], source.number, from_seat, dest.number, to_seat, reason, False, BALANCE, False)


def _pick_mover(table: Table, mover_rule: str) -> tuple[int, Reason]:
    """BAL-03: the seat of the player who moves, and why (a reason code)."""
    n = table.number
    if table.big_blind_seat is None:
        seat = max(table.seats)
        return seat, _why(R.MOVER_BB_UNKNOWN, table=n, seat=seat)
    positions = next_hand_positions(table)
    if mover_rule == "NEXT_BB":
        return positions.big_blind, _why(R.MOVER_NEXT_BB, table=n, seat=positions.big_blind)
    if mover_rule == "CURRENT_BB":
        bb = table.big_blind_seat
        if bb in table.seats:
            return bb, _why(R.MOVER_CURRENT_BB, table=n, seat=bb)
        return positions.big_blind, _why(
            R.MOVER_CURRENT_BB_LEFT, table=n, left_seat=bb, seat=positions.big_blind
        )
    button = positions.button
    if button in table.seats:
        return button, _why(R.MOVER_BUTTON, table=n, seat=button)
    seat = _occupied_before(table.seats, table.capacity, button)
    return seat, _why(R.MOVER_DEAD_BUTTON, table=n, button=button, seat=seat)


def _pick_destination_seat(
    dest: Table,
    dest_rule: str,
    vacated_bb_seat: str,
    rng: random.Random,
    mover_hands: int | None,
) -> _SeatChoice:
    """BAL-04: the open seat at the destination, never the next small blind."""
    n = dest.number
    open_seats = dest.open_seats()
    if not open_seats:
        raise SeatingError("no_open_seat", f"table {n} has no open seat")
    bb = dest.big_blind_seat
    if bb is None:
        seat = rng.choice(open_seats)
        return _SeatChoice(seat, (_why(R.DEST_BB_UNKNOWN, table=n, seat=seat),), False, False)
    capacity = dest.capacity
    players_after = len(dest.seats) + 1
    options = []  # (seat, hands until big blind, waits for button, is the vacated BB seat)
    for seat in open_seats:
        if seat == bb:
            if vacated_bb_seat == "SINGLE_BB":
                options.append((seat, 1, False, True))
            continue
        hands = hands_until_big_blind(dest, seat)
        options.append((seat, hands, _waits_for_button(dest, seat, players_after), False))
    if not options:
        return _SeatChoice(bb, (_why(R.DEST_ONLY_VACATED_BB, table=n, seat=bb),), False, True)

    def clockwise(seat: int) -> int:
        return (seat - bb) % capacity

    note: tuple[Reason, ...] = ()
    if dest_rule == "NEAREST_BB":
        target = next_hand_positions(dest).big_blind

        def key(o):
            distance = min((o[0] - target) % capacity, (target - o[0]) % capacity)
            return (o[2], distance, o[1], o[3], clockwise(o[0]))

        note = (_why(R.DEST_NEAREST_BB, seat=target),)
    elif dest_rule == "SAME_RELATIVE_POSITION":
        wanted = mover_hands if mover_hands is not None else 1

        def key(o):
            return (o[2], abs(o[1] - wanted), o[1], o[3], clockwise(o[0]))

        note = (_why(R.DEST_SAME_POSITION, hands=wanted),)
    else:

        def key(o):
            return (o[2], o[1], o[3], clockwise(o[0]))

    seat, hands, wait, vacated = min(options, key=key)
    if vacated:
        first = _why(R.DEST_VACATED_BB, table=n, seat=seat)
    elif hands == 1:
        first = _why(R.DEST_BB_NEXT_HAND, table=n, seat=seat)
    else:
        first = _why(R.DEST_BB_IN_HANDS, table=n, seat=seat, hands=hands)
    why = (first, *note, *((_why(R.DEST_WAITS_FOR_BUTTON),) if wait else ()))
    return _SeatChoice(seat, why, wait, vacated)


def _fill_fewest_first(
    tables: Sequence[Table], numbers: list[int], breaking: int, players: int
) -> dict[int, tuple[Table, int]]:
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
            raise SeatingError(
                "not_enough_seats", "the other tables do not have enough open seats"
            )
        count, number = heapq.heappop(heap)
        taken[number] = taken.get(number, 0) + 1
        if taken[number] < free[number]:
            heapq.heappush(heap, (count + 1, number))
    return {number: (table_of[number], k) for number, k in taken.items()}


def _card_label(card: tuple[int, int]) -> str:
    rank, suit = card
    return f"{RANK_LABELS.get(rank, str(rank))}{SUIT_SYMBOLS[suit]}"


def _card_draw(players: list[Hashable], rng: random.Random) -> list[tuple[Hashable, str]]:
    """Deal one card per player from one deck; players by card, highest first.

    Cards from one deck are all different, so rank then suit (spades > hearts > diamonds >
    clubs) never ties.
    """
    if len(players) > len(DECK):
        raise SeatingError("too_many_players", "one deck deals at most 52 cards")
    cards = rng.sample(DECK, len(players))
    dealt = sorted(zip(cards, range(len(players)), strict=True), reverse=True)
    return [(players[i], _card_label(card)) for card, i in dealt]


def _draw_button(
    seats: dict[int, Hashable], rng: random.Random
) -> tuple[int, list[tuple[int, str]]]:
    """SEAT-08 button draw: one card per occupied seat, the highest card takes the button."""
    order = sorted(seats)
    cards = rng.sample(DECK, len(order))
    button = order[max(range(len(order)), key=lambda i: cards[i])]
    return button, [(s, _card_label(c)) for s, c in zip(order, cards, strict=True)]


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
    return Table(
        number, capacity, seats, big_blind_seat=small_blind, previous_big_blind_seat=button
    )


def _spread_seats(players: int, capacity: int) -> list[int]:
    """Seats used by ``players`` at a ``capacity`` table, spread evenly from seat 1."""
    return [i * capacity // players + 1 for i in range(players)]


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


def _draw_from_pool(
    tables: Sequence[Table], player: Hashable, pool: list[tuple[int, int]], rng: random.Random
) -> LateSeat:
    by_number = _tables_by_number(tables)
    clear = [
        (t, s)
        for t, s in pool
        if not _waits_for_button(by_number[t], s, len(by_number[t].seats) + 1)
    ]
    choices = clear or pool
    number, seat = rng.choice(choices)
    table = by_number[number]
    wait = not clear and _waits_for_button(table, seat, len(table.seats) + 1)
    notes = (
        (_why(R.BUTTON_UNKNOWN),) if table.big_blind_seat is None
        else (_why(R.WAIT_FOR_BUTTON),) if wait else ()
    )
    reason = _why(R.LATE_SEAT_POOL, *notes, open_seats=len(pool), players=len(table.seats),
                  table=number, seat=seat)
    return LateSeat(player, number, seat, reason, wait)


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
    groups = [
        (min(b.order for b in members), kinds[key], members) for key, members in grouped.items()
    ]
    groups.sort(key=lambda g: g[0])
    return groups


def _rank_by_starting_stack(members: list[Bust], best: int) -> list[Place]:
    """Rank one hand's busts: the bigger starting stack finishes better; equal stacks share.

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


__all__ = [
    "BALANCE",
    "BREAK",
    "DECK",
    "DEST_RULES",
    "FINAL_TABLE",
    "H4H_POLICIES",
    "MOVER_RULES",
    "Reason",
    "ReasonCode",
    "TIE_BREAKS",
    "VACATED_BB_SEAT_MODES",
    "BreakDraw",
    "Bust",
    "FinalTableDraw",
    "LateSeat",
    "Move",
    "Place",
    "Positions",
    "SeatDraw",
    "SeatingError",
    "Table",
    "advance_hand",
    "apply_late_seat",
    "apply_moves",
    "default_final_table_size",
    "draw_break",
    "draw_late_seat",
    "draw_seats",
    "final_table_due",
    "final_table_size",
    "finishing_places",
    "halted_tables",
    "hands_until_big_blind",
    "is_between_button_and_small_blind",
    "next_hand_positions",
    "plan_balance",
    "plan_break",
    "plan_final_table",
    "seat_pool",
    "table_to_break",
]


# ------------------------------------------------------- keep-apart pairs (SEAT-07)


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


def apart_conflicts(
    tables: Sequence[Table], apart: Iterable[tuple[Hashable, Hashable]]
) -> list[tuple[int, Hashable, Hashable]]:
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


def _clockwise_from(table: Table, seat: int) -> list[int]:
    """The occupied seats clockwise after ``seat``."""
    return [s for step in range(1, table.capacity) if (s := (seat + step - 1) % table.capacity + 1) in table.seats]


def _apart_balance_move(bench, live, most, receivers, first, partners, rules, rng, fixed=()):
    """A balancing move that keeps a pair apart: another short table for the same mover,
    else a mover from another of the fullest tables; else the first choice (flagged)."""
    mover_rule, dest_rule, vacated_bb_seat, _tie_break = rules
    source = first[0]
    for dest in sorted(receivers, key=lambda n: (receivers[n], n)):
        if dest == first[1]:
            continue
        move = _balance_move(bench.table(source), bench.table(dest), mover_rule, dest_rule, vacated_bb_seat, rng, fixed)
        if not _meets_partner(move.player, bench.table(dest), partners):
            return source, dest, move
    for other in sorted(n for n, c in live.items() if c == most and n != source):
        for dest in sorted(receivers, key=lambda n: (receivers[n], n)):
            if dest == other:
                continue
            move = _balance_move(bench.table(other), bench.table(dest), mover_rule, dest_rule, vacated_bb_seat, rng, fixed)
            if not _meets_partner(move.player, bench.table(dest), partners):
                return other, dest, move
    return first


# ------------------------------------------------------------ manual draws (SEAT-01, SEAT-04)

_SUIT_LETTERS = {"S": 3, "H": 2, "D": 1, "C": 0, "P": 3, "Q": 1, "F": 0}  # also Italian: Picche, Cuori, Quadri, Fiori
_SYMBOL_SUITS = {"♠": 3, "♥": 2, "♦": 1, "♣": 0}
_RANKS = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10, **{str(n): n for n in range(2, 11)}}


def parse_card(text: str) -> tuple[int, int] | None:
    """A playing card as the floor types it ("A♠", "as", "10h", "Td", "KC"; Italian suit
    letters P/C/Q/F work where they are not ambiguous: C is clubs): (rank, suit) or None."""
    value = "".join(str(text).split()).upper()
    if len(value) < 2:
        return None
    rank, suit = value[:-1], value[-1]
    suit_n = _SYMBOL_SUITS.get(suit, _SUIT_LETTERS.get(suit))
    rank_n = _RANKS.get(rank)
    if suit_n is None or rank_n is None:
        return None
    return rank_n, suit_n


def card_label(card: tuple[int, int]) -> str:
    """The card as the logs print it ("A♠")."""
    return _card_label(card)


def rank_by_cards(cards: dict[Hashable, tuple[int, int]]) -> list[tuple[Hashable, str]]:
    """Step 2 of a break from the cards the players drew: highest first (rank, then suit
    spades > hearts > diamonds > clubs), as :func:`draw_break` ranks its own deal."""
    if len(set(cards.values())) != len(cards):
        raise SeatingError("card_twice", "two players cannot hold the same card")
    return [(p, _card_label(c)) for p, c in sorted(cards.items(), key=lambda pc: pc[1], reverse=True)]
