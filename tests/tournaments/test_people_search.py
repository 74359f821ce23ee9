"""The desk finds the person meant first: the ranking (pure) and the people API's order."""

import pytest

from tournaments.people.rules import EXACT, INSIDE, NONE, PHONE, START, WORD, Candidate, fold, grade, national, phone_readings, rank


def c(pk, first, last, **kw):
    return Candidate(pk, first, last, **kw)


def names(query, people):
    return [f"{p.first_name} {p.last_name}" for p in rank(query, people)]


CROWD = [
    c(1, "Anna", "Uno", phone="+39 331 111 1111"),
    c(2, "Bruno", "Due", phone="+39 345 100 2001"),
    c(3, "Carla", "Tre", phone="0171 1234"),
    c(4, "Simona", "Neri", nickname="sim1"),
    c(5, "Simone", "Zeta", nickname="sim10"),
    c(6, "Luca", "Bassi", nickname="luc2"),
    c(7, "Lucia", "Conti", nickname="luc", phone="+39 335 222 2222"),
]


def test_an_exact_nickname_with_digits_comes_first():
    assert names("sim1", CROWD)[0] == "Simona Neri"
    assert names("SIM1", CROWD) == ["Simona Neri", "Simone Zeta"]  # sim10 starts with it; no phone with a 1
    assert names("luc2", CROWD) == ["Luca Bassi"]


def test_last_names_that_start_with_the_letters_come_before_those_that_hold_them():
    people = [c(1, "Marco", "Ferrari"), c(2, "Paolo", "Rizzo"), c(3, "Anna", "Ricci"), c(4, "Enrico", "Bianchi")]
    assert names("ri", people) == ["Anna Ricci", "Paolo Rizzo", "Enrico Bianchi", "Marco Ferrari"]
    assert grade("ri", people[2]) == START and grade("ri", people[0]) == INSIDE


def test_accents_and_case_are_ignored():
    nicolo = c(1, "Nicolò", "D'Àngelo")
    assert fold("  Nicolò  D'Àngelo ") == "nicolo d'angelo"
    assert grade("nicolo", nicolo) == WORD
    assert grade("NICOLÒ d'angelo", nicolo) == EXACT
    assert grade("d'ange", nicolo) == START


def test_exact_document_phone_and_full_name_rank_first():
    people = [
        c(1, "Mario", "Rossini", document_id="AB1234567"),
        c(2, "Mario", "Rossi", document_id="AB123456"),
        c(3, "Maria", "Rossi", phone="+39 333 123 4567"),
        c(4, "Gianmario", "Rossi", phone="+39 333 123 4500"),
    ]
    assert names("ab123456", people)[0] == "Mario Rossi"
    assert names("AB 123 456", people)[0] == "Mario Rossi"  # a document typed with spaces
    assert names("333 123 4567", people)[0] == "Maria Rossi"  # a local number: the end of +39…
    assert names("rossi mario", people)[0] == "Mario Rossi"
    assert names("mario rossi", people)[0] == "Mario Rossi"
    assert grade("+39 333 123 4567", people[2]) == EXACT


def test_a_document_matches_only_whole():
    """Lists show a document masked with its last characters and its length: a match on a part
    would tell the rest one guessed character at a time (issue #40 item 5)."""
    mario, mario2 = c(1, "Mario", "Rossi", document_id="AB123456"), c(2, "Mario", "Rossini", document_id="AB1234567")
    assert names("ab 123 456", [mario, mario2]) == ["Mario Rossi"]
    for part in ("3456", "ab12", "123"):
        assert grade(part, mario) == NONE, part
    assert grade("mario 3456", mario) == NONE


def test_a_whole_word_beats_a_start_and_ties_go_by_name():
    people = [c(1, "Marianna", "Bo"), c(2, "Mario", "Verdi"), c(3, "Mario", "Bianchi"), c(4, "Anna", "Amario")]
    assert names("mario", people) == ["Mario Bianchi", "Mario Verdi", "Anna Amario"]  # "mario" is not in Marianna
    assert names("mari", people) == ["Mario Bianchi", "Marianna Bo", "Mario Verdi", "Anna Amario"]
    assert grade("mari", people[0]) == START and grade("mario", people[3]) == INSIDE


