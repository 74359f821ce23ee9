from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tdmanager import dates
from tdmanager.compiled import BuiltOnce
from tdmanager.fields import AmountField, IdField, IdModelSerializer, TextField, WholeNumberField

from . import chiprace, fees, labels, receipts
from .house import HouseRules, check_settings
from .models import (
    Alternate,
    BlindStructure,
    DisplayScreen,
    Entry,
    LedgerRow,
    Person,
    StructureItem,
    Tournament,
    TournamentEvent,
    TournamentTemplate,
    WaitingStart,
)
from .people_search import masked_document
from .selectors import change_lines, penalty_progress, public_reason, seat_of

REASON = 200  # the reason columns (LedgerRow.reason, Person.banned_reason, ChipAdjustment.reason)

#: The most a stack (starting, rebuy, add-on, the rebuy threshold), a chip's value or a count of
#: one colour of a chip set may be: a billion, far above any room's, and within the integer
#: columns of every database (their own bound, 2^31 or 2^63, is no number a person should read).
MAX_STACK = 10**9


def at_most(n: int):
    """A refusal of a number above ``n`` with ``n`` written in the reader's language (1.000.000.000)."""
    from django.utils.formats import number_format
    from django.utils.functional import lazy
    from django.utils.translation import gettext

    return lazy(lambda: gettext("At most %(n)s.") % {"n": number_format(n, force_grouping=True)}, str)()


def bounded(n: int) -> dict:
    """A serializer field's ``max_value`` with its refusal in words (``at_most``)."""
    return {"max_value": n, "error_messages": {"max_value": at_most(n)}}


class PersonSerializer(IdModelSerializer):
    """``document_id`` is written whole and read masked ("•••••456", GDPR): the whole number is
    read at check-in (``cashier/check-in/document/``) or revealed by a director (``people/<id>/document/``), each logged."""

    display_name = serializers.CharField(read_only=True)
    banned_reason = serializers.CharField(read_only=True, help_text="the ban's reason, in the reader's language when the product wrote it")

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if "document_id" in data:
            data["document_id"] = masked_document(data["document_id"])
        if "banned_reason" in data:
            data["banned_reason"] = labels.shipped_text(data["banned_reason"])
        return data

    class Meta:
        model = Person
        fields = [
            "id",
            "first_name",
            "last_name",
            "nickname",
            "display_name",
            "email",
            "phone",
            "document_id",
            "notes",
            "birth_date",
            "privacy_consent",
            "banned",
            "banned_reason",
            "hide_from_lookup",
            "created_at",
        ]
        read_only_fields = ["banned", "banned_reason", "created_at"]


class PersonCreateSerializer(PersonSerializer):
    confirm_duplicate = serializers.BooleanField(default=False, write_only=True)

    class Meta(PersonSerializer.Meta):
        fields = PersonSerializer.Meta.fields + ["confirm_duplicate"]


class EraseSerializer(serializers.Serializer):
    reason = TextField(max_length=REASON, help_text="why the person's data is erased (logged; the erased data is not)")


class BanSerializer(serializers.Serializer):
    banned = serializers.BooleanField()
    reason = TextField(allow_blank=True, default="", max_length=REASON)


class StructureItemSerializer(IdModelSerializer):
    class Meta:
        model = StructureItem
        fields = ["kind", "small_blind", "big_blind", "ante", "big_blind_ante", "minutes", "color_up", "game", "removes_denominations", "add_on"]


class BlindStructureSerializer(IdModelSerializer):
    items = StructureItemSerializer(many=True)
    reason = TextField(
        write_only=True,
        required=False,
        allow_blank=True,
        max_length=300,
        help_text="FMT-02: why the structure of a published event changes (announced on its lobby screens)",
    )

    class Meta:
        model = BlindStructure
        fields = ["id", "name", "description", "is_template", "items", "reason"]


class WaitingSerializer(serializers.Serializer):
    missing = serializers.IntegerField(help_text="the room's free tables missing at the last try")
    asked_at = serializers.DateTimeField()


