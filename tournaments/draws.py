"""The seed of every random draw (SEAT-01: a cryptographic RNG, every draw logged with its seed).

One way for every app: a draw takes a fresh seed from the OS CSPRNG (:func:`draw_seed`), runs on
``random.Random(seed)`` (:func:`rng_of`) and logs the seed, as a decimal string, with the
inputs it drew from, so that an auditor replays it (``manage.py replay_draw``, the API's
``…/draws/<event>/replay/``). Here, at the bottom of the apps, so that seating, payouts and the
formats all draw alike; seating's simulations pass their own seeded source to :func:`new_seed`.
"""

from __future__ import annotations

import random
import secrets

#: Bits of a draw's seed: more than any permutation of a room needs (a 9-handed table has
#: 9! < 2**19 seatings; 1,000 players 2**8530, so the seed, not the shuffle, bounds the draws
#: reachable, at 2**128 — far beyond anything that can be tried).
SEED_BITS = 128

#: What the log says drew (with the seed in "seed").
RNG_NAME = "secrets.SystemRandom (OS CSPRNG) seeds random.Random"


def new_seed(source) -> int:
    """A draw's seed, from ``source`` (the OS CSPRNG, or a simulation's seeded generator)."""
    return source.getrandbits(SEED_BITS)


def draw_seed() -> int:
    """A fresh seed from the OS CSPRNG, for one draw."""
    return new_seed(secrets.SystemRandom())


def rng_of(seed) -> random.Random:
    """The draw's random source: what the engine shuffles and chooses with, for that seed.
    Seeds are logged as decimal strings (a JSON number that long loses digits in JavaScript)."""
    return random.Random(int(seed))
