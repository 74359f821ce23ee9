"""A person's search text holds his phone as its national number, without the country code:
"39" typed at the desk is no longer every Italian phone (+39). Every search text is written again."""

import unicodedata

from django.db import migrations

# ITU-T E.164: the country codes of one and two digits; every other has three (prefix-free).
TWO_DIGIT_CODES = set(
    "20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 "
    "60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98".split()
)


def _fold(text):
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", text or "") if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


def _national(phone):
    # A migration keeps its own copy of the rule (people_search.national): it must read the same
    # whatever the code becomes later.
    number = "".join(ch for ch in phone or "" if ch.isdigit())
    if not (phone or "").strip().startswith("+"):
        if not number.startswith("00"):
            return number
        number = number[2:]
    if number[:1] in ("1", "7"):
        return number[1:]
    return number[2:] if number[:2] in TWO_DIGIT_CODES else number[3:]


def rewrite(apps, schema_editor):
    Person = apps.get_model("tournaments", "Person")
    changed = []
    for p in Person.objects.only("id", "first_name", "last_name", "nickname", "phone", "email").iterator():
        p.search_text = " ".join(_fold(x) for x in (p.first_name, p.last_name, p.nickname, _national(p.phone), p.email) if x)
        changed.append(p)
        if len(changed) >= 1000:
            Person.objects.bulk_update(changed, ["search_text"])
            changed = []
    if changed:
        Person.objects.bulk_update(changed, ["search_text"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0035_browser_sessions"),
    ]

    operations = [
        migrations.RunPython(rewrite, migrations.RunPython.noop),
    ]