class TournamentSerializer(IdModelSerializer):
    entry_price = serializers.SerializerMethodField(help_text="what the desk charges for an entry: buy_in + fee + bounty_part")
    bounty_part = serializers.SerializerMethodField(help_text="PAY-02: the bounty bought with each entry in a bounty event (settings.bounty_amount), else 0")
    override_reason = TextField(
        write_only=True,
        required=False,
        allow_blank=True,
        max_length=REASON,
        help_text="why prices change once registration is open (FMT-01), or why the fee is not the statutory one (REG-03)",
    )
    fee_preset = serializers.ChoiceField(
        choices=list(fees.PRESETS), write_only=True, required=False, help_text="REG-03: STATUTORY (10 % / 6 %) or SANREMO_DAILY (flat 20, 003 Allegato 1)"
    )
    statutory_fee = serializers.SerializerMethodField(help_text="REG-03: 10 % of the buy-in up to 3,000, 6 % above")
    fee_is_override = serializers.SerializerMethodField(help_text="the fee is not the statutory one (settings.fee_override)")
    late_registration_level = serializers.SerializerMethodField(
        help_text="REG-04: late registration closes at the end of this level: late_reg_closes_after_level, else settings.late_reg_default_level (3)"
    )
    waiting_for_tables = serializers.SerializerMethodField(
        help_text="a start waiting for free tables of the room (when_room_full: wait): {missing, asked_at}, else null"
    )
    rebuy_level = serializers.SerializerMethodField(
        help_text="FMT-04: rebuys are sold until the end of this level: rebuy_until_level, else settings.rebuy_default_level (3)"
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "start_at",
            "game",
            "format",
            "status",
            "currency",
            "buy_in",
            "fee",
            "bounty_part",
            "entry_price",
            "starting_stack",
            "table_size",
            "field_cap",
            "min_players",
            "structure",
            "late_reg_closes_after_level",
            "late_reg_end",
            "max_entries_per_player",
            "reentry_until_level",
            "rebuy_price",
            "rebuy_fee",
            "rebuy_chips",
            "rebuy_max",
            "rebuy_until_level",
            "rebuy_stack_threshold",
            "addon_price",
            "addon_fee",
            "addon_chips",
            "addon_after_level",
            "addon_max",
            "deductions",
            "guarantee",
            "cash_limit",
            "rule_set",
            "settings",
            "chip_set",
            "override_reason",
            "fee_preset",
            "statutory_fee",
            "fee_is_override",
            "late_registration_level",
            "rebuy_level",
            "waiting_for_tables",
        ]
        read_only_fields = ["status"]
        extra_kwargs = {
            "fee": {"required": False, "help_text": "computed from the buy-in and settings.fee_override (REG-03)"},
            **{f: bounded(MAX_STACK) for f in ("starting_stack", "rebuy_chips", "addon_chips", "rebuy_stack_threshold")},
        }

    @extend_schema_field(WaitingSerializer(allow_null=True))
    def get_waiting_for_tables(self, obj) -> dict | None:
        try:
            waiting = obj.waiting_start
        except WaitingStart.DoesNotExist:
            return None
        return {"missing": waiting.missing, "asked_at": waiting.asked_at}

    @extend_schema_field(serializers.DecimalField(max_digits=13, decimal_places=2))
    def get_entry_price(self, obj) -> str:
        return f"{HouseRules.of(obj).entry_cost(obj):.2f}"

    @extend_schema_field(serializers.DecimalField(max_digits=13, decimal_places=2))
    def get_bounty_part(self, obj) -> str:
        return f"{HouseRules.of(obj).bounty_part:.2f}"

    @extend_schema_field(serializers.DecimalField(max_digits=13, decimal_places=2))
    def get_statutory_fee(self, obj) -> str:
        return str(fees.statutory_fee(obj.buy_in)) if obj.buy_in is not None and obj.buy_in >= 0 else None

    def get_late_registration_level(self, obj) -> int:
        return HouseRules.of(obj).late_registration_level(obj)

    def get_rebuy_level(self, obj) -> int:
        return HouseRules.of(obj).rebuy_level(obj)

    def get_fee_is_override(self, obj) -> bool:
        return obj.buy_in is not None and obj.buy_in >= 0 and fees.is_override(obj.buy_in, obj.fee)

    def to_internal_value(self, data):
        """When fields are refused, the setup rules (``context["setup_errors"]``: the view passes
        services.setup's pure check) still run on the fields that were read, so one answer
        names every problem rather than one stage per attempt."""
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as exc:
            check = self.context.get("setup_errors")
            refused = exc.detail if isinstance(exc.detail, dict) else {}
            if check is None or not isinstance(data, dict) or not refused:
                raise
            readable = {}
            for name, field in self.fields.items():
                if field.read_only or name in refused or name not in data:
                    continue
                try:
                    readable[field.source] = field.run_validation(data[name])
                except Exception:  # noqa: BLE001 - refused already (or not readable alone): not a setup value
                    continue
            more = {name: [message] for name, message in check(readable, self.instance).items() if name not in refused}
            if not more:
                raise
            raise serializers.ValidationError({**refused, **more}) from None

    def validate_settings(self, value):
        errors = check_settings(value)
        if errors:
            raise serializers.ValidationError(errors.get("") or errors)
        return value

    # The setup rules (FMT-01, FMT-03, FMT-14, prices never negative, the deductions) are checked by the services
    # both the API and the page call (tournaments.services.setup), not here.


