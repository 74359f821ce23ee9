"""Serializer fields for ids: a whole number, nothing else.

DRF's ``PrimaryKeyRelatedField`` hands what it gets to the database lookup, and Django turns
``1.9`` into ``1``: ``{"tournament": 1.9}`` sold an entry in tournament 1. Its ``IntegerField``
takes ``"2"`` and ``2.0``. An id here is a JSON integer (not a boolean, a fraction, a string or
a float; the API takes JSON bodies only). Every relation of the API's serializers is an
``IdField`` (``IdModelSerializer`` makes the ones a model serializer builds; a test walks them all).
"""

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


class IdModelSerializer(serializers.ModelSerializer):
    """A ``ModelSerializer`` whose relations are ``IdField``s."""

    serializer_related_field = IdField
