"""Serializer fields for ids: a whole number, nothing else.

DRF's ``PrimaryKeyRelatedField`` hands what it gets to the database lookup, and Django turns
``1.9`` into ``1``: ``{"tournament": 1.9}`` sold an entry in tournament 1. Its ``IntegerField``
takes ``"2"`` and ``2.0``. An id here is a JSON integer (not a boolean, a fraction, a string or
a float; the API takes JSON bodies only). Every relation of the API's serializers is an
``IdField`` (``IdModelSerializer`` makes the ones a model serializer builds; a test walks them all).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

MAX_ID = 2**63 - 1


def whole_number(data):
    """``data`` when it is a JSON integer (``bool`` is an ``int`` in Python: not one here); else None."""
    return data if type(data) is int else None


class IdField(serializers.PrimaryKeyRelatedField):
    """A related object named by its id, a whole number (1.9, true and "2" are refused, 400)."""

    default_error_messages = {"incorrect_type": _("An id is a whole number.")}

    def run_validation(self, data=serializers.empty):
        if data == "":  # DRF reads "" as null for a relation; the schema says an integer or null
            self.fail("incorrect_type")
        return super().run_validation(data)

    def to_internal_value(self, data):
        value = whole_number(data)
        if value is None:
            self.fail("incorrect_type")
        if not 0 < value <= MAX_ID:
            self.fail("does_not_exist", pk_value=value)
        return super().to_internal_value(value)


class WholeNumberField(serializers.IntegerField):
    """An ``IntegerField`` that takes a JSON integer only (``"2"``, ``2.0`` and ``true`` are refused)."""

    default_error_messages = {"invalid": _("A whole number is required.")}

    def to_internal_value(self, data):
        value = whole_number(data)
        if value is None:
            self.fail("invalid")
        return super().to_internal_value(value)


class TextField(serializers.CharField):
    """A text as the schema says: a JSON string (DRF's ``CharField`` takes ``-40189`` as
    ``"-40189"``), its length counted as sent (DRF trims the ends first, so 201 characters with a
    space at an end passed a limit of 200)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


class IdModelSerializer(serializers.ModelSerializer):
    """A ``ModelSerializer`` whose relations are ``IdField``s and whose texts are ``TextField``s."""

    serializer_related_field = IdField
    serializer_field_mapping = {**serializers.ModelSerializer.serializer_field_mapping, models.CharField: TextField, models.TextField: TextField}
