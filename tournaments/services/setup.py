"""Creating and changing a tournament: the one place for the setup rules.

The API (``TournamentViewSet``) and the tournament page (``tournament_edit``) both call these
services with already-typed values, so the same input gets the same answer on both:

- FMT-14: tables seat 2 to 11 players;
- FMT-03: a freezeout has no re-entry, rebuy or add-on;
- prices, fees and the guarantee are never negative (the model's validators, through ``clean``);
- FMT-01: once registration opens, prices and the prize pool are locked unless the director
  gives a reason, which the event log keeps with the old and new amounts;
- another app may refuse a price (payouts: a satellite's target cannot become free);
- the model's own validation (lengths, digits, check constraints) as a 400 naming the field.

Each change is one transaction: lock the row, check, save, log.
"""

from django.utils.translation import gettext as _

from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.transactions import service

from ..actions import Action
from ..models import Tournament
from .checks import clean, satellite_target_price_error
from .events import Actor, log_event
from .ledger import lock_tournament

#: FMT-01: the fields locked once registration opens (without a reason).
MONEY_FIELDS = ("buy_in", "fee", "rebuy_price", "rebuy_fee", "addon_price", "addon_fee", "deductions", "guarantee")


class SetupError(DomainError):
    """A tournament change a rule forbids; ``code`` says which."""


def setup_errors(values: dict, instance: Tournament | None = None) -> dict[str, str]:
    """``{field: message}`` for every setup rule ``values`` (over ``instance``'s) break."""

    def get(name):
        return values[name] if name in values else getattr(instance, name, None)

    errors = {}
    size = get("table_size")
    if size is not None and not 2 <= size <= 11:
        errors["table_size"] = _("Tables seat 2 to 11 players (FMT-14).")
    if get("format") == Tournament.FREEZEOUT:
        if (get("max_entries_per_player") or 1) > 1:
            errors["max_entries_per_player"] = _("A freezeout has no re-entry (FMT-03).")
        if get("rebuy_price") is not None or get("addon_price") is not None:
            errors["format"] = _("A freezeout has no re-entry, rebuy or add-on (FMT-03).")
    message = satellite_target_price_error(instance, get("buy_in"), get("fee"))
    if message:
        errors["buy_in"] = message
    return errors


def _refuse(errors: dict[str, str]):
    if errors:
        raise ValidationFailed("invalid", _("Some fields are not valid."), fields={k: [v] for k, v in errors.items()})


@service
def create_tournament(values: dict, *, actor: Actor) -> Tournament:
    """A new planned tournament from typed ``values`` (the model's fields)."""
    _refuse(setup_errors(values))
    t = clean(Tournament(**values))
    t.save(force_insert=True)
    log_event(t, Action.TOURNAMENTS_TOURNAMENT_CREATED, actor, name=t.name)
    return t


@service
def update_tournament(tournament, values: dict, *, actor: Actor, override_reason: str = "") -> Tournament:
    """Change a tournament's setup. Money fields are locked once registration opens (FMT-01):
    changing one then needs ``override_reason``, logged with the amounts before and after."""
    t = lock_tournament(tournament)
    changed = {name: value for name, value in values.items() if getattr(t, name) != value}
    money = [name for name in MONEY_FIELDS if name in changed]
    if money and t.status != Tournament.PLANNED and not override_reason.strip():
        raise SetupError("money_fields_locked",
                         _("Prices and the prize pool are locked once registration opens; give the reason for the change."),
                         fields=money)
    _refuse(setup_errors(values, t))
    before = {name: str(getattr(t, name)) for name in money}
    for name, value in changed.items():
        setattr(t, name, value)
    clean(t)
    t.save()
    if money:
        t.refresh_from_db(fields=money)  # amounts as stored (two decimals), for the log
    log_event(t, Action.TOURNAMENTS_TOURNAMENT_UPDATED, actor, fields=sorted(changed), override_reason=override_reason.strip(),
              money={name: [before[name], str(getattr(t, name))] for name in money})
    return t
