"""Imports: the people of a room's former records, in and out (the "people" kind of ``imports.rules``).

A row is matched with the stored people by the duplicate rule the desk's warning follows too
(``people.rules.alike``: names without case, accents, spaces or apostrophes, documents without
case or spaces, phones by their national number). A row that is a stored person (the same first
and last name with the same document, date of birth, e-mail or phone, and no other document or
date of birth) updates him with the cells that differ (an empty cell changes nothing), or leaves
him unchanged; so does a row that the name alone names (one person of that name, nobody else
alike, nothing against him) when it brings nothing new: a name is not enough to correct anyone's
data. A row that shares a document, an e-mail, a phone, or a name with someone it is not shown
to be is a possible duplicate, as the desk would warn: it is left out unless the director
imports it as a new person. The rows of one file are compared with the rows above them by the
same rule: a row that looks like one above is a possible duplicate of that row (a family's one
phone: imported, a second person); a row that is the person of a row above (the same name and
key, or the same name again with nothing new) is a possible duplicate that, imported, adds what
it brings to that row's person: a room's export that lists someone twice makes one person.

Bans come in as bans (with their reason; an import never lifts one: that is a director's act
on the person's page), the privacy consent as its date, a cell that starts a formula as the
text it is.
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdmanager.compiled import Inserts
from tdmanager.formatting import when
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import log_events
from tournaments.people import rules as people_rules
from tournaments.people.privacy import is_erased
from tournaments.people.selectors import PeopleIndex
from tournaments.people.text import clean_text

from ..models import Person
from . import rules as importing
from .rules import CREATED, DUPLICATE, REFUSED, UNCHANGED, UPDATED, Column, Refused

_PEOPLE = Inserts(Person)  # the INSERT compiled once per database and number of rows (bulk_create compiles it each time)

TEXT_FIELDS = ("last_name", "first_name", "nickname", "phone", "email", "document_id", "notes", "banned_reason")
FOLDED = ("last_name", "first_name", "email")  # compared without case or accents
COMPARED = (*TEXT_FIELDS, "birth_date", "privacy_consent", "banned", "hide_from_lookup")


def _key(text: str) -> str:
    return importing.fold(text)


class PeopleImporter(importing.Importer):
    kind = "people"
    title = gettext_noop("People")
    columns = (
        Column("last_name", gettext_noop("Last name"), ("cognome", "surname", "lastname", "family name"), required=True),
        Column("first_name", gettext_noop("First name"), ("nome", "firstname", "given name")),
        Column("nickname", gettext_noop("Nickname"), ("soprannome", "alias", "nick")),
        Column("phone", gettext_noop("Phone"), ("telefono", "cellulare", "cell", "mobile", "tel", "phone number", "numero di telefono")),
        Column("email", gettext_noop("Email"), ("e-mail", "mail", "posta elettronica", "email address", "indirizzo email")),
        Column(
            "document_id", gettext_noop("Identity document"), ("documento", "document", "n documento", "numero documento", "documento di identita", "id number")
        ),
        Column("birth_date", gettext_noop("Date of birth"), ("data di nascita", "nato il", "birth date", "birthdate", "dob", "birthday")),
        Column("notes", gettext_noop("Notes"), ("note", "comments", "commenti")),
        Column("banned", gettext_noop("Banned"), ("escluso", "bannato", "bandito", "autoescluso", "ban", "barred")),
        Column("banned_reason", gettext_noop("Ban reason"), ("motivo esclusione", "motivo", "motivo del ban", "reason")),
        Column("privacy_consent", gettext_noop("Privacy consent"), ("consenso privacy", "consenso", "privacy", "consent", "gdpr", "consenso gdpr")),
        Column("hide_from_lookup", gettext_noop("Hidden from the seat lookup"), ("nascosto nella ricerca posti", "nascosto", "hidden")),
    )

    def parse(self, cells: dict, options: dict) -> dict:
        values = {}
        for name in TEXT_FIELDS:
            if name in cells:
                raw = importing.cell_text(cells[name])
                limit = Person._meta.get_field(name).max_length
                if limit and len(raw) > limit:
                    raise Refused(_("%(field)s is longer than %(n)s characters.") % {"field": self.label(name), "n": limit})
                try:
                    values[name] = clean_text(raw, one_line=name != "notes")
                except ValidationError as exc:
                    raise Refused(_("%(field)s: %(e)s") % {"field": self.label(name), "e": " ".join(exc.messages)}) from None
        values.setdefault("first_name", "")
        if not values.get("last_name"):
            raise Refused(_("The last name is missing."))
        if values.get("email"):
            try:
                validate_email(values["email"])
            except ValidationError:
                raise Refused(_("E-mail: “%(value)s” is not an e-mail address.") % {"value": values["email"][:60]}) from None
        if "birth_date" in cells:
            born = importing.cell_date(cells["birth_date"], lambda: self.label("birth_date"))
            if born is not None and not (dt.date(1900, 1, 1) <= born <= timezone.localdate()):
                raise Refused(_("Date of birth: %(value)s is not a plausible date.") % {"value": when(born, "date")})
            values["birth_date"] = born
        if "privacy_consent" in cells:
            values["privacy_consent"] = self._consent(cells["privacy_consent"])
        if "banned" in cells:
            values["banned"] = importing.cell_bool(cells["banned"], lambda: self.label("banned"))
            if values["banned"] and not values.get("banned_reason"):
                values["banned_reason"] = gettext_noop("Banned in the room's former records")
        if "hide_from_lookup" in cells:
            values["hide_from_lookup"] = importing.cell_bool(cells["hide_from_lookup"], lambda: self.label("hide_from_lookup"))
        return values

    def _consent(self, value):
        """The consent's date; a "yes" without one is today's (the day the room brings it in)."""
        said = importing.cell_text(value).lower() if not isinstance(value, (dt.date, dt.datetime)) else ""
        if said in importing.YES:
            return timezone.localdate()  # the room's day, not the server clock's
        if said in importing.NO and not isinstance(value, (dt.date, dt.datetime)):
            return None
        return importing.cell_date(value, lambda: self.label("privacy_consent"))

    # -- comparing with what is stored ------------------------------------------------------

    def plan(self, rows, options):
        index = PeopleIndex()
        # the rows above that may become people (new, or a possible duplicate the director may
        # import): a row is compared with them as with the stored people
        above, pending = PeopleIndex([]), {}
        for row in rows:
            if row.status == REFUSED:
                continue
            v = row.values
            matches = index.alike(v)
            same = [m.person for m in matches if m.same]
            looks = [m for m in matches if not m.same]
            by_name = people_rules.by_name_alone(matches)
            twins = _twins(above, v)
            if twins:
                row.status = DUPLICATE
                first, _by, one = twins[0]
                if one:  # the same person as a row above: imported, its cells go to that row's person
                    row.same_as = first.row.same_as or first.row
                    row.changes = _changes(pending[row.same_as.line], v)
                row.matches = [
                    *((None, p.display_name, _("row %(n)s of this file, %(what)s") % {"n": p.line, "what": _shared(by)}, p.line) for p, by, _one in twins),
                    *((m.person.pk, m.person.display_name, _shared(m.by), None) for m in matches),
                ][:5]
            elif len(same) == 1:
                person = same[0]
                row.target = person
                row.changes = _changes(person, v)
                row.status = UPDATED if row.changes else UNCHANGED
            elif by_name is not None and not _changes(by_name, v):
                row.target, row.status = by_name, UNCHANGED  # the same name and nothing new: the one already in
            elif matches:
                row.status = DUPLICATE
                row.matches = [(m.person.pk, m.person.display_name, _shared(m.by), None) for m in looks] or [
                    (p.pk, p.display_name, _shared("several"), None) for p in same
                ]
                row.matches = row.matches[:5]
            else:
                row.status = CREATED
            if row.status in (CREATED, DUPLICATE):  # a later row that is this one is a duplicate of it
                pending[row.line] = p = _Pending(row)
                above.add(p)

    def take_as(self, row, pk):
        if pk not in {m[0] for m in row.matches if m[0] is not None}:
            return False
        person = Person.objects.filter(pk=pk).first()
        if person is None:
            return False
        row.target, row.same_as = person, None
        row.changes = _changes(person, row.values)
        row.status = UPDATED if row.changes else UNCHANGED
        return True

    def clashes(self, created):
        """A new person with a document another person holds, stored or new in this file: never
        two people with one document unless the director is told (the desk would list both)."""
        out, seen = [], {}
        keys = {people_rules.document_key(r.values.get("document_id") or ""): r for r in created if r.values.get("document_id")}
        holders = {}
        if keys:
            for person in Person.objects.exclude(document_id="").only("pk", "first_name", "last_name", "nickname", "document_id").iterator():
                holders.setdefault(people_rules.document_key(person.document_id), person)
        for row in created:
            key = people_rules.document_key(row.values.get("document_id") or "")
            if not key:
                continue
            holder = holders.get(key)
            if holder is not None:
                out.append((row, _("Its document is %(name)s's: choose that person as the same one, or leave the row out.") % {"name": holder.display_name}))
            elif key in seen:
                out.append((row, _("Its document is also row %(n)s's: one of the two rows must go.") % {"n": seen[key]}))
            else:
                seen[key] = row.line
        return out

    # -- writing ---------------------------------------------------------------------------

    def write(self, rows, options, actor) -> dict:
        created, updated, made = [], [], {}
        for row in rows:
            if row.status == CREATED:
                made[row.line] = p = Person(**_fields(row.values))
                created.append(p)
            elif row.same_as is not None:  # a row above again, imported: what it brings goes to that person
                p = made[row.same_as.line]
                for name, (_old, new) in row.changes.items():
                    setattr(p, name, new)
            elif row.status == UPDATED:
                person = Person.objects.select_for_update().get(pk=row.target.pk)
                for name, (_old, new) in row.changes.items():
                    setattr(person, name, new)
                person.save()
                updated.append((person, row.changes))
        for p in created:
            p.fold_search_text()  # as save() does: the insert below does not call it
        _PEOPLE.insert(created, batch_size=500)
        events = [
            (
                Action.PEOPLE_PERSON_CHANGED,
                {
                    "person": p.pk,
                    "fields": ", ".join(changes),
                    "changes": {k: {"old": _shown(o), "new": _shown(n)} for k, (o, n) in changes.items() if k != "document_id"},
                    "document_changed": "document_id" in changes,
                },
            )
            for p, changes in updated
        ]
        # Each correction has its own line, as the desk writes it (old and new values: the trace of a
        # rectification). The people added are counted in the import's one line, not listed one by
        # one: ten thousand lines of "added" would bury the day's log.
        if events:
            log_events(None, actor, events)
        return {"people": len(created) + len(updated)}

    def export(self, options):
        headers = [c.label for c in self.columns]
        rows = []
        for p in Person.objects.order_by("last_name", "first_name", "id").iterator(chunk_size=2000):
            if is_erased(p):
                continue
            rows.append(
                [
                    p.last_name,
                    p.first_name,
                    p.nickname,
                    p.phone,
                    p.email,
                    p.document_id,
                    p.birth_date,
                    p.notes,
                    _("yes") if p.banned else _("no"),
                    p.banned_reason if p.banned else "",
                    p.privacy_consent,
                    _("yes") if p.hide_from_lookup else _("no"),
                ]
            )
        return headers, rows

    def export_name(self, options):
        return _("people")


def _fields(values: dict) -> dict:
    out = {k: v for k, v in values.items() if k in COMPARED and v not in (None,)}
    if not out.get("banned"):
        out.pop("banned_reason", None)
    return out


def _shown(value):
    return value.isoformat() if isinstance(value, dt.date) else value


def _changes(person: Person, values: dict) -> dict:
    """What the row changes: each cell that is given and differs (an empty cell keeps the stored
    value; a ban is brought in, never lifted; the reason only with a ban)."""
    out = {}
    for name in COMPARED:
        if name not in values:
            continue
        new, old = values[name], getattr(person, name)
        if new in (None, "") or new == old:
            continue
        if name in FOLDED and _key(new) == _key(old):
            continue  # "ROSSI" for "Rossi", "anna@club.it" for "Anna@Club.it": the stored spelling stays
        if name == "banned" and not new:
            continue
        if name == "banned_reason" and not (values.get("banned") or person.banned):
            continue
        if name == "hide_from_lookup" and not new:
            continue  # a player's own choice to be hidden is not undone by an old sheet
        out[name] = (old, new)
    if "banned_reason" in out and person.banned and "banned" not in out:
        del out["banned_reason"]  # a stored ban keeps the reason it was given
    return out


class _Pending:
    """A row of the file as the index and ``_changes`` read a person: the fields it gives, the
    others as a new person has them."""

    def __init__(self, row):
        v = row.values
        self.pk, self.line, self.row = None, row.line, row
        for name in COMPARED:
            value = v.get(name)
            setattr(self, name, value if value is not None else _NEW[name])
        name = f"{self.first_name} {self.last_name}".strip()
        self.display_name = f"{name} ({self.nickname})" if self.nickname else name


_NEW = {"birth_date": None, "privacy_consent": None, "banned": False, "hide_from_lookup": False} | dict.fromkeys(TEXT_FIELDS, "")


def _twins(above: PeopleIndex, v: dict) -> list:
    """The rows above that this row is, or looks like: (the row, what they share, whether it is
    that row's person), the one it is first. The same person by the stored people's rule: the
    same name and key, or the name alone and nothing new."""
    matches = above.alike(v)
    one = people_rules.by_name_alone(matches)
    if one is not None and not _changes(one, v):
        return [(one, "name", True)]
    same = sorted((m for m in matches if m.same), key=lambda m: m.person.line)
    looks = sorted((m for m in matches if not m.same), key=lambda m: m.person.line)
    return [(m.person, m.by, True) for m in same] + [(m.person, m.by, False) for m in looks]


def _shared(by: str) -> str:
    """What a look-alike shares with the row, in the reader's language (made only for the rows shown)."""
    return {
        "document": _("same document"),
        "email": _("same e-mail"),
        "phone": _("same phone"),
        "name": _("same name"),
        "name_document": _("same name and document"),
        "name_birth_date": _("same name and date of birth"),
        "name_email": _("same name and e-mail"),
        "name_phone": _("same name and phone"),
        "several": _("several people"),
    }[by]


PEOPLE = importing.register(PeopleImporter())


# -- the person a row of another kind names (a league's results) ------------------------------


def people_index(people=None) -> PeopleIndex:
    """People by each key the duplicate rule compares: the stored ones (read once for a whole
    file), or ``people`` (an empty list: the new people a file brings, ``add``-ed as it names them)."""
    return PeopleIndex(people)


def stored_person(index: PeopleIndex, values: dict) -> Person | None:
    """The stored person a row names, by the duplicate rule (``people.rules.alike``: the same
    name with the same document, date of birth, e-mail or phone; the name alone when exactly one
    person bears it and nothing of his says otherwise); None when nobody is that person.
    ``Refused`` when the row could be more than one person, or looks like someone it is not
    shown to be (a shared document, e-mail or phone under another name): the row then names the
    person better (a document, an e-mail or a phone)."""
    matches = index.alike(values)
    same = [m.person for m in matches if m.same]
    if len(same) == 1:
        return same[0]
    name = f"{values.get('first_name', '')} {values.get('last_name', '')}".strip()
    if len(same) > 1:
        raise Refused(_("%(name)s could be any of several stored people: add a document, e-mail or phone column to tell which.") % {"name": name})
    others = [m for m in matches if m.by != "name"]
    if others:
        raise Refused(
            _("%(name)s looks like %(other)s (%(what)s), and the row does not show they are one person: check it.")
            % {"name": name, "other": others[0].person.display_name, "what": _shared(others[0].by)}
        )
    if len(matches) > 1:
        raise Refused(_("Several stored people are named %(name)s: add a document, e-mail or phone column to tell which.") % {"name": name})
    return people_rules.by_name_alone(matches)
