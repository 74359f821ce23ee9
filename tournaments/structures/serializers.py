"""Blind structures' API bodies: a structure and its levels and breaks."""

from tdmanager.fields import IdModelSerializer, TextField
from tournaments.models import (
    BlindStructure,
    StructureItem,
)


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