def test_every_word_must_match_and_a_word_matching_nothing_drops_the_person():
    assert names("mario zzz", [c(1, "Mario", "Rossi")]) == []
    assert rank("", [c(1, "Mario", "Rossi")]) == []


def test_a_digit_in_a_name_query_is_not_a_phone_search():
    """ "sim1" is a nickname, not "any phone holding a 1"; "333 12" is a phone number."""
    assert [p.id for p in rank("sim1", CROWD)] == [4, 5]
    assert [p.id for p in rank("345 100", CROWD)] == [2]


def test_digits_match_the_national_number_and_a_nickname_holding_them_comes_first():
    """ "39" is not every Italian phone (+39): it matches the national number, after a nickname."""
    people = [c(1, "Anna", "Abate", phone="+39 331 111 1111"), c(2, "Bruno", "Bassi", phone="+39 339 100 2001"), c(3, "Sara", "Rizzi", nickname="sar39")]
    assert names("39", people) == ["Sara Rizzi", "Bruno Bassi"]
    assert grade("39", people[2]) == INSIDE and grade("39", people[1]) == PHONE and grade("39", people[0]) == NONE
    assert names("+39 339 100", people) == names("0039 339100", people) == ["Bruno Bassi"]
    assert grade("339 100 2001", people[1]) == EXACT
    assert [national(p) for p in ("+39 333-1234", "0039 333 1234", "333 1234", "+1 555 1234", "+353 87 1234")] == ["3331234"] * 3 + ["5551234", "871234"]


pytestmark_db = pytest.mark.django_db


@pytestmark_db
def test_the_api_finds_a_nickname_with_digits_among_hundreds_of_italian_phones(api, cashier_user, make_person):
    """More Italian phones than the search reads as candidates, every one "+39", all sorting
    before the player meant: the desk's 12 answers start with his nickname, and a phone whose
    only 39 is the country code is not an answer."""
    for i in (i for i in range(220) if "39" not in f"{i:03d}"):
        make_person(f"Player{i}", f"Abate{i:03d}", phone=f"+39 331 {i:03d} 1111")
    meant = make_person("Sara", "Rizzi", nickname="sar39")
    mobile = make_person("Bruno", "Zanetti", phone="+39 339 100 2001")
    r = api(cashier_user).get("/api/v1/people/", {"q": "39", "limit": 12})
    assert r.status_code == 200
    assert [p["id"] for p in r.data] == [meant.pk, mobile.pk]


@pytestmark_db
def test_the_api_lists_the_person_meant_first(api, cashier_user, make_person):
    for i in range(12):  # twelve people whose phones hold a 1 and whose names hold "ri"
        make_person(f"Player{i}", f"Ferrari{i}", phone=f"+39 331 {i:03d} 1111")
    sim = make_person("Simona", "Neri", nickname="sim1")
    make_person("Simone", "Zeta", nickname="sim10")
    luc = make_person("Luca", "Bassi", nickname="luc2")
    ricci, rizzo = make_person("Anna", "Ricci"), make_person("Paolo", "Rizzo")
    accent = make_person("Nicolò", "Bèrtoli")
    client = api(cashier_user)

    def ids(q, **extra):
        r = client.get("/api/v1/people/", {"q": q, **extra})
        assert r.status_code == 200
        return [p["id"] for p in r.data]

    assert ids("sim1")[0] == sim.pk and len(ids("sim1")) == 2
    assert ids("luc2") == [luc.pk]
    assert ids("ri")[:2] == [ricci.pk, rizzo.pk]
    assert len(ids("ri")) == 15  # then Neri and every Ferrari (inside the name)
    assert ids("nicolo bertoli") == [accent.pk]
    assert ids("BÈRT") == [accent.pk]
    assert len(ids("ri", limit=3)) == 3
    assert ids("331 005") == [p.pk for p in type(sim).objects.filter(last_name="Ferrari5")]


