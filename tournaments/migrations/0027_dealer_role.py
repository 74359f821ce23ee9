from django.db import migrations


def add_dealer(apps, schema_editor):
    """ROLE-01: the dealer role («poker-boy»): reports a hand completed and a player out at his table."""
    Group = apps.get_model("auth", "Group")
    Group.objects.get_or_create(name="dealer")


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0026_entry_rebuy_declared_at'),
    ]

    operations = [
        migrations.RunPython(add_dealer, migrations.RunPython.noop),
    ]
