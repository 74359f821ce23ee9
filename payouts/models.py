"""Storage for payouts: payout tables and prizes, templates, side pools, satellites, deals,
ranking sign-offs, tickets and prize payments.

Rules do not live here: see ``payouts/services/`` (state changes), ``payouts/selectors/``
(read-only figures) and the pure engines (``pool.py``, ``structure.py``, ``satellite.py``,
``deals.py``, ``icm.py``, ``leaderboard.py``).
"""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.models import MONEY, Entry, LedgerRow, Person, Tournament

CASH, TICKET, ITEM, SEAT = "CASH", "TICKET", "ITEM", "SEAT"
# "Cash" as a kind of prize is not the payment method "Cash" (Italian "In denaro", not "Contanti"):
# a prize in money may be paid by bank transfer.
PRIZE_KINDS = [(CASH, pgettext_lazy("prize kind", "Cash")), (TICKET, _("Ticket")), (ITEM, _("Item")), (SEAT, _("Seat"))]
# Prizes paid out of the prize pool: their values add up to the pool. ITEM prizes are
# sponsored goods (value optional, informational) and do not come out of the pool.
POOL_FUNDED = (CASH, TICKET, SEAT)


class PayoutTable(models.Model):
    """The payout table of one tournament.

    AUTO: no stored prizes, the proposal is computed live from the ledger (it grows with the
    entries). EDITED: the director's prizes are stored. LOCKED: stored and published (PAY-05);
    later changes need the director and a reason, and are logged.
    """

    AUTO, EDITED, LOCKED = "AUTO", "EDITED", "LOCKED"
    STATES = [(AUTO, _("Proposed automatically")), (EDITED, _("Edited by the director")), (LOCKED, _("Locked and published"))]

    tournament = models.OneToOneField(Tournament, related_name="payout_table", on_delete=models.CASCADE)
    state = models.CharField(max_length=8, choices=STATES, default=AUTO)
    prize_pool = models.DecimalField(**MONEY, default=Decimal("0"), help_text="the pool the stored prizes add up to")
    locked_at = models.DateTimeField(null=True, blank=True)
    locked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)


class Prize(models.Model):
    """One prize of a place. A place may hold several (a seat plus cash; cash plus an item)."""

    table = models.ForeignKey(PayoutTable, related_name="prizes", on_delete=models.CASCADE)
    place = models.PositiveIntegerField()
    kind = models.CharField(max_length=6, choices=PRIZE_KINDS, default=CASH)
    amount = models.DecimalField(**MONEY, default=Decimal("0"), help_text="cash, or the value of a ticket / seat / item")
    description = models.CharField(max_length=200, blank=True)
    target = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.PROTECT, related_name="+", help_text="the tournament a ticket or seat is for"
    )
    non_transferable = models.BooleanField(default=True)

    class Meta:
        ordering = ["table", "place", "id"]
        constraints = [models.CheckConstraint(condition=models.Q(amount__gte=0), name="payouts_prize_amount_not_negative")]


