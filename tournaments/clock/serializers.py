"""The director's clock actions as the API takes them."""

from rest_framework import serializers

from tdmanager.fields import TextField
from tournaments.api.fields import REASON


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
