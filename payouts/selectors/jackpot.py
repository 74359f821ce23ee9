"""The venue's progressive jackpot: the fund, its balance, its lock, the claims (REG-11, PAY-12)."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Sum
from django.utils import timezone

from tdmanager.money import ZERO
from tournaments.house import HouseRules
from tournaments.models import LedgerRow, Tournament

from ..models import JackpotClaim, JackpotFund
from .common import _payout_rows_q, money, side_pool_balance


def jackpot_fund():
    """The venue's progressive jackpot fund (one per installation), or None before the first."""
    return JackpotFund.objects.order_by("id").first()


def jackpot_contributions() -> Decimal:
    """Every jackpot fee the desks took, net of reversals and refunds (all tournaments)."""
    return LedgerRow.objects.exclude(_payout_rows_q()).aggregate(s=Sum("jackpot_amount"))["s"] or ZERO


def jackpot_balance(fund, now=None) -> Decimal:
    """The fund as the lobby shows it: base + contributions − wins (paid or still to collect),
    + the base added back the day after a full win (``JackpotWin.reseed``, PAY-12). Side
    pools linked to the fund (a sponsor's contributions) count too."""
    now = now or timezone.now()
    total = fund.base + jackpot_contributions()
    for win in fund.wins.all():
        total -= win.amount
        if win.locked_until <= now:
            total += win.reseed
    for pool in fund.pools.all():
        b = side_pool_balance(pool)
        total += b["total"] - b["awarded"]
    return total


def jackpot_tournaments(exclude=None) -> list:
    """The tournaments registering or running that play for the venue's jackpot."""
    qs = Tournament.objects.filter(status__in=(Tournament.REGISTERING, Tournament.RUNNING))
    if exclude is not None:
        qs = qs.exclude(pk=getattr(exclude, "pk", exclude))
    return [t for t in qs if HouseRules.of(t).jackpot]


def jackpot_money(t) -> dict:
    """This tournament's jackpot fees taken (net of reversals and refunds) and jackpots paid."""
    fees = t.ledger.exclude(_payout_rows_q()).aggregate(s=Sum("jackpot_amount"))["s"] or ZERO
    paid = t.ledger.filter(_payout_rows_q()).aggregate(s=Sum("jackpot_amount"))["s"] or ZERO
    return {"in": fees, "out": -paid}


def jackpot_lock(fund, now=None):
    """The win that locks the fund now (no claim, no sale until the next day), or None."""
    return fund.wins.filter(locked_until__gt=now or timezone.now()).order_by("-locked_until").first()


def jackpot_paid_by(entry) -> bool:
    """REG-11: only jackpot buyers can win. The entry paid the fee (not reversed nor refunded),
    or, with ``jackpot_reentry = "COVERED"``, an earlier entry of the same player did."""
    t = entry.tournament
    rows = LedgerRow.objects.filter(tournament=t).exclude(_payout_rows_q())
    if HouseRules.of(t).jackpot_reentry == "COVERED":
        rows = rows.filter(entry__person_id=entry.person_id, entry__number__lte=entry.number)
        # each entry's own fee, so a refunded first entry no longer covers the later ones
        paid = rows.values("entry_id").annotate(j=Sum("jackpot_amount"))
        return any(r["j"] > 0 for r in paid)
    return (rows.filter(entry=entry).aggregate(j=Sum("jackpot_amount"))["j"] or ZERO) > 0


def jackpot_summary(now=None) -> dict:
    """``{"name", "fund", "base", "locked", "locked_until"}`` for lobby screens and pages."""
    fund = jackpot_fund()
    if fund is None:  # no base set yet: the fees taken are the fund
        return {"name": "Jackpot", "fund": money(jackpot_contributions()), "base": money(ZERO), "locked": False, "locked_until": None}
    now = now or timezone.now()
    lock = jackpot_lock(fund, now)
    return {
        "name": fund.name,
        "fund": money(jackpot_balance(fund, now)),
        "base": money(fund.base),
        "locked": lock is not None,
        "locked_until": lock.locked_until.isoformat() if lock else None,
    }


def jackpot_claims(fund, *, unpaid_only=False) -> list[dict]:
    """The winners' shares, newest first, with whether each was collected."""
    out = []
    qs = JackpotClaim.objects.filter(win__fund=fund).select_related("win__tournament", "win__verified_by", "entry__person", "payment__row")
    for c in qs.order_by("-win__created_at", "id"):
        if unpaid_only and c.paid:
            continue
        out.append(
            {
                "id": c.pk,
                "tournament": c.win.tournament_id,
                "tournament_name": c.win.tournament.name,
                "entry": c.entry_id,
                "entry_number": c.entry.number,
                "name": c.entry.person.full_name,
                "level": c.win.level,
                "percent": str(c.win.percent),
                "amount": money(c.amount),
                "shared_by": c.win.claims.count(),
                "verified_by": c.win.verified_by.get_username(),
                "at": c.win.created_at.isoformat(),
                "paid": c.paid,
                "receipt": c.payment.row.receipt_number if c.paid and c.payment.row_id else None,
            }
        )
    return out
