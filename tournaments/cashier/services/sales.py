"""The desk's sales: register, pre-register, pay a reservation, re-enter, rebuy, add-on.

Every sale locks the tournament row first, so two cashiers selling the last place at the
same moment queue one behind the other: the first sells, the second gets ``field_full``.
Every movement of money is one append-only ledger row with a gapless receipt number.
"""

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.compiled import Compiled
from tdmanager.money import ZERO, to_money
from tdmanager.transactions import service
from tournaments import signals
from tournaments.cashier import rules as fees
from tournaments.cashier.ledger import SaleEvent, late_stack, lock_tournament, lock_tournament_and_read, new_entry, sell_new_entry, write_row
from tournaments.cashier.services.admission import (
    ADD_ON,
    BUY_IN,
    PRE_REGISTRATION,
    RE_ENTRY,
    REBUY,
    RESERVATION,
    DeskError,
    _check_addon_entry,
    _check_declarable,
    _check_rebuy_entry,
    _check_rebuy_stack,
    check_admission,
    check_cash_limit,
    check_method,
)
from tournaments.cashier.services.rates import tender_for
from tournaments.clock import selectors as clock_selectors
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.house import HouseRules
from tournaments.models import Entry, LedgerRow, Person, Tournament
from tournaments.signals import announce


@dataclass
class Sale:
    entry: Entry
    row: LedgerRow | None


@dataclass(frozen=True)
class Offer:
    """What a sale sells when it is not the tournament's standard entry: a stack-choice
    product (FMT-07) with its own buy-in, fee and chips."""

    buy_in: Decimal
    fee: Decimal
    chips: int
    note: str = ""


def tender_log(row: LedgerRow) -> dict:
    """REG-06: a foreign tender's currency, amount and rate, for the event log."""
    if not row.tender_currency:
        return {}
    return {"tender_currency": row.tender_currency, "tender_amount": str(row.tender_amount), "exchange_rate": str(row.exchange_rate)}


def sale_payload(entry: Entry, row: LedgerRow | None) -> dict:
    """What the event log keeps of a sale: the entry, the player, the receipt and its amounts."""
    payload = {"entry": entry.pk, "entry_number": entry.number, "person": entry.person_id, "name": entry.person.full_name}
    if row is not None:
        payload.update(receipt=row.receipt_number, amount=str(row.total), method=row.method, chips=row.chips)
        if row.jackpot_amount:
            payload["jackpot"] = str(row.jackpot_amount)
        payload.update(tender_log(row))
    return payload


def _after_sale(t: Tournament, entry: Entry, actor: Actor, action: str, row: LedgerRow | None, *, logged: bool = False):
    """The sale's event (unless the sale's own statement wrote it: ``logged``), then seating is told."""
    if not logged:
        log_event(t, action, actor, **sale_payload(entry, row))
    announce(signals.entry_paid, t, actor, entry=entry)  # seating seats him
    if t.format == Tournament.SNG and t.status == Tournament.REGISTERING:
        announce(signals.sit_and_go_place_paid, t, actor, entry=entry)  # the last place starts it


def jackpot_line(t: Tournament, kind: str, jackpot: bool, now) -> Decimal:
    """REG-11: the progressive jackpot's fee this sale adds as a line of its own (never the
    prize pool, never the house fee), or zero. Sold until the end of the level the house sets,
    not on a day the jackpot was won (payouts says so, PAY-12), and to a re-entry per the setting."""
    if not jackpot:
        return ZERO
    rules = HouseRules.of(t)
    if not rules.jackpot:
        raise DeskError("jackpot_not_offered", _("This tournament does not take part in the jackpot."))
    if kind == LedgerRow.RE_ENTRY and rules.jackpot_reentry != "PAY_AGAIN":
        raise DeskError("jackpot_not_for_reentry", _("A re-entry does not buy the jackpot again (house rules)."))
    if t.status == Tournament.RUNNING and clock_selectors.level_has_ended(t, rules.jackpot_sale_until_level, now):
        raise DeskError("jackpot_sale_closed", _("The jackpot fee is sold only until the end of level %(n)s.") % {"n": rules.jackpot_sale_until_level})
    if not rules.jackpot_sale_when_won:
        why = signals.ask_one(signals.jackpot_sale_checked, tournament=t, now=now)
        if why:
            raise DeskError("jackpot_locked", why)
    return to_money(rules.jackpot_fee)


# --- sales --------------------------------------------------------------------------------

