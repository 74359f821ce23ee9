"""The sheets kept between their upload and their import: read one at a time on every path that
reads them again, bounded per director, forgotten within the hour, and written without leaving
their bytes in the database connections."""

import io
import json
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.utils import timezone

from tdmanager import bodylimits
from tests.conftest import client_for, make_user
from tournaments.eventlog.services import Actor
from tournaments.imports import services as import_services
from tournaments.models import ImportFile, Person
from tournaments.tasks import forget_import_files

pytestmark = pytest.mark.django_db

SHEET = b"Cognome;Nome\r\nRossi;Anna\r\n"
BUSY = "Other sheets are being read at this moment: try again in a moment."


def page_of(user) -> Client:
    page = Client()
    page.force_login(user)
    return page


def uploaded(page: Client, data: bytes = SHEET, name: str = "soci.csv") -> str:
    upload = io.BytesIO(data)
    upload.name = name
    r = page.post("/imports/people/", {"file": upload})
    assert r.status_code == 302 and "/imports/people/" in r["Location"]
    return r["Location"]


def test_every_page_that_reads_a_kept_sheet_again_waits_for_its_turn(director):
    page = page_of(director)
    preview = uploaded(page)
    with bodylimits.file_turn():  # another sheet (or image) is being read in this process
        look = page.get(preview)
        assert look.status_code == 503 and BUSY in look.content.decode() and look["Retry-After"]
        refused = page.get(preview + "refused.csv")
        assert refused.status_code == 503 and BUSY in refused.content.decode()
        page.post(preview, {"op": "import"})
        assert Person.objects.count() == 0
    assert BUSY in page.get(preview).content.decode()  # the confirmation's answer, shown once the turn is free
    page.post(preview, {"op": "import"})
    assert Person.objects.count() == 1


def test_a_busy_kept_sheet_is_the_products_page_in_the_directors_language(director):
    """A director who looks at a preview (or its refused rows) while another sheet is read sees
    the product's page saying so, with a link to ask again, not a line of plain text."""
    page = page_of(director)
    preview = uploaded(page)
    with bodylimits.file_turn():
        for address in (preview, preview + "refused.csv", preview + "refused.xlsx"):
            r = page.get(address, HTTP_ACCEPT_LANGUAGE="it")
            html = r.content.decode()
            assert r.status_code == 503 and r["Retry-After"] == "2" and r["Content-Type"].startswith("text/html"), (address, r.status_code)
            assert "Altri fogli sono in lettura in questo momento: riprova tra poco." in html
            assert "<h1>Occupato per un momento</h1>" in html and f'<a href="{address}">Riprova</a>' in html
            assert "Torna ai tornei" in html and "<!doctype html>" in html.lower()
    assert page.get(preview, HTTP_ACCEPT_LANGUAGE="it").status_code == 200


def test_a_busy_answer_under_the_api_stays_json(rf):
    from tdmanager.errorpages import busy_page

    r = busy_page(rf.get("/api/v1/imports/people/"), BUSY)
    assert r.status_code == 503 and json.loads(r.content) == {"code": "busy", "detail": BUSY} and r["Retry-After"] == "2"


def test_a_busy_sheet_import_says_sheets_are_being_read(director):
    api = client_for(director)
    upload = io.BytesIO(SHEET)
    upload.name = "soci.csv"
    with bodylimits.file_turn():
        r = api.post("/api/v1/imports/people/preview/", {"file": upload}, format="multipart")
        assert r.status_code == 503 and r.json()["code"] == "busy" and r.json()["detail"] == BUSY
        page = page_of(director)
        upload.seek(0)
        r = page.post("/imports/people/", {"file": upload}, follow=True)
        assert BUSY in r.content.decode()


def test_the_web_apps_busy_answer_for_a_sheet_names_sheets():
    from tdmanager.errorpages import busy_reading_file

    status, _headers, body = busy_reading_file("/api/v1/imports/people/", "en", bodylimits.SHEET)
    assert status == 503 and BUSY.encode() in body
    assert b"images" in busy_reading_file("/api/v1/screen-images/", "en", bodylimits.IMAGE)[2]


