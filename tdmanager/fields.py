"""Serializer fields for ids (a whole number, nothing else), texts and amounts.

DRF's ``PrimaryKeyRelatedField`` hands what it gets to the database lookup, and Django turns
``1.9`` into ``1``: ``{"tournament": 1.9}`` sold an entry in tournament 1. Its ``IntegerField``
takes ``"2"`` and ``2.0``. An id here is a JSON integer (not a boolean, a fraction, a string or
a float; the API takes JSON bodies only). Every relation of the API's serializers is an
``IdField`` (``IdModelSerializer`` makes the ones a model serializer builds; a test walks them all).
"""

from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import formats
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from tdmanager.money import plain_amount

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


class AmountField(serializers.DecimalField):
    """An amount (money, a rate, a percent) as the schema says: a string of plain decimal digits
    (``tdmanager.money.plain_amount``: "12.50", "-3", never "3_00", "+300", "3e2" or fullwidth
    digits, which ``Decimal`` and so DRF's ``DecimalField`` take), or a JSON integer. A JSON
    fraction is refused: it arrives as a binary float, and 0.1 is not a tenth. With ``localize``
    the decimal mark is the reader's (a comma in Italian), as the desk types it."""

    # DRF fills a field's message with str.format: the example is a {brace} field
    default_error_messages = {"invalid": _('Write an amount as text in plain digits, such as "{example}".')}

    def to_internal_value(self, data):
        marks = readers_marks(self.localize)
        value = Decimal(data) if whole_number(data) is not None else plain_amount(data, marks)
        if value is None:
            self.fail("invalid", example="12" + marks[-1] + "50")
        return self.quantize(self.validate_precision(value))  # DRF's own checks, on the value read here


def readers_marks(localize: bool) -> str:
    """The decimal marks an amount may be written with: the point, and the reader's own (a
    comma in Italian) where the field is localized (a point still reads as the decimal mark
    there: "0.92" is what a machine or a number input sends)."""
    return ".," if localize and formats.get_format("DECIMAL_SEPARATOR") == "," else "."


class AmountFormField(forms.DecimalField):
    """A page's amount, read as the API reads one (``plain_amount``): plain digits and the
    reader's decimal mark, the ends' spaces trimmed as every typed field's are."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        marks = readers_marks(self.localize)
        amount = plain_amount(str(value).strip(), marks)
        if amount is None:
            raise ValidationError(_('Write an amount in plain digits, such as "%(example)s".') % {"example": "12" + marks[-1] + "50"}, code="invalid")
        return amount


def amount_formfield(field: models.Field, **kwargs):
    """A ``ModelForm``'s ``formfield_callback``: its amounts are ``AmountFormField``s."""
    if isinstance(field, models.DecimalField):
        kwargs.setdefault("form_class", AmountFormField)
    return field.formfield(**kwargs)


class IdModelSerializer(serializers.ModelSerializer):
    """A ``ModelSerializer`` whose relations are ``IdField``s, whose texts are ``TextField``s and
    whose amounts are ``AmountField``s."""

    serializer_related_field = IdField
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: TextField,
        models.TextField: TextField,
        models.DecimalField: AmountField,
    }
