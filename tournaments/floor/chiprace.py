"""Chip race and colour-up arithmetic (RULES.md §6, CR-01..CR-06).

Pure Python, standard library only.

The race at one table, in two steps:

1. **Exchange** (CR-02): each player changes the chips of the removed
   denomination into the new one at equal value (:func:`exchange`); what
   cannot be changed (``odd_value``, always less than one new chip) goes to the
   middle.
2. **Race** (CR-03): the odd chips are changed collectively into
   ``race_chips`` chips of the new denomination: ``FLOOR`` (004: the rest is
   removed from play) or ``ROUND_HALF_UP`` (003 "per arrotondamento"; a chip
   made by rounding up is added to play). Then one card is dealt per round to
   every player who had odd chips and has not yet won; the highest card wins
   one chip; each player wins at most one chip; the next round starts left of
   the previous winner (004 Art. 17.2). The first round starts at seat 1
   (TDA 24, 003) or at the small blind of the last hand (004). Card ties:
   ``SUIT_ORDER`` (spades > hearts > diamonds > clubs) or ``FIRST_DEALT`` (004:
   the one who received the high card first).

No one can be raced out (CR-04): a player who would end with nothing gets one
chip of the lowest denomination in play, added to the inventory.

Conservation, always: Σ stacks before (after-exchange stack + odd chips)
== Σ final stacks + ``discarded_value`` − ``added_value``.

Choices where RULES.md leaves freedom:

- Defaults: ``ROUND_HALF_UP``, ``SEAT_1``, ``SUIT_ORDER`` (the first option of
  each RULES setting); the rescue chip is the new denomination unless
  ``lowest_denomination_in_play`` says otherwise (RULES C11).
- "Start left of the previous winner" applies to the later rounds in both
  start modes (TDA and 003 only say where the race starts).
- When the chips left in the middle are at least the players still in the
  race, each of them gets one without dealing (nothing left to decide).
- A simulated race shuffles a fresh 52-card deck for every round
  (``secrets.SystemRandom`` unless an ``rng`` is given); the normal mode is to
  record the physical result: :func:`race_from_result`, or :func:`race` with
  the physical ``cards``.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

ROUND_HALF_UP = "ROUND_HALF_UP"
FLOOR = "FLOOR"
CONVERSIONS = (ROUND_HALF_UP, FLOOR)

SEAT_1 = "SEAT_1"
LAST_HAND_SB = "LAST_HAND_SB"
STARTS = (SEAT_1, LAST_HAND_SB)

SUIT_ORDER = "SUIT_ORDER"
FIRST_DEALT = "FIRST_DEALT"
TIES = (SUIT_ORDER, FIRST_DEALT)

RANKS = "23456789TJQKA"
SUITS = "CDHS"  # ascending: clubs < diamonds < hearts < spades (000)


class ChipRaceError(Exception):
    """A chip race that cannot be computed or recorded; ``code`` is machine-readable.

    Codes: ``bad_denomination``, ``bad_player``, ``bad_setting``, ``bad_cards``,
    ``duplicate_winner``, ``wrong_winner_count``, ``not_a_participant``,
    ``bad_chip_set``.
    """

    def __init__(self, code: str, message: str = "", **params) -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code
        self.params = params  # what the message names (a seat), for a translated one

    def __repr__(self) -> str:
        return f"ChipRaceError({self.code!r}, {self.message!r})"


@dataclass(frozen=True)
class RacePlayer:
    """A player at the race table, after step 1.

    ``odd_value``: value of the removed-denomination chips he could not
    exchange (they go to the middle). ``stack_after_exchange``: value of the
    rest of his stack.
    """

    seat: int
    odd_value: int
    stack_after_exchange: int


@dataclass(frozen=True)
class RaceResult:
    """What happened at one table's race; all values in chips (tournament units)."""

    race_chips: int  # chips of the new denomination raced for
    winners: list[int]  # seats, in the order they won
    awarded: dict[int, int]  # seat -> value won (one new chip each)
    discarded_value: int  # odd value removed from play (FLOOR rest)
    added_value: int  # value added to play (rounding up + rescue chips)
    raced_out_rescued: list[int]  # seats given one chip so they are not raced out
    final_stacks: dict[int, int]  # seat -> stack value after the race
    rounds: list[dict] = field(default_factory=list)  # deal log, one dict per round
    total_odd_value: int = 0
    new_denomination: int = 0
    rescue_chip_value: int = 0
    start_seat: int | None = None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def exchange(stack_in_removed_denomination_value: int, new_denomination: int) -> tuple[int, int]:
    """Step 1: (value exchanged into the new denomination, odd value left over)."""
    value = stack_in_removed_denomination_value
    if not _is_int(value) or value < 0:
        raise ChipRaceError("bad_player", "the value to exchange must be a whole number >= 0")
    if not _is_int(new_denomination) or new_denomination < 1:
        raise ChipRaceError("bad_denomination", "the new denomination must be positive")
    odd = value % new_denomination
    return value - odd, odd


