"""The import pages (a director): what can be brought in and taken out, a sheet uploaded, its
columns mapped, its preview, the confirmation. Thin: the upload is kept (``imports.services.
keep_file``) so any web process serves the next step; the preview is made again from it at each
look (the stored people may have changed meanwhile), and the import itself compares again under
its lock."""

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tdmanager import bodylimits, downloads, errorpages, sheets, uploads
from tdmanager.errors import DomainError
from tournaments.eventlog.services import Actor

from ..models import ImportFile
from . import rules as importing
from . import services as imports

#: rows of each kind listed on the preview page (the counts are whole; the refused rows are all in their file)
LISTED = 300


def _importer(kind: str) -> importing.Importer:
    importer = importing.get(kind)
    if importer is None:
        raise Http404
    return importer


def _kinds():
    return [(k.kind, _(k.title)) for k in importing.kinds()]


def imports_page(request):
    return render(request, "imports.html", {"kinds": _kinds()})


def _choices(importer) -> list[dict]:
    """Each option with its label and, where the kind lists them, its choices. A list with no
    choice of none (a league) must be chosen: it opens on a line that chooses nothing, and the
    browser keeps the file and asks for the choice instead of sending the form without it. An
    empty list (no league yet) is said, and nothing can be sent."""
    out = []
    for name, label in importer.options.items():
        choices = importer.option_choices(name)
        out.append(
            {
                "name": name,
                "label": _(label),
                "choices": choices,
                "required": bool(choices) and all(value for value, _shown in choices),
                "none_yet": choices == [],
            }
        )
    return out


