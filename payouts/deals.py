"""Final-table deals: chip chop, ICM deal, even chop, custom deal (RULES PAY-09).

Pure Python, no Django import. Every function takes the stacks (or amounts) of the players
still in, in seat order, and ``prizes`` — the payout table from 1st place down. Only the
places still to be decided are in play: with n players left, the prizes of places 1..n
("prizes left"). Amounts are ``Decimal`` cents and always add up *exactly*.

Rounding rule for every split (``chip_chop``, ``icm_deal``, ``even_chop``): each exact
share is floored to the cent, and the cents left over (at most one per player) go one
each to the largest stacks first; equal stacks are served in seat order (the order
of the list). With ``even_chop(n, …)`` (no stacks) they go in list order.

Reserve left to play for: each split accepts ``reserve``, an amount kept back from the
prizes left and paid to the eventual winner. The function returns the guaranteed amounts
*excluding* the reserve, and ``sum(amounts) + reserve == sum(prizes left)``. The reserve is
taken out of the chip-proportional part: a player's guarantee drops by
``reserve × his share of the chips`` — exactly what his chance of winning it is worth
(P(win) = share of the chips in both the chip-chop and the ICM model).

PAY-09 at the 001 venue wants the deal written as new amounts per *finishing place*,
strictly decreasing, summing to the prizes left: ``validate_deal_by_place`` checks such a
table (``deal_ladder`` turns per-player amounts into one). Whether a deal is allowed at
all (final table, unanimous consent, TD approval) is the services' business.

Bounties in a deal (PAY-02 with PAY-09, the house setting ``bounty_in_deal``): the bounty
money still in play (the bounties on the heads of a PKO or fixed knockout event, or a
mystery event's envelopes left) never enters the payout table, which shares the prize pool
only; ``deal_bounties`` says what each player in the deal takes of it, paid apart:

* ``APART``: each player takes the bounty on his own head, as the winner would his.
* ``ADDED``: the bounty money is shared with the deal, as deal calculators do when they
  add the bounties in play to the money the deal shares. Counted as more money for 1st
  place, it is worth ``bounties × share of the chips`` to each player in both the ICM and
  the chip-chop model (P(1st) = share of the chips), and ``bounties ÷ n`` in an even chop:
  ICM over (prizes left, the bounties added to 1st) = ICM over the prizes left + that share.
  So a player's deal is his prize amount (the ladder, from the prize pool) plus his share
  of the bounty money, each rounded to the cent by the module's rule.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from payouts.icm import icm_equities
from tdmanager.money import CENT, ZERO, to_money

BOUNTIES_APART = "APART"
BOUNTIES_ADDED = "ADDED"
BOUNTY_RULES = (BOUNTIES_APART, BOUNTIES_ADDED)


class DealError(ValueError):
    """A deal the rules refuse. ``code`` is machine-readable, ``message`` is for people.

    Codes: ``too_few_players``, ``bad_stack``, ``bad_amount``, ``amount_negative``,
    ``amount_not_in_cents``, ``reserve_negative``, ``reserve_too_large``, ``wrong_total``,
    ``wrong_number_of_places``, ``not_strictly_decreasing``, ``bad_bounty_rule``,
    ``chips_not_in_play``.
    """

    def __init__(self, code: str, message: str, **params):
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params  # the numbers the message names, for a translated one

    def __repr__(self) -> str:
        return f"DealError(code={self.code!r}, message={self.message!r})"


def prizes_left(prizes, players: int) -> list[Decimal]:
    """The prizes of places 1..players (0.00 for places the table does not pay)."""
    table = [_cents(p, "prize") for p in list(prizes)[:players]]
    return table + [ZERO] * (players - len(table))


def chip_chop(stacks, prizes, *, reserve=ZERO) -> list[Decimal]:
    """Chip chop: everyone gets the lowest prize in play, the rest goes by chips.

    The lowest prize in play is the prize for the last remaining place,
    ``prizes[len(stacks) - 1]``. What is left above n × that prize (minus the reserve) is
    shared in proportion to the stacks; the rounding rule is in the module docstring.

    Worked example (see the tests): stacks 500,000 / 300,000 / 200,000 and prizes
    10,000 / 6,000 / 4,000. Everyone is sure of 4,000 (3 × 4,000 = 12,000); the other
    8,000 go 50 % / 30 % / 20 % = 4,000 / 2,400 / 1,600. Deal: 8,000 / 6,400 / 5,600.
    """
    chips = _stacks(stacks)
    left = prizes_left(prizes, len(chips))
    reserve = _reserve(reserve)
    lowest = left[-1]
    shared = sum(left, ZERO) - reserve - lowest * len(chips)
    if shared < 0:
        raise DealError(
            "reserve_too_large",
            f"the reserve {reserve} is more than the {shared + reserve} left above the lowest prize ({lowest}) that every player is sure of",
        )
    total_chips = sum(chips)
    shares = [Fraction(shared) * c / total_chips for c in chips]
    return [lowest + a for a in _round_to_cents(shares, chips, shared)]


def icm_deal(stacks, prizes, *, reserve=ZERO) -> list[Decimal]:
    """ICM deal: each player gets his ICM equity (``payouts.icm``), in cents.

    With a reserve, each guarantee is the equity minus ``reserve × share of the chips``
    (the reserve goes to the winner, and P(win) = share of the chips). The exact
    equities are scaled so that they add up to the prizes left minus the reserve, then
    rounded by the rule in the module docstring.
    """
    chips = _stacks(stacks)
    left = prizes_left(prizes, len(chips))
    reserve = _reserve(reserve)
    to_share = sum(left, ZERO) - reserve
    if to_share < 0:
        raise DealError("reserve_too_large", "the reserve is more than the prizes left")
    equities = icm_equities(chips, left)
    total_chips = sum(chips)
    targets = [Fraction(e) - Fraction(reserve) * c / total_chips for e, c in zip(equities, chips)]
    if any(t < 0 for t in targets):
        raise DealError(
            "reserve_too_large",
            "with this reserve a player's guarantee would be negative; keep the reserve at most the 1st prize",
        )
    scale = Fraction(to_share) / sum(targets) if sum(targets) else Fraction(0)
    return _round_to_cents([t * scale for t in targets], chips, to_share, snap=True)


def even_chop(players, prizes, *, reserve=ZERO) -> list[Decimal]:
    """Even chop: the prizes left (minus the reserve) split equally.

    ``players`` is the number of players or their stacks. With stacks, odd cents go to the
    largest stacks first (ties in seat order); with a number, in list order. Note that
    PAY-09 at the 001 venue forbids equal deals («non paritaria»): ``validate_deal_by_place``
    rejects the result there.
    """
    if isinstance(players, int):
        if players < 2:
            raise DealError("too_few_players", "a deal needs at least two players")
        chips = [1] * players
    else:
        chips = _stacks(players)
    left = prizes_left(prizes, len(chips))
    reserve = _reserve(reserve)
    to_share = sum(left, ZERO) - reserve
    if to_share < 0:
        raise DealError("reserve_too_large", "the reserve is more than the prizes left")
    shares = [Fraction(to_share) / len(chips)] * len(chips)
    return _round_to_cents(shares, chips, to_share)


def custom_deal(amounts, prizes, *, reserve=ZERO) -> list[Decimal]:
    """A deal the players wrote themselves: one amount per player, validated.

    Each amount must be a non-negative number of cents, and the amounts plus the reserve
    must equal the prizes left exactly. Returns the amounts as ``Decimal`` cents.
    """
    deal = [_cents(a, "amount") for a in amounts]
    if len(deal) < 2:
        raise DealError("too_few_players", "a deal needs at least two players")
    for a in deal:
        if a < 0:
            raise DealError("amount_negative", f"amount {a} is negative")
    reserve = _reserve(reserve)
    _check_total(sum(deal, ZERO) + reserve, prizes_left(prizes, len(deal)))
    return deal


def validate_deal_by_place(amounts_by_place, prizes_left_by_place) -> list[Decimal]:
    """PAY-09 point 3: a deal written as new amounts per finishing place.

    ``amounts_by_place[0]`` is the new 1st prize, and so on for every place still in play
    (``prizes_left_by_place`` are the current prizes of those places). The amounts must be
    cents, non-negative, strictly decreasing («progressiva e non paritaria»: no equal chop,
    no lower place paid as much as a higher one) and sum exactly to the prizes left.
    Returns the amounts as ``Decimal``; raises ``DealError`` otherwise.
    """
    deal = [_cents(a, "amount") for a in amounts_by_place]
    left = [_cents(p, "prize") for p in prizes_left_by_place]
    if len(deal) != len(left):
        raise DealError(
            "wrong_number_of_places",
            f"the deal gives {len(deal)} amounts for {len(left)} places still in play",
            amounts=len(deal),
            places=len(left),
        )
    if len(deal) < 2:
        raise DealError("too_few_players", "a deal needs at least two places in play")
    for place, a in enumerate(deal, start=1):
        if a < 0:
            raise DealError("amount_negative", f"place {place}: amount {a} is negative")
    for place in range(1, len(deal)):
        if deal[place] >= deal[place - 1]:
            raise DealError(
                "not_strictly_decreasing",
                f"place {place + 1} ({deal[place]}) must be paid less than place {place} ({deal[place - 1]})",
                place=place + 1,
                amount=deal[place],
                previous_place=place,
                previous=deal[place - 1],
            )
    _check_total(sum(deal, ZERO), left)
    return deal


def bounty_shares(stacks, total, *, equal: bool = False) -> list[Decimal]:
    """``total`` (bounty money) shared among the players of a deal: by their share of the
    chips, or ``equal``-ly; in cents, adding up to ``total`` exactly (the odd cents go to
    the largest stacks first, ties in seat order).

    Worked example: 225.00 over stacks 50,000 / 30,000 / 20,000 is 112.50 / 67.50 / 45.00;
    equally, 75.00 each."""
    chips = _stacks(stacks)
    total = _cents(total, "bounty money")
    if total < 0:
        raise DealError("amount_negative", f"bounty money {total} is negative")
    whole = sum(chips)
    shares = [Fraction(total) / len(chips)] * len(chips) if equal else [Fraction(total) * c / whole for c in chips]
    return _round_to_cents(shares, chips, total)


def deal_bounties(heads, stacks, *, rule: str, equal: bool = False) -> list[Decimal]:
    """What each player in a deal takes of the bounties on the heads in play (``heads``, one
    per player, in the order of ``stacks``): his own (``APART``) or his share of their sum
    (``ADDED``: by chips, or ``equal``-ly for an even chop). The amounts add up to the sum
    of the heads. Worked example: heads 100 / 75 / 50 over stacks 50,000 / 30,000 / 20,000
    are kept as they are apart, and become 112.50 / 67.50 / 45.00 added."""
    stacks = list(stacks)
    amounts = [_cents(h, "bounty") for h in heads]
    if any(a < 0 for a in amounts):
        raise DealError("amount_negative", "a bounty cannot be negative")
    if len(amounts) != len(list(stacks)):
        raise DealError("wrong_number_of_places", "one bounty per player in the deal", amounts=len(amounts), places=len(stacks))
    if rule == BOUNTIES_APART:
        _stacks(stacks)
        return amounts
    if rule == BOUNTIES_ADDED:
        return bounty_shares(stacks, sum(amounts, ZERO), equal=equal)
    raise DealError("bad_bounty_rule", f"unknown bounty rule {rule!r}; use one of {BOUNTY_RULES}")


def check_chips_in_play(stacks, chips_in_play: int) -> None:
    """The stacks of a deal are the chips in play, all of them: a deal computed on counts that
    leave chips out (or count some twice) shares the money by the wrong shares. Raises
    ``chips_not_in_play`` with ``counted``, ``in_play`` and ``difference`` (counted − in play)."""
    counted = sum(_stacks(stacks))
    if counted != chips_in_play:
        raise DealError(
            "chips_not_in_play",
            f"the stacks add up to {counted} chips, but {chips_in_play} are in play ({'over' if counted > chips_in_play else 'short'} by {abs(counted - chips_in_play)})",
            counted=int(counted),
            in_play=int(chips_in_play),
            difference=int(counted - chips_in_play),
        )


def scale_counts(counts, chips_in_play: int) -> list[int]:
    """Counts taken earlier (a break, the last level) scaled to the chips in play now, in
    whole chips adding up to them exactly: each share floored, the chips left over one each to
    the largest remainders (ties in list order). An estimate to check at the table, never a count.

    Worked example: 30,000 / 20,000 / 10,000 counted, 720,000 in play: 360,000 / 240,000 / 120,000."""
    chips = [Fraction(c) for c in counts]
    whole = sum(chips)
    if not chips or whole <= 0 or any(c < 0 for c in chips):
        raise DealError("bad_stack", "scaling needs counts, at least one above zero")
    exact = [c * chips_in_play / whole for c in chips]
    out = [e.numerator // e.denominator for e in exact]
    by_remainder = sorted(range(len(exact)), key=lambda i: (-(exact[i] - out[i]), i))
    for i in by_remainder[: chips_in_play - sum(out)]:
        out[i] += 1
    return out


def deal_ladder(amounts) -> list[Decimal]:
    """Per-player deal amounts as a per-place table: largest amount to 1st place, etc."""
    return sorted((_cents(a, "amount") for a in amounts), reverse=True)


# --- helpers ----------------------------------------------------------------------------


def _stacks(stacks) -> list[Fraction]:
    chips = []
    for s in stacks:
        try:
            c = Fraction(s)
        except (TypeError, ValueError) as exc:
            raise DealError("bad_stack", f"stack {s!r} is not a number") from exc
        if c <= 0:
            raise DealError("bad_stack", "every player in a deal must have chips")
        chips.append(c)
    if len(chips) < 2:
        raise DealError("too_few_players", "a deal needs at least two players")
    return chips


def _cents(value, what: str) -> Decimal:
    try:
        amount = to_money(value)
    except (TypeError, ArithmeticError, ValueError) as exc:
        raise DealError("bad_amount", f"{what} {value!r} is not an amount of money") from exc
    if not amount.is_finite():
        raise DealError("bad_amount", f"{what} {value!r} is not an amount of money")
    if amount != amount.quantize(CENT):
        raise DealError("amount_not_in_cents", f"{what} {amount} is not a whole number of cents")
    return amount.quantize(CENT)


def _reserve(reserve) -> Decimal:
    amount = _cents(reserve, "reserve")
    if amount < 0:
        raise DealError("reserve_negative", "the reserve cannot be negative")
    return amount


def _check_total(total: Decimal, left: list[Decimal]) -> None:
    expected = sum(left, ZERO)
    if total != expected:
        raise DealError(
            "wrong_total",
            f"the deal pays {total} but the prizes left are {expected} ({'over' if total > expected else 'short'} by {abs(total - expected)})",
            total=total,
            expected=expected,
        )


def _round_to_cents(shares: list[Fraction], chips: list[Fraction], total: Decimal, *, snap: bool = False) -> list[Decimal]:
    """Floor each share to the cent; the cents left over go to the largest stacks first.

    The result adds up to ``total`` exactly. Ties between equal stacks go in list (seat)
    order. ``snap`` first rounds each share to 1/1000 of a cent, so that the last-bit
    noise of a float computation (ICM) cannot decide which side of a cent a share falls.
    """
    cents = [s * 100 for s in shares]
    if snap:
        cents = [Fraction(round(c * 1000), 1000) for c in cents]
    floored = [c.numerator // c.denominator for c in cents]
    leftover = int(total * 100) - sum(floored)
    assert 0 <= leftover <= len(floored), "shares must add up to the total"
    by_stack = sorted(range(len(chips)), key=lambda i: (-chips[i], i))
    for i in by_stack[:leftover]:
        floored[i] += 1
    return [(Decimal(c) * CENT).quantize(CENT) for c in floored]
