"""The people database: create with a duplicate warning, search by any part (a document only whole), ban."""

from django.db.models import Q, Value
from django.db.models.functions import Lower, Replace
from django.utils.translation import gettext as _

from tdmanager.errors import DomainError, ValidationFailed
from tdmanager.policy import DOCUMENT_READERS
from tdmanager.roles import has_role
from tdmanager.transactions import service
from tournaments import signals
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event
from tournaments.models import Person
from tournaments.people import rules as people_rules
from tournaments.people.privacy import is_erased
from tournaments.people.selectors import possible_duplicates
from tournaments.people.text import clean_text

#: A person's fields that are one line of text (the notes may hold several).
ONE_LINE = ("first_name", "last_name", "nickname", "email", "phone", "document_id")


def _cleaned(name: str, value):
    return clean_text(value, one_line=name in ONE_LINE) if isinstance(value, str) else value


CANDIDATES = 200  # rows read per query before ranking; the good matches are read by their own query


def _candidate(p: Person, by_document: bool) -> people_rules.Candidate:
    return people_rules.Candidate(p.pk, p.first_name, p.last_name, p.nickname, p.document_id if by_document else "", p.phone, p.email)


def search_people(query: str, limit: int = 20, *, reader=None) -> list[Person]:
    """People matching every word of ``query`` in name, nickname, phone or e-mail, the person
    meant first (``tournaments.people.rules``: exact, whole word, start, inside).

    Two letters are enough; case and accents do not matter. A query that looks like a phone
    number also matches a phone's national number, so "333 12" finds "+39 333-1234" and "39"
    does not find every Italian phone; a nickname holding the digits ("sar39") comes first, and
    a nickname with digits ("sim1") is matched as typed, never against every phone holding a 1.

    The document number is matched only when the query is the whole number (no case, no
    spaces), and only for a ``reader`` (the user searching) who reads whole numbers at the
    desk (``policy.DOCUMENT_READERS``: cashier, director): the answer shows it masked with its
    last characters and its length, so a match on a part, or any match for another role, would
    tell the rest one guessed character at a time. No reader: the document is not searched.
    """
    words = people_rules.words(query)
    if not words:
        return []
    by_document = reader is not None and has_role(reader, *DOCUMENT_READERS)
    anywhere, at_start, in_names = Q(), Q(), Q()
    for word in words:
        anywhere &= Q(search_text__contains=word)
        at_start &= Q(search_text__startswith=word) | Q(search_text__contains=" " + word)
        in_names &= Q(nickname__icontains=word) | Q(first_name__icontains=word) | Q(last_name__icontains=word) | Q(email__icontains=word)
    numbers = people_rules.phone_readings(query) if people_rules.is_phone_like(query) else []
    for number in numbers:  # one number typed with spaces or a country code ("+39 333 12"): the phone's national digits
        anywhere |= Q(search_text__contains=number)
        at_start |= Q(search_text__contains=" " + number)
    exact = people_rules.fold(query)
    by_name = ("last_name", "first_name", "id")
    found = {p.pk: p for p in Person.objects.filter(anywhere).order_by(*by_name)[:CANDIDATES]}
    found.update((p.pk, p) for p in Person.objects.filter(at_start).order_by(*by_name)[:CANDIDATES])
    if numbers:  # digits that many phones hold: a nickname or name holding them ranks first, so read it apart
        found.update((p.pk, p) for p in Person.objects.filter(in_names).order_by(*by_name)[:CANDIDATES])
    whole = Q(nickname__iexact=exact) | Q(email__iexact=exact)
    people = Person.objects.all()
    if by_document:  # compared as ``people_rules.document_key`` compares it: no case, no spaces
        people = people.alias(document_key=Replace(Lower("document_id"), Value(" "), Value("")))
        whole |= Q(document_key=people_rules.document_key(query))
    found.update((p.pk, p) for p in people.filter(whole)[:CANDIDATES])
    ranked = people_rules.rank(query, [_candidate(p, by_document) for p in found.values()])
    return [found[c.id] for c in ranked[:limit]]


