"""The people desk's API bodies: a person as the desk reads and writes them, an erasure, a ban."""

from rest_framework import serializers

from tdmanager.fields import IdModelSerializer, TextField
from tournaments import labels
from tournaments.api.fields import REASON
from tournaments.models import (
    Person,
)
from tournaments.people.rules import masked_document


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
