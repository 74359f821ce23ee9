"""The desk's corrections: a sale reversed, an entry refunded, a cancelled event's refunds paid.

A correction never edits a row: it writes the row that undoes it, so the ledger keeps what was
sold and what was given back, each with its receipt.
"""

from decimal import Decimal

from django.db.models import Sum
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from tdmanager import policy
from tdmanager.errors import ValidationFailed
from tdmanager.money import ZERO, to_money
from tdmanager.roles import user_roles
from tdmanager.transactions import service
from tournaments import signals
from tournaments.cashier import rules as cashier_rules
from tournaments.cashier import selectors as cashier_selectors
from tournaments.cashier.ledger import lock_tournament, write_row
from tournaments.cashier.services.admission import DeskError, check_cash_limit, check_method
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import Entry, LedgerRow, Person, Tournament, TournamentEvent
from tournaments.oversight import selectors as oversight_selectors
from tournaments.signals import announce

SALE_KINDS = (LedgerRow.BUY_IN, LedgerRow.RE_ENTRY, LedgerRow.REBUY, LedgerRow.ADD_ON)


@service
def reverse(row: LedgerRow, *, reason: str, actor: Actor) -> LedgerRow:
    """Correct a mistaken row with a reversing row (opposite amounts, same method), never an edit.

    Reversing a buy-in or re-entry cancels the entry; reversing a rebuy or add-on takes the
    chips back (out of the chips in play: the reversal row carries them negative), and a rebuy
    that bought a busted player back puts him out again, with his bust as it was.
    A row can be reversed once; a reversal cannot itself be reversed.
    """
    if not reason.strip():
        raise ValidationFailed("reason_required", _("A reversal needs a reason."))
    t = lock_tournament(row.tournament_id)
    row = LedgerRow.objects.select_related("entry").get(pk=row.pk)
    if row.kind == LedgerRow.REVERSAL:
        raise DeskError("cannot_reverse_reversal", _("A reversal cannot be reversed; record a new sale instead."))
    if LedgerRow.objects.filter(reverses=row).exists():
        raise DeskError("already_reversed", _("Receipt %(n)s has already been reversed.") % {"n": row.receipt_number})
    if actor.user is not None and not policy.may_reverse(user_roles(actor.user), row.kind):
        raise DeskError(
            "reverse_not_allowed",
            _("Only a role that may record a %(kind)s may reverse it: ask the director.") % {"kind": row.get_kind_display().lower()},
            status=403,
        )
    if row.kind == LedgerRow.RECEIVABLE and row.settlements.filter(reversed_by__isnull=True).exists():
        raise DeskError("reverse_settlement_first", _("This amount owed has been paid: reverse its payment first."))
    if row.entry_id and row.kind in SALE_KINDS and LedgerRow.objects.filter(entry_id=row.entry_id, kind=LedgerRow.REFUND, reversed_by__isnull=True).exists():
        # The refund gave this money back already: reversing the sale too would pay it twice.
        raise DeskError("reverse_refund_first", _("This entry has been refunded: reverse the refund first."))
    entry = row.entry
    if entry is not None and row.kind in SALE_KINDS:
        entry = Entry.objects.get(pk=entry.pk)
        if row.kind in (LedgerRow.BUY_IN, LedgerRow.RE_ENTRY):
            _check_cancellable(t, entry)
            later = entry.ledger.filter(kind__in=(LedgerRow.REBUY, LedgerRow.ADD_ON), reversed_by__isnull=True, receipt_number__gt=row.receipt_number)
            if later.exists():
                raise DeskError("reverse_later_sales_first", _("Reverse this entry's rebuys and add-ons first."))
            if t.status != Tournament.CANCELLED:
                # his bust gave a place (and his bounty to whoever knocked him out): undo it first
                refuse_if_played(t, entry, "undo_bust_first", _("This player has played and holds a finishing place: undo the bust first."))
    check_pool_out(t, row.prize_amount)  # after the refusals that name this entry's own reason
    if entry is not None and row.kind in SALE_KINDS:
        if row.kind in (LedgerRow.BUY_IN, LedgerRow.RE_ENTRY):
            entry.status = Entry.CANCELLED
            entry.chips = 0
            entry.save(update_fields=["status", "chips"])
            announce(signals.entry_cancelled, t, actor, entry=entry)
        elif row.kind == LedgerRow.REBUY:
            _reverse_rebuy(t, row, entry, actor)
        elif row.kind == LedgerRow.ADD_ON:
            entry.addons = max(0, entry.addons - 1)
            entry.chips = max(0, entry.chips - row.chips)
            entry.save(update_fields=["addons", "chips"])
    rev = reversing_row(t, row, reason=reason, actor=actor)
    log_event(t, Action.CASHIER_ROW_REVERSED, actor, receipt=row.receipt_number, reversal=rev.receipt_number, amount=str(rev.total), reason=reason)
    return rev


