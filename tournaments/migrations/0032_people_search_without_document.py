"""A person's search text no longer holds his document number (found only whole, never by a
part): every person's search text is written again without it."""

import unicodedata

from django.db import migrations


def _fold(text):
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", text or "") if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


def rewrite(apps, schema_editor):
    Person = apps.get_model("tournaments", "Person")
    changed = []
    for p in Person.objects.only("id", "first_name", "last_name", "nickname", "phone", "email").iterator():
        digits = "".join(ch for ch in p.phone if ch.isdigit())
        p.search_text = " ".join(_fold(x) for x in (p.first_name, p.last_name, p.nickname, digits, p.email) if x)
        changed.append(p)
        if len(changed) >= 1000:
            Person.objects.bulk_update(changed, ["search_text"])
            changed = []
    if changed:
        Person.objects.bulk_update(changed, ["search_text"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0031_device_tokens"),
    ]

    operations = [
        migrations.RunPython(rewrite, migrations.RunPython.noop),
    ]
