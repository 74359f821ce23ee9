"""Check-in, cleared transfers, presence and no-shows (REG-02, REG-05, REG-09, ELM-05).

The states RULES.md names (pre-registered with its channel, paid, checked in, seated, cancelled,
no-show) are derived by ``Entry.registration_state`` from ``status`` and the fields these
services write; ``status`` keeps its meaning (ACTIVE = a paid stack in the tournament), so the
services that read it are unchanged.

- A bank-transfer booking becomes paid only through :func:`confirm_transfer` (the cashier saw the
  funds cleared); the desk's ordinary "pay" refuses to take it as a transfer.
- :func:`check_in` asks for the identity document when the house says so, and refuses a banned
  person (REG-05): the desk offers the refund with its expenses (``cashier.refund``).
- :func:`set_presence` marks a player ABSENT or WITHDRAWN: neither eliminates (ELM-05); the entry
  is out only when the floor records a zero stack (a normal bust, with its time and place).
- :func:`mark_no_show` applies the house's ``no_show_policy`` to a player who never arrived.
- :func:`mark_arrival`: the floor marks a seated player "not arrived" on the table map (or
  arrived again, its undo). :func:`forfeit_not_arrived` is the FORFEIT_AT deadline, run by the
  clock (``clockctl.advance_clock`` and the beat sweep): once the end of ``no_show_level`` plus
  the grace has passed in clock time, every entry not arrived (:func:`not_arrived`) is out, once.
- A 004 no-show's entry is owed: a RECEIVABLE ledger row (``owed_amount``, no cash);
  :func:`settle_receivable` takes the money as a SETTLEMENT row pointing at it.
"""

from decimal import Decimal

from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.money import ZERO
from tdmanager.transactions import service
from tournaments import signals
from tournaments.cashier import services as cashier
from tournaments.cashier.ledger import lock_tournament, write_row
from tournaments.cashier.services.sales import _pay_reservation
from tournaments.clock import selectors as clock_selectors
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.house import HouseRules
from tournaments.labels import shipped_text
from tournaments.models import Entry, LedgerRow, Tournament
from tournaments.oversight import selectors as oversight_selectors
from tournaments.signals import announce


class RegistrationError(DomainError):
    """A check-in, transfer or no-show refused by a rule; ``code`` says which."""


def paid_amount(entry: Entry) -> Decimal:
    """What the entry has paid, net of reversals and refunds (what a refund would give back)."""
    agg = entry.ledger.exclude(oversight_selectors.bounty_payments_q()).aggregate(
        p=Sum("prize_amount"), f=Sum("fee_amount"), s=Sum("side_amount"), j=Sum("jackpot_amount"), b=Sum("bounty_amount")
    )
    return sum((agg[k] or ZERO for k in "pfsjb"), ZERO)


def _locked_entry(entry) -> tuple[Tournament, Entry]:
    t = lock_tournament(entry.tournament_id)
    return t, Entry.objects.select_related("person").get(pk=entry.pk)


def banned_refusal(entry: Entry) -> RegistrationError:
    """REG-05: a banned person does not play; the answer carries what the desk refunds."""
    return RegistrationError(
        "banned",
        _("%(name)s is banned and cannot play: %(reason)s. Refund the entry minus any expenses.")
        % {"name": entry.person.full_name, "reason": shipped_text(entry.person.banned_reason)},
        entry=entry.pk,
        refund_due=str(paid_amount(entry)),
    )


@service
def confirm_transfer(entry, *, reference: str, actor: Actor, now=None, jackpot: bool = False, confirm_final_table: bool = False) -> cashier.Sale:
    """REG-02: the cashier confirms a bank-transfer booking's funds have cleared: only now is it
    paid (a BUY_IN row by transfer with its reference, and seating told like any sale)."""
    now = now or timezone.now()
    reference = (reference or "").strip()
    if not reference:
        raise ValidationFailed("reference_required", _("Enter the bank transfer's reference."))
    t, entry = _locked_entry(entry)
    if entry.status != Entry.RESERVED:
        raise RegistrationError("not_reserved", _("This entry is not waiting for payment."))
    if entry.channel != Entry.TRANSFER_CHANNEL:
        raise RegistrationError("not_a_transfer", _("This booking was not made by bank transfer: take the payment at the desk."))
    cashier.check_admission(t, entry.person, cashier.RESERVATION, now, confirm_final_table=confirm_final_table)
    entry.funds_cleared_at = now
    entry.save(update_fields=["funds_cleared_at"])
    sale = _pay_reservation(t, entry, method=LedgerRow.TRANSFER, actor=actor, now=now, jackpot=jackpot, reference=reference[:80])
    log_event(
        t,
        Action.CASHIER_TRANSFER_CLEARED,
        actor,
        entry=entry.pk,
        entry_number=entry.number,
        name=entry.person.full_name,
        receipt=sale.row.receipt_number,
        reference=reference[:80],
    )
    return sale


@service
def check_in(entry, *, actor: Actor, id_checked: bool = False, now=None) -> Entry:
    """REG-02 / REG-05: the player arrives at the desk. The entry must be paid (a transfer
    confirmed as cleared); the identity document is asked for when the house says so; a banned
    person is refused (the answer carries the refund due)."""
    now = now or timezone.now()
    t, entry = _locked_entry(entry)
    if entry.status == Entry.RESERVED:
        if entry.awaits_transfer:
            raise RegistrationError("transfer_not_cleared", _("The bank transfer has not been confirmed as cleared: the player is not paid yet."))
        raise RegistrationError("not_paid", _("This booking is not paid yet: take the payment first."))
    if entry.status != Entry.ACTIVE:
        raise RegistrationError("entry_not_playing", _("This entry is not in the tournament."))
    if entry.person.banned:
        raise banned_refusal(entry)
    if entry.checked_in_at is not None:
        raise RegistrationError("already_checked_in", _("%(name)s is already checked in.") % {"name": entry.person.full_name})
    rules = HouseRules.of(t)
    if rules.check_in_requires_id and not id_checked:
        raise ValidationFailed("id_required", _("Check-in needs the player's identity document (house rules)."))
    entry.checked_in_at, entry.id_checked = now, bool(id_checked)
    fields = ["checked_in_at", "id_checked"]
    if entry.presence in (Entry.ABSENT, Entry.NOT_ARRIVED):  # he has arrived
        entry.presence = ""
        fields.append("presence")
    entry.save(update_fields=fields)
    log_event(t, Action.CASHIER_ENTRY_CHECKED_IN, actor, entry=entry.pk, entry_number=entry.number, name=entry.person.full_name, id_checked=entry.id_checked)
    return entry


PRESENCES = ("", Entry.ABSENT, Entry.WITHDRAWN)


@service
def set_presence(entry, *, presence: str, actor: Actor, reason: str = "") -> Entry:
    """ELM-05: the player is away from the table (ABSENT), has left the tournament (WITHDRAWN) or
    is back (""). Neither eliminates: his chips keep paying the blinds, and he is out only when
    the floor records his stack at zero, at that time and place, keeping the prize of that place."""
    if presence not in PRESENCES:
        raise ValidationFailed("bad_presence", _("Presence is ABSENT, WITHDRAWN or empty (back at the table)."))
    t, entry = _locked_entry(entry)
    if entry.status != Entry.ACTIVE:
        raise RegistrationError("entry_not_playing", _("This entry is not in the tournament."))
    entry.presence = presence
    entry.save(update_fields=["presence"])
    log_event(
        t,
        Action.CASHIER_ENTRY_PRESENCE,
        actor,
        entry=entry.pk,
        entry_number=entry.number,
        name=entry.person.full_name,
        presence=presence,
        reason=(reason or "")[:200],
    )
    return entry


def forfeit_deadline_passed(t: Tournament, rules: HouseRules, now) -> bool:
    """REG-09 FORFEIT_AT: the end of ``no_show_level`` plus the grace minutes has passed (by the
    tournament clock: a paused clock holds it)."""
    if t.status != Tournament.RUNNING:
        return False
    return clock_selectors.level_ended_minutes_ago(t, rules.no_show_level, rules.no_show_grace_minutes, now)


@service
def mark_no_show(entry, *, actor: Actor, reason: str = "", now=None) -> Entry:
    """REG-09: a registered player has not arrived; the house's ``no_show_policy`` decides.

    - An unpaid booking becomes NO_SHOW (its place is free). Under ``LOSE_GAME`` (004) the entry
      is still owed: a receivable of the entry's price.
    - A paid entry under ``BLIND_OUT`` stays in play, seated and blinded out (marked ABSENT; out
      only when the floor records his stack at zero). Under ``FORFEIT_AT`` it is removed once the
      end of the named level plus the grace has passed (refused before); under ``LOSE_GAME`` at
      once. A removal is ranked by its time like a bust (seating records it), no refund.
    """
    now = now or timezone.now()
    t, entry = _locked_entry(entry)
    rules = HouseRules.of(t)
    policy = rules.no_show_policy
    if entry.no_show_at is not None:
        raise RegistrationError("already_no_show", _("This entry is already recorded as a no-show."))
    if entry.checked_in_at is not None:
        raise RegistrationError("checked_in", _("%(name)s has checked in: not a no-show.") % {"name": entry.person.full_name})
    payload = {"entry": entry.pk, "entry_number": entry.number, "name": entry.person.full_name, "policy": policy, "reason": (reason or "")[:200]}
    if entry.status == Entry.RESERVED:
        entry.status, entry.no_show_at = Entry.CANCELLED, now
        entry.save(update_fields=["status", "no_show_at"])
        if policy == "LOSE_GAME":
            owed = t.buy_in + t.fee
            row = write_row(
                t,
                kind=LedgerRow.RECEIVABLE,
                entry=entry,
                person=entry.person,
                prize=ZERO,
                fee=ZERO,
                chips=0,
                method=LedgerRow.OTHER,
                actor=actor,
                owed=owed,
                reason=_("No-show: the entry is still owed (REG-02, 004)"),
            )
            payload.update(owed=str(owed), receivable=row.receipt_number)
        log_event(t, Action.CASHIER_ENTRY_NO_SHOW, actor, **payload)
        return entry
    if entry.status != Entry.ACTIVE:
        raise RegistrationError("entry_not_playing", _("This entry is not in the tournament."))
    if t.status != Tournament.RUNNING:
        raise RegistrationError("not_running", _("A paid player is a no-show only once the tournament has started."))
    if policy == "BLIND_OUT":
        entry.presence = Entry.ABSENT
        entry.save(update_fields=["presence"])
        payload["outcome"] = "blinded_out"
        log_event(t, Action.CASHIER_ENTRY_NO_SHOW, actor, **payload)
        return entry
    if policy == "FORFEIT_AT" and not forfeit_deadline_passed(t, rules, now):
        raise RegistrationError(
            "no_show_too_early",
            _("An absent player forfeits only after the end of level %(n)s plus %(m)s minutes.") % {"n": rules.no_show_level, "m": rules.no_show_grace_minutes},
        )
    entry.no_show_at, entry.presence = now, Entry.ABSENT
    entry.save(update_fields=["no_show_at", "presence"])
    payload["outcome"] = "removed"
    log_event(t, Action.CASHIER_ENTRY_NO_SHOW, actor, **payload)
    announce(signals.entry_removed, t, actor, entry=entry, reason=_("No-show"))  # seating: out now, ranked by time
    return entry


def banned_paid_entries(t: Tournament) -> list[dict]:
    """REG-05: paid entries of people banned since they paid: not seated at the start, the desk
    offers each the refund with its expenses."""
    out = []
    for e in t.entries.filter(status=Entry.ACTIVE, person__banned=True).select_related("person").order_by("number"):
        out.append(
            {"entry": e.pk, "number": e.number, "name": e.person.full_name, "reason": shipped_text(e.person.banned_reason), "refund_due": str(paid_amount(e))}
        )
    return out


# --- REG-09 FORFEIT_AT: players not arrived, out at the deadline, by the clock ----------------


@service
def mark_arrival(entry, *, arrived: bool, actor: Actor, reason: str = "") -> Entry:
    """REG-09: the floor marks a seated player as not arrived (he has never come to his seat:
    blinded out, and under FORFEIT_AT without check-in out at the deadline), or as arrived (the
    mark's undo). A checked-in player has arrived; a player who came and left is ABSENT instead."""
    t, entry = _locked_entry(entry)
    if entry.status != Entry.ACTIVE or entry.no_show_at is not None:
        raise RegistrationError("entry_not_playing", _("This entry is not in the tournament."))
    if arrived:
        if entry.presence != Entry.NOT_ARRIVED:
            raise RegistrationError("not_marked", _("%(name)s is not marked as not arrived.") % {"name": entry.person.full_name})
        entry.presence, action = "", Action.CASHIER_ENTRY_ARRIVED
    else:
        if entry.checked_in_at is not None:
            raise RegistrationError("checked_in", _("%(name)s has checked in: not a no-show.") % {"name": entry.person.full_name})
        if entry.presence == Entry.NOT_ARRIVED:
            raise RegistrationError("already_not_arrived", _("%(name)s is already marked as not arrived.") % {"name": entry.person.full_name})
        if entry.presence:
            raise RegistrationError("has_arrived", _("%(name)s came and is away (absent or withdrawn): not a no-show.") % {"name": entry.person.full_name})
        entry.presence, action = Entry.NOT_ARRIVED, Action.CASHIER_ENTRY_NOT_ARRIVED
    entry.save(update_fields=["presence"])
    log_event(t, action, actor, entry=entry.pk, entry_number=entry.number, name=entry.person.full_name, reason=(reason or "")[:200])
    return entry


def not_arrived(t: Tournament, rules: HouseRules):
    """REG-09: the entries that have not arrived. With check-in in use (``check_in_used``): paid,
    playing and not checked in; without it: those the floor marked "not arrived". Never a person
    banned since he paid (not seated, refunded at the desk) nor an entry already out."""
    qs = t.entries.filter(status=Entry.ACTIVE, no_show_at__isnull=True).exclude(person__banned=True)
    if rules.check_in_used:
        return qs.filter(checked_in_at__isnull=True)
    return qs.filter(presence=Entry.NOT_ARRIVED)


def forfeit_pending(t: Tournament, rules: HouseRules | None = None) -> bool:
    """True while a FORFEIT_AT tournament has not applied its no-show deadline yet."""
    rules = rules or HouseRules.of(t)
    return rules.no_show_policy == "FORFEIT_AT" and t.status == Tournament.RUNNING and not t.events.filter(action=Action.CASHIER_NO_SHOWS_FORFEITED).exists()


@service
def forfeit_not_arrived(tournament, *, actor: Actor, now=None) -> list[Entry] | None:
    """REG-09 FORFEIT_AT, driven by the clock: once the end of ``no_show_level`` plus
    ``no_show_grace_minutes`` of tournament-clock time has passed (a paused clock holds it),
    every entry not arrived (:func:`not_arrived`) is out at ``now``, no refund: seating records
    them in one bust (they share the places, their order cannot be told) and frees the seats.

    Runs once per tournament (its event row says it ran): a clock task run twice, the sweep
    after a restarted worker, or a late payer after the deadline forfeit nobody. Returns the
    entries forfeited, or None when nothing was due (not FORFEIT_AT, not yet, already done).
    If nobody at all arrived, nobody is forfeited (the director decides) and the run is logged.
    """
    now = now or timezone.now()
    t = lock_tournament(tournament)
    rules = HouseRules.of(t)
    if not forfeit_pending(t, rules) or not forfeit_deadline_passed(t, rules, now):
        return None
    entries = list(not_arrived(t, rules).select_related("person").order_by("number"))
    playing = t.entries.filter(status=Entry.ACTIVE).exclude(person__banned=True).count()
    payload = {
        "level": rules.no_show_level,
        "minutes": rules.no_show_grace_minutes,
        "by": "check_in" if rules.check_in_used else "floor_mark",
        "at": now.isoformat(),
    }
    if entries and len(entries) >= playing:
        payload["skipped"] = "nobody_arrived"
        entries = []
    payload["entries"] = [{"entry": e.pk, "entry_number": e.number, "name": e.person.full_name} for e in entries]
    for e in entries:
        e.no_show_at = now
        if not e.presence:
            e.presence = Entry.NOT_ARRIVED
    if entries:
        Entry.objects.bulk_update(entries, ["no_show_at", "presence"])
    log_event(t, Action.CASHIER_NO_SHOWS_FORFEITED, actor, **payload)
    if entries:
        announce(signals.entries_forfeited, t, actor, entries=entries, reason=_("No-show"), now=now)  # seating: out now
    return entries


# --- REG-02 / REG-09: amounts owed (a 004 no-show's entry), on the ledger ---------------------


def owed_left(row: LedgerRow) -> Decimal:
    """What is still owed on a RECEIVABLE row: its amount, less its settlements, with reversals."""
    if row.is_reversed:
        return ZERO
    paid = ZERO
    for s in row.settlements.all():
        if not s.is_reversed:
            paid += -s.owed_amount
    return row.owed_amount - paid


def _receivable_view(r: LedgerRow) -> dict:
    standing = [s for s in r.settlements.all() if not s.is_reversed]
    return {
        "receipt_number": r.receipt_number,
        "tournament": r.tournament_id,
        "tournament_name": r.tournament.name,
        "entry": r.entry_id,
        "entry_number": r.entry.number if r.entry_id else None,
        "person": r.person_id,
        "name": r.person.full_name if r.person_id else "",
        "amount": str(r.owed_amount),
        "owed": str(owed_left(r)),
        "currency": r.currency,
        "reason": r.reason,
        "created_at": r.created_at.isoformat(),
        "waived": r.is_reversed,
        "settled_by": [s.receipt_number for s in standing],
    }


def _receivable_rows():
    return (
        LedgerRow.objects.filter(kind=LedgerRow.RECEIVABLE)
        .select_related("tournament", "entry", "person", "reversed_by")
        .prefetch_related("settlements__reversed_by")
    )


def receivables(t: Tournament) -> list[dict]:
    """REG-02 / REG-09: what players owe the desk for this tournament (a 004 no-show's entry):
    each RECEIVABLE ledger row with what is still owed and the receipts that paid it."""
    return [_receivable_view(r) for r in _receivable_rows().filter(tournament=t).order_by("receipt_number")]


def owed_by(person) -> list[dict]:
    """What one player still owes, in every tournament (the desk shows it when he is picked)."""
    rows = _receivable_rows().filter(person=getattr(person, "pk", person)).order_by("receipt_number")
    return [v for v in (_receivable_view(r) for r in rows) if Decimal(v["owed"]) > 0]


def owed_total(t: Tournament) -> Decimal:
    """REG-09: amounts owed in this tournament not paid yet (receivables, net of waivers and payments)."""
    return t.ledger.filter(kind__in=(LedgerRow.RECEIVABLE, LedgerRow.SETTLEMENT, LedgerRow.REVERSAL)).aggregate(o=Sum("owed_amount"))["o"] or ZERO


@service
def settle_receivable(row, *, method: str, actor: Actor, now=None) -> LedgerRow:
    """REG-09: the player pays what he owes: a SETTLEMENT row pointing at the RECEIVABLE row, the
    money taken (to the house: the field and its prize pool never counted the no-show) and the
    amount owed brought to zero. Refused when nothing is owed (paid already, or waived)."""
    cashier.check_method(method)
    receivable = LedgerRow.objects.get(pk=getattr(row, "pk", row))
    t = lock_tournament(receivable.tournament_id)
    receivable = LedgerRow.objects.select_related("entry", "person").get(pk=receivable.pk)
    if receivable.kind != LedgerRow.RECEIVABLE:
        raise RegistrationError("not_a_receivable", _("Receipt %(n)s is not an amount owed.") % {"n": receivable.receipt_number})
    owed = owed_left(receivable)
    if owed <= ZERO:
        raise RegistrationError("nothing_owed", _("Nothing is owed on receipt %(n)s any more.") % {"n": receivable.receipt_number})
    cashier.check_cash_limit(t, owed, method)
    paid = write_row(
        t,
        kind=LedgerRow.SETTLEMENT,
        entry=receivable.entry,
        person=receivable.person,
        prize=ZERO,
        fee=owed,
        chips=0,
        method=method,
        actor=actor,
        owed=-owed,
        settles=receivable,
        reason=receivable.reason,
    )
    name = receivable.person.full_name if receivable.person_id else ""
    log_event(
        t,
        Action.CASHIER_RECEIVABLE_SETTLED,
        actor,
        entry=receivable.entry_id,
        name=name,
        amount=str(owed),
        method=method,
        receipt=paid.receipt_number,
        receivable=receivable.receipt_number,
    )
    return paid
