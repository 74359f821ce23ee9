"""The dates a person types, bounded: every date and time that comes in from a page, the API or
a query string lies between the years 2000 and 2100 (docs/api.md).

Why a bound at all: Python's dates end at 9999-12-31 and start at 0001-01-01, so a shift at
9999-12-31T20:00 overflows the moment a service adds its 16 hours, and a report of that day
overflows when it adds the day; year 0001 is stored by one database and not by another, and its
local time carries a seconds offset no client reads. A year outside 2000–2100 is a typing slip.
The one place the range is said: the model validator, the API's fields and the pages' query
parameters all ask ``in_range``.
"""

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from .errors import ValidationFailed

FIRST_YEAR = 2000
LAST_YEAR = 2100

RANGE_MESSAGE = gettext_lazy("Enter a date between the years 2000 and 2100.")


def in_range(value) -> bool:
    """``value`` (a date or a datetime) lies in a year the house accepts."""
    return FIRST_YEAR <= value.year <= LAST_YEAR


def plausible_date(value):
    """A model's or a form's validator: a date outside the range is refused (``implausible_date``)."""
    if not in_range(value):
        raise ValidationError(RANGE_MESSAGE, code="implausible_date")


def refuse(field: str, label, code: str = "implausible_date") -> ValidationFailed:
    """The refusal of a date outside the range, naming the field (its key, and in words);
    ``code`` lets an API whose refusals of a bad field share one code keep it."""
    message = str(RANGE_MESSAGE)
    return ValidationFailed(code, _("%(field)s: %(problem)s") % {"field": label, "problem": message}, field=field, fields={field: [message]})


def check(value, field: str, label, code: str = "implausible_date"):
    """``value`` unchanged when it is in the range (or None), else the refusal naming ``field``."""
    if value is not None and not in_range(value):
        raise refuse(field, label, code)
    return value


def query_day(raw, field: str, label, default: date) -> date:
    """A day given as ``YYYY-MM-DD`` (a query parameter or a form's value): ``default`` when
    empty; a text that is no date, or a date outside the range, is a 400 naming ``field``."""
    text = (raw or "").strip()
    if not text:
        return default
    try:
        day = parse_date(text[:10]) if len(text) == 10 else None
    except ValueError:  # well formed but no such day (2026-02-30)
        day = None
    if day is None:
        raise ValidationFailed("invalid", _("%(label)s: a date as YYYY-MM-DD.") % {"label": label}, field=field, fields={field: [_("A date as YYYY-MM-DD.")]})
    return check(day, field, label)


def typed_moment(raw) -> datetime | None:
    """A date and time as a ``datetime-local`` field sends it (or ISO 8601), None when it is none."""
    text = str(raw or "").strip()[:40]
    try:
        return parse_datetime(text) if text else None
    except ValueError:
        return None


class DateTimeField(serializers.DateTimeField):
    """DRF's ``DateTimeField`` bounded to the years 2000–2100 (a 400 naming the field)."""

    def __init__(self, **kwargs):
        kwargs["validators"] = [*kwargs.get("validators", ()), plausible_date]
        super().__init__(**kwargs)


class DateField(serializers.DateField):
    """DRF's ``DateField`` bounded to the years 2000–2100 (a 400 naming the field)."""

    def __init__(self, **kwargs):
        kwargs["validators"] = [*kwargs.get("validators", ()), plausible_date]
        super().__init__(**kwargs)