def race_chip_count(total_odd_value: int, new_denomination: int, conversion: str) -> int:
    """Number of new chips the odd chips in the middle become (CR-02)."""
    if conversion == FLOOR:
        return total_odd_value // new_denomination
    if conversion == ROUND_HALF_UP:
        return (2 * total_odd_value + new_denomination) // (2 * new_denomination)
    raise ChipRaceError("bad_setting", f"unknown conversion {conversion!r}")


def _check_setup(
    players: Sequence[RacePlayer],
    removed_denomination: int,
    new_denomination: int,
    conversion: str,
    lowest_denomination_in_play: int | None,
) -> int:
    """Validate the table; return the rescue chip value."""
    for name, value in (
        ("removed_denomination", removed_denomination),
        ("new_denomination", new_denomination),
    ):
        if not _is_int(value) or value < 1:
            raise ChipRaceError("bad_denomination", f"{name} must be a positive integer")
    if new_denomination <= removed_denomination:
        raise ChipRaceError("bad_denomination", "the new denomination must be larger than the removed one")
    rescue = lowest_denomination_in_play
    if rescue is None:
        rescue = new_denomination
    if not _is_int(rescue) or rescue < 1:
        raise ChipRaceError("bad_denomination", "the lowest denomination in play must be positive")
    if conversion not in CONVERSIONS:
        raise ChipRaceError("bad_setting", f"unknown conversion {conversion!r}")
    seats = [p.seat for p in players]
    if len(set(seats)) != len(seats):
        raise ChipRaceError("bad_player", "two players on the same seat")
    for p in players:
        if not _is_int(p.seat) or p.seat < 1:
            raise ChipRaceError("bad_player", f"bad seat {p.seat!r}")
        if not _is_int(p.odd_value) or not _is_int(p.stack_after_exchange):
            raise ChipRaceError("bad_player", f"seat {p.seat}: chip values must be integers", seat=p.seat)
        if p.odd_value < 0 or p.stack_after_exchange < 0:
            raise ChipRaceError("bad_player", f"seat {p.seat}: chip values cannot be negative", seat=p.seat)
        if p.odd_value >= new_denomination:
            raise ChipRaceError("bad_player", f"seat {p.seat}: odd chips worth a whole new chip must be exchanged", seat=p.seat)
        if p.odd_value % removed_denomination:
            raise ChipRaceError("bad_player", f"seat {p.seat}: odd value is not a number of removed chips", seat=p.seat)
        if p.odd_value + p.stack_after_exchange == 0:
            raise ChipRaceError("bad_player", f"seat {p.seat} has no chips", seat=p.seat)
    return rescue


def _finish(
    players: Sequence[RacePlayer],
    winners: list[int],
    race_chips: int,
    new_denomination: int,
    rescue: int,
    rounds: list[dict],
    start_seat: int | None,
) -> RaceResult:
    total_odd = sum(p.odd_value for p in players)
    raced_value = race_chips * new_denomination
    final: dict[int, int] = {}
    rescued: list[int] = []
    for p in sorted(players, key=lambda p: p.seat):
        stack = p.stack_after_exchange + (new_denomination if p.seat in winners else 0)
        if stack == 0:
            stack = rescue
            rescued.append(p.seat)
        final[p.seat] = stack
    return RaceResult(
        race_chips=race_chips,
        winners=list(winners),
        awarded={seat: new_denomination for seat in winners},
        discarded_value=max(0, total_odd - raced_value),
        added_value=max(0, raced_value - total_odd) + rescue * len(rescued),
        raced_out_rescued=rescued,
        final_stacks=final,
        rounds=rounds,
        total_odd_value=total_odd,
        new_denomination=new_denomination,
        rescue_chip_value=rescue,
        start_seat=start_seat,
    )


def parse_card(card: str) -> tuple[int, int]:
    """'AS', 'td', '10H' -> (rank 0..12, suit 0..3 with clubs lowest)."""
    if not isinstance(card, str):
        raise ChipRaceError("bad_cards", f"not a card: {card!r}")
    text = card.strip().upper().replace("10", "T")
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ChipRaceError("bad_cards", f"not a card: {card!r}")
    return RANKS.index(text[0]), SUITS.index(text[1])


