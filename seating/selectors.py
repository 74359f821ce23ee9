"""Read-only seating lookups used by other apps (placeholder until seating lands)."""


def seat_of(entry):
    """``{"table": n, "seat": s}`` for a seated entry, else None."""
    return None