class SeatSerializer(serializers.Serializer):
    """Where an entry sits: table and seat numbers."""

    table = serializers.IntegerField()
    seat = serializers.IntegerField()


class EntrySerializer(BuiltOnce, IdModelSerializer):
    person_name = serializers.CharField(source="person.display_name", read_only=True)
    seat = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = [
            "id",
            "tournament",
            "person",
            "person_name",
            "number",
            "person_entry_no",
            "status",
            "is_late",
            "pre_registered",
            "chips",
            "rebuys",
            "addons",
            "created_at",
            "busted_at",
            "place",
            "seat",
            "registration_state",
            "channel",
            "awaits_transfer",
            "funds_cleared_at",
            "checked_in_at",
            "id_checked",
            "no_show_at",
            "presence",
            "rebuy_declared_at",
        ]

    registration_state = serializers.SerializerMethodField(help_text="REG-02: PRE_REGISTERED, PAID, CHECKED_IN, SEATED, BUSTED, CANCELLED, NO_SHOW")
    awaits_transfer = serializers.BooleanField(read_only=True)

    @extend_schema_field(SeatSerializer(allow_null=True))
    def get_seat(self, obj):
        return self._seat(obj)

    def get_registration_state(self, obj) -> str:
        return obj.registration_state(seated=self._seat(obj) is not None)

    def _seat(self, obj):
        """The entry's seat, asked once per entry (two fields show it)."""
        seats = self.__dict__.setdefault("_seats", {})
        if obj.pk not in seats:
            seats[obj.pk] = seat_of(obj)
        return seats[obj.pk]


class LedgerRowSerializer(BuiltOnce, IdModelSerializer):
    total = AmountField(max_digits=13, decimal_places=2, read_only=True)
    cashier_name = serializers.CharField(source="cashier.username", read_only=True, default="")
    reverses_receipt = serializers.IntegerField(source="reverses.receipt_number", read_only=True, default=None, allow_null=True)
    settles_receipt = serializers.IntegerField(source="settles.receipt_number", read_only=True, default=None, allow_null=True)
    receipt_url = serializers.SerializerMethodField()
    receipt_pdf_url = serializers.SerializerMethodField()
    phone_url = serializers.SerializerMethodField(
        help_text="The player's phone page of the entry sold (its token is the page's key): only for a cashier or a director, "
        "who hand the player his receipt with its QR code; null for any other reader."
    )
    reason = serializers.CharField(read_only=True)

    class Meta:
        model = LedgerRow
        fields = [
            "id",
            "receipt_number",
            "tournament",
            "entry",
            "person",
            "kind",
            "prize_amount",
            "fee_amount",
            "side_amount",
            "jackpot_amount",
            "bounty_amount",
            "total",
            "currency",
            "tender_currency",
            "tender_amount",
            "exchange_rate",
            "chips",
            "method",
            "reference",
            "payee",
            "cashier_name",
            "created_at",
            "reverses_receipt",
            "owed_amount",
            "settles_receipt",
            "reason",
            "receipt_url",
            "receipt_pdf_url",
            "phone_url",
        ]

    def get_phone_url(self, obj) -> str | None:
        """The player's phone page of the entry sold (the receipt's QR code), "" where none. The
        page shows his name, seat, place and prizes to whoever holds the link, so it goes only to
        who hands it to him (``policy.PHONE_PAGE_GIVERS``): the request's user, or a desk route's
        own answer (``context["at_desk"]``: the cashier's and the director's routes, no request
        at hand). Any other reader (floor, controller, regulator), or no reader named: None."""
        request = self.context.get("request")
        if not (self.context.get("at_desk") or receipts.gives_phone_page(request)):
            return None
        return receipts.phone_link(obj, request)

    def get_receipt_url(self, obj) -> str:
        return reverse("receipt", args=[obj.receipt_number])

    def get_receipt_pdf_url(self, obj) -> str:
        return reverse("receipt-pdf", args=[obj.receipt_number])