# The two reads of every sale, compiled once (tdmanager.compiled): the person, and his entries
# with the tournament's last entry (the top of its number index), in one statement.
_PERSON = Compiled(lambda pk: Person.objects.filter(pk=pk).order_by(), Person)
_ENTRIES_AND_LAST = Compiled(
    lambda tid, pid: Entry.objects.filter(tournament_id=tid).filter(
        Q(person_id=pid) | Q(number=Subquery(Entry.objects.filter(tournament_id=tid).order_by("-number").values("number")[:1]))
    ),
    Entry,
    nargs=2,
)


def _entries_and_last(t: Tournament, person: Person, rows: list[Entry] | None = None) -> tuple[list[Entry], int]:
    """``list(t.entries.filter(person=person))`` (in entry order, each with ``t`` as its
    tournament) and the tournament's last entry number (0 before its first), in one read
    (``rows``: what ``_ENTRIES_AND_LAST`` read already)."""
    if rows is None:
        rows = _ENTRIES_AND_LAST.rows(t.pk, person.pk)
    mine = [e for e in rows if e.person_id == person.pk]
    for e in mine:
        e.tournament = t
    return mine, (rows[-1].number if rows else 0)  # rows in entry order: the last is the top


@service
def register(
    tournament,
    person,
    *,
    method: str,
    actor: Actor,
    now=None,
    offer: Offer | None = None,
    jackpot: bool = False,
    tender_currency: str = "",
    confirm_final_table: bool = False,
) -> Sale:
    """Sell a first entry (buy-in + fee) to ``person``. Late registration while the clock allows it.

    ``offer`` sells another product than the standard entry (stack choice); ``jackpot`` adds the
    progressive jackpot's fee (REG-11). ``tournament`` and ``person``: the rows or their keys
    (both are read here, the tournament under its lock; a key naming no row: ``DoesNotExist``)."""
    now = now or timezone.now()
    check_method(method)
    person = _PERSON.get(int(getattr(person, "pk", person)))  # before the lock: the tournament's lock does not guard the person's row
    # The lock, and the person's entries with the last entry number read under it (one round trip).
    t, rows = lock_tournament_and_read(tournament, _ENTRIES_AND_LAST, int(getattr(tournament, "pk", tournament)), person.pk)
    mine, last = _entries_and_last(t, person, rows)  # one read (under the lock) answers every question below
    reserved = check_admission(t, person, BUY_IN, now, mine=[e for e in mine if e.status != Entry.CANCELLED], confirm_final_table=confirm_final_table)
    tender = tender_for(t, tender_currency, method, now)
    if reserved:
        return _pay_reservation(t, reserved, method=method, actor=actor, now=now, offer=offer, jackpot=jackpot, tender=tender)
    return _sellnew_entry(
        t,
        person,
        LedgerRow.BUY_IN,
        Action.CASHIER_BUYIN_SOLD,
        method=method,
        actor=actor,
        now=now,
        offer=offer,
        jackpot=jackpot,
        tender=tender,
        previous=sum(e.status != Entry.CANCELLED for e in mine),
        number=last + 1,
    )


def _sellnew_entry(
    t,
    person,
    kind,
    action,
    *,
    method,
    actor,
    now,
    offer: Offer | None,
    jackpot: bool = False,
    tender: fees.Tender | None = None,
    previous: int | None = None,
    number: int | None = None,
):
    buy_in, fee = (offer.buy_in, offer.fee) if offer else (t.buy_in, t.fee)
    jackpot_fee = jackpot_line(t, kind, jackpot, now)
    bounty = HouseRules.of(t).bounty_part  # PAY-02: every buy-in and re-entry buys a bounty
    check_cash_limit(t, buy_in + fee + jackpot_fee + bounty, method, tender)
    # TDA 8-A: re-entries are sold full stacks; late registrants per the house setting.
    chips = offer.chips if offer else (t.starting_stack if kind == LedgerRow.RE_ENTRY else late_stack(t))
    entry, row = sell_new_entry(
        t,
        person,
        now=now,
        chips=chips,
        previous=previous,
        number=number,
        kind=kind,
        prize=buy_in,
        fee=fee,
        bounty=bounty,
        method=method,
        actor=actor,
        note=offer.note if offer else "",
        jackpot=jackpot_fee,
        tender=tender,
        event=SaleEvent(action, actor, sale_payload),
    )
    _after_sale(t, entry, actor, action, row, logged=True)
    return Sale(entry, row)


