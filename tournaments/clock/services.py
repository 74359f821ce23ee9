"""Clock services: every director action on the clock (CLK-07), the level transitions Celery
drives (CLK-03), and the rule effects at level boundaries (late registration, add-on, the
breaks and their colour-ups: CLK-04, CLK-09).

The ``Clock`` row is the truth. Each change locks it, applies the pure arithmetic of
``tournaments.clock``, bumps ``version``, writes one event row and, on commit, publishes the
new state and arms a short countdown task for the next transition.
"""

import logging
from datetime import timedelta

from celery import signature
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tdmanager import realtime
from tdmanager.errors import DomainError
from tdmanager.transactions import service
from tournaments import signals
from tournaments.cashier.ledger import lock_tournament
from tournaments.cashier.services import registration
from tournaments.clock import rules as engine
from tournaments.clock.selectors import engine_state, h4h_money, structure_items
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.floor import services as floor
from tournaments.house import HouseRules
from tournaments.models import Clock, Entry, HandForHandReport, StructureItem, Tournament
from tournaments.setup.streaming import extra_break_refusal

log = logging.getLogger(__name__)
RUNS = (Clock.RUNNING, Clock.HAND_FOR_HAND)  # play is on: time suspensions run (PEN-05)
ARM_WINDOW_SECONDS = 300  # never arm a countdown further away than this (Redis visibility timeout)
# The countdown task, armed by its name: the tasks module imports these services, not the reverse.
CLOCK_TICK = "tournaments.tasks.clock_tick"

# Lazy: made at import, they are said in the language of whoever is refused.
MESSAGES = {
    "not_running": gettext_lazy("The clock is not running."),
    "not_started": gettext_lazy("The clock has not started."),
    "already_running": gettext_lazy("The clock is already running."),
    "already_finished": gettext_lazy("The clock is already finished."),
    "not_paused": gettext_lazy("The clock is not paused."),
    "bad_time": gettext_lazy("That time is not possible (it must stay above zero and below 24 hours)."),
    "bad_level": gettext_lazy("There is no such level in the structure."),
    "in_break": gettext_lazy("Not possible during a break."),
    "hand_for_hand": gettext_lazy("End hand-for-hand first."),
    "already_hand_for_hand": gettext_lazy("Hand-for-hand is already on."),
    "not_hand_for_hand": gettext_lazy("Hand-for-hand is not on."),
    "already_paused": gettext_lazy("The clock is already paused."),
    "already_started": gettext_lazy("The clock has already been started."),
    "finished": gettext_lazy("The clock is finished."),
    "bad_state": gettext_lazy("The clock's saved state cannot be read: set the level and the time left again."),
    "bad_structure": gettext_lazy("This structure cannot run a clock: it is empty or does not end with a level."),
    "bad_policy": gettext_lazy("There is no such choice for the breaks during hand-for-hand."),
    "bad_preset": gettext_lazy("There is no such clock-call preset."),
}


class ClockActionError(DomainError):
    pass


def _error(exc: engine.ClockError):
    return ClockActionError(exc.code, MESSAGES.get(exc.code, str(exc)))


def _save_state(clock: Clock, state: engine.ClockState):
    clock.status, clock.item_index, clock.ends_at = state.status, state.item_index, state.ends_at
    clock.remaining, clock.version = state.remaining, state.version
    clock.h4h_hand, clock.h4h_seconds_per_hand = state.h4h_hand, state.h4h_seconds_per_hand
    clock.save()


def _lock(tournament) -> tuple[Tournament, Clock]:
    t = Tournament.objects.get(pk=getattr(tournament, "pk", tournament))
    Clock.objects.get_or_create(tournament=t)
    clock = Clock.objects.select_for_update().get(tournament=t)
    return t, clock


