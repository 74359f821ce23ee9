"""Storage for tournaments, people, structures, entries, the cashier ledger and the event log.

Rules do not live here: see ``tournaments/services`` (state changes) and the pure engine
modules (``clock.py``, ``chiprace.py``, ``penalties.py``).
"""

import re
import secrets
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tdmanager import dates

from .actions import Action
from .people_search import fold, masked_document, national

MONEY = {"max_digits": 13, "decimal_places": 2}
NOT_NEGATIVE = [MinValueValidator(0)]  # prices, fees, amounts (with a CheckConstraint on the column)
POSITIVE = [MinValueValidator(1)]  # stacks


def plausible_date(value):
    """A tournament's dates lie between 2000 and 2100 (``tdmanager.dates``, the one place the
    range is said; this name stays because a migration refers to it)."""
    dates.plausible_date(value)


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError(f"{self.model.__name__} rows are append-only")

    def delete(self):
        raise TypeError(f"{self.model.__name__} rows are append-only")


class AppendOnlyModel(models.Model):
    """Rows are written once. Corrections are new rows (a reversal), never edits."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.pop("_allow_update", False):
            raise TypeError(f"{type(self).__name__} rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError(f"{type(self).__name__} rows are append-only")


#: An erased person's stored name is "Erased player" "#<id>" (``services.privacy.pseudonym``), the
#: same in every language; ``shown_name`` translates it where it is read.
ERASED_FIRST_NAME = "Erased player"
_ERASED_NAME = re.compile(r"^Erased player #(\d+)$")


def shown_name(stored: str) -> str:
    """A stored name as the reader reads it: the pseudonym of an erased person in the active
    language ("Erased player #58"), any other name as it is."""
    m = _ERASED_NAME.match(stored or "")
    return gettext("Erased player #%(n)s") % {"n": m.group(1)} if m else stored


class Person(models.Model):
    """A player in the venue's people database (shared by every tournament)."""

    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80)
    nickname = models.CharField(_("nickname"), max_length=80, blank=True)
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    document_id = models.CharField(_("identity document"), max_length=60, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)
    # When the player signed the room's privacy notice (the consent to keep his data), as the
    # room recorded it; brought in with the people from the room's former records.
    privacy_consent = models.DateField(_("privacy consent given on"), null=True, blank=True)
    banned = models.BooleanField(_("banned"), default=False)
    banned_reason = models.CharField(_("ban reason"), max_length=200, blank=True)
    # The player asked not to be found by name on the public seat lookup (its answer and the
    # finishing places it shows); the desk, the floor and his own phone page still show him.
    hide_from_lookup = models.BooleanField(_("hidden from the public seat lookup"), default=False)
    # Folded "first last nickname phone e-mail" for one-index search by any part, the phone as its
    # national number (no "39" of +39 for every Italian phone). Not the document number: it is
    # found only whole (``services.people.search_people``), never by a part.
    search_text = models.CharField(max_length=400, db_index=True, editable=False, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["last_name", "first_name", "id"]
        # The few banned people, by key (REG-05): "which entries of this field belong to a
        # banned person" reads this, not every person of the field.
        indexes = [models.Index(fields=["id"], condition=models.Q(banned=True), name="person_banned_idx")]

    def __str__(self):
        return self.full_name

    def save(self, *args, **kwargs):
        self.fold_search_text()
        super().save(*args, **kwargs)

    def fold_search_text(self) -> None:
        self.search_text = " ".join(  # folded as the search folds what is typed: no case, no accents
            fold(p) for p in (self.first_name, self.last_name, self.nickname, national(self.phone), self.email) if p
        )

    @property
    def stored_name(self):
        """The name as stored: an erased person's is the pseudonym "Erased player #<id>" in any language."""
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def full_name(self):
        """The name as the reader reads it: an erased person's pseudonym in the active language."""
        return shown_name(self.stored_name)

    @property
    def ban_reason(self) -> str:
        """The ban's reason as the reader reads it: one the product wrote (the demo's) in the active
        language, one the director typed as typed."""
        from .labels import shipped_text  # labels reads the models

        return shipped_text(self.banned_reason)

    @property
    def display_name(self):
        return f"{self.full_name} ({self.nickname})" if self.nickname else self.full_name

    @property
    def document_masked(self) -> str:
        """The document number as pages and lists show it (``people_search.masked_document``)."""
        return masked_document(self.document_id)


class BlindStructure(models.Model):
    """An ordered list of levels and breaks; a template can be copied into a tournament."""

    name = models.CharField(_("name"), max_length=120)
    description = models.CharField(_("description"), max_length=300, blank=True)
    is_template = models.BooleanField(_("template"), default=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self):
        return self.name


class StructureItem(models.Model):
    LEVEL, BREAK = "LEVEL", "BREAK"
    KINDS = [(LEVEL, _("Level")), (BREAK, _("Break"))]

    structure = models.ForeignKey(BlindStructure, related_name="items", on_delete=models.CASCADE)
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=5, choices=KINDS, default=LEVEL)
    small_blind = models.PositiveIntegerField(default=0)
    big_blind = models.PositiveIntegerField(default=0)
    ante = models.PositiveIntegerField(default=0)
    big_blind_ante = models.BooleanField(default=False)
    minutes = models.PositiveIntegerField()
    color_up = models.CharField(_("color-up note"), max_length=200, blank=True)
    game = models.CharField(max_length=40, blank=True)
    add_on = models.BooleanField(_("add-on window"), default=False)
    # Denominations taken out of play at this break (CLK-09, TDA 24 scheduled colour-ups).
    removes_denominations = models.JSONField(default=list, blank=True)
    # Set on a break the director inserted inside a level: the seconds that level resumes with.
    resume_seconds_left = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["structure", "position"]
        unique_together = [("structure", "position")]

    @property
    def is_break(self):
        return self.kind == self.BREAK


