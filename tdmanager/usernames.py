"""Usernames as a person reads them: one login per name, whatever the keyboard typed.

A name is kept in NFKC (the compatibility forms folded into the letters they show: a fullwidth
``Ｄ`` is a ``D``, a ligature its letters) and compared after ``casefold``: ``Ｄirector``,
``Director`` and ``director`` are one name, so a second login of that name is refused
(``checked`` and ``holder``, on every path that creates or renames a login: the staff page, its
API, the ``createdirector`` command and the demo through it, the Django admin's user forms). The
login doors look a typed name up the same way (``login_name``): ``Ｄirector`` signs in as
``director``; the throttle counts every variant of a name as one (``folded``, worked out without
the database) and its event-log rows write it so.

Letters of scripts that look alike are not mixed in one name: ``dirеctor`` with a Cyrillic ``е``
reads as ``director`` on every page and in the event log. A name may be all Cyrillic or all Greek;
it may not mix Latin, Greek, Cyrillic or another script of Latin look-alikes. The script of a
letter is the first word of its Unicode name (``unicodedata``): a coarse test, but one that needs
no table of confusables and refuses what the staff page must never show.
"""

import unicodedata

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from .errors import ValidationFailed

USERNAME_MAX = 150

#: scripts whose letters pass for Latin ones (and for each other): never two in one name
LOOKALIKE_SCRIPTS = frozenset({"LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CHEROKEE", "COPTIC"})


def normal(name: str) -> str:
    """The name as it is stored: NFKC, the spaces around it dropped."""
    return unicodedata.normalize("NFKC", name).strip()


def folded(name: str) -> str:
    """The name as it is compared (Unicode's NFKC_Casefold, near enough): two logins whose names
    fold alike are one name."""
    return unicodedata.normalize("NFKC", normal(name).casefold())


def scripts(name: str) -> set[str]:
    """The scripts of the name's letters (digits and signs belong to none)."""
    return {unicodedata.name(ch, "?").split(" ")[0] for ch in name if ch.isalpha()}


def _invalid(problem) -> ValidationFailed:
    return ValidationFailed("username_invalid", _("%(field)s: %(problem)s") % {"field": _("Username"), "problem": problem}, field="username")


def checked(name) -> str:
    """The name to store (``normal``), or ``ValidationFailed`` naming the field: empty or too long,
    characters Django's usernames refuse, or letters of look-alike scripts mixed."""
    name = normal(name) if isinstance(name, str) else ""
    if not name or len(name) > USERNAME_MAX:
        raise _invalid(_("from 1 to 150 characters."))
    try:
        get_user_model().username_validator(name)
    except ValidationError:  # its words are not the page's
        raise _invalid(_("letters, digits and @ . + - _ only.")) from None
    if len(scripts(name) & LOOKALIKE_SCRIPTS) > 1:
        raise ValidationFailed(
            "username_mixed_scripts",
            _("%(field)s: %(problem)s") % {"field": _("Username"), "problem": _("letters of one alphabet only (Latin, Greek or Cyrillic, not mixed).")},
            field="username",
        )
    return name


def holder(name: str, *, other_than=None):
    """The login whose name folds as ``name`` does, or None; ``other_than``: a login's id, never
    the answer (a login renamed keeps its own name in another case). Every login's name is read:
    the staff are a room's few dozen, and a database's case-insensitive match (SQLite's is ASCII
    only) knows neither NFKC nor ``casefold``."""
    key = folded(name)
    for pk, username in get_user_model().objects.values_list("pk", "username").iterator():
        if folded(username) == key and pk != other_than:
            return get_user_model().objects.filter(pk=pk).first()
    return None


def login_name(name) -> str:
    """The name a login door looks ``name`` up by, once the throttle let the attempt through: the
    login's own when one's name folds as it does (the name typed first, then any case), else the
    name typed, in NFKC. One query, by the database's own case-insensitive match (PostgreSQL's
    knows Unicode; SQLite's only ASCII), then the rule here."""
    if not isinstance(name, str):
        return name
    typed = normal(name)
    if not typed:
        return typed
    key = folded(typed)
    names = list(get_user_model().objects.filter(username__iexact=typed).values_list("username", flat=True)[:20])
    if typed in names:
        return typed
    return next((n for n in names if folded(n) == key), typed)
