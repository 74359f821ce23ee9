"""Celery tasks: thin, ids in, versions guard."""

import logging

from celery import shared_task
from celery.signals import worker_ready

from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.people import privacy
from tournaments.setup import lifecycle

# The players' notices' tasks live with the notices; the worker's autodiscovery imports this
# module only, so importing them here is what registers them (under their old names).
from .imports import services as imports
from .notices import tasks as notices_tasks  # noqa: F401

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def clock_tick(tournament_id: int, version: int):
    """The countdown armed for a level end. A stale version does nothing."""
    clock_services.advance_clock(tournament_id, expected_version=version)


@shared_task(ignore_result=True)
def sweep_clocks():
    """Every second (beat): advance overdue clocks, so a lost task or a restarted worker
    never leaves a level unchanged."""
    clock_services.sweep()


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
    countdown anew (``clock_services.catch_up``)."""
    changed = clock_services.catch_up()
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
