"""People's reads for the duplicate rule: who a new person, or a sheet's row, is or looks like.

The rule is ``rules.alike`` (pure); these read the people it compares. The desk asks the
database for one new person (``possible_duplicates``); an import reads everyone once into a
``PeopleIndex`` and asks it for each row of its file.
"""

from __future__ import annotations

from functools import reduce

from django.db.models import F, Q, Value
from django.db.models.functions import Lower, Replace

from tournaments.models import Person
from tournaments.people import rules

CANDIDATES = 200  # people read per new person before the rule sorts them (a common name, a family's phone)


def _without_separators(expression):
    """``expression`` with the marks a name is compared without removed (``rules.NAME_SEPARATORS``)."""
    return reduce(lambda e, mark: Replace(e, Value(mark), Value("")), rules.NAME_SEPARATORS, expression)


def possible_duplicates(first_name="", last_name="", document_id="", phone="", email="", birth_date=None, exclude_pk=None, limit=10) -> list[Person]:
    """The stored people a new one is or looks like (``rules.alike``): the same person first,
    then the look-alikes by document, e-mail, phone or name. The database finds the few who may
    be (a wider net than the rule: the search's folded text, the document as the search compares
    it); the rule decides which are."""
    named = rules.Keys.of(
        {"first_name": first_name, "last_name": last_name, "document_id": document_id, "phone": phone, "email": email, "birth_date": birth_date}
    )
    may_be, people = Q(), Person.objects.all()
    first, last = named.name
    if last:  # the search's text starts with the folded first and last names
        people = people.alias(bare_text=_without_separators(F("search_text")))
        may_be |= Q(bare_text__startswith=first + last)
    if named.document:
        people = people.alias(document_key=Replace(Lower("document_id"), Value(" "), Value("")))
        may_be |= Q(document_key=named.document)
    if named.email:
        may_be |= Q(email__iexact=named.email)
    if named.phone:
        may_be |= Q(search_text__contains=named.phone)  # the phone's national number is one of its words
    if not may_be:
        return []
    if exclude_pk:
        people = people.exclude(pk=exclude_pk)
    found = people.filter(may_be)[:CANDIDATES]
    return [m.person for m in rules.alike(named, ((rules.Keys.of(p), p) for p in found))][:limit]


class PeopleIndex:
    """People by each key the rule compares, in memory: a whole file's rows are compared with one
    read of the stored people. Holds Person rows, or anything with a person's fields (an
    import's rows that become people, ``add``-ed as the file names them)."""

    def __init__(self, people=None):
        self.by_document, self.by_email, self.by_phone, self.by_name = {}, {}, {}, {}
        for p in Person.objects.all() if people is None else people:
            self.add(p)

    def add(self, person) -> None:
        keys = rules.Keys.of(person)
        for table, key in ((self.by_document, keys.document), (self.by_email, keys.email), (self.by_phone, keys.phone)):
            if key:
                table.setdefault(key, []).append((keys, person))
        if keys.name[1]:
            self.by_name.setdefault(keys.name, []).append((keys, person))

    def alike(self, values) -> list[rules.Match]:
        """The people of the index the one ``values`` names is or looks like (``rules.alike``)."""
        named = rules.Keys.of(values)
        candidates, seen = [], set()
        for table, key in ((self.by_document, named.document), (self.by_email, named.email), (self.by_phone, named.phone), (self.by_name, named.name)):
            for keys, person in table.get(key, ()) if key and key != ("", "") else ():
                if id(person) not in seen:
                    seen.add(id(person))
                    candidates.append((keys, person))
        return rules.alike(named, candidates)
