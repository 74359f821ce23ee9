"""People's rules: who the desk means when it searches, and who is the same person (pure: no Django).

**The search.** The cashier types a few characters and takes the first line with Enter, so the first line
must be the person meant:

1. an exact match of the whole query — document, nickname, full name (either order), e-mail
   or phone (its national number: "+39 333 1234567" is "333 1234567"; a local number matches
   the end of a national one);
2. every word equal to a whole part (a first name, a last name, a nickname…);
3. every word the start of a part ("ri": Ricci, Rizzo);
4. any word only inside a part ("ri": Ferrari);
5. digits found only in a phone's national number ("39": 339 1234567).

Letters are compared without case or accents ("nicolo" is Nicolò); digits count like
letters in names and nicknames ("sim1" is the nickname sim1, not every phone holding a 1).
A phone is searched on its national number, never on its country code: "39" is not every
Italian phone (+39), and a nickname holding the digits ("sar39") comes before any phone.
Digits typed with a leading "00" and no "+" are the end of a phone ("0010020" of 340-0010020)
unless what follows the "00" is a whole number ("0039 333 1234567"): ``phone_readings``.
Ties go by last name, first name, then the oldest record.

A document number matches only whole (``document_key``: no case, no spaces), never a part:
lists show it masked with its last characters and its length, so a search matching a part
would tell the rest one guessed character at a time. The caller leaves ``document_id`` empty
for a reader who may not find a person by it (``services.people.search_people``).

**The same person** (``alike``), one rule for every door a person comes in by: the desk's
warning when a new person is added, the people import and the league's results import, and any
import to come. Names are compared without case, accents, spaces, apostrophes, hyphens or dots
("D'Àngelo" is "Dangelo"), documents without case or spaces, e-mails without case, phones by
their national number (six digits at least: fewer are in many people's texts).

- A person is **the same** as the one named when the first and last names are the same and so
  is a document, the date of birth, the e-mail or the phone, and nothing says otherwise: another
  document, or another date of birth, makes two people of one name.
- A person **looks like** the one named when they share a document, an e-mail, a phone or the
  name, and are not shown to be the same: a possible duplicate, which the desk warns of and an
  import leaves to the director (or refuses, where nobody is there to decide).
- **The name alone** names a person when he is the only one who looks like the one named, by the
  name and nothing else, and nothing says otherwise (``by_name_alone``).

A document without the name is a look-alike, not the same person: a number mistyped at the desk
or in a sheet must not put one player's results on another.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

EXACT, WORD, START, INSIDE, PHONE, NONE = 0, 1, 2, 3, 4, 5
PHONE_LIKE = re.compile(r"^\+?[\d\s().\-/]+$")
MIN_LOCAL_PHONE = 6  # digits of a local number that may match the end of a national one

# ITU-T E.164 country codes of one and two digits (1 North America, 7 Russia, 39 Italy…); every
# other code has three. The codes are prefix-free, so the digits after "+" (or "00") say alone
# how long the country code is.
_TWO_DIGIT_CODES = frozenset(
    "20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98".split()
)


def fold(text: str) -> str:
    """Lower case without accents and with single spaces: "  Nicolò D'Àngelo " → "nicolo d'angelo"."""
    if (text or "").isascii():  # nothing to decompose: most names, every phone and e-mail
        return " ".join(text.lower().split())
    decomposed = unicodedata.normalize("NFKD", text or "")
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


def masked_document(value: str) -> str:
    """An identity document number as pages and lists show it (GDPR: data minimisation): its last three
    characters after one dot per hidden character ("•••••456"); a short one (under 6) all dots.
    The whole number is shown only at check-in and to a director who reveals it (both logged)."""
    value = (value or "").strip()
    if not value:
        return ""
    shown = 3 if len(value) >= 6 else 0
    return "•" * (len(value) - shown) + value[len(value) - shown :]


def document_key(value: str) -> str:
    """A document number as a search compares it: folded, without spaces ("AB 123 456" is "ab123456")."""
    return fold(value).replace(" ", "")


def digits(text: str) -> str:
    return "".join(filter(str.isdigit, text or ""))


def national(phone: str) -> str:
    """The digits of a phone number without its international prefix ("+39 333-123" and
    "0039 333123" are "333123"); a number written without one is taken as national already."""
    number = digits(phone)
    if not (phone or "").strip().startswith("+"):
        if not number.startswith("00"):
            return number
        number = number[2:]
    if number[:1] in ("1", "7"):
        return number[1:]
    return number[2:] if number[:2] in _TWO_DIGIT_CODES else number[3:]


def phone_readings(query: str) -> list[str]:
    """The numbers a phone-like query may mean, as the desk searches them: its digits as typed
    (a local number, or the end of one: "0010020" of 340-0010020), and, when it starts with an
    international prefix ("+39 333…", "0039 333…"), its national number. Typed without "+", a
    leading "00" is read as a prefix only when what follows is a number long enough to be one
    (``MIN_LOCAL_PHONE`` digits): "0010020" is not "+1 0020", every phone holding 0020."""
    typed, local = digits(query), national(query)
    if (query or "").strip().startswith("+"):
        return [local] if local else []
    out = [typed] if typed else []
    if local and local != typed and len(local) >= MIN_LOCAL_PHONE:
        out.append(local)
    return out


def is_phone_like(query: str) -> bool:
    """Digits with the separators people type in phone numbers (+39 333-12…), and at least one digit."""
    return bool(PHONE_LIKE.match(query.strip())) and bool(digits(query))


def words(query: str) -> list[str]:
    return fold(query).split()


@dataclass(frozen=True)
class Candidate:
    """What the ranking reads of a person."""

    id: int
    first_name: str = ""
    last_name: str = ""
    nickname: str = ""
    document_id: str = ""
    phone: str = ""
    email: str = ""


def _parts(c: Candidate) -> list[str]:
    """The whole words a person is known by, folded (a double surname gives two); not his
    document number, which matches only whole (``_exact``), nor his phone (``grade``)."""
    out = []
    for value in (c.first_name, c.last_name, c.nickname, c.email):
        folded = fold(value)
        if folded:
            out.append(folded)
            out.extend(w for w in folded.split() if w != folded)
    return out


def _exact(query: str, c: Candidate) -> bool:
    q = fold(query)
    if not q:
        return False
    whole = {fold(c.nickname), fold(c.email), fold(f"{c.first_name} {c.last_name}"), fold(f"{c.last_name} {c.first_name}")} - {""}
    document = document_key(c.document_id)
    if q in whole or (document and document_key(query) == document):
        return True
    if is_phone_like(query):
        mine = national(c.phone)
        return bool(mine) and any(mine == typed or (len(typed) >= MIN_LOCAL_PHONE and mine.endswith(typed)) for typed in phone_readings(query))
    return False


def word_grade(word: str, parts: list[str]) -> int:
    """How one typed word matches the best of a person's parts."""
    best = NONE
    for part in parts:
        if part == word:
            return WORD
        if part.startswith(word):
            best = min(best, START)
        elif word in part:
            best = min(best, INSIDE)
    return best


