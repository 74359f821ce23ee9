"""Validation before a service writes: the model's own rules (field validators, lengths, digits,
check constraints) as a 400 ``{"code": "invalid", "detail", "fields"}``, never a database error.

Services that create rows from a caller's values (the formats' tournaments, stack options)
call ``clean()`` before ``save()``, so the API and the pages get the same answer.
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tdmanager.errors import ValidationFailed


def clean(instance, *, exclude=None):
    """``instance.full_clean()`` as a ValidationFailed naming each field that is wrong."""
    try:
        instance.full_clean(exclude=exclude, validate_unique=False)
    except ValidationError as exc:
        fields = {k: [str(m) for m in v] for k, v in exc.message_dict.items()}
        raise ValidationFailed("invalid", _("Some fields are not valid."), fields=fields) from None
    return instance


def create(model, **fields):
    """A new row, validated first."""
    obj = clean(model(**fields))
    obj.save(force_insert=True)
    return obj


def satellite_target_price_error(tournament, buy_in, fee):
    """The message when ``tournament`` would become free while a satellite awards seats in it
    (a seat is worth its buy-in and fee), else None. Used by the API and the page form."""
    if tournament is None or tournament.pk is None or (buy_in or 0) + (fee or 0) > 0:
        return None
    from payouts.models import SatelliteLink

    if SatelliteLink.objects.filter(target=tournament, completed_at__isnull=True).exists():
        return _("A satellite awards seats in this tournament: it needs a buy-in or a fee.")
    return None