@service
def pre_register(tournament, person, *, actor: Actor, channel: str = "desk", now=None) -> Entry:
    """Reserve a place to pay later (REG-02). It counts against the field cap."""
    now = now or timezone.now()
    t = lock_tournament(tournament)
    person = Person.objects.get(pk=person.pk)
    check_admission(t, person, PRE_REGISTRATION, now)
    entry = new_entry(t, person, status=Entry.RESERVED, pre_registered=True, now=now)
    entry.channel = (channel or "")[:10]  # REG-02: a "transfer" booking waits for the cleared funds
    entry.save(update_fields=["channel"])
    log_event(t, Action.CASHIER_PREREGISTRATION_CREATED, actor, entry=entry.pk, person=person.pk, name=person.full_name, channel=channel)
    return entry


def _pay_reservation(
    t, entry, *, method, actor, now, offer: Offer | None = None, jackpot: bool = False, tender: fees.Tender | None = None, reference: str = ""
):
    if method == LedgerRow.TRANSFER and entry.awaits_transfer:  # REG-02: only registration.confirm_transfer
        raise DeskError("transfer_not_cleared", _("A bank-transfer booking is paid only when the cashier confirms the funds cleared (Transfer cleared)."))
    buy_in, fee = (offer.buy_in, offer.fee) if offer else (t.buy_in, t.fee)
    jackpot_fee = jackpot_line(t, LedgerRow.BUY_IN, jackpot, now)
    bounty = HouseRules.of(t).bounty_part
    check_cash_limit(t, buy_in + fee + jackpot_fee + bounty, method, tender)
    entry.status = Entry.ACTIVE
    entry.chips = offer.chips if offer else t.starting_stack
    entry.save(update_fields=["status", "chips"])
    row = write_row(
        t,
        kind=LedgerRow.BUY_IN,
        entry=entry,
        person=entry.person,
        prize=buy_in,
        fee=fee,
        bounty=bounty,
        chips=entry.chips,
        method=method,
        actor=actor,
        note=offer.note if offer else "",
        jackpot=jackpot_fee,
        tender=tender,
        reference=reference,
    )
    _after_sale(t, entry, actor, Action.CASHIER_BUYIN_SOLD, row)
    return Sale(entry, row)


@service
def pay_reservation(entry, *, method: str, actor: Actor, now=None, jackpot: bool = False, tender_currency: str = "", confirm_final_table: bool = False) -> Sale:
    """The pre-registered player pays at the desk (or the transfer is confirmed as cleared)."""
    now = now or timezone.now()
    check_method(method)
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    if entry.status != Entry.RESERVED:
        raise DeskError("not_reserved", _("This entry is not waiting for payment."))
    check_admission(t, entry.person, RESERVATION, now, confirm_final_table=confirm_final_table)
    return _pay_reservation(t, entry, method=method, actor=actor, now=now, jackpot=jackpot, tender=tender_for(t, tender_currency, method, now))


@service
def cancel_reservation(entry, *, actor: Actor, reason: str = "") -> Entry:
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.get(pk=entry.pk)
    if entry.status != Entry.RESERVED:
        raise DeskError("not_reserved", _("Only an unpaid reservation can be cancelled here."))
    entry.status = Entry.CANCELLED
    entry.save(update_fields=["status"])
    log_event(t, Action.CASHIER_PREREGISTRATION_CANCELLED, actor, entry=entry.pk, person=entry.person_id, reason=reason)
    return entry


@service
def reenter(
    tournament,
    person,
    *,
    method: str,
    actor: Actor,
    now=None,
    offer: Offer | None = None,
    jackpot: bool = False,
    tender_currency: str = "",
    confirm_final_table: bool = False,
) -> Sale:
    """A busted player buys a new full stack (FMT-05, TDA 8-A), up to the max entries."""
    now = now or timezone.now()
    check_method(method)
    t = lock_tournament(tournament)
    person = Person.objects.get(pk=person.pk)
    check_admission(t, person, RE_ENTRY, now, confirm_final_table=confirm_final_table)
    return _sellnew_entry(
        t,
        person,
        LedgerRow.RE_ENTRY,
        Action.CASHIER_REENTRY_SOLD,
        method=method,
        actor=actor,
        now=now,
        offer=offer,
        jackpot=jackpot,
        tender=tender_for(t, tender_currency, method, now),
    )


@service
def declare_rebuy(entry, *, actor: Actor, stack: int | None = None, now=None) -> Entry:
    """FMT-04 / TDA 27: the player declares a rebuy before a hand and plays that hand with the
    chips behind, so he is bound to it. The declaration is recorded as an obligation the desk
    must collect (``rebuy`` with the declaration completes it, even once the stack grew or the
    period ended after the declaration). The desk's rules are asked now, on the normal rebuy path;
    with chips in front of him only where the house lets a rebuy be declared so
    (``rebuy_declare_with_chips``), else at or below the rebuy threshold."""
    now = now or timezone.now()
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    check_admission(t, entry.person, REBUY, now)
    _check_declarable(t, entry)
    if not HouseRules.of(t).rebuy_declare_with_chips:
        _check_rebuy_stack(t, stack)
    entry.rebuy_declared_at = now
    entry.save(update_fields=["rebuy_declared_at"])
    log_event(t, Action.CASHIER_REBUY_DECLARED, actor, entry=entry.pk, stack=stack, amount=str(t.rebuy_price + t.rebuy_fee), declared_at=now.isoformat())
    return entry


@service
def rebuy(entry, *, method: str, actor: Actor, stack: int | None = None, now=None, tender_currency: str = "", confirm_final_table: bool = False) -> Sale:
    """Sell a rebuy: within the period, within the max, only when busted or at/below the threshold.
    A rebuy declared before a hand (FMT-04, TDA 27) is an obligation: it is sold whatever the
    player's stack now, and even after the period ended (it was asked when declared)."""
    now = now or timezone.now()
    check_method(method)
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    declared_at = entry.rebuy_declared_at
    check_admission(
        t, entry.person, REBUY, now, revives=entry.status == Entry.BUSTED, confirm_final_table=confirm_final_table, declared=declared_at is not None
    )
    _check_rebuy_entry(t, entry)
    if entry.status == Entry.ACTIVE and declared_at is None:
        _check_rebuy_stack(t, stack)
    tender = tender_for(t, tender_currency, method, now)
    check_cash_limit(t, t.rebuy_price + t.rebuy_fee, method, tender)
    was_busted = entry.status == Entry.BUSTED
    busted_at = entry.busted_at
    entry.status, entry.busted_at, entry.place = Entry.ACTIVE, None, None
    entry.rebuys += 1
    entry.chips += t.rebuy_chips
    entry.rebuy_declared_at = None
    entry.save(update_fields=["status", "busted_at", "place", "rebuys", "chips", "rebuy_declared_at"])
    row = write_row(
        t,
        kind=LedgerRow.REBUY,
        entry=entry,
        person=entry.person,
        prize=t.rebuy_price,
        fee=t.rebuy_fee,
        chips=t.rebuy_chips,
        method=method,
        actor=actor,
        tender=tender,
    )
    if was_busted:
        announce(signals.entry_revived, t, actor, entry=entry)
    # ``revived``/``busted_at``: what reversing this rebuy puts back (the undo source, ``reverse``).
    log_event(
        t,
        Action.CASHIER_REBUY_SOLD,
        actor,
        entry=entry.pk,
        receipt=row.receipt_number,
        amount=str(row.total),
        chips=row.chips,
        rebuy_no=entry.rebuys,
        revived=was_busted,
        busted_at=busted_at.isoformat() if was_busted and busted_at else None,
        declared_at=declared_at.isoformat() if declared_at else None,
        **tender_log(row),
    )
    return Sale(entry, row)


@service
def addon(entry, *, method: str, actor: Actor, now=None, tender_currency: str = "") -> Sale:
    """Sell an add-on in its window: the break after the configured level (FMT-06)."""
    now = now or timezone.now()
    check_method(method)
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    check_admission(t, entry.person, ADD_ON, now)  # REG-05: a banned player buys no add-on either
    _check_addon_entry(t, entry, now)
    tender = tender_for(t, tender_currency, method, now)
    check_cash_limit(t, t.addon_price + t.addon_fee, method, tender)
    entry.addons += 1
    entry.chips += t.addon_chips
    entry.save(update_fields=["addons", "chips"])
    row = write_row(
        t,
        kind=LedgerRow.ADD_ON,
        entry=entry,
        person=entry.person,
        prize=t.addon_price,
        fee=t.addon_fee,
        chips=t.addon_chips,
        method=method,
        actor=actor,
        tender=tender,
    )
    log_event(t, Action.CASHIER_ADDON_SOLD, actor, entry=entry.pk, receipt=row.receipt_number, amount=str(row.total), chips=row.chips, **tender_log(row))
    return Sale(entry, row)