class SaleSerializer(LedgerRowSerializer):
    """A row of the desk's "Last sales": the row, who it was for, and whether it was reversed."""

    person_name = serializers.CharField(source="person.display_name", read_only=True, default="")
    kind_display = serializers.CharField(source="get_kind_display", read_only=True)
    method_display = serializers.CharField(source="get_method_display", read_only=True)
    reversed_by_receipt = serializers.SerializerMethodField()

    class Meta(LedgerRowSerializer.Meta):
        fields = LedgerRowSerializer.Meta.fields + ["person_name", "kind_display", "method_display", "reversed_by_receipt"]

    def get_reversed_by_receipt(self, obj) -> int | None:
        rev = getattr(obj, "reversed_by", None)  # a reverse one-to-one: AttributeError when there is none
        return rev.receipt_number if rev is not None else None


class AlternateSerializer(IdModelSerializer):
    person_name = serializers.CharField(source="person.display_name", read_only=True)

    class Meta:
        model = Alternate
        fields = ["id", "tournament", "person", "person_name", "status", "created_at", "entry"]


class EventSerializer(IdModelSerializer):
    action_label = serializers.CharField(read_only=True, help_text="The action as a person reads it, in the user's language.")
    sentence = serializers.CharField(
        read_only=True, default="", help_text="The event as one sentence in the user's language (tournaments.eventlog; set by selectors.event_sentences)."
    )

    class Meta:
        model = TournamentEvent
        fields = ["id", "tournament", "action", "action_label", "sentence", "actor_label", "device", "created_at", "payload"]


# --- cashier inputs -------------------------------------------------------------------------

METHOD = serializers.ChoiceField(choices=LedgerRow.METHODS, default=LedgerRow.CASH)
# REG-06: paid in USD or CHF at today's rate (blank: the tournament's currency).
TENDER = TextField(
    required=False, allow_blank=True, default="", max_length=3, help_text="USD or CHF at the rate of the day (REG-06); blank: the tournament's currency"
)


class StartSerializer(serializers.Serializer):
    override_minimum = serializers.BooleanField(default=False)
    prestart_report_sent = serializers.BooleanField(default=False)
    start_clock = serializers.BooleanField(default=False, help_text="start the clock too, in the same transaction (the page's box is ticked by default)")
    seat_later_sessions = serializers.BooleanField(
        default=False,
        help_text="SEAT-02: seat now, by the draw, the paid players the draw in advance put into a later session (else 409 predraw_later_session)",
    )
    when_room_full = serializers.ChoiceField(
        choices=["refuse", "wait"],
        default="refuse",
        help_text="the room has too few free tables: refuse (409 room_full, with missing) or wait (the tournament stays as it is, "
        "waiting_for_tables says so, and it starts by itself as soon as the tables are free)",
    )


class StreamingSerializer(serializers.Serializer):
    live = serializers.BooleanField(help_text="true: the TV table is streaming live (ROLE-08)")


class CopySerializer(serializers.Serializer):
    """A new tournament as a copy of another or of a saved template."""

    name = TextField(max_length=160)
    start_at = dates.DateTimeField()
    override_reason = TextField(
        max_length=200, required=False, allow_blank=True, default="", help_text="why the fee is not the statutory one, when it is not (REG-03)"
    )


class SaveTemplateSerializer(serializers.Serializer):
    name = TextField(max_length=160)


class TournamentTemplateSerializer(IdModelSerializer):
    structure_name = serializers.CharField(source="structure.name", read_only=True, default=None, allow_null=True)
    source_name = serializers.CharField(source="source.name", read_only=True, default=None, allow_null=True)  # null: source deleted

    class Meta:
        model = TournamentTemplate
        fields = ["id", "name", "values", "structure", "structure_name", "source", "source_name", "created_at"]
        read_only_fields = fields


class CancelSerializer(serializers.Serializer):
    # Each refund's reason is "Tournament cancelled: <reason>", in a 200-character column.
    reason = TextField(max_length=160, required=False, allow_blank=True, default="")


