"""Move slips: confirming a move, moving a player by hand, undoing a move (BAL-08, SEAT-06)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tdmanager import compiled
from tdmanager.compiled import Compiled, Updates
from tdmanager.errors import ValidationFailed
from tdmanager.transactions import service
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_events
from tournaments.models import Entry

from .. import engine, sql
from ..models import PendingMove, Seat
from ..selectors.moves import hand_finished_at, waiting_for
from .busts import refuse_if_ended
from .later import undo_first
from .plan import Outcome, SeatingActionError, engine_errors, restore, settle
from .room import lock, lock_and_read

# The slip a confirm names, locked (compiled once: after every bust the floor confirms one slip
# after another, and building the query cost more than running it).
_SLIP_LOCKED = Compiled(lambda pk, tid: PendingMove.objects.select_for_update().filter(pk=pk, tournament_id=tid).order_by(), PendingMove, nargs=2)
_DONE = Updates(PendingMove, ["status", "done_at", "done_by"])  # mv.save(update_fields=[...]), compiled once
_DONE_MOVED = Updates(PendingMove, ["status", "done_at", "done_by", "applied", "done_event"])


def _hhmm(when) -> str:
    return timezone.localtime(when).strftime("%H:%M")


def no_longer_open(mv) -> SeatingActionError:
    """The refusal of a slip confirmed when it is no longer open, saying what happened instead. A
    tablet that confirmed it offline sends it after a break, a new balancing plan or the
    player's bust: the floor is told where the player is now, in its own words."""
    if mv.status == PendingMove.WAITING:
        return waiting_for_hand(mv)
    entry = Entry.objects.select_related("person").get(pk=mv.entry_id)
    seat = Seat.objects.filter(entry_id=mv.entry_id).select_related("table").first()
    v = {"name": entry.person.full_name, "n": entry.number}
    if seat is not None:
        v.update(t=seat.table.number, s=seat.number)
    extra = {"move": mv.pk, "entry": mv.entry_id}
    if entry.status == Entry.BUSTED:
        v["at"] = _hhmm(entry.busted_at) if entry.busted_at else ""
        text = _("%(name)s (#%(n)s) is out since %(at)s: this move no longer applies.") % v
        return SeatingActionError("move_player_out", text, busted_at=entry.busted_at.isoformat() if entry.busted_at else None, **extra)
    if mv.status == PendingMove.SUPERSEDED:
        newer = (
            PendingMove.objects.filter(tournament_id=mv.tournament_id, entry_id=mv.entry_id, pk__gt=mv.pk, status=PendingMove.PROPOSED).order_by("-pk").first()
        )
        if newer is not None:
            v.update(at=_hhmm(newer.created_at), t=newer.to_table, s=newer.to_seat)
            text = _("This move was replaced at %(at)s by a new balancing: %(name)s (#%(n)s) now goes to table %(t)s, seat %(s)s.") % v
            return SeatingActionError("move_superseded", text, replaced_by=newer.pk, **extra)
        if seat is not None:
            text = _("This move is no longer needed (the tables changed): %(name)s (#%(n)s) stays at table %(t)s, seat %(s)s.") % v
        else:
            text = _("This move is no longer needed (the tables changed).")
        return SeatingActionError("move_superseded", text, **extra)
    if mv.status == PendingMove.UNDONE:
        if seat is not None:
            text = _("This move was undone: %(name)s (#%(n)s) sits at table %(t)s, seat %(s)s.") % v
        else:
            text = _("This move was undone.")
        return SeatingActionError("move_undone", text, **extra)
    if mv.status == PendingMove.DONE:
        v.update(at=_hhmm(mv.done_at) if mv.done_at else "", by=mv.done_by.get_username() if mv.done_by_id else "")
        if seat is not None and v["by"]:
            text = _("This move was already done at %(at)s by %(by)s: %(name)s (#%(n)s) sits at table %(t)s, seat %(s)s.") % v
        elif seat is not None:
            text = _("This move was already done at %(at)s: %(name)s (#%(n)s) sits at table %(t)s, seat %(s)s.") % v
        else:
            text = _("This move was already done at %(at)s.") % v
        return SeatingActionError("move_done", text, **extra)
    return SeatingActionError("not_proposed", _("This move is no longer open (%(status)s).") % {"status": mv.get_status_display()}, **extra)


def waiting_for_hand(mv) -> SeatingActionError:
    """The refusal of a move still waiting for a hand-for-hand hand (CLK-06): nobody is to move
    yet. Its player and seat are chosen once its tables have finished the hand; the tables
    still playing it are named."""
    playing = waiting_for(mv.from_table, mv.to_table, hand_finished_at(mv.tournament_id))
    v = {"from": mv.from_table, "to": mv.to_table, "tables": ", ".join(map(str, playing))}
    if not playing:
        text = _("This move from table %(from)s to table %(to)s waits for the hand-for-hand hand: who moves is chosen once it is over.") % v
    else:
        text = (
            ngettext(
                "Table %(tables)s is still playing the hand-for-hand hand: this move from table %(from)s to table %(to)s is proposed once it has finished the hand.",
                "Tables %(tables)s are still playing the hand-for-hand hand: this move from table %(from)s to table %(to)s is proposed once they have finished the hand.",
                len(playing),
            )
            % v
        )
    return SeatingActionError("move_waiting_for_hand", text, move=mv.pk, waiting_for=playing)


