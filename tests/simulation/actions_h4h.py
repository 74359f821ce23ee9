"""Hand-for-hand and balancing in the simulated days: at the bubble a player goes out at a table
while the others still play the hand-for-hand hand; a balancing move off or onto a table still
playing waits for that hand (its player not named) and is proposed once the hand is over at both
its tables, whether they report it one by one or the director closes the hand at every table at
once (the moves then planned between hands). They register in the core's ``ACTIONS``
(``catalogue.py`` imports this module); ``invariants.seats_are_sound`` checks the waiting moves
after every step."""

from __future__ import annotations

from seating import selectors as seating_selectors
from seating import services as seating
from seating.models import PendingMove
from tournaments.clock import services as clock_services
from tournaments.models import Tournament

from .actions import _hand_for_hand, action
from .actions_money import _bag_ready, _event_where, _out_at, _tables
from .world import Skip, World


def _moves(t, status) -> dict[int, PendingMove]:
    return {m.pk: m for m in PendingMove.objects.filter(tournament=t, status=status, kind=PendingMove.BALANCE)}


@action(weight=2)
def h4h_move_waits(world: World, rng) -> str:
    """Hand-for-hand on two tables or more: a player goes out at the shortest table, which then
        reports its hand while the others still play it. No balancing move off or onto a table still
        playing is proposed (it waits, its player unnamed, and a «Fatto» tapped early is refused as
    waiting for the hand); once the hand is over everywhere (each
        table reporting it, or the director closing it at every table at once) no move waits."""
    t = _event_where(world, rng, lambda t: _tables(world, t), Tournament.RUNNING)
    _bag_ready(world, t, rng)
    if not _hand_for_hand(t):
        clock_services.start_hand_for_hand(t, actor=world.director, reason="bubble")
    seats = world.seats(t)
    short = min(seats, key=lambda n: (len(seats[n]), n))
    if sum(len(row) for row in seats.values()) <= 2 or len(seats[short]) < 2:
        raise Skip("no table to lose a player at")
    shown = set(_moves(t, PendingMove.PROPOSED))
    seating.record_bust(t, [_out_at(t, rng, seats[short])], actor=world.floor, table=short)
    if not _hand_for_hand(t):
        return f"{t.name}: out at table {short}, hand-for-hand over already"
    if short in clock_services.tables_in_play(t):
        seating.hand_completed(t, short, actor=world.floor)
    finished = seating_selectors.hand_finished_at(t)
    if finished is not None:  # still in the hand: a move at a table playing it waits
        playing = set(clock_services.tables_in_play(t)) - finished
        for m in _moves(t, PendingMove.PROPOSED).values():
            if m.pk not in shown and {m.from_table, m.to_table} & playing:
                raise AssertionError(
                    f"{t.name}: #{m.entry_id} moved from table {m.from_table} to {m.to_table} while table(s) {sorted(playing)} still play the hand"
                )
    waiting = _moves(t, PendingMove.WAITING)
    for m in list(waiting.values())[:1]:  # the floor taps «Fatto» early: refused, the move still waits
        try:
            seating.confirm_move(t, m, actor=world.floor)
        except seating.SeatingActionError as refused:
            if refused.code != "move_waiting_for_hand":
                raise AssertionError(f"{t.name}: a waiting move confirmed early was refused as {refused.code}") from None
        else:
            raise AssertionError(f"{t.name}: the move from table {m.from_table} to {m.to_table} was confirmed while it waited for the hand")
        if PendingMove.objects.get(pk=m.pk).status != PendingMove.WAITING:
            raise AssertionError(f"{t.name}: a refused early confirmation changed the waiting move")
    waited = len(waiting)
    if rng.random() < 0.5:
        how = "each table reported it"
        for table in clock_services.tables_in_play(t):
            if finished is None or table not in finished:
                seating.hand_completed(t, table, actor=world.floor)
    else:
        how = "the director closed it everywhere"
        if _hand_for_hand(t):
            clock_services.h4h_next_hand(t, actor=world.director)
    still = _moves(t, PendingMove.WAITING)
    if still:
        raise AssertionError(f"{t.name}: the hand is over at every table ({how}) and moves still wait: {[(m.from_table, m.to_table) for m in still.values()]}")
    return f"{t.name}: out at table {short} in the hand-for-hand hand, {waited} move(s) waited for it; {how}"