class Tournament(models.Model):
    PLANNED, REGISTERING, RUNNING, FINISHED, CANCELLED = "PLANNED", "REGISTERING", "RUNNING", "FINISHED", "CANCELLED"
    STATUSES = [
        (PLANNED, _("Planned")),
        (REGISTERING, _("Registering")),
        (RUNNING, _("Running")),
        (FINISHED, _("Finished")),
        (CANCELLED, _("Cancelled")),
    ]
    FREEZEOUT, REENTRY, REBUY, SATELLITE, SNG, MULTIDAY, HEADS_UP, TIMED = (
        "FREEZEOUT",
        "REENTRY",
        "REBUY",
        "SATELLITE",
        "SNG",
        "MULTIDAY",
        "HEADS_UP",
        "TIMED",
    )
    FORMATS = [
        (FREEZEOUT, _("Freezeout")),
        (REENTRY, _("Re-entry")),
        (REBUY, _("Rebuy")),
        (SATELLITE, _("Satellite")),
        (SNG, _("Sit & go")),
        (MULTIDAY, _("Multi-day flight")),
        (HEADS_UP, _("Heads-up bracket")),
        (TIMED, _("Timed event")),
    ]
    GAMES = [
        ("NLHE", _("No-Limit Hold'em")),
        ("PLHE", _("Pot-Limit Hold'em")),
        ("LHE", _("Limit Hold'em")),
        ("PLO", _("Pot-Limit Omaha")),
        ("MIXED", _("Mixed games")),
        ("STUD", _("Stud")),
    ]
    END_OF_LEVEL, END_OF_BREAK = "END_OF_LEVEL", "END_OF_BREAK_AFTER_LEVEL"
    LATE_REG_ENDS = [(END_OF_LEVEL, _("End of level N")), (END_OF_BREAK, _("End of the break after level N"))]

    name = models.CharField(_("name"), max_length=160)
    start_at = models.DateTimeField(_("start time"), validators=[plausible_date])
    game = models.CharField(_("game"), max_length=10, choices=GAMES, default="NLHE")
    format = models.CharField(_("format"), max_length=10, choices=FORMATS, default=FREEZEOUT)
    status = models.CharField(_("status"), max_length=12, choices=STATUSES, default=PLANNED)
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    buy_in = models.DecimalField(_("buy-in (prize pool part)"), **MONEY, validators=NOT_NEGATIVE)
    fee = models.DecimalField(_("fee (house part)"), **MONEY, default=Decimal("0"), validators=NOT_NEGATIVE)
    starting_stack = models.PositiveIntegerField(_("starting stack"), validators=POSITIVE)
    table_size = models.PositiveSmallIntegerField(_("players per table"), default=9)
    field_cap = models.PositiveIntegerField(_("field cap"), null=True, blank=True)
    min_players = models.PositiveIntegerField(_("minimum players"), default=2)
    structure = models.ForeignKey(BlindStructure, null=True, blank=True, on_delete=models.PROTECT)
    late_reg_closes_after_level = models.PositiveIntegerField(_("late registration closes after level"), null=True, blank=True)
    late_reg_end = models.CharField(max_length=24, choices=LATE_REG_ENDS, default=END_OF_LEVEL)
    # Re-entry: max_entries_per_player 1 means no re-entry.
    max_entries_per_player = models.PositiveIntegerField(_("max entries per player"), default=1)
    reentry_until_level = models.PositiveIntegerField(_("re-entry until level"), null=True, blank=True)
    # Rebuy
    rebuy_price = models.DecimalField(_("rebuy price (prize pool part)"), **MONEY, null=True, blank=True, validators=NOT_NEGATIVE)
    rebuy_fee = models.DecimalField(_("rebuy fee"), **MONEY, default=Decimal("0"), validators=NOT_NEGATIVE)
    rebuy_chips = models.PositiveIntegerField(_("rebuy chips"), null=True, blank=True, validators=POSITIVE)
    rebuy_max = models.PositiveIntegerField(_("max rebuys per entry"), null=True, blank=True)
    rebuy_until_level = models.PositiveIntegerField(_("rebuy until level"), null=True, blank=True)
    rebuy_stack_threshold = models.PositiveIntegerField(_("rebuy allowed at or below this stack"), default=0, help_text=_("0 = only when busted"))
    # Add-on
    addon_price = models.DecimalField(_("add-on price (prize pool part)"), **MONEY, null=True, blank=True, validators=NOT_NEGATIVE)
    addon_fee = models.DecimalField(_("add-on fee"), **MONEY, default=Decimal("0"), validators=NOT_NEGATIVE)
    addon_chips = models.PositiveIntegerField(_("add-on chips"), null=True, blank=True, validators=POSITIVE)
    addon_after_level = models.PositiveIntegerField(_("add-on in the break after level"), null=True, blank=True)
    addon_max = models.PositiveIntegerField(_("max add-ons per entry"), default=1)
    # Prize pool
    deductions = models.JSONField(
        _("prize pool deductions"),
        default=list,
        blank=True,
        help_text=_('e.g. [{"name": "casino", "percent": "3"}, {"name": "staff", "percent": "4"}]'),
    )
    guarantee = models.DecimalField(_("guarantee"), **MONEY, null=True, blank=True, validators=NOT_NEGATIVE)
    cash_limit = models.DecimalField(_("cash limit per operation"), **MONEY, null=True, blank=True, validators=NOT_NEGATIVE)
    rule_set = models.CharField(_("rule set"), max_length=20, default="TDA")
    chip_set = models.ForeignKey("ChipSet", null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("chip set"))
    settings = models.JSONField(_("house settings"), default=dict, blank=True)  # read through tournaments.house.HouseRules
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-start_at", "id"]
        # The last line behind the serializers' and forms' validation: no price below zero, no
        # empty stack, tables that seat somebody (FMT-14).
        constraints = [
            models.CheckConstraint(condition=Q(buy_in__gte=0) & Q(fee__gte=0), name="tournament_buy_in_fee_not_negative"),
            models.CheckConstraint(
                condition=(Q(rebuy_price__isnull=True) | Q(rebuy_price__gte=0)) & Q(rebuy_fee__gte=0), name="tournament_rebuy_price_not_negative"
            ),
            models.CheckConstraint(
                condition=(Q(addon_price__isnull=True) | Q(addon_price__gte=0)) & Q(addon_fee__gte=0), name="tournament_addon_price_not_negative"
            ),
            models.CheckConstraint(
                condition=(Q(guarantee__isnull=True) | Q(guarantee__gte=0)) & (Q(cash_limit__isnull=True) | Q(cash_limit__gte=0)),
                name="tournament_guarantee_cash_limit_not_negative",
            ),
            models.CheckConstraint(condition=Q(starting_stack__gt=0), name="tournament_starting_stack_positive"),
            models.CheckConstraint(
                condition=(Q(rebuy_chips__isnull=True) | Q(rebuy_chips__gt=0)) & (Q(addon_chips__isnull=True) | Q(addon_chips__gt=0)),
                name="tournament_rebuy_addon_chips_positive",
            ),
            models.CheckConstraint(condition=Q(table_size__gte=2) & Q(table_size__lte=11), name="tournament_table_size_2_to_11"),
        ]

    def __str__(self):
        return self.name

    @property
    def entry_price(self):
        return self.buy_in + self.fee

    @property
    def allows_reentry(self):
        return self.max_entries_per_player > 1

    @property
    def allows_rebuy(self):
        return self.rebuy_price is not None and bool(self.rebuy_chips)

    @property
    def allows_addon(self):
        return self.addon_price is not None and bool(self.addon_chips)