def reversing_row(t: Tournament, row: LedgerRow, *, reason: str, actor: Actor) -> LedgerRow:
    """The REVERSAL row of ``row`` (opposite amounts, same method), booked on ``actor``'s shift:
    a step of a service that has checked the reversal may be made (``reverse``, a bounty given
    back at the desk). No event is logged here: the calling service logs its own."""
    return write_row(
        t,
        kind=LedgerRow.REVERSAL,
        entry=row.entry,
        person=row.person,
        prize=-row.prize_amount,
        fee=-row.fee_amount,
        side=-row.side_amount,
        jackpot=-row.jackpot_amount,
        bounty=-row.bounty_amount,
        chips=-row.chips,
        method=row.method,
        actor=actor,
        reason=reason.strip(),
        reverses=row,
        tender=cashier_rules.Tender(row.tender_currency, row.exchange_rate) if row.tender_currency else None,
        owed=-row.owed_amount,
    )


def _reverse_rebuy(t: Tournament, row: LedgerRow, entry: Entry, actor: Actor) -> None:
    """Undo a rebuy: its chips come off the entry; if it revived a busted player (its sale's log
    row says so) and he is still playing on it, he is busted again as he was before it."""
    sold = TournamentEvent.objects.filter(tournament=t, action=Action.CASHIER_REBUY_SOLD, payload__receipt=row.receipt_number).first()
    revived = bool(sold and sold.payload.get("revived")) and entry.status == Entry.ACTIVE
    if revived:
        later = entry.ledger.filter(kind__in=(LedgerRow.REBUY, LedgerRow.ADD_ON), reversed_by__isnull=True, receipt_number__gt=row.receipt_number)
        if later.exists():
            raise DeskError("reverse_later_sales_first", _("Reverse this entry's later rebuys and add-ons first."))
    entry.rebuys = max(0, entry.rebuys - 1)
    entry.chips = max(0, entry.chips - row.chips)
    fields = ["rebuys", "chips"]
    if revived:
        busted_at = parse_datetime(sold.payload.get("busted_at") or "") or timezone.now()
        entry.status, entry.busted_at = Entry.BUSTED, busted_at
        fields += ["status", "busted_at"]
    entry.save(update_fields=fields)
    if revived:
        announce(signals.entry_revival_undone, t, actor, entry=entry)  # seating frees his seat, his bust counts again


@service
def refund(entry, *, reason: str, actor: Actor, expenses: Decimal = ZERO, method: str = LedgerRow.CASH, reference: str = "") -> LedgerRow:
    """Give money back for an entry (director only): cancelled event, banned pre-registrant (REG-05, REG-12).

    The refund is the entry's net payments minus ``expenses``; the entry is cancelled. In cash
    only within the cash limit (REG-06): above it, a cheque or a transfer (``reference``).
    """
    if not reason.strip():
        raise ValidationFailed("reason_required", _("A refund needs a reason."))
    check_method(method)
    expenses = to_money(expenses)
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    if entry.ledger.filter(kind=LedgerRow.REFUND, reversed_by__isnull=True).exists():
        # asked again, a refund less expenses would give the expenses back too
        raise DeskError("no_refund_due", _("No refund is due for this entry: it has been paid already."))
    if entry.status == Entry.BUSTED and t.status != Tournament.CANCELLED:
        raise DeskError("no_refund_after_playing", _("No refund for a player who has played and busted (REG-12)."))
    if (entry.presence or entry.no_show_at) and t.status != Tournament.CANCELLED and not entry.person.banned:
        raise DeskError(
            "no_refund_after_leaving",
            _("No refund for a player who left or did not show up: the chips stay in play and the prize of the place is kept (REG-12, ELM-05)."),
        )
    if t.status != Tournament.CANCELLED:
        refuse_if_played(t, entry, "no_refund_after_playing", _("No refund for a player who holds a finishing place (REG-12)."))
    _check_cancellable(t, entry)
    check_pool_out(t, _paid_by(entry)[0])  # after the refusals that name this entry's own reason
    return _write_refund(t, entry, reason=reason.strip(), actor=actor, expenses=expenses, method=method, reference=reference)


def refuse_if_played(t: Tournament, entry: Entry, code: str, holds_place) -> None:
    """REG-12: an entry that holds a finishing place or has won a bounty (another app answers
    ``refund_checked``) has played: its money is not given back, and its sale is not undone.
    The other app may name a refusal of its own (a ``(code, message)`` answer: the entry is in
    a deal, PAY-09)."""
    if entry.place is not None:
        raise DeskError(code, holds_place)
    why = signals.ask_one(signals.refund_checked, tournament=t, entry=entry)
    if why:
        own, why = why if isinstance(why, tuple) else (code, why)
        raise DeskError(own, why)


def check_pool_out(t: Tournament, prize: Decimal) -> None:
    """Prize money leaving the pool of a tournament that plays (a reversal, a refund) is refused
    while another app says so (payouts: a paid place is decided, or the payout table is locked
    and published, PAY-05). A cancelled tournament has no pool: its money is owed back."""
    if t.status == Tournament.CANCELLED:
        return
    why = signals.ask_one(signals.pool_out_checked, tournament=t, prize=prize)
    if why:
        raise DeskError(*why)


