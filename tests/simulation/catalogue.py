"""Every action the simulated days draw from: each module registers its own in ``ACTIONS``."""

from . import (
    actions_backup,  # noqa: F401  (a backup, and a restore at a random point: the soak plays them)
    actions_formats,  # noqa: F401  (registers the formats' actions)
    actions_money,  # noqa: F401  (deals, foreign tender, tickets, jackpot, side pools, penalties, chips)
)
from .actions import ACTIONS

__all__ = ["ACTIONS"]
