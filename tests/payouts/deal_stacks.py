"""Stacks for a deal in the tests: a deal shares the chips in play, all of them (PAY-09), so the
stacks a test names are taken as proportions of the chips its event has in play."""

from tournaments.floor.selectors import chips_in_play


def stacks_in_play(players, chips) -> dict[str, int]:
    """{entry id: stack}: the stacks in the proportions ``chips``, adding up to the chips in play
    (the odd chips of a division to the first player)."""
    total, whole = chips_in_play(players[0].tournament_id), sum(chips)
    out = [c * total // whole for c in chips]
    out[0] += total - sum(out)
    return {str(e.pk): c for e, c in zip(players, out)}
