"""Creating and changing a tournament: the one place for the setup rules.

The API (``TournamentViewSet``) and the tournament page (``tournament_edit``) both call these
services with already-typed values, so the same input gets the same answer on both:

- FMT-14: tables seat 2 to 11 players;
- FMT-03: a freezeout has no re-entry, rebuy or add-on;
- prices, fees and the guarantee are never negative (the model's validators, through ``clean``);
- REG-03 / C15: the fee is computed from the buy-in (``tournaments.cashier.rules``): 10 % up to 3,000,
  6 % above, unless the house rule ``fee_override`` (a preset such as the daily events' flat
  20, or an amount) replaces it; an override needs a reason and is logged as one. A typed fee
  that is not the computed one is refused;
- FMT-01: once registration opens, prices and the prize pool are locked unless the director
  gives a reason, which the event log keeps with the old and new amounts;
- another app may refuse a price (payouts: a satellite's target cannot become free);
- PAY-02: a bounty event is not a rebuy tournament and has a bounty part; the kind and the part
  cannot change once the tournament has sales;
- the currency is an ISO 4217 code the installation accepts (``tdmanager.currencies``), and it
  cannot change once the tournament has sales (409 ``currency_locked``);
- the model's own validation (lengths, digits, check constraints) as a 400 naming the field.

Each change is one transaction: lock the row, check, save, log.
"""

from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _

from tdmanager import currencies, shown_text
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.transactions import service
from tournaments import defaults, signals
from tournaments.cashier import rules as cashier_rules
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.house import HouseRules
from tournaments.models import BlindStructure, StructureItem, Tournament, TournamentTemplate
from tournaments.models.checks import clean, satellite_target_price_error
from tournaments.setup import changes

#: FMT-14: «Il numero minimo di giocatori partecipanti non può essere inferiore a 10» (003 Art. 4).
SANREMO_MIN_PLAYERS = 10

#: The prize pool deductions a tournament takes (PAY-01), and the longest name of one.
MAX_DEDUCTIONS = 20
MAX_DEDUCTION_NAME = 80

#: FMT-01: the fields locked once registration opens (without a reason).
MONEY_FIELDS = ("buy_in", "fee", "rebuy_price", "rebuy_fee", "addon_price", "addon_fee", "deductions", "guarantee")


class SetupError(DomainError):
    """A tournament change a rule forbids; ``code`` says which."""


def setup_errors(values: dict, instance: Tournament | None = None) -> dict[str, str]:
    """``{field: message}`` for every setup rule ``values`` (over ``instance``'s) break."""

    def get(name):
        return values[name] if name in values else getattr(instance, name, None)

    errors = {}
    house = HouseRules.from_settings(get("settings") if isinstance(get("settings"), dict) else {}, rule_set=get("rule_set") or "TDA")
    size = get("table_size")
    if size is not None and not 2 <= size <= house.max_seats_per_table:
        # FMT-14 / C20: 10 seats at most (003 Art. 4.5); a house that plays 004's 11 says so.
        errors["table_size"] = _("Tables seat 2 to %(max)s players (FMT-14; the house setting max_seats_per_table).") % {"max": house.max_seats_per_table}
    minimum = get("min_players")
    if house.rule_set == "SANREMO_003" and minimum is not None and minimum < SANREMO_MIN_PLAYERS and ("min_players" in values or "rule_set" in values):
        errors["min_players"] = _("A tournament under the Sanremo rules has at least %(n)s players (003 Art. 4).") % {"n": SANREMO_MIN_PLAYERS}
    if get("format") == Tournament.FREEZEOUT:
        if (get("max_entries_per_player") or 1) > 1:
            errors["max_entries_per_player"] = _("A freezeout has no re-entry (FMT-03).")
        if get("rebuy_price") is not None or get("addon_price") is not None:
            errors["format"] = _("A freezeout has no re-entry, rebuy or add-on (FMT-03).")
    message = bounty_error(house, get("format"))
    if message:
        errors["settings"] = message
    currency = values.get("currency")
    if "currency" in values and (instance is None or currency != instance.currency) and not currencies.is_accepted(currency):
        errors["currency"] = _("The currency is one of %(list)s (ISO 4217 codes this installation accepts).") % {"list": ", ".join(currencies.accepted())}
    message = satellite_target_price_error(instance, get("buy_in"), get("fee"))
    if message:
        errors["buy_in"] = message
    message = deductions_error(values["deductions"]) if "deductions" in values else None
    if message:
        errors["deductions"] = message
    return errors