def new_phone_token() -> str:
    """The key of an entry's phone page: 22 random URL-safe characters (128 bits), never the id."""
    return secrets.token_urlsafe(16)


class Entry(models.Model):
    """One paid (or reserved) stack in a tournament. A re-entry is a new Entry of the same person."""

    RESERVED, ACTIVE, BUSTED, CANCELLED = "RESERVED", "ACTIVE", "BUSTED", "CANCELLED"
    STATUSES = [
        (RESERVED, _("Pre-registered")),
        (ACTIVE, _("Playing")),
        (BUSTED, _("Busted")),
        (CANCELLED, _("Cancelled")),
    ]
    # Indexes: a bust rewrites the entry row, and every index is written again with it, so
    # the tournament key is served by the unique (tournament, number) rather than its own.
    tournament = models.ForeignKey(Tournament, related_name="entries", on_delete=models.PROTECT, db_index=False)
    person = models.ForeignKey(Person, related_name="entries", on_delete=models.PROTECT)
    number = models.PositiveIntegerField(_("entry number"))
    person_entry_no = models.PositiveIntegerField(default=1, help_text="1 = first entry, 2 = first re-entry …")
    status = models.CharField(max_length=10, choices=STATUSES, default=ACTIVE)
    is_late = models.BooleanField(default=False)
    pre_registered = models.BooleanField(default=False)
    chips = models.PositiveIntegerField(default=0, help_text="chips bought: starting stack + rebuys + add-ons")
    rebuys = models.PositiveIntegerField(default=0)
    addons = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    busted_at = models.DateTimeField(null=True, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)

    # REG-02 / REG-05 / REG-09: how the place was booked, the cashier's confirmation that a bank
    # transfer cleared, the check-in (with the identity document seen), a no-show, and the
    # player's presence (ELM-05: ABSENT and WITHDRAWN never eliminate). ``registration_state``
    # derives the state RULES.md names from these and ``status``.
    channel = models.CharField(_("booking channel"), max_length=10, blank=True, default="")
    funds_cleared_at = models.DateTimeField(_("transfer cleared at"), null=True, blank=True)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    id_checked = models.BooleanField(_("identity document seen"), default=False)
    no_show_at = models.DateTimeField(_("no-show at"), null=True, blank=True)
    presence = models.CharField(_("presence"), max_length=12, blank=True, default="")
    # FMT-04 / TDA 27: a rebuy declared before a hand binds the player («must make the re-buy»):
    # the obligation stays open until the desk sells it, whatever happens to his stack meanwhile.
    rebuy_declared_at = models.DateTimeField(_("rebuy declared at"), null=True, blank=True)
    # The player's phone page (receipt QR code): the unguessable token is the only key.
    phone_token = models.CharField(max_length=32, unique=True, editable=False, default=new_phone_token)

    class Meta:
        ordering = ["tournament", "number"]
        unique_together = [("tournament", "number")]
        indexes = [models.Index(fields=["tournament", "person"]), models.Index(fields=["tournament", "status"])]

    def __str__(self):
        return f"#{self.number} {self.person}"

    # REG-02: the registration states RULES.md names, derived (``status`` keeps its meaning).
    PRE_REGISTERED, PAID, CHECKED_IN, SEATED, NO_SHOW = "PRE_REGISTERED", "PAID", "CHECKED_IN", "SEATED", "NO_SHOW"
    REGISTRATION_STATES = [
        (PRE_REGISTERED, _("Pre-registered")),
        (PAID, _("Paid")),
        (CHECKED_IN, _("Checked in")),
        (SEATED, _("Seated")),
        (BUSTED, _("Busted")),
        (CANCELLED, _("Cancelled")),
        (NO_SHOW, _("No-show")),
    ]
    # NOT_ARRIVED (REG-09): the floor marked a seated player who has never come to the table
    # (FORFEIT_AT without check-in: he forfeits at the deadline); ABSENT: he came and is away.
    ABSENT, WITHDRAWN, NOT_ARRIVED = "ABSENT", "WITHDRAWN", "NOT_ARRIVED"
    PRESENCES = [(ABSENT, _("Absent")), (WITHDRAWN, _("Withdrawn")), (NOT_ARRIVED, _("Not arrived"))]
    TRANSFER_CHANNEL = "transfer"

    def status_label(self) -> str:
        """The status as a person reads it: the winner's entry stays ACTIVE (nobody busted it),
        and once it holds first place it reads "Winner", not "Playing"."""
        if self.status == self.ACTIVE and self.place == 1:
            return str(_("Winner"))
        return self.get_status_display()

    def registration_state(self, seated: bool = False) -> str:
        """REG-02: pre-registered, paid, checked in, seated, busted, cancelled or no-show.
        ``seated``: seating says the entry has a seat (tournaments does not ask it here)."""
        if self.no_show_at is not None:
            return self.NO_SHOW
        if self.status in (self.CANCELLED, self.BUSTED):
            return self.status
        if self.status == self.RESERVED:
            return self.PRE_REGISTERED
        if seated:
            return self.SEATED
        return self.CHECKED_IN if self.checked_in_at is not None else self.PAID

    @property
    def awaits_transfer(self) -> bool:
        """REG-02: a bank-transfer booking not yet confirmed as cleared by the cashier."""
        return self.status == self.RESERVED and self.channel == self.TRANSFER_CHANNEL and self.funds_cleared_at is None