def test_a_hostile_kept_sheet_is_refused_on_its_page_with_the_limit_named(director):
    page = page_of(director)
    xml = (
        b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        b'<row r="1"><c r="A1" t="inlineStr"><is><t>Cognome</t></is></c></row><row r="200000000"/></sheetData></worksheet>'
    )
    from tests.imports.test_sheets import forged

    preview = uploaded(page, forged(xml), "soci.xlsx")
    r = page.get(preview, follow=True)
    assert "The file has more than 100,000 rows." in r.content.decode()
    upload = io.BytesIO(forged(xml))
    upload.name = "soci.xlsx"
    r = client_for(director).post("/api/v1/imports/people/preview/", {"file": upload}, format="multipart")
    assert r.status_code == 400 and r.json()["code"] == "too_many_rows" and "100,000" in r.json()["detail"]


def test_a_directors_waiting_sheets_are_bounded_the_oldest_forgotten(director, monkeypatch):
    other = make_user("olga", "director")
    theirs = import_services.keep_file("people", SHEET, "theirs.csv", actor=Actor(other))
    actor = Actor(director)
    kept = [import_services.keep_file("people", SHEET, f"{i}.csv", actor=actor) for i in range(import_services.KEPT_FILES + 2)]
    waiting = set(ImportFile.objects.filter(created_by=director).values_list("pk", flat=True))
    assert waiting == {k.pk for k in kept[-import_services.KEPT_FILES :]}  # the two oldest forgotten
    monkeypatch.setattr(import_services, "KEPT_BYTES", 3 * len(SHEET) + 10)
    newest = import_services.keep_file("people", SHEET * 2, "big.csv", actor=actor)  # 2 sheets' bytes: room for one more
    assert set(ImportFile.objects.filter(created_by=director).values_list("pk", flat=True)) == {newest.pk, kept[-1].pk}
    assert ImportFile.objects.filter(pk=theirs.pk).exists()  # another director's are his own


def test_a_kept_sheet_is_forgotten_within_the_hour():
    schedule = settings.CELERY_BEAT_SCHEDULE["forget-import-files"]
    assert schedule["task"] == "tournaments.tasks.forget_import_files"
    assert import_services.KEPT_FOR.total_seconds() + schedule["schedule"] <= 3600


def test_the_purge_forgets_what_is_older_than_it_keeps(director):
    actor = Actor(director)
    old = import_services.keep_file("people", SHEET, "old.csv", actor=actor)
    fresh = import_services.keep_file("people", SHEET, "fresh.csv", actor=actor)
    ImportFile.objects.filter(pk=old.pk).update(created_at=timezone.now() - import_services.KEPT_FOR - timedelta(minutes=1))
    ImportFile.objects.filter(pk=fresh.pk).update(created_at=timezone.now() - import_services.KEPT_FOR + timedelta(minutes=5))
    forget_import_files()
    assert list(ImportFile.objects.values_list("pk", flat=True)) == [fresh.pk]


@pytest.mark.skipif("connection.vendor != 'postgresql' or not settings.TDM_PG_PREPARE", reason="PostgreSQL with TDM_PG_PREPARE on")
def test_a_kept_sheets_bytes_stay_out_of_the_statements_the_connection_keeps(director):
    """psycopg counts each statement text it runs on a connection (up to 100 of them) to prepare
    the frequent ones: a text holding the file (as hex) would stay in every pooled connection."""
    actor = Actor(director)
    connection.ensure_connection()
    kept_texts = connection.connection._prepared  # psycopg's per-connection cache of statement texts
    for i in range(3):
        data = SHEET + bytes([65 + i]) * (1024 * 1024)
        kept = import_services.keep_file("people", data, f"{i}.csv", actor=actor)
        assert bytes(ImportFile.objects.get(pk=kept.pk).data) == data
    texts = [key for key in (*kept_texts._counts, *kept_texts._names)]
    longest = max(len(query) for query, _types in texts)
    assert longest < 16 * 1024, f"a statement of {longest:,} bytes kept by the connection"