class SellEntrySerializer(serializers.Serializer):
    tournament = IdField(queryset=Tournament.objects.all())
    person = IdField(queryset=Person.objects.all())
    method = METHOD
    tender_currency = TENDER
    jackpot = serializers.BooleanField(default=False, help_text="add the progressive jackpot's fee (REG-11)")
    confirm_final_table = serializers.BooleanField(
        default=False,
        help_text="the desk confirms an entry that opens a table once the final table is formed (REG-04, BAL-09: 409 final_table_formed without it)",
    )


class PreRegisterSerializer(serializers.Serializer):
    tournament = IdField(queryset=Tournament.objects.all())
    person = IdField(queryset=Person.objects.all())
    channel = serializers.ChoiceField(choices=["desk", "transfer", "whatsapp", "email", "phone"], default="desk")


class EntryActionSerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    method = METHOD
    tender_currency = TENDER


class CheckInSerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    id_checked = serializers.BooleanField(default=False, help_text="the identity document was seen (REG-02)")


class TransferClearedSerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    reference = TextField(max_length=80)
    jackpot = serializers.BooleanField(default=False)
    confirm_final_table = serializers.BooleanField(
        default=False,
        help_text="the desk confirms an entry that opens a table once the final table is formed (REG-04, BAL-09: 409 final_table_formed without it)",
    )


class PresenceSerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    presence = serializers.ChoiceField(choices=["", "ABSENT", "WITHDRAWN"], allow_blank=True)
    reason = TextField(max_length=REASON, required=False, allow_blank=True, default="")


class ArrivalSerializer(serializers.Serializer):
    """REG-09: the floor marks a seated player as not arrived (``arrived`` false) or arrived (its undo)."""

    entry = IdField(queryset=Entry.objects.all())
    arrived = serializers.BooleanField()
    reason = TextField(max_length=REASON, required=False, allow_blank=True, default="")


class SettleSerializer(serializers.Serializer):
    """REG-09: the player pays an amount owed (the RECEIVABLE row's receipt number)."""

    receipt_number = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    method = serializers.ChoiceField(choices=LedgerRow.METHODS, default=LedgerRow.CASH)


class NoShowSerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    reason = TextField(max_length=REASON, required=False, allow_blank=True, default="")


class PayReservationSerializer(EntryActionSerializer):
    jackpot = serializers.BooleanField(default=False, help_text="add the progressive jackpot's fee (REG-11)")
    confirm_final_table = serializers.BooleanField(
        default=False,
        help_text="the desk confirms an entry that opens a table once the final table is formed (REG-04, BAL-09: 409 final_table_formed without it)",
    )


class DeskEntrySerializer(EntryActionSerializer):
    """A rebuy or an add-on at the desk: the player's entry; none (null) when the player has no entry
    in the tournament, then ``person`` names him in the refusal (409 not_in_tournament)."""

    entry = IdField(queryset=Entry.objects.all(), allow_null=True)
    person = IdField(queryset=Person.objects.all(), required=False, allow_null=True)


class DeclareRebuySerializer(serializers.Serializer):
    """FMT-04 / TDA 27: the player declared a rebuy before the hand (his stack, when the house asks
    that it be at or below the rebuy threshold: ``settings.rebuy_declare_with_chips`` false). At
    the desk, as for a rebuy: no entry (null) when the player has none, ``person`` naming him in
    the refusal (409 not_in_tournament)."""

    entry = IdField(queryset=Entry.objects.all(), allow_null=True)
    person = IdField(queryset=Person.objects.all(), required=False, allow_null=True)
    stack = serializers.IntegerField(min_value=0, max_value=MAX_STACK, required=False, allow_null=True)


class RebuySerializer(DeskEntrySerializer):
    stack = serializers.IntegerField(min_value=0, required=False, allow_null=True)
    confirm_final_table = serializers.BooleanField(
        default=False,
        help_text="the desk confirms an entry that opens a table once the final table is formed (REG-04, BAL-09: 409 final_table_formed without it)",
    )


class ReverseSerializer(serializers.Serializer):
    receipt_number = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    reason = TextField(max_length=REASON)


class RefundSerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    reason = TextField(max_length=REASON)
    expenses = AmountField(max_digits=13, decimal_places=2, default=0, min_value=0)
    method = METHOD
    reference = TextField(
        max_length=80,
        required=False,
        allow_blank=True,
        default="",
        help_text="the cheque number or transfer reference; cash only within the cash limit (REG-06)",
    )


class RefundDuePaySerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    method = METHOD
    reference = TextField(
        max_length=80, required=False, allow_blank=True, default="", help_text="the cheque number or transfer reference (required for CHEQUE and TRANSFER)"
    )


