"""The player's phone page: every entry gets an unguessable token (the receipt's QR code)."""

import secrets

from django.db import migrations, models

import tournaments.models


def fill_tokens(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    for pk in Entry.objects.filter(phone_token__isnull=True).values_list("pk", flat=True).iterator():
        Entry.objects.filter(pk=pk).update(phone_token=secrets.token_urlsafe(16))


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0012_foreign_tender"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="phone_token",
            field=models.CharField(editable=False, max_length=32, null=True),
        ),
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="entry",
            name="phone_token",
            field=models.CharField(default=tournaments.models.new_phone_token, editable=False, max_length=32, unique=True),
        ),
    ]
