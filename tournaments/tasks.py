"""Celery tasks: thin, ids in, versions guard."""

import functools
import logging
import math
from datetime import timedelta

from celery import shared_task
from celery.signals import worker_process_shutdown, worker_ready
from django.conf import settings
from django.db import IntegrityError, connection

from tdmanager import realtime

from . import push as transport
from .imports import services as imports
from .services import cashier, clockctl, lifecycle, privacy, push
from .services.events import tell_key

log = logging.getLogger(__name__)

#: A timed notice's task runs this long after its moment: a timer that fires a hair early
#: would find the page unchanged, and the players would wait for beat's next look.
TIMED_MARGIN = timedelta(milliseconds=200)


@shared_task(ignore_result=True)
def clock_tick(tournament_id: int, version: int):
    """The countdown armed for a level end. A stale version does nothing."""
    clockctl.advance_clock(tournament_id, expected_version=version)


@shared_task(ignore_result=True)
def sweep_clocks():
    """Every second (beat): advance overdue clocks, so a lost task or a restarted worker
    never leaves a level unchanged."""
    clockctl.sweep()


@shared_task(ignore_result=True)
def purge_idempotency_keys():
    """Hourly (beat): forget idempotency keys older than TDM_IDEMPOTENCY_TTL_HOURS."""
    cashier.purge_idempotency_keys()


@shared_task(ignore_result=True)
def forget_import_files():
    """Every 10 minutes (beat): forget the sheets uploaded to be imported more than
    ``imports.KEPT_FOR`` ago (people's data): each is gone within the hour of its upload."""
    imports.forget_old_files()


@shared_task(ignore_result=True)
def erase_inactive_people():
    """Daily (beat): erase the people with no activity for TDM_PERSON_RETENTION_DAYS (pseudonym kept)."""
    privacy.erase_inactive()


@shared_task(ignore_result=True)
def catch_up_clocks():
    """Sent by a worker as it starts: change every overdue level at once and arm every
    countdown anew (``clockctl.catch_up``)."""
    changed = clockctl.catch_up()
    if changed:
        log.warning("clock catch-up: %s clock(s) changed level on the worker's start", changed)


@worker_ready.connect
def send_clock_catch_up(**_kwargs):
    """A worker that starts (after a crash or a kill included) catches the clocks up first thing.
    As a task: the worker's main process never touches the database (a slow database there
    would keep it from starting its pool)."""
    try:
        catch_up_clocks.apply_async(expires=60)
    except Exception:  # the worker must start all the same: the beat sweep runs every second
        log.exception("could not send the clock catch-up")


@shared_task(ignore_result=True)
def start_waiting_events():
    """Every few seconds (beat), and when a room's table is given back: the starts waiting for
    free tables that the room can now hold (``lifecycle.start_waiting``)."""
    lifecycle.start_waiting()


@shared_task(ignore_result=True)
def tell_players(tournament_id: int):
    """After a change of the tournament (``services.events.tell_players_later``): work out what
    each subscribed player is told, then send the messages in batches, each a task to one push
    service (``send_notices``), so a push service that hangs or refuses holds up no other's."""
    client = realtime.redis_client()
    if client is not None:
        client.delete(tell_key(tournament_id))
    try:
        messages = push.tell_players(tournament_id)
    except IntegrityError:  # another worker marked the same entries first: it tells them
        return
    for batch in push.batches(messages, settings.TDM_PUSH_BATCH):
        send_notices.apply_async(args=([(m.subscription, m.payload, m.ttl, m.urgency, m.topic) for m in batch],), expires=min(m.ttl for m in batch))


def _later(batch: list, tried: int, countdown: float) -> None:
    send_notices.apply_async(
        args=([(m.subscription, m.payload, m.ttl, m.urgency, m.topic) for m in batch],),
        kwargs={"tried": tried},
        countdown=min(max(1, math.ceil(countdown)), 600),
        expires=min(m.ttl for m in batch),
    )