def upload_page(request, kind):
    importer = _importer(kind)
    if request.method == "POST":
        sent = request.FILES.getlist("file") if importer.several else request.FILES.getlist("file")[:1]
        options = {name: request.POST.get(name, "").strip() for name in importer.options if request.POST.get(name, "").strip()}
        try:
            with uploads.reading(request, bodylimits.SHEET):
                if not sent:
                    raise DomainError("file_required", _("Choose a file to import."), status=400)
                if sum(upload.size for upload in sent) > sheets.MAX_FILE:
                    raise DomainError("file_too_large", _("The file is larger than %(mb)s MB.") % {"mb": sheets.MAX_FILE // (1024 * 1024)}, status=400)
                try:
                    name, data = importer.combine([(upload.name or "", upload.read()) for upload in sent])
                except importing.Refused as exc:
                    raise DomainError("bad_file", exc.reason, status=400) from None
                kept = imports.keep_file(kind, data, name, actor=Actor.from_request(request), options=options)
        except DomainError as exc:
            messages.error(request, str(exc.message))
            return redirect("imports-upload", kind=kind)
        return redirect("imports-preview", kind=kind, pk=kept.pk)
    return render(
        request,
        "import_upload.html",
        {
            "kind": kind,
            "title": _(importer.title),
            "columns": [(_(c.label), c.required) for c in importer.columns],
            "options": (options := _choices(importer)),
            "blocked": any(o["none_yet"] for o in options),
            "files_kind": importer.reads_files,
            "several": importer.several,
            "accept": importer.accept,
            "exports": importer.exports,
        },
    )


def _kept(request, kind, pk) -> ImportFile:
    return get_object_or_404(ImportFile, pk=pk, kind=kind, created_by=request.user)


def preview_page(request, kind, pk):
    importer = _importer(kind)
    kept = _kept(request, kind, pk)
    if request.method == "POST":
        return _confirm(request, kind, kept)
    if kept.imported_at is not None:
        return render(request, "import_done.html", {"kind": kind, "title": _(importer.title), "kept": kept, "counts": _counted(kept.result, done=True)})
    try:
        with uploads.reading(request, bodylimits.SHEET):  # each look reads the kept file anew: one at a time, as an upload
            try:
                p = imports.preview(kind, bytes(kept.data), kept.filename, mapping=kept.mapping or None, options=kept.options)
            except DomainError as exc:
                if exc.code != "bad_mapping":
                    raise
                messages.error(request, str(exc.message))  # a mapping that cannot be used: shown with the mapping to change
                p = imports.preview(kind, bytes(kept.data), kept.filename, mapping=None, options=kept.options)
    except DomainError as exc:
        if exc.code == "busy":
            return _busy(request, exc)
        messages.error(request, str(exc.message))
        return redirect("imports-upload", kind=kind)
    groups = []
    for status in (importing.REFUSED, importing.DUPLICATE, importing.UPDATED, importing.CREATED):
        rows = [r for r in p.rows if r.status == status]
        if rows:
            groups.append({"status": status, "label": importing.status_label(status), "rows": rows[:LISTED], "more": max(0, len(rows) - LISTED)})
    for group in groups:
        for r in group["rows"]:
            r.shown = [(importer.label(f), sheets.text(v)) for f, v in r.cells.items() if sheets.text(v)]
            r.shown_changes = [(importer.label(f), _shown(o), _shown(n)) for f, (o, n) in r.changes.items()]
    fields = [("", _("— not read —"))] + [(c.field, _(c.label)) for c in importer.columns]
    return render(
        request,
        "import_preview.html",
        {
            "kind": kind,
            "title": _(importer.title),
            "kept": kept,
            "columns": list(zip(p.headers, p.mapping)),
            "fields": fields,
            "counts": _counted(p.counts()),
            "groups": groups,
            "refused": len(p.refused()),
            "duplicates": p.counts()[importing.DUPLICATE],
            "writes": p.counts()[importing.CREATED] + p.counts()[importing.UPDATED],
            "files_kind": importer.reads_files,
            "files": [{**f, "status_label": importing.status_label(f["status"])} for f in p.files],
        },
    )


def _shown(value) -> str:
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    return sheets.text(value)


def _counted(counts: dict, *, done: bool = False) -> list:
    return [(status, importing.status_label(status, done=done), counts.get(status, 0)) for status in importing.STATUSES]


def _confirm(request, kind, kept):
    importer = _importer(kind)
    op = request.POST.get("op")
    if op == "mapping":
        fields = {c.field for c in importer.columns}
        headers = len(kept.mapping) or len(request.POST.getlist("column"))
        mapping = [f if f in fields else "" for f in request.POST.getlist("column")][:headers]
        imports.set_mapping(kept, mapping)
        return redirect("imports-preview", kind=kind, pk=kept.pk)
    try:
        with uploads.reading(request, bodylimits.SHEET):
            p = imports.import_kept(
                kept,
                actor=Actor.from_request(request),
                skip_refused=request.POST.get("skip_refused") == "1",
                accept_duplicates=request.POST.get("accept_duplicates") == "1",
                choices={k.removeprefix("choice-"): v for k, v in request.POST.items() if k.startswith("choice-") and v},
            )
    except DomainError as exc:
        messages.error(request, str(exc.message))
        if exc.code == "duplicate_document":  # which row, and whose document: the director decides
            for refusal in exc.extra.get("refused", [])[:LISTED]:
                messages.error(request, _("Row %(n)s: %(reason)s") % {"n": refusal["row"], "reason": refusal["reason"]})
        return redirect("imports-preview", kind=kind, pk=kept.pk)
    c = p.counts()
    messages.success(
        request,
        _("Imported: %(created)s added, %(updated)s updated, %(unchanged)s already in, %(left)s left out.")
        % {
            "created": c[importing.CREATED],
            "updated": c[importing.UPDATED],
            "unchanged": c[importing.UNCHANGED],
            "left": c[importing.DUPLICATE] + c[importing.REFUSED],
        },
    )
    return redirect("imports-preview", kind=kind, pk=kept.pk)


def refused_rows(request, kind, pk, fmt):
    _importer(kind)
    if fmt not in sheets.FORMATS:
        raise Http404
    kept = _kept(request, kind, pk)
    try:
        with uploads.reading(request, bodylimits.SHEET):
            p = imports.preview(kind, bytes(kept.data), kept.filename, mapping=kept.mapping or None, options=kept.options)
            return _file(importing.refused_sheet(p, fmt), f"{kind}-refused.{fmt}", fmt)
    except DomainError as exc:
        if exc.code == "busy":
            return _busy(request, exc)
        messages.error(request, str(exc.message))
        return redirect("imports-upload", kind=kind)


def _busy(request, exc: DomainError) -> HttpResponse:
    """Another sheet is being read in this process: the product's 503 page says so, asked again
    in a moment (``Retry-After``)."""
    return errorpages.busy_page(request, str(exc.message))


def export(request, kind, fmt):
    importer = _importer(kind)
    if fmt not in sheets.FORMATS or not importer.exports:
        raise Http404
    options = {name: request.GET[name] for name in importer.options if request.GET.get(name)}
    try:
        data, filename = importing.export_file(kind, fmt, options)
    except importing.Refused as exc:
        messages.error(request, exc.reason)
        return redirect("imports-upload", kind=kind)
    return _file(data, filename, fmt)


def _file(data: bytes, filename: str, fmt: str) -> HttpResponse:
    answer = HttpResponse(data, content_type=sheets.CONTENT_TYPES[fmt])
    answer["Content-Disposition"] = downloads.attachment(filename)
    return answer
