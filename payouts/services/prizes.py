"""Paying a prize at the desk: one operation, cash up to the limit, in the winner's name (REG-06, PAY-13)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tdmanager.errors import ValidationFailed
from tdmanager.money import ZERO
from tdmanager.transactions import service
from tournaments.cashier.ledger import lock_tournament, write_row
from tournaments.cashier.services import DeskError, check_cash_limit, check_cash_split, check_method
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import Entry, LedgerRow

from ..models import PayoutTable, PrizePayment, Ticket
from ..selectors.prizes import FORFEIT_SOURCE, active_payments, due_for
from ..selectors.table import table_state
from .common import PAYOUT_METHODS, PayoutError, _same_name, check_will_play


def check_cash_payout(t, person, amount, *, method: str, reference: str, payee: str) -> str:
    """REG-06, PAY-13: money handed to a winner (a prize, a side prize, the jackpot) in one
    operation: cash only up to the cash limit, and not split into several cash operations;
    above it a cheque or a bank transfer with its reference. Made out to the registered winner;
    returns the payee."""
    check_method(method)
    if method not in PAYOUT_METHODS:
        raise ValidationFailed("bad_payout_method", _("A prize is paid in cash, by cheque or by bank transfer."))
    if method == LedgerRow.CASH:
        try:
            check_cash_limit(t, amount, method)
        except DeskError:
            raise PayoutError(
                "cash_limit_exceeded",
                _("%(a)s %(c)s is above the cash limit: pay it by cheque or bank transfer in the winner's name.") % {"a": amount, "c": t.currency},
            )
        check_cash_split(t, person, amount)  # REG-06: no splitting into several cash operations
    elif not reference.strip():
        raise ValidationFailed("reference_required", _("Enter the cheque number or the transfer reference."))
    payee = payee.strip() or person.full_name
    if not _same_name(payee, person.full_name):
        raise PayoutError("payee_mismatch", _("The payee must be the winner, %(name)s, as registered.") % {"name": person.full_name})
    return payee


@service
def pay_prize(entry, *, method: str, actor: Actor, source: str = "MAIN:CASH", reference: str = "", payee: str = "") -> PrizePayment:
    """Pay one prize won by ``entry`` in one operation, never split (REG-06, PAY-13).

    Cash only up to the cash limit; above it, a cheque or a bank transfer with its reference,
    made out to the registered winner's full name. Needs the published table and the ranking
    sign-off of that place (ELM-07). A ticket prize issues the ticket; an item is handed over.
    """
    t = lock_tournament(entry.tournament_id)
    check_will_play(t)  # its players are refunded instead
    entry = Entry.objects.select_related("person").get(pk=entry.pk)
    if source.startswith("MAIN:") and table_state(t) != PayoutTable.LOCKED:
        raise PayoutError("table_not_locked", _("The payout table must be locked and published before paying prizes."))
    due = due_for(t, entry, source)
    if due is None or (due["kind"] != "ITEM" and due["amount"] <= 0):
        raise PayoutError("nothing_due", _("%(name)s has no prize to collect here.") % {"name": entry.person.full_name})
    if due["paid"]:
        raise PayoutError(
            "already_paid", _("This prize has already been paid (receipt %(n)s).") % {"n": due["payment"].row.receipt_number if due["payment"].row_id else "—"}
        )
    if due["forfeited"]:
        raise PayoutError(
            "prize_forfeited",
            _("%(name)s was eliminated without prize (PEN-07): place %(p)s is not paid.") % {"name": entry.person.full_name, "p": due["place"]},
        )
    if due["pending"]:
        raise PayoutError(
            "place_still_shared",
            _("Place %(p)s is shared by every player who loses in this round: it is paid once the round's last match is over.") % {"p": due["place"]},
        )
    if due["held"]:
        raise PayoutError("prize_held", _("This prize is shared between tied players: the director decides who gets it."))
    if not due["released"]:
        raise PayoutError(
            "ranking_not_signed_off",
            _("Place %(p)s is not released: the ranking needs two sign-offs (the director and the administrative controller).") % {"p": due["place"]},
        )
    person, amount, kind = entry.person, due["amount"], due["kind"]
    side = source.startswith("SIDE:")
    # What the receipt says: the place for the main prizes, else which prize (a side pool, a
    # flight's chip-leader prize, PAY-08).
    note = f"place {due['place']}" if source.startswith("MAIN:") else due["description"]
    if source == FORFEIT_SOURCE:
        note = f"place {due['place']}: {due['description']}"  # a share of a forfeited prize (PEN-07)
    row = ticket = None
    if kind == "CASH":
        payee = check_cash_payout(t, person, amount, method=method, reference=reference, payee=payee)
        row = write_row(
            t,
            kind=LedgerRow.SIDE if side else LedgerRow.PAYOUT,
            entry=entry,
            person=person,
            prize=ZERO if side else -amount,
            fee=ZERO,
            side=-amount if side else ZERO,
            chips=0,
            method=method,
            actor=actor,
            reference=reference.strip(),
            payee=payee,
            note=note[:200],
        )
    elif kind == "TICKET":
        ticket = Ticket.objects.create(holder=person, target_id=due["target"], value=amount, description=due["description"] or _("Prize ticket"), source=t)
        method, payee = LedgerRow.OTHER, person.full_name
        row = write_row(
            t,
            kind=LedgerRow.PAYOUT,
            entry=entry,
            person=person,
            prize=-amount,
            fee=ZERO,
            chips=0,
            method=method,
            actor=actor,
            payee=payee,
            reference=f"ticket {ticket.pk}",
            note=f"{note}: ticket"[:200],
        )
    elif kind == "ITEM":
        method, payee = "", person.full_name
    else:
        raise PayoutError("seat_via_satellite", _("Seats are handed out when the satellite ends."))
    payment = PrizePayment.objects.create(
        tournament=t,
        entry=entry,
        source=source,
        kind=kind,
        place=due["place"],
        amount=amount,
        method=method,
        reference=reference.strip(),
        payee=payee,
        row=row,
        ticket=ticket,
        paid_by=actor.user,
    )
    log_event(
        t,
        Action.PAYOUTS_PRIZE_PAID,
        actor,
        entry=entry.pk,
        name=person.full_name,
        place=due["place"],
        kind=kind,
        amount=str(amount),
        method=method,
        receipt=row.receipt_number if row else None,
        source=source,
    )
    return payment


def check_paid_places_stand(t, *, by_bust: bool = False) -> None:
    """A prize paid stays with the place it was paid for: a change of the ranking that takes that
    place from its player is refused while the payment stands: an undone bust (the winner's place
    with it), or a new bust (``by_bust``) of the hand-for-hand hand in which he went out, which
    would share his place; the desk reverses the payment first, or the floor ends that hand."""
    payments = [p for (_entry, source), p in active_payments(t).items() if source.startswith("MAIN:") and p.place is not None]
    if not payments:
        return
    places = dict(Entry.objects.filter(pk__in=[p.entry_id for p in payments]).values_list("pk", "place"))
    for p in payments:
        if places.get(p.entry_id) != p.place and by_bust:
            raise PayoutError(
                "prize_paid",
                _(
                    "%(name)s has been paid the prize of place %(place)s, which this bust would share (the same hand-for-hand hand): "
                    "report the hand completed at every table first, or the desk reverses that payment."
                )
                % {"name": p.entry.person.full_name, "place": p.place},
            )
        if places.get(p.entry_id) != p.place:
            raise PayoutError(
                "prize_paid",
                _("%(name)s has been paid the prize of place %(place)s: the desk reverses that payment before the bust that decided it is undone.")
                % {"name": p.entry.person.full_name, "place": p.place},
            )
