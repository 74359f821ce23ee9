"""Tournament lifecycle: planned → registering → running → finished (or cancelled)."""

import logging
from decimal import Decimal

from celery import signature
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tdmanager.errors import DomainError
from tdmanager.transactions import service
from tournaments import signals
from tournaments.cashier.ledger import lock_tournament
from tournaments.clock import services as clock_services
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.house import HouseRules
from tournaments.models import BlindStructure, Clock, Entry, LedgerRow, Tournament, WaitingStart
from tournaments.oversight import selectors as oversight_selectors
from tournaments.setup.services import copy_structure
from tournaments.signals import announce

log = logging.getLogger(__name__)
START_WAITING = "tournaments.tasks.start_waiting_events"


class LifecycleError(DomainError):
    pass


@service
def open_registration(tournament, *, actor: Actor) -> Tournament:
    t = lock_tournament(tournament)
    if t.status != Tournament.PLANNED:
        raise LifecycleError("bad_status", _("Registration can only be opened for a planned tournament."))
    t.status = Tournament.REGISTERING
    t.save(update_fields=["status"])
    log_event(t, Action.TOURNAMENTS_REGISTRATION_OPENED, actor)
    return t


#: what a start does when the room has too few free tables: refused with the number
#: missing (``room_full``), or waits and starts by itself once they are free
REFUSE, WAIT = "refuse", "wait"
WHEN_ROOM_FULL = (REFUSE, WAIT)


@service
def start(
    tournament,
    *,
    actor: Actor,
    override_minimum: bool = False,
    prestart_report_sent: bool = False,
    start_clock: bool = False,
    seat_later_sessions: bool = False,
    when_room_full: str = REFUSE,
    now=None,
) -> Tournament:
    """Start the tournament: needs the minimum field (FMT-14) unless the director overrides, and,
    where the rule set asks for it (003, ROLE-02), confirmation that the pre-start report was sent.
    With ``start_clock`` the clock starts in the same transaction (the page asks, ticked by
    default); without it the lobby shows the first level waiting for the director's start.
    Seating draws the seats; after a draw in advance (SEAT-02) it refuses the start while paid
    players drawn into a later session wait, unless ``seat_later_sessions``. When the room has
    too few free tables the start is refused (``room_full``) or, ``when_room_full="wait"``, it
    waits (``WaitingStart``, nothing else written) and starts by itself once they are free: the
    tournament's status then stays as it was."""
    if when_room_full not in WHEN_ROOM_FULL:
        raise LifecycleError("invalid", _("When the room is full: refuse or wait."), status=400, field="when_room_full")
    options = {
        "override_minimum": override_minimum,
        "prestart_report_sent": prestart_report_sent,
        "start_clock": start_clock,
        "seat_later_sessions": seat_later_sessions,
    }
    t = lock_tournament(tournament)
    if when_room_full == REFUSE:
        return _start(t, actor=actor, now=now, **options)
    try:
        with transaction.atomic():  # a savepoint: a start refused for want of tables leaves nothing
            return _start(t, actor=actor, now=now, **options)
    except DomainError as refusal:
        if refusal.code != "room_full":
            raise
        t.refresh_from_db()
        missing = refusal.extra.get("missing", 0)
        WaitingStart.objects.update_or_create(
            tournament=t,
            defaults={"asked_by": actor.user, "device": actor.device[:200], "asked_at": now or timezone.now(), "options": options, "missing": missing},
        )
        log_event(t, Action.TOURNAMENTS_START_WAITING, actor, missing=missing)
        return t


