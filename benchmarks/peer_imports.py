"""10,000 people imported by django-import-export and by the product, in-process, on one database.

    /path/to/scratch-venv/bin/python benchmarks/peer_imports.py            # SQLite, 10,000 rows
    /path/to/scratch-venv/bin/python benchmarks/peer_imports.py --rows 2000

The peer is django-import-export (with tablib under it), the library that Django projects use for
spreadsheet imports: a Python with this repository's requirements and ``django-import-export``
installed, of your making (it is not among the product's requirements). Both import into the
product's own ``Person`` table of a fresh temporary SQLite database, in this one process, with no
HTTP in front (``benchmarks/import_services.py`` measures the product as deployed):

- the peer: a ``ModelResource`` of the same columns (dates as dd/mm/yyyy, a person known by the
  document), ``import_data(dry_run=True)`` for its preview, then ``import_data()`` in a transaction,
  its defaults otherwise;
- the product: ``import_services.rules.preview`` then ``import_services.services.run_import`` (which also matches each
  row against the stored people by document, phone, e-mail, name and birth date, and logs).

Each gets its own 10,000 people of ``import_services.py``'s shape, first as a semicolon CSV, then as an XLSX
workbook; printed: CPU seconds (wall) of the preview, of the import, and both together.
"""

import argparse
import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402
import imports as shape  # noqa: E402

COLUMNS = ["last_name", "first_name", "nickname", "phone", "email", "document_id", "birth_date", "notes", "banned", "banned_reason", "privacy_consent"]


def workbook(headers, rows) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(headers)
    for r in rows:
        sheet.append(r)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def measured(call):
    cpu, wall = time.process_time(), time.perf_counter()
    out = call()
    return out, time.process_time() - cpu, time.perf_counter() - wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000)
    args = ap.parse_args()
    try:
        import tablib
        from import_export import fields, resources, widgets
    except ImportError:
        sys.exit("django-import-export is not installed in this Python: see the docstring")
    common.prepare_database("sqlite", "tdm_peer_imports")
    from django.contrib.auth.models import User

    from tournaments.eventlog.services import Actor
    from tournaments.imports import rules as import_rules
    from tournaments.imports import services as import_services
    from tournaments.models import Person

    class PersonResource(resources.ModelResource):
        birth_date = fields.Field(attribute="birth_date", column_name="birth_date", widget=widgets.DateWidget("%d/%m/%Y"))
        privacy_consent = fields.Field(attribute="privacy_consent", column_name="privacy_consent", widget=widgets.DateWidget("%d/%m/%Y"))

        def before_import_row(self, row, **kwargs):  # an empty XLSX cell is None; these columns hold ""
            for name in ("nickname", "phone", "email", "notes", "banned_reason"):
                if row.get(name) is None:
                    row[name] = ""

        class Meta:
            model = Person
            fields = COLUMNS
            import_id_fields = ["document_id"]

    def for_peer(rows):  # its boolean widget reads 1/0, not "sì"/"no"
        return [[*r[:8], "1" if r[8] == "sì" else "0", *r[9:]] for r in rows]

    rng = random.Random(7)
    n = args.rows
    people = [list(shape.rows(n, 1 + k * n, rng)) for k in range(4)]
    actor = Actor(User.objects.create_user("importer"))
    print(f"{n:,} people a file, SQLite, in-process; CPU s (wall s)")
    for k, fmt in enumerate(["csv", "xlsx"]):
        rows = for_peer(people[k])
        if fmt == "csv":
            raw = "\r\n".join(";".join(r) for r in [COLUMNS, *rows]).encode("cp1252")

            def dataset(raw=raw):
                return tablib.Dataset().load(raw.decode("cp1252"), format="csv", delimiter=";")
        else:
            raw = workbook(COLUMNS, rows)

            def dataset(raw=raw):
                return tablib.Dataset().load(raw, format="xlsx")

        resource = PersonResource()
        result, p_cpu, p_wall = measured(lambda: resource.import_data(dataset(), dry_run=True))
        assert not result.has_errors() and not result.has_validation_errors() and result.totals["new"] == n, result.totals
        result, i_cpu, i_wall = measured(lambda: resource.import_data(dataset(), use_transactions=True))
        assert not result.has_errors() and result.totals["new"] == n, result.totals
        peer = p_cpu + i_cpu
        print(f"  {fmt:<4} django-import-export: preview {p_cpu:.2f} ({p_wall:.2f}), import {i_cpu:.2f} ({i_wall:.2f}), together {peer:.2f}")

        ours_raw = shape.italian_csv(people[k + 2]) if fmt == "csv" else workbook(shape.HEADER, people[k + 2])
        _, p_cpu, p_wall = measured(lambda: import_rules.preview("people", ours_raw, "soci." + fmt))
        result, i_cpu, i_wall = measured(lambda: import_services.run_import("people", ours_raw, "soci." + fmt, actor=actor))
        assert result.counts()["created"] == n, result.counts()
        ours = p_cpu + i_cpu
        print(
            f"  {fmt:<4} TDManager:            preview {p_cpu:.2f} ({p_wall:.2f}), import {i_cpu:.2f} ({i_wall:.2f}), together {ours:.2f}  (×{peer / ours:.1f} less CPU)"
        )


if __name__ == "__main__":
    main()
