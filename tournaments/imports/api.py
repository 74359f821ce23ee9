"""Imports and exports of sheets (a director): people, blind structures, payout tables, league
results, by kind (``tournaments.imports.rules``). The file is sent with each call (multipart ``file``):
``…/preview/`` says what the import would do and writes nothing; the import itself writes all
the accepted rows or nothing (``imports.services.run_import``)."""

import json

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from tdmanager import bodylimits, downloads, sheets, uploads
from tdmanager.api import query_choice
from tdmanager.errors import ValidationFailed
from tdmanager.fields import TextField
from tdmanager.roles import HasRole
from tournaments.eventlog.services import Actor

from ..api.base import validated_body
from . import rules as importing
from . import services as imports


class SheetImportSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text="a CSV (UTF-8 or Windows-1252; ; , or tab) or an XLSX; for td3, a TD3 save file (.tdt) or a .zip of them, the part repeated for several"
    )
    mapping = TextField(
        max_length=20000, required=False, allow_blank=True, help_text='the field read from each column, a JSON list ("" = not read); default: by the headers'
    )
    options = TextField(max_length=2000, required=False, allow_blank=True, help_text='the kind\'s options, a JSON object (e.g. {"name": "Deep"})')
    skip_refused = serializers.BooleanField(required=False, default=False, help_text="import the accepted rows, leaving the refused ones out")
    accept_duplicates = serializers.BooleanField(required=False, default=False, help_text="import possible duplicates not chosen in choices as new")
    choices = TextField(
        max_length=20000,
        required=False,
        allow_blank=True,
        help_text='each possible duplicate by its row, a JSON object ({"12": "new", "14": "skip", "15": "301"}: the id of the record it is)',
    )


def _json_field(d: dict, name: str, kind):
    raw = d.get(name) or ""
    if not raw:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        value = None
    if not isinstance(value, kind) or (kind is list and not all(isinstance(v, str) for v in value)):
        what = _("a list of field names") if kind is list else _("an object of names and values")
        raise ValidationFailed("invalid", _("%(field)s: expected %(what)s in JSON.") % {"field": name, "what": what}, field=name)
    return value


def _read(request, kind):
    importer = imports.check_kind(kind)
    d = validated_body(SheetImportSerializer, request)
    sent = request.FILES.getlist("file") if importer.several else [d["file"]]
    if sum(upload.size for upload in sent) > sheets.MAX_FILE:
        raise ValidationFailed("file_too_large", _("The file is larger than %(mb)s MB.") % {"mb": sheets.MAX_FILE // (1024 * 1024)}, field="file")
    try:
        name, data = importer.combine([(upload.name or "", upload.read()) for upload in sent])
    except importing.Refused as exc:
        raise ValidationFailed("bad_file", exc.reason, field="file") from None
    return d, data, name


class ImportPreviewView(APIView):
    """``POST`` (multipart ``file``, ``mapping``?, ``options``?): what importing the file would do —
    the headers, the field read from each column, the counts (created, updated, unchanged,
    duplicate, refused) and each row that is not unchanged with its row number, its changes, its
    look-alikes or its reason. Writes nothing."""

    permission_classes = [HasRole]
    parser_classes = [MultiPartParser]

    @extend_schema(request=SheetImportSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request, kind):
        with uploads.reading(request, bodylimits.SHEET):  # before the body is read: it is most of the cost
            d, data, name = _read(request, kind)
            p = imports.preview(kind, data, name, mapping=_json_field(d, "mapping", list), options=_json_field(d, "options", dict))
            return Response(imports.preview_data(p))


class ImportView(APIView):
    """``POST`` (multipart ``file``, ``mapping``?, ``options``?, ``skip_refused``?,
    ``accept_duplicates``?, ``choices``?): import the file — every accepted row, or nothing. 201
    with the counts; 409 ``rows_refused`` with the refused rows (row number and reason) when a row
    is refused and ``skip_refused`` is not set, 409 ``duplicate_document`` when a new person would
    hold another's document: nothing was written."""

    permission_classes = [HasRole]
    parser_classes = [MultiPartParser]

    @extend_schema(request=SheetImportSerializer, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, kind):
        with uploads.reading(request, bodylimits.SHEET):
            d, data, name = _read(request, kind)
            p = imports.run_import(
                kind,
                data,
                name,
                actor=Actor.from_request(request),
                mapping=_json_field(d, "mapping", list),
                options=_json_field(d, "options", dict),
                skip_refused=d["skip_refused"],
                accept_duplicates=d["accept_duplicates"],
                choices=_json_field(d, "choices", dict),
            )
            return Response({"kind": kind, "counts": p.counts(), "refused": imports.refusals(p)}, status=201)


class ExportView(APIView):
    """``GET ?format_type=csv|xlsx`` and the kind's options as query parameters: the kind's sheet, with
    the headers its import reads (an export comes back in as it went out). Formula-safe."""

    permission_classes = [HasRole]

    @extend_schema(parameters=[OpenApiParameter("format_type", str, enum=list(sheets.FORMATS))], responses={(200, "text/csv"): OpenApiTypes.BINARY})
    def get(self, request, kind):
        importer = imports.check_kind(kind)
        if not importer.exports:
            raise ValidationFailed("no_export", _("This kind of import has no export."), field="kind")
        fmt = query_choice(request, "format_type", sheets.FORMATS, sheets.CSV)
        options = {name: request.query_params[name] for name in importer.options if name in request.query_params}
        try:
            data, filename = importing.export_file(kind, fmt, options)
        except importing.Refused as exc:
            raise ValidationFailed("invalid", exc.reason, field="options") from None
        answer = HttpResponse(data, content_type=sheets.CONTENT_TYPES[fmt])
        answer["Content-Disposition"] = downloads.attachment(filename)
        return answer