def bounty_error(house: HouseRules, tournament_format: str | None) -> str | None:
    """PAY-02: why these bounty rules cannot be a tournament's (None when they can). A bounty is
    bought with each buy-in and re-entry: a rebuy tournament has none, and a bounty event has a
    bounty part to buy."""
    if house.bounty == "NONE":
        return None
    if tournament_format == Tournament.REBUY:
        return _("A rebuy tournament cannot be a bounty event: bounties are bought with buy-ins and re-entries (PAY-02). Choose no bounty or another format.")
    if house.bounty_amount <= 0:
        return _("A bounty event needs its bounty part: the amount each buy-in and re-entry pays for the bounty (PAY-02).")
    return None


def deductions_error(value) -> str | None:
    """Why ``value`` is not a list of prize pool deductions (None when it is one).

    The one check of the API's list and the page's lines: at most ``MAX_DEDUCTIONS`` items, each
    ``{"name", "percent"}`` with a name of at most ``MAX_DEDUCTION_NAME`` characters and a
    percent read as a Decimal (never a float: "99.999999999999999999" is under 100), 0 ≤ p < 100."""
    if not isinstance(value, list) or len(value) > MAX_DEDUCTIONS:
        return _("A list of at most %(n)s deductions, each {name, percent}.") % {"n": MAX_DEDUCTIONS}
    for item in value:
        try:
            pct = Decimal(str(item["percent"]))
        except (KeyError, TypeError, InvalidOperation):
            return _("Each deduction needs a name and a percent.")
        name = str(item.get("name", "")).strip()
        if not pct.is_finite() or not 0 <= pct < 100 or not name or len(name) > MAX_DEDUCTION_NAME:
            return _("Percent must be between 0 and 100, with a name of at most %(n)s characters.") % {"n": MAX_DEDUCTION_NAME}
    return None


def _bounty_bought(house: HouseRules) -> tuple:
    """What each sale buys of a bounty (PAY-02): the kind and the bounty part."""
    return house.bounty, house.bounty_part


def _refuse(errors: dict[str, str]):
    if errors:
        raise ValidationFailed("invalid", _("Some fields are not valid."), fields={k: [v] for k, v in errors.items()})


def _apply_fee_preset(values: dict, current_settings, fee_preset: str | None) -> str:
    """Put the preset's override into ``values["settings"]``; the preset's reason (or "")."""
    if not fee_preset:
        return ""
    if fee_preset not in cashier_rules.PRESETS:
        raise ValidationFailed("bad_fee_preset", _("Unknown fee preset."), fields={"fee_preset": [_("Unknown fee preset.")]})
    override, reason = cashier_rules.PRESETS[fee_preset]
    settings = dict(values["settings"] if "settings" in values else (current_settings or {}))
    if override is None:
        settings.pop("fee_override", None)
    else:
        settings["fee_override"] = str(override)
    values["settings"] = settings
    return reason


def _computed_fee(values: dict, instance: Tournament | None) -> Decimal:
    """REG-03: the fee of ``values`` over ``instance``: the house override or the statutory fee."""

    def get(name, default=None):
        return values[name] if name in values else getattr(instance, name, default)

    house = HouseRules.from_settings(
        get("settings") if isinstance(get("settings"), dict) else {}, table_size=get("table_size") or 9, rule_set=get("rule_set") or "TDA"
    )
    buy_in = get("buy_in")
    if buy_in is None or buy_in < 0:
        return get("fee", Decimal(0))  # no fee to compute: the model's validation answers
    return cashier_rules.entry_fee(buy_in, house.fee_override)