class ImportFile(models.Model):
    """A sheet uploaded to be imported, kept from its preview to the director's confirmation (so
    every web process can serve the next step); emptied when imported, deleted a day after."""

    kind = models.CharField(max_length=20)
    filename = models.CharField(max_length=200)
    data = models.BinaryField()
    mapping = models.JSONField(default=list, blank=True)
    options = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    imported_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(default=dict, blank=True)


class Alternate(models.Model):
    """The FIFO list of players waiting for a place when the field is full (REG-08)."""

    WAITING, ADMITTED, CANCELLED = "WAITING", "ADMITTED", "CANCELLED"
    tournament = models.ForeignKey(Tournament, related_name="alternates", on_delete=models.CASCADE)
    person = models.ForeignKey(Person, on_delete=models.PROTECT)
    status = models.CharField(max_length=10, default=WAITING)
    created_at = models.DateTimeField(default=timezone.now)
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["created_at", "id"]


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


class TournamentEvent(AppendOnlyModel):
    """The append-only event log: audit trail, undo source and live feed."""

    # Written on every action (a bust writes one or two): few indexes. The log is read by
    # tournament, newest first, or by tournament and action.
    # A deleted tournament (one that never sold anything) leaves its rows in the log, detached.
    tournament = models.ForeignKey(Tournament, null=True, blank=True, related_name="events", on_delete=models.SET_NULL)
    action = models.CharField(max_length=80)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, db_index=False)
    actor_label = models.CharField(max_length=150, blank=True)
    device = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    payload = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["tournament", "action"])]

    def __str__(self):
        return f"{self.created_at:%H:%M:%S} {self.action}"

    @property
    def action_label(self) -> str:
        """What a person reads for the action (``tournaments.actions.Action``), in his language."""
        return Action.label_of(self.action)