def _send_batch(batch: list, tried: int) -> None:
    """Send a batch now; what the push service did not take goes back on the queue as one
    batch, due later (never slept here): those tried again after a wait that doubles
    (``TDM_PUSH_RETRIES`` tries in all, or the push service's Retry-After), those not tried
    (its circuit open, or it failed earlier in the batch) once the circuit may close."""
    tried_again, not_tried, wait, shut = [], [], 0, 0
    for m, sent in push.send_many(batch):
        if sent.skipped:
            not_tried.append(m)
            shut = max(shut, sent.retry_after or 0)
        elif sent.worth_retrying:
            tried_again.append(m)
            wait = max(wait, sent.retry_after if sent.retry_after is not None else 5 * 2**tried)
    if tried_again and tried < settings.TDM_PUSH_RETRIES:
        _later(tried_again, tried + 1, wait)
    if not_tried:
        _later(not_tried, tried, shut or 5 * 2**tried)


def _in_lane(batch: list, tried: int) -> None:
    try:
        _send_batch(batch, tried)
    finally:
        connection.close()  # the lane's thread: its own connection, not kept


@shared_task(bind=True, ignore_result=True)
def send_notices(self, messages: list, tried: int = 0):
    """A batch of notices to one push service (``tried``: times they were sent already), sent
    one after the other on one connection in that push service's lane of this worker process
    (``tournaments.push.Lanes``): the task returns once the lane has it, so a push service that
    hangs holds its own lane, never the next batch for another. A lane that has hung for a
    while takes no more: its batch is sent again later. Run eagerly (tests), it is sent here."""
    batch = [push.Message(*args) for args in messages]
    if self.request.is_eager:
        _send_batch(batch, tried)
        return
    wait = settings.TDM_PUSH_CONNECT_TIMEOUT + settings.TDM_PUSH_TIMEOUT
    if not transport.lanes.put(push.origin_of_batch(batch), functools.partial(_in_lane, batch, tried), wait):
        _later(batch, tried, 5)


@worker_process_shutdown.connect
def finish_lanes(**_kwargs):
    """A worker process stopping sends what its lanes hold first (a call that hangs, at most
    one timeout more): the tasks were taken off the queue when the lanes took them."""
    transport.lanes.idle(settings.TDM_PUSH_CONNECT_TIMEOUT + settings.TDM_PUSH_TIMEOUT + 1)


@shared_task(bind=True, ignore_result=True)
def send_notice(self, subscription: int, payload: dict, ttl: int, urgency: str, topic: str, tried: int = 0):
    """One notice to one phone, as a batch of one (a task queued before batches kept their
    tries; ``send_notices`` sends them now)."""
    send_notices.run([(subscription, payload, ttl, urgency, topic)], tried=tried + self.request.retries)


@shared_task(ignore_result=True)
def forget_old_push_subscriptions():
    """Daily (beat): the phones of players whose last event is past the house's
    ``push_keep_days`` are forgotten."""
    push.forget_old_subscriptions()


@shared_task(ignore_result=True)
def tell_timed_players():
    """Every ``TDM_TIMED_NOTICES_SECONDS`` (beat): the events whose players' pages change with
    time alone (one starting soon, a break ending) tell what is new, as after a change; and the
    moments such a page will change before the next look (``push.timed_moments``) are told at
    that moment, not up to a period late. A moment looked at twice is told once: the task run
    second finds the players told already (``NoticeMark``)."""
    ids = push.timed_events()
    for tournament_id in ids:
        tell_players.apply_async(args=(tournament_id,), expires=30)
    # a little past the next look, should beat run it late; past the moment by a hair, so the
    # page has changed when the task reads it
    within = timedelta(seconds=settings.TDM_TIMED_NOTICES_SECONDS + 10)
    for tournament_id, at in push.timed_moments(ids, within):
        tell_players.apply_async(args=(tournament_id,), eta=at + TIMED_MARGIN, expires=at + timedelta(seconds=60))