def _check_cancellable(t: Tournament, entry: Entry) -> None:
    """An entry that another app's draw holds (a heads-up bracket's match) is not cancelled while
    its tournament plays on: the format decides how he leaves (a no-show's seat freed, a match lost)."""
    if t.status == Tournament.CANCELLED:
        return
    why = signals.ask_one(signals.entry_cancel_checked, tournament=t, entry=entry)
    if why:
        raise DeskError("entry_in_draw", why)


def _paid_by(entry: Entry) -> tuple[Decimal, Decimal, Decimal, Decimal, Decimal]:
    """The entry's net payments on the ledger: prize part, fee, side pools, jackpot fee, bounty."""
    paid = entry.ledger.exclude(oversight_selectors.bounty_payments_q()).aggregate(
        p=Sum("prize_amount"), f=Sum("fee_amount"), s=Sum("side_amount"), j=Sum("jackpot_amount"), b=Sum("bounty_amount")
    )
    return paid["p"] or ZERO, paid["f"] or ZERO, paid["s"] or ZERO, paid["j"] or ZERO, paid["b"] or ZERO


def check_refund_cash_limit(t: Tournament, person: Person, amount: Decimal, method: str, now=None) -> None:
    """REG-06 for money going back: one refund in cash within the limit, and the person's cash
    refunds of this tournament today summed with it (two entries refunded apart are one payment)."""
    if method != LedgerRow.CASH:
        return
    start = timezone.localtime(now or timezone.now()).replace(hour=0, minute=0, second=0, microsecond=0)
    agg = t.ledger.filter(person=person, kind=LedgerRow.REFUND, method=LedgerRow.CASH, created_at__gte=start, reversed_by__isnull=True).aggregate(
        p=Sum("prize_amount"), f=Sum("fee_amount"), s=Sum("side_amount"), j=Sum("jackpot_amount"), b=Sum("bounty_amount")
    )
    before = -sum((agg[k] or ZERO for k in "pfsjb"), ZERO)
    check_cash_limit(t, before + amount, method)


def _write_refund(t, entry, *, reason, actor, expenses, method, reference="") -> LedgerRow:
    """The REFUND row (the entry's net payments minus ``expenses``, within the cash limit), the
    entry cancelled with its chips, the event logged. Runs under the tournament's lock."""
    prize, fee, side, jackpot, bounty = _paid_by(entry)
    paid = prize + fee + side + jackpot + bounty
    if paid <= ZERO:
        raise DeskError("nothing_to_refund", _("Nothing has been paid for this entry."))
    if expenses < ZERO or expenses > paid:
        raise ValidationFailed("bad_expenses", _("Expenses must be between zero and the amount paid."))
    check_refund_cash_limit(t, entry.person, paid - expenses, method)
    # Expenses are kept by the house: taken from the fee first, then from the prize part.
    keep_fee = min(fee, expenses)
    keep_prize = expenses - keep_fee
    row = write_row(
        t,
        kind=LedgerRow.REFUND,
        entry=entry,
        person=entry.person,
        prize=-(prize - keep_prize),
        fee=-(fee - keep_fee),
        side=-side,
        jackpot=-jackpot,
        bounty=-bounty,
        chips=-entry.chips,
        method=method,
        actor=actor,
        reason=reason,
        note=f"expenses {expenses}",
        reference=reference.strip(),
    )
    entry.status, entry.chips = Entry.CANCELLED, 0
    entry.save(update_fields=["status", "chips"])
    announce(signals.entry_cancelled, t, actor, entry=entry)  # its seat freed (if still held), the jackpot fund shown anew
    log_event(
        t,
        Action.CASHIER_REFUND_PAID,
        actor,
        entry=entry.pk,
        receipt=row.receipt_number,
        amount=str(row.total),
        expenses=str(expenses),
        reason=reason,
        method=method,
    )
    return row


# --- the refunds of a cancelled tournament (FMT-02, REG-06) ---------------------------------


@service
def pay_refund(entry, *, method: str, actor: Actor, reference: str = "") -> LedgerRow:
    """Hand out one refund of a cancelled tournament (FMT-02): the cashier who pays it writes the
    REFUND row on his own shift, for the whole amount the entry paid, in cash within the cash
    limit (REG-06) or by cheque / transfer. Paid once: a second payment is refused."""
    check_method(method)
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    if t.status != Tournament.CANCELLED:
        raise DeskError("tournament_not_cancelled", _("Only a cancelled tournament's refunds are paid here."))
    ids, reason = cashier_selectors.cancellation_refunds([t.pk]).get(t.pk, ([], ""))
    if entry.pk not in cashier_selectors.refunds_still_due([entry.pk] if entry.pk in ids else []):
        raise DeskError("no_refund_due", _("No refund is due for this entry: it has been paid already."))
    if method in (LedgerRow.TRANSFER, LedgerRow.CHEQUE) and not reference.strip():
        raise ValidationFailed("reference_required", _("A refund by cheque or transfer needs its number or reference."))
    return _write_refund(t, entry, reason=_("Tournament cancelled: %(r)s") % {"r": reason}, actor=actor, expenses=ZERO, method=method, reference=reference)
