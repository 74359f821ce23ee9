"""Create the receipt counter up front, so the first two sales of a new install never race to create it."""

from django.db import migrations


def forwards(apps, schema_editor):
    apps.get_model("tournaments", "Sequence").objects.get_or_create(name="receipt")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0004_floor_tools")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
