"""The event log and the live-change notification."""

import logging
from datetime import timedelta

from celery import signature
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tdmanager import realtime, security
from tdmanager.compiled import Inserts
from tdmanager.transactions import unit_memo
from tournaments.eventlog.actions import Action
from tournaments.models import TournamentEvent
from tournaments.oversight.selectors import start_time

# How old a tap a tablet's queue may report: a tablet offline longer than this sends its actions
# still, but its clock is not believed (the event keeps only its arrival time).
TAPPED_AT_WINDOW = timedelta(hours=6)
TAPPED_AT_SKEW = timedelta(minutes=2)  # a tablet's clock a little ahead of the server's


def tapped_at(text: str):
    """The ``X-Tapped-At`` header of a queued action (ISO 8601 with its offset): when the floor
    tapped it on a tablet that was offline. None when absent, unreadable, naive, in the future
    or older than ``TAPPED_AT_WINDOW``: a tablet's word is taken only within those bounds."""
    if not text or len(text) > 40:
        return None
    try:
        when = parse_datetime(text.strip())
    except ValueError:
        return None
    if when is None or timezone.is_naive(when):
        return None
    now = timezone.now()
    if when > now + TAPPED_AT_SKEW or when < now - TAPPED_AT_WINDOW:
        return None
    return min(when, now)


def judged(tournament, actor):
    """The actor of a queued action as the tournament believes him: a tap time before the
    tournament started is dropped, as ``tapped_at`` drops the ones it cannot believe (nothing of
    the event was there to tap: a tablet's clock set wrong, or a tap time made up to be judged
    against a seat map older than the tournament). The action is then judged as arriving now.
    Read once per action (the start's event), only for a queued one."""
    if actor is None or actor.tapped_at is None or tournament is None or getattr(actor, "judged_for", None) == tournament.pk:
        return actor
    started = start_time(tournament)
    tap = actor.tapped_at if started is not None and actor.tapped_at >= started else None
    out = Actor(actor.user, actor.device, tap)
    out.judged_for = tournament.pk
    return out


class Actor:
    """Who did it, from where: a user (or None for the system) and a device label; for an action
    a tablet queued while offline, when it was tapped (``tapped_at``, written in its event)."""

    def __init__(self, user=None, device: str = "", tapped_at=None):
        self.user = user if (user is not None and getattr(user, "is_authenticated", False)) else None
        self.device = device
        self.tapped_at = tapped_at
        self.judged_for = None  # the tournament whose start the tap time was checked against (``judged``)

    @classmethod
    def from_request(cls, request):
        ip = security.client_ip(request)  # X-Forwarded-For only from TDM_TRUSTED_PROXIES
        agent = request.META.get("HTTP_USER_AGENT", "")[:120]
        return cls(request.user, f"{ip} {agent}".strip(), tapped_at(request.headers.get("X-Tapped-At", "")))

    @property
    def label(self):
        return self.user.get_username() if self.user else "system"


log = logging.getLogger(__name__)
SYSTEM = Actor()
TELL_PLAYERS = "tournaments.tasks.tell_players"
_EVENTS = Inserts(TournamentEvent)  # the INSERT compiled once per database and number of rows


def log_event(tournament, action: Action, actor: Actor | None = None, **payload) -> TournamentEvent:
    """Append one event row and publish the tournament's change once the transaction commits."""
    return log_events(tournament, actor, [(action, payload)])[0]


def log_events(tournament, actor: Actor | None, events: list[tuple[Action, dict]], *, write=None) -> list[TournamentEvent]:
    """Append several event rows in one statement (in this order), and publish the change
    once, with the last action, when the transaction commits (``publish_on_commit``: once per
    tournament and transaction, however many events it logs). Every action is a member of
    ``tournaments.actions.Action``: an unknown one is a programming error (ValueError).

    ``write``: the caller writes the rows itself, later in the same transaction and before
    any other event row (``write(rows)``; the keys are set once written): a service that
    sends them with its own last statement (``seating.services.room.Room.insert``)."""
    actor = judged(tournament, actor or SYSTEM)
    if actor.tapped_at is not None:  # a queued action: when it was tapped, beside the row's arrival time
        tapped = actor.tapped_at.isoformat()
        events = [(action, {**payload, "tapped_at": tapped}) for action, payload in events]
    rows = [
        TournamentEvent(
            tournament=tournament, action=Action(action).value, actor=actor.user, actor_label=actor.label, device=actor.device[:200], payload=payload
        )
        for action, payload in events
    ]
    if write is not None:
        write(rows)
    else:
        _EVENTS.insert(rows)  # one statement; the keys come back with it
    if tournament is not None and rows:
        publish_on_commit(tournament.pk, rows[-1].action)
    return rows


class _Publish:
    """A tournament's change, published when the transaction commits (``on_commit``'s callback)."""

    __slots__ = ("tid", "action")

    def __init__(self, tid: int, action: str):
        self.tid, self.action = tid, action

    def __call__(self):
        realtime.tournament_changed(self.tid, self.action)


def tell_key(tid: int) -> str:
    return f"{settings.TDM_NAMESPACE}:tell:{tid}"


def tell_players_later(tid: int) -> None:
    """After a change commits and its notice went out (on the publisher's thread, never the
    request's: ``realtime.after_publish``), the worker works out what the subscribed players
    are told (``tournaments.tasks.tell_players``). One task waits per tournament: the changes
    committed before it starts are all its (it reads the pages as they are then); it clears the
    marker as it starts, so a later change sends another. Without Redis (the tests, a management
    command) nothing is sent: the next change with a worker tells it."""
    client = realtime.redis_client()
    if not settings.TDM_PUSH_TASKS or client is None:
        return
    try:
        if client.set(tell_key(tid), "1", nx=True, ex=120):
            signature(TELL_PLAYERS, args=(tid,)).apply_async(expires=300)
    except Exception:  # the change is committed: a notice late is better than an error page
        log.warning("could not send the players' notices task for tournament %s", tid)


def publish_on_commit(tid: int, action: str) -> None:
    """Publish the tournament's change when the transaction commits, once per service: a sale
    that seats the player, a bust that proposes moves log several events in one transaction,
    and every web process's hub would build the lobby's snapshot again for each publication
    (the first build already shows them all). Within a unit of work (``tdmanager.transactions``)
    a publication already waiting for this commit takes the newer action instead of a second
    one being made (the message's action is informative: the hub reads only the tournament),
    as long as it is still waiting: one made in a savepoint that rolled back is gone with it,
    and the next event makes its own. Outside a transaction it is published at once, as
    ``on_commit`` does."""
    connection = transaction.get_connection()
    memo = unit_memo()
    if memo is None or not connection.in_atomic_block:
        transaction.on_commit(_Publish(tid, action))
        return
    waiting = memo.setdefault("publications", {})
    pub = waiting.get(tid)
    # Still waiting: not dropped by a savepoint's rollback. It commits when this does (a
    # savepoint still open around it is one around this event too; one released is part of it).
    if pub is not None and any(func is pub for _savepoints, func, *_robust in connection.run_on_commit):
        pub.action = action
        return
    pub = waiting[tid] = _Publish(tid, action)
    transaction.on_commit(pub)
