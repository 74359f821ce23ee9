"""REST API of the people desk: players, their documents, bans, export and erasure."""

import json

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from tdmanager.api import body_object, query_limit
from tdmanager.roles import HasRole
from tournaments.api.base import validated_body
from tournaments.eventlog.services import Actor
from tournaments.models import Person
from tournaments.people import privacy
from tournaments.people import services as people
from tournaments.people.serializers import BanSerializer, EraseSerializer, PersonCreateSerializer, PersonSerializer


class PersonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """People: ``?q=`` searches any part of name, nickname, phone or e-mail, and the whole
    document number for a cashier or a director (``people.search_people``)."""

    permission_classes = [HasRole]
    serializer_class = PersonSerializer

    def get_queryset(self):
        q = self.request.query_params.get("q", "").strip()
        if q and self.action == "list":
            return people.search_people(q, limit=query_limit(self.request, 20, maximum=100), reader=self.request.user)
        return Person.objects.all()

    def paginate_queryset(self, queryset):
        if self.request.query_params.get("q"):
            return None
        return super().paginate_queryset(queryset)

    @extend_schema(request=PersonCreateSerializer, responses=PersonSerializer)
    def create(self, request):
        ser = PersonCreateSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        data = dict(ser.validated_data)
        confirm = data.pop("confirm_duplicate", False)
        person = people.create_person(actor=Actor.from_request(request), confirm_duplicate=confirm, **data)
        return Response(PersonSerializer(person).data, status=201)

    def update(self, request, *args, **kwargs):
        """Rectification: the fields sent are corrected through ``people.update_person``, which logs
        each change (old → new; the document number as changed, without its values)."""
        ser = self.get_serializer(self.get_object(), data=body_object(request), partial=kwargs.pop("partial", False))
        ser.is_valid(raise_exception=True)
        person = people.update_person(ser.instance, actor=Actor.from_request(request), **ser.validated_data)
        return Response(PersonSerializer(person).data)

    @extend_schema(
        request=None,
        responses={200: inline_serializer("PersonDocument", {"person": serializers.IntegerField(), "document_id": serializers.CharField()})},
        description="A director reveals the whole identity document number (lists show it masked); logged "
        "(people.document.viewed: who viewed whose document, when).",
    )
    @action(detail=True, methods=["post"])
    def document(self, request, pk=None):
        person = self.get_object()
        return Response({"person": person.pk, "document_id": privacy.reveal_document(person, actor=Actor.from_request(request))})

    @extend_schema(request=BanSerializer, responses=PersonSerializer)
    @action(detail=True, methods=["post"])
    def ban(self, request, pk=None):
        ser = BanSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        person = people.set_banned(self.get_object(), ser.validated_data["banned"], ser.validated_data["reason"], actor=Actor.from_request(request))
        return Response(PersonSerializer(person).data)

    @extend_schema(
        responses={(200, "application/json"): OpenApiTypes.OBJECT},
        description="GDPR access (director): everything held about the person as a JSON file; the export is logged.",
    )
    @action(detail=True, methods=["get"])
    def export(self, request, pk=None):
        data = privacy.export_person(self.get_object(), actor=Actor.from_request(request))
        response = HttpResponse(json.dumps(data, indent=2, ensure_ascii=False, default=str), content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="person-{data["person"]["id"]}.json"'
        return response

    @extend_schema(
        request=EraseSerializer,
        responses=PersonSerializer,
        description="GDPR erasure (director): personal fields cleared, the name a pseudonym; receipts, ledger and places "
        "keep their numbers. 409 person_in_play / person_owes_money / person_refund_due / person_prize_due / person_bounty_due.",
    )
    @action(detail=True, methods=["post"])
    def erase(self, request, pk=None):
        reason = validated_body(EraseSerializer, request)["reason"]
        person = privacy.erase_person(self.get_object(), reason, actor=Actor.from_request(request))
        return Response(PersonSerializer(person).data)
