"""Celery tasks of the formats: thin, ids in."""

from celery import shared_task

from .services.headsup import sweep_matches


@shared_task(ignore_result=True)
def sweep_heads_up_matches():
    """Every few seconds (beat): the heads-up punctuality rules that fell due (FMT-12)."""
    sweep_matches()
