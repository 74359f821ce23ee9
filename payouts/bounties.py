"""Bounty arithmetic: fixed knockouts, progressive knockouts (PKO) and mystery bounties.

Pure Python, no Django import. Amounts are ``Decimal`` cents (``tdmanager.money``).

The bounty part of every buy-in (and of every re-entry) is kept apart from the prize pool:
it is money owed to the players who knock others out, and it all goes back to them. The
one invariant every function here keeps, and the tests check to the cent:

    bounty money taken in = cash paid to eliminators + bounties still on heads
                            + envelopes still in the bag + what the house rule keeps

Kinds (the tournament setting ``bounty``):

* ``FIXED``: each entry carries the bounty it paid; whoever knocks it out wins all of it.
* ``PKO``: whoever knocks an entry out wins ``cash_percent`` % of its bounty (default 50)
  in cash; the rest is added to his own bounty. The winner of the event also wins his own.
* ``MYSTERY``: the bounty money funds a bag of envelopes the director sets up; from a
  stage he chooses (e.g. once in the money), every knockout draws one envelope at random.
  Knockouts before that stage pay nothing. Envelopes left at the end go as the house says.

Split pots (one all-in, two or more eliminators): the knocked-out bounty (or the drawn
envelope) is shared equally, or by each eliminator's share of the pot (``SPLIT_EQUAL`` /
``SPLIT_POT``), each share rounded down to the house's payout rounding unit; the remainder
goes to the first eliminator listed (``REMAINDER_FIRST``, the floor lists them from the
button's left) or stays with the house (``REMAINDER_HOUSE``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

from tdmanager.money import CENT, ZERO, floor_money, to_money

NONE = "NONE"
FIXED = "FIXED"
PKO = "PKO"
MYSTERY = "MYSTERY"
KINDS = (NONE, FIXED, PKO, MYSTERY)

SPLIT_EQUAL = "EQUAL"
SPLIT_POT = "POT"
SPLITS = (SPLIT_EQUAL, SPLIT_POT)

REMAINDER_FIRST = "FIRST"
REMAINDER_HOUSE = "HOUSE"
REMAINDERS = (REMAINDER_FIRST, REMAINDER_HOUSE)

# Mystery envelopes still in the bag when the event ends.
LEFTOVER_TO_WINNER = "WINNER"
LEFTOVER_CARRY_OVER = "CARRY_OVER"  # kept for the next mystery event, reported as owed
LEFTOVERS = (LEFTOVER_TO_WINNER, LEFTOVER_CARRY_OVER)

DEFAULT_PKO_CASH_PERCENT = Decimal(50)


class BountyError(ValueError):
    """A knockout or a set-up the rules refuse; ``code`` names it for the translations."""

    def __init__(self, code: str, detail: str = ""):
        super().__init__(detail or code)
        self.code = code


@dataclass(frozen=True)
class Eliminator:
    """One player who won (part of) the pot that knocked an entry out.

    ``pot_share``: the chips (or any weight) he won of that pot; read with ``SPLIT_POT``.
    """

    player: object
    pot_share: Decimal = Decimal(1)


@dataclass(frozen=True)
class Award:
    """What one eliminator gets from one knockout: ``cash`` is paid at the desk,
    ``added`` goes onto his own bounty (PKO only), ``envelope`` is the drawn mystery
    envelope's number (mystery only)."""

    player: object
    cash: Decimal
    added: Decimal = ZERO
    envelope: int | None = None


@dataclass(frozen=True)
class Knockout:
    """The outcome of one knockout: the awards, and what the house rule kept."""

    awards: tuple[Award, ...]
    house: Decimal = ZERO

    @property
    def total(self) -> Decimal:
        return sum((a.cash + a.added for a in self.awards), ZERO) + self.house


def share(total, eliminators, *, split: str = SPLIT_EQUAL, unit=CENT, remainder: str = REMAINDER_FIRST):
    """Share ``total`` among ``eliminators``: one amount each (in their order) and the house's part.

    Each share is rounded down to ``unit``; what rounding leaves goes to the first
    eliminator listed, or to the house. The amounts and the house's part add up to ``total``.
    """
    total = _money(total)
    unit = _money(unit)
    if unit <= 0:
        raise BountyError("bad_unit", "the rounding unit must be positive")
    people = list(eliminators)
    if not people:
        raise BountyError("no_eliminator", "a knockout needs at least one eliminator")
    if split == SPLIT_EQUAL:
        weights = [Decimal(1)] * len(people)
    elif split == SPLIT_POT:
        weights = [to_money(p.pot_share) for p in people]
        if any(w <= 0 for w in weights):
            raise BountyError("bad_pot_share", "every eliminator's share of the pot must be positive")
    else:
        raise BountyError("bad_split", f"unknown split {split!r}; use one of {SPLITS}")
    if remainder not in REMAINDERS:
        raise BountyError("bad_remainder", f"unknown remainder rule {remainder!r}; use one of {REMAINDERS}")
    if len(people) == 1:
        return [total], ZERO
    whole = sum(weights, Decimal(0))
    parts = [floor_money(total * w / whole, unit) for w in weights]
    left = total - sum(parts, ZERO)
    if remainder == REMAINDER_FIRST:
        parts[0] += left
        return parts, ZERO
    return parts, left