class AlternateInputSerializer(serializers.Serializer):
    tournament = IdField(queryset=Tournament.objects.all())
    person = IdField(queryset=Person.objects.all())


class AdmitAlternateSerializer(serializers.Serializer):
    tournament = IdField(queryset=Tournament.objects.all())
    method = METHOD
    tender_currency = TENDER


class ClockActionSerializer(serializers.Serializer):
    seconds = serializers.IntegerField(required=False, allow_null=True, min_value=-86400, max_value=86400)
    item_index = serializers.IntegerField(required=False, min_value=0, max_value=10_000)
    minutes = serializers.IntegerField(required=False, min_value=1, max_value=240)
    table = serializers.IntegerField(required=False, min_value=1, max_value=10_000)
    seconds_per_hand = serializers.IntegerField(required=False, min_value=1, max_value=3600)
    color_up = TextField(required=False, allow_blank=True, default="", max_length=200)
    preset = serializers.ChoiceField(
        choices=["TDA", "SANREMO", "HEADS_UP"],
        required=False,
        allow_null=True,
        default=None,
        help_text="call-clock / call-time: the clock-call preset (default: the event's, CLK-10)",
    )
    player = TextField(required=False, allow_blank=True, default="", max_length=120)
    entry = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**31 - 1,
        help_text="call-clock: the player called (his own time applies); call-time: whose time is set",
    )
    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON)
    text = TextField(required=False, allow_blank=True, default="", max_length=200, help_text="tell-players: the announcement, as the players read it")


class DisplayScreenSerializer(IdModelSerializer):
    url = serializers.SerializerMethodField()

    class Meta:
        from .models import DisplayScreen

        model = DisplayScreen
        fields = [
            "id",
            "name",
            "tournament",
            "token",
            "token_revoked_at",
            "show",
            "announcement",
            "url",
            "rotate",
            "rotate_seconds",
            "layouts",
            "speaker",
            "sounds",
        ]
        read_only_fields = ["token", "token_revoked_at"]
        extra_kwargs = {
            "rotate": {"help_text": "tournaments the screen shows in turn (with its own tournament first)"},
            "rotate_seconds": {"help_text": "seconds each tournament stays on the screen (5–600)"},
            "layouts": {"help_text": 'its layout by state: {"live", "break", "final"} → a key of GET /api/v1/screen-layouts/'},
            "speaker": {"help_text": "this screen plays the sounds and speaks (the others showing its tournaments become quiet)"},
            "sounds": {
                "help_text": '{"warn_minutes": 1–30, "events": {event: {"on", "sound", "speak", "text"}}}; events: '
                "level, minutes_left, break_start, break_end, colour_up, hand_for_hand, bubble, final_table, last_two, announcement"
            },
        }

    def get_url(self, obj) -> str:
        return reverse("display", args=[obj.token])

    def validate_show(self, value):
        if not isinstance(value, dict) or any(k not in DisplayScreen.PANELS or not isinstance(v, bool) for k, v in value.items()):
            raise serializers.ValidationError(_("An object of panels (%(panels)s), each true or false.") % {"panels": ", ".join(DisplayScreen.PANELS)})
        return value


class ChipDenominationSerializer(IdModelSerializer):
    class Meta:
        from .models import ChipDenomination

        model = ChipDenomination
        fields = ["value", "colour", "quantity"]
        extra_kwargs = {
            "value": {"label": _("Denomination"), **bounded(MAX_STACK)},
            "colour": {"label": _("Colour")},
            "quantity": {"label": _("Quantity owned"), **bounded(MAX_STACK)},
        }


class ChipSetSerializer(IdModelSerializer):
    denominations = ChipDenominationSerializer(many=True, label=_("Denominations"))

    class Meta:
        from .models import ChipSet

        model = ChipSet
        fields = ["id", "name", "denominations"]

    def validate_denominations(self, value):
        values = [d.get("value") for d in value]
        if not value or None in values or len(values) != len(set(values)) or min(values) < 1:
            raise serializers.ValidationError(_("Distinct positive denominations are needed."))
        return value

    # Saved by tournaments.services.chipsets (logged), which the viewset calls: never by save() here.


