"""Read-only seating lookups used by other apps (placeholder until seating lands)."""


def seat_of(entry):
    """``{"table": n, "seat": s}`` for a seated entry, else None."""
    return None


def display_summary(tournament) -> dict:
    """Players left, entries, average stack, chips in play, pending moves for lobby displays."""
    return {}


def table_numbers(tournament) -> list[int]:
    """Numbers of the tables in play, in order."""
    return []


def players_left(tournament) -> int:
    from tournaments.models import Entry

    return tournament.entries.filter(status=Entry.ACTIVE).count()


def tournament_links(tournament) -> list[dict]:
    """Buttons the tournament page shows for this app: [{"label", "url"}]."""
    return []


def players_at_table(tournament, table_number: int) -> int:
    """Players seated at a table now."""
    return 0
