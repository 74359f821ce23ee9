"""Error pages a person meets: in the product's look and the request's language, never Django's
bare English "Not Found" / "403 Forbidden"; and an ordinary refusal is one log line, not a
traceback."""

import io
import logging

import pytest
from django.templatetags.static import static
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_mistyped_phone_link_says_what_to_do_in_the_players_language():
    r = Client().get("/p/not-a-real-token-123/", HTTP_ACCEPT_LANGUAGE="it")
    page = r.content.decode()
    assert r.status_code == 404
    assert "Inquadra di nuovo il codice QR della ricevuta" in page and "Not Found" not in page
    assert 'lang="it"' in page and static("tdm.css") in page  # the product's page, not Django's bare one
    r = Client().get("/p/not-a-real-token-123/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Scan the QR code on your receipt again" in r.content.decode()


def test_an_unknown_staff_page_is_a_page_of_the_product(director):
    client = Client()
    client.force_login(director)
    page = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Pagina non trovata" in page and "Torna ai tornei" in page


def test_a_display_login_sees_no_links_it_cannot_open_and_a_refusal_in_italian(display_user, director, tournament):
    screen = Client()
    screen.force_login(display_user)
    listing = screen.get("/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert tournament.name in listing and f'href="/tournaments/{tournament.pk}/"' not in listing
    staff = Client()
    staff.force_login(director)
    assert f'href="/tournaments/{tournament.pk}/"' in staff.get("/").content.decode()

    refused = screen.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="it")
    page = refused.content.decode()
    assert refused.status_code == 403
    assert "Accesso non consentito" in page and "Forbidden" not in page and static("tdm.css") in page


def test_an_ordinary_refusal_is_logged_as_one_line_without_a_traceback(display_user, tournament):
    # A handler as the console's is configured (its filters, its format), writing where the test
    # reads: the console's own stream is whatever stderr was when logging was configured.
    console = next(h for h in logging.getLogger().handlers if getattr(h, "name", None) == "console")
    written = io.StringIO()
    probe = logging.StreamHandler(written)
    probe.filters, probe.formatter = list(console.filters), console.formatter
    root = logging.getLogger()
    root.addHandler(probe)
    try:
        screen = Client()
        screen.force_login(display_user)
        assert screen.get(f"/tournaments/{tournament.pk}/").status_code == 403
    finally:
        root.removeHandler(probe)
    log = written.getvalue()
    assert f"Forbidden (Permission denied): /tournaments/{tournament.pk}/" in log
    assert "Traceback" not in log and "PermissionDenied" not in log