def knockout(
    kind: str, bounty, eliminators, *, cash_percent=DEFAULT_PKO_CASH_PERCENT, split: str = SPLIT_EQUAL, unit=CENT, remainder: str = REMAINDER_FIRST
) -> Knockout:
    """What the eliminators of one entry win from its ``bounty`` (FIXED or PKO).

    FIXED: the whole bounty in cash. PKO: ``cash_percent`` % of each eliminator's part in
    cash, rounded down to ``unit``, and the rest of his part added to his own bounty, so
    nothing is lost to rounding.
    """
    bounty = _money(bounty)
    if bounty < 0:
        raise BountyError("bad_bounty", "a bounty cannot be negative")
    parts, house = share(bounty, eliminators, split=split, unit=unit, remainder=remainder)
    people = list(eliminators)
    if kind == FIXED:
        return Knockout(tuple(Award(p.player, part) for p, part in zip(people, parts)), house)
    if kind == PKO:
        percent = to_money(cash_percent)
        if not Decimal(0) <= percent <= Decimal(100):
            raise BountyError("bad_cash_percent", "the cash share is a percentage from 0 to 100")
        awards = []
        for p, part in zip(people, parts):
            cash = floor_money(part * percent / Decimal(100), _money(unit))
            awards.append(Award(p.player, cash, part - cash))
        return Knockout(tuple(awards), house)
    raise BountyError("bad_kind", f"knockout() takes FIXED or PKO, not {kind!r}")


@dataclass
class BountyBoard:
    """The bounties on every live entry's head during a FIXED or PKO event.

    ``enter(entry, bounty)`` when an entry (or a re-entry) is bought; ``knock_out(entry,
    eliminators)`` when it busts; ``finish(winner)`` pays the winner his own bounty.
    ``cash_paid`` and ``house`` accumulate what left the board.
    """

    kind: str
    cash_percent: Decimal = DEFAULT_PKO_CASH_PERCENT
    split: str = SPLIT_EQUAL
    unit: Decimal = CENT
    remainder: str = REMAINDER_FIRST
    heads: dict = field(default_factory=dict)
    taken_in: Decimal = ZERO
    cash_paid: dict = field(default_factory=dict)
    house: Decimal = ZERO

    def __post_init__(self):
        if self.kind not in (FIXED, PKO):
            raise BountyError("bad_kind", f"a bounty board is FIXED or PKO, not {self.kind!r}")

    def enter(self, entry, bounty) -> None:
        bounty = _money(bounty)
        if entry in self.heads:
            raise BountyError("already_entered", f"{entry!r} already has a bounty")
        self.heads[entry] = bounty
        self.taken_in += bounty

    def knock_out(self, entry, eliminators) -> Knockout:
        if entry not in self.heads:
            raise BountyError("not_in_play", f"{entry!r} has no bounty in play")
        people = [e if isinstance(e, Eliminator) else Eliminator(e) for e in eliminators]
        for p in people:
            if p.player == entry:
                raise BountyError("self_knockout", "a player cannot knock himself out")
            if p.player not in self.heads:
                raise BountyError("eliminator_not_in_play", f"{p.player!r} is not in play")
        result = knockout(self.kind, self.heads.pop(entry), people, cash_percent=self.cash_percent, split=self.split, unit=self.unit, remainder=self.remainder)
        for award in result.awards:
            self.cash_paid[award.player] = self.cash_paid.get(award.player, ZERO) + award.cash
            self.heads[award.player] += award.added
        self.house += result.house
        return result

    def finish(self, winner) -> Decimal:
        """The winner takes his own bounty (PKO: as the rules say; FIXED: nobody can
        knock him out, so it is his too). Returns what he is paid."""
        if set(self.heads) != {winner}:
            raise BountyError("not_finished", "the event ends when one entry is left")
        own = self.heads.pop(winner)
        self.cash_paid[winner] = self.cash_paid.get(winner, ZERO) + own
        return own

    @property
    def on_heads(self) -> Decimal:
        return sum(self.heads.values(), ZERO)

    @property
    def paid(self) -> Decimal:
        return sum(self.cash_paid.values(), ZERO)

    def balances(self) -> bool:
        """The invariant: every cent taken in is paid, on a head, or the house's."""
        return self.paid + self.on_heads + self.house == self.taken_in


