"""Independent Chip Model (ICM): what a chip stack is worth in prize money.

Pure Python, no Django import. The model is Malmuth–Harville: 1st place goes to a player
with probability proportional to his stack; among the players left, the next place goes
the same way, and so on. A player's *equity* is his expected prize.

Exact computation
-----------------
Enumerating finishing orders costs n! and is hopeless beyond ~10 players. Here the
computation is a dynamic programme over the *set* of players already placed:

    P(∅) = 1
    P(S) = Σ_{i∈S} P(S∖i) · s_i / rest(S∖i)          rest(X) = Σ_{j∉X} s_j

P(S) is the probability that the first |S| places went to exactly the players in S. Player
i finishes in place |S|+1 from state S with probability P(S)·s_i/rest(S), so his equity is
s_i · Σ_{S∌i} prize[|S|] · P(S)/rest(S). Only the paid places matter: states with |S| ≥
(number of prizes) are never built. That is O(2^n · n) work at most — about 10 million
additions for 20 players with 20 prizes.

To make that affordable in CPython (no numpy):

* Write r(S) = P(S)/rest(S) and divide by π(S) = Π_{i∈S} s_i: ρ(S) = r(S)/π(S). Then
  ``ρ(S) = Σ_{i∈S} ρ(S∖i) / rest(S)`` — additions only, no multiplications.
* Players are split into up to 7 "low" players and the rest ("high"). All 2^7 subsets of
  the low players form one *block*; blocks are processed in an order where every set
  comes after its subsets. Inside a block the work is a generated straight-line function
  (local variables, no indexing); across blocks the sums are done with ``map(sum, zip())``
  at C speed.
* rest(S) is always summed from the stacks still in play, never computed as
  total − placed, so tiny stacks next to a huge one keep full precision.

The time grows steeply with the number of players; ``benchmarks/payouts_bench.py`` measures it
(docs/benchmarks.md).

Beyond the exact range
----------------------
Up to 20 players the answer is always exact. Beyond, it stays exact while the work fits
in ``EXACT_STATE_LIMIT`` steps (``is_exact``: e.g. 30 players with 5 prizes, 100 players
with 3 — a layer-by-layer programme that builds only the sets it needs is used there);
otherwise ``icm_equities`` returns a Monte Carlo estimate with a fixed seed, so the same
input always gives the same answer.
Finishing orders are sampled with the exponential race, which is exactly the Harville
model: every player draws a time T_i ~ Exp(rate = stack_i) and players finish in order of
their times (the smallest time wins), because P(T_i is the smallest) = s_i / Σ s and the
race is memoryless. ``icm_equities_with_error`` returns the estimate with its standard
errors.

Inputs and invariants
---------------------
Stacks and prizes may be ``int``, ``float`` or ``Decimal``; equities are returned as
``float`` (they are an estimate of value, not an amount of money: ``payouts.deals`` turns
them into cents). Every stack must be positive: a player with no chips is out and has a
finishing place already, so ``ValueError`` is raised for a zero or negative stack. Prizes
must be non-negative, 1st place first. Only places 1..n exist: with fewer players than
prizes, the extra prizes are ignored. The equities sum to the prizes of places
1..min(n, len(prizes)). Equal stacks get identical equities and, with non-increasing
prizes, a larger stack never gets less: the results are projected onto these properties
of the model, which for the exact programme only removes float noise in the last bits.
"""

from __future__ import annotations

import math
import random
from functools import cache
from itertools import combinations
from operator import mul

# Exact computation while the dynamic programme has at most this many states.
# 2^20 is 20 players with every place paid.
EXACT_STATE_LIMIT = 1 << 20
# Every field of up to this many players is computed exactly, whatever the prizes.
EXACT_PLAYER_LIMIT = 20
# Samples used by icm_equities when it has to estimate, and the fixed seed.
MONTE_CARLO_SAMPLES = 20_000
MONTE_CARLO_SEED = 20_100_301

# Players handled inside one generated block function (2^7 = 128 sets per block).
_LOW_PLAYERS = 7
# Beyond this spread of stacks, ρ = r/π could overflow a float: use the plain programme.
_MAX_LOG_SPREAD = 600.0


