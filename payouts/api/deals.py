"""Deals at the final table: the calculator, the proposal, each player's consent, the approval (PAY-09)."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from tdmanager.errors import DomainError
from tdmanager.fields import AmountField, IdField
from tdmanager.schema import OBJECT_LIST
from tournaments.models import Entry

from .. import selectors as sel
from .. import services
from ..models import Deal
from .common import Base, ReasonIn, _t


class StacksIn(serializers.Serializer):
    stacks = serializers.DictField(child=serializers.IntegerField(min_value=0, max_value=10**12), help_text="{entry id: chips}")
    reserve = AmountField(max_digits=13, decimal_places=2, min_value=0, default="0")


class DealIn(StacksIn):
    method = serializers.ChoiceField(choices=Deal.METHODS)
    amounts = serializers.ListField(
        child=AmountField(max_digits=13, decimal_places=2),
        required=False,
        help_text="CUSTOM: one amount per player, players in entry-number order",
    )
    by_place = serializers.ListField(
        child=AmountField(max_digits=13, decimal_places=2, min_value=0),
        required=False,
        help_text="CUSTOM (PAY-09): the new prize of each place in play, 1st first, strictly decreasing",
    )


class EntryIn(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())


def deal_data(d: Deal):
    return {
        "id": d.pk,
        "tournament": d.tournament_id,
        "status": d.status,
        "method": d.method,
        "stacks": d.stacks,
        "reserve": sel.money(d.reserve),
        "by_player": d.by_player,
        "by_place": d.by_place,
        "prizes_before": d.prizes_before,
        # A bounty event's deal: "APART" (bounties kept apart) or "ADDED", and what each player takes.
        "bounty_in_deal": d.bounty_in_deal or None,
        "bounty_label": d.bounty_label() or None,
        "bounty_total": sel.money(d.bounty_total),
        "bounties": d.bounties,
        "accepted": [a.entry_id for a in d.acceptances.all()],
        "created_at": d.created_at.isoformat(),
        "approved_at": d.approved_at.isoformat() if d.approved_at else None,
    }


class DealCalculatorView(Base):
    """POST stacks → ICM, chip chop and even chop side by side, with the PAY-09 check."""

    @extend_schema(request=StacksIn, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        d = self.valid(StacksIn)
        return Response(services.deal_options(_t(pk), d["stacks"], reserve=d["reserve"]))


class DealsView(Base):
    @extend_schema(responses=OBJECT_LIST)
    def get(self, request, pk):
        return Response([deal_data(x) for x in Deal.objects.filter(tournament_id=pk).prefetch_related("acceptances")])

    @extend_schema(request=DealIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        d = self.valid(DealIn)
        deal = services.propose_deal(
            _t(pk), d["stacks"], method=d["method"], actor=self.actor(), reserve=d["reserve"], amounts=d.get("amounts"), by_place=d.get("by_place")
        )
        return Response(deal_data(deal), status=201)


class DealActionView(Base):
    op_names = ("accept", "approve", "cancel")
    """POST ``accept`` (floor, director), ``approve`` or ``cancel`` (director)."""

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk, op):
        deal = get_object_or_404(Deal, pk=pk)
        if op == "accept":
            d = self.valid(EntryIn)
            services.accept_deal(deal, d["entry"], actor=self.actor())
        elif op in ("approve", "cancel"):
            if op == "approve":
                services.approve_deal(deal, actor=self.actor())
            else:
                services.cancel_deal(deal, actor=self.actor(), reason=self.valid(ReasonIn)["reason"])
        else:
            raise DomainError("unknown_action", _("Unknown deal action."), status=404)
        deal.refresh_from_db()
        return Response(deal_data(deal))
