"""Read-only payout figures, as a package (its topics are split out next)."""

from .bounties import *  # noqa: F403  (the names callers read, until the split lists them)
from .bounties import _LADDERS, _STRUCTURES, _ladder  # noqa: F401  (read by the tests)