def icm_equities(stacks, prizes) -> list[float]:
    """Malmuth–Harville equity of each stack (same order as ``stacks``).

    ``prizes`` are the prizes for 1st, 2nd, … place. Exact (dynamic programme over sets of
    placed players) whenever ``is_exact(len(stacks), len(prizes))``, which always holds up
    to ``EXACT_PLAYER_LIMIT`` players; otherwise a seeded Monte Carlo estimate of
    ``MONTE_CARLO_SAMPLES`` finishing orders, made monotone in the stack (see
    ``icm_equities_with_error`` for the error bound).

    Raises ``ValueError`` for a non-positive stack or a negative prize.
    """
    s = _positive_stacks(stacks)
    paid = _prizes_in_play(prizes, len(s))
    if not s:
        return []
    if not any(paid):
        return [0.0] * len(s)
    if is_exact(len(s), len(paid)):
        # The projection only removes float noise here (equal stacks could otherwise
        # differ in the last bit), so that equal stacks get identical equities.
        return _monotone_in_stack(s, _exact_equities(s, paid), _non_increasing(paid))
    estimate, _ = _monte_carlo(s, paid, MONTE_CARLO_SAMPLES, random.Random(MONTE_CARLO_SEED))
    return _monotone_in_stack(s, estimate, _non_increasing(paid))


def icm_equities_with_error(stacks, prizes, *, samples: int = MONTE_CARLO_SAMPLES, rng=None):
    """Monte Carlo estimate of the ICM equities: ``(equities, standard_errors)``.

    Samples ``samples`` finishing orders from the Harville model (exponential race, see the
    module docstring) and returns, for each player, the mean prize won and the standard
    error of that mean (sample standard deviation / √samples). The true equity lies within
    ±1.96 standard errors of the estimate with about 95 % probability, ±3 with 99.7 %.
    The estimates sum exactly (up to float rounding) to the prizes in play, because every
    sampled order pays out every prize.

    ``rng`` is a ``random.Random`` (default: a fresh unseeded one). This function always
    samples, even when the exact answer is cheap: use it to size an estimate or to check
    the estimator.
    """
    if samples < 2:
        raise ValueError("samples must be at least 2")
    s = _positive_stacks(stacks)
    paid = _prizes_in_play(prizes, len(s))
    if not s:
        return [], []
    return _monte_carlo(s, paid, samples, rng if rng is not None else random.Random())


def is_exact(players: int, prizes: int) -> bool:
    """Whether ``icm_equities`` computes this field exactly (else it estimates).

    Always up to ``EXACT_PLAYER_LIMIT`` players; beyond, while the cheaper of the two
    programmes needs at most ``EXACT_STATE_LIMIT`` steps (e.g. 30 players with 5 prizes,
    100 players with 3).
    """
    if players <= EXACT_PLAYER_LIMIT:
        return True
    paid = min(prizes, players)
    return min(_state_count(players, paid), _transition_count(players, paid)) <= EXACT_STATE_LIMIT


# --- input checks -----------------------------------------------------------------------


def _positive_stacks(stacks) -> list[float]:
    s = [float(x) for x in stacks]
    for x in s:
        if not (x > 0 and math.isfinite(x)):
            raise ValueError("every stack must be a positive, finite chip count; a player with no chips is already out and has a finishing place")
    return s


def _prizes_in_play(prizes, players: int) -> list[float]:
    """Prizes for places 1..players (fewer if fewer prizes), as floats."""
    paid = [float(p) for p in list(prizes)[:players]]
    for p in paid:
        if not (p >= 0 and math.isfinite(p)):
            raise ValueError("prizes must be non-negative, finite amounts")
    # Trailing zero prizes are places nobody is paid for: no states needed for them.
    while paid and paid[-1] == 0:
        paid.pop()
    return paid


# --- exact dynamic programme ------------------------------------------------------------


def _state_count(players: int, paid: int) -> int:
    """Number of sets the blocked programme evaluates (see ``_exact_equities_blocked``)."""
    low = min(players, _LOW_PLAYERS)
    high = players - low
    blocks = sum(math.comb(high, k) for k in range(min(paid, high + 1)))
    return blocks << low


def _transition_count(players: int, paid: int) -> int:
    """Number of steps of the plain programme: it only builds the sets it needs, which
    wins for large fields with few prizes (the blocked one enumerates all 2^7 subsets of
    its low players in every block). Both cost about the same per step."""
    return sum(math.comb(players, k) * (players - k) for k in range(paid))


