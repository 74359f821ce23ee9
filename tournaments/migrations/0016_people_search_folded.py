"""The people search folds accents: every person's search text is written again the same way."""

import unicodedata

from django.db import migrations


def _fold(text):
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", text or "") if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


def refold(apps, schema_editor):
    Person = apps.get_model("tournaments", "Person")
    changed = []
    for p in Person.objects.only("id", "first_name", "last_name", "nickname", "document_id", "phone", "email").iterator():
        digits = "".join(ch for ch in p.phone if ch.isdigit())
        p.search_text = " ".join(_fold(x) for x in (p.first_name, p.last_name, p.nickname, p.document_id, digits, p.email) if x)
        changed.append(p)
        if len(changed) >= 1000:
            Person.objects.bulk_update(changed, ["search_text"])
            changed = []
    if changed:
        Person.objects.bulk_update(changed, ["search_text"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_penalties_on_table_changes"),
    ]

    operations = [
        migrations.RunPython(refold, migrations.RunPython.noop),
    ]