class DeviceToken(models.Model):
    """A staff login's API token on one device (a desk's tablet, the floor's phone): named,
    listed, revoked by its user or a director, expired after ``TDM_TOKEN_IDLE_MINUTES`` unused,
    void once the user's password changes (``password_mark``), revoked when the login is
    disabled. Only the key's SHA-256 is stored: a copy of the database logs nobody in."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="device_tokens")
    digest = models.CharField(max_length=64, unique=True)
    # the key's first characters, shown in the list so the user can tell two devices apart
    prefix = models.CharField(max_length=8)
    name = models.CharField(max_length=80)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(default=timezone.now)
    # tdmanager.authentication.password_mark of the user's password when the token was issued
    password_mark = models.CharField(max_length=16)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    revoke_reason = models.CharField(max_length=20, blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["user", "revoked_at"], name="devtoken_user_idx")]


class BrowserSession(models.Model):
    """A staff login in a browser (one session): listed on the devices page beside the API tokens,
    with the browser it is and when it was last used, and ended there by its user or a director.
    Written with the session's own last activity (``tdmanager.idle``), at most once a minute per
    session, never on every request; gone with a logout."""

    session_key = models.CharField(max_length=40, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    user_agent = models.CharField(max_length=200, blank=True, default="")  # what the browser said it is, cut
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "last_used_at"], name="browsersession_user_idx")]


class IdempotencyRecord(models.Model):
    """The first answer to a cashier POST carrying ``Idempotency-Key``; a repeat gets it back."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=100)
    endpoint = models.CharField(max_length=200)
    # SHA-256 of the request body: the same key with another body is refused (422), not replayed.
    body_hash = models.CharField(max_length=64, default="", blank=True)
    status_code = models.PositiveSmallIntegerField(default=0)
    response = models.JSONField(null=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        unique_together = [("user", "key")]
        indexes = [models.Index(fields=["created_at"], name="idem_created_idx")]


class WaitingStart(models.Model):
    """A start the director asked for while the room had too few free tables, or a
    sit & go that filled then: the event starts by itself, with the options asked, as soon as the
    tables are free (``lifecycle.start_waiting``); the director may stop waiting."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="waiting_start")
    asked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    device = models.CharField(max_length=200, blank=True)
    asked_at = models.DateTimeField()
    #: ``lifecycle.start``'s options as asked (start_clock, override_minimum, …)
    options = models.JSONField(default=dict)
    #: the tables missing at the last try
    missing = models.PositiveIntegerField(default=0)

    def __str__(self):
        return f"{self.tournament_id} waits for {self.missing} tables"


class Clock(models.Model):
    """The tournament clock. This row is the truth; everything shown is derived from it by
    ``tournaments.clock`` (pure arithmetic). ``version`` is bumped on every change so that a
    stale Celery task or a stale browser snapshot can be recognised."""

    NOT_STARTED, RUNNING, PAUSED, HAND_FOR_HAND, FINISHED = "NOT_STARTED", "RUNNING", "PAUSED", "HAND_FOR_HAND", "FINISHED"
    tournament = models.OneToOneField(Tournament, related_name="clock", on_delete=models.CASCADE)
    status = models.CharField(max_length=14, default=NOT_STARTED)
    item_index = models.PositiveIntegerField(default=0)
    ends_at = models.DateTimeField(null=True, blank=True)
    remaining = models.FloatField(default=0)
    version = models.PositiveBigIntegerField(default=0)
    h4h_hand = models.PositiveIntegerField(default=0)
    h4h_seconds_per_hand = models.PositiveIntegerField(default=120)
    updated_at = models.DateTimeField(auto_now=True)


class HandForHandReport(models.Model):
    """A table's state in one hand-for-hand hand (CLK-06): no row while it plays the hand
    (IN_HAND), ALL_IN_HOLD while an all-in is called and the cards wait face down for the
    director (RP-8-F), COMPLETE once it reported the hand finished."""

    IN_HAND, ALL_IN_HOLD, COMPLETE = "IN_HAND", "ALL_IN_HOLD", "COMPLETE"
    STATES = (IN_HAND, ALL_IN_HOLD, COMPLETE)
    tournament = models.ForeignKey(Tournament, related_name="h4h_reports", on_delete=models.CASCADE)
    hand = models.PositiveIntegerField()
    table_number = models.PositiveIntegerField()
    state = models.CharField(max_length=12, default=COMPLETE)
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    reported_at = models.DateTimeField(default=timezone.now)

    class Meta:
        unique_together = [("tournament", "hand", "table_number")]


class DisplayScreen(models.Model):
    """A lobby TV. It authenticates with its read-only token; the director picks what it shows."""

    name = models.CharField(_("name"), max_length=80)
    tournament = models.ForeignKey(Tournament, null=True, blank=True, related_name="screens", on_delete=models.SET_NULL)
    token = models.CharField(max_length=64, unique=True)
    # Set when a director revoked the screen's token (the screens page, ``…/revoke-token/``):
    # its page, stream and state answer nobody until a new token is issued (``…/rotate-token/``).
    token_revoked_at = models.DateTimeField(null=True, blank=True)
    show = models.JSONField(default=dict, blank=True, help_text="panels: clock, blinds, stats, payouts, seats, announcements, sounds")
    announcement = models.CharField(_("announcement"), max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # A screen may rotate between chosen tournaments, each for ``rotate_seconds`` with its live data.
    rotate = models.ManyToManyField(Tournament, blank=True, related_name="rotating_screens", verbose_name=_("tournaments to rotate"))
    rotate_seconds = models.PositiveIntegerField(_("seconds per tournament"), default=20, validators=[MinValueValidator(5), MaxValueValidator(600)])

    #: the layout of each state it shows (``layouts.STATES``: live, break, final) as a key
    #: (``builtin:<name>`` or ``layout:<id>``); a state without one shows the live one's
    layouts = models.JSONField(default=dict, blank=True)
    #: the screen that plays the sounds and speaks for the tournaments it shows (one at a time)
    speaker = models.BooleanField(_("speaker"), default=False)
    #: what the speaker announces (``layouts.clean_sounds``; {} : the defaults)
    sounds = models.JSONField(default=dict, blank=True)

    PANELS = ("blinds", "stats", "payouts", "seats", "announcements", "moves", "sounds")

    def tournaments_shown(self) -> list:
        """The tournaments this screen shows in turn: its own first, then those it rotates through
        (by start time); with none chosen, the first running one (or the latest) as before."""
        chosen = [self.tournament] if self.tournament_id else []
        chosen += [t for t in self.rotate.order_by("start_at", "id") if t.pk != self.tournament_id]
        if chosen:
            return chosen
        t = Tournament.objects.filter(status=Tournament.RUNNING).order_by("start_at").first() or Tournament.objects.order_by("-start_at").first()
        return [t] if t else []

    def may_show(self, tournament_id: int) -> bool:
        """The screen's token reads a tournament it shows (any, when it follows the running one)."""
        if self.tournament_id is None and not self.rotate.exists():
            return True
        return tournament_id == self.tournament_id or self.rotate.filter(pk=tournament_id).exists()

    def shows(self, panel: str) -> bool:
        return bool((self.show or {}).get(panel, panel != "sounds"))


class ScreenLayout(models.Model):
    """A lobby screen's design, made with the layout editor or imported: data the
    screen's script draws (``tournaments.layouts``), never markup."""

    name = models.CharField(_("name"), max_length=80, unique=True)
    portrait = models.BooleanField(_("portrait (9:16)"), default=False)
    design = models.JSONField(default=dict)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return self.name


class ScreenImage(models.Model):
    """A logo or a sponsor's image for the lobby screens: what was uploaded, decoded, checked and
    encoded again as PNG by the product (never served as the user sent it)."""

    name = models.CharField(_("name"), max_length=80)
    png = models.BinaryField()
    #: the PNG's SHA-256 (hex, 64): its address (``/screens/images/<digest>.png``), the same bytes
    #: for ever, so a web process may keep it however the rows change (a restore)
    digest = models.CharField(max_length=64, db_index=True)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return self.name


class ChipSet(models.Model):
    """The venue's physical chips: denominations, colours and how many of each it owns."""

    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return self.name

    def as_mapping(self) -> dict[int, int]:
        return {d.value: d.quantity for d in self.denominations.all()}


class ChipDenomination(models.Model):
    chip_set = models.ForeignKey(ChipSet, related_name="denominations", on_delete=models.CASCADE)
    value = models.PositiveIntegerField()
    colour = models.CharField(max_length=30, blank=True)
    quantity = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["value"]
        unique_together = [("chip_set", "value")]


class ChipAdjustment(AppendOnlyModel):
    """A change to the chips in play that is not a sale (CR-06): race roundings and discards,
    removals (disqualification, forfeits, chips out of view), lost and found. Signed."""

    RACE_ADDED, RACE_DISCARDED, DISQUALIFICATION, FORFEIT, OUT_OF_VIEW, LOST_FOUND, SURRENDER, CORRECTION = (
        "RACE_ADDED",
        "RACE_DISCARDED",
        "DISQUALIFICATION",
        "FORFEIT",
        "OUT_OF_VIEW",
        "LOST_FOUND",
        "SURRENDER",
        "CORRECTION",
    )
    KINDS = [
        (RACE_ADDED, _("Chip race: added by rounding")),
        (RACE_DISCARDED, _("Chip race: removed")),
        (DISQUALIFICATION, _("Removed: disqualification")),
        (FORFEIT, _("Removed: forfeit")),
        (OUT_OF_VIEW, _("Removed: chips out of view")),
        (LOST_FOUND, _("Lost and found")),
        (SURRENDER, _("Removed: surrender")),
        (CORRECTION, _("Correction")),
    ]
    tournament = models.ForeignKey(Tournament, related_name="chip_adjustments", on_delete=models.PROTECT)
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT)
    kind = models.CharField(max_length=20, choices=KINDS)
    chips = models.IntegerField()
    reason = models.CharField(max_length=200)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT)
    created_at = models.DateTimeField(default=timezone.now)


