"""The favicon and the web app manifest: served to anybody, under the CSP, linked from every page."""

import json
import re

import pytest
from django.test import Client

from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def test_the_favicon_is_served_to_anybody():
    r = Client().get("/favicon.ico")
    assert r.status_code == 200 and r["Content-Type"] == "image/x-icon"
    body = b"".join(r.streaming_content)
    assert body[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert "max-age" in r["Cache-Control"] and "default-src 'self'" in r["Content-Security-Policy"]


def test_the_manifest_keeps_the_dashboard_on_a_home_screen():
    r = Client().get("/manifest.webmanifest")
    assert r.status_code == 200 and r["Content-Type"] == "application/manifest+json"
    data = json.loads(r.content)
    assert data["name"] == "TDManager" and data["start_url"] == "/" and data["display"] == "standalone"
    sizes = {i["sizes"] for i in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        assert icon["src"].startswith("/static/icons/")
    assert "default-src 'self'" in r["Content-Security-Policy"]


def test_the_manifest_speaks_the_users_language():
    r = Client().get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="it")
    data = json.loads(r.content)
    assert data["lang"] == "it" and data["description"] == "Tornei di poker: cassa, sala, orologio e premi"


def test_every_page_links_the_icons_and_the_manifest():
    client = Client()
    client.force_login(make_user("icons", "director"))
    html = client.get("/").content.decode()
    assert '<link rel="icon" href="/favicon.ico"' in html
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    # The icon by its content-hashed name (the manifest storage), and the name opens.
    icon = re.search(r'<link rel="apple-touch-icon" href="(/static/icons/icon-180\.[0-9a-f]{12}\.png)">', html)
    assert icon, html[:600]
    assert client.get(icon.group(1)).status_code == 200
    login = Client().get("/login/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in login