def _start(t, *, actor, override_minimum, prestart_report_sent, start_clock, seat_later_sessions, now=None, waited=False) -> Tournament:
    now = now or timezone.now()
    if t.status not in (Tournament.PLANNED, Tournament.REGISTERING):
        raise LifecycleError("bad_status", _("This tournament has already started or ended."))
    if requires_prestart_report(t) and not prestart_report_sent:
        raise LifecycleError(
            "prestart_report_required",
            _("Confirm that the pre-start report (registered players, totals, ticket stubs) was sent to the control authority."),
        )
    players = t.entries.filter(status=Entry.ACTIVE).exclude(person__banned=True).count()  # REG-05: a banned payer does not play
    if players < t.min_players and not override_minimum:
        raise LifecycleError(
            "below_minimum",
            ngettext("Only %(n)s player has paid; the minimum is %(min)s.", "Only %(n)s players have paid; the minimum is %(min)s.", players)
            % {"n": players, "min": t.min_players},
        )
    if t.structure_id is None:
        raise LifecycleError("no_structure", _("Choose a blind structure before starting."))
    t.structure = private_structure(t)
    t.status = Tournament.RUNNING
    t.save(update_fields=["status", "structure"])
    WaitingStart.objects.filter(tournament=t).delete()  # a start asked directly ends the waiting one
    Clock.objects.get_or_create(tournament=t)
    extra = {"waited": True} if waited else {}
    log_event(
        t, Action.TOURNAMENTS_TOURNAMENT_STARTED, actor, players=players, override_minimum=override_minimum, prestart_report_sent=prestart_report_sent, **extra
    )
    announce(signals.tournament_started, t, actor, seat_later_sessions=seat_later_sessions)  # seating draws the seats
    if start_clock:
        clock_services.start_clock(t, actor=actor, now=now)
    return t


def start_waiting(now=None) -> int:
    """The starts waiting for free tables, oldest first, each tried again (the beat every few
    seconds, and the moment a table is given back): those the room can now hold start, as
    asked, in the name of whoever asked; one refused for another reason (its players refunded
    below the minimum, …) stops waiting, the refusal in its log. Returns how many started."""
    started = 0
    for pk in list(WaitingStart.objects.order_by("asked_at", "pk").values_list("tournament_id", flat=True)):
        started += _start_if_tables(pk, now=now)
    return started


@service
def _start_if_tables(tournament_id: int, now=None) -> bool:
    t = lock_tournament(tournament_id)
    waiting = WaitingStart.objects.select_for_update().filter(tournament=t).first()  # its login read apart: no lock through an outer join
    if waiting is None:
        return False  # started or stopped meanwhile
    actor = Actor(waiting.asked_by, waiting.device)
    try:
        with transaction.atomic():
            _start(t, actor=actor, now=now, waited=True, **waiting.options)
    except DomainError as refusal:
        t.refresh_from_db()
        if refusal.code == "room_full":
            missing = refusal.extra.get("missing", 0)
            if missing != waiting.missing:
                waiting.missing = missing
                waiting.save(update_fields=["missing"])
            return False
        waiting.delete()
        log_event(t, Action.TOURNAMENTS_START_WAIT_REFUSED, actor, code=refusal.code, detail=str(refusal.message))
        return False
    return True


@service
def stop_waiting(tournament, *, actor: Actor) -> Tournament:
    """The director no longer wants the event to start by itself when tables are free."""
    t = lock_tournament(tournament)
    if WaitingStart.objects.filter(tournament=t).delete()[0]:
        log_event(t, Action.TOURNAMENTS_START_WAIT_STOPPED, actor)
    return t


def tables_freed() -> None:
    """A room's tables were given back or put back in service: once this commits, the starts
    waiting for tables are tried at once (a task; the beat tries them anyway every few seconds).
    Nothing when none waits, or with no broker to send the task to."""
    if not settings.REDIS_URL or not WaitingStart.objects.exists():
        return

    def send():
        try:
            signature(START_WAITING).apply_async(expires=60)
        except Exception:
            log.warning("could not send the waiting starts' task; the beat will try them")

    transaction.on_commit(send)


def requires_prestart_report(t: Tournament) -> bool:
    """ROLE-02: Sanremo (003) events send the registered list before the start; a house setting elsewhere."""
    return HouseRules.of(t).require_prestart_report


def private_structure(t: Tournament) -> BlindStructure:
    """The tournament's own copy of its structure, so that inserting a break or editing a level
    never changes the template other tournaments use."""
    st = t.structure
    if not st.is_template and not Tournament.objects.filter(structure=st).exclude(pk=t.pk).exists():
        return st
    return copy_structure(st, f"{t.name} — {st.name}")  # every column, removed chips too (CLK-09)


