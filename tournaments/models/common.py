"""What the storage modules share: append-only rows, money columns, dates, erased names."""

import re

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext

from tdmanager import dates

MONEY = {"max_digits": 13, "decimal_places": 2}
NOT_NEGATIVE = [MinValueValidator(0)]  # prices, fees, amounts (with a CheckConstraint on the column)
POSITIVE = [MinValueValidator(1)]  # stacks


def plausible_date(value):
    """A tournament's dates lie between 2000 and 2100 (``tdmanager.dates``, the one place the
    range is said; this name stays because a migration refers to it)."""
    dates.plausible_date(value)


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError(f"{self.model.__name__} rows are append-only")

    def delete(self):
        raise TypeError(f"{self.model.__name__} rows are append-only")


class AppendOnlyModel(models.Model):
    """Rows are written once. Corrections are new rows (a reversal), never edits."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.pop("_allow_update", False):
            raise TypeError(f"{type(self).__name__} rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError(f"{type(self).__name__} rows are append-only")


#: An erased person's stored name is "Erased player" "#<id>" (``services.privacy.pseudonym``), the
#: same in every language; ``shown_name`` translates it where it is read.
ERASED_FIRST_NAME = "Erased player"
_ERASED_NAME = re.compile(r"^Erased player #(\d+)$")


def shown_name(stored: str) -> str:
    """A stored name as the reader reads it: the pseudonym of an erased person in the active
    language ("Erased player #58"), any other name as it is."""
    m = _ERASED_NAME.match(stored or "")
    return gettext("Erased player #%(n)s") % {"n": m.group(1)} if m else stored
