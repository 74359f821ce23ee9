"""One duplicate rule for people: the rule itself (pure, case by case) and the desk's warning that
follows it (the imports' own tests show them following it too)."""

import datetime as dt

import pytest

from tournaments.models import Person
from tournaments.people.rules import Keys, alike, by_name_alone, likeness
from tournaments.people.selectors import PeopleIndex, possible_duplicates

pytestmark_db = pytest.mark.django_db

BORN = dt.date(1980, 2, 3)


def keys(**fields):
    return Keys.of(fields)


MARIO = {"first_name": "Mario", "last_name": "Rossi", "document_id": "AB 123 456", "birth_date": BORN, "email": "Mario@Club.it", "phone": "+39 333 123 4567"}


def seen(named, stored=MARIO):
    """(same, by, against) of ``named`` against the stored ``MARIO`` (or ``stored``)."""
    return likeness(keys(**named), keys(**stored))


@pytest.mark.parametrize(
    ("named", "expected"),
    [
        # the same name and one key: the same person, by the strongest key
        ({"first_name": "MARIO", "last_name": "rossi", "document_id": "ab123456"}, (True, "name_document", False)),
        ({"first_name": "Mario", "last_name": "Rossi", "birth_date": BORN}, (True, "name_birth_date", False)),
        ({"first_name": "Mario", "last_name": "Rossi", "email": " mario@club.IT "}, (True, "name_email", False)),
        ({"first_name": "Mario", "last_name": "Rossi", "phone": "0039 333-1234567"}, (True, "name_phone", False)),
        ({"first_name": "Mario", "last_name": "Rossi", "phone": "333 1234567"}, (True, "name_phone", False)),
        # another document or date of birth: two people of one name, whatever else they share
        ({"first_name": "Mario", "last_name": "Rossi", "phone": "+39 333 1234567", "document_id": "ZZ999"}, (False, "phone", True)),
        ({"first_name": "Mario", "last_name": "Rossi", "email": "mario@club.it", "birth_date": dt.date(1990, 1, 1)}, (False, "email", True)),
        ({"first_name": "Mario", "last_name": "Rossi", "birth_date": dt.date(1990, 1, 1)}, (False, "name", True)),
        # the name alone: a look-alike, nothing against him
        ({"first_name": "Mario", "last_name": "Rossi"}, (False, "name", False)),
        ({"first_name": "Mario", "last_name": "Rossi", "email": "other@club.it"}, (False, "name", False)),
        # a key under another name: a look-alike by it, never the same person
        ({"first_name": "Luca", "last_name": "Bianchi", "document_id": "AB123456"}, (False, "document", False)),
        ({"first_name": "Luca", "last_name": "Bianchi", "email": "MARIO@club.it"}, (False, "email", False)),
        ({"first_name": "Luca", "last_name": "Bianchi", "phone": "+393331234567"}, (False, "phone", False)),
        # nothing shared: a date of birth is no key alone, nor a phone of a few digits, nor another number
        ({"first_name": "Luca", "last_name": "Bianchi", "birth_date": BORN}, None),
        ({"first_name": "Luca", "last_name": "Bianchi", "phone": "4567"}, None),
        ({"first_name": "Luca", "last_name": "Bianchi", "phone": "+39 333 12345678"}, None),
        ({"first_name": "Mario", "last_name": "Rossini"}, None),
        ({}, None),
    ],
)
def test_the_rule_case_by_case(named, expected):
    assert seen(named) == expected


def test_names_are_compared_without_case_accents_spaces_or_the_marks_between_their_parts():
    stored = {"first_name": "Nicolò", "last_name": "D'Àngelo"}
    for first, last in (("nicolo", "dangelo"), ("NICOLÒ", "D’ANGELO"), ("Nicolo", "D Angelo"), ("Nicolò", "d-angelo")):
        assert seen({"first_name": first, "last_name": last}, stored) == (False, "name", False), (first, last)
    assert seen({"first_name": "Maria Luisa", "last_name": "De Luca"}, {"first_name": "Marialuisa", "last_name": "DeLuca"}) == (False, "name", False)
    assert seen({"first_name": "Luisa", "last_name": "Maria De Luca"}, {"first_name": "Maria Luisa", "last_name": "De Luca"}) is None


def test_names_in_any_script_are_compared_by_their_letters():
    """A name in Cyrillic, Greek or Chinese is its letters, not nothing: two such names are two people."""
    ivan = {"first_name": "Иван", "last_name": "Петров"}
    assert seen({"first_name": "Олег", "last_name": "Сидоров"}, ivan) is None
    assert seen({"first_name": "ИВАН", "last_name": "петров"}, ivan) == (False, "name", False)
    assert seen({"first_name": "Γιώργος", "last_name": "Παπαδόπουλος"}, {"first_name": "ΓΙΩΡΓΟΣ", "last_name": "ΠΑΠΑΔΟΠΟΥΛΟΣ"}) == (False, "name", False)