def _exact_equities(s: list[float], prizes: list[float]) -> list[float]:
    n = len(s)
    if len(prizes) == 1:  # winner takes all: P(1st) = share of the chips
        total = math.fsum(s)
        return [prizes[0] * x / total for x in s]
    # Stacks in units of their geometric mean, so that products of stacks stay near 1.
    logs = [math.log(x) for x in s]
    mean_log = math.fsum(logs) / n
    t = [math.exp(v - mean_log) for v in logs]
    spread = math.fsum(abs(v - mean_log) for v in logs) / 2 + max(mean_log - v for v in logs)
    paid = len(prizes)
    if spread > _MAX_LOG_SPREAD or _transition_count(n, paid) < _state_count(n, paid):
        return _exact_equities_plain(t, prizes)
    return _exact_equities_blocked(t, prizes)


def _exact_equities_blocked(t: list[float], prizes: list[float]) -> list[float]:
    """The programme of the module docstring, on ρ(S) = P(S) / (rest(S)·π(S))."""
    n = len(t)
    paid = len(prizes)
    low_count = min(n, _LOW_PLAYERS)
    size = 1 << low_count
    low, high = t[:low_count], t[low_count:]
    high_count = len(high)
    prize_of = prizes + [0.0] * (n + 1 - paid)  # prize_of[k]: place k+1

    # Tables over the subsets y of the low players: π(y), |y|, rest of the low players.
    low_product = [1.0]
    low_size = [0]
    for x in low:
        low_product += [v * x for v in low_product]
        low_size += [k + 1 for k in low_size]
    low_rest = [0.0]  # low_rest[y] = Σ of the low stacks not in y
    for x in low:
        low_rest = [v + x for v in low_rest] + low_rest
    last_rest = low_rest[:-1] + [1.0]  # everyone placed: nobody left to divide by
    # weight[k][y] = prize for place k+|y|+1, times π(y)
    weight = [list(map(mul, low_product, [prize_of[k + j] for j in low_size])) for k in range(high_count + 1)]

    block_fn = _block_function(low_count)
    blocks = {}
    not_placed_sum = [0.0] * n  # Σ_{S∌i} prize[|S|]·r(S), per player
    column_sums = [0.0] * size  # same, per subset y of the low players, over all blocks
    first = [1.0] + [0.0] * (size - 1)
    everyone = tuple(range(high_count))
    for k in range(min(paid, high_count + 1)):
        layer_blocks = []
        layer_products = []
        for placed in combinations(everyone, k):
            mask = 0
            for j in placed:
                mask |= 1 << j
            rest_ids = [j for j in everyone if not mask >> j & 1]
            rest = math.fsum(high[j] for j in rest_ids)
            if k == 0:
                source = first
            elif k == 1:
                source = blocks[0]
            else:
                source = list(map(sum, zip(*[blocks[mask ^ (1 << j)] for j in placed])))
            block = block_fn(source, rest, last_rest if not rest_ids else low_rest)
            blocks[mask] = block
            product = math.prod(high[j] for j in placed)
            block_sum = product * sum(map(mul, weight[k], block))
            for j in rest_ids:
                not_placed_sum[low_count + j] += block_sum
            layer_blocks.append(block)
            layer_products.append(product)
        # Low players: add up, over this layer, π(H)·ρ(H, y) for each low subset y.
        for y, column in enumerate(zip(*layer_blocks)):
            column_sums[y] += weight[k][y] * sum(map(mul, layer_products, column))
    for i in range(low_count):
        bit = 1 << i
        not_placed_sum[i] = math.fsum(v for y, v in enumerate(column_sums) if not y & bit)
    return [x * v for x, v in zip(t, not_placed_sum)]


@cache
def _block_function(low_count: int):
    """Generate ``block(source, rest_high, rest_low) -> ρ`` for one block of 2^low_count sets.

    For the subset y of the low players (bit i = low player i), inside the block of placed
    high players H: ρ(H, y) = (source[y] + Σ_{i∈y} ρ(H, y∖i)) / (rest_high + rest_low[y]),
    where source[y] = Σ_{h∈H} ρ(H∖h, y) was summed by the caller. Written out as
    straight-line code because local-variable arithmetic is several times faster in
    CPython than any loop over lists.
    """
    size = 1 << low_count

    def names(prefix):
        return ", ".join(f"{prefix}{y}" for y in range(size))

    lines = [
        "def block(source, rest_high, rest_low):",
        f"    ({names('f')},) = source",
        f"    ({names('g')},) = rest_low",
    ]
    for y in range(size):
        terms = [f"f{y}"] + [f"r{y ^ (1 << i)}" for i in range(low_count) if y >> i & 1]
        lines.append(f"    r{y} = ({' + '.join(terms)}) / (rest_high + g{y})")
    lines.append(f"    return [{names('r')}]")
    namespace: dict = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built above from integers only
    return namespace["block"]