def _store_structure(t: Tournament, items: list) -> None:
    """Write the tournament's own structure after a break was inserted (CLK-04)."""
    t.structure.items.all().delete()
    rows = []
    for i, it in enumerate(items):
        if isinstance(it, engine.Break):
            rows.append(
                StructureItem(
                    structure=t.structure,
                    position=i,
                    kind=StructureItem.BREAK,
                    minutes=it.minutes,
                    color_up=it.color_up,
                    add_on=it.add_on,
                    resume_seconds_left=it.resume_seconds_left,
                    removes_denominations=list(it.removes_denominations),
                )
            )
        else:
            rows.append(
                StructureItem(
                    structure=t.structure,
                    position=i,
                    kind=StructureItem.LEVEL,
                    small_blind=it.small_blind,
                    big_blind=it.big_blind,
                    ante=it.ante,
                    big_blind_ante=it.ante_type == engine.BB_ANTE,
                    minutes=it.minutes,
                    game=it.game,
                )
            )
    StructureItem.objects.bulk_create(rows)
    t._engine_structure = list(items)


def _boundary_events(t: Tournament, items, old: engine.ClockState, new: engine.ClockState, actor: Actor):
    """The rule effects of the items the clock entered between ``old`` and ``new``: a break and
    its colour-up announced (CLK-04, CLK-09), a level started (CLK-03), the sales closed."""
    if new.item_index <= old.item_index:
        return  # no boundary crossed forward (a jump back re-opens nothing by itself)
    for index in range(old.item_index + 1, new.item_index + 1):
        item = items[index]
        level_no = engine.level_number_of(items, index)
        if isinstance(item, engine.Break):
            payload = {"item_index": index, "minutes": item.minutes, "after_level": level_no}
            log_event(t, Action.TOURNAMENTS_CLOCK_BREAK_STARTED, actor, **payload)
            if item.color_up or item.removes_denominations:  # the note as typed; the chips the structure removes
                log_event(
                    t, Action.TOURNAMENTS_COLORUP_ANNOUNCED, actor, note=item.color_up, denominations=list(item.removes_denominations), after_level=level_no
                )
            if t.addon_after_level == level_no and t.allows_addon and not item.is_mid_level:
                log_event(t, Action.TOURNAMENTS_ADDON_OPENED, actor, after_level=level_no)
        else:
            log_event(
                t,
                Action.TOURNAMENTS_CLOCK_LEVEL_STARTED,
                actor,
                item_index=index,
                level=level_no,
                small_blind=item.small_blind,
                big_blind=item.big_blind,
                ante=item.ante,
                applies_from_next_hand=True,
            )
            ended = level_no - 1
            prev = items[index - 1] if index > 0 else None
            if isinstance(prev, engine.Break) and t.addon_after_level == ended and t.allows_addon:
                log_event(t, Action.TOURNAMENTS_ADDON_CLOSED, actor, after_level=ended)
            rules = HouseRules.of(t)  # a level the tournament does not name is the house default's (REG-04, FMT-04)
            for last, action in (
                (rules.late_registration_level(t), Action.TOURNAMENTS_LATE_REGISTRATION_CLOSED),
                (rules.rebuy_level(t) if t.allows_rebuy else None, Action.TOURNAMENTS_REBUY_CLOSED),
                (t.reentry_until_level, Action.TOURNAMENTS_REENTRY_CLOSED),
            ):
                if last == ended and ended >= 1:
                    log_event(t, action, actor, after_level=ended)
            last_sale = max(
                rules.late_registration_level(t), rules.rebuy_level(t) if t.allows_rebuy else 0, (t.addon_after_level or 0) if t.allows_addon else 0
            )
            if last_sale == ended and ended >= 1:  # PAY-05: the pool is final: payouts locks the table
                signals.announce(signals.sales_closed, t, actor, after_level=ended)


def _after_commit(t_id: int, state: engine.ClockState, items):
    transaction.on_commit(lambda: arm(t_id, state, items))


def _run(tournament, action: str, fn, *, actor: Actor, reason: str = "", now=None, **payload):
    now = now or timezone.now()
    t, clock = _lock(tournament)
    items = structure_items(t)
    if not items:
        raise ClockActionError("no_structure", _("This tournament has no blind structure."))
    state = engine_state(clock)
    try:
        result = fn(state, items, now)
    except engine.ClockError as exc:
        raise _error(exc) from None
    if isinstance(result, tuple):  # insert_break returns (structure, state)
        items, result = result
        _store_structure(t, items)
    _save_state(clock, result)
    if (state.status in RUNS) != (result.status in RUNS):  # PEN-05: time suspensions run on this clock
        floor.sync_time_suspensions(t, running=result.status in RUNS, now=now)
    _boundary_events(t, items, state, result, actor)
    snap = engine.snapshot(result, items, now)
    log_event(
        t,
        Action(f"tournaments.clock.{action}"),
        actor,
        reason=reason,
        version=result.version,
        level=snap["level_number"],
        is_break=snap["is_break"],
        seconds_left=snap["seconds_left"],
        **payload,
    )
    _after_commit(t.pk, result, items)
    return clock