def test_alike_puts_the_same_person_first_and_the_name_alone_names_only_the_one_look_alike():
    named = keys(first_name="Anna", last_name="Neri", phone="347 000 1111")
    sister = (keys(first_name="Sara", last_name="Neri", phone="+39 347 000 1111"), "sara")
    anna = (keys(first_name="Anna", last_name="Neri", phone="347-000-1111"), "anna")
    other = (keys(first_name="Anna", last_name="Neri", birth_date=BORN), "other anna")
    assert [(m.person, m.by, m.same) for m in alike(named, [sister, anna, other])] == [
        ("anna", "name_phone", True),
        ("sara", "phone", False),
        ("other anna", "name", False),
    ]
    assert by_name_alone(alike(keys(first_name="Anna", last_name="Neri"), [other])) == "other anna"
    assert by_name_alone(alike(keys(first_name="Anna", last_name="Neri", birth_date=dt.date(2000, 1, 1)), [other])) is None  # born another day
    assert by_name_alone(alike(keys(first_name="Anna", last_name="Neri", phone="347 000 1111"), [sister, other])) is None  # a phone of another
    two = [other, (keys(first_name="anna", last_name="NERI"), "a third")]
    assert by_name_alone(alike(keys(first_name="Anna", last_name="Neri"), two)) is None


def test_an_index_in_memory_answers_as_the_rule_does():
    index = PeopleIndex([])

    class Row:
        def __init__(self, **kw):
            self.first_name, self.last_name, self.document_id, self.birth_date, self.email, self.phone = "", "", "", None, "", ""
            self.__dict__.update(kw)

    mario, sara = Row(**MARIO), Row(first_name="Sara", last_name="Neri", phone="0039 347 000 1111")
    index.add(mario)
    index.add(sara)
    found = index.alike({"first_name": "Luca", "last_name": "Neri", "phone": "347 0001111", "document_id": "ab123456"})
    assert [(m.person, m.by) for m in found] == [(mario, "document"), (sara, "phone")]
    assert [(m.person, m.by, m.same) for m in index.alike({"first_name": "mario", "last_name": "ROSSI", "email": "mario@club.it"})] == [
        (mario, "name_email", True)
    ]


# -- the desk's warning --------------------------------------------------------------------------


@pytestmark_db
def test_the_desk_warns_of_the_people_the_rule_finds_and_of_no_other(make_person):
    """The desk's warning is the rule's answer: a name with other accents and apostrophes, a
    document with other spaces, a phone written otherwise; not a longer number holding the phone,
    nor digits in a nickname, nor a namesake excluded."""
    nicolo = make_person("Nicolò", "D'Àngelo")
    doc = make_person("Anna", "Verdi", document_id="CA 123 4567")
    phone = make_person("Sara", "Neri", phone="+39 347 000 1111")
    make_person("Ugo", "Gialli", phone="+39 347 000 11112", nickname="p3470001111")
    assert possible_duplicates("Nicolo", "Dangelo") == [nicolo]
    assert possible_duplicates("Luca", "Bianchi", document_id="ca1234567") == [doc]
    assert possible_duplicates("Luca", "Bianchi", phone="347 000 1111") == [phone]
    assert possible_duplicates("Nicolo", "Dangelo", exclude_pk=nicolo.pk) == []
    assert possible_duplicates("Ugo", "Gialli", phone="+39 1") == [Person.objects.get(last_name="Gialli")]


@pytestmark_db
def test_the_desk_lists_the_same_person_first(make_person):
    namesake = make_person("Anna", "Bianchi")
    anna = make_person("Anna", "Bianchi", email="anna@club.it")
    assert possible_duplicates("Anna", "Bianchi", email="ANNA@club.it") == [anna, namesake]


@pytestmark_db
def test_creating_at_the_desk_a_person_only_the_rule_calls_a_duplicate_is_warned(api, cashier_user, make_person):
    make_person("Nicolò", "D'Àngelo", document_id="AB 123 456")
    client = api(cashier_user)
    r = client.post("/api/v1/people/", {"first_name": "Nicolo", "last_name": "Dangelo"}, format="json")
    assert r.status_code == 409 and r.data["code"] == "possible_duplicate"
    r = client.post("/api/v1/people/", {"first_name": "Luca", "last_name": "Bianchi", "document_id": "ab123456"}, format="json")
    assert r.status_code == 409 and r.data["code"] == "possible_duplicate"
