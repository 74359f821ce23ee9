"""REST API of the cashier desk: sales, reservations, check-in, refunds and exchange rates (one service per call)."""

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager import dates
from tdmanager.errors import DomainError
from tdmanager.idempotency import idempotent
from tdmanager.roles import HasRole
from tdmanager.security import no_store
from tournaments.api.base import sale_response, validated_body
from tournaments.cashier import selectors as cashier_selectors
from tournaments.cashier import services as cashier
from tournaments.cashier.serializers import (
    AdmitAlternateSerializer,
    AlternateInputSerializer,
    AlternateSerializer,
    ArrivalSerializer,
    CheckInSerializer,
    DeclareRebuySerializer,
    DeskEntrySerializer,
    EntryActionSerializer,
    ExchangeRateInputSerializer,
    ExchangeRateSerializer,
    LedgerRowSerializer,
    NoShowSerializer,
    PayReservationSerializer,
    PreRegisterSerializer,
    PresenceSerializer,
    RebuySerializer,
    RefundDuePaySerializer,
    RefundSerializer,
    ReverseSerializer,
    SellEntrySerializer,
    SettleSerializer,
    TransferClearedSerializer,
)
from tournaments.cashier.services import registration
from tournaments.eventlog.services import Actor
from tournaments.models import LedgerRow, Person, Tournament
from tournaments.setup.serializers import EntrySerializer


class CashierView(APIView):
    """Base for desk actions: cashier or director, validated input, idempotency key honoured."""

    permission_classes = [HasRole]
    input_serializer: type[serializers.Serializer]

    def post(self, request):
        ser = self.input_serializer(data=request.data)
        ser.is_valid(raise_exception=True)
        return idempotent(request, lambda: self.perform(ser.validated_data, Actor.from_request(request)))

    def finalize_response(self, request, response, *args, **kwargs):
        # a sale's receipt carries the player's phone link, that page's key (a repeated
        # idempotency key's answer too): no cache keeps one
        return no_store(super().finalize_response(request, response, *args, **kwargs))


def _cashier_view(name, input_serializer, perform, doc):
    view = type(name, (CashierView,), {"input_serializer": input_serializer, "perform": staticmethod(perform), "__doc__": doc})
    return extend_schema(request=input_serializer, responses={201: dict, 200: dict}, summary=doc)(view)


_METHODS = frozenset(dict(LedgerRow.METHODS))
_TENDER_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def quick_sale_input(request) -> dict | None:
    """The body of a sale as ``SellEntrySerializer`` validates it, but with the tournament's and
    the person's keys (the sale reads both rows itself, the tournament under its lock), or None
    for any body the serializer might refuse or convert (then the serializer decides, as always).
    A key that names no row is refused by the serializer too (``RegisterView.post``)."""
    data = request.data
    if type(data) is not dict or len(request.headers.get("Idempotency-Key", "").strip()) > 100:
        return None
    t, p = data.get("tournament"), data.get("person")
    if type(t) is not int or type(p) is not int or not (0 < t < 2**31 and 0 < p < 2**31):
        return None
    method, tender, jackpot = data.get("method", LedgerRow.CASH), data.get("tender_currency", ""), data.get("jackpot", False)
    confirm = data.get("confirm_final_table", False)
    if type(method) is not str or method not in _METHODS or type(jackpot) is not bool or type(confirm) is not bool:
        return None
    if type(tender) is not str or len(tender) > 3 or not _TENDER_CHARS.issuperset(tender):
        return None
    return {"tournament": t, "person": p, "method": method, "tender_currency": tender, "jackpot": jackpot, "confirm_final_table": confirm}


@extend_schema(
    request=SellEntrySerializer, responses={201: dict, 200: dict}, summary="Sell an entry (buy-in + fee); pays a reservation if the player pre-registered."
)
class RegisterView(CashierView):
    """Sell an entry (buy-in + fee); pays a reservation if the player pre-registered."""

    input_serializer = SellEntrySerializer

    @staticmethod
    def perform(d, a):
        return sale_response(
            cashier.register(
                d["tournament"],
                d["person"],
                method=d["method"],
                actor=a,
                jackpot=d["jackpot"],
                tender_currency=d["tender_currency"],
                confirm_final_table=d["confirm_final_table"],
            )
        )

    def post(self, request):
        # The desk's hot path: a well-formed body skips the serializer's two row fetches (the sale
        # reads the tournament under its lock and the person once); any other body goes the general
        # way. A key naming no row, or a repeated idempotency key, gets the serializer's answer first,
        # as before. (No docstring: the schema describes the view by the class's.)
        d = quick_sale_input(request)
        if d is None:
            return super().post(request)

        def validate():
            self.input_serializer(data=request.data).is_valid(raise_exception=True)

        try:
            # flat_step: the sale's exceptions end the whole unit (key row and sale), so it takes no savepoint.
            return idempotent(request, lambda: self.perform(d, Actor.from_request(request)), validate=validate, flat=True)
        except (Tournament.DoesNotExist, Person.DoesNotExist):
            validate()  # the serializer's refusal of a key that names no row (400), as before
            raise