@service
def confirm_move(tournament, move, *, actor, now=None):
    """The floor confirms a move slip is done.

    A balancing move changes the seat map now: the player, and his stack, go to the new
    seat; the plan is then made again. A break or final-table slip was already applied
    when it was drawn: confirming records that the player has sat down.
    """
    now = now or timezone.now()
    tid = int(getattr(tournament, "pk", tournament))
    t, room, slips = lock_and_read(tid, _SLIP_LOCKED, (int(getattr(move, "pk", move)), tid))  # one round trip on PostgreSQL
    if not slips:
        raise PendingMove.DoesNotExist("PendingMove matching query does not exist.")
    (mv,) = slips
    if mv.status != PendingMove.PROPOSED:
        raise no_longer_open(mv)
    mv.status, mv.done_at, mv.done_by = PendingMove.DONE, now, actor.user
    if mv.applied:
        # The event goes out with the slip's UPDATE (on PostgreSQL a WITH part of it: one round trip).
        (event,) = log_events(
            t,
            actor,
            [
                (
                    Action.SEATING_MOVE_CONFIRMED,
                    dict(
                        move=mv.pk,
                        entry=mv.entry_id,
                        kind=mv.kind,
                        from_table=mv.from_table,
                        from_seat=mv.from_seat,
                        to_table=mv.to_table,
                        to_seat=mv.to_seat,
                        applied_when_drawn=True,
                    ),
                )
            ],
            write=room.insert,
        )
        room.update(_DONE, mv)
        room.release()  # the seat map already showed it
        tables = room.table_list()
        halted = [n for n in engine.halted_tables(tables) if not room.info[n].halt_waived]
        return Outcome(event=event, move=mv, tables=tables, halted=halted)
    source, dest = room.table(mv.from_table), room.table(mv.to_table)
    if (
        room.seat_of(mv.entry_id) != (mv.from_table, mv.from_seat)
        or dest is None
        or mv.to_seat in dest.seats
        or mv.to_seat in dest.locked_seats
        or source is None
    ):
        raise SeatingActionError("move_outdated", _("The seat map has changed since this move was proposed."))
    with engine_errors():
        tables = engine.apply_moves([source, dest] if source is not dest else [source], [_engine_move(mv)])
    room.put_all(tables)
    room.wait[mv.entry_id] = mv.wait_for_button
    room.proposals.pop(mv.pk, None)
    mv.applied = True
    out = settle(
        t,
        room,
        actor,
        Action.SEATING_MOVE_CONFIRMED,
        now=now,
        move=mv.pk,
        entry=mv.entry_id,
        kind=mv.kind,
        from_table=mv.from_table,
        from_seat=mv.from_seat,
        to_table=mv.to_table,
        to_seat=mv.to_seat,
        reason=mv.reason_data or mv.reason,
        event_updates=[(_DONE_MOVED, mv, "done_event")],
    )
    out.move = mv
    return out


@service
def confirm_moves(tournament, moves, *, actor, now=None) -> int:
    """Confirm several slips at once (a broken table's players have all sat down).

    Slips already applied to the seat map (breaks, the final table) are marked done in one
    write with one event; balancing moves are confirmed one by one (:func:`confirm_move`),
    each with its own event, so each can be undone alone. Returns how many were confirmed.
    """
    now = now or timezone.now()
    t, room = lock(tournament)
    room.release()  # each balancing move below opens it again
    ids = sorted({int(getattr(m, "pk", m)) for m in moves})
    if not ids:
        return 0
    # Slips change only under the tournament lock, held now. The usual call confirms a
    # broken table's slips, drawn and applied at once: one update, whose row count says
    # whether every one of them was open (then the event goes out with it, on PostgreSQL in
    # its statement); otherwise the balancing moves among them are read.
    (event,) = log_events(t, actor, [(Action.SEATING_MOVES_CONFIRMED, {"moves": ids, "applied_when_drawn": True})], write=list)
    n, written = sql.confirm_drawn_slips(t.pk, ids, actor.user, now, event)
    balancing = (
        []
        if n == len(ids)
        else list(PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED, pk__in=ids).order_by("pk").values_list("pk", flat=True))
    )
    if n + len(balancing) != len(ids):
        # The update rolls back. The slips it has just marked done (this call's ``now`` and
        # user) were open; the first of the others says what happened to it.
        for mv in PendingMove.objects.filter(tournament=t, pk__in=ids).exclude(pk__in=balancing).order_by("pk"):
            if not (mv.status == PendingMove.DONE and mv.done_at == now and mv.done_by_id == getattr(actor.user, "pk", None)):
                raise no_longer_open(mv)
        raise SeatingActionError("not_proposed", _("One of these moves is no longer open."))
    if n and not written:  # the event names only the drawn slips
        event.payload = {"moves": sorted(set(ids) - set(balancing)), "applied_when_drawn": True}
        compiled.insert([event])
    for pk in balancing:
        confirm_move(t, pk, actor=actor, now=now)
    return len(ids)


