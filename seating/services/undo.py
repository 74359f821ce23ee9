"""Undo a bust and the later changes standing in its way, in one go (all or nothing)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tdmanager.transactions import service
from tournaments.models import TournamentEvent

from ..models import Bust, PendingMove
from .busts import refuse_if_void, undo_bust
from .later import later_changes
from .moves import undo_move
from .plan import SeatingActionError
from .room import lock


@service
def undo_bust_and_later(tournament, bust, *, later: list[int], actor, reason: str = "", now=None):
    """Undo the later changes the floor was shown (``later``: their event ids), newest first,
    then the bust itself, in one transaction: if any step is refused nothing is undone.

    Refused (``later_changes_changed``, with the new list) when the changes in the way are no
    longer exactly those shown (someone changed the tables meanwhile), and
    (``later_change_not_undoable``) when one of them cannot be undone from the floor.
    """
    t, room = lock(tournament)
    room.release()
    bust = Bust.objects.get(pk=getattr(bust, "pk", bust), tournament=t)
    refuse_if_void(bust)  # undone already (a second tap, a page left open): as undo_bust refuses it
    event = TournamentEvent.objects.get(pk=bust.event_id) if bust.event_id else None
    found = later_changes(t, event) if event is not None else []
    if sorted(c["event"] for c in found) != sorted(set(later)):
        raise SeatingActionError(
            "later_changes_changed",
            _("The tables changed again meanwhile: look at the changes to undo first once more."),
            later=found,
            undoable=all(c["undo"] for c in found),
        )
    stuck = [c for c in found if not c["undo"]]
    if stuck:
        raise SeatingActionError(
            "later_change_not_undoable",
            _("A later change cannot be undone from the tables page: %(what)s.") % {"what": "; ".join(f"#{c['event']} {c['description']}" for c in stuck)},
            later=found,
            undoable=False,
        )
    for change in found:  # newest first
        if change["undo"]["kind"] == "bust":
            undo_bust(t, change["undo"]["id"], actor=actor, reason=reason, now=now)
        else:
            undo_move(t, PendingMove.objects.get(pk=change["undo"]["id"]), actor=actor, reason=reason, now=now)
    return undo_bust(t, bust, actor=actor, reason=reason, now=now)