PreRegisterView = _cashier_view(
    "PreRegisterView",
    PreRegisterSerializer,
    lambda d, a: Response({"entry": EntrySerializer(cashier.pre_register(d["tournament"], d["person"], actor=a, channel=d["channel"])).data}, status=201),
    "Reserve a place to pay later.",
)
PayReservationView = _cashier_view(
    "PayReservationView",
    PayReservationSerializer,
    lambda d, a: sale_response(
        cashier.pay_reservation(
            d["entry"], method=d["method"], actor=a, jackpot=d["jackpot"], tender_currency=d["tender_currency"], confirm_final_table=d["confirm_final_table"]
        )
    ),
    "Take payment for a pre-registration.",
)
CheckInView = _cashier_view(
    "CheckInView",
    CheckInSerializer,
    lambda d, a: Response({"entry": EntrySerializer(registration.check_in(d["entry"], actor=a, id_checked=d["id_checked"])).data}),
    "Check a paid player in (REG-02): the identity document when the house asks; a banned person is refused (REG-05).",
)
TransferClearedView = _cashier_view(
    "TransferClearedView",
    TransferClearedSerializer,
    lambda d, a: sale_response(
        registration.confirm_transfer(d["entry"], reference=d["reference"], actor=a, jackpot=d["jackpot"], confirm_final_table=d["confirm_final_table"])
    ),
    "Confirm a bank-transfer booking's funds cleared (REG-02): only now is it paid.",
)
PresenceView = _cashier_view(
    "PresenceView",
    PresenceSerializer,
    lambda d, a: Response({"entry": EntrySerializer(registration.set_presence(d["entry"], presence=d["presence"], actor=a, reason=d["reason"])).data}),
    "Mark a player absent or withdrawn, or back (ELM-05): it never eliminates.",
)
NoShowView = _cashier_view(
    "NoShowView",
    NoShowSerializer,
    lambda d, a: Response({"entry": EntrySerializer(registration.mark_no_show(d["entry"], actor=a, reason=d["reason"])).data}),
    "A registered player has not arrived (REG-09): the house's no-show policy applies.",
)
ArrivalView = _cashier_view(
    "ArrivalView",
    ArrivalSerializer,
    lambda d, a: Response({"entry": EntrySerializer(registration.mark_arrival(d["entry"], arrived=d["arrived"], actor=a, reason=d["reason"])).data}),
    "Mark a seated player as not arrived, or arrived after all (REG-09: under FORFEIT_AT without check-in, "
    "the players marked not arrived are out at the deadline).",
)


def _settle(d, a):
    row = get_object_or_404(LedgerRow, receipt_number=d["receipt_number"])
    return Response(LedgerRowSerializer(registration.settle_receivable(row, method=d["method"], actor=a), context={"at_desk": True}).data, status=201)


SettleView = _cashier_view(
    "SettleView",
    SettleSerializer,
    _settle,
    "The player pays an amount owed (REG-09): a SETTLEMENT ledger row pointing at the RECEIVABLE row, the money taken.",
)
ReenterView = _cashier_view(
    "ReenterView",
    SellEntrySerializer,
    lambda d, a: sale_response(
        cashier.reenter(
            d["tournament"],
            d["person"],
            method=d["method"],
            actor=a,
            jackpot=d["jackpot"],
            tender_currency=d["tender_currency"],
            confirm_final_table=d["confirm_final_table"],
        )
    ),
    "Sell a re-entry to a busted player.",
)
RebuyView = _cashier_view(
    "RebuyView",
    RebuySerializer,
    lambda d, a: sale_response(
        cashier.rebuy(
            cashier.entry_at_desk(d["entry"], d.get("person")),
            method=d["method"],
            actor=a,
            stack=d.get("stack"),
            tender_currency=d["tender_currency"],
            confirm_final_table=d["confirm_final_table"],
        ),
        status.HTTP_201_CREATED,
    ),
    "Sell a rebuy.",
)
DeclareRebuyView = _cashier_view(
    "DeclareRebuyView",
    DeclareRebuySerializer,
    lambda d, a: Response(
        {"entry": EntrySerializer(cashier.declare_rebuy(cashier.entry_at_desk(d["entry"], d.get("person")), actor=a, stack=d.get("stack"))).data},
        status=status.HTTP_201_CREATED,
    ),
    "Record a rebuy the player declared before the hand (FMT-04, TDA 27): he is bound to it; the desk collects it with cashier/rebuy/.",
)
AddonView = _cashier_view(
    "AddonView",
    DeskEntrySerializer,
    lambda d, a: sale_response(
        cashier.addon(cashier.entry_at_desk(d["entry"], d.get("person")), method=d["method"], actor=a, tender_currency=d["tender_currency"])
    ),
    "Sell the add-on.",
)