class PenaltySerializer(IdModelSerializer):
    hands_left = serializers.IntegerField(read_only=True)
    player = serializers.CharField(source="person.display_name", read_only=True)
    tournament_name = serializers.CharField(source="tournament.name", read_only=True)
    seat = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    kind_label = serializers.SerializerMethodField(help_text="The penalty type as a person reads it.")
    reason_label = serializers.SerializerMethodField(help_text="The reason as a person reads it.")
    status_label = serializers.SerializerMethodField()

    class Meta:
        from .models import Penalty

        model = Penalty
        fields = [
            "id",
            "tournament",
            "tournament_name",
            "entry",
            "person",
            "player",
            "kind",
            "reason_code",
            "note",
            "preset",
            "rounds",
            "players_at_table",
            "hands_total",
            "hands_served",
            "hands_left",
            "minutes",
            "ends_at",
            "chips",
            "prize_forfeited",
            "table_number",
            "status",
            "issued_at",
            "seat",
            "started",
            "progress",
            "kind_label",
            "reason_label",
            "status_label",
        ]

    @extend_schema_field(SeatSerializer(allow_null=True))
    def get_seat(self, obj):
        return seat_of(obj.entry) if obj.status == "ACTIVE" else None

    def get_kind_label(self, obj) -> str:
        return labels.penalty_kind_label(obj.kind)

    def get_reason_label(self, obj) -> str:
        return labels.penalty_reason_label(obj.reason_code, HouseRules.of(obj.tournament).penalty_reasons)

    def get_status_label(self, obj) -> str:
        return str(labels.PENALTY_STATUSES.get(obj.status, labels.humanize(obj.status)))

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_progress(self, obj):
        """PEN-03 / PEN-05: ``started``, ``hands_left``, ``seconds_left`` (on the clock), ``clock_paused``, ``label``."""
        return penalty_progress(obj)


class IssuePenaltySerializer(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    kind = serializers.ChoiceField(
        choices=["WARNING", "MISSED_HANDS", "MISSED_ROUNDS", "TIME_SUSPENSION", "DEAD_HAND", "DISQUALIFICATION", "ELIMINATION_NO_PRIZE", "CHIP_FORFEIT"]
    )
    reason_code = TextField(max_length=40)
    rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=100, label=_("Rounds"))
    hands = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=10_000, label=_("Hands"))
    minutes = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=24 * 60, label=_("Minutes"))
    chips = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=10**12, label=_("Chips"))
    players_at_table = serializers.IntegerField(required=False, allow_null=True, min_value=2, max_value=11, label=_("Players at the table"))
    note = TextField(required=False, allow_blank=True, default="", max_length=300)
    between_hands = serializers.BooleanField(default=False, help_text="PEN-03: no hand is in play; the next hand dealt is the first one missed")
    heads_up_reading = serializers.ChoiceField(
        choices=["ROUNDS_OF_TWO_HANDS", "BLINDS_PAID"],
        required=False,
        allow_null=True,
        default=None,
        help_text="PEN-06, C28: under the heads-up preset, missed rounds count as rounds of two hands (3 rounds = 6 hands) or one "
        "blind paid per round (3 rounds = 3 hands); required there, refused with both readings in hands when missing",
    )


class ColorUpSerializer(serializers.Serializer):
    """CR-05: colour up one player (``entry``) or one table (``table``)."""

    from_denomination = serializers.IntegerField(min_value=1, max_value=10**9)
    to_denomination = serializers.IntegerField(min_value=1, max_value=10**9)
    table = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=10_000)
    entry = IdField(queryset=Entry.objects.all(), required=False, allow_null=True)
    note = TextField(required=False, allow_blank=True, default="", max_length=200)


class TournamentChangeSerializer(serializers.Serializer):
    """FMT-02: one version of a published event."""

    version = serializers.IntegerField()
    kind = TextField()
    changed_at = serializers.DateTimeField()
    changed_by = TextField(source="changed_by.get_username", default="")
    reason = serializers.SerializerMethodField(help_text="why it changed (to a lobby screen's login: only once shown to the players)")
    reason_public = serializers.BooleanField(help_text="the players may read the reason (the public rules page, its feed, the lobby screens)")
    changes = serializers.JSONField()
    lines = serializers.SerializerMethodField(help_text="each change as players read it, in the user's language")

    def get_reason(self, obj) -> str:
        return public_reason(obj) if self.context.get("public_only") else obj.reason

    def get_lines(self, obj) -> list[str]:
        return change_lines(obj)


class ChangeReasonSerializer(serializers.Serializer):
    public = serializers.BooleanField(help_text="true: the players may read why this version changed; false: the staff alone")


