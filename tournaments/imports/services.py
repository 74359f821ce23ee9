"""Imports: a sheet's accepted rows written all together, or nothing.

``run_import`` is the one action behind the import page, the API and the management commands:
it takes the imports' lock (two imports run one after the other, so a person is not created
twice by two directors importing the same file), compares the file with what is stored under
that lock, refuses the whole file when a row is refused (unless told to leave the refused rows
out), writes the rest in the same transaction and logs one event with the counts.
"""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models.functions import Length
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tdmanager import compiled, sheets
from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.sheets import SheetError
from tdmanager.transactions import service
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event

from ..models import ImportFile, Sequence
from . import rules as importing

#: how long an uploaded sheet waits for its confirmation: it holds people's data, and the purge
#: (beat, every 10 minutes: ``tournaments.tasks.forget_import_files``) forgets it within the hour
KEPT_FOR = timedelta(minutes=50)
#: the sheets a director keeps waiting at once, and their bytes: a new upload past either makes
#: the oldest waiting ones forgotten (a director works on the file just uploaded; a refusal would
#: leave the director stuck behind files already given up)
KEPT_FILES = 5
KEPT_BYTES = 3 * sheets.MAX_FILE
#: refusals listed in an answer (the whole list is the refused rows' file)
LISTED = 200


def _lock() -> None:
    Sequence.objects.get_or_create(name="imports")
    Sequence.objects.select_for_update().get(name="imports")


def check_kind(kind: str) -> importing.Importer:
    importer = importing.get(kind)
    if importer is None:
        raise ValidationFailed("bad_kind", _("Unknown kind of import."), field="kind")
    return importer


def preview(kind: str, data: bytes, filename: str, *, mapping=None, options=None) -> importing.Preview:
    """What importing the file would do (reads only); refusals as ``ValidationFailed``."""
    check_kind(kind)
    try:
        return importing.preview(kind, data, filename, mapping=mapping, options=options)
    except SheetError as exc:
        raise ValidationFailed(exc.code, exc.detail, field="file") from None
    except importing.BadOptions as exc:
        raise ValidationFailed("bad_options", exc.reason, field="options") from None
    except importing.Refused as exc:
        raise ValidationFailed("bad_mapping", exc.reason, field="mapping") from None


def refusals(p: importing.Preview) -> list[dict]:
    return [{"row": r.line, "reason": r.reason} for r in p.refused()[:LISTED]]


@service
def run_import(
    kind: str,
    data: bytes,
    filename: str,
    *,
    actor: Actor,
    mapping=None,
    options=None,
    skip_refused: bool = False,
    accept_duplicates: bool = False,
    choices: dict | None = None,
) -> importing.Preview:
    """Import the file: every accepted row, or nothing.

    Refused rows refuse the whole file (409 ``rows_refused``, listing them) unless
    ``skip_refused``; possible duplicates are left out unless ``accept_duplicates`` (then created
    as new, as the desk does when told "it is another person"; a row that is an earlier row of
    the file again adds what it brings to that row's record instead: a room's sheet that lists
    one person twice makes one). A file whose every row is already in changes nothing and
    succeeds.

    ``choices`` decides each possible duplicate by its row: ``"new"`` (another person),
    ``"skip"`` (left out) or the id of the stored record it is (its cells go to that record);
    a row not chosen follows ``accept_duplicates``. A new record that would make two of what
    must be one (two people with one document) refuses the import, naming the row and whose it
    is (409 ``duplicate_document``): nothing is written."""
    importer = check_kind(kind)
    _lock()
    p = preview(kind, data, filename, mapping=mapping, options=options)
    refused = p.refused()
    if refused and not skip_refused:
        raise DomainError(
            "rows_refused",
            ngettext(
                "%(n)s row is refused: nothing was imported. Correct it, or import leaving it out.",
                "%(n)s rows are refused: nothing was imported. Correct them, or import leaving them out.",
                len(refused),
            )
            % {"n": len(refused)},
            refused=refusals(p),
            counts=p.counts(),
        )
    chosen = {str(k): str(v) for k, v in (choices or {}).items()}
    for row in p.rows:
        if row.status != importing.DUPLICATE:
            continue
        choice = chosen.get(str(row.line)) or ("new" if accept_duplicates else "skip")
        if choice == "skip":
            continue
        if choice == "new":
            row.status = importing.CREATED if row.same_as is None else importing.UPDATED if row.changes else importing.UNCHANGED
        elif not (choice.isdigit() and importer.take_as(row, int(choice))):
            raise ValidationFailed("bad_choice", _("Row %(n)s: choose a new record, leaving it out, or one it looks like.") % {"n": row.line}, field="choices")
    clashes = importer.clashes([r for r in p.rows if r.status == importing.CREATED])
    if clashes:
        raise DomainError(
            "duplicate_document",
            ngettext(
                "%(n)s row would make a second person with a document another holds: nothing was imported.",
                "%(n)s rows would make a second person with a document another holds: nothing was imported.",
                len(clashes),
            )
            % {"n": len(clashes)},
            refused=[{"row": r.line, "reason": why} for r, why in clashes],
        )
    accepted = [r for r in p.rows if r.status in (importing.CREATED, importing.UPDATED)]
    if importer.reads_files:  # whole files: every row (a player unchanged is still in its events)
        summary = importer.write(p.rows, p.options, actor) if accepted or any(r.status == importing.DUPLICATE for r in p.rows) else {}
    else:
        summary = importer.write(accepted, p.options, actor) if accepted else {}
    counts = p.counts()
    log_event(
        None,
        Action.IMPORT_DONE,
        actor,
        kind=kind,
        file=filename[:200],
        created=counts[importing.CREATED],
        updated=counts[importing.UPDATED],
        unchanged=counts[importing.UNCHANGED],
        left_out=counts[importing.DUPLICATE] + counts[importing.REFUSED],
        **summary,
    )
    return p