def _settle_fee(values: dict, instance: Tournament | None, *, typed: bool) -> Decimal:
    """Set ``values["fee"]`` to the computed fee; a typed fee that differs is refused."""
    fee = _computed_fee(values, instance)
    given = values.get("fee")
    if typed and given is not None and given < 0:
        return given  # a negative price: the model's validators refuse it (a 400 naming the field)
    if typed and given is not None and Decimal(given).quantize(Decimal("0.01")) != fee:
        raise SetupError(
            "fee_is_computed",
            _("The fee is computed from the buy-in (REG-03): %(fee)s. To charge another fee, set the fee override (a preset or an amount) and give the reason.")
            % {"fee": fee},
            status=400,
            fields=["fee"],
        )
    values["fee"] = fee
    return fee


def _check_override_reason(buy_in, fee, reason: str) -> None:
    if buy_in is not None and buy_in >= 0 and fee >= 0 and cashier_rules.is_override(buy_in, fee) and not reason.strip():
        raise SetupError(
            "fee_override_reason_required",
            _("The fee %(fee)s is not the statutory %(statutory)s (REG-03): give the reason for the override.")
            % {"fee": fee, "statutory": cashier_rules.statutory_fee(buy_in)},
            status=400,
            fields=["override_reason"],
        )


def _log_override(t: Tournament, actor: Actor, reason: str, preset: str | None) -> None:
    if cashier_rules.is_override(t.buy_in, t.fee):
        log_event(
            t,
            Action.TOURNAMENTS_FEE_OVERRIDDEN,
            actor,
            buy_in=str(t.buy_in),
            fee=str(t.fee),
            statutory_fee=str(cashier_rules.statutory_fee(t.buy_in)),
            reason=reason.strip(),
            preset=preset or "",
        )


def keep_typed_fee_as_override(t: Tournament, actor: Actor, reason: str) -> None:
    """REG-03 for the tournaments a format creates with the fee its form asked for (sit & go,
    multi-day flights): a fee that is not the statutory one becomes the tournament's
    ``fee_override`` and is logged as an override, so it is shown and audited like any other.
    Runs inside the format's service."""
    if t.buy_in is None or t.buy_in < 0 or not cashier_rules.is_override(t.buy_in, t.fee):
        return
    t.settings = {**(t.settings or {}), "fee_override": str(t.fee)}
    t.save(update_fields=["settings"])
    _log_override(t, actor, reason, None)


@service
def create_tournament(values: dict, *, actor: Actor, fee_preset: str | None = None, override_reason: str = "") -> Tournament:
    """A new planned tournament from typed ``values`` (the model's fields). The fee is computed
    (REG-03); ``fee_preset`` (``tournaments.cashier.rules.PRESETS``) sets the house override."""
    values = dict(values)
    shown_text.check(values.get("name"), "name", _("Name"))  # a copy's and a template's too: they come here
    if values.get("rule_set") == "SANREMO_003" and values.get("min_players") is None:
        values["min_players"] = SANREMO_MIN_PLAYERS  # FMT-14: 003's minimum unless the event names a higher one
    if values.get("deductions") is None:  # PAY-01: none typed, the rule set's (003's 3 %)
        values["deductions"] = defaults.prize_pool_deductions(values.get("rule_set") or "TDA")
    preset_reason = _apply_fee_preset(values, {}, fee_preset)
    reason = override_reason.strip() or preset_reason
    fee = _settle_fee(values, None, typed=True)
    _check_override_reason(values.get("buy_in"), fee, reason)
    _refuse(setup_errors(values))
    t = clean(Tournament(**values))
    t.save(force_insert=True)
    log_event(t, Action.TOURNAMENTS_TOURNAMENT_CREATED, actor, name=t.name)
    t.refresh_from_db(fields=["fee", "buy_in"])  # amounts as stored (two decimals), for the log
    _log_override(t, actor, reason, fee_preset)
    return t