class PenaltyActionSerializer(serializers.Serializer):
    hands = serializers.IntegerField(default=1, min_value=1, max_value=10_000, help_text="serve: hands served now")
    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON, help_text="cancel: why")


class ChipAdjustSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["FORFEIT", "OUT_OF_VIEW", "LOST_FOUND", "CORRECTION", "DISQUALIFICATION"])
    chips = serializers.IntegerField(min_value=-(10**12), max_value=10**12)
    reason = TextField(max_length=REASON)
    entry = IdField(queryset=Entry.objects.all(), required=False, allow_null=True)


MAX_CHIPS = 10**12  # more than any room holds; the chip columns are bigints


class ChipCountItemSerializer(serializers.Serializer):
    entry = WholeNumberField(min_value=1, max_value=2**62)
    chips = serializers.IntegerField(min_value=0, max_value=MAX_CHIPS)
    bag_number = TextField(max_length=20, required=False, allow_blank=True, default="")


class ChipCountsSerializer(serializers.Serializer):
    occasion = serializers.ChoiceField(choices=["BREAK", "END_OF_DAY", "FINAL_TABLE", "BAGGING"], default="BREAK")
    counts = ChipCountItemSerializer(many=True, allow_empty=False)


class RacePlayerSerializer(serializers.Serializer):
    """One player at the race table: as the floor counts him — his whole ``stack`` and the value of
    his chips of the removed colour (``removed_value``), exchanged here (CR-02, ``chiprace.exchange``)
    — or already exchanged (``odd_value`` and ``stack_after_exchange``)."""

    seat = serializers.IntegerField(min_value=1, max_value=11)
    odd_value = serializers.IntegerField(min_value=0, max_value=MAX_CHIPS, required=False)
    stack_after_exchange = serializers.IntegerField(min_value=0, max_value=MAX_CHIPS, required=False)
    stack = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS, required=False)
    removed_value = serializers.IntegerField(min_value=0, max_value=MAX_CHIPS, required=False)

    def validate(self, attrs):
        if "odd_value" in attrs and "stack_after_exchange" in attrs:
            return attrs
        if "stack" not in attrs or "removed_value" not in attrs:
            raise serializers.ValidationError(_("Give each player's stack and the value of the chips of the removed colour."))
        if attrs["removed_value"] > attrs["stack"]:
            raise serializers.ValidationError(
                _("Seat %(seat)s: the chips of the removed colour cannot be worth more than the whole stack.") % {"seat": attrs["seat"]}
            )
        return attrs


class ChipRaceSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=10_000)
    removed_denomination = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS)
    new_denomination = serializers.IntegerField(min_value=1, max_value=MAX_CHIPS)
    players = RacePlayerSerializer(many=True, allow_empty=False)
    winners = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=11), required=False, allow_null=True)
    lowest_denomination_in_play = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_CHIPS)
    last_hand_small_blind_seat = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=11)

    def validate(self, attrs):
        players, new = [], attrs["new_denomination"]
        for p in attrs["players"]:
            if "odd_value" not in p or "stack_after_exchange" not in p:
                _exchanged, odd = chiprace.exchange(p["removed_value"], new)
                p = {"seat": p["seat"], "odd_value": odd, "stack_after_exchange": p["stack"] - odd}
            players.append({"seat": p["seat"], "odd_value": p["odd_value"], "stack_after_exchange": p["stack_after_exchange"]})
        attrs["players"] = players
        return attrs


class ExchangeRateSerializer(IdModelSerializer):
    """REG-06: a rate of the day (how many ``base_currency`` one ``currency`` buys)."""

    set_by_name = serializers.CharField(source="set_by.username", read_only=True, default="")

    class Meta:
        from .models import ExchangeRate

        model = ExchangeRate
        fields = ["id", "date", "currency", "base_currency", "rate", "set_by_name", "set_at"]


class ExchangeRateInputSerializer(serializers.Serializer):
    currency = TextField(max_length=3, label=_("Currency"))
    # Typed at the desk in the reader's language: "1,07" in Italian, "1.07" in English (Django's
    # localized input, ``sanitize_separators``); a JSON number is read as it is.
    rate = AmountField(
        max_digits=14,
        decimal_places=6,
        localize=True,
        label=_("Rate"),
        help_text="how many base_currency one currency buys; a string in the request's language is accepted",
    )
    base_currency = TextField(max_length=3, required=False, default="EUR")
