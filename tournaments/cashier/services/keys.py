"""The idempotency keys the desk's sales leave behind, purged once no retry can come.

A key outlives the shift it was made in, so a cashier retrying after a lost answer is always
recognised, and no longer, so the table does not grow without end.
"""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from tournaments.models import IdempotencyRecord


def purge_idempotency_keys(now=None) -> int:
    """Delete idempotency keys older than ``TDM_IDEMPOTENCY_TTL_HOURS`` (never less than a day:
    a cashier who retries after a lost answer the same shift is always recognised)."""
    hours = max(24, int(getattr(settings, "TDM_IDEMPOTENCY_TTL_HOURS", 48)))
    cutoff = (now or timezone.now()) - timedelta(hours=hours)
    deleted, _n = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted
