"""The payout table: the director's edits, the venue templates, the lock (PAY-03, PAY-05)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager import shown_text
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.formatting import money as fmt_money
from tdmanager.money import ZERO, floor_money
from tdmanager.transactions import service
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.house import HouseRules

from ..models import PRIZE_KINDS, PayoutTable, PayoutTemplate, Prize
from ..selectors.pool import field_size, prize_pool
from ..selectors.prizes import dues
from ..selectors.satellites import satellite_link, satellite_pool
from ..selectors.table import place_values, places_paid, table_prizes
from ..structure import band_for, band_label
from .common import PayoutError, _money, _table, check_will_play


def validate_prizes(prizes, pool_total: Decimal) -> list[dict]:
    """A payout table the director wrote: places 1..N each with a prize, pool-funded values
    non-increasing by place (PAY-03) and adding up exactly to the prize pool (PAY-05)."""
    kinds = dict(PRIZE_KINDS)
    out = []
    for n, p in enumerate(prizes):
        try:
            place = int(p["place"])
        except (KeyError, TypeError, ValueError):
            raise ValidationFailed("bad_place", _("Every prize needs a place number."))
        kind = str(p.get("kind") or "CASH").upper()
        if place < 1 or kind not in kinds:
            raise ValidationFailed("bad_prize", _("Place %(p)s: unknown prize or place.") % {"p": place})
        target = p.get("target")
        target_id = getattr(target, "pk", target) or None
        out.append(
            {
                "place": place,
                "kind": kind,
                "amount": _money(p.get("amount", "0"), _("Place %(p)s") % {"p": place}),
                # shown on the lobby screens and the players' phones
                "description": shown_text.check(str(p.get("description") or "")[:200], f"prizes[{n}].description", _("Place %(p)s") % {"p": place}),
                "target": target_id,
            }
        )
    if not out:
        raise ValidationFailed("empty_table", _("A payout table needs at least one place."))
    out.sort(key=lambda p: p["place"])
    places = {p["place"] for p in out}
    last = max(places)
    if places != set(range(1, last + 1)):
        missing = min(set(range(1, last + 1)) - places)
        raise ValidationFailed("missing_place", _("Place %(p)s has no prize: places must run from 1 without gaps.") % {"p": missing})
    values = place_values(out)
    for i in range(1, len(values)):
        if values[i] > values[i - 1]:
            raise PayoutError(
                "not_non_increasing",
                _("Place %(a)s (%(x)s) cannot be paid more than place %(b)s (%(y)s).")
                % {"a": i + 1, "x": fmt_money(values[i]), "b": i, "y": fmt_money(values[i - 1])},
                status=400,
            )
    total = sum(values, ZERO)
    if total != pool_total:
        raise PayoutError(
            "wrong_total",
            _("The prizes add up to %(t)s but the prize pool is %(p)s (%(d)s %(dir)s).")
            % {
                "t": fmt_money(total),
                "p": fmt_money(pool_total),
                "d": fmt_money(abs(total - pool_total)),
                "dir": _("over") if total > pool_total else _("short"),
            },
            status=400,
        )
    return out


def _check_paid_places_unchanged(t, new_prizes):
    """A place already paid keeps its prize: the money is out of the door."""
    old = table_prizes(t)
    paid_places = {d["place"] for d in dues(t, old) if d["paid"] and d["source"].startswith("MAIN:")}
    for place in paid_places:
        before = sorted((p["kind"], str(p["amount"])) for p in old if p["place"] == place)
        after = sorted((p["kind"], str(p["amount"])) for p in new_prizes if p["place"] == place)
        if before != after:
            raise PayoutError("place_already_paid", _("Place %(p)s has already been paid: its prize cannot change.") % {"p": place})


def _store(t, table, prizes, *, state, pool_total):
    table.prizes.all().delete()
    Prize.objects.bulk_create(
        Prize(table=table, place=p["place"], kind=p["kind"], amount=p["amount"], description=p["description"], target_id=p["target"]) for p in prizes
    )
    table.state = state
    table.prize_pool = pool_total
    table.version += 1
    table.save()


def _save_table(t, prizes, *, actor, reason, action, **payload):
    check_will_play(t)
    table = _table(t)
    locked = table.state == PayoutTable.LOCKED
    if locked:  # PAY-05: a published table changes only after the director's explicit unlock
        raise PayoutError("table_locked", _("The payout table is locked and published: the director unlocks it first, with a reason (PAY-05)."))
    pool_total = prize_pool(t) if satellite_link(t) is None else satellite_pool(t)
    prizes = validate_prizes(prizes, pool_total)
    _check_paid_places_unchanged(t, prizes)
    _store(t, table, prizes, state=PayoutTable.LOCKED if locked else PayoutTable.EDITED, pool_total=pool_total)
    log_event(
        t,
        action,
        actor,
        state=table.state,
        after_lock=locked,
        reason=reason,
        prize_pool=str(pool_total),
        prizes=[{"place": p["place"], "kind": p["kind"], "amount": str(p["amount"])} for p in prizes],
        **payload,
    )
    return table


@service
def edit_payout_table(tournament, prizes, *, actor: Actor, reason: str = "") -> PayoutTable:
    """The director writes the payout table: ``prizes`` = [{"place", "kind", "amount",
    "description", "target"}]. Validated (non-increasing, exact total). Once locked, the
    director unlocks it first, with a reason (PAY-05: ``unlock_payout_table``)."""
    t = lock_tournament(tournament)
    return _save_table(t, prizes, actor=actor, reason=reason, action=Action.PAYOUTS_TABLE_EDITED)


@service
def reset_payout_table(tournament, *, actor: Actor) -> PayoutTable:
    """Back to the automatic proposal (it follows the entries again). Not once locked."""
    t = lock_tournament(tournament)
    check_will_play(t)
    table = _table(t)
    if table.state == PayoutTable.LOCKED:
        raise PayoutError("table_locked", _("The payout table is locked and published: the director unlocks it first, with a reason (PAY-05)."))
    table.prizes.all().delete()
    table.state, table.prize_pool = PayoutTable.AUTO, ZERO
    table.version += 1
    table.save()
    log_event(t, Action.PAYOUTS_TABLE_PROPOSED, actor, places=places_paid(t))
    return table


@service
def apply_template(tournament, template: PayoutTemplate, *, actor: Actor, reason: str = "") -> PayoutTable:
    """Apply a venue template: each place its percentage of the pool, floored to the rounding
    unit; what the flooring leaves goes to 1st place (PAY-05). A template with bands applies the
    band of the tournament's field size now (``selectors.field_size``: entries, or players)."""
    t = lock_tournament(tournament)
    total = prize_pool(t)
    unit = HouseRules.of(t).payout_rounding
    payload = {"template": template.name}
    if template.bands:
        size = field_size(t)
        band = band_for(template.bands, size)
        if band is None:
            raise PayoutError("no_band", _("The template “%(name)s” has no band for %(n)s entries.") % {"name": template.name, "n": size})
        percents = band["percents"]
        payload["band"] = band_label(band)
    else:
        percents = template.percents
    percents = [Decimal(str(p)) for p in percents]
    amounts = [floor_money(total * p / 100, unit) for p in percents]
    if amounts:
        amounts[0] += total - sum(amounts, ZERO)
    prizes = [{"place": i, "kind": "CASH", "amount": a} for i, a in enumerate(amounts, start=1)]
    return _save_table(t, prizes, actor=actor, reason=reason, action=Action.PAYOUTS_TEMPLATE_APPLIED, **payload)