def _card_text(card: tuple[int, int]) -> str:
    return RANKS[card[0]] + SUITS[card[1]]


def _deal_order(seats: Sequence[int], start_seat: int) -> list[int]:
    """Seats in dealing order: the first at or left of ``start_seat``, clockwise."""
    ordered = sorted(seats)
    first = next((i for i, seat in enumerate(ordered) if seat >= start_seat), 0)
    return ordered[first:] + ordered[:first]


def _round_winner(order: Sequence[int], cards: Mapping[int, tuple[int, int]], tie: str) -> int:
    if tie == SUIT_ORDER:
        return max(order, key=lambda seat: cards[seat])
    best_rank = max(cards[seat][0] for seat in order)
    return next(seat for seat in order if cards[seat][0] == best_rank)


def race(
    players: Sequence[RacePlayer],
    *,
    removed_denomination: int,
    new_denomination: int,
    conversion: str = ROUND_HALF_UP,
    start: str = SEAT_1,
    last_hand_small_blind_seat: int | None = None,
    tie: str = SUIT_ORDER,
    cards: Sequence[Mapping[int, str]] | None = None,
    rng=None,
    lowest_denomination_in_play: int | None = None,
) -> RaceResult:
    """Run (or replay from ``cards``) one table's chip race; see the module docstring.

    ``cards``: the physical cards, one mapping seat -> card (e.g. ``"KS"``) per
    round dealt, each with exactly the seats still in the race. Without
    ``cards`` the race is simulated with ``rng`` (anything with ``shuffle``).
    """
    rescue = _check_setup(players, removed_denomination, new_denomination, conversion, lowest_denomination_in_play)
    if start not in STARTS:
        raise ChipRaceError("bad_setting", f"unknown race start {start!r}")
    if tie not in TIES:
        raise ChipRaceError("bad_setting", f"unknown tie rule {tie!r}")
    if start == LAST_HAND_SB:
        if not _is_int(last_hand_small_blind_seat) or last_hand_small_blind_seat < 1:
            raise ChipRaceError("bad_setting", "LAST_HAND_SB needs the small blind seat")
        start_seat = last_hand_small_blind_seat
    else:
        start_seat = 1
    if rng is None and cards is None:
        rng = secrets.SystemRandom()

    participants = [p.seat for p in players if p.odd_value > 0]
    total_odd = sum(p.odd_value for p in players)
    race_chips = race_chip_count(total_odd, new_denomination, conversion)
    assert race_chips <= len(participants)  # each odd value is below one new chip

    eligible = list(participants)
    winners: list[int] = []
    rounds: list[dict] = []
    next_start = start_seat
    chips_left = race_chips
    while chips_left > 0:
        order = _deal_order(eligible, next_start)
        if chips_left >= len(order):
            rounds.append({"round": len(rounds) + 1, "order": order, "cards": {}, "winners": list(order), "no_cards_needed": True})
            winners.extend(order)
            break
        round_number = len(rounds) + 1
        if cards is not None:
            dealt = _physical_round(cards, round_number, order)
        else:
            deck = [(rank, suit) for rank in range(13) for suit in range(4)]
            rng.shuffle(deck)
            dealt = dict(zip(order, deck, strict=False))
        winner = _round_winner(order, dealt, tie)
        rounds.append(
            {"round": round_number, "order": order, "cards": {seat: _card_text(dealt[seat]) for seat in order}, "winners": [winner], "no_cards_needed": False}
        )
        winners.append(winner)
        eligible.remove(winner)
        chips_left -= 1
        next_start = winner + 1
    dealt_rounds = sum(1 for r in rounds if not r["no_cards_needed"])
    if cards is not None and len(cards) != dealt_rounds:
        raise ChipRaceError("bad_cards", f"{len(cards)} rounds of cards given, {dealt_rounds} were dealt")
    return _finish(players, winners, race_chips, new_denomination, rescue, rounds, start_seat)


def _physical_round(cards: Sequence[Mapping[int, str]], round_number: int, order: Sequence[int]) -> dict[int, tuple[int, int]]:
    if round_number > len(cards):
        raise ChipRaceError("bad_cards", f"no cards given for round {round_number}")
    given = cards[round_number - 1]
    if set(given) != set(order):
        raise ChipRaceError(
            "bad_cards",
            f"round {round_number}: cards must go to seats {sorted(order)}, got {sorted(given)}",
        )
    dealt = {seat: parse_card(given[seat]) for seat in order}
    if len(set(dealt.values())) != len(dealt):
        raise ChipRaceError("bad_cards", f"round {round_number}: the same card twice")
    return dealt


