"""The reads every payout topic shares: money as the pages show it, the payout rows, a side pool's balance.

Kept apart so that the topics import it and never each other in a circle (the jackpot's
fund counts the side pools linked to it, and a side pool shows the fund).
"""

from __future__ import annotations

from django.db.models import Q, Sum

from tdmanager.money import CENT, ZERO, to_money
from tournaments.models import LedgerRow


def money(value) -> str:
    return str(to_money(value).quantize(CENT))


def _payout_rows_q():
    """Ledger rows that pay prizes out (and their reversals): not part of the money in."""
    return (
        Q(kind=LedgerRow.PAYOUT)
        | Q(kind=LedgerRow.REVERSAL, reverses__kind=LedgerRow.PAYOUT)
        | Q(kind=LedgerRow.SIDE, side_amount__lt=0)
        | Q(kind=LedgerRow.REVERSAL, reverses__kind=LedgerRow.SIDE, reverses__side_amount__lt=0)
    )


def side_pool_balance(pool) -> dict:
    """In (ledger side amounts + contributions + the part funded from the prize pool), awarded, left."""
    t = pool.tournament
    ledger_in = ZERO
    if pool.from_ledger:
        rows = t.ledger.exclude(_payout_rows_q())
        only = t.side_pools.filter(from_ledger=True).count() == 1
        if not only:
            rows = rows.filter(Q(note=pool.key) | Q(reverses__note=pool.key))
        ledger_in = rows.aggregate(s=Sum("side_amount"))["s"] or ZERO
    contributed = pool.contributions.aggregate(s=Sum("amount"))["s"] or ZERO
    awarded = pool.awards.aggregate(s=Sum("amount"))["s"] or ZERO
    total = ledger_in + contributed + pool.from_prize_pool
    return {
        "ledger": ledger_in,
        "contributed": contributed,
        "from_prize_pool": pool.from_prize_pool,
        "total": total,
        "awarded": awarded,
        "left": total - awarded,
    }
