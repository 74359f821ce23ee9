"""Tickets (PAY-11): the personal entry vouchers a player holds, as the desk reads them."""

from __future__ import annotations

from ..models import Ticket
from .common import money


def ticket_data(ticket) -> dict:
    """PAY-11: a ticket as the desk reads it: holder, value, the events it is valid for."""
    events = (
        [{"id": ticket.target_id, "name": ticket.target.name}]
        if ticket.target_id
        else [{"id": t.pk, "name": t.name} for t in ticket.valid_events.order_by("start_at", "pk")]
    )
    return {
        "id": ticket.pk,
        "holder": ticket.holder_id,
        "holder_name": ticket.holder.full_name,
        "value": money(ticket.value),
        "description": ticket.description,
        "non_transferable": ticket.non_transferable,
        "status": ticket.status,
        "events": events,
        "any_event": not events,
        "redeemed_entry": ticket.redeemed_entry_id,
    }


def tickets_of(person) -> list[dict]:
    """The tickets ``person`` holds, the ones still to use first."""
    rows = Ticket.objects.filter(holder=person).select_related("holder", "target").prefetch_related("valid_events")
    return [ticket_data(t) for t in sorted(rows, key=lambda t: (t.status != Ticket.ISSUED, t.pk))]
