"""Side pools kept apart from the prize pool: Last Longer, chip-leader prizes, their chips and plaques (REG-10)."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from tdmanager.errors import DomainError
from tdmanager.fields import AmountField, IdField, TextField, WholeNumberField
from tdmanager.schema import CREATED_LIST, OBJECT_LIST
from tournaments.models import Entry

from .. import selectors as sel
from .. import services
from ..models import JackpotFund, SidePool
from .common import Base, _t


class SidePoolIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[k for k, _l in SidePool.KINDS])
    name = TextField(allow_blank=True, default="", max_length=120)
    key = TextField(allow_blank=True, default="", max_length=40)
    from_ledger = serializers.BooleanField(default=True)
    from_prize_pool = AmountField(max_digits=13, decimal_places=2, min_value=0, default="0")
    fund = IdField(queryset=JackpotFund.objects.all(), allow_null=True, default=None)


class ContributionIn(serializers.Serializer):
    amount = AmountField(max_digits=13, decimal_places=2)
    note = TextField(allow_blank=True, default="", max_length=200)


class AwardItemIn(serializers.Serializer):
    entry = WholeNumberField(min_value=1, max_value=2**62)
    amount = AmountField(max_digits=13, decimal_places=2, min_value=0)


class AwardIn(serializers.Serializer):
    awards = AwardItemIn(many=True, required=False, help_text='[{"entry": id, "amount": "100.00"}]')
    note = TextField(allow_blank=True, default="", max_length=200)


class TokenIn(serializers.Serializer):
    entry = WholeNumberField(min_value=1, max_value=2**62)
    label = TextField(max_length=40, help_text="the chip's or plaque's number or mark (REG-10)")


class SidePoolsView(Base):
    @extend_schema(responses=OBJECT_LIST)
    def get(self, request, pk):
        return Response(sel.side_pools_for_staff(_t(pk)))

    @extend_schema(request=SidePoolIn, responses=CREATED_LIST)
    def post(self, request, pk):
        d = self.valid(SidePoolIn)
        services.create_side_pool(_t(pk), actor=self.actor(), **d)
        return Response(sel.side_pools_summary(_t(pk)), status=201)


class SidePoolActionView(Base):
    op_names = ("contribute", "award", "token")

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OBJECT_LIST)
    def post(self, request, pk, op):
        pool = get_object_or_404(SidePool, pk=pk)
        if op == "contribute":
            d = self.valid(ContributionIn)
            services.contribute_side_pool(pool, d["amount"], actor=self.actor(), note=d["note"])
        elif op == "award":
            d = self.valid(AwardIn)
            awards = None
            if d.get("awards"):
                awards = [(get_object_or_404(Entry, pk=a.get("entry"), tournament=pool.tournament), a.get("amount")) for a in d["awards"]]
            services.award_side_pool(pool, actor=self.actor(), awards=awards, note=d["note"])
        elif op == "token":  # REG-10: the Last Longer chip or plaque handed over at the desk
            d = self.valid(TokenIn)
            entry = get_object_or_404(Entry, pk=d["entry"], tournament=pool.tournament)
            services.issue_side_token(pool, entry, label=d["label"], actor=self.actor())
            return Response(sel.side_pools_for_staff(pool.tournament), status=201)
        else:
            raise DomainError("unknown_action", _("Unknown side pool action."), status=404)
        return Response(sel.side_pools_summary(pool.tournament))
