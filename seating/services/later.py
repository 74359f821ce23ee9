"""What must be undone first: the later changes of the seat map that stand in the way of an undo.

An undo puts tables back as an event left them; it is refused when those tables changed
since (``plan.restore``). The refusal then names the later changes, newest first, with
their event ids, what each did and how to undo it from the floor (a bust, a move), so the
floor can undo them first — or all at once, in one transaction (``undo.undo_bust_and_later``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.eventlog.actions import Action
from tournaments.models import Entry, TournamentEvent

from ..models import Bust, PendingMove
from .plan import SeatingActionError


def _seats(snap: dict | None):
    if not snap or not snap.get("in_play"):
        return None
    return sorted((s[0], s[1]) for s in snap.get("seats", []))


def tables_moved(payload: dict) -> set[int]:
    """The tables an event changed the players of (opened, closed, a player in or out);
    a lock, a blind or a halt waiver changes no seat and blocks no undo."""
    before = {s["number"]: s for s in payload.get("before", [])}
    after = {s["number"]: s for s in payload.get("after", [])}
    return {n for n in set(before) | set(after) if _seats(before.get(n)) != _seats(after.get(n))}


def _names(entry_ids) -> dict[int, str]:
    rows = Entry.objects.filter(pk__in=set(entry_ids)).values_list("pk", "number", "person__first_name", "person__last_name")
    return {pk: f"{first} {last} #{number}".strip() for pk, number, first, last in rows}


def describe(ev: TournamentEvent, names: dict[int, str]) -> str:
    """One line a floor reads: who went out or moved where."""
    p = ev.payload or {}
    if ev.action == Action.SEATING_PLAYER_BUSTED and p.get("busts"):
        return "; ".join(
            _("%(name)s out at table %(table)s, seat %(seat)s") % {"name": names.get(b["entry"], f"#{b['entry']}"), "table": b["table"], "seat": b["seat"]}
            for b in p["busts"]
        )
    if ev.action in (Action.SEATING_MOVE_CONFIRMED, Action.SEATING_PLAYER_MOVED, Action.SEATING_MOVE_UNDONE) and "to_table" in p:
        return _("%(name)s moved from table %(ft)s, seat %(fs)s to table %(tt)s, seat %(ts)s") % {
            "name": names.get(p.get("entry"), ""),
            "ft": p.get("from_table"),
            "fs": p.get("from_seat"),
            "tt": p.get("to_table"),
            "ts": p.get("to_seat"),
        }
    if ev.action == Action.SEATING_PLAYER_SEATED and p.get("entry"):
        return _("%(name)s seated") % {"name": names.get(p["entry"], "")} + " — " + tables_text(p)
    return str(Action.label_of(ev.action)) + " — " + tables_text(p)


def tables_text(payload: dict) -> str:
    """The tables an event changed, "table 1" or "tables 1, 2" (Italian: "tavolo 1", "tavoli 1, 2")."""
    tables = sorted(tables_moved(payload))
    return ngettext("table %(tables)s", "tables %(tables)s", len(tables)) % {"tables": ", ".join(map(str, tables))}


def later_changes(t, event: TournamentEvent) -> list[dict]:
    """The seat-map changes after ``event`` that an undo of it must undo first, newest first:
    ``{"event", "action", "description", "undo": {"kind": "bust"|"move", "id"} or None}``.

    A change counts when it moved players at a table ``event`` left as it was, or at a table
    such a change moved players at (undoing it needs those as it left them too). Changes
    already undone, and their undoing, cancel out and are left out.
    """
    events = list(TournamentEvent.objects.filter(tournament=t, pk__gt=event.pk, payload__has_key="after").order_by("pk"))
    ids = [e.pk for e in events]
    busts_of: dict[int, list[Bust]] = {}
    for b in Bust.objects.filter(tournament=t, event__in=ids):
        busts_of.setdefault(b.event_id, []).append(b)
    moves = {m.done_event_id: m for m in PendingMove.objects.filter(tournament=t, done_event__in=ids)}
    cancelled: set[int] = set()
    for ev in events:  # an undo of a later change: both leave the tables as they were
        p = ev.payload or {}
        if ev.action == Action.SEATING_BUST_UNDONE:
            undone = set(Bust.objects.filter(pk__in=p.get("busts", [])).values_list("event_id", flat=True))
            if undone and all(u is not None and u > event.pk for u in undone):
                cancelled |= undone | {ev.pk}
        elif ev.action == Action.SEATING_MOVE_UNDONE:
            done = PendingMove.objects.filter(pk=p.get("move")).values_list("done_event_id", flat=True).first()
            if done is not None and done > event.pk:
                cancelled |= {done, ev.pk}
    watched = tables_moved(event.payload or {}) | {s["number"] for s in (event.payload or {}).get("after", [])}
    blocking = []
    for ev in events:
        if ev.pk in cancelled:
            continue
        moved = tables_moved(ev.payload or {})
        if moved & watched:
            blocking.append(ev)
            watched |= moved
    entries = []
    for ev in blocking:
        p = ev.payload or {}
        # a bust's event lists its players; an undone bust's lists the busts' keys (named by the generic line)
        entries += [b["entry"] for b in p.get("busts", []) if isinstance(b, dict)] + ([p["entry"]] if isinstance(p.get("entry"), int) else [])
    names = _names(entries)
    out = []
    for ev in reversed(blocking):
        undo = None
        standing = [b for b in busts_of.get(ev.pk, []) if not b.void]
        if ev.action == Action.SEATING_PLAYER_BUSTED and standing:
            undo = {"kind": "bust", "id": min(b.pk for b in standing)}
        elif ev.pk in moves and moves[ev.pk].status == PendingMove.DONE:
            undo = {"kind": "move", "id": moves[ev.pk].pk}
        out.append({"event": ev.pk, "action": ev.action, "action_label": str(Action.label_of(ev.action)), "description": describe(ev, names), "undo": undo})
    return out


def undo_first(t, event: TournamentEvent, refusal: SeatingActionError) -> SeatingActionError:
    """The refusal of an undo, saying which later changes to undo first (and carrying them)."""
    later = later_changes(t, event)
    if not later:
        return refusal
    lines = "; ".join(f"#{c['event']} {c['description']}" for c in later)
    detail = _("%(refusal)s Undo first, newest first: %(changes)s.") % {"refusal": refusal.message, "changes": lines}
    return SeatingActionError(refusal.code, detail, later=later, undoable=all(c["undo"] for c in later))