@service
def start_clock(tournament, *, actor: Actor, now=None):
    """Start the clock on a structure the one structure validation (``clock.validate_structure``,
    as the structures service) accepts; its warnings are the clock page's to show."""

    def start(state, items, now):
        engine.validate_structure(items)
        return engine.start(state, items, now)

    return _run(tournament, "started", start, actor=actor, now=now)


@service
def pause(tournament, *, actor: Actor, reason: str = "", now=None):
    return _run(tournament, "paused", engine.pause, actor=actor, reason=reason, now=now)


@service
def resume(tournament, *, actor: Actor, reason: str = "", now=None):
    return _run(tournament, "resumed", engine.resume, actor=actor, reason=reason, now=now)


@service
def add_time(tournament, seconds: int, *, actor: Actor, reason: str = "", now=None):
    # One action for both signs: the log's sentence says "changed the time left by N seconds".
    return _run(tournament, "time_added", lambda s, i, n: engine.add_time(s, i, n, seconds), actor=actor, reason=reason, now=now, seconds=seconds)


@service
def set_time_left(tournament, seconds: float, *, actor: Actor, reason: str = "", now=None):
    return _run(tournament, "time_set", lambda s, i, n: engine.set_time_left(s, i, n, seconds), actor=actor, reason=reason, now=now, seconds=seconds)


@service
def jump_to(tournament, item_index: int, *, actor: Actor, reason: str = "", seconds_left=None, now=None):
    return _run(
        tournament,
        "jumped",
        lambda s, i, n: engine.jump_to(s, i, n, item_index, seconds_left=seconds_left),
        actor=actor,
        reason=reason,
        now=now,
        to_item=item_index,
    )


@service
def insert_break(tournament, minutes: int, *, actor: Actor, reason: str = "", color_up: str = "", now=None):
    """An extra break (CLK-*); while the TV table streams live, only when it is the final table (ROLE-08)."""
    refusal = extra_break_refusal(Tournament.objects.get(pk=getattr(tournament, "pk", tournament)))
    if refusal:
        raise ClockActionError("extra_break_streaming", refusal)
    return _run(
        tournament,
        "break_inserted",
        lambda s, i, n: engine.insert_break(s, i, n, minutes, color_up=color_up),
        actor=actor,
        reason=reason,
        now=now,
        minutes=minutes,
    )


@service
def finish_clock(tournament, *, actor: Actor, reason: str = "", now=None):
    return _run(tournament, "finished", engine.finish, actor=actor, reason=reason, now=now)


@service
def start_hand_for_hand(tournament, *, actor: Actor, seconds_per_hand: int | None = None, reason: str = "", now=None):
    """CLK-06: freeze the countdown; the hand in progress is H4H hand 1."""
    t = Tournament.objects.get(pk=getattr(tournament, "pk", tournament))
    seconds = seconds_per_hand or HouseRules.of(t).h4h_seconds_per_hand
    players_left = t.entries.filter(status=Entry.ACTIVE).count()
    # CLK-06 (1): the announcement records the places paid with the players left ("28 left, 27 paid").
    places_paid = signals.ask_one(signals.places_paid_wanted, default=None, tournament=t)
    # ELM-04: a hand's busts are the run of busts carrying its number, so hand-for-hand announced
    # again with no bust since the last one (right after the money, for the final table's bubble)
    # numbers its hands past that bust's: they never join the earlier announcement's hand.
    last = signals.ask_one(signals.last_bust_h4h_hand_wanted, default=None, tournament=t)
    first = last + 1 if last else 1
    clock = _run(
        t,
        "hand_for_hand_started",
        lambda s, i, n: engine.start_hand_for_hand(s, i, n, seconds, first_hand=first),
        actor=actor,
        reason=reason,
        now=now,
        seconds_per_hand=seconds,
        players_left=players_left,
        places_paid=places_paid,
    )
    # Each announcement numbers its hands from 1: the tables' reports of an earlier one (their
    # hand 1, 2 …) would count as this one's (each report is in the event log already).
    HandForHandReport.objects.filter(tournament=t).delete()
    return clock


