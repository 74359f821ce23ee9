"""Tournaments: the event's setup, its entries, its alternates, its versions and templates."""

import secrets
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .common import MONEY, NOT_NEGATIVE, POSITIVE, plausible_date
from .people import Person
from .structures import BlindStructure


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
    chip_set = models.ForeignKey("tournaments.ChipSet", null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("chip set"))
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
