"""Tickets: personal entry vouchers issued and redeemed at the cashier (PAY-11, FMT-08)."""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _

from tdmanager.errors import ValidationFailed
from tdmanager.transactions import service
from tournaments.cashier import services as cashier
from tournaments.cashier.ledger import issue_paid_entry, lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import Entry, LedgerRow, Person, Tournament

from ..models import Ticket
from .common import PayoutError, _money


@service
def issue_ticket(
    holder: Person, *, value, actor: Actor, description: str = "", target: Tournament | None = None, valid_events=(), non_transferable: bool = True
) -> Ticket:
    """PAY-11: a ticket prize given outside a payout table (a leaderboard's IPT/EPT ticket, 003
    Allegato 1): it names its holder, its value (buy-in + fee), the events it is valid for (one
    ``target``, or a series: any one of ``valid_events``) and whether it is personal."""
    value = _money(value, _("The ticket's value"))
    if value <= Decimal("0"):
        raise ValidationFailed("bad_value", _("A ticket is worth more than nothing."))
    events = list(valid_events)
    if target is not None and events:
        raise ValidationFailed("target_or_events", _("A ticket names one event or a set of events, not both."))
    if any(t.status in (Tournament.FINISHED, Tournament.CANCELLED) for t in ([target] if target else []) + events):
        raise ValidationFailed("event_over", _("A ticket cannot be valid for an event that is over."))
    ticket = Ticket.objects.create(holder=holder, target=target, value=value, description=(description or "").strip()[:200], non_transferable=non_transferable)
    if events:
        ticket.valid_events.set(events)
    log_event(
        target,
        Action.PAYOUTS_TICKET_ISSUED,
        actor,
        ticket=ticket.pk,
        name=holder.full_name,
        amount=str(value),
        events=[t.pk for t in events] or ([target.pk] if target else []),
    )
    return ticket


def _event_for(ticket: Ticket, tournament) -> int:
    """The event a ticket is used for: its own (``target``), one of a series ticket's events,
    or any tournament the desk names for an open ticket."""
    chosen = getattr(tournament, "pk", tournament)
    if ticket.target_id:
        if chosen is not None and chosen != ticket.target_id:
            raise PayoutError("ticket_not_valid_here", _("This ticket is valid for %(name)s only.") % {"name": ticket.target.name})
        return ticket.target_id
    if chosen is None:
        raise ValidationFailed("tournament_required", _("Choose the tournament this ticket is used for."))
    series = list(ticket.valid_events.values_list("pk", flat=True))
    if series and chosen not in series:
        raise PayoutError("ticket_not_valid_here", _("This ticket is not valid for this tournament."))
    return chosen


@service
def redeem_ticket(ticket, *, actor: Actor, tournament=None, id_checked: bool = False, now=None, confirm_final_table: bool = False) -> Entry:
    """Turn a ticket into a paid entry for its holder (ledger row method OTHER), under the
    desk's rules (``cashier.check_admission``): a ticket is a sale paid in advance, never a way
    around the late-registration window, the ban list, the field cap or a freezeout.

    PAY-11: a ticket names its holder («personali e non cedibili»): the cashier confirms he saw
    the holder's identity document (``id_checked``) and the entry is the holder's; a series
    ticket is used for any one of its events."""
    now = now or timezone.now()
    ticket = Ticket.objects.select_related("holder", "target").get(pk=ticket.pk)
    if not id_checked:
        raise ValidationFailed(
            "id_check_required", _("The ticket is personal: check the identity document of %(name)s first.") % {"name": ticket.holder.full_name}
        )
    target_id = _event_for(ticket, tournament)
    t = lock_tournament(target_id)
    ticket = Ticket.objects.select_for_update().select_related("holder").get(pk=ticket.pk)
    if ticket.status != Ticket.ISSUED:
        raise PayoutError("ticket_used", _("This ticket has already been used."))
    # The desk's rules: REG-04 window, REG-05 ban list, field cap, freezeout / most entries, duplicates.
    cashier.check_admission(t, ticket.holder, cashier.TICKET, now, confirm_final_table=confirm_final_table)
    entry, _row = issue_paid_entry(t, ticket.holder, actor=actor, method=LedgerRow.OTHER, note=f"ticket {ticket.pk}", now=now)
    ticket.status, ticket.redeemed_entry = Ticket.REDEEMED, entry
    ticket.save(update_fields=["status", "redeemed_entry"])
    log_event(t, Action.PAYOUTS_TICKET_REDEEMED, actor, ticket=ticket.pk, entry=entry.pk, name=ticket.holder.full_name, id_checked=True)
    return entry