def grade(query: str, c: Candidate) -> int:
    """EXACT, WORD, START, INSIDE or PHONE (the worst of the words), NONE when a word matches
    nothing. A phone-like query is one number ("333 12" typed with a space): found in the
    phone's national number, it grades PHONE, after every match by name or nickname."""
    if _exact(query, c):
        return EXACT
    ws = words(query)
    if not ws:
        return NONE
    parts = _parts(c)
    grades = [word_grade(w, parts) for w in ws]
    if is_phone_like(query):
        mine = national(c.phone)
        if mine and any(typed in mine for typed in phone_readings(query)):
            grades = [min(g, PHONE) for g in grades]
    return max(grades)


def sort_key(query: str, c: Candidate) -> tuple:
    return (grade(query, c), fold(c.last_name), fold(c.first_name), c.id)


def rank(query: str, candidates) -> list[Candidate]:
    """The candidates that match ``query``, best first (see the module's docstring)."""
    keyed = [(sort_key(query, c), c) for c in candidates]
    return [c for key, c in sorted(keyed, key=lambda kc: kc[0]) if key[0] != NONE]


# -- the same person -------------------------------------------------------------------------

#: What a name is compared without, beside case and accents: spaces and the marks written between
#: its parts, so "De Luca" is "DeLuca", "D'Angelo" (any apostrophe) "Dangelo", "Rossi-Bianchi"
#: "Rossi Bianchi". Other signs, and the letters of every script, stay.
NAME_SEPARATORS = " '’‘`ʼ-‐‑–—."
_NO_SEPARATORS = str.maketrans("", "", NAME_SEPARATORS)

