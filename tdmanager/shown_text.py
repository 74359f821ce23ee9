"""Texts shown to others carry no bidirectional control character: the names of tournaments,
series, structures, chip sets, payout templates, rooms, zones, screens, layouts and devices, a
structure's description, a series' ticket text, an announcement, a layout's or a sound's text,
the reason of a change made public.

Why refuse them: a right-to-left override (U+202E) or an isolate (U+2066–U+2069) makes a lobby
screen, a phone or the room map read other than what is stored ("Sala 1" shown as "1 alaS", a
table's zone hiding another's), and nobody who reads it can tell. The people's names drop them
as they are kept (``tournaments.people.text.clean_text``); every other text shown is refused
here, with the field named, so whoever typed it sees what was wrong. The one place the rule is
said: the services of each of those writes call ``check``.
"""

from django.utils.translation import gettext as _

from .errors import ValidationFailed

#: the explicit embeddings and overrides, the isolates, the implicit marks and Arabic's letter mark
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

CODE = "bidi_control"


def has_bidi_control(value) -> bool:
    return isinstance(value, str) and not BIDI_CONTROLS.isdisjoint(value)


def message() -> str:
    return _("Remove the invisible characters that turn the text around (right-to-left marks).")


def check(value, field: str, label):
    """``value`` unchanged, or a 400 ``bidi_control`` naming ``field`` (its key, and ``label`` in words)."""
    if has_bidi_control(value):
        said = message()
        raise ValidationFailed(CODE, _("%(field)s: %(problem)s") % {"field": label, "problem": said}, field=field, fields={field: [said]})
    return value
