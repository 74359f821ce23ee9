"""REST API for people, structures, tournaments and the cashier desk (thin: one service per call)."""

import hashlib
import json
from contextlib import nullcontext

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager.api import body_object, query_choice, query_int, query_limit
from tdmanager.compiled import Updates
from tdmanager.errors import DomainError
from tdmanager.roles import HasRole
from tdmanager.transactions import flat_step, unit_of_work

from . import labels, overview, selectors, sql
from . import serializers as s
from .models import Alternate, BlindStructure, ChipSet, DisplayScreen, Entry, IdempotencyRecord, LedgerRow, Penalty, Person, Tournament, TournamentTemplate
from .services import cashier, chipsets, clockctl, floor, lifecycle, people, privacy, registration, screens, setup, streaming, structures
from .services.events import Actor
from .snapshot import build_snapshot


def body_hash(request) -> str:
    """SHA-256 of the request's data in a canonical form (key order and spacing do not matter)."""
    data = request.data
    if hasattr(data, "lists"):
        data = {k: v for k, v in data.lists()}
    text = json.dumps(data, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


# The first answer kept on the key's row: ``save(update_fields=...)``'s UPDATE, compiled once.
_ANSWER = Updates(IdempotencyRecord, ["status_code", "response"])


def _answer_key(pk: int, response) -> None:
    """Keep the first answer on the key's row."""
    _ANSWER.save(IdempotencyRecord(pk=pk, status_code=response.status_code, response=response.data))


def idempotent(request, compute, validate=None, flat=False):
    """Run ``compute`` once per ``Idempotency-Key``: a repeat returns the first answer, charging nothing.

    The key row is inserted in the same transaction as the sale. A concurrent duplicate
    blocks on the unique index until the first commits, then reads its stored answer.
    A refused sale (4xx) rolls back the key too, so the cashier can simply retry. The same key
    with another body or on another action is refused (422): it is a different request, not a
    repeat. Keys are kept ``TDM_IDEMPOTENCY_TTL_HOURS`` (at least a day), then purged by beat.

    ``validate``: for a caller that has not validated the body fully, called before a repeated
    key's answer (its refusal comes first). ``flat``: ``compute``'s service runs without a
    savepoint of its own (``tdmanager.transactions.flat_step``).
    """
    key = request.headers.get("Idempotency-Key", "").strip()
    if not key:
        return compute()
    if len(key) > 100:
        raise DomainError("bad_idempotency_key", _("The idempotency key is too long."), status=400)
    digest = body_hash(request)
    with unit_of_work(), (flat_step() if flat else nullcontext()):  # the key row and the sale it answers: one transaction
        pk = sql.claim_idempotency_key(request.user.pk, key, request.path, digest, timezone.now())
        if pk is None:
            if validate is not None:
                validate()  # a body the caller has not validated fully: its refusal comes first, as it always did
            record = IdempotencyRecord.objects.get(user=request.user, key=key)
            if record.endpoint != request.path:
                raise DomainError("idempotency_key_reused", _("This idempotency key was used for another action."), status=422)
            if record.body_hash and record.body_hash != digest:
                raise DomainError("idempotency_key_mismatch", _("This idempotency key was used for a different request: start a new sale."),
                                  status=422)
            if record.response is None:
                raise DomainError("request_in_progress", _("The same request is still being processed."))
            response = Response(record.response, status=record.status_code)
            response["Idempotent-Replay"] = "true"
            return response
        response = compute()
        _answer_key(pk, response)
        return response


def _valid(serializer_class, request, **kw):
    """The body, validated by ``serializer_class`` (a list or a string where an object is expected: 400)."""
    ser = serializer_class(data=body_object(request), **kw)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


def sale_response(sale, code=status.HTTP_201_CREATED):
    data = {"entry": s.EntrySerializer(sale.entry).data, "receipt": s.LedgerRowSerializer(sale.row).data if sale.row else None}
    return Response(data, status=code)


class PersonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """People: ``?q=`` searches any part of name, nickname, document or phone."""

    permission_classes = [HasRole]
    serializer_class = s.PersonSerializer

    def get_queryset(self):
        q = self.request.query_params.get("q", "").strip()
        if q and self.action == "list":
            return people.search_people(q, limit=query_limit(self.request, 20, maximum=100))
        return Person.objects.all()

    def paginate_queryset(self, queryset):
        if self.request.query_params.get("q"):
            return None
        return super().paginate_queryset(queryset)

    @extend_schema(request=s.PersonCreateSerializer, responses=s.PersonSerializer)
    def create(self, request):
        ser = s.PersonCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = dict(ser.validated_data)
        confirm = data.pop("confirm_duplicate", False)
        person = people.create_person(actor=Actor.from_request(request), confirm_duplicate=confirm, **data)
        return Response(s.PersonSerializer(person).data, status=201)

    def update(self, request, *args, **kwargs):
        """Rectification: the fields sent are corrected through ``people.update_person``, which logs
        each change (old → new; the document number as changed, without its values)."""
        ser = self.get_serializer(self.get_object(), data=body_object(request), partial=kwargs.pop("partial", False))
        ser.is_valid(raise_exception=True)
        person = people.update_person(ser.instance, actor=Actor.from_request(request), **ser.validated_data)
        return Response(s.PersonSerializer(person).data)

    @extend_schema(request=None, responses={200: inline_serializer("PersonDocument", {"person": serializers.IntegerField(),
                                                                                   "document_id": serializers.CharField()})},
                   description="A director reveals the whole identity document number (lists show it masked); logged "
                               "(people.document.viewed: who viewed whose document, when).")
    @action(detail=True, methods=["post"])
    def document(self, request, pk=None):
        person = self.get_object()
        return Response({"person": person.pk, "document_id": privacy.reveal_document(person, actor=Actor.from_request(request))})

    @extend_schema(request=s.BanSerializer, responses=s.PersonSerializer)
    @action(detail=True, methods=["post"])
    def ban(self, request, pk=None):
        ser = s.BanSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        person = people.set_banned(self.get_object(), ser.validated_data["banned"], ser.validated_data["reason"], actor=Actor.from_request(request))
        return Response(s.PersonSerializer(person).data)

    @extend_schema(responses={(200, "application/json"): OpenApiTypes.OBJECT},
                   description="GDPR access (director): everything held about the person as a JSON file; the export is logged.")
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        data = privacy.export_person(self.get_object(), actor=Actor.from_request(request))
        response = HttpResponse(json.dumps(data, indent=2, ensure_ascii=False, default=str), content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="person-{data["person"]["id"]}.json"'
        return response

    @extend_schema(request=s.EraseSerializer, responses=s.PersonSerializer,
                   description="GDPR erasure (director): personal fields cleared, the name a pseudonym; receipts, ledger and places "
                               "keep their numbers. 409 person_in_play / person_owes_money / person_refund_due / person_prize_due.")
    @action(detail=True, methods=["post"])
    def erase(self, request, pk=None):
        reason = _valid(s.EraseSerializer, request)["reason"]
        person = privacy.erase_person(self.get_object(), reason, actor=Actor.from_request(request))
        return Response(s.PersonSerializer(person).data)


class StructureViewSet(viewsets.ModelViewSet):
    permission_classes = [HasRole]
    serializer_class = s.BlindStructureSerializer
    queryset = BlindStructure.objects.prefetch_related("items")

    def _save(self, request, instance=None):
        ser = self.get_serializer(instance, data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        st = structures.save_structure(
            name=d["name"], description=d.get("description", ""), is_template=d.get("is_template", True),
            items=[dict(i) for i in d["items"]], actor=Actor.from_request(request), structure=instance, reason=d.get("reason", ""),
        )
        data = self.get_serializer(st).data
        data["warnings"] = structures.structure_warnings(structures.validate_items([dict(i) for i in d["items"]]))
        return data

    def create(self, request):
        return Response(self._save(request), status=201)

    def update(self, request, pk=None, partial=False):
        return Response(self._save(request, self.get_object()))

    def perform_destroy(self, instance):
        structures.delete_structure(instance, actor=Actor.from_request(self.request))

    @extend_schema(parameters=[OpenApiParameter("format_type", str, enum=["json", "csv"])],
                   responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], pagination_class=None)
    def export(self, request, pk=None):
        st = self.get_object()
        if query_choice(request, "format_type", ("json", "csv"), "json") == "csv":
            resp = HttpResponse(structures.export_csv(st), content_type="text/csv")
            resp["Content-Disposition"] = f'attachment; filename="structure-{st.pk}.csv"'
            return resp
        resp = HttpResponse(structures.export_json(st), content_type="application/json")
        resp["Content-Disposition"] = f'attachment; filename="structure-{st.pk}.json"'
        return resp

    @extend_schema(request={"multipart/form-data": {"type": "object", "properties": {"file": {"type": "string", "format": "binary"}, "name": {"type": "string"}}}})
    @action(detail=False, methods=["post"], url_path="import", parser_classes=[MultiPartParser])  # a file: the API's one form
    def import_(self, request):
        upload = request.FILES.get("file")
        if upload is None:
            raise DomainError("file_required", _("Attach a JSON or CSV file."), status=400)
        fmt = "csv" if upload.name.lower().endswith(".csv") else "json"
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise DomainError("bad_file", _("The file must be UTF-8 text."), status=400)
        data = structures.parse_import(text, fmt)
        name = body_object(request).get("name") or data.get("name") or upload.name.rsplit(".", 1)[0]
        st = structures.save_structure(name=name, description=data.get("description", ""), items=data["items"], actor=Actor.from_request(request))
        return Response(self.get_serializer(st).data, status=201)


class TournamentViewSet(viewsets.ModelViewSet):
    permission_classes = [HasRole]
    serializer_class = s.TournamentSerializer
    queryset = Tournament.objects.all()

    def get_serializer_context(self):
        # Every stage at once: the serializer runs the setup rules (pure) beside its fields' errors.
        return {**super().get_serializer_context(), "setup_errors": setup.setup_errors}

    # The same services as the tournament page: the setup rules live in services.setup.
    def perform_create(self, serializer):
        values = dict(serializer.validated_data)
        reason, preset = values.pop("override_reason", ""), values.pop("fee_preset", None)
        serializer.instance = setup.create_tournament(values, actor=Actor.from_request(self.request), fee_preset=preset,
                                                      override_reason=reason)

    def perform_update(self, serializer):
        values = dict(serializer.validated_data)
        reason, preset = values.pop("override_reason", ""), values.pop("fee_preset", None)
        serializer.instance = setup.update_tournament(self.get_object(), values, actor=Actor.from_request(self.request), override_reason=reason,
                                                      fee_preset=preset)

    def perform_destroy(self, instance):
        lifecycle.delete(instance, actor=Actor.from_request(self.request))

    @extend_schema(request=None, responses=s.TournamentSerializer)  # no body (the schema offered a tournament's, unread)
    @action(detail=True, methods=["post"], url_path="open-registration")
    def open_registration(self, request, pk=None):
        t = lifecycle.open_registration(self.get_object(), actor=Actor.from_request(request))
        return Response(self.get_serializer(t).data)

    @extend_schema(request=s.StartSerializer, responses=s.TournamentSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        d = _valid(s.StartSerializer, request)
        t = lifecycle.start(self.get_object(), actor=Actor.from_request(request), override_minimum=d["override_minimum"],
                            prestart_report_sent=d["prestart_report_sent"], start_clock=d["start_clock"])
        return Response(self.get_serializer(t).data)

    @extend_schema(request=s.CopySerializer, responses={201: s.TournamentSerializer})
    @action(detail=True, methods=["post"])
    def copy(self, request, pk=None):
        """A new planned tournament with this one's setup and its own copy of the structure."""
        d = _valid(s.CopySerializer, request)
        t = setup.copy_tournament(self.get_object(), name=d["name"], start_at=d["start_at"], actor=Actor.from_request(request),
                                  override_reason=d["override_reason"])
        return Response(self.get_serializer(t).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.SaveTemplateSerializer, responses={201: s.TournamentTemplateSerializer})
    @action(detail=True, methods=["post"], url_path="save-template")
    def save_template(self, request, pk=None):
        """Save this tournament's setup as a template for later tournaments."""
        d = _valid(s.SaveTemplateSerializer, request)
        template = setup.save_template(self.get_object(), name=d["name"], actor=Actor.from_request(request))
        return Response(s.TournamentTemplateSerializer(template).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    @action(detail=False, methods=["get"], pagination_class=None)
    def overview(self, request):
        """The floor overview: every running tournament with its level, time left, players,
        tables, moves pending, halted tables, hand-for-hand and late registration."""
        return Response(overview.running_overview())

    @extend_schema(request=None, responses=s.TournamentSerializer)  # no body (the schema offered a tournament's, unread)
    @action(detail=True, methods=["post"])
    def finish(self, request, pk=None):
        t = lifecycle.finish(self.get_object(), actor=Actor.from_request(request))
        return Response(self.get_serializer(t).data)

    @extend_schema(request=s.StreamingSerializer, responses=s.TournamentSerializer)
    @action(detail=True, methods=["post"])
    def streaming(self, request, pk=None):
        """ROLE-08: the TV table is on the air (``{"live": true}``) or off it."""
        t = streaming.set_streaming_live(self.get_object(), _valid(s.StreamingSerializer, request)["live"], actor=Actor.from_request(request))
        return Response(self.get_serializer(t).data)

    @extend_schema(request=s.CancelSerializer, responses=s.TournamentSerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        t = lifecycle.cancel(self.get_object(), actor=Actor.from_request(request), reason=_valid(s.CancelSerializer, request)["reason"])
        return Response(self.get_serializer(t).data)

    @extend_schema(parameters=[OpenApiParameter("status", str, enum=[v for v, _l in Entry.STATUSES]), OpenApiParameter("person", int)],
                   responses=s.EntrySerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def entries(self, request, pk=None):
        qs = self.get_object().entries.select_related("person").order_by("number")
        wanted = query_choice(request, "status", [v for v, _l in Entry.STATUSES])
        if wanted:
            qs = qs.filter(status=wanted)
        person = query_int(request, "person")
        if person is not None:
            qs = qs.filter(person_id=person)
        return Response(s.EntrySerializer(qs, many=True).data)

    @extend_schema(responses=s.LedgerRowSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def ledger(self, request, pk=None):
        rows = self.get_object().ledger.select_related("cashier", "reverses").order_by("receipt_number")
        return Response(s.LedgerRowSerializer(rows, many=True).data)

    @extend_schema(parameters=[OpenApiParameter("limit", int, description="newest first, 200 by default, at most 500")],
                   responses=s.EventSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def events(self, request, pk=None):
        t = self.get_object()
        rows = selectors.event_sentences(t.events.order_by("-id")[: query_limit(request, 200)], t.currency)
        return Response(s.EventSerializer(rows, many=True).data)

    @extend_schema(responses=s.TournamentChangeSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def changes(self, request, pk=None):
        """FMT-02: the published event's versions, newest first: what changed, who, when and why."""
        return Response(s.TournamentChangeSerializer(selectors.change_history(self.get_object()), many=True).data)

    @extend_schema(responses=s.AlternateSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def alternates(self, request, pk=None):
        qs = self.get_object().alternates.filter(status=Alternate.WAITING).select_related("person")
        return Response(s.AlternateSerializer(qs, many=True).data)


class CashierView(APIView):
    """Base for desk actions: cashier or director, validated input, idempotency key honoured."""

    permission_classes = [HasRole]
    input_serializer: type[serializers.Serializer]

    def post(self, request):
        ser = self.input_serializer(data=request.data)
        ser.is_valid(raise_exception=True)
        return idempotent(request, lambda: self.perform(ser.validated_data, Actor.from_request(request)))


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


@extend_schema(request=s.SellEntrySerializer, responses={201: dict, 200: dict}, summary="Sell an entry (buy-in + fee); pays a reservation if the player pre-registered.")
class RegisterView(CashierView):
    """Sell an entry (buy-in + fee); pays a reservation if the player pre-registered."""

    input_serializer = s.SellEntrySerializer

    @staticmethod
    def perform(d, a):
        return sale_response(cashier.register(d["tournament"], d["person"], method=d["method"], actor=a, jackpot=d["jackpot"],
                                              tender_currency=d["tender_currency"], confirm_final_table=d["confirm_final_table"]))

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
    "PreRegisterView", s.PreRegisterSerializer,
    lambda d, a: Response({"entry": s.EntrySerializer(cashier.pre_register(d["tournament"], d["person"], actor=a, channel=d["channel"])).data}, status=201),
    "Reserve a place to pay later.",
)
PayReservationView = _cashier_view(
    "PayReservationView", s.PayReservationSerializer,
    lambda d, a: sale_response(cashier.pay_reservation(d["entry"], method=d["method"], actor=a, jackpot=d["jackpot"],
                                                         tender_currency=d["tender_currency"], confirm_final_table=d["confirm_final_table"])),
    "Take payment for a pre-registration.",
)
CheckInView = _cashier_view(
    "CheckInView", s.CheckInSerializer,
    lambda d, a: Response({"entry": s.EntrySerializer(registration.check_in(d["entry"], actor=a, id_checked=d["id_checked"])).data}),
    "Check a paid player in (REG-02): the identity document when the house asks; a banned person is refused (REG-05).",
)
TransferClearedView = _cashier_view(
    "TransferClearedView", s.TransferClearedSerializer,
    lambda d, a: sale_response(registration.confirm_transfer(d["entry"], reference=d["reference"], actor=a, jackpot=d["jackpot"],
                                                             confirm_final_table=d["confirm_final_table"])),
    "Confirm a bank-transfer booking's funds cleared (REG-02): only now is it paid.",
)
PresenceView = _cashier_view(
    "PresenceView", s.PresenceSerializer,
    lambda d, a: Response({"entry": s.EntrySerializer(registration.set_presence(d["entry"], presence=d["presence"], actor=a,
                                                                                reason=d["reason"])).data}),
    "Mark a player absent or withdrawn, or back (ELM-05): it never eliminates.",
)
NoShowView = _cashier_view(
    "NoShowView", s.NoShowSerializer,
    lambda d, a: Response({"entry": s.EntrySerializer(registration.mark_no_show(d["entry"], actor=a, reason=d["reason"])).data}),
    "A registered player has not arrived (REG-09): the house's no-show policy applies.",
)
ArrivalView = _cashier_view(
    "ArrivalView", s.ArrivalSerializer,
    lambda d, a: Response({"entry": s.EntrySerializer(registration.mark_arrival(d["entry"], arrived=d["arrived"], actor=a,
                                                                                reason=d["reason"])).data}),
    "Mark a seated player as not arrived, or arrived after all (REG-09: under FORFEIT_AT without check-in, "
    "the players marked not arrived are out at the deadline).",
)


def _settle(d, a):
    row = get_object_or_404(LedgerRow, receipt_number=d["receipt_number"])
    return Response(s.LedgerRowSerializer(registration.settle_receivable(row, method=d["method"], actor=a)).data, status=201)


SettleView = _cashier_view(
    "SettleView", s.SettleSerializer, _settle,
    "The player pays an amount owed (REG-09): a SETTLEMENT ledger row pointing at the RECEIVABLE row, the money taken.",
)
ReenterView = _cashier_view(
    "ReenterView", s.SellEntrySerializer,
    lambda d, a: sale_response(cashier.reenter(d["tournament"], d["person"], method=d["method"], actor=a, jackpot=d["jackpot"],
                                                 tender_currency=d["tender_currency"], confirm_final_table=d["confirm_final_table"])),
    "Sell a re-entry to a busted player.",
)
RebuyView = _cashier_view(
    "RebuyView", s.RebuySerializer,
    lambda d, a: sale_response(cashier.rebuy(cashier.entry_at_desk(d["entry"], d.get("person")), method=d["method"], actor=a, stack=d.get("stack"),
                                               tender_currency=d["tender_currency"], confirm_final_table=d["confirm_final_table"]),
                               status.HTTP_201_CREATED),
    "Sell a rebuy.",
)
DeclareRebuyView = _cashier_view(
    "DeclareRebuyView", s.DeclareRebuySerializer,
    lambda d, a: Response({"entry": s.EntrySerializer(cashier.declare_rebuy(d["entry"], actor=a, stack=d.get("stack"))).data},
                          status=status.HTTP_201_CREATED),
    "Record a rebuy the player declared before the hand (FMT-04, TDA 27): he is bound to it; the desk collects it "
    "with cashier/rebuy/.",
)
AddonView = _cashier_view(
    "AddonView", s.DeskEntrySerializer,
    lambda d, a: sale_response(cashier.addon(cashier.entry_at_desk(d["entry"], d.get("person")), method=d["method"], actor=a, tender_currency=d["tender_currency"])),
    "Sell the add-on.",
)


def _reverse(d, a):
    row = get_object_or_404(LedgerRow, receipt_number=d["receipt_number"])
    return Response(s.LedgerRowSerializer(cashier.reverse(row, reason=d["reason"], actor=a)).data, status=201)


ReverseView = _cashier_view("ReverseView", s.ReverseSerializer, _reverse, "Reverse a ledger row with a reason.")
RefundView = _cashier_view(
    "RefundView", s.RefundSerializer,
    lambda d, a: Response(s.LedgerRowSerializer(cashier.refund(d["entry"], reason=d["reason"], actor=a, expenses=d["expenses"], method=d["method"],
                                                                reference=d["reference"])).data, status=201),
    "Refund an entry minus expenses (director).",
)
RefundDuePayView = _cashier_view(
    "RefundDuePayView", s.RefundDuePaySerializer,
    lambda d, a: Response(s.LedgerRowSerializer(cashier.pay_refund(d["entry"], method=d["method"], actor=a, reference=d["reference"])).data,
                          status=201),
    "Hand out one refund of a cancelled tournament (FMT-02): the whole amount paid, on this cashier's shift; cash only within "
    "the cash limit (REG-06, 409 cash_limit_exceeded: a cheque or transfer with its reference). Paid once (409 no_refund_due).",
)
AddAlternateView = _cashier_view(
    "AddAlternateView", s.AlternateInputSerializer,
    lambda d, a: Response(s.AlternateSerializer(cashier.add_alternate(d["tournament"], d["person"], actor=a)).data, status=201),
    "Put a player on the alternates list.",
)
AdmitAlternateView = _cashier_view(
    "AdmitAlternateView", s.AdmitAlternateSerializer,
    lambda d, a: sale_response(cashier.admit_alternate(d["tournament"], method=d["method"], actor=a,
                                                         tender_currency=d["tender_currency"])),
    "Sell the freed place to the first alternate.",
)


class ExchangeRatesView(APIView):
    """REG-06: the exchange rates of a day (``?date=YYYY-MM-DD``, default today; the latest per
    currency counts) and, for the cashiers' supervisor, setting today's rate."""

    permission_classes = [HasRole]

    @extend_schema(parameters=[OpenApiParameter("date", str)], responses=s.ExchangeRateSerializer(many=True))
    def get(self, request):
        raw = request.query_params.get("date", "")
        try:
            day = parse_date(raw) if raw else timezone.localdate()
        except ValueError:
            day = None
        if day is None:
            raise DomainError("bad_date", _("Give the date as YYYY-MM-DD."), status=400)
        return Response(s.ExchangeRateSerializer(selectors.exchange_rates_of(day), many=True).data)

    @extend_schema(request=s.ExchangeRateInputSerializer, responses={201: s.ExchangeRateSerializer})
    def post(self, request):
        d = _valid(s.ExchangeRateInputSerializer, request)
        row = cashier.set_exchange_rate(d["currency"], d["rate"], base=d["base_currency"], actor=Actor.from_request(request))
        return Response(s.ExchangeRateSerializer(row).data, status=201)


@extend_schema(request=s.EntryActionSerializer, responses={200: OpenApiTypes.OBJECT})
class CancelReservationView(CashierView):
    input_serializer = s.EntryActionSerializer

    def perform(self, d, a):
        return Response({"entry": s.EntrySerializer(cashier.cancel_reservation(d["entry"], actor=a)).data})


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
        return Response({"tournament": t.pk, "declared": selectors.declared_rebuys(t)})


class RefundsDueView(APIView):
    """FMT-02: a cancelled tournament's refunds still to hand out at the desk (every entry that had
    paid when it was cancelled, until a cashier pays it with ``cashier/refunds-due/pay/``)."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        t = get_object_or_404(Tournament, pk=pk)
        return Response({"tournament": t.pk, "status": t.status,
                         "refunds": [{**r, "amount": str(r["amount"])} for r in selectors.refunds_due(t)]})


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

    @extend_schema(parameters=[OpenApiParameter("entry", int, required=True)],
                   responses={200: inline_serializer("CheckInDocument", {"person": serializers.IntegerField(),
                                                                         "document_id": serializers.CharField()})})
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


class ShiftView(APIView):
    """The signed-in cashier's totals for today, by payment method in the tournament's currency,
    then the foreign notes (REG-06) by currency: ``amount`` in that currency, ``value`` at the
    sale's rate (not inside the "CASH" line); ``total`` adds up every line's value."""

    permission_classes = [HasRole]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        totals = cashier.shift_totals(request.user)
        return Response({**totals, "total": str(totals["total"]), "by_method": [{**m, "total": str(m["total"])} for m in totals["by_method"]],
                         "foreign": [{**f, "amount": str(f["amount"]), "value": str(f["value"])} for f in totals["foreign"]]})


class SalesView(APIView):
    """The signed-in cashier's last sales (``?tournament=`` one tournament; ``?limit=``, at most
    50), newest first: the desk's "Last sales", reversible from there after a reload."""

    permission_classes = [HasRole]

    @extend_schema(parameters=[OpenApiParameter("tournament", int), OpenApiParameter("limit", int)], responses=s.SaleSerializer(many=True))
    def get(self, request):
        tid = query_int(request, "tournament")
        t = get_object_or_404(Tournament, pk=tid) if tid is not None else None
        rows = selectors.last_sales(request.user, t, limit=query_limit(request, 15, maximum=50))
        return Response(s.SaleSerializer(rows, many=True).data)


class ReceiptView(APIView):
    permission_classes = [HasRole]

    @extend_schema(responses=s.LedgerRowSerializer)
    def get(self, request, number):
        row = get_object_or_404(LedgerRow, receipt_number=number)
        return Response(s.LedgerRowSerializer(row, context={"request": request}).data)


class TournamentTemplateViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Saved tournament templates: list, read, and a new tournament from one."""
    permission_classes = [HasRole]
    serializer_class = s.TournamentTemplateSerializer
    queryset = TournamentTemplate.objects.select_related("structure", "source")
    pagination_class = None

    @extend_schema(request=s.CopySerializer, responses={201: s.TournamentSerializer})
    @action(detail=True, methods=["post"], url_path="create-tournament")
    def create_tournament(self, request, pk=None):
        d = _valid(s.CopySerializer, request)
        t = setup.create_from_template(self.get_object(), name=d["name"], start_at=d["start_at"], actor=Actor.from_request(request),
                                       override_reason=d["override_reason"])
        return Response(s.TournamentSerializer(t, context={"request": request}).data, status=status.HTTP_201_CREATED)


class EntryViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    permission_classes = [HasRole]
    serializer_class = s.EntrySerializer
    queryset = Entry.objects.select_related("person")


CLOCK_OPS = {
    # op: function(t, data, actor); who may take it: tdmanager.policy
    "start": lambda t, d, a: clockctl.start_clock(t, actor=a),
    "pause": lambda t, d, a: clockctl.pause(t, actor=a, reason=d["reason"]),
    "resume": lambda t, d, a: clockctl.resume(t, actor=a, reason=d["reason"]),
    "add-time": lambda t, d, a: clockctl.add_time(t, _need(d, "seconds"), actor=a, reason=d["reason"]),
    "set-time": lambda t, d, a: clockctl.set_time_left(t, _need(d, "seconds"), actor=a, reason=d["reason"]),
    "jump": lambda t, d, a: clockctl.jump_to(t, _need(d, "item_index"), actor=a, reason=d["reason"], seconds_left=d.get("seconds")),
    "insert-break": lambda t, d, a: clockctl.insert_break(t, _need(d, "minutes"), actor=a, reason=d["reason"], color_up=d["color_up"]),
    "finish": lambda t, d, a: clockctl.finish_clock(t, actor=a, reason=d["reason"]),
    "hand-for-hand": lambda t, d, a: clockctl.start_hand_for_hand(t, actor=a, seconds_per_hand=d.get("seconds_per_hand"), reason=d["reason"]),
    "end-hand-for-hand": lambda t, d, a: clockctl.end_hand_for_hand(t, actor=a, reason=d["reason"]),
    "next-hand": lambda t, d, a: clockctl.h4h_next_hand(t, actor=a),
    "call-clock": lambda t, d, a: clockctl.call_the_clock(t, _need(d, "table"), actor=a, preset=d.get("preset"), seconds=d.get("seconds"),
                                                          entry=d.get("entry"), player=d["player"]),
    "call-time": lambda t, d, a: clockctl.set_player_clock_call_time(t, _need(d, "entry"), d.get("seconds"), actor=a, preset=d.get("preset"),
                                                                     reason=d["reason"]),
}


def _need(data, key):
    if data.get(key) is None:
        raise DomainError("missing_field", _("This action needs '%(f)s'.") % {"f": key}, status=400)
    return data[key]


class ClockView(APIView):
    """GET the live snapshot; POST ``/clock/<op>/`` for a director (or floor: hand-complete) action."""

    permission_classes = [HasRole]
    op_names = tuple(CLOCK_OPS)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk, op=None):
        data = build_snapshot(get_object_or_404(Tournament, pk=pk))
        labels.name_games(data["clock"])  # FMT-16: the level's game in the reader's language
        return Response(data)

    @extend_schema(request=s.ClockActionSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk, op=None):
        if op not in CLOCK_OPS:
            raise DomainError("unknown_action", _("Unknown clock action."), status=404)
        fn = CLOCK_OPS[op]
        data = _valid(s.ClockActionSerializer, request)
        t = get_object_or_404(Tournament, pk=pk)
        result = fn(t, data, Actor.from_request(request))

        if op in ("call-clock", "call-time"):
            return Response(result)
        data = build_snapshot(t)
        labels.name_games(data["clock"])
        if isinstance(result, dict):
            data["hand_report"] = result
        return Response(data)


class DisplayScreenViewSet(viewsets.ModelViewSet):
    permission_classes = [HasRole]
    serializer_class = s.DisplayScreenSerializer

    def get_queryset(self):
        return DisplayScreen.objects.all().order_by("name")

    def perform_create(self, serializer):
        serializer.instance = screens.create_screen(serializer.validated_data, actor=Actor.from_request(self.request))

    def perform_update(self, serializer):
        serializer.instance = screens.update_screen(serializer.instance, serializer.validated_data, actor=Actor.from_request(self.request))

    def perform_destroy(self, instance):
        screens.delete_screen(instance, actor=Actor.from_request(self.request))

    @extend_schema(request=None, responses=s.DisplayScreenSerializer)
    @action(detail=True, methods=["post"], url_path="revoke-token")
    def revoke_token(self, request, pk=None):
        """The screen's link stops working at once (page, state, stream); a new one with ``rotate-token``."""
        return Response(s.DisplayScreenSerializer(screens.revoke_screen_token(self.get_object(), actor=Actor.from_request(request))).data)

    @extend_schema(request=None, responses=s.DisplayScreenSerializer)
    @action(detail=True, methods=["post"], url_path="rotate-token")
    def rotate_token(self, request, pk=None):
        """A new link for the screen (``token``, ``url``); the old one stops working at once."""
        return Response(s.DisplayScreenSerializer(screens.rotate_screen_token(self.get_object(), actor=Actor.from_request(request))).data)


class ChipSetViewSet(viewsets.ModelViewSet):
    permission_classes = [HasRole]
    serializer_class = s.ChipSetSerializer

    def get_queryset(self):
        return ChipSet.objects.prefetch_related("denominations")

    def perform_create(self, serializer):
        d = serializer.validated_data
        serializer.instance = chipsets.save_chip_set(name=d["name"], denominations=d["denominations"], actor=Actor.from_request(self.request))

    def perform_update(self, serializer):
        d = serializer.validated_data
        serializer.instance = chipsets.save_chip_set(name=d.get("name"), denominations=d.get("denominations"), chip_set=serializer.instance,
                                                     actor=Actor.from_request(self.request))

    def perform_destroy(self, instance):
        chipsets.delete_chip_set(instance, actor=Actor.from_request(self.request))


class FloorView(APIView):
    """Chips in play, counts, races and penalties of one tournament (floor and director)."""

    permission_classes = [HasRole]
    op_names = ("penalties", "adjust", "counts", "race", "color-up")
    read_op_names = ("penalties",)  # GET /floor/ (or /floor/chips/) is the chips summary
    op_responses = {"GET": s.PenaltySerializer(many=True)}  # GET /floor/penalties/ (?all=1: past ones too)

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk, op=None):
        t = get_object_or_404(Tournament, pk=pk)
        if op == "penalties":
            qs = t.penalties.select_related("person", "entry") if request.query_params.get("all") else floor.active_penalties(t)
            return Response(s.PenaltySerializer(qs, many=True).data)
        if op not in (None, "chips"):
            raise DomainError("unknown_action", _("Unknown floor action."), status=404)
        return Response({
            "chips_in_play": floor.chips_in_play(t),
            "counts": floor.chip_count_summary(t),
            "adjustments": list(t.chip_adjustments.order_by("-id").values("id", "kind", "chips", "reason", "entry", "created_at")[:100]),
            "stack_check": floor.stack_check(t),
            "color_up_suggestions": floor.color_up_suggestions(t),
            "race_denomination": floor.race_denomination(t),  # the chip race form's "chip removed"
        })

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk, op=None):
        t = get_object_or_404(Tournament, pk=pk)
        actor = Actor.from_request(request)
        if op == "penalties":
            ser = s.IssuePenaltySerializer(data=request.data)
            ser.is_valid(raise_exception=True)
            d = dict(ser.validated_data)
            p = floor.issue_penalty(t, d.pop("entry"), actor=actor, **d)
            return Response(s.PenaltySerializer(p).data, status=201)
        if op == "adjust":
            ser = s.ChipAdjustSerializer(data=request.data)
            ser.is_valid(raise_exception=True)
            d = ser.validated_data
            adj = floor.remove_chips(t, chips=d["chips"], kind=d["kind"], reason=d["reason"], actor=actor, entry=d.get("entry"))
            return Response({"id": adj.pk, "chips": adj.chips, "chips_in_play": floor.chips_in_play(t)}, status=201)
        if op == "counts":
            ser = s.ChipCountsSerializer(data=request.data)
            ser.is_valid(raise_exception=True)
            return Response(floor.record_chip_counts(t, ser.validated_data["counts"], occasion=ser.validated_data["occasion"], actor=actor), status=201)
        if op == "color-up":  # CR-05: a discretionary colour-up of a player or a table, announced and logged
            d = _valid(s.ColorUpSerializer, request)
            return Response(floor.discretionary_color_up(t, from_denomination=d["from_denomination"], to_denomination=d["to_denomination"],
                                                         table=d.get("table"), entry=d.get("entry"), note=d["note"], actor=actor), status=201)
        if op == "race":
            ser = s.ChipRaceSerializer(data=request.data)
            ser.is_valid(raise_exception=True)
            d = ser.validated_data
            rec = floor.run_chip_race(t, d["table"], d["players"], removed_denomination=d["removed_denomination"], new_denomination=d["new_denomination"],
                                      winners=d.get("winners"), lowest_denomination_in_play=d.get("lowest_denomination_in_play"),
                                      last_hand_small_blind_seat=d.get("last_hand_small_blind_seat"), actor=actor)
            return Response({"id": rec.pk, "mode": rec.mode, "result": rec.result, "chips_in_play": floor.chips_in_play(t)}, status=201)
        raise DomainError("unknown_action", _("Unknown floor action."), status=404)


class PenaltyActionView(APIView):
    permission_classes = [HasRole]
    op_names = ("serve", "cancel")

    @extend_schema(request=s.PenaltyActionSerializer, responses=s.PenaltySerializer)
    def post(self, request, pk, op):
        p = get_object_or_404(Penalty, pk=pk)
        actor = Actor.from_request(request)
        if op == "serve":
            p = floor.serve_hands(p, actor=actor, hands=_valid(s.PenaltyActionSerializer, request)["hands"])
        elif op == "cancel":
            p = floor.cancel_penalty(p, actor=actor, reason=_valid(s.PenaltyActionSerializer, request)["reason"])
        else:
            raise DomainError("unknown_action", _("Unknown penalty action."), status=404)
        return Response(s.PenaltySerializer(p).data)


class PersonPenaltiesView(APIView):
    """A person's penalty history across tournaments (for escalation)."""

    permission_classes = [HasRole]

    @extend_schema(responses=s.PenaltySerializer(many=True))
    def get(self, request, pk):
        return Response(s.PenaltySerializer(selectors.penalty_history(get_object_or_404(Person, pk=pk)), many=True).data)