@service
def end_hand_for_hand(tournament, *, actor: Actor, reason: str = "", now=None):
    clock = _run(tournament, "hand_for_hand_ended", lambda s, i, n: engine.end_hand_for_hand(s, n), actor=actor, reason=reason, now=now)
    signals.h4h_hand_closed.send(sender=Tournament, tournament=clock.tournament, actor=actor)  # the moves that waited are made
    return clock


@service
def h4h_next_hand(tournament, *, actor: Actor, now=None):
    """Every table has finished the hand: the time left drops by the setting (RP-8-B/C); the
    hand that reached the money ends hand-for-hand (``h4h_money``). The director says so for
    every table: the balancing moves that waited for a table's hand are made."""
    t, clock = _lock(tournament)
    if clock.status != Clock.HAND_FOR_HAND:
        raise ClockActionError("not_hand_for_hand", MESSAGES["not_hand_for_hand"])
    clock = _h4h_hand_over(t, h4h_money(t, clock.h4h_hand), actor=actor, now=now)
    signals.h4h_hand_closed.send(sender=Tournament, tournament=t, actor=actor)
    return clock


def _h4h_hand_over(t, money: dict, *, actor: Actor, now=None):
    """Every table has finished the hand: the next one starts, or, the hand that reached the
    money being the last (``h4h_money``), hand-for-hand ends with it, in the same action."""
    policy = HouseRules.of(t).h4h_break_policy
    if not money["last_hand"]:
        return _run(t, "hand_for_hand_next_hand", lambda s, i, n: engine.h4h_next_hand(s, i, break_policy=policy), actor=actor, now=now)
    return _run(
        t,
        "hand_for_hand_ended",
        lambda s, i, n: engine.h4h_hand_over(s, i, n, last=True, break_policy=policy),
        actor=actor,
        now=now,
        money_reached=True,
        players_left=money["players_left"],
        places_paid=money["places_paid"],
    )


@service
def report_hand_complete(tournament, table_number: int, *, actor: Actor, now=None) -> dict:
    """A table (floor or dealer, one tap) reports the current H4H hand complete.

    When every table in play has reported, the next hand starts on its own; when that hand
    reached the money, hand-for-hand ends instead (house setting ``h4h_ends_at_money``).
    Returns ``{"hand": n, "waiting": [tables still playing], "next_hand_started": bool,
    "hand_for_hand_ended": bool}``.
    """
    t, clock = _lock(tournament)
    if clock.status != Clock.HAND_FOR_HAND:
        raise ClockActionError("not_hand_for_hand", MESSAGES["not_hand_for_hand"])
    tables = tables_in_play(t)
    if tables and table_number not in tables:
        raise ClockActionError("unknown_table", _("Table %(n)s is not in play.") % {"n": table_number})
    hand = clock.h4h_hand
    HandForHandReport.objects.update_or_create(
        tournament=t, hand=hand, table_number=table_number, defaults={"reported_by": actor.user, "state": HandForHandReport.COMPLETE}
    )
    log_event(t, Action.TOURNAMENTS_CLOCK_HAND_COMPLETED, actor, hand=hand, table=table_number)
    waiting = h4h_waiting_tables(t, hand, tables)
    started = ended = False
    if tables and not waiting:
        money = h4h_money(t, hand)
        _h4h_hand_over(t, money, actor=actor, now=now)
        ended, started = money["last_hand"], not money["last_hand"]
    return {"hand": hand, "waiting": waiting, "next_hand_started": started, "hand_for_hand_ended": ended}


