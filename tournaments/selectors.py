"""Read side of tournaments: questions about the floor that pages, the live snapshot and the
apps above ask. Reads only; the services that change state import these, never the reverse."""

from django.db.models import Q, Sum
from django.utils import timezone

from . import penalties, signals
from .models import ChipAdjustment, LedgerRow, Penalty


def chips_in_play(t) -> int:
    """Starting stacks + rebuys + add-ons (net of reversals and refunds) + race adjustments − removals."""
    sold = LedgerRow.objects.filter(tournament=t).aggregate(c=Sum("chips"))["c"] or 0
    adjusted = ChipAdjustment.objects.filter(tournament=t).aggregate(c=Sum("chips"))["c"] or 0
    return int(sold + adjusted)


def active_penalties(t, now=None):
    """Penalties still running (a time suspension whose time is up no longer counts, even before
    the floor's list marks it served)."""
    now = now or timezone.now()
    over = Q(kind=penalties.TIME_SUSPENSION, ends_at__lte=now)
    return Penalty.objects.filter(tournament=t, status=Penalty.ACTIVE).exclude(over).select_related("entry", "person")


def prize_forfeited_entries(t) -> set[int]:
    """PEN-07 / C27: the entries whose prize an elimination without prize took away (they keep
    their place by removal time, but are paid nothing). A cancelled penalty forfeits nothing."""
    return set(Penalty.objects.filter(tournament=t, prize_forfeited=True).exclude(status=Penalty.CANCELLED)
               .values_list("entry_id", flat=True))


def penalty_history(person):
    """Every penalty the person ever had, across tournaments, newest first (for escalation)."""
    return Penalty.objects.filter(person=person).select_related("tournament").order_by("-issued_at")


def seat_of(entry):
    """``{"table", "seat"}`` while the entry is seated (seating answers ``signals.seat_wanted``), else None."""
    return signals.ask_one(signals.seat_wanted, entry=entry) if entry is not None else None
