"""Celery tasks of seating: thin."""

from celery import shared_task

from .services.dealers import push_when_due


@shared_task(ignore_result=True)
def push_dealers():
    """Every minute (beat): the rooms whose dealers' push is due are pushed."""
    push_when_due()
