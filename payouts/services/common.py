"""What every payout service shares: the refusal, the money check, the table row."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _

from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.money import CENT, to_money
from tournaments.models import LedgerRow, Tournament

from ..models import PayoutTable
from ..selectors.pool import is_cancelled
from ..selectors.prizes import prize_place_decided
from ..selectors.satellites import satellite_link
from ..selectors.table import table_state

PAYOUT_METHODS = (LedgerRow.CASH, LedgerRow.CHEQUE, LedgerRow.TRANSFER)


class PayoutError(DomainError):
    """A payout action refused by a rule; ``code`` says which."""


def check_will_play(t) -> None:
    """A cancelled event will not play (FMT-02): its guarantee is void, it pays no prize, awards
    no seat and has no payout table, ranking, side pool or deal to change. Its players are
    refunded at the desk instead (``cashier.pay_refund``)."""
    if t.status == Tournament.CANCELLED:
        raise PayoutError(
            "tournament_cancelled",
            _("This tournament is cancelled: it will not play, pays no prizes and its payouts cannot change. Its players are refunded at the desk."),
        )


def _money(value, what=None) -> Decimal:
    what = what or _("The amount")
    try:
        amount = to_money(str(value) if not isinstance(value, (Decimal, int, str)) else value)
    except (TypeError, InvalidOperation, ValueError):
        raise ValidationFailed("bad_amount", _("%(what)s is not an amount of money.") % {"what": what})
    if not amount.is_finite():
        raise ValidationFailed("bad_amount", _("%(what)s is not an amount of money.") % {"what": what})
    if abs(amount) >= Decimal("1e11"):  # 13 digits, 2 after the point, as stored
        raise ValidationFailed("bad_amount", _("%(what)s is too large.") % {"what": what})
    if amount != amount.quantize(CENT):
        raise ValidationFailed("bad_amount", _("%(what)s must be a whole number of cents.") % {"what": what})
    if amount < 0:
        raise ValidationFailed("bad_amount", _("%(what)s cannot be negative.") % {"what": what})
    return amount.quantize(CENT)


def _table(t) -> PayoutTable:
    table, _created = PayoutTable.objects.get_or_create(tournament=t)
    return table


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def pool_shrink_refusal(t) -> tuple[str, str] | None:
    """Why the prize pool of ``t`` may not shrink now (a reversal, a refund, a side prize taken out
    of it), or None. Once a player has finished in a paid place, his prize is decided on the pool
    as it stands (PAY-05). A payout table locked and published has shared the pool out as it
    stood: the director unlocks it first, and locks it again on the smaller pool."""
    if prize_place_decided(t):
        return (
            "prize_places_decided",
            _("The paid places are decided, or every player still in is in the money: the prize pool they share can no longer shrink (PAY-05)."),
        )
    if table_state(t) == PayoutTable.LOCKED:
        return (
            "table_locked",
            _(
                "The payout table is locked and published with this money in its prize pool: the director unlocks it first (PAY-05), "
                "and locks it again on the smaller pool."
            ),
        )
    return None


def guarantee_change_refusal(t) -> tuple[str, str] | None:
    """Why the guarantee of ``t`` may not change now, or None. The guarantee is part of the prize
    pool the players are promised (an overlay tops the pool up to it): once a paid place is
    decided, or the payout table is locked and published on the pool as it stood, the prizes
    (a satellite's seats) stand on that pool, and a new guarantee would move the pool under them
    (PAY-05). A satellite's table stored as edited (by hand, or unlocked) holds seats written for
    the pool as it stood: it goes back to the automatic proposal, which follows the pool, before
    the guarantee changes. A cancelled event's guarantee is void (FMT-02): nothing stands on it."""
    if is_cancelled(t):
        return None
    if prize_place_decided(t):
        return (
            "prize_places_decided",
            _(
                "The paid places are decided, or every player still in is in the money: the prize pool they share, and its guarantee, can no longer change (PAY-05)."
            ),
        )
    state = table_state(t)
    if state == PayoutTable.LOCKED:
        return (
            "table_locked",
            _(
                "The payout table is locked and published on the prize pool as it stands: the guarantee cannot change under it. "
                "The director unlocks the table first (PAY-05), and locks it again on the new pool."
            ),
        )
    if state == PayoutTable.EDITED and satellite_link(t) is not None:
        return (
            "table_edited",
            _(
                "This satellite's payout table was written for the prize pool as it stands: go back to the automatic proposal "
                "(its seats follow the pool) before changing the guarantee."
            ),
        )
    return None
