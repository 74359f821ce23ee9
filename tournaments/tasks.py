"""Celery tasks: thin, ids in, versions guard."""

from celery import shared_task


@shared_task(ignore_result=True)
def clock_tick(tournament_id: int, version: int):
    """The countdown armed for a level end. A stale version does nothing."""
    from .services.clockctl import advance_clock

    advance_clock(tournament_id, expected_version=version)


@shared_task(ignore_result=True)
def sweep_clocks():
    """Every second (beat): advance overdue clocks, so a lost task or a restarted worker
    never leaves a level unchanged."""
    from .services.clockctl import sweep

    sweep()


@shared_task(ignore_result=True)
def purge_idempotency_keys():
    """Hourly (beat): forget idempotency keys older than TDM_IDEMPOTENCY_TTL_HOURS."""
    from .services.cashier import purge_idempotency_keys as purge

    purge()