@service
def create_person(*, actor: Actor, confirm_duplicate: bool = False, **fields) -> Person:
    """Create a person. Refuses with ``possible_duplicate`` (listing them) unless confirmed: the
    people he is or looks like by the duplicate rule every import follows too (``rules.alike``)."""
    fields = {k: _cleaned(k, v) for k, v in fields.items()}
    first, last = fields.get("first_name", ""), fields.get("last_name", "")
    if not first or not last:
        raise ValidationFailed("name_required", _("First and last name are required."))
    dupes = possible_duplicates(
        first, last, fields.get("document_id", ""), fields.get("phone", ""), fields.get("email", ""), birth_date=fields.get("birth_date")
    )
    if dupes and not confirm_duplicate:
        raise DomainError(
            "possible_duplicate",
            _("A person with the same name, document, phone or e-mail already exists."),
            duplicates=[{"id": p.pk, "name": p.display_name, "document_id": p.document_masked, "phone": p.phone} for p in dupes],
        )
    person = Person.objects.create(**fields)
    log_event(None, Action.PEOPLE_PERSON_CREATED, actor, person=person.pk, name=person.full_name)
    return person


@service
def set_banned(person: Person, banned: bool, reason: str, *, actor: Actor) -> Person:
    if banned and not reason.strip():
        raise ValidationFailed("reason_required", _("A ban needs a reason."))
    person = Person.objects.select_for_update().get(pk=person.pk)
    person.banned, person.banned_reason = banned, reason.strip() if banned else ""
    person.save()
    log_event(None, Action.PEOPLE_PERSON_BANNED if banned else Action.PEOPLE_PERSON_UNBANNED, actor, person=person.pk, reason=reason)
    return person


#: The fields of a person the desk corrects (rectification); each change is logged.
EDITABLE = ("first_name", "last_name", "nickname", "email", "phone", "document_id", "notes", "birth_date", "privacy_consent")
#: Logged as changed without its values (the access log of document numbers is apart).
UNLOGGED_VALUES = ("document_id",)


@service
def update_person(person: Person, *, actor: Actor, **fields) -> Person:
    """Rectification (GDPR art. 16) with a trace: the fields given are written and one event-log
    row lists what changed, old → new, except the document number (logged as changed, its values
    never). ``hide_from_lookup`` goes through ``set_hidden_from_lookup``. An erased person's
    pseudonym is not edited (409 ``person_erased``)."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    if is_erased(person):
        raise DomainError("person_erased", _("This person's data has been erased: there is nothing to correct."))
    unknown = set(fields) - set(EDITABLE) - {"hide_from_lookup"}
    if unknown:
        raise ValidationFailed("bad_field", _("These fields cannot be changed here: %(names)s.") % {"names": ", ".join(sorted(unknown))})
    hidden = fields.pop("hide_from_lookup", None)
    changes, changed = {}, []
    for name in EDITABLE:
        if name not in fields:
            continue
        new = _cleaned(name, fields[name])
        old = getattr(person, name)
        if new == old:
            continue
        if name in ("first_name", "last_name") and not new:
            raise ValidationFailed("name_required", _("First and last name are required."))
        setattr(person, name, new)
        changed.append(name)
        if name not in UNLOGGED_VALUES:
            changes[name] = {"old": _logged(old), "new": _logged(new)}
    if changed:
        person.save()
        signals.person_changed.send(sender=Person, person=person)
        log_event(
            None, Action.PEOPLE_PERSON_CHANGED, actor, person=person.pk, fields=", ".join(changed), changes=changes, document_changed="document_id" in changed
        )
    if hidden is not None and bool(hidden) != person.hide_from_lookup:
        person = set_hidden_from_lookup(person, bool(hidden), actor=actor)
    return person


def _logged(value):
    """A value as the event log keeps it (JSON): a date as yyyy-mm-dd."""
    return value.isoformat() if hasattr(value, "isoformat") else value


@service
def set_hidden_from_lookup(person: Person, hidden: bool, *, actor: Actor) -> Person:
    """The player opts out of (or back into) the public seat lookup: his name is then never an
    answer there nor shown in its final standings."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    person.hide_from_lookup = bool(hidden)
    person.save(update_fields=["hide_from_lookup"])
    log_event(None, Action.PEOPLE_PERSON_LOOKUP_PRIVACY, actor, person=person.pk, hidden=person.hide_from_lookup)
    return person
