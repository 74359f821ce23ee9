"""The director's setup as the API reads and writes it: a tournament, its entries and seats,
its start, copy, templates, cancellation and published changes."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tdmanager import dates
from tdmanager.compiled import BuiltOnce
from tdmanager.fields import IdModelSerializer, TextField
from tournaments.api.fields import MAX_STACK, REASON, bounded
from tournaments.cashier import rules as cashier_rules
from tournaments.house import HouseRules, check_settings
from tournaments.models import (
    Entry,
    LedgerRow,
    Tournament,
    TournamentTemplate,
    WaitingStart,
)
from tournaments.setup.selectors import change_lines, public_reason, seat_of


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
        choices=list(cashier_rules.PRESETS),
        write_only=True,
        required=False,
        help_text="REG-03: STATUTORY (10 % / 6 %) or SANREMO_DAILY (flat 20, 003 Allegato 1)",
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
        return str(cashier_rules.statutory_fee(obj.buy_in)) if obj.buy_in is not None and obj.buy_in >= 0 else None

    def get_late_registration_level(self, obj) -> int:
        return HouseRules.of(obj).late_registration_level(obj)

    def get_rebuy_level(self, obj) -> int:
        return HouseRules.of(obj).rebuy_level(obj)

    def get_fee_is_override(self, obj) -> bool:
        return obj.buy_in is not None and obj.buy_in >= 0 and cashier_rules.is_override(obj.buy_in, obj.fee)

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


MAX_CHIPS = 10**12  # more than any room holds; the chip columns are bigints