def race_from_result(
    players: Sequence[RacePlayer],
    winners_seats: Sequence[int],
    *,
    removed_denomination: int,
    new_denomination: int,
    conversion: str = ROUND_HALF_UP,
    lowest_denomination_in_play: int | None = None,
) -> RaceResult:
    """Record a physical race by its winners, checking it (CR-03).

    Refused when a seat wins twice (``duplicate_winner``), when the number of
    winners is not the number of race chips (``wrong_winner_count``), or when
    a winner had no odd chips (``not_a_participant``).
    """
    rescue = _check_setup(players, removed_denomination, new_denomination, conversion, lowest_denomination_in_play)
    winners = list(winners_seats)
    if len(set(winners)) != len(winners):
        raise ChipRaceError("duplicate_winner", "a player can win at most one chip")
    participants = {p.seat for p in players if p.odd_value > 0}
    for seat in winners:
        if seat not in participants:
            raise ChipRaceError("not_a_participant", f"seat {seat} had no odd chips")
    total_odd = sum(p.odd_value for p in players)
    race_chips = race_chip_count(total_odd, new_denomination, conversion)
    if len(winners) != race_chips:
        raise ChipRaceError("wrong_winner_count", f"{race_chips} chips were raced, {len(winners)} winners given")
    return _finish(players, winners, race_chips, new_denomination, rescue, [], None)


# ---------------------------------------------------------------- colour-up planning


def color_up_suggestion(
    denominations_in_play: Sequence[int],
    small_blind: int,
    ante: int = 0,
    big_blind: int | None = None,
) -> list[int]:
    """Denominations that can be coloured up now, smallest first (CLK-09, CR-01).

    The smallest denomination is no longer needed when every blind and ante in
    play is a multiple of the next denomination up; the test is repeated on the
    denominations left. At least one denomination always stays. Zero amounts
    (no ante) are ignored.
    """
    denominations = sorted(set(denominations_in_play))
    if not denominations or any(not _is_int(d) or d < 1 for d in denominations):
        raise ChipRaceError("bad_denomination", "denominations must be positive integers")
    amounts = [a for a in (small_blind, big_blind, ante) if a]
    removable: list[int] = []
    for smallest, next_up in zip(denominations, denominations[1:], strict=False):
        if all(amount % next_up == 0 for amount in amounts):
            removable.append(smallest)
        else:
            break
    return removable


def make_up_stack(stack: int, chip_set: Mapping[int, int]) -> dict[int, int] | None:
    """A way to make up ``stack`` from ``chip_set`` (denomination -> chips available
    per stack), or None when it cannot be done exactly.

    Sensible distribution: the stack's value is aimed to be shared equally among
    the denominations. The small denominations are settled first, each as close
    to its share as its availability allows (so players can post the blinds),
    and the largest ones make up the rest. The search backtracks when the rest
    cannot be made, and remembers dead ends, so it finds a make-up whenever one
    exists. A planning tool, not a hot path.
    """
    if not _is_int(stack) or stack < 1:
        raise ChipRaceError("bad_chip_set", "the stack must be a positive integer")
    for denomination, count in chip_set.items():
        if not _is_int(denomination) or denomination < 1 or not _is_int(count) or count < 0:
            raise ChipRaceError("bad_chip_set", "denominations and counts must be integers")
    denominations = sorted(d for d, count in chip_set.items() if count > 0)
    if not denominations:
        return None
    share = stack / len(denominations)
    dead_ends: set[tuple[int, int]] = set()

    def search(position: int, left: int) -> dict[int, int] | None:
        if left == 0:
            return {}
        if position == len(denominations) or (position, left) in dead_ends:
            return None
        denomination = denominations[position]
        most = min(chip_set[denomination], left // denomination)
        target = share / denomination
        for take in sorted(range(most + 1), key=lambda c: (abs(c - target), -c)):
            rest = search(position + 1, left - take * denomination)
            if rest is not None:
                if take:
                    rest[denomination] = take
                return rest
        dead_ends.add((position, left))
        return None

    found = search(0, stack)
    return None if found is None else {d: found[d] for d in sorted(found)}


def chips_needed(field_size: int, stack_breakdown: Mapping[int, int]) -> dict[int, int]:
    """Chips of each denomination needed to give ``field_size`` starting stacks."""
    if not _is_int(field_size) or field_size < 0:
        raise ChipRaceError("bad_chip_set", "the field size must be a whole number >= 0")
    return {d: field_size * count for d, count in sorted(stack_breakdown.items())}


def stack_value(breakdown: Mapping[int, int]) -> int:
    """Total value of a breakdown denomination -> count."""
    return sum(d * c for d, c in breakdown.items())
