"""Read-only seating lookups, as a package (its topics are split out next)."""

from .tables import *  # noqa: F403  (the names callers read, until the split lists them)
