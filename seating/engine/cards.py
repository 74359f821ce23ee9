"""Cards: the deck of the simulated draws, high-card draws for seats and buttons, and cards drawn by hand (SEAT-01, SEAT-04, SEAT-08)."""

from __future__ import annotations

import random
from collections.abc import Hashable

from .data import SeatingError

# Cards for the simulated draws: rank 2..14 (ace high), suit 3 = spades .. 0 = clubs.
RANK_LABELS = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}


SUIT_SYMBOLS = {3: "♠", 2: "♥", 1: "♦", 0: "♣"}


DECK: tuple[tuple[int, int], ...] = tuple((rank, suit) for rank in range(2, 15) for suit in range(4))


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


def _draw_button(seats: dict[int, Hashable], rng: random.Random) -> tuple[int, list[tuple[int, str]]]:
    """SEAT-08 button draw: one card per occupied seat, the highest card takes the button."""
    order = sorted(seats)
    cards = rng.sample(DECK, len(order))
    button = order[max(range(len(order)), key=lambda i: cards[i])]
    return button, [(s, _card_label(c)) for s, c in zip(order, cards, strict=True)]


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
