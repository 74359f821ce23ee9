"""The event log and the live-change notification."""

from django.db import transaction

from tdmanager import realtime, security
from tdmanager.compiled import Inserts

from ..actions import Action
from ..models import TournamentEvent


class Actor:
    """Who did it, from where: a user (or None for the system) and a device label."""

    def __init__(self, user=None, device: str = ""):
        self.user = user if (user is not None and getattr(user, "is_authenticated", False)) else None
        self.device = device

    @classmethod
    def from_request(cls, request):
        ip = security.client_ip(request)  # X-Forwarded-For only from TDM_TRUSTED_PROXIES
        agent = request.META.get("HTTP_USER_AGENT", "")[:120]
        return cls(request.user, f"{ip} {agent}".strip())

    @property
    def label(self):
        return self.user.get_username() if self.user else "system"


SYSTEM = Actor()
_EVENTS = Inserts(TournamentEvent)  # the INSERT compiled once per database and number of rows


def log_event(tournament, action: Action, actor: Actor | None = None, **payload) -> TournamentEvent:
    """Append one event row and publish the tournament's change once the transaction commits."""
    return log_events(tournament, actor, [(action, payload)])[0]


def log_events(tournament, actor: Actor | None, events: list[tuple[Action, dict]], *, write=None) -> list[TournamentEvent]:
    """Append several event rows in one statement (in this order), and publish the change
    once, with the last action, when the transaction commits. Every action is a member of
    ``tournaments.actions.Action``: an unknown one is a programming error (ValueError).

    ``write``: the caller writes the rows itself, later in the same transaction and before
    any other event row (``write(rows)``; the keys are set once written): a service that
    sends them with its own last statement (``seating.services.room.Room.insert``)."""
    actor = actor or SYSTEM
    rows = [
        TournamentEvent(tournament=tournament, action=Action(action).value, actor=actor.user, actor_label=actor.label,
                        device=actor.device[:200], payload=payload)
        for action, payload in events
    ]
    if write is not None:
        write(rows)
    else:
        _EVENTS.insert(rows)  # one statement; the keys come back with it
    if tournament is not None and rows:
        tid, action = tournament.pk, rows[-1].action
        transaction.on_commit(lambda: realtime.tournament_changed(tid, action))
    return rows