@pytestmark_db
def test_the_desk_finds_a_document_only_whole_and_the_other_roles_not_at_all(api, floor_user, cashier_user, director, make_person):
    """Issue #40 item 5: a search matching a part of a document, whose masked form shows its last
    three characters and its length, would give the rest away one guessed character at a time;
    only the roles that read whole numbers at the desk (cashier, director) find a person by it."""
    mario = make_person("Mario", "Rossi", document_id="CA 12345 XY")
    make_person("Maria", "Bianchi", document_id="CA98765ZZ")

    def ids(user, q):
        r = api(user).get("/api/v1/people/", {"q": q})
        assert r.status_code == 200
        return [p["id"] for p in r.data]

    for q in ("CA12345XY", "ca 12345 xy", "5XY", "12345", "ca"):
        assert ids(floor_user, q) == [], q
    for user in (cashier_user, director):
        assert ids(user, "CA12345XY") == ids(user, "ca 12345 xy") == [mario.pk]
        for part in ("5XY", "45XY", "12345", "CA1", "ca"):
            assert ids(user, part) == [], part
    assert ids(floor_user, "rossi") == ids(cashier_user, "rossi") == [mario.pk]  # the name still finds him


def test_the_search_hint_speaks_of_documents_only_to_the_roles_that_find_by_them(client, floor_user, cashier_user, director):
    """The floor's search finds nobody by a document (above): its hint does not offer it."""
    hints = {}
    for user in (floor_user, cashier_user, director):
        client.force_login(user)
        page = client.get("/people/", HTTP_ACCEPT_LANGUAGE="it")
        assert page.status_code == 200
        hints[user] = page.content.decode().split('id="q-hint"', 1)[1].split("</p>", 1)[0]
    assert "documento" not in hints[floor_user] and "nome, nickname, telefono o e-mail" in hints[floor_user]
    assert "un documento dal suo numero intero" in hints[cashier_user] == hints[director]


@pytestmark_db
def test_a_duplicate_phone_is_the_same_national_number_however_written(make_person):
    """The desk's duplicate check matches a phone by its national number ("0039 333 1234567" is
    "+39 333-1234567"); a number of a few digits is no phone to match: it is in many people's
    texts (a nickname, an e-mail), and a new person was refused as the duplicate of them."""
    from tournaments.people.selectors import possible_duplicates

    mario = make_person("Mario", "Rossi", phone="+39 333-1234567")
    make_person("Sara", "Neri", nickname="sar1")
    assert list(possible_duplicates("Luca", "Bianchi", phone="0039 333 1234567")) == [mario]
    assert list(possible_duplicates("Luca", "Bianchi", phone="+39 1")) == []


def test_digits_typed_with_a_leading_00_are_the_end_of_a_phone_not_an_international_prefix():
    """ "0010020", the last digits of 340-0010020: the digits as typed, not "+1 0020" (every
    phone holding 0020); "0039 333 1234567" still reads its prefix."""
    assert phone_readings("0010020") == ["0010020"]
    assert phone_readings("0039 333 1234567") == ["00393331234567", "3331234567"]
    assert phone_readings("+39 333 12") == ["33312"]
    assert phone_readings("333-12") == ["33312"]


@pytestmark_db
def test_the_api_puts_the_owner_of_the_last_digits_typed_first(api, cashier_user, make_person):
    """The desk types the last digits of a player's phone, a leading 00 among them, and Enter
    takes the first line: it is his, and people whose phones hold only part of them are not listed."""
    make_person("Anna", "Abate", phone="+39 331 000 2011")  # holds "0020", not "0010020"
    make_person("Bruno", "Bassi", phone="347 100 0020")
    owner = make_person("Ugo", "Zanetti", phone="340-0010020")
    r = api(cashier_user).get("/api/v1/people/", {"q": "0010020"})
    assert r.status_code == 200
    assert [p["id"] for p in r.data] == [owner.pk]
    r = api(cashier_user).get("/api/v1/people/", {"q": "+39 340 001 0020"})
    assert [p["id"] for p in r.data] == [owner.pk]