def _exact_equities_plain(t: list[float], prizes: list[float]) -> list[float]:
    """The same programme on P(S) directly, one set at a time, layer by layer.

    Slower per step than the blocked programme but it builds only the sets it needs, so
    it is used for large fields with few prizes; also for absurd stack spreads (ratios
    beyond ~10^250), where π(S) leaves the float range.
    """
    n = len(t)
    paid = len(prizes)
    equity_sum = [0.0] * n
    layer = {0: 1.0}  # placed set → P(set)
    for place in range(paid):
        following = {}
        for placed, probability in layer.items():
            rest_ids = [j for j in range(n) if not placed >> j & 1]
            share = probability / math.fsum(t[j] for j in rest_ids)
            for j in rest_ids:
                p = share * t[j]  # P(placed, then j in this place)
                equity_sum[j] += p * prizes[place]
                if place + 1 < paid:
                    key = placed | 1 << j
                    following[key] = following.get(key, 0.0) + p
        layer = following
    return equity_sum


# --- Monte Carlo ------------------------------------------------------------------------


def _monte_carlo(s: list[float], prizes: list[float], samples: int, rng: random.Random):
    n = len(s)
    paid = len(prizes)
    if paid == 0:
        return [0.0] * n, [0.0] * n
    mean_time = [1.0 / x for x in s]
    players = range(n)
    won = [0.0] * n
    won_squared = [0.0] * n
    uniform = rng.random
    log = math.log
    for _ in range(samples):
        # Exponential race: T_i = -ln(U)/s_i; the smallest time finishes first.
        times = [-log(1.0 - uniform()) * m for m in mean_time]
        order = sorted(players, key=times.__getitem__)
        for place in range(paid):
            i = order[place]
            prize = prizes[place]
            won[i] += prize
            won_squared[i] += prize * prize
    estimate = [w / samples for w in won]
    errors = []
    for w, w2, mean in zip(won, won_squared, estimate):
        variance = max(0.0, (w2 - w * mean) / (samples - 1))
        errors.append(math.sqrt(variance / samples))
    return estimate, errors


def _non_increasing(prizes: list[float]) -> bool:
    return all(a >= b for a, b in zip(prizes, prizes[1:]))


def _monotone_in_stack(s: list[float], estimate: list[float], monotone: bool) -> list[float]:
    """Closest equities (least squares) that are equal for equal stacks and, when
    ``monotone`` (prizes non-increasing), never smaller for a larger stack — properties
    the true equities have.

    Pool-adjacent-violators over the players sorted by stack. The total is unchanged, and
    because the true equities satisfy the constraints, the projection never moves the
    estimate further from them (in the Euclidean sense).
    """
    order = sorted(range(len(s)), key=s.__getitem__)
    pools: list[list[float]] = []  # [stack, total, count]
    for i in order:
        if pools and pools[-1][0] == s[i]:
            pools[-1][1] += estimate[i]
            pools[-1][2] += 1
        else:
            pools.append([s[i], estimate[i], 1])
    merged: list[list[float]] = []  # [total, count, first pool index]
    for index, (_, total, count) in enumerate(pools):
        merged.append([total, count, index])
        while monotone and len(merged) > 1 and merged[-2][0] / merged[-2][1] > merged[-1][0] / merged[-1][1]:
            total, count, _ = merged.pop()
            merged[-1][0] += total
            merged[-1][1] += count
    value_of_pool = [0.0] * len(pools)
    for position, (total, count, start) in enumerate(merged):
        end = merged[position + 1][2] if position + 1 < len(merged) else len(pools)
        for index in range(start, end):
            value_of_pool[index] = total / count
    result = [0.0] * len(s)
    pool_index = -1
    previous = None
    for i in order:
        if s[i] != previous:
            pool_index += 1
            previous = s[i]
        result[i] = value_of_pool[pool_index]
    return result
