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
