"""A lobby screen as the API reads and writes it."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from tdmanager.fields import IdModelSerializer
from tournaments.models import (
    DisplayScreen,
)


class DisplayScreenSerializer(IdModelSerializer):
    url = serializers.SerializerMethodField()
    overlay_url = serializers.SerializerMethodField()

    class Meta:
        from tournaments.models import DisplayScreen

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
            "language",
            "second_language",
            "overlay_url",
            "overlay_width",
            "overlay_height",
            "overlay_delay",
            "bust_seconds",
        ]
        read_only_fields = ["token", "token_revoked_at"]
        extra_kwargs = {
            "rotate": {"help_text": "tournaments the screen shows in turn (with its own tournament first)"},
            "rotate_seconds": {"help_text": "seconds each tournament stays on the screen (5–600)"},
            "language": {"help_text": "the language the screen shows and speaks (a code of the product's languages); empty: its browser's"},
            "second_language": {"help_text": "a second language its speaker says each announcement in, after the first; empty: none"},
            "layouts": {"help_text": 'its layout by state: {"live", "break", "final"} → a key of GET /api/v1/screen-layouts/'},
            "speaker": {"help_text": "this screen plays the sounds and speaks (the others showing its tournaments become quiet)"},
            "overlay_width": {"help_text": "the stream overlay's width in pixels (320–7680), as OBS's browser source is set"},
            "overlay_height": {"help_text": "the stream overlay's height in pixels (180–4320)"},
            "overlay_delay": {"help_text": "seconds the overlay runs behind the room, the stream's delay (0–900)"},
            "bust_seconds": {"help_text": "seconds a bust stays on the overlay as a lower third (3–120)"},
            "sounds": {
                "help_text": '{"warn_minutes": 1–30, "events": {event: {"on", "sound", "speak", "text"}}}; events: '
                "level, minutes_left, break_start, break_end, colour_up, hand_for_hand, bubble, final_table, last_two, announcement"
            },
        }

    def get_url(self, obj) -> str:
        return reverse("display", args=[obj.token])

    def get_overlay_url(self, obj) -> str:
        return reverse("overlay", args=[obj.token])

    def validate_show(self, value):
        if not isinstance(value, dict) or any(k not in DisplayScreen.PANELS or not isinstance(v, bool) for k, v in value.items()):
            raise serializers.ValidationError(_("An object of panels (%(panels)s), each true or false.") % {"panels": ", ".join(DisplayScreen.PANELS)})
        return value
