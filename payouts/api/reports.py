"""The payouts' reports (JSON, CSV or PDF) and the event's results sheet (CSV or a spreadsheet)."""

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response

from tdmanager import sheets
from tdmanager.api import query_choice
from tdmanager.errors import DomainError

from .. import reports, results_sheet
from .common import Base, _t


class ResultsSheetView(Base):
    """The event's results for the club's site and the tour's ranking: place, the player's name as
    public pages show it, prize, other prizes and, in a bounty event, bounties; ``?format_type=csv``
    (the default) or ``xlsx`` (formula-safe)."""

    @extend_schema(
        parameters=[OpenApiParameter("format_type", str, enum=list(sheets.FORMATS))],
        responses={(200, "text/csv"): OpenApiTypes.STR, (200, sheets.XLSX_TYPE): OpenApiTypes.BINARY},
    )
    def get(self, request, pk):
        t = _t(pk)
        fmt = query_choice(request, "format_type", sheets.FORMATS, sheets.CSV)
        data, name = results_sheet.results_file(t, fmt)
        resp = HttpResponse(data, content_type=sheets.CONTENT_TYPES[fmt])
        resp["Content-Disposition"] = f'attachment; filename="{name}"'
        return resp


class ReportView(Base):
    """``?format_type=json`` (default), ``csv`` or ``pdf``."""

    @extend_schema(
        parameters=[
            OpenApiParameter("name", str, OpenApiParameter.PATH, enum=sorted(reports.REPORTS)),
            OpenApiParameter("format_type", str, enum=["json", "csv", "pdf"]),
        ],
        responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/csv"): OpenApiTypes.STR, (200, "application/pdf"): OpenApiTypes.BINARY},
    )
    def get(self, request, pk, name):
        t = _t(pk)
        if not reports.is_report(t, name):
            raise DomainError("unknown_report", _("Unknown report."), status=404)
        report = reports.build(t, name)
        fmt = query_choice(request, "format_type", ("json", "csv", "pdf"), "json")
        if fmt == "csv":
            resp = HttpResponse(reports.to_csv(report), content_type="text/csv; charset=utf-8")
            resp["Content-Disposition"] = f'attachment; filename="{name}-{t.pk}.csv"'
            return resp
        if fmt == "pdf":
            resp = HttpResponse(reports.to_pdf(report), content_type="application/pdf")
            resp["Content-Disposition"] = f'inline; filename="{name}-{t.pk}.pdf"'
            return resp
        return Response(
            {
                **report,
                "columns": [str(c) for c in report["columns"]],
                "totals": [[str(a), str(b)] for a, b in report["totals"]],
                **({"signatures": [{"name": n, "role": r, "at": at} for n, r, at in report["signatures"]]} if "signatures" in report else {}),
            }
        )
