"""Create the four staff roles and ship the turbo, regular and deep structure templates."""

import json
from pathlib import Path

from django.db import migrations

ROLES = ("director", "floor", "cashier", "display")
STRUCTURES = Path(__file__).resolve().parent.parent / "structures"


def forwards(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in ROLES:
        Group.objects.get_or_create(name=name)
    BlindStructure = apps.get_model("tournaments", "BlindStructure")
    StructureItem = apps.get_model("tournaments", "StructureItem")
    for path in sorted(STRUCTURES.glob("*.json")):
        doc = json.loads(path.read_text())
        if BlindStructure.objects.filter(name=doc["name"]).exists():
            continue
        st = BlindStructure.objects.create(name=doc["name"], description=doc["description"], is_template=True)
        # The files follow the current model: keys this historical model does not have yet
        # (``removes_denominations``, added in 0004) are left to the migration that adds their data (0022).
        known = {f.name for f in StructureItem._meta.get_fields()}
        StructureItem.objects.bulk_create(
            StructureItem(structure=st, position=i, **{k: v for k, v in item.items() if k in known}) for i, item in enumerate(doc["items"])
        )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
