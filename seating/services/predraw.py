"""SEAT-02 (004): the pre-event draw of registrants into sessions, tables and seats."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.errors import DomainError
from tdmanager.transactions import service
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_event
from tournaments.models import Entry, Tournament

from .. import engine, replay
from .. import predraw as engine_predraw
from ..models import PreDrawSeat
from . import cardrooms
from .draws import RNG_NAME
from .plan import draw_seed, house

MAX_SESSIONS = 20
MAX_LABEL = 20


def check_sessions(sessions) -> list[str]:
    """The session labels as given (trimmed), or a 400 naming ``sessions``."""
    if not isinstance(sessions, list) or not 1 <= len(sessions) <= MAX_SESSIONS:
        raise DomainError(
            "invalid",
            _("Sessions: give from 1 to %(n)s session names.") % {"n": MAX_SESSIONS},
            status=400,
            fields={"sessions": [_("Give from 1 to %(n)s session names.") % {"n": MAX_SESSIONS}]},
        )
    labels = [s.strip() if isinstance(s, str) else "" for s in sessions]
    if any(not s or len(s) > MAX_LABEL or "\n" in s for s in labels) or len(set(labels)) != len(labels):
        message = _("Each session needs its own name of 1 to %(n)s characters.") % {"n": MAX_LABEL}
        raise DomainError("invalid", _("Sessions: %(m)s") % {"m": message}, status=400, fields={"sessions": [message]})
    return labels


@service
def predraw(tournament, sessions, *, actor, reason: str = "", now=None) -> list[PreDrawSeat]:
    """Draw every registrant (paid or pre-registered, not banned) into ``sessions`` and their
    tables and seats, replacing an earlier pre-draw; before the tournament runs only. Logged
    with the shuffle, like the other draws (SEAT-01), so the controller can check it."""
    labels = check_sessions(sessions)
    t = lock_tournament(tournament)
    if t.status not in (Tournament.PLANNED, Tournament.REGISTERING):
        raise DomainError("predraw_too_late", _("Registrants are drawn into sessions before the tournament starts."), status=409)
    entries = list(
        Entry.objects.filter(tournament=t, status__in=(Entry.ACTIVE, Entry.RESERVED), person__banned=False).order_by("number").values_list("pk", flat=True)
    )
    if not entries:
        raise DomainError("nobody_registered", _("Nobody is registered yet."), status=409)
    rules = house(t)
    seed = draw_seed()
    # Where the venue keeps a room: the tables of its largest session, kept for the
    # event until it starts there (each session sits at the same tables in turn).
    largest = -(-len(entries) // len(labels))
    count = engine.tables_needed(largest, per_table=rules.start_players_per_table or rules.table_size)
    room_id, numbers = cardrooms.room_of_new_draw(t.pk, rules, count), None
    if room_id is not None:
        numbers = cardrooms.numbers_for(t.pk, room_id, count, seats=rules.table_size, zone=rules.room_zone)
        cardrooms.keep_for(t.pk, room_id, numbers)
    assignments, order = engine_predraw.predraw(
        entries, labels, capacity=rules.table_size, rng=replay.rng_of(seed), max_players_per_table=rules.start_players_per_table, table_numbers=numbers
    )
    now = now or timezone.now()
    PreDrawSeat.objects.filter(tournament=t).delete()
    rows = PreDrawSeat.objects.bulk_create(
        PreDrawSeat(tournament=t, entry_id=a.player, session=a.session, table=a.table, seat=a.seat, drawn_at=now) for a in assignments
    )
    log_event(
        t,
        Action.SEATING_PREDRAW,
        actor,
        players=len(entries),
        sessions=len(labels),
        session_list=", ".join(labels),
        rng=RNG_NAME,
        order=order,
        assignment=[[a.player, a.session, a.table, a.seat] for a in assignments],
        reason=reason,
        # What replays the draw (seating.replay): the seed and the inputs.
        seed=str(seed),
        entries=entries,
        session_labels=labels,
        capacity=rules.table_size,
        max_players_per_table=rules.start_players_per_table,
        table_numbers=numbers,
    )
    return rows
