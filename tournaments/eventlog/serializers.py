"""The event log as the API reads it: one row with its action's label."""

from rest_framework import serializers

from tdmanager.fields import IdModelSerializer
from tournaments.models import (
    TournamentEvent,
)


class EventSerializer(IdModelSerializer):
    action_label = serializers.CharField(read_only=True, help_text="The action as a person reads it, in the user's language.")
    sentence = serializers.CharField(
        read_only=True, default="", help_text="The event as one sentence in the user's language (tournaments.eventlog; set by selectors.event_sentences)."
    )

    class Meta:
        model = TournamentEvent
        fields = ["id", "tournament", "action", "action_label", "sentence", "actor_label", "device", "created_at", "payload"]
