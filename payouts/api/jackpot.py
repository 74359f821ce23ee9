"""The venue's progressive jackpot: the fund and its base, a royal flush claimed, a share paid (REG-11, PAY-12)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from tdmanager.fields import AmountField, TextField, WholeNumberField
from tdmanager.idempotency import idempotent
from tournaments.models import LedgerRow

from .. import selectors as sel
from .. import services
from ..models import JackpotClaim
from .common import Base, _t, payment_data


class JackpotBaseIn(serializers.Serializer):
    base = AmountField(max_digits=13, decimal_places=2, min_value=0)
    name = TextField(allow_blank=True, default="", max_length=120)


class JackpotClaimIn(serializers.Serializer):
    entries = serializers.ListField(
        child=WholeNumberField(min_value=1, max_value=2**63 - 1),
        min_length=1,
        max_length=10,
        help_text="the entries with a royal flush in this hand (two or more share it)",
    )
    both_hole_cards = serializers.BooleanField(help_text="the floor saw both hole cards used (required to win)")
    note = TextField(allow_blank=True, default="", max_length=200)


class JackpotPayIn(serializers.Serializer):
    method = serializers.ChoiceField(choices=LedgerRow.METHODS)
    reference = TextField(allow_blank=True, default="", max_length=80)
    payee = TextField(allow_blank=True, default="", max_length=160)


def jackpot_data():
    fund = sel.jackpot_fund()
    return {"fund": sel.jackpot_summary(), "claims": sel.jackpot_claims(fund) if fund else []}


def win_data(win):
    return {
        "id": win.pk,
        "tournament": win.tournament_id,
        "level": win.level,
        "percent": str(win.percent),
        "fund_before": sel.money(win.fund_before),
        "amount": sel.money(win.amount),
        "verified_by": win.verified_by.get_username(),
        "locked_until": win.locked_until.isoformat(),
        "claims": [{"id": c.pk, "entry": c.entry_id, "amount": sel.money(c.amount)} for c in win.claims.all()],
    }


class JackpotView(Base):
    """The venue's progressive jackpot: the fund (base + contributions − wins), whether a win
    locks it until tomorrow, and the winners' shares with whether each was collected. PUT sets
    the base (director)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response(jackpot_data())

    @extend_schema(request=JackpotBaseIn, responses=OpenApiTypes.OBJECT)
    def put(self, request):
        d = self.valid(JackpotBaseIn)
        services.set_jackpot_base(d["base"], name=d["name"], actor=self.actor())
        return Response(jackpot_data())


class JackpotClaimView(Base):
    """The floor records a royal flush verified at the table (PAY-12); the level is the clock's."""

    @extend_schema(request=JackpotClaimIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        t = _t(pk)
        d = self.valid(JackpotClaimIn)
        return idempotent(
            request,
            lambda: Response(
                win_data(services.claim_jackpot(t, d["entries"], both_hole_cards=d["both_hole_cards"], note=d["note"], actor=self.actor())), status=201
            ),
        )


class JackpotPayView(Base):
    """The desk pays a winner's share of the jackpot; the answer carries the slip's address."""

    @extend_schema(request=JackpotPayIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        claim = get_object_or_404(JackpotClaim, pk=pk)
        d = self.valid(JackpotPayIn)
        return idempotent(
            request,
            lambda: Response(
                payment_data(services.pay_jackpot(claim, method=d["method"], reference=d["reference"], payee=d["payee"], actor=self.actor())), status=201
            ),
        )