@service
def set_h4h_table_state(tournament, table_number: int, state: str, *, actor: Actor, now=None) -> dict:
    """CLK-06 (4): the floor sets a table's state in the current hand-for-hand hand: IN_HAND
    (playing it), ALL_IN_HOLD (an all-in is called: the cards stay face down and no further card
    is dealt until the director says so, RP-8-F). COMPLETE is :func:`report_hand_complete`
    (seating's ``hand_completed``: the blinds move on). Only a COMPLETE table is done: a table
    on hold keeps the next hand waiting. Returns ``{"hand", "table", "state", "waiting", "holding"}``."""
    if state not in (HandForHandReport.IN_HAND, HandForHandReport.ALL_IN_HOLD):
        raise ClockActionError("bad_h4h_state", _("A table is in the hand (IN_HAND) or holds an all-in (ALL_IN_HOLD)."))
    t, clock = _lock(tournament)
    if clock.status != Clock.HAND_FOR_HAND:
        raise ClockActionError("not_hand_for_hand", MESSAGES["not_hand_for_hand"])
    tables = tables_in_play(t)
    if tables and table_number not in tables:
        raise ClockActionError("unknown_table", _("Table %(n)s is not in play.") % {"n": table_number})
    hand = clock.h4h_hand
    rows = HandForHandReport.objects.filter(tournament=t, hand=hand, table_number=table_number)
    if rows.filter(state=HandForHandReport.COMPLETE).exists():
        raise ClockActionError("hand_already_complete", _("Table %(n)s has already finished this hand.") % {"n": table_number})
    if state == HandForHandReport.IN_HAND:
        rows.delete()
    else:
        HandForHandReport.objects.update_or_create(tournament=t, hand=hand, table_number=table_number, defaults={"reported_by": actor.user, "state": state})
    log_event(t, Action.TOURNAMENTS_CLOCK_H4H_TABLE_STATE, actor, hand=hand, table=table_number, state=state)
    return {"hand": hand, "table": table_number, "state": state, "waiting": h4h_waiting_tables(t, hand, tables), "holding": h4h_holding_tables(t, hand)}


def h4h_holding_tables(t, hand: int) -> list[int]:
    """The tables holding an all-in in this hand-for-hand hand (cards face down, RP-8-F)."""
    return sorted(HandForHandReport.objects.filter(tournament=t, hand=hand, state=HandForHandReport.ALL_IN_HOLD).values_list("table_number", flat=True))


def tables_in_play(t) -> list[int]:
    """The numbers of the tables in play (seating answers ``signals.tables_wanted``)."""
    return signals.ask_one(signals.tables_wanted, default=[], tournament=t)


def h4h_waiting_tables(t, hand: int, tables=None) -> list[int]:
    tables = tables_in_play(t) if tables is None else tables
    done = set(HandForHandReport.objects.filter(tournament=t, hand=hand, state=HandForHandReport.COMPLETE).values_list("table_number", flat=True))
    return [n for n in tables if n not in done]


# --- transitions driven by Celery -----------------------------------------------------------


def advance_clock(tournament_id: int, *, expected_version: int | None = None, now=None, actor: Actor | None = None) -> bool:
    """Roll the clock over every item that has ended; True if the row changed.

    Called by the versioned countdown task (``expected_version``: a stale task does nothing)
    and by the beat sweep (no version: it recovers any missed transition). After a level
    change, the REG-09 no-show deadline it may have reached is applied (:func:`apply_no_show_deadline`).
    """
    now = now or timezone.now()
    actor = actor or Actor(None, "celery")
    changed = _advance(tournament_id, expected_version, now, actor)
    if changed:
        apply_no_show_deadline(tournament_id, now=now, actor=actor)
    return changed


