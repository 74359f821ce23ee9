"""The floor's API bodies: chip sets, penalties, colour-ups, chip adjustments and counts, chip races."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tdmanager.fields import IdField, IdModelSerializer, TextField, WholeNumberField
from tournaments import labels
from tournaments.api.fields import MAX_STACK, REASON, bounded
from tournaments.floor import chiprace
from tournaments.floor.selectors import penalty_progress
from tournaments.house import HouseRules
from tournaments.models import (
    Entry,
)
from tournaments.setup.selectors import seat_of
from tournaments.setup.serializers import MAX_CHIPS, SeatSerializer


class ChipDenominationSerializer(IdModelSerializer):
    class Meta:
        from tournaments.models import ChipDenomination

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
        from tournaments.models import ChipSet

        model = ChipSet
        fields = ["id", "name", "denominations"]

    def validate_denominations(self, value):
        values = [d.get("value") for d in value]
        if not value or None in values or len(values) != len(set(values)) or min(values) < 1:
            raise serializers.ValidationError(_("Distinct positive denominations are needed."))
        return value


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
        from tournaments.models import Penalty

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


class PenaltyActionSerializer(serializers.Serializer):
    hands = serializers.IntegerField(default=1, min_value=1, max_value=10_000, help_text="serve: hands served now")
    reason = TextField(required=False, allow_blank=True, default="", max_length=REASON, help_text="cancel: why")


class ChipAdjustSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["FORFEIT", "OUT_OF_VIEW", "LOST_FOUND", "CORRECTION", "DISQUALIFICATION"])
    chips = serializers.IntegerField(min_value=-(10**12), max_value=10**12)
    reason = TextField(max_length=REASON)
    entry = IdField(queryset=Entry.objects.all(), required=False, allow_null=True)


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
