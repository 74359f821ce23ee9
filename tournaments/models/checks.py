"""Validation before a service writes: the model's own rules (field validators, lengths, digits,
check constraints) as a 400 ``{"code": "invalid", "detail", "fields"}``, never a database error.

Services that create rows from a caller's values (the formats' tournaments, stack options)
call ``clean()`` before ``save()``, so the API and the pages get the same answer.
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tdmanager.errors import ValidationFailed
from tournaments import signals


def clean(instance, *, exclude=None):
    """``instance.full_clean()`` as a ValidationFailed naming each field that is wrong."""
    try:
        instance.full_clean(exclude=exclude, validate_unique=False)
    except ValidationError as exc:
        fields = {k: [str(m) for m in v] for k, v in exc.message_dict.items()}
        raise ValidationFailed("invalid", _("Some fields are not valid."), fields=fields) from None
    return instance


MAX_CHIPS = 10**12  # more chips than any room has; a bigint column holds it


def whole(value, *, lo=0, hi=2**31 - 1):
    """``value`` as a whole number lo ≤ n ≤ hi (an int, an integral float, or its digits), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        n = int(value) if not isinstance(value, float) or value.is_integer() else None
    except (ValueError, OverflowError):
        return None
    return n if n is not None and lo <= n <= hi else None


def create(model, **fields):
    """A new row, validated first."""
    obj = clean(model(**fields))
    obj.save(force_insert=True)
    return obj


def satellite_target_price_error(tournament, buy_in, fee):
    """The message when another app refuses this price for ``tournament`` (payouts: a satellite
    awards seats in it, and a seat is worth its buy-in and fee), else None. Used by the API and
    the page form."""
    if tournament is None or tournament.pk is None:
        return None
    return signals.ask_one(signals.price_checked, tournament=tournament, buy_in=buy_in or 0, fee=fee or 0)
