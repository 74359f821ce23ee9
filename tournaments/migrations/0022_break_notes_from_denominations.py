"""Shipped breaks say which chips they remove, not an English sentence.

The shipped structures carried English notes ("Color up the T100 chips"), shown as typed on
every page whatever the reader's language. They now carry ``removes_denominations`` and the
pages say the colour-up in the reader's language (``tournaments.labels.break_note``).

- A break whose note is exactly one of the shipped English texts, and whose
  ``removes_denominations`` is empty or names the same chips, gets those chips and a blank
  note: it says the same thing, now translated. Any other note (typed by a director) stays.
- On a fresh database the shipped templates were created by 0002 without the chips (the field
  did not exist yet): their breaks get them from the files, matched by position (only while the
  template still has the file's shape of levels and breaks).
"""

import json
import re
from pathlib import Path

from django.db import migrations

STRUCTURES = Path(__file__).resolve().parent.parent / "structures"
SHIPPED_NOTE = re.compile(r"Color up the T(50|100|500) chips")


def forwards(apps, schema_editor):
    BlindStructure = apps.get_model("tournaments", "BlindStructure")
    StructureItem = apps.get_model("tournaments", "StructureItem")
    for item in StructureItem.objects.filter(kind="BREAK", color_up__startswith="Color up the T"):
        m = SHIPPED_NOTE.fullmatch(item.color_up)
        if m is None:
            continue
        chips = [int(m.group(1))]
        if list(item.removes_denominations or []) in ([], chips):
            item.removes_denominations, item.color_up = chips, ""
            item.save(update_fields=["removes_denominations", "color_up"])
    for path in sorted(STRUCTURES.glob("*.json")):
        doc = json.loads(path.read_text())
        st = BlindStructure.objects.filter(name=doc["name"], is_template=True).order_by("id").first()
        if st is None:
            continue
        items = list(StructureItem.objects.filter(structure=st).order_by("position"))
        if [(it.kind, it.minutes) for it in items] != [(raw.get("kind"), raw.get("minutes")) for raw in doc["items"]]:
            continue  # a template a director has reshaped is left as it is
        rows = {it.position: it for it in items if it.kind == "BREAK"}
        for position, raw in enumerate(doc["items"]):
            chips = raw.get("removes_denominations") or []
            row = rows.get(position)
            if raw.get("kind") == "BREAK" and chips and row is not None and not row.color_up and not row.removes_denominations:
                row.removes_denominations = chips
                row.save(update_fields=["removes_denominations"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0021_delete_receivable")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
