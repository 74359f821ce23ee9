"""The players' notices, the worker's tasks: work out what each player is told after a change or
as time passes, send it in batches (one push service's lane each), and forget old phones.

Thin, like every task: ids in, a service does the work. Each keeps the name it was registered
under before the notices had a package of their own (``tournaments.tasks.<name>``): tasks the
previous version queued in Redis, the beat schedule and the notices queue's routing
(``CELERY_TASK_ROUTES``) name them so.
"""

import functools
import math
from datetime import timedelta

from celery import shared_task
from celery.signals import worker_process_shutdown
from django.conf import settings
from django.db import IntegrityError, connection

from tdmanager import realtime
from tournaments.eventlog.services import tell_key

from . import services, transport

#: A timed notice's task runs this long after its moment: a timer that fires a hair early
#: would find the page unchanged, and the players would wait for beat's next look.
TIMED_MARGIN = timedelta(milliseconds=200)


@shared_task(ignore_result=True, name="tournaments.tasks.tell_players")
def tell_players(tournament_id: int):
    """After a change of the tournament (``services.events.tell_players_later``): work out what
    each subscribed player is told, then send the messages in batches, each a task to one push
    service (``send_notices``), so a push service that hangs or refuses holds up no other's."""
    client = realtime.redis_client()
    if client is not None:
        client.delete(tell_key(tournament_id))
    try:
        messages = services.tell_players(tournament_id)
    except IntegrityError:  # another worker marked the same entries first: it tells them
        return
    for batch in services.batches(messages, settings.TDM_PUSH_BATCH):
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
    for m, sent in services.send_many(batch):
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


@shared_task(bind=True, ignore_result=True, name="tournaments.tasks.send_notices")
def send_notices(self, messages: list, tried: int = 0):
    """A batch of notices to one push service (``tried``: times they were sent already), sent
    one after the other on one connection in that push service's lane of this worker process
    (``transport.Lanes``): the task returns once the lane has it, so a push service that
    hangs holds its own lane, never the next batch for another. A lane that has hung for a
    while takes no more: its batch is sent again later. Run eagerly (tests), it is sent here."""
    batch = [services.Message(*args) for args in messages]
    if self.request.is_eager:
        _send_batch(batch, tried)
        return
    wait = settings.TDM_PUSH_CONNECT_TIMEOUT + settings.TDM_PUSH_TIMEOUT
    if not transport.lanes.put(services.origin_of_batch(batch), functools.partial(_in_lane, batch, tried), wait):
        _later(batch, tried, 5)


@worker_process_shutdown.connect
def finish_lanes(**_kwargs):
    """A worker process stopping sends what its lanes hold first (a call that hangs, at most
    one timeout more): the tasks were taken off the queue when the lanes took them."""
    transport.lanes.idle(settings.TDM_PUSH_CONNECT_TIMEOUT + settings.TDM_PUSH_TIMEOUT + 1)


@shared_task(bind=True, ignore_result=True, name="tournaments.tasks.send_notice")
def send_notice(self, subscription: int, payload: dict, ttl: int, urgency: str, topic: str, tried: int = 0):
    """One notice to one phone, as a batch of one (a task queued before batches kept their
    tries; ``send_notices`` sends them now)."""
    send_notices.run([(subscription, payload, ttl, urgency, topic)], tried=tried + self.request.retries)


@shared_task(ignore_result=True, name="tournaments.tasks.forget_old_push_subscriptions")
def forget_old_push_subscriptions():
    """Daily (beat): the phones of players whose last event is past the house's
    ``push_keep_days`` are forgotten."""
    services.forget_old_subscriptions()


@shared_task(ignore_result=True, name="tournaments.tasks.tell_timed_players")
def tell_timed_players():
    """Every ``TDM_TIMED_NOTICES_SECONDS`` (beat): the events whose players' pages change with
    time alone (one starting soon, a break ending) tell what is new, as after a change; and the
    moments such a page will change before the next look (``services.timed_moments``) are told at
    that moment, not up to a period late. A moment looked at twice is told once: the task run
    second finds the players told already (``NoticeMark``)."""
    ids = services.timed_events()
    for tournament_id in ids:
        tell_players.apply_async(args=(tournament_id,), expires=30)
    # a little past the next look, should beat run it late; past the moment by a hair, so the
    # page has changed when the task reads it
    within = timedelta(seconds=settings.TDM_TIMED_NOTICES_SECONDS + 10)
    for tournament_id, at in services.timed_moments(ids, within):
        tell_players.apply_async(args=(tournament_id,), eta=at + TIMED_MARGIN, expires=at + timedelta(seconds=60))