@service
def update_tournament(tournament, values: dict, *, actor: Actor, override_reason: str = "", fee_preset: str | None = None) -> Tournament:
    """Change a tournament's setup. Money fields are locked once registration opens (FMT-01):
    changing one then needs ``override_reason``, logged with the amounts before and after."""
    t = lock_tournament(tournament)
    values = dict(values)
    shown_text.check(values.get("name"), "name", _("Name"))
    preset_reason = _apply_fee_preset(values, t.settings, fee_preset)
    fee_reason = override_reason.strip() or preset_reason
    old_override = HouseRules.of(t).fee_override
    typed = values.get("fee") is not None and values["fee"] != t.fee
    new_override = HouseRules.from_settings(values["settings"] if isinstance(values.get("settings"), dict) else (t.settings or {})).fee_override
    if typed or fee_preset or ("buy_in" in values and values["buy_in"] != t.buy_in) or new_override != old_override:
        _settle_fee(values, t, typed=typed)  # REG-03: the fee follows the buy-in and the override
        if values["fee"] != t.fee or new_override != old_override:
            _check_override_reason(values.get("buy_in", t.buy_in), values["fee"], fee_reason)
    else:
        values.pop("fee", None)  # nothing the fee depends on changed: it stays as it is
    changed = {name: value for name, value in values.items() if getattr(t, name) != value}
    money = [name for name in MONEY_FIELDS if name in changed]
    if money and t.status != Tournament.PLANNED and not override_reason.strip():
        raise SetupError(
            "money_fields_locked", _("Prices and the prize pool are locked once registration opens; give the reason for the change."), fields=money
        )
    _refuse(setup_errors(values, t))
    if "guarantee" in changed:  # set, raised, lowered or taken away: another app may refuse it
        refusal = signals.ask_one(signals.guarantee_checked, tournament=t, guarantee=changed["guarantee"])
        if refusal:
            code, why = refusal if isinstance(refusal, tuple) else ("guarantee_elsewhere", refusal)
            raise SetupError(code, why, fields=["guarantee"])
    if "field_cap" in changed:  # raised, lowered or taken away: a format may hold fewer players
        refusal = signals.ask_one(signals.field_cap_checked, tournament=t, field_cap=changed["field_cap"])
        if refusal:
            raise SetupError("field_cap_too_large", refusal, status=400, fields=["field_cap"])
    if "currency" in changed and t.ledger.exists():
        raise SetupError("currency_locked", _("The currency cannot change once the tournament has sales."), fields=["currency"])
    if "settings" in changed and _bounty_bought(HouseRules.of(t)) != _bounty_bought(HouseRules.from_settings(changed["settings"])) and t.ledger.exists():
        raise SetupError("bounty_locked", _("The bounty event and its bounty part cannot change once the tournament has sales (PAY-02)."), fields=["settings"])
    public = changes.public_changes(t, changed)  # FMT-02: a published event's change is a new version
    changes.require_reason(t, public, override_reason, field="override_reason")
    before = {name: str(getattr(t, name)) for name in money}
    for name, value in changed.items():
        setattr(t, name, value)
    clean(t)
    t.save()
    if money:
        t.refresh_from_db(fields=money)  # amounts as stored (two decimals), for the log
    log_event(
        t,
        Action.TOURNAMENTS_TOURNAMENT_UPDATED,
        actor,
        fields=sorted(changed),
        override_reason=override_reason.strip(),
        money={name: [before[name], str(getattr(t, name))] for name in money},
    )
    if "fee" in changed or "settings" in changed and new_override != old_override:
        _log_override(t, actor, fee_reason, fee_preset)
    changes.record_change(t, {name: [old, changes.stored(getattr(t, name))] for name, (old, _new) in public.items()}, actor=actor, reason=override_reason)
    return t


# --- copies and saved templates -----------------------------------------------------------------

#: What a copy does not take from its original: its identity, its date, its state, its structure
#: (it gets a copy of its own) and its fee (computed again by ``create_tournament``, REG-03).
NOT_COPIED = frozenset({"id", "name", "start_at", "status", "structure", "created_at", "fee"})
#: Keys of ``settings`` that are the original's running state, not a house rule.
RUNTIME_SETTINGS = ("streaming_live",)


def setup_values(t: Tournament) -> dict:
    """The setup of ``t`` a copy takes: every field but ``NOT_COPIED`` (foreign keys by id)."""
    values = {}
    for f in Tournament._meta.concrete_fields:
        if f.name not in NOT_COPIED:
            values[f.attname] = getattr(t, f.attname)
    settings = dict(values.get("settings") or {})
    for key in RUNTIME_SETTINGS:
        settings.pop(key, None)
    values["settings"] = settings
    return values