class ChipCount(models.Model):
    """Chips counted for a player (at a break, end of day, final table)."""

    tournament = models.ForeignKey(Tournament, related_name="chip_counts", on_delete=models.CASCADE)
    entry = models.ForeignKey(Entry, related_name="chip_counts", on_delete=models.CASCADE)
    chips = models.PositiveBigIntegerField()
    occasion = models.CharField(max_length=20, default="BREAK")
    bag_number = models.CharField(max_length=20, blank=True)
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    counted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-counted_at", "-id"]


class ChipRaceRecord(models.Model):
    """One table's chip race (CR-02..04): inputs, settings and result, as recorded."""

    tournament = models.ForeignKey(Tournament, related_name="chip_races", on_delete=models.CASCADE)
    table_number = models.PositiveIntegerField()
    removed_denomination = models.PositiveIntegerField()
    new_denomination = models.PositiveIntegerField()
    mode = models.CharField(max_length=10, default="MANUAL")  # MANUAL (physical race entered) or RANDOM
    race_settings = models.JSONField(default=dict)
    result = models.JSONField(default=dict)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(default=timezone.now)


class Penalty(models.Model):
    """A penalty on a player (PEN-01..07). It belongs to the entry, so it follows the player
    across table moves and breaks with the hands left unchanged (PEN-04)."""

    ACTIVE, SERVED, CANCELLED = "ACTIVE", "SERVED", "CANCELLED"
    tournament = models.ForeignKey(Tournament, related_name="penalties", on_delete=models.PROTECT)
    entry = models.ForeignKey(Entry, related_name="penalties", on_delete=models.PROTECT)
    person = models.ForeignKey(Person, related_name="penalties", on_delete=models.PROTECT)
    kind = models.CharField(max_length=24)
    reason_code = models.CharField(max_length=40)
    note = models.CharField(max_length=300, blank=True)
    preset = models.CharField(max_length=20, default="TDA")
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    players_at_table = models.PositiveSmallIntegerField(null=True, blank=True)
    hands_total = models.PositiveIntegerField(default=0)
    hands_served = models.PositiveIntegerField(default=0)
    # PEN-03: a penalty given while a hand is in play starts when the table completes it; the
    # table's own "hand completed" then counts each hand served (a misdeal does not count).
    started = models.BooleanField(default=True)
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    # PEN-05: a time suspension runs on the tournament clock: while the clock is stopped it
    # keeps its seconds left here (and no ``ends_at``).
    seconds_left = models.FloatField(null=True, blank=True)
    chips = models.PositiveBigIntegerField(null=True, blank=True)
    prize_forfeited = models.BooleanField(default=False)
    table_number = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, default=ACTIVE)
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT)
    issued_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-issued_at", "-id"]

    @property
    def hands_left(self) -> int:
        return max(0, self.hands_total - self.hands_served)