class PayoutTemplate(models.Model):
    """A venue's payout shape: percentages by place (1st first), applied to any prize pool; or,
    as a room's paper chart has it, one such list per band of field sizes (``bands``), the band
    of the tournament's number of entries applied."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    percents = models.JSONField(help_text='["30", "20", "14.5", …] — add up to 100, non-increasing; [] when the template has bands')
    bands = models.JSONField(
        default=list, blank=True, help_text='[{"from": 10, "to": 20, "percents": ["50", "30", "20"]}, …] — "to" null: and more; bands do not overlap'
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class JackpotFund(models.Model):
    """A venue-wide progressive jackpot (REG-11, PAY-12): base + contributions − awards."""

    name = models.CharField(max_length=120, unique=True)
    base = models.DecimalField(**MONEY, default=Decimal("0"))
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return self.name


class JackpotWin(models.Model):
    """One hand that won the progressive jackpot (PAY-12): a royal flush using both hole cards,
    verified at the table by the floor. Simultaneous royal flushes of that hand are its claims.
    The fund stays locked until ``locked_until`` (the next day); ``reseed`` is added back to
    the fund then (the base after a full win, per ``jackpot_restart``)."""

    fund = models.ForeignKey(JackpotFund, related_name="wins", on_delete=models.PROTECT)
    tournament = models.ForeignKey(Tournament, related_name="jackpot_wins", on_delete=models.PROTECT)
    level = models.PositiveIntegerField()
    percent = models.DecimalField(max_digits=5, decimal_places=2)
    fund_before = models.DecimalField(**MONEY)
    amount = models.DecimalField(**MONEY)
    both_hole_cards = models.BooleanField()
    verified_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    locked_until = models.DateTimeField()
    reseed = models.DecimalField(**MONEY, default=Decimal("0"))

    class Meta:
        ordering = ["created_at", "id"]


class JackpotClaim(models.Model):
    """One winner's share of a jackpot win (RULES.md "JackpotClaim"): the entry, its amount
    and, once collected at the desk, the payment (its ledger row takes the money out of the fund)."""

    win = models.ForeignKey(JackpotWin, related_name="claims", on_delete=models.PROTECT)
    entry = models.ForeignKey(Entry, related_name="jackpot_claims", on_delete=models.PROTECT)
    amount = models.DecimalField(**MONEY)
    payment = models.OneToOneField("PrizePayment", null=True, blank=True, related_name="jackpot_claim", on_delete=models.PROTECT)

    class Meta:
        ordering = ["win", "id"]

    @property
    def paid(self) -> bool:
        return self.payment_id is not None and not self.payment.is_void


class SidePool(models.Model):
    """A side prize kept apart from the prize pool (PAY-08, PAY-10, PAY-12).

    Fed by ``LedgerRow.side_amount`` (rows whose note is this pool's ``key``, or every side
    amount when it is the tournament's only ledger-fed pool), by explicit contributions,
    and/or by ``from_prize_pool``: a fixed amount taken out of the main pool (PAY-02: chip
    leader prizes included in the gross guarantee).
    """

    LAST_LONGER, JACKPOT, CHIP_LEADER, OTHER = "LAST_LONGER", "JACKPOT", "CHIP_LEADER", "OTHER"
    KINDS = [(LAST_LONGER, _("Last Longer")), (JACKPOT, _("Jackpot")), (CHIP_LEADER, _("Chip-leader prizes")), (OTHER, _("Other"))]

    tournament = models.ForeignKey(Tournament, related_name="side_pools", on_delete=models.PROTECT)
    kind = models.CharField(max_length=12, choices=KINDS)
    name = models.CharField(max_length=120)
    key = models.SlugField(max_length=40, help_text="ledger rows with this note feed the pool")
    from_ledger = models.BooleanField(default=True)
    from_prize_pool = models.DecimalField(**MONEY, default=Decimal("0"))
    fund = models.ForeignKey(JackpotFund, null=True, blank=True, related_name="pools", on_delete=models.PROTECT)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "id"]
        unique_together = [("tournament", "key")]

    def __str__(self):
        return self.name


class SideContribution(models.Model):
    """Money put into a side pool other than through a ledger row (sponsor, house). Append-only in use."""

    pool = models.ForeignKey(SidePool, related_name="contributions", on_delete=models.PROTECT)
    amount = models.DecimalField(**MONEY)
    note = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)


class SideToken(models.Model):
    """REG-10: the special chip or plaque a Last Longer participant is given at the desk
    («una fiche o placca speciale»): which one, to whom, when and by whom. One per entry, and a
    chip or plaque goes to one entry of the pool only."""

    pool = models.ForeignKey(SidePool, related_name="tokens", on_delete=models.PROTECT)
    entry = models.ForeignKey(Entry, related_name="side_tokens", on_delete=models.PROTECT)
    label = models.CharField(_("chip or plaque"), max_length=40)
    issued_at = models.DateTimeField(default=timezone.now)
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["pool", "issued_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "entry"], name="payouts_side_token_one_per_entry"),
            models.UniqueConstraint(fields=["pool", "label"], name="payouts_side_token_label_once"),
        ]


class SideAward(models.Model):
    """A side-pool prize awarded to an entry (the Last Longer winner, a chip leader, a jackpot hit)."""

    pool = models.ForeignKey(SidePool, related_name="awards", on_delete=models.PROTECT)
    entry = models.ForeignKey(Entry, related_name="side_awards", on_delete=models.PROTECT)
    amount = models.DecimalField(**MONEY)
    note = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)


class SatelliteLink(models.Model):
    """A satellite and the tournament its seats are for (FMT-08, PAY-06)."""

    NEXT_PLACE, SHARED, CHUNKS = "NEXT_PLACE", "SHARED", "CHUNKS"
    REMAINDER_RULES = [
        (NEXT_PLACE, _("Cash to the first place without a seat")),
        (SHARED, _("Shared by the seat winners")),
        (CHUNKS, _("Chunks to the next places")),
    ]
    GROSS, NET = "GROSS", "NET"
    BASES = [(GROSS, _("Everything the players paid")), (NET, _("Buy-ins less deductions"))]
    TICKET, CASH = "TICKET", "CASH"
    ALREADY_REGISTERED = [(TICKET, _("A ticket for the target")), (CASH, _("The seat value in money"))]

    satellite = models.OneToOneField(Tournament, related_name="satellite_link", on_delete=models.PROTECT)
    target = models.ForeignKey(Tournament, related_name="feeder_satellites", on_delete=models.PROTECT)
    remainder_rule = models.CharField(max_length=12, choices=REMAINDER_RULES, default=NEXT_PLACE)
    prize_base = models.CharField(max_length=5, choices=BASES, default=GROSS)
    already_registered = models.CharField(max_length=6, choices=ALREADY_REGISTERED, default=TICKET)
    completed_at = models.DateTimeField(null=True, blank=True)


class Ticket(models.Model):
    """A personal entry voucher for a tournament (PAY-11; a satellite seat for a player
    already registered, FMT-08). Redeemed at the cashier into an entry."""

    ISSUED, REDEEMED, VOID = "ISSUED", "REDEEMED", "VOID"
    holder = models.ForeignKey(Person, related_name="tickets", on_delete=models.PROTECT)
    target = models.ForeignKey(Tournament, null=True, blank=True, related_name="tickets", on_delete=models.PROTECT)
    value = models.DecimalField(**MONEY)
    description = models.CharField(max_length=200, blank=True)
    non_transferable = models.BooleanField(default=True)
    source = models.ForeignKey(Tournament, null=True, blank=True, related_name="tickets_awarded", on_delete=models.PROTECT)
    status = models.CharField(max_length=9, default=ISSUED)
    redeemed_entry = models.ForeignKey(Entry, null=True, blank=True, related_name="+", on_delete=models.PROTECT)
    created_at = models.DateTimeField(default=timezone.now)
    # PAY-11: a series ticket is valid for any one of these events (003: «valido per tornei IPT
    # ed EPT»); none and no ``target``: any tournament.
    valid_events = models.ManyToManyField(Tournament, blank=True, related_name="valid_tickets")


class PrizePayment(models.Model):
    """One prize handed over: cash/cheque/transfer (with its PAYOUT ledger row), a ticket,
    a seat or an item. ``source`` says which prize: ``MAIN:<kind>`` (the second item, ticket… of one
    place ``MAIN:<kind>:2``, and so on), ``SIDE:<award id>`` or
    ``CHIPLEADER:<award id>`` (a flight's chip-leader prize, PAY-08).
    A payment whose ledger row was reversed no longer counts."""

    tournament = models.ForeignKey(Tournament, related_name="prize_payments", on_delete=models.PROTECT)
    entry = models.ForeignKey(Entry, related_name="prize_payments", on_delete=models.PROTECT)
    source = models.CharField(max_length=40)
    kind = models.CharField(max_length=6, choices=PRIZE_KINDS)
    place = models.PositiveIntegerField(null=True, blank=True)
    amount = models.DecimalField(**MONEY)
    method = models.CharField(max_length=10, choices=LedgerRow.METHODS, blank=True)
    reference = models.CharField(max_length=80, blank=True)
    payee = models.CharField(max_length=160, blank=True)
    row = models.OneToOneField(LedgerRow, null=True, blank=True, related_name="prize_payment", on_delete=models.PROTECT)
    ticket = models.ForeignKey(Ticket, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    seat_entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    paid_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]

    @property
    def is_void(self):
        return self.row_id is not None and LedgerRow.objects.filter(reverses_id=self.row_id).exists()


class RankingSignoff(models.Model):
    """One signature on the ranking as it stood (ELM-07): ``snapshot`` maps entry id → place.
    ``role``: the director's (the inspector's) or the administrative controller's signature;
    ``STAFF`` rows were written before ROLE-01 and release nothing."""

    DIRECTOR, CONTROLLER, STAFF = "DIRECTOR", "CONTROL", "STAFF"
    ROLE_LABELS = {DIRECTOR: _("director"), CONTROLLER: _("administrative controller"), STAFF: _("staff")}
    tournament = models.ForeignKey(Tournament, related_name="ranking_signoffs", on_delete=models.PROTECT)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    role = models.CharField(max_length=8)
    snapshot = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]


BOUNTY_IN_DEAL_LABELS = {"APART": _("bounties kept apart"), "ADDED": _("bounties added")}


class Deal(models.Model):
    """A final-table deal (PAY-09): new amounts per finishing place for the places in play."""

    PROPOSED, APPROVED, CANCELLED = "PROPOSED", "APPROVED", "CANCELLED"
    # As the pages say them (no choices on the column: a label is not worth a migration).
    STATUS_LABELS = {PROPOSED: _("waiting for consent"), APPROVED: _("approved"), CANCELLED: _("cancelled")}
    ICM, CHIP_CHOP, EVEN, CUSTOM = "ICM", "CHIP_CHOP", "EVEN", "CUSTOM"
    METHODS = [(ICM, _("ICM")), (CHIP_CHOP, _("Chip chop")), (EVEN, _("Even chop")), (CUSTOM, _("Custom"))]

    tournament = models.ForeignKey(Tournament, related_name="deals", on_delete=models.PROTECT)
    status = models.CharField(max_length=9, default=PROPOSED)
    method = models.CharField(max_length=10, choices=METHODS)
    stacks = models.JSONField(help_text="{entry id: chips}")
    reserve = models.DecimalField(**MONEY, default=Decimal("0"))
    by_player = models.JSONField(help_text="{entry id: guaranteed amount}")
    by_place = models.JSONField(help_text="new prize of places 1..n, 1st first (reserve included in 1st)")
    prizes_before = models.JSONField(help_text="prizes of places 1..n before the deal")
    # A bounty event's deal (PAY-02): the house's ``bounty_in_deal`` when it was proposed ("" in
    # an event without bounties), the bounty money in play then, and what each player takes of it.
    bounty_in_deal = models.CharField(max_length=5, blank=True, default="")
    bounty_total = models.DecimalField(**MONEY, default=Decimal("0"))
    heads = models.JSONField(default=dict, blank=True, help_text="{entry id: bounty on his head when proposed}")
    bounties = models.JSONField(default=dict, blank=True, help_text="{entry id: bounty money he takes with the deal}")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    approved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def status_label(self) -> str:
        return str(self.STATUS_LABELS.get(self.status, self.status))

    def bounty_label(self) -> str:
        """How the deal treats the bounties, as its page says it ("" without bounties)."""
        return str(BOUNTY_IN_DEAL_LABELS.get(self.bounty_in_deal, ""))


class DealAcceptance(models.Model):
    """A remaining player said yes to the deal (recorded by the floor or the director)."""

    deal = models.ForeignKey(Deal, related_name="acceptances", on_delete=models.CASCADE)
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        unique_together = [("deal", "entry")]


class BountyHead(models.Model):
    """The bounty on one entry's head in a FIXED or PKO bounty event (PAY-02): what its buy-in
    or re-entry bought (``bought``), and what is on it now (``amount``: a PKO eliminator's head
    grows by the part of each bounty he wins that is not paid in cash; zero once he is out)."""

    tournament = models.ForeignKey(Tournament, related_name="bounty_heads", on_delete=models.PROTECT)
    entry = models.OneToOneField(Entry, related_name="bounty_head", on_delete=models.PROTECT)
    bought = models.DecimalField(**MONEY)
    amount = models.DecimalField(**MONEY)

    class Meta:
        indexes = [models.Index(fields=["tournament", "amount"])]


class BountyAward(models.Model):
    """Bounty money given by one event of the game (PAY-02), paid at the desk.

    KNOCKOUT: ``winner`` knocked ``knocked_out`` out (``bust``): ``cash`` to collect and, in a
    PKO, ``added`` onto his own bounty; in a mystery event the envelope drawn (``envelope``,
    reproducible from ``seed``). OWN: the winner of a PKO or fixed event takes his own bounty.
    LEFTOVER: mystery envelopes left at the end, to the winner (or carried over: no winner).
    HOUSE: what a house rule keeps (the remainder of a split, a removed player's bounty).
    DEAL: a deal settled the bounty money in play (``deal``): each player in it takes his own
    bounty, or his share of them all (``bounty_in_deal``), or of the mystery envelopes left.
    A LEFTOVER with ``deal`` is the envelopes left carried over at the deal.
    ``row``: the desk's BOUNTY row that paid it (reversed: owed again). ``void``: undone with
    its bust, or not collected when the tournament was cancelled; no longer counts."""

    KNOCKOUT, OWN, LEFTOVER, HOUSE, DEAL = "KNOCKOUT", "OWN", "LEFTOVER", "HOUSE", "DEAL"
    KINDS = [(KNOCKOUT, _("Knockout")), (OWN, _("Own bounty")), (LEFTOVER, _("Envelopes left")), (HOUSE, _("House")), (DEAL, _("Bounty in a deal"))]
    UNDONE = "UNDONE"
    #: the tournament was cancelled before the winner collected it: every bounty part is refunded
    CANCELLED = "CANCELLED"

    tournament = models.ForeignKey(Tournament, related_name="bounty_awards", on_delete=models.PROTECT)
    kind = models.CharField(max_length=8, choices=KINDS)
    winner = models.ForeignKey(Entry, null=True, blank=True, related_name="bounties_won", on_delete=models.PROTECT)
    knocked_out = models.ForeignKey(Entry, null=True, blank=True, related_name="+", on_delete=models.PROTECT)
    bust = models.ForeignKey("seating.Bust", null=True, blank=True, related_name="+", on_delete=models.PROTECT)
    pot_share = models.DecimalField(max_digits=18, decimal_places=2, null=True, blank=True)
    cash = models.DecimalField(**MONEY, default=Decimal("0"))
    added = models.DecimalField(**MONEY, default=Decimal("0"))
    envelope = models.PositiveIntegerField(null=True, blank=True)
    seed = models.BigIntegerField(null=True, blank=True)
    row = models.ForeignKey(LedgerRow, null=True, blank=True, related_name="bounty_awards", on_delete=models.PROTECT)
    deal = models.ForeignKey(Deal, null=True, blank=True, related_name="bounty_awards", on_delete=models.PROTECT)
    void = models.CharField(max_length=10, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["tournament", "winner"])]
