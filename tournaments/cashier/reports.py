"""REST API of what the desk reads back: receivables, refunds due, the shift's totals, last sales, receipts."""

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager.api import query_int, query_limit, query_offset
from tdmanager.roles import HasRole
from tdmanager.security import no_store
from tournaments.cashier import selectors as cashier_selectors
from tournaments.cashier import services as cashier
from tournaments.cashier.serializers import LedgerRowSerializer, SaleSerializer
from tournaments.cashier.services import registration
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, LedgerRow, Person, Tournament
from tournaments.people import privacy


class BannedPaidView(APIView):
    """REG-05: the tournament's paid entries of people banned since they paid: not seated at the
    draw; the desk refunds each, minus any expenses (``cashier/refund/``)."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        t = get_object_or_404(Tournament, pk=pk)
        return Response({"entries": registration.banned_paid_entries(t)})


class DeclaredRebuysView(APIView):
    """FMT-04 / TDA 27: the rebuys declared before a hand that the desk has not collected yet
    (``cashier/rebuy/`` collects each, whatever the player's stack now)."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        t = get_object_or_404(Tournament, pk=pk)
        return Response({"tournament": t.pk, "declared": cashier_selectors.declared_rebuys(t)})


class RefundsDueView(APIView):
    """FMT-02: a cancelled tournament's refunds still to hand out at the desk (every entry that had
    paid when it was cancelled, until a cashier pays it with ``cashier/refunds-due/pay/``)."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        t = get_object_or_404(Tournament, pk=pk)
        return Response({"tournament": t.pk, "status": t.status, "refunds": [{**r, "amount": str(r["amount"])} for r in cashier_selectors.refunds_due(t)]})


class ReceivablesView(APIView):
    """REG-02 / REG-09: the amounts players owe for this tournament (a 004 no-show still owes the
    entry): its RECEIVABLE ledger rows, each with what is still owed and the receipts that paid it."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        t = get_object_or_404(Tournament, pk=pk)
        return Response({"receivables": registration.receivables(t)})


class CheckInDocumentView(APIView):
    """REG-02 at the desk: the whole identity document number of the player whose entry
    (``?entry=<id>``) awaits check-in, to compare with the one he shows; every other list and page
    shows it masked. Each read is logged (``people.document.viewed``, purpose check-in); an entry
    not awaiting check-in is 409 ``not_at_checkin``."""

    permission_classes = [HasRole]

    @extend_schema(
        parameters=[OpenApiParameter("entry", int, required=True)],
        responses={200: inline_serializer("CheckInDocument", {"person": serializers.IntegerField(), "document_id": serializers.CharField()})},
    )
    def get(self, request):
        entry = get_object_or_404(Entry, pk=query_int(request, "entry") or 0)
        document = privacy.checkin_document(entry, actor=Actor.from_request(request))
        return Response({"person": entry.person_id, "document_id": document})


class OwedView(APIView):
    """REG-09: what one player (``?person=<id>``) still owes the desk, in every tournament: the
    RECEIVABLE ledger rows not paid yet (``cashier/settle/`` takes the money)."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        person = get_object_or_404(Person, pk=query_int(request, "person") or 0)
        return Response({"person": person.pk, "owed": registration.owed_by(person)})


class DeskOffersView(APIView):
    """What the desk may sell one person (``?person=<id>``) in one tournament (``?tournament=<id>``)
    now, button by button: ``offers[op]`` for each of register, preregister, reenter,
    declare-rebuy, rebuy, addon and alternate, with ``sold`` (the event's format has it at all),
    ``allowed`` now and, when not, the ``code`` and ``reason`` the sale itself would answer
    (``cashier.desk_offers``: the sale's own checks). ``entry``: the entry a rebuy or add-on is for."""

    permission_classes = [HasRole]

    @extend_schema(
        parameters=[OpenApiParameter("tournament", int, required=True), OpenApiParameter("person", int, required=True)], responses=OpenApiTypes.OBJECT
    )
    def get(self, request):
        t = get_object_or_404(Tournament, pk=query_int(request, "tournament") or 0)
        person = get_object_or_404(Person, pk=query_int(request, "person") or 0)
        return Response({"tournament": t.pk, "person": person.pk, **cashier.desk_offers(t, person)})


class ShiftView(APIView):
    """The signed-in cashier's totals for today, by payment method in the tournament's currency,
    then the foreign notes (REG-06) by currency: ``amount`` in that currency, ``value`` at the
    sale's rate (not inside the "CASH" line); ``total`` adds up every line's value. ``bounty``
    (PAY-02): of that money, the bounty parts taken in and the bounties paid out."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        totals = cashier_selectors.shift_totals(request.user)
        return Response(
            {
                **totals,
                "total": str(totals["total"]),
                "by_method": [{**m, "total": str(m["total"])} for m in totals["by_method"]],
                "foreign": [{**f, "amount": str(f["amount"]), "value": str(f["value"])} for f in totals["foreign"]],
                "bounty": {k: str(v) for k, v in totals["bounty"].items()},
            }
        )


class SalesView(APIView):
    """The signed-in cashier's last sales (``?tournament=`` one tournament; ``?limit=``, at most
    50; ``?offset=`` the newest to skip, for the earlier ones), newest first: the desk's "Last
    sales", reversible from there after a reload."""

    permission_classes = [HasRole]

    @extend_schema(
        parameters=[OpenApiParameter("tournament", int), OpenApiParameter("limit", int), OpenApiParameter("offset", int)], responses=SaleSerializer(many=True)
    )
    def get(self, request):
        tid = query_int(request, "tournament")
        t = get_object_or_404(Tournament, pk=tid) if tid is not None else None
        rows = cashier_selectors.last_sales(request.user, t, limit=query_limit(request, 15, maximum=50), offset=query_offset(request))
        return no_store(Response(SaleSerializer(rows, many=True, context={"request": request}).data))  # phone links: their pages' keys


class ReceiptView(APIView):
    permission_classes = [HasRole]

    @extend_schema(responses=LedgerRowSerializer)
    def get(self, request, number):
        row = get_object_or_404(LedgerRow, receipt_number=number)
        return no_store(Response(LedgerRowSerializer(row, context={"request": request}).data))  # its phone link is that page's key