def values_to_json(values: dict) -> dict:
    return {name: (str(v) if isinstance(v, Decimal) else v) for name, v in values.items()}


def values_from_json(data: dict) -> dict:
    """A saved template's values as the model's types; names the model no longer has are left out."""
    fields = {f.attname: f for f in Tournament._meta.concrete_fields if f.name not in NOT_COPIED}
    return {name: fields[name].to_python(v) for name, v in (data or {}).items() if name in fields}


def copy_structure(structure: BlindStructure | None, name: str) -> BlindStructure | None:
    """A structure of its own for a copy: changing one never changes the other."""
    if structure is None:
        return None
    copy = BlindStructure.objects.create(name=name[:120], description=structure.description, is_template=False)
    item_fields = [f.attname for f in StructureItem._meta.concrete_fields if f.name not in ("id", "structure")]
    StructureItem.objects.bulk_create(
        StructureItem(structure=copy, **{attr: getattr(it, attr) for attr in item_fields}) for it in structure.items.order_by("position")
    )
    return copy


def _create_copy(values: dict, structure, *, name: str, start_at, actor: Actor, override_reason: str, origin: str) -> Tournament:
    values = dict(values, name=name, start_at=start_at)
    values["structure"] = copy_structure(structure, f"{name} — {structure.name}" if structure else name)
    fee = _computed_fee(values, None)
    reason = override_reason.strip()
    if not reason and values.get("buy_in") is not None and cashier_rules.is_override(values["buy_in"], fee):
        # The original's override (a house preset, an amount) comes with it: the reason says so.
        reason = _("The fee of %(origin)s, which this tournament copies.") % {"origin": origin}
    return create_tournament(values, actor=actor, override_reason=reason)


@service
def copy_tournament(source: Tournament, *, name: str, start_at, actor: Actor, override_reason: str = "") -> Tournament:
    """A new planned tournament with the setup of ``source`` (prices, stacks, formats, house
    rules) and its own copy of the blind structure; through ``create_tournament``, so the fee
    rule and the validation apply as to a tournament typed by hand."""
    t = _create_copy(
        setup_values(source),
        source.structure,
        name=name,
        start_at=start_at,
        actor=actor,
        override_reason=override_reason,
        origin=f"{source.name} (#{source.pk})",
    )
    log_event(t, Action.TOURNAMENTS_TOURNAMENT_COPIED, actor, source=source.pk, source_name=source.name)
    return t


@service
def save_template(source: Tournament, *, name: str, actor: Actor) -> TournamentTemplate:
    """Save the setup of ``source`` (with its own copy of the structure) under ``name``."""
    name = shown_text.check((name or "").strip(), "name", _("Name"))
    if not name:
        raise ValidationFailed("name_required", _("Give the template a name."), fields={"name": [_("Give the template a name.")]})
    if TournamentTemplate.objects.filter(name__iexact=name).exists():
        raise ValidationFailed(
            "template_exists", _("A template with this name already exists."), fields={"name": [_("A template with this name already exists.")]}
        )
    template = TournamentTemplate.objects.create(
        name=name[:160],
        values=values_to_json(setup_values(source)),
        source=source,
        created_by=actor.user,
        structure=copy_structure(source.structure, _("Template: %(name)s") % {"name": name} if source.structure_id else name),
    )
    log_event(source, Action.TOURNAMENTS_TEMPLATE_SAVED, actor, template=template.pk, template_name=template.name)
    return template


@service
def create_from_template(template: TournamentTemplate, *, name: str, start_at, actor: Actor, override_reason: str = "") -> Tournament:
    """A new planned tournament from a saved template, like ``copy_tournament``."""
    t = _create_copy(
        values_from_json(template.values),
        template.structure,
        name=name,
        start_at=start_at,
        actor=actor,
        override_reason=override_reason,
        origin=_("the template %(name)s") % {"name": template.name},
    )
    log_event(t, Action.TOURNAMENTS_TOURNAMENT_COPIED, actor, template=template.pk, template_name=template.name)
    return t
