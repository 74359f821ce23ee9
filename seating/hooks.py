"""What the cashier desk tells seating. Replaced by real seat draws in seating.services."""


def entry_paid(tournament, entry, actor):
    from . import services

    services.seat_new_entry(tournament, entry, actor)


def entry_revived(tournament, entry, actor):
    from . import services

    services.seat_new_entry(tournament, entry, actor)


def entry_cancelled(tournament, entry, actor):
    from . import services

    services.release_seat(tournament, entry, actor)


def tournament_started(tournament, actor):
    from . import services

    services.tournament_started(tournament, actor)


def entry_removed(tournament, entry, actor, reason=""):
    """A disqualified (or eliminated-without-prize) player leaves play: a bust at removal time."""
    from . import services

    services.remove_entry(tournament, entry, actor, reason=reason)