#: What a person shares with the one named, the strongest first: the same person by ...
SAME_BY = ("name_document", "name_birth_date", "name_email", "name_phone")
#: ... or a look-alike by.
LOOKS_BY = ("document", "email", "phone", "name")


def name_part_key(text: str) -> str:
    """A first or last name as the rule compares it: "  D'Àngelo " → "dangelo"."""
    return fold(text).translate(_NO_SEPARATORS)


def name_key(first: str, last: str) -> tuple[str, str]:
    """A person's first and last name as the rule compares them."""
    return name_part_key(first), name_part_key(last)


def email_key(value: str) -> str:
    return (value or "").strip().lower()


def phone_key(value: str) -> str:
    """A phone's national number, or nothing when it has fewer than ``MIN_LOCAL_PHONE`` digits."""
    number = national(value or "")
    return number if len(number) >= MIN_LOCAL_PHONE else ""


@dataclass(frozen=True)
class Keys:
    """What the rule reads of a person, or of a row or form that names one: each key as compared."""

    name: tuple[str, str] = ("", "")
    document: str = ""
    birth_date: dt.date | None = None
    email: str = ""
    phone: str = ""

    @classmethod
    def of(cls, source: Mapping | Any) -> Keys:
        """The keys of a mapping (a row's values, a form) or of anything with a person's fields."""
        get = source.get if isinstance(source, Mapping) else lambda name: getattr(source, name, None)
        return cls(
            name=name_key(get("first_name") or "", get("last_name") or ""),
            document=document_key(get("document_id") or ""),
            birth_date=get("birth_date") or None,
            email=email_key(get("email") or ""),
            phone=phone_key(get("phone") or ""),
        )


P = TypeVar("P")


@dataclass(frozen=True)
class Match(Generic[P]):
    """A person the one named is (``same``) or looks like, by what they share (``SAME_BY``,
    ``LOOKS_BY``); ``against``: a document or a date of birth of his says he is somebody else."""

    person: P
    by: str
    same: bool
    against: bool = False


def contradicts(named: Keys, person: Keys) -> bool:
    """Another document or another date of birth: two people, whatever else they share."""
    if named.birth_date and person.birth_date and named.birth_date != person.birth_date:
        return True
    return bool(named.document and person.document and named.document != person.document)


def likeness(named: Keys, person: Keys) -> tuple[bool, str, bool] | None:
    """(the same person?, what they share, something against it?), or None: nothing shared."""
    against = contradicts(named, person)
    same_name = bool(named.name[1]) and named.name == person.name
    if same_name and not against:
        shared = (
            named.document and named.document == person.document,
            named.birth_date and named.birth_date == person.birth_date,
            named.email and named.email == person.email,
            named.phone and named.phone == person.phone,
        )
        for by, yes in zip(SAME_BY, shared, strict=True):
            if yes:
                return True, by, False
    shared = (
        named.document and named.document == person.document,
        named.email and named.email == person.email,
        named.phone and named.phone == person.phone,
        same_name,
    )
    for by, yes in zip(LOOKS_BY, shared, strict=True):
        if yes:
            return False, by, against
    return None


def alike(named: Keys, people: Iterable[tuple[Keys, P]]) -> list[Match[P]]:
    """The people (each with his keys) the one named is or looks like: the same first, then the
    look-alikes, each in the order given. The one rule every door a person comes in by asks."""
    found = []
    for keys, person in people:
        seen = likeness(named, keys)
        if seen is not None:
            found.append(Match(person, seen[1], seen[0], seen[2]))
    return sorted(found, key=lambda m: not m.same)


def by_name_alone(matches: list[Match[P]]) -> P | None:
    """The person the name alone names: nobody is the same by a key, one person looks alike, by
    the name only, and nothing of his says he is somebody else."""
    if len(matches) == 1 and matches[0].by == "name" and not matches[0].same and not matches[0].against:
        return matches[0].person
    return None