def apply_no_show_deadline(tournament_id: int, *, now=None, actor: Actor | None = None) -> bool:
    """REG-09 FORFEIT_AT by the clock: once the end of the house's level plus the grace has
    passed on the tournament clock, the players not arrived are out (``registration.forfeit_not_arrived``,
    its own transaction, after the clock's: once per tournament). True if it ran now."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None or not registration.forfeit_pending(t):
        return False
    if not registration.forfeit_deadline_passed(t, HouseRules.of(t), now or timezone.now()):
        return False  # read without a lock, every second until then: the service checks again under it
    try:
        return registration.forfeit_not_arrived(t, actor=actor or Actor(None, "celery"), now=now) is not None
    except DomainError:
        log.exception("the no-show deadline of tournament %s could not be applied", tournament_id)
        return False


def _advance(tournament_id: int, expected_version: int | None, now, actor: Actor) -> bool:
    with transaction.atomic():
        try:
            clock = Clock.objects.select_for_update().select_related("tournament").get(tournament_id=tournament_id)
        except Clock.DoesNotExist:
            return False
        if expected_version is not None and clock.version != expected_version:
            return False  # someone changed the clock since this task was armed
        t = clock.tournament
        items = structure_items(t)
        if not items:
            return False
        state = engine_state(clock)
        new = engine.advance(state, items, now)
        if new == state:
            _after_commit(t.pk, new, items)
            return False
        _save_state(clock, new)
        _boundary_events(t, items, state, new, actor)
        _after_commit(t.pk, new, items)
        return True


def arm(tournament_id: int, state: engine.ClockState, items, now=None, *, again: bool = False) -> None:
    """Arm a short countdown task for the next transition (never a long ETA, never revoke).

    A marker per clock version arms it once; ``again`` arms it even so: a worker killed while
    holding a countdown takes it along (the broker gives an unacknowledged task back only
    after its visibility timeout, an hour), so a worker that starts arms every countdown anew.
    A countdown armed twice is harmless: the second finds the version changed and does nothing.
    """
    if not getattr(settings, "TDM_ARM_CLOCK_TASKS", True) or not settings.REDIS_URL:
        return
    now = now or timezone.now()
    when = engine.next_transition_at(state, items, now)
    if when is None:
        return
    delay = (when - now).total_seconds()
    if delay > ARM_WINDOW_SECONDS:
        return  # the beat sweep arms it when it comes within the window
    client = realtime.redis_client()
    key = f"{settings.TDM_NAMESPACE}:armed:{tournament_id}:{state.version}"
    try:
        if not client.set(key, "1", nx=True, ex=ARM_WINDOW_SECONDS + 60) and not again:
            return
        signature(CLOCK_TICK, args=(tournament_id, state.version)).apply_async(countdown=max(0.0, delay))
    except Exception:
        log.warning("could not arm the clock task for tournament %s; the sweep will catch it", tournament_id)


def sweep(now=None, *, rearm: bool = False) -> int:
    """Advance every overdue running clock and arm countdowns coming into the window
    (``rearm``: even those armed already, see ``arm``). Returns the clocks changed."""
    now = now or timezone.now()
    changed = 0
    overdue = Clock.objects.filter(status=Clock.RUNNING, ends_at__lte=now).values_list("tournament_id", flat=True)
    for tid in list(overdue):
        changed += advance_clock(tid, now=now)
    soon = Clock.objects.filter(status=Clock.RUNNING, ends_at__gt=now, ends_at__lte=now + timedelta(seconds=ARM_WINDOW_SECONDS))
    for clock in soon.select_related("tournament"):
        arm(clock.tournament_id, engine_state(clock), structure_items(clock.tournament), now, again=rearm)
    # REG-09: a no-show deadline with grace falls inside a level (no transition arms it), and a
    # deadline missed while no worker ran is applied here; each tournament's runs once.
    running = (
        Clock.objects.filter(status__in=(Clock.RUNNING, Clock.PAUSED, Clock.HAND_FOR_HAND), tournament__status=Tournament.RUNNING)
        .exclude(tournament__events__action=Action.CASHIER_NO_SHOWS_FORFEITED)
        .select_related("tournament")
    )
    for clock in running:
        if HouseRules.of(clock.tournament).no_show_policy == "FORFEIT_AT":
            apply_no_show_deadline(clock.tournament_id, now=now)
    return changed


def catch_up(now=None) -> int:
    """A worker comes up (after a crash, a kill, a deploy): every level that should have changed
    while no worker ran changes now, and every countdown is armed anew (the dead worker's are
    lost until the broker's visibility timeout). Run by the worker itself when it is ready, so
    the catch-up waits neither for the beat nor behind a queue that filled while it was down."""
    return sweep(now, rearm=True)


EXPIRY_TEXT = {
    "dead hand": gettext_lazy("On expiry: dead hand."),
    "dead hand if facing a bet, else check": gettext_lazy("On expiry: dead hand if facing a bet, else check."),
}


def _call_error(exc: engine.ClockError, preset: str):
    if exc.code == "bad_time":
        return ClockActionError(
            "bad_time",
            _("Under the %(preset)s preset a player's clock-call time is %(low)s to %(high)s seconds.")
            % {"preset": preset, "low": engine.SHOT_CLOCK_MIN_SECONDS[preset], "high": engine.SHOT_CLOCK_MAX_SECONDS[preset]},
        )
    return _error(exc)


def _entry_of(t, entry):
    if entry is None:
        return None
    found = Entry.objects.select_related("person").filter(pk=getattr(entry, "pk", entry), tournament=t).first()
    if found is None:
        raise ClockActionError("bad_entry", _("This player is not in the tournament."), status=400)
    return found


def player_clock_call_time(t, entry_id: int, preset: str) -> int | None:
    """CLK-10: the time the director set for this player under ``preset`` (None: the event's).
    The event-log row that set it is the record: the latest one for the player counts."""
    row = t.events.filter(action=Action.TOURNAMENTS_CLOCK_CALL_TIME_SET, payload__entry=entry_id).order_by("-id").values_list("payload", flat=True).first()
    if not row or row.get("preset") != preset:
        return None
    return row.get("seconds")


def call_the_clock(tournament, table_number: int, *, actor: Actor, preset: str | None = None, entry=None, player: str = "", seconds: int | None = None) -> dict:
    """CLK-10: a floor calls the clock on a player; logged with the player (for persistent-delay
    penalties, TDA 70). The time is the event's (``settings.clock_call_preset``,
    ``clock_call_seconds``, ``clock_call_countdown_seconds``: 003 events 60 + 10 s, heads-up 30 s)
    or the one the director set for this player (``set_player_clock_call_time``: 001 L36, cut to
    10 s for abuse). A call never sets a time of its own: ``seconds`` is refused, so a floor
    cannot give a player more or less time than the director decided."""
    t = Tournament.objects.get(pk=getattr(tournament, "pk", tournament))
    if seconds is not None:
        raise ClockActionError(
            "clock_call_time_per_player", _("A clock call takes the event's time or the player's: the director sets a player's time (call-time)."), status=400
        )
    rules = HouseRules.of(t)
    preset = preset or rules.clock_call_preset
    e = _entry_of(t, entry)
    own = player_clock_call_time(t, e.pk, preset) if e else None
    try:
        secs, countdown = engine.clock_call_seconds(preset, own)
        if own is None and preset == rules.clock_call_preset:
            secs, countdown = engine.clock_call_seconds(preset, rules.clock_call_seconds)[0], rules.clock_call_countdown_seconds
        outcome = engine.clock_call_expiry_text(preset)
    except engine.ClockError as exc:
        raise _call_error(exc, preset) from None
    name = e.person.display_name if e else player
    log_event(
        t,
        Action.TOURNAMENTS_CLOCK_CALLED,
        actor,
        table=table_number,
        player=name,
        entry=e.pk if e else None,
        preset=preset,
        seconds=secs,
        countdown=countdown,
        player_time=own is not None,
    )
    return {
        "seconds": secs,
        "countdown": countdown,
        "outcome": str(EXPIRY_TEXT.get(outcome, outcome)),
        "table": table_number,
        "preset": preset,
        "player": name,
        "player_time": own is not None,
    }


@service
def set_player_clock_call_time(tournament, entry, seconds: int | None, *, actor: Actor, preset: str | None = None, reason: str = "") -> dict:
    """CLK-10 / scenario 33: the director sets the time one player gets when the clock is called on
    him (heads-up: reduced from 30 s down to 10 s for abuse or repeated delay, «senza che sia
    tenuta a darne giustificazione», 001 L36); ``seconds`` None gives him the event's time again.
    Logged per player; every later call on him uses it."""
    t = lock_tournament(tournament)
    rules = HouseRules.of(t)
    preset = preset or rules.clock_call_preset
    e = _entry_of(t, entry)
    if e is None:
        raise ClockActionError("missing_field", _("This action needs '%(f)s'.") % {"f": "entry"}, status=400)
    if seconds is not None:
        try:
            engine.clock_call_seconds(preset, seconds)
        except engine.ClockError as exc:
            raise _call_error(exc, preset) from None
    log_event(t, Action.TOURNAMENTS_CLOCK_CALL_TIME_SET, actor, entry=e.pk, name=e.person.display_name, preset=preset, seconds=seconds, reason=reason)
    return {"entry": e.pk, "player": e.person.display_name, "preset": preset, "seconds": seconds}
