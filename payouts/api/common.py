"""What every payouts API view shares: its base, the tournament by its id, the reader, a payment as answered."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from rest_framework import serializers
from rest_framework.views import APIView

from tdmanager.fields import TextField
from tdmanager.policy import STAFF_AUDIT
from tdmanager.roles import HasRole, has_role
from tournaments.eventlog.services import Actor
from tournaments.models import Tournament

from .. import selectors as sel
from ..models import PrizePayment


def _t(pk):
    return get_object_or_404(Tournament, pk=pk)


class Base(APIView):
    permission_classes = [HasRole]

    def actor(self):
        return Actor.from_request(self.request)

    def valid(self, ser_class):
        ser = ser_class(data=self.request.data)
        ser.is_valid(raise_exception=True)
        return ser.validated_data


class ReasonIn(serializers.Serializer):
    reason = TextField(allow_blank=True, default="", max_length=200)


def reads_public(request) -> bool:
    """True for a reader who sees what a lobby screen shows and no more (the display role):
    players named as on the public pages, never in full."""
    return not has_role(request.user, *STAFF_AUDIT)


def payment_data(p: PrizePayment):
    data = {
        "id": p.pk,
        "entry": p.entry_id,
        "kind": p.kind,
        "place": p.place,
        "amount": sel.money(p.amount),
        "method": p.method,
        "reference": p.reference,
        "payee": p.payee,
        "source": p.source,
        "created_at": p.created_at.isoformat(),
        "receipt_number": p.row.receipt_number if p.row_id else None,
        "ticket": p.ticket_id,
        "seat_entry": p.seat_entry_id,
    }
    if p.row_id:
        data["slip_url"] = reverse("payouts-slip", args=[p.row.receipt_number])
        data["slip_pdf_url"] = reverse("payouts-slip-pdf", args=[p.row.receipt_number])
    return data
