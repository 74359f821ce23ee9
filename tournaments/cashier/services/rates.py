"""Exchange rates: the day's rate a supervisor sets, and the foreign tender a sale takes at it.

Foreign notes are taken only at a rate set for the day, so a sale in USD or CHF is never priced
at yesterday's rate or at a guess.
"""

from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import currencies
from tdmanager.errors import ValidationFailed
from tdmanager.money import ZERO
from tdmanager.transactions import service
from tournaments.cashier import rules as cashier_rules
from tournaments.cashier.services.admission import DeskError
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import ExchangeRate, LedgerRow, Tournament


def day_rate(currency: str, base: str, day) -> ExchangeRate | None:
    """REG-06: the rate of ``day`` for ``currency`` into ``base`` (the latest one set that day)."""
    return ExchangeRate.objects.filter(date=day, currency=currency, base_currency=base).order_by("-set_at", "-id").first()


def tender_for(t: Tournament, currency: str, method: str, now=None) -> cashier_rules.Tender | None:
    """REG-06: the foreign tender of a sale (USD or CHF at today's rate), or None when the player
    pays in the tournament's currency. Foreign notes are cash; no rate set today: refused."""
    currency = (currency or "").strip().upper()
    if not currency or currency == t.currency:
        return None
    if currency not in cashier_rules.FOREIGN_CURRENCIES:
        raise ValidationFailed(
            "bad_tender_currency", _("The desk takes %(list)s besides %(cur)s.") % {"list": ", ".join(cashier_rules.FOREIGN_CURRENCIES), "cur": t.currency}
        )
    if method != LedgerRow.CASH:
        raise ValidationFailed("foreign_tender_cash_only", _("A foreign currency is taken in cash; a card is charged in %(cur)s.") % {"cur": t.currency})
    rate = day_rate(currency, t.currency, timezone.localdate(now or timezone.now()))
    if rate is None:
        raise DeskError(
            "no_exchange_rate", _("No %(cur)s exchange rate is set for today: the supervisor sets it before the desk takes %(cur)s.") % {"cur": currency}
        )
    return cashier_rules.Tender(currency, rate.rate)


# --- exchange rates (REG-06) -----------------------------------------------------------------

MAX_RATE = Decimal("1000")


@service
def set_exchange_rate(currency: str, rate, *, actor: Actor, day=None, base: str = "EUR") -> ExchangeRate:
    """The cashiers' supervisor sets the rate of the day for USD or CHF (REG-06): how many units
    of ``base`` one unit of ``currency`` buys. A new row each time; the latest of the day counts."""
    currency, base = (currency or "").strip().upper(), (base or "EUR").strip().upper()
    if currency not in cashier_rules.FOREIGN_CURRENCIES or currency == base:
        raise ValidationFailed(
            "bad_tender_currency", _("The desk takes %(list)s besides %(cur)s.") % {"list": ", ".join(cashier_rules.FOREIGN_CURRENCIES), "cur": base}
        )
    try:
        rate = Decimal(str(rate))
    except (ArithmeticError, ValueError):
        rate = None
    if isinstance(rate, Decimal) and rate.is_finite():
        rate = rate.quantize(Decimal("0.000001")) if rate < MAX_RATE else rate
    if rate is None or not rate.is_finite() or not ZERO < rate < MAX_RATE:
        raise ValidationFailed("bad_rate", _("An exchange rate is a positive number (how many %(base)s one %(cur)s buys).") % {"base": base, "cur": currency})
    if not currencies.is_accepted(base):
        raise ValidationFailed(
            "bad_currency",
            _("The currency is one of %(list)s (ISO 4217 codes this installation accepts).") % {"list": ", ".join(currencies.accepted())},
            fields={"base_currency": [_("Not a currency accepted here.")]},
        )
    day = day or timezone.localdate()
    row = ExchangeRate.objects.create(date=day, currency=currency, base_currency=base, rate=rate, set_by=actor.user)
    log_event(None, Action.TOURNAMENTS_EXCHANGE_RATE_SET, actor, date=day.isoformat(), currency=currency, base=base, rate=str(rate))
    return row