@service
def finish(tournament, *, actor: Actor) -> Tournament:
    t = lock_tournament(tournament)
    if t.status != Tournament.RUNNING:
        raise LifecycleError("bad_status", _("Only a running tournament can be finished."))
    t.status = Tournament.FINISHED
    t.save(update_fields=["status"])
    log_event(t, Action.TOURNAMENTS_TOURNAMENT_FINISHED, actor)
    _stop_clock(t, actor)
    return t


def _stop_clock(t: Tournament, actor: Actor) -> None:
    """A tournament that is over stops its clock: the lobby never counts a level after the end."""
    clock = Clock.objects.filter(tournament=t).first()
    if clock is not None and clock.status != Clock.FINISHED and t.structure_id:
        clock_services.finish_clock(t, actor=actor)


@service
def cancel(tournament, *, actor: Actor, reason: str) -> Tournament:
    """Cancel: every live entry is cancelled (its seat given back) and every one that paid is
    owed its payments in full (FMT-02). No money moves here: the refunds are due at the desk
    (``cashier.refunds_due``), each paid by a cashier on his own shift within the cash limit
    (``cashier.pay_refund``, REG-06), and listed there until paid. The entries owed are kept in
    the event's ``refunds_due``."""
    t = lock_tournament(tournament)
    if t.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise LifecycleError("bad_status", _("This tournament has already ended."))
    if not reason.strip():
        raise LifecycleError("reason_required", _("Cancelling needs a reason."), status=400)
    why = signals.ask_one(signals.cancel_checked, tournament=t)
    if why:
        raise LifecycleError(*why)
    t.status = Tournament.CANCELLED
    t.save(update_fields=["status"])
    WaitingStart.objects.filter(tournament=t).delete()
    owed = dict(
        LedgerRow.objects.filter(tournament=t, entry__isnull=False)
        .exclude(entry__status=Entry.CANCELLED)
        .exclude(oversight_selectors.bounty_payments_q())  # PAY-02: what he paid back, his bounty part too
        .values("entry_id")
        .order_by()
        .annotate(total=Sum(F("prize_amount") + F("fee_amount") + F("side_amount") + F("jackpot_amount") + F("bounty_amount")))
        .values_list("entry_id", "total")
    )
    due = []
    for entry in t.entries.exclude(status=Entry.CANCELLED).order_by("number"):
        if (owed.get(entry.pk) or 0) > 0:
            due.append(entry.pk)
        entry.status = Entry.CANCELLED  # the chips stay on the entry until its refund takes them off the ledger
        entry.save(update_fields=["status"])
        announce(signals.entry_cancelled, t, actor, entry=entry)
    log_event(t, Action.TOURNAMENTS_TOURNAMENT_CANCELLED, actor, reason=reason, refunds_due=due, refund_total=str(sum((owed[i] for i in due), Decimal(0))))
    _stop_clock(t, actor)
    return t


@service
def delete(tournament, *, actor: Actor) -> None:
    """Delete a tournament that never sold anything (a duplicate, a mistake). One with entries
    or ledger rows is refused: cancel it instead (every entry refunded, the record kept).

    Its own rows go with it (clock, tables, payout table, stack options…); its event-log rows
    stay in the log, detached, and one more row records the deletion with its id and name.
    A tournament another one points at (a flight, a Day 2, a satellite target, a series day)
    is refused too: the event it belongs to would be left broken.
    """
    t = lock_tournament(tournament)
    if t.entries.exists() or t.ledger.exists():
        raise LifecycleError("tournament_has_sales", _("This tournament has entries or sales: cancel it instead."))
    pk, name = t.pk, t.name
    try:
        with transaction.atomic():
            t.delete()
    except IntegrityError:  # ProtectedError too: a row elsewhere needs this tournament
        raise LifecycleError("tournament_in_use", _("This tournament is part of an event, a series or a satellite: cancel it instead.")) from None
    log_event(None, Action.TOURNAMENTS_TOURNAMENT_DELETED, actor, tournament_id=pk, name=name)
