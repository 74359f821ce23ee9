"""The floor's reads: the chips in play, the penalties running and a person's penalty history."""

from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.compiled import Compiled, rows_together
from tournaments.floor import penalties
from tournaments.labels import penalty_kind_label
from tournaments.models import (
    ChipAdjustment,
    LedgerRow,
    Penalty,
)

# The sums of a tournament's chips sold and adjusted, compiled once: one row each, none without rows.
_CHIPS_SOLD = Compiled(
    lambda pk: LedgerRow.objects.filter(tournament_id=pk).order_by().values("tournament_id").annotate(c=Sum("chips")).values_list("c"), LedgerRow
)
_CHIPS_ADJUSTED = Compiled(
    lambda pk: ChipAdjustment.objects.filter(tournament_id=pk).order_by().values("tournament_id").annotate(c=Sum("chips")).values_list("c"), ChipAdjustment
)


def chips_in_play(t) -> int:
    """CR-06: starting stacks + rebuys + add-ons (net of reversals and refunds) + race adjustments − removals.
    Both sums in one round trip on PostgreSQL (the lobby's snapshot asks after every change)."""
    pk = int(getattr(t, "pk", t))
    sold, adjusted = rows_together((_CHIPS_SOLD, (pk,)), (_CHIPS_ADJUSTED, (pk,)))
    return int(sum((rows[0][0] or 0 for rows in (sold, adjusted) if rows), 0))


def active_penalties(t, now=None):
    """Penalties still running (a time suspension whose time is up no longer counts, even before
    the floor's list marks it served)."""
    now = now or timezone.now()
    over = Q(kind=penalties.TIME_SUSPENSION, ends_at__lte=now)
    return Penalty.objects.filter(tournament=t, status=Penalty.ACTIVE).exclude(over).select_related("entry", "person")


def penalty_progress(p, now=None) -> dict:
    """Where a running penalty stands, for the table map, the floor page and the API (PEN-03,
    PEN-05): ``started``, ``hands_left``, ``seconds_left`` (a time suspension, on the clock),
    ``clock_paused`` and a ``label`` in the user's language."""
    now = now or timezone.now()
    kind = penalty_kind_label(p.kind)
    out = {"kind_label": kind, "started": p.started, "hands_left": None, "seconds_left": None, "clock_paused": False}
    if p.kind in (penalties.MISSED_HANDS, penalties.MISSED_ROUNDS):
        out["hands_left"] = p.hands_left if p.hands_total else None
        if not p.started:
            out["label"] = _("%(kind)s: starts after this hand") % {"kind": kind}
        else:
            out["label"] = _("%(kind)s: %(n)s of %(total)s hands left") % {"kind": kind, "n": p.hands_left, "total": p.hands_total}
    elif p.kind == penalties.TIME_SUSPENSION and p.status == Penalty.ACTIVE:
        paused = p.ends_at is None
        left = max(0, round(p.seconds_left or 0) if paused else round((p.ends_at - now).total_seconds()))
        out.update(seconds_left=left, clock_paused=paused)
        text = _("%(kind)s: %(m)d:%(s)02d left") % {"kind": kind, "m": left // 60, "s": left % 60}
        out["label"] = text + (" · " + _("clock paused") if paused else "")
    else:
        out["label"] = kind
    return out


def penalty_history(person):
    """Every penalty the person ever had, across tournaments, newest first, so the next one can be
    heavier (PEN-01)."""
    return Penalty.objects.filter(person=person).select_related("tournament").order_by("-issued_at")
