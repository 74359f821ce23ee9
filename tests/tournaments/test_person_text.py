"""Issue #40 item 11: names that spoof the screens. A right-to-left override (U+202E),
zero-width characters and line breaks were stored as typed and shown so on the lobby's seat
list and the receipts. A person's text is cleaned in one place, on creation and on correction."""

import pytest

from tournaments.models import Person
from tournaments.people.text import clean_text

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "typed, kept",
    [
        ("Mario\u202eissoR", "MarioissoR"),  # a right-to-left override: the screen would read it backwards
        ("An\u200bna", "Anna"),  # zero-width space
        ("\ufeffLuca\u200d", "Luca"),  # byte-order mark, zero-width joiner
        ("Gian\nLuca", "Gian Luca"),  # a line break in a name: one line
        ("  Pier \t Paolo  ", "Pier Paolo"),
        ("Zoë O'Neil-Smith", "Zoë O'Neil-Smith"),  # letters, apostrophes and hyphens stay
    ],
)
def test_a_name_is_kept_as_it_reads(typed, kept):
    assert clean_text(typed) == kept


def test_the_notes_keep_their_lines_but_not_the_invisible_characters():
    assert clean_text("first line\u202e\r\nsecond  line\n", one_line=False) == "first line\nsecond line"


def test_the_api_stores_and_corrects_names_without_the_spoofing_characters(api, cashier_user):
    client = api(cashier_user)
    r = client.post("/api/v1/people/", {"first_name": "Ma\u202erio", "last_name": "Ros\u200bsi\n", "nickname": "\u2066KING\u2069"}, format="json")
    assert r.status_code == 201, r.content
    p = Person.objects.get(pk=r.data["id"])
    assert (p.first_name, p.last_name, p.nickname) == ("Mario", "Rossi", "KING")
    r = client.patch(f"/api/v1/people/{p.pk}/", {"last_name": "Bian\u202echi"}, format="json")
    assert r.status_code == 200, r.content
    p.refresh_from_db()
    assert p.last_name == "Bianchi"
    r = client.post("/api/v1/people/", {"first_name": "\u200b\u202e", "last_name": "Verdi"}, format="json")
    assert r.status_code == 400 and r.data["code"] == "name_required"  # nothing visible left: no name