# --- the file kept between the preview and the confirmation ---------------------------------


@service
def keep_file(kind: str, data: bytes, filename: str, *, actor: Actor, options=None) -> ImportFile:
    """Keep an uploaded sheet for its preview; files older than ``KEPT_FOR`` go (they hold
    people's data), and so do the director's oldest waiting ones past ``KEPT_FILES`` or
    ``KEPT_BYTES`` (the new one always stays: it is at most ``sheets.MAX_FILE``).

    The row is written with its bytes as a bound parameter (``compiled.insert``: server-side
    binding on PostgreSQL). The ORM's own insert binds on the client: the statement's text then
    holds the file as hex, twice its size, and psycopg keeps the texts it has run on each
    connection to count them for preparing (``prepare_threshold``), 20 MB per upload of 10 MB
    left in every pooled connection."""
    check_kind(kind)
    get_user_model().objects.select_for_update().filter(pk=actor.user.pk).values_list("pk").first()  # one upload of his at a time: the bounds hold
    forget_old_files()
    kept = ImportFile(kind=kind, filename=filename[:200], data=data, options=options or {}, created_by=actor.user)
    compiled.insert([kept])
    waiting = ImportFile.objects.filter(created_by=actor.user, imported_at__isnull=True).annotate(size=Length("data"))
    count = total = 0
    dropped = []
    for pk, size in waiting.order_by("-created_at", "-pk").values_list("pk", "size"):
        count, total = count + 1, total + (size or 0)
        if pk != kept.pk and (count > KEPT_FILES or total > KEPT_BYTES):
            dropped.append(pk)
    if dropped:
        ImportFile.objects.filter(pk__in=dropped).delete()
    return kept


def forget_old_files() -> int:
    """Delete the uploaded sheets older than ``KEPT_FOR`` (imported or not); how many."""
    return ImportFile.objects.filter(created_at__lt=timezone.now() - KEPT_FOR).delete()[0]


@service
def set_mapping(upload: ImportFile, mapping: list[str]) -> ImportFile:
    upload = ImportFile.objects.select_for_update().get(pk=upload.pk)
    upload.mapping = mapping
    upload.save(update_fields=["mapping"])
    return upload


@service
def import_kept(upload: ImportFile, *, actor: Actor, skip_refused=False, accept_duplicates=False, choices=None) -> importing.Preview:
    """Import a kept sheet as its preview showed it; its bytes are let go once it is in."""
    upload = ImportFile.objects.select_for_update().get(pk=upload.pk)
    if upload.imported_at is not None:
        raise DomainError("already_imported", _("This file has already been imported."))
    p = run_import(
        upload.kind,
        bytes(upload.data),
        upload.filename,
        actor=actor,
        mapping=upload.mapping or None,
        options=upload.options,
        skip_refused=skip_refused,
        accept_duplicates=accept_duplicates,
        choices=choices,
    )
    upload.imported_at, upload.data, upload.result = timezone.now(), b"", p.counts()
    upload.save(update_fields=["imported_at", "data", "result"])
    return p


def preview_data(p: importing.Preview, *, rows: int = 1000) -> dict:
    """A preview as the API answers it: the counts, the mapping, and the rows that are not unchanged."""
    importer = importing.get(p.kind)
    shown = [r for r in p.rows if r.status != importing.UNCHANGED][:rows]
    files = {"files": [{k: _plain(v) for k, v in f.items()} for f in p.files]} if importer.reads_files else {}
    return files | {
        "kind": p.kind,
        "headers": p.headers,
        "mapping": p.mapping,
        "fields": [{"field": c.field, "label": _(c.label), "required": c.required} for c in importer.columns],
        "counts": p.counts(),
        "rows": [
            {
                "row": r.line,
                "status": r.status,
                "reason": r.reason,
                "cells": {k: _plain(v) for k, v in r.cells.items()} if importer.reads_files else {},
                "changes": {k: {"old": _plain(o), "new": _plain(n)} for k, (o, n) in r.changes.items()},
                "matches": [{"id": pk, "row": line, "name": name, "by": by} for pk, name, by, line in r.matches],
            }
            for r in shown
        ],
    }


def _plain(value):
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    return str(value)
