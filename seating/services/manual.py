"""Manual draws (SEAT-01, SEAT-04; house rule ``draw_mode`` MANUAL): paper seat cards.

The product chooses the cards (the start's seat tickets; a break's step-1 seat cards) and
prints them; the players draw them by hand and the floor enters who drew which card (and,
at a break, which high card each player drew: step 2). When every player has a card the
draw is applied and logged exactly as the electronic draw is: the start as
``seating.draw.initial`` with the assignment, a break as ``seating.table.broken`` with both
permutations (``seat_order``: the seat card of the player ranked i by his high card;
``card_order``: the players by their card, highest first).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.errors import ValidationFailed
from tdmanager.transactions import service
from tournaments.draws import RNG_NAME
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_event
from tournaments.models import Entry

from .. import engine, replay
from ..models import ManualDraw
from .draws import seat_new_entry
from .plan import SeatingActionError, _Draw, draw_seed, engine_errors, house, settle, with_changes
from .room import lock


def open_draws(t) -> list[ManualDraw]:
    return list(ManualDraw.objects.filter(tournament=t, status=ManualDraw.OPEN).order_by("id"))


def is_stale(room, d: ManualDraw) -> bool:
    """A break's manual draw whose break is gone: its bust was undone or the table unlocked
    by hand (the table no longer waits, locked, for its cards)."""
    if d.kind != ManualDraw.BREAK:
        return False
    table = room.table(d.table)
    return table is None or not table.locked


def _draw_of(t, room, entry_id: int, draw_id: int | None) -> ManualDraw:
    stale = None
    for d in open_draws(t):
        if draw_id is not None and d.pk != draw_id:
            continue
        ids = d.players if d.kind == ManualDraw.INITIAL else [e for e, _s in d.players]
        if entry_id in ids:
            if is_stale(room, d):
                stale = d
                continue
            return d
    room.release()
    if stale is not None:
        raise SeatingActionError("manual_draw_stale", _("Table %(n)s no longer breaks: this manual draw is void.") % {"n": stale.table}, status=409)
    raise SeatingActionError("not_in_draw", _("This player has no card to draw in an open manual draw."), status=400)


@service
def enter_card(tournament, entry, table: int, seat: int, *, actor, card: str = "", draw_id: int | None = None, now=None):
    """The floor enters the seat card (table, seat) an entry drew, and at a table break the
    high card he drew. The draw is applied when the last card is entered."""
    t, room = lock(tournament)
    entry_id = int(getattr(entry, "pk", entry))
    d = _draw_of(t, room, entry_id, draw_id)
    key = [int(table), int(seat)]
    if key not in d.cards:
        raise ValidationFailed("not_a_card", _("Table %(t)s, seat %(s)s is not one of this draw's seat cards.") % {"t": table, "s": seat})
    assigned = dict(d.assigned)
    if str(entry_id) in assigned:
        raise SeatingActionError("card_entered", _("This player's card is already entered; clear it first to change it."), status=400)
    if any([a["table"], a["seat"]] == key for a in assigned.values()):
        raise SeatingActionError("card_taken", _("That seat card was drawn by another player."), status=400)
    item = {"table": key[0], "seat": key[1]}
    if d.kind == ManualDraw.BREAK:
        parsed = engine.parse_card(card)
        if parsed is None:
            raise ValidationFailed("bad_card", _("Write the high card the player drew, e.g. A♠, KH or 10d."))
        label = engine.card_label(parsed)
        if any(a.get("card") == label for a in assigned.values()):
            raise SeatingActionError("card_taken", _("Another player drew that playing card."), status=400)
        item["card"] = label
    assigned[str(entry_id)] = item
    d.assigned = assigned
    d.save(update_fields=["assigned"])
    log_event(t, Action.SEATING_SEAT_CARD_ENTERED, actor, manual_draw=d.pk, kind=d.kind, entry=entry_id, **item)
    if _complete(t, room, d):
        return _apply(t, room, d, actor, now=now)
    room.release()
    return None


@service
def clear_card(tournament, entry, *, actor, reason: str = ""):
    """Take back a card entered by mistake (before the draw is applied)."""
    t, room = lock(tournament)
    entry_id = int(getattr(entry, "pk", entry))
    d = _draw_of(t, room, entry_id, None)
    room.release()
    assigned = dict(d.assigned)
    was = assigned.pop(str(entry_id), None)
    if was is None:
        raise SeatingActionError("no_card", _("No card is entered for this player."), status=400)
    d.assigned = assigned
    d.save(update_fields=["assigned"])
    log_event(t, Action.SEATING_SEAT_CARD_CLEARED, actor, manual_draw=d.pk, entry=entry_id, was=was, reason=reason)


def _waiting(room, d: ManualDraw) -> list[int]:
    """The players still to draw: an initial draw's active entries, a break's players still
    at the breaking table."""
    if d.kind == ManualDraw.INITIAL:
        active = set(Entry.objects.filter(pk__in=d.players, status=Entry.ACTIVE).values_list("pk", flat=True))
        return [e for e in d.players if e in active]
    table = room.table(d.table)
    return sorted(table.seats.values()) if table is not None else []


def _complete(t, room, d: ManualDraw) -> bool:
    return all(str(e) in d.assigned for e in _waiting(room, d))


def _apply(t, room, d: ManualDraw, actor, *, now=None):
    now = now or timezone.now()
    waiting = _waiting(room, d)
    d.status, d.done_at = ManualDraw.DONE, now
    d.save(update_fields=["status", "done_at"])
    if d.kind == ManualDraw.INITIAL:
        return _apply_initial(t, room, d, waiting, actor, now)
    return _apply_break(t, room, d, waiting, actor, now)


def _apply_initial(t, room, d, waiting, actor, now):
    rules = house(t)
    active = set(Entry.objects.filter(tournament=t, status=Entry.ACTIVE).values_list("pk", flat=True))
    reserved = [(e, tb, s) for e, tb, s in d.locks.get("reserved", []) if e in active]
    assignment = [(e, d.assigned[str(e)]["table"], d.assigned[str(e)]["seat"]) for e in waiting]
    order = list(dict.fromkeys([c[0] for c in d.cards] + [tb for _e, tb, _s in reserved]))
    order = [n for n in order if any(tb == n for _e, tb, _s in assignment + reserved)]
    seed = draw_seed()  # the seats were drawn by hand; the buttons (SEAT-08) by the machine, replayable
    with engine_errors():
        result = engine.seat_tables(assignment + reserved, capacity=rules.table_size, rng=replay.rng_of(seed), order=order)
    for table in result.tables:
        room.put(table, is_final=False, halt_waived=False)
    asked = d.event.payload  # a redraw the director asked for, and why, as logged when the cards were made
    out = settle(
        t,
        room,
        actor,
        Action.SEATING_DRAW_INITIAL,
        snapshots=False,
        replan=False,
        now=now,
        players=len(assignment) + len(reserved),
        tables=len(result.tables),
        capacity=t.table_size,
        mode="MANUAL",
        manual_draw=d.pk,
        rng=f"manual draw: seat cards drawn by hand (SEAT-01); the buttons: {RNG_NAME}",
        redraw=asked["redraw"],
        reason=asked["reason"],
        # As the electronic draw: player i (entries by number) drew ticket i, here the card the floor entered.
        assignment=[[e, tb, s] for e, tb, s in sorted(assignment)],
        reserved=[[e, tb, s] for e, tb, s in reserved],
        buttons={str(n): s for n, s in result.buttons.items()},
        button_cards={str(n): [list(c) for c in cards] for n, cards in result.button_cards.items()},
        # What replays the button draw (seating.replay): its seed and the tables' order.
        seed=str(seed),
        table_order=order,
    )
    # Entries paid while the cards were being drawn sit from the seat pool, as late entries.
    seated = {e for e, _tb, _s in assignment + reserved}
    for entry in Entry.objects.filter(tournament=t, status=Entry.ACTIVE).exclude(pk__in=seated).select_related("person"):
        seat_new_entry(t, entry, actor, now=now)
    return out


def _apply_break(t, room, d, waiting, actor, now):
    number = d.table
    cards = {tuple(c) for c in d.cards}
    # The seat cards and the breaking table are no longer held.
    for to_table in {tb for tb, _s in cards}:
        table = room.table(to_table)
        if table is not None:
            room.put(with_changes(table, locked_seats=table.locked_seats - {s for tb, s in cards if tb == to_table}))
    broken = room.table(number)
    if broken is None or not waiting:
        return settle(t, room, actor, Action.SEATING_MANUAL_DRAW_COMPLETED, now=now, snapshots=False, manual_draw=d.pk, kind=d.kind, table=number, moved=[])
    room.put(with_changes(broken, locked=False))
    with engine_errors():
        ranked = engine.rank_by_cards({e: engine.parse_card(d.assigned[str(e)]["card"]) for e in waiting})
        seat_order = [(d.assigned[str(e)]["table"], d.assigned[str(e)]["seat"]) for e, _c in ranked]
        tables = room.table_list()
        moves = engine.break_moves(tables, number, ranked, seat_order)
        room.put_all(engine.apply_moves(tables, moves))
    room.close(number)
    for m in moves:
        room.wait[m.player] = m.wait_for_button
    drawn = _Draw(
        engine.BREAK,
        number,
        moves,
        {
            "seat_order": [list(s) for s in seat_order],
            "card_order": [[p, c] for p, c in ranked],
            "mode": "MANUAL",
            "manual_draw": d.pk,
        },
    )
    return settle(
        t,
        room,
        actor,
        Action.SEATING_MANUAL_DRAW_COMPLETED,
        now=now,
        drawn=[drawn],
        manual_draw=d.pk,
        kind=d.kind,
        table=number,
        moved=[m.player for m in moves],
    )