class TournamentChange(models.Model):
    """One version of a published event's parameters (FMT-02): what changed (``{field: [old,
    new]}``), who changed it and why. Shown in the event's history and on its lobby screens;
    the reason there only once the director marks it public."""

    SETUP, STRUCTURE = "SETUP", "STRUCTURE"
    tournament = models.ForeignKey(Tournament, related_name="changes", on_delete=models.CASCADE)
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, default=SETUP)
    changes = models.JSONField(default=dict)
    reason = models.CharField(max_length=300, blank=True)
    # The reason is the staff's until the director shows it to the players (the public rules
    # page, its change feed and the lobby screens): a free text may name people or deals.
    reason_public = models.BooleanField(default=False)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, related_name="+", on_delete=models.SET_NULL)
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-version"]
        unique_together = [("tournament", "version")]


# --- ROLE-01, ROLE-02, ROLE-05: the regulator's grants, witnesses, stub reports, rulings ------


class RegulatorGrant(models.Model):
    """A regulator login (the municipal control corps) may read this tournament (ROLE-01)."""

    tournament = models.ForeignKey(Tournament, related_name="regulator_grants", on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.CASCADE)
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, related_name="+", on_delete=models.SET_NULL)
    granted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        unique_together = [("tournament", "user")]


class Witness(AppendOnlyModel):
    """The administrative controller witnessed a seat draw or a balancing move (ROLE-01, 003
    Art. 4.6, 4.7(1)): one signature on the event-log row that records it."""

    tournament = models.ForeignKey(Tournament, related_name="witnesses", on_delete=models.PROTECT)
    event = models.ForeignKey(TournamentEvent, related_name="witnesses", on_delete=models.PROTECT)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.PROTECT)
    name = models.CharField(max_length=150)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        unique_together = [("event", "user")]