@dataclass(frozen=True)
class Draw:
    """One mystery envelope drawn: its number in the director's list, its amount, and the
    seed that reproduces the draw (logged as the seating draws are)."""

    envelope: int
    amount: Decimal
    seed: int


class MysteryBag:
    """The director's envelopes (``amounts``, numbered from 1 in his list's order).

    ``draw(seed)`` takes one envelope uniformly at random from those left, reproducibly from
    ``seed``; every envelope is drawn at most once. ``left`` is what is still in the bag.
    """

    def __init__(self, amounts, drawn=()):
        self.amounts = [_money(a) for a in amounts]
        if not self.amounts:
            raise BountyError("empty_bag", "a mystery bounty needs at least one envelope")
        if any(a <= 0 for a in self.amounts):
            raise BountyError("bad_envelope", "every envelope holds a positive amount")
        self.drawn: list[int] = []
        for number in drawn:
            self._take(number)

    @property
    def left(self) -> list[int]:
        taken = set(self.drawn)
        return [n for n in range(1, len(self.amounts) + 1) if n not in taken]

    @property
    def left_amount(self) -> Decimal:
        return sum((self.amounts[n - 1] for n in self.left), ZERO)

    @property
    def total(self) -> Decimal:
        return sum(self.amounts, ZERO)

    def draw(self, seed: int) -> Draw:
        left = self.left
        if not left:
            raise BountyError("bag_empty", "every envelope has been drawn")
        number = draw_envelope(left, seed)
        self._take(number)
        return Draw(number, self.amounts[number - 1], seed)

    def _take(self, number: int) -> None:
        if not 1 <= number <= len(self.amounts) or number in self.drawn:
            raise BountyError("bad_envelope_number", f"envelope {number} is not in the bag")
        self.drawn.append(number)


def draw_envelope(left: list[int], seed) -> int:
    """The envelope ``seed`` picks from ``left`` (the numbers still in the bag, in increasing
    order): ``random.Random(seed).choice(left)``, each equally likely. The log keeps the seed
    and ``left``, so anybody draws the same envelope again (``seating.replay``)."""
    return random.Random(int(seed)).choice(left)


def mystery_knockout(
    bag: MysteryBag, eliminators, *, seed: int, paying: bool, split: str = SPLIT_EQUAL, unit=CENT, remainder: str = REMAINDER_FIRST
) -> Knockout:
    """A knockout in a mystery bounty event: before the paying stage nothing is drawn and
    nothing paid; from it, one envelope is drawn and shared among the eliminators."""
    people = [e if isinstance(e, Eliminator) else Eliminator(e) for e in eliminators]
    if not paying:
        if not people:
            raise BountyError("no_eliminator", "a knockout needs at least one eliminator")
        return Knockout(tuple(Award(p.player, ZERO) for p in people))
    drawn = bag.draw(seed)
    parts, house = share(drawn.amount, people, split=split, unit=unit, remainder=remainder)
    return Knockout(tuple(Award(p.player, part, ZERO, drawn.envelope) for p, part in zip(people, parts)), house)


def mystery_leftover(bag: MysteryBag, winner, rule: str = LEFTOVER_TO_WINNER) -> tuple[Decimal, Decimal]:
    """What the envelopes left at the end become: ``(to the winner, carried over)``."""
    if rule not in LEFTOVERS:
        raise BountyError("bad_leftover", f"unknown leftover rule {rule!r}; use one of {LEFTOVERS}")
    left = bag.left_amount
    for number in bag.left:
        bag._take(number)
    if rule == LEFTOVER_TO_WINNER:
        return left, ZERO
    return ZERO, left


def bounty_money(bounty_per_entry, entries: int) -> Decimal:
    """The bounty money taken in: the bounty part of every buy-in and re-entry."""
    return (_money(bounty_per_entry) * entries).quantize(CENT)


def _money(value) -> Decimal:
    try:
        amount = to_money(value)
    except TypeError as exc:
        raise BountyError("bad_amount", str(exc))
    if amount != amount.quantize(CENT, rounding=ROUND_DOWN):
        raise BountyError("bad_amount", f"{value} has more than two decimals")
    return amount
