"""The cashier's storage: the append-only ledger, its receipt numbers, the exchange rates."""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .common import MONEY, AppendOnlyModel
from .people import Person
from .tournaments import Entry, Tournament


class Sequence(models.Model):
    """Gapless counters (receipt numbers). Incremented under a row lock in the caller's
    transaction, so a rolled-back sale does not burn a number."""

    name = models.CharField(max_length=40, unique=True)
    value = models.PositiveBigIntegerField(default=0)


class LedgerRow(AppendOnlyModel):
    """One movement of money at the cashier desk. Money in is positive, money out negative.

    ``prize_amount`` goes to the prize pool, ``fee_amount`` to the house, ``side_amount``
    to side pools (last longer, chip leaders), ``jackpot_amount`` to the venue's progressive
    jackpot (REG-11: never the prize pool, never the house), ``bounty_amount`` to the bounties
    (PAY-02: paid back to the players who win them, never the prize pool). A correction is a REVERSAL row pointing at the
    row it reverses, with the opposite amounts and a reason.
    """

    BUY_IN, RE_ENTRY, REBUY, ADD_ON, REFUND, PAYOUT, REVERSAL, SIDE = (
        "BUY_IN",
        "RE_ENTRY",
        "REBUY",
        "ADD_ON",
        "REFUND",
        "PAYOUT",
        "REVERSAL",
        "SIDE",
    )
    # REG-02 / REG-09: an amount a player owes (a 004 no-show's entry): ``owed_amount`` only, no
    # money moved (its cash amounts are zero); and the SETTLEMENT of it, a row pointing at it
    # (``settles``): the money taken (to the house) and ``owed_amount`` negative.
    RECEIVABLE, SETTLEMENT = "RECEIVABLE", "SETTLEMENT"
    # PAY-02: bounties won (knockouts, a winner's own bounty, mystery envelopes) paid at the desk:
    # ``bounty_amount`` negative, out of the bounty money the sales took in.
    BOUNTY = "BOUNTY"
    KINDS = [
        (BUY_IN, _("Buy-in")),
        (RE_ENTRY, _("Re-entry")),
        (REBUY, _("Rebuy")),
        (ADD_ON, _("Add-on")),
        (REFUND, _("Refund")),
        (PAYOUT, _("Payout")),
        (REVERSAL, _("Reversal")),
        (SIDE, _("Side pool")),
        (RECEIVABLE, _("Amount owed")),
        (SETTLEMENT, _("Amount owed, paid")),
        (BOUNTY, _("Bounty")),
    ]
    CASH, CARD, TRANSFER, CHEQUE, OTHER = "CASH", "CARD", "TRANSFER", "CHEQUE", "OTHER"
    METHODS = [
        (CASH, _("Cash")),
        (CARD, _("Card")),
        (TRANSFER, _("Bank transfer")),
        (CHEQUE, _("Cheque")),
        (OTHER, _("Other")),
    ]
    tournament = models.ForeignKey(Tournament, related_name="ledger", on_delete=models.PROTECT)
    entry = models.ForeignKey(Entry, related_name="ledger", null=True, blank=True, on_delete=models.PROTECT)
    person = models.ForeignKey(Person, null=True, blank=True, on_delete=models.PROTECT)
    kind = models.CharField(max_length=10, choices=KINDS)
    prize_amount = models.DecimalField(**MONEY, default=Decimal("0"))
    fee_amount = models.DecimalField(**MONEY, default=Decimal("0"))
    side_amount = models.DecimalField(**MONEY, default=Decimal("0"))
    #: REG-11: the progressive jackpot's fee (a sale), or a jackpot paid out of the fund (negative).
    jackpot_amount = models.DecimalField(**MONEY, default=Decimal("0"))
    #: PAY-02: the bounty part of a buy-in or re-entry (kept apart from the prize pool), or a
    #: bounty paid to a player who won it (negative).
    bounty_amount = models.DecimalField(**MONEY, default=Decimal("0"))
    currency = models.CharField(max_length=3, default="EUR")
    # REG-06: a sale tendered in USD or CHF: what the player paid, in which currency, at which rate
    # (tournament-currency units for one foreign unit). The amounts above stay in ``currency``.
    tender_currency = models.CharField(_("tendered in"), max_length=3, blank=True, default="")
    tender_amount = models.DecimalField(_("amount tendered"), **MONEY, null=True, blank=True)
    exchange_rate = models.DecimalField(_("exchange rate"), max_digits=14, decimal_places=6, null=True, blank=True)
    chips = models.IntegerField(default=0)
    method = models.CharField(max_length=10, choices=METHODS, default=CASH)
    reference = models.CharField(_("cheque / transfer reference"), max_length=80, blank=True)
    payee = models.CharField(max_length=160, blank=True)
    cashier = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    receipt_number = models.PositiveBigIntegerField(unique=True)
    reverses = models.OneToOneField("self", null=True, blank=True, related_name="reversed_by", on_delete=models.PROTECT)
    reason = models.CharField(max_length=200, blank=True)
    note = models.CharField(max_length=200, blank=True)
    #: REG-09: owed, not received: + on a RECEIVABLE, − on its SETTLEMENT (and opposite on a
    #: reversal). Never part of ``total``: no cash, no shift total, no prize pool.
    owed_amount = models.DecimalField(_("amount owed"), **MONEY, default=Decimal("0"))
    #: A SETTLEMENT row: the RECEIVABLE row it pays off.
    settles = models.ForeignKey("self", null=True, blank=True, related_name="settlements", on_delete=models.PROTECT)

    class Meta:
        ordering = ["receipt_number"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="REVERSAL", reverses__isnull=False) | ~Q(kind="REVERSAL"),
                name="reversal_points_at_a_row",
            ),
            models.CheckConstraint(
                condition=Q(kind="SETTLEMENT", settles__isnull=False) | ~Q(kind="SETTLEMENT"),
                name="settlement_points_at_a_receivable",
            ),
        ]

    @property
    def total(self) -> Decimal:
        return self.prize_amount + self.fee_amount + self.side_amount + self.jackpot_amount + self.bounty_amount

    @property
    def is_reversed(self):
        return hasattr(self, "reversed_by")


class ExchangeRate(AppendOnlyModel):
    """REG-06: the exchange rate of the day for a foreign currency the desk takes (USD, CHF), set
    by the cashiers' supervisor (a director). ``rate`` is how many units of ``base_currency`` (the
    tournament's currency) one unit of ``currency`` buys. A correction is a new row: the latest
    row of the day is the rate; each sale keeps the rate it used on its ledger row."""

    date = models.DateField(_("date"))
    currency = models.CharField(_("currency"), max_length=3)
    base_currency = models.CharField(_("into"), max_length=3, default="EUR")
    rate = models.DecimalField(_("rate"), max_digits=14, decimal_places=6)
    set_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, related_name="+", on_delete=models.PROTECT)
    set_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["date", "currency", "set_at", "id"]
        indexes = [models.Index(fields=["date", "currency", "base_currency"])]
        constraints = [models.CheckConstraint(condition=Q(rate__gt=0), name="exchange_rate_positive")]
