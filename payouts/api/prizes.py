"""Prizes at the desk: what is due, paying one, its slip, and the ranking sign-off that releases them."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from tdmanager.api import query_choice, query_int
from tdmanager.fields import IdField, TextField
from tdmanager.idempotency import idempotent
from tdmanager.schema import OBJECT_LIST
from tournaments.models import Entry, LedgerRow, Tournament

from .. import selectors as sel
from .. import services
from ..models import PrizePayment
from .bounties import bounty_due_data, bounty_payment_data
from .common import Base, _t, payment_data


class PayIn(serializers.Serializer):
    entry = IdField(queryset=Entry.objects.all())
    source = TextField(default="MAIN:CASH", max_length=40)
    method = serializers.ChoiceField(choices=LedgerRow.METHODS)
    reference = TextField(allow_blank=True, default="", max_length=80)
    payee = TextField(allow_blank=True, default="", max_length=160)


def due_data(d):
    pay = d["payment"]
    return {
        "tournament": d["entry"].tournament_id,
        "entry": d["entry_id"],
        "entry_number": d["entry"].number,
        "name": d["name"],
        "place": d["place"],
        "shared_with": d["shared_with"],
        "kind": d["kind"],
        "amount": sel.money(d["amount"]),
        "source": d["source"],
        "description": d["description"],
        "held": d["held"],
        "pending": d["pending"],
        "released": d["released"],
        "paid": d["paid"],
        "forfeited": d["forfeited"],
        "payment": payment_data(pay) if pay else None,
    }


class DueView(Base):
    """Prizes won: ``?tournament=<id>`` (default: every running or finished tournament), ``?all=1``
    to include what is already paid. Bounties owed (PAY-02) come one line per player, kind
    ``BOUNTY``, paid by ``POST /tournaments/<id>/bounties/pay/``."""

    @extend_schema(parameters=[OpenApiParameter("tournament", int), OpenApiParameter("all", str, enum=["1", "true"])], responses=OBJECT_LIST)
    def get(self, request):
        tid = query_int(request, "tournament")
        qs = Tournament.objects.filter(pk=tid) if tid is not None else Tournament.objects.filter(status__in=[Tournament.RUNNING, Tournament.FINISHED])
        include_paid = query_choice(request, "all", ("1", "true")) is not None
        out = []
        for t in qs:
            out += [due_data(d) for d in sel.dues(t) if include_paid or not d["paid"]]
            out += [bounty_due_data(t, b) for b in sel.bounties_owed(t)]
        return Response(out)


class PayView(Base):
    """Pay one prize (cashier). Honours ``Idempotency-Key``: a repeat pays nothing."""

    @extend_schema(request=PayIn, responses={201: OpenApiTypes.OBJECT})
    def post(self, request):
        d = self.valid(PayIn)
        return idempotent(
            request,
            lambda: Response(
                payment_data(
                    services.pay_prize(d["entry"], method=d["method"], actor=self.actor(), source=d["source"], reference=d["reference"], payee=d["payee"])
                ),
                status=201,
            ),
        )


class SlipView(Base):
    """A payout slip by its receipt number: a prize's, or a bounty payment's (PAY-02)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, number):
        p = PrizePayment.objects.filter(row__receipt_number=number).select_related("row").first()
        if p is not None:
            return Response(payment_data(p))
        row = get_object_or_404(LedgerRow.objects.select_related("person"), receipt_number=number, kind=LedgerRow.BOUNTY)
        return Response(bounty_payment_data(row))


class SignoffView(Base):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response(sel.signoff_status(_t(pk)))

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk):
        t = _t(pk)
        services.sign_off_ranking(t, actor=self.actor())
        return Response(sel.signoff_status(t), status=201)