def _reverse(d, a):
    row = get_object_or_404(LedgerRow, receipt_number=d["receipt_number"])
    return Response(LedgerRowSerializer(cashier.reverse(row, reason=d["reason"], actor=a), context={"at_desk": True}).data, status=201)


ReverseView = _cashier_view("ReverseView", ReverseSerializer, _reverse, "Reverse a ledger row with a reason.")
RefundView = _cashier_view(
    "RefundView",
    RefundSerializer,
    lambda d, a: Response(
        LedgerRowSerializer(
            cashier.refund(d["entry"], reason=d["reason"], actor=a, expenses=d["expenses"], method=d["method"], reference=d["reference"]),
            context={"at_desk": True},
        ).data,
        status=201,
    ),
    "Refund an entry minus expenses (director).",
)
RefundDuePayView = _cashier_view(
    "RefundDuePayView",
    RefundDuePaySerializer,
    lambda d, a: Response(
        LedgerRowSerializer(cashier.pay_refund(d["entry"], method=d["method"], actor=a, reference=d["reference"]), context={"at_desk": True}).data, status=201
    ),
    "Hand out one refund of a cancelled tournament (FMT-02): the whole amount paid, on this cashier's shift; cash only within "
    "the cash limit (REG-06, 409 cash_limit_exceeded: a cheque or transfer with its reference). Paid once (409 no_refund_due).",
)
AddAlternateView = _cashier_view(
    "AddAlternateView",
    AlternateInputSerializer,
    lambda d, a: Response(AlternateSerializer(cashier.add_alternate(d["tournament"], d["person"], actor=a)).data, status=201),
    "Put a player on the alternates list.",
)
AdmitAlternateView = _cashier_view(
    "AdmitAlternateView",
    AdmitAlternateSerializer,
    lambda d, a: sale_response(cashier.admit_alternate(d["tournament"], method=d["method"], actor=a, tender_currency=d["tender_currency"])),
    "Sell the freed place to the first alternate.",
)


class ExchangeRatesView(APIView):
    """REG-06: the exchange rates of a day (``?date=YYYY-MM-DD``, default today; the latest per
    currency counts) and, for the cashiers' supervisor, setting today's rate."""

    permission_classes = [HasRole]

    @extend_schema(parameters=[OpenApiParameter("date", str)], responses=ExchangeRateSerializer(many=True))
    def get(self, request):
        raw = request.query_params.get("date", "")
        try:
            day = parse_date(raw) if raw else timezone.localdate()
        except ValueError:
            day = None
        if day is None:
            raise DomainError("bad_date", _("Give the date as YYYY-MM-DD."), status=400)
        dates.check(day, "date", _("Date"))
        return Response(ExchangeRateSerializer(cashier_selectors.exchange_rates_of(day), many=True).data)

    @extend_schema(request=ExchangeRateInputSerializer, responses={201: ExchangeRateSerializer})
    def post(self, request):
        d = validated_body(ExchangeRateInputSerializer, request)
        row = cashier.set_exchange_rate(d["currency"], d["rate"], base=d["base_currency"], actor=Actor.from_request(request))
        return Response(ExchangeRateSerializer(row).data, status=201)


@extend_schema(request=EntryActionSerializer, responses={200: OpenApiTypes.OBJECT})
class CancelReservationView(CashierView):
    input_serializer = EntryActionSerializer

    def perform(self, d, a):
        return Response({"entry": EntrySerializer(cashier.cancel_reservation(d["entry"], actor=a)).data})