def _lock(t, table, actor: Actor, **payload) -> PayoutTable:
    check_will_play(t)  # nothing to publish for an event that will not play
    link = satellite_link(t)
    pool_total = satellite_pool(t, link) if link else prize_pool(t)
    prizes = validate_prizes(table_prizes(t), pool_total)
    _store(t, table, prizes, state=PayoutTable.LOCKED, pool_total=pool_total)
    table.locked_at, table.locked_by = timezone.now(), actor.user
    table.save(update_fields=["locked_at", "locked_by"])
    log_event(t, Action.PAYOUTS_TABLE_LOCKED, actor, prize_pool=str(pool_total), places=len({p["place"] for p in prizes}), **payload)
    return table


@service
def lock_payout_table(tournament, *, actor: Actor) -> PayoutTable:
    """Lock and publish the payout table (PAY-05). The automatic proposal is frozen as it
    stands; an edited table must add up to the prize pool of now."""
    t = lock_tournament(tournament)
    check_will_play(t)
    table = _table(t)
    if table.state == PayoutTable.LOCKED:
        raise PayoutError("already_locked", _("The payout table is already locked."))
    return _lock(t, table, actor)


@service
def lock_at_close(tournament, *, actor: Actor, after_level: int) -> PayoutTable | None:
    """PAY-05: «the payout structure is published when registration officially closes». When the
    last sale that feeds the pool closes (late registration, and in a rebuy event the rebuys and
    the add-on too), the table in force is generated from the final pool and locked, logged as
    automatic. Nothing happens to a table already locked, to a tournament with no pool, or to an
    edited table that no longer adds up (the payouts page says so and the director fixes it)."""
    t = lock_tournament(tournament)
    table = _table(t)
    if table.state == PayoutTable.LOCKED:
        return None
    try:
        return _lock(t, table, actor, automatic=True, after_level=after_level)
    except DomainError:
        return None