class StubReport(AppendOnlyModel):
    """A ticket-stub report sent to the control authority (ROLE-02): number 0 is the pre-start
    report, 1, 2, … the addenda for the stubs sold after it. ``last_row`` is the newest ledger
    row it covers: the next one starts after it."""

    tournament = models.ForeignKey(Tournament, related_name="stub_reports", on_delete=models.PROTECT)
    number = models.PositiveIntegerField()
    first_row_id = models.PositiveBigIntegerField(default=0)
    last_row_id = models.PositiveBigIntegerField(default=0)
    stubs = models.PositiveIntegerField(default=0)
    total = models.DecimalField(**MONEY, default=Decimal("0"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, related_name="+", on_delete=models.PROTECT)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["number"]
        unique_together = [("tournament", "number")]


class Ruling(AppendOnlyModel):
    """A floor decision (ROLE-05): who asked, when, the question, the decision, by whom and when.
    Decisions are final: the row is never changed, only annotated (:class:`RulingNote`).
    ``late`` is the dispute-window check at the time it was recorded."""

    HAND, BREAK = "HAND", "BREAK"
    WINDOWS = [(HAND, _("until the next hand begins")), (BREAK, _("pot awarded in a break: one minute"))]
    tournament = models.ForeignKey(Tournament, related_name="rulings", on_delete=models.PROTECT)
    table_number = models.PositiveIntegerField(null=True, blank=True)
    hand = models.CharField(max_length=40, blank=True)
    asked_by = models.CharField(max_length=150)
    asked_at = models.DateTimeField()
    window = models.CharField(max_length=5, choices=WINDOWS, default=HAND)
    disputed_at = models.DateTimeField(null=True, blank=True, help_text="the pot awarded (break) or the hand's end")
    next_hand_at = models.DateTimeField(null=True, blank=True, help_text="when the next hand began, if it had")
    late = models.BooleanField(default=False)
    question = models.TextField(max_length=2000)
    decision = models.TextField(max_length=2000)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.PROTECT)
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["decided_at", "id"]


class RulingNote(AppendOnlyModel):
    """An annotation on a final ruling (ROLE-05): added, never edited."""

    ruling = models.ForeignKey(Ruling, related_name="notes", on_delete=models.PROTECT)
    text = models.TextField(max_length=2000)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, related_name="+", on_delete=models.PROTECT)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]


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


class TournamentTemplate(models.Model):
    """A saved recipe for new tournaments: the setup of a tournament (prices,
    stacks, formats, house rules) and its own copy of the blind structure. A tournament made
    from it goes through the setup service like any other (the fee rule, the validation)."""

    name = models.CharField(_("name"), max_length=160, unique=True)
    values = models.JSONField(default=dict, help_text="the tournament's setup fields, as JSON")
    structure = models.ForeignKey(BlindStructure, null=True, blank=True, related_name="+", on_delete=models.PROTECT)
    source = models.ForeignKey(Tournament, null=True, blank=True, related_name="+", on_delete=models.SET_NULL)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, related_name="+", on_delete=models.SET_NULL)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class PushKeys(models.Model):
    """The installation's VAPID key pair (RFC 8292): made once, on the first subscription, and
    kept with the data (a row, so the backup carries it and a restored installation keeps
    signing as the phones know it; new keys would leave every subscription unreachable)."""

    private_key = models.TextField(help_text="the P-256 private key, PEM")
    public_key = models.CharField(max_length=100, help_text="the public key as the browsers take it: base64url of the uncompressed point")
    created_at = models.DateTimeField(default=timezone.now)


class PushSubscription(models.Model):
    """One phone's Web Push subscription for a player (several phones per player): the push
    service's endpoint and the browser's keys (RFC 8291), the kinds of notice he chose and the
    language he reads them in. Personal data: in his export, gone with an erasure, when he stops
    it, when the push service calls it gone (404/410) and a while after his last event."""

    person = models.ForeignKey(Person, related_name="push_subscriptions", on_delete=models.CASCADE)
    # One endpoint is one browser on one phone: subscribed again from another player's page, it
    # follows that player (``notices.services.subscribe``).
    endpoint = models.CharField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=120)
    auth = models.CharField(max_length=60)
    kinds = models.JSONField(default=list, blank=True)
    language = models.CharField(max_length=8, default="it")
    created_at = models.DateTimeField(default=timezone.now)
    last_success_at = models.DateTimeField(null=True, blank=True)


class NoticeMark(models.Model):
    """What an entry's player was last told about it: the facts of his own page the notices
    compare (``tournaments.notices.rules.facts``), so a change is told once, however many times the
    tournament is published, and a missed publication is told at the next."""

    entry = models.OneToOneField(Entry, primary_key=True, related_name="notice_mark", on_delete=models.CASCADE)
    facts = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)


class RegistrationNotice(models.Model):
    """A person told that ``tournament``'s late registration closes at the end of the level being
    played (he played another event of its series): told once per event, whatever number of
    changes follow. Deleted with his phones at an erasure."""

    person = models.ForeignKey(Person, related_name="+", on_delete=models.CASCADE)
    tournament = models.ForeignKey(Tournament, related_name="+", on_delete=models.CASCADE)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["person", "tournament"], name="tournaments_registration_notice_once")]