def _engine_move(mv: PendingMove) -> engine.Move:
    reason = engine.Reason.from_dict(mv.reason_data) or mv.reason
    return engine.Move(
        mv.entry_id, mv.from_table, mv.from_seat, mv.to_table, mv.to_seat, reason, mv.wait_for_button, mv.kind, mv.single_big_blind, mv.card or None
    )


@service
def move_player(tournament, entry, to_table: int, to_seat: int, *, actor, reason: str, now=None):
    """Move a player by hand, with his stack (SEAT-06 wrong seat, SEAT-07 special needs, a TD
    decision). Needs a reason; the seat must be open and not locked."""
    now = now or timezone.now()
    if not reason.strip():
        raise ValidationFailed("reason_required", _("A move by hand needs a reason."))
    t, room = lock(tournament)
    entry_id = getattr(entry, "pk", entry)
    seat = room.seat_of(entry_id)
    if seat is None:
        raise SeatingActionError("not_seated", _("This player has no seat."))
    dest = room.table(to_table)
    if dest is None:
        raise SeatingActionError("unknown_table", _("Table %(n)s is not in play.") % {"n": to_table})
    if not 1 <= to_seat <= dest.capacity:
        raise ValidationFailed("bad_seat", _("Table %(n)s has seats 1 to %(c)s.") % {"n": to_table, "c": dest.capacity})
    if (to_table, to_seat) == seat:
        raise ValidationFailed("same_seat", _("The player already sits there."))
    wait = engine.is_between_button_and_small_blind(dest, to_seat) if to_table != seat[0] else False
    move = engine.Move(entry_id, seat[0], seat[1], to_table, to_seat, reason.strip(), wait, PendingMove.MANUAL)
    source = room.table(seat[0])
    with engine_errors():
        tables = engine.apply_moves([source, dest] if source is not dest else [source], [move])
    room.put_all(tables)
    room.wait[entry_id] = wait
    # A slip for this player drawn earlier no longer says where he goes.
    PendingMove.objects.filter(tournament=t, entry_id=entry_id, status=PendingMove.PROPOSED, applied=True).update(status=PendingMove.SUPERSEDED)
    name = Entry.objects.filter(pk=entry_id).values_list("person__first_name", "person__last_name").first() or ("", "")
    out = settle(
        t,
        room,
        actor,
        Action.SEATING_PLAYER_MOVED,
        now=now,
        entry=entry_id,
        name=" ".join(name).strip(),
        from_table=seat[0],
        from_seat=seat[1],
        to_table=to_table,
        to_seat=to_seat,
        reason=reason.strip(),
        wait_for_button=wait,
    )
    out.move = PendingMove.objects.create(
        tournament=t,
        entry_id=entry_id,
        kind=PendingMove.MANUAL,
        status=PendingMove.DONE,
        applied=True,
        from_table=seat[0],
        from_seat=seat[1],
        to_table=to_table,
        to_seat=to_seat,
        reason=reason.strip(),
        wait_for_button=wait,
        created_at=now,
        done_at=now,
        done_by=actor.user,
        event=out.event,
        cause=out.event,
        done_event=out.event,
    )
    return out


@service
def undo_move(tournament, move, *, actor, reason: str = "", now=None):
    """Undo a confirmed balancing move or a move by hand: the player goes back to the seat
    he left, the tables exactly as they were. Refused if those tables changed since."""
    now = now or timezone.now()
    t, room = lock(tournament)
    refuse_if_ended(t)
    mv = PendingMove.objects.select_for_update(of=("self",)).select_related("done_event").get(pk=getattr(move, "pk", move), tournament=t)
    if mv.status != PendingMove.DONE or mv.done_event_id is None:
        raise SeatingActionError(
            "cannot_undo_move",
            _("Only a confirmed balancing move or a move by hand can be undone; a break or final-table draw is undone with the bust that caused it."),
        )
    try:
        restore(room, mv.done_event.payload)
    except SeatingActionError as refusal:  # say which later changes to undo first
        raise undo_first(t, mv.done_event, refusal) from None
    mv.status = PendingMove.UNDONE
    mv.save(update_fields=["status"])
    return settle(
        t,
        room,
        actor,
        Action.SEATING_MOVE_UNDONE,
        now=now,
        move=mv.pk,
        entry=mv.entry_id,
        kind=mv.kind,
        from_table=mv.to_table,
        from_seat=mv.to_seat,
        to_table=mv.from_table,
        to_seat=mv.from_seat,
        reason=reason,
    )