@service
def unlock_payout_table(tournament, *, actor: Actor, reason: str) -> PayoutTable:
    """PAY-05: a published table changes only after the director unlocks it, with a reason
    (logged); it is then edited and locked again. Places already paid keep their prizes."""
    t = lock_tournament(tournament)
    check_will_play(t)
    if not (reason or "").strip():
        raise ValidationFailed("reason_required", _("Unlocking the published payout table needs a reason (PAY-05)."))
    table = _table(t)
    if table.state != PayoutTable.LOCKED:
        raise PayoutError("not_locked", _("The payout table is not locked."))
    table.state = PayoutTable.EDITED
    table.version += 1
    table.save(update_fields=["state", "version", "updated_at"])
    log_event(t, Action.PAYOUTS_TABLE_UNLOCKED, actor, reason=reason.strip(), prize_pool=str(table.prize_pool))
    return table


def check_percents(percents) -> list[Decimal]:
    """A list of percentages by place: positive numbers, non-increasing, adding up to 100."""
    try:
        values = [Decimal(str(p)) for p in percents]
    except (InvalidOperation, ValueError, TypeError):
        raise ValidationFailed("bad_percent", _("Percentages must be numbers."))
    if not values or any(not v.is_finite() or v <= 0 for v in values):
        raise ValidationFailed("bad_percent", _("Every place needs a positive percentage."))
    if any(b > a for a, b in zip(values, values[1:])):
        raise ValidationFailed("not_non_increasing", _("A lower place cannot get a larger percentage."))
    if sum(values) != 100:
        raise ValidationFailed("percent_total", _("The percentages add up to %(t)s, not 100.") % {"t": sum(values)})
    return values


def check_bands(bands) -> list[dict]:
    """Bands of field sizes, each ``{"from", "to", "percents"}`` (``to`` None: and more), sorted:
    each band's percentages as ``check_percents`` wants them, no more places paid than its
    smallest field, no two bands sharing a field size. A refusal names the band (``band``: its
    index in ``bands``)."""
    out = []
    for i, band in enumerate(bands):
        try:
            low = int(band["from"])
            high = None if band.get("to") in (None, "") else int(band["to"])
        except (KeyError, TypeError, ValueError):
            raise ValidationFailed("bad_band", _("Each band needs the field sizes it is for: from, and to (or none: and more)."), band=i)
        label = band_label({"from": low, "to": high})
        if low < 1 or (high is not None and high < low):
            raise ValidationFailed("bad_band", _("Band %(band)s: the field sizes run from the smaller to the larger.") % {"band": label}, band=i)
        try:
            values = check_percents(band.get("percents") or [])
        except ValidationFailed as exc:
            raise ValidationFailed(exc.code, _("Band %(band)s: %(problem)s") % {"band": label, "problem": exc.message}, band=i) from None
        if len(values) > low:
            raise ValidationFailed(
                "too_many_places", _("Band %(band)s pays %(places)s places: more than its smallest field.") % {"band": label, "places": len(values)}, band=i
            )
        out.append({"from": low, "to": high, "percents": [str(v) for v in values], "index": i})
    out.sort(key=lambda b: b["from"])
    for a, b in zip(out, out[1:]):
        if a["to"] is None or a["to"] >= b["from"]:
            raise ValidationFailed(
                "bands_overlap", _("The bands %(a)s and %(b)s overlap.") % {"a": band_label(a), "b": band_label(b)}, band=max(a["index"], b["index"])
            )
    return [{"from": b["from"], "to": b["to"], "percents": b["percents"]} for b in out]


@service
def save_payout_template(name: str, percents, *, actor: Actor, template: PayoutTemplate | None = None, bands=None) -> PayoutTemplate:
    """A venue template: percentages by place, non-increasing, adding up to 100; or ``bands``,
    one such list per band of field sizes (``check_bands``; ``percents`` is then not read)."""
    name = shown_text.check((name or "").strip(), "name", _("Name"))
    if not name:
        raise ValidationFailed("name_required", _("A template needs a name."))
    if bands:
        bands, values = check_bands(bands), []
    else:
        bands, values = [], check_percents(percents)
    if template is None:
        template = PayoutTemplate(name=name)
    template.name, template.percents, template.bands = name, [str(v) for v in values], bands
    template.save()
    log_event(None, Action.PAYOUTS_TEMPLATE_SAVED, actor, template=name, percents=template.percents, bands=bands)
    return template
