"""What other apps tell seating. Each hook runs inside the caller's transaction."""


def entry_paid(tournament, entry, actor):
    """A sale made an entry playing: once the tournament runs, seat it from the seat pool."""
    from . import services

    services.seat_new_entry(tournament, entry, actor)


def entry_revived(tournament, entry, actor):
    """A busted entry bought back in (rebuy): its bust no longer counts; seat it again."""
    from . import services

    services.seat_new_entry(tournament, entry, actor, revived=True)


def entry_cancelled(tournament, entry, actor):
    """An entry was cancelled (reversal, refund): free its seat."""
    from . import services

    services.release_seat(tournament, entry, actor)


def entry_removed(tournament, entry, actor, reason=""):
    """A player removed by a penalty (disqualification, PEN-07): out now, ranked by time."""
    from . import services

    services.remove_entry(tournament, entry, actor=actor, reason=reason)


def tournament_started(tournament, actor):
    """The tournament started: draw every paid entry into seats."""
    from . import services

    services.tournament_started(tournament, actor)
