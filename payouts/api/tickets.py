"""Tickets (PAY-11): the tickets a person holds, issued by the director, redeemed at the cashier."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from tdmanager.api import query_int
from tdmanager.errors import ValidationFailed
from tdmanager.fields import AmountField, IdField, TextField
from tdmanager.idempotency import idempotent
from tdmanager.schema import OBJECT_LIST
from tournaments.models import Person, Tournament

from .. import selectors as sel
from .. import services
from ..models import Ticket
from .common import Base


class TicketRedeemIn(serializers.Serializer):
    tournament = IdField(queryset=Tournament.objects.all(), allow_null=True, default=None)
    id_checked = serializers.BooleanField(default=False, help_text="PAY-11: the cashier saw the holder's identity document (400 id_check_required without it)")
    confirm_final_table = serializers.BooleanField(
        default=False,
        help_text="the desk confirms an entry that opens a table once the final table is formed (REG-04, BAL-09: 409 final_table_formed without it)",
    )


class TicketIssueIn(serializers.Serializer):
    holder = IdField(queryset=Person.objects.all())
    value = AmountField(max_digits=13, decimal_places=2, min_value=0)
    description = TextField(allow_blank=True, default="", max_length=200)
    target = IdField(queryset=Tournament.objects.all(), allow_null=True, default=None)
    valid_events = serializers.ListField(
        child=IdField(queryset=Tournament.objects.all()),
        required=False,
        default=list,
        max_length=100,
        help_text="PAY-11: a series ticket, valid for any one of these events",
    )
    non_transferable = serializers.BooleanField(default=True)


class TicketRedeemView(Base):
    @extend_schema(request=TicketRedeemIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = self.valid(TicketRedeemIn)
        ticket = get_object_or_404(Ticket, pk=pk)
        return idempotent(
            request,
            lambda: Response(
                {
                    "entry": services.redeem_ticket(
                        ticket, actor=self.actor(), tournament=d["tournament"], id_checked=d["id_checked"], confirm_final_table=d["confirm_final_table"]
                    ).pk
                },
                status=201,
            ),
        )


class TicketsView(Base):
    """PAY-11: GET ``?person=`` the tickets a person holds (holder, value, the events each is valid
    for, status); POST (director) issues a ticket for one event or a series of events."""

    @extend_schema(responses=OBJECT_LIST)
    def get(self, request):
        pk = query_int(request, "person")
        if pk is None:
            raise ValidationFailed("person_required", _("Say whose tickets: ?person=<id>."))
        person = get_object_or_404(Person, pk=pk)
        return Response(sel.tickets_of(person))

    @extend_schema(request=TicketIssueIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        d = self.valid(TicketIssueIn)
        ticket = services.issue_ticket(
            d["holder"],
            value=d["value"],
            actor=self.actor(),
            description=d["description"],
            target=d["target"],
            valid_events=d["valid_events"],
            non_transferable=d["non_transferable"],
        )
        return Response(sel.ticket_data(ticket), status=201)
