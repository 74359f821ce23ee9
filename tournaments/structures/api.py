"""REST API of blind structures: list, read, create, copy, import and export."""

import contextlib

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from tdmanager import bodylimits, uploads
from tdmanager.api import body_object, query_choice
from tdmanager.errors import DomainError
from tdmanager.roles import HasRole
from tournaments.eventlog.services import Actor
from tournaments.models import BlindStructure
from tournaments.structures import services as structures
from tournaments.structures.serializers import BlindStructureSerializer


class StructureViewSet(viewsets.ModelViewSet):
    permission_classes = [HasRole]
    serializer_class = BlindStructureSerializer
    queryset = BlindStructure.objects.prefetch_related("items")

    def _save(self, request, instance=None):
        ser = self.get_serializer(instance, data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        st = structures.save_structure(
            name=d["name"],
            description=d.get("description", ""),
            is_template=d.get("is_template", True),
            items=[dict(i) for i in d["items"]],
            actor=Actor.from_request(request),
            structure=instance,
            reason=d.get("reason", ""),
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

    @extend_schema(
        parameters=[OpenApiParameter("format_type", str, enum=["json", "csv"])],
        responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/csv"): OpenApiTypes.STR},
    )
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

    @extend_schema(
        request={"multipart/form-data": {"type": "object", "properties": {"file": {"type": "string", "format": "binary"}, "name": {"type": "string"}}}}
    )
    @action(detail=False, methods=["post"], url_path="import", parser_classes=[MultiPartParser])  # a file: the API's one form
    def import_(self, request):
        upload = request.FILES.get("file")
        if upload is None:
            raise DomainError("file_required", _("Attach a JSON or CSV file."), status=400)
        fmt = "csv" if upload.name.lower().endswith(".csv") else "json"
        # A CSV is read as every sheet is, in the process's one turn for a sheet (503 busy otherwise)
        with uploads.reading(request, bodylimits.SHEET) if fmt == "csv" else contextlib.nullcontext():
            data = structures.parse_import(upload.read(), fmt)
        name = body_object(request).get("name") or data.get("name") or upload.name.rsplit(".", 1)[0]
        st = structures.save_structure(name=name, description=data.get("description", ""), items=data["items"], actor=Actor.from_request(request))
        return Response(self.get_serializer(st).data, status=201)
