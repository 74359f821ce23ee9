"""Read-only payout figures used by other apps (displays, dashboard)."""


def display_summary(tournament) -> dict:
    """Prize pool and payout ladder for lobby displays: {"prize_pool": str, "payouts": [...]}."""
    return {}


def tournament_links(tournament) -> list[dict]:
    """Buttons the tournament page shows for this app: [{"label", "url"}]."""
    return []
