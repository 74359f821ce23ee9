"""Issue #40 item 1: a NUL character anywhere in a request (path, query string, cookie, header,
body) answered 500 on PostgreSQL ("text fields cannot contain NUL"), a traceback logged each time.
It is refused with a 400 before anything reads the database, on both databases."""

import io

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

PUBLIC = [
    "/p/%00/",
    "/p/%00/state/",
    "/p/%00/stream/",
    "/p/%00/qr.svg",
    "/display/%00/",
    "/live/{t}/state/?token=%00",
    "/live/{t}/seats/?token=%00",
    "/live/{t}/stream/?token=%00",
    "/seats/{t}/find/?q=abc%00",
    "/seats/{t}/?q=abc%00",
]


@pytest.mark.parametrize("url", PUBLIC)
def test_a_public_address_with_a_nul_character_is_a_bad_request(url, tournament):
    response = Client(raise_request_exception=False).get(url.format(t=tournament.pk))
    assert response.status_code == 400


def test_the_staff_api_refuses_a_nul_character_in_its_query_its_body_and_its_token(director, tournament):
    c = Client(raise_request_exception=False)
    c.force_login(director)
    r = c.get("/api/v1/people/?q=a%00b")
    assert r.status_code == 400 and r.json()["code"] == "nul_character"
    r = c.post("/api/v1/people/", '{"first_name": "Ma\\u0000rio", "last_name": "Rossi"}', content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "nul_character"
    upload = io.BytesIO(b"kind,small_blind,big_blind\nLEVEL,100\x00,200\n")
    upload.name = "levels.csv"
    r = c.post("/api/v1/structures/import/", {"file": upload})  # a structure file: text, multipart
    assert r.status_code == 400 and r.json()["code"] == "nul_character"
    anon = Client(raise_request_exception=False)
    r = anon.get("/api/v1/tournaments/", HTTP_AUTHORIZATION="Token abc\x00def")
    assert r.status_code == 400 and r.json()["code"] == "nul_character"
    r = anon.get("/", HTTP_COOKIE="sessionid=abc\x00def")
    assert r.status_code == 400


def test_a_page_form_with_a_nul_character_is_refused_in_the_readers_language(director):
    c = Client(raise_request_exception=False)
    c.force_login(director)
    c.cookies["django_language"] = "it"
    r = c.post("/people/", {"first_name": "Ma\x00rio", "last_name": "Rossi"})
    assert r.status_code == 400 and "Richiesta non comprensibile" in r.content.decode()
    assert c.get("/api/v1/people/?q=a%00b").json()["detail"] == "La richiesta contiene un carattere NUL (%00), che nessun campo accetta."


def test_ordinary_text_still_passes(director):
    c = Client()
    c.force_login(director)
    assert c.get("/api/v1/people/?q=100%25").status_code == 200
    r = c.post("/api/v1/people/", {"first_name": "Mario", "last_name": "Rossi", "notes": "100% sure, \\u0001"}, content_type="application/json")
    assert r.status_code == 201, r.content
