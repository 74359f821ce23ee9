"""Static files as a TV on the venue's Wi-Fi gets them: named by their content, kept for ever,
sent compressed to a browser that accepts it.

The requests go through the product's middleware, WhiteNoise included (it answers /static/).
"""

import gzip
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tdmanager import staticbuild
from tests.conftest import make_user

pytestmark = pytest.mark.django_db
SOURCE = Path(settings.BASE_DIR) / "static"


def page_assets(html: str) -> dict[str, str]:
    """{source name: address} of the stylesheets and scripts a page loads from /static/."""
    found = re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"', html)
    return {re.sub(r"\.[0-9a-f]{12}(\.\w+)$", r"\1", url.removeprefix("/static/")): url for url in found}


@pytest.fixture
def page():
    client = Client()
    client.force_login(make_user("tv-static", "director"))
    return client.get("/").content.decode()


def test_a_page_names_its_static_files_by_their_content(page):
    assets = page_assets(page)
    assert {"tdm.css", "tdm.js"} <= set(assets)
    for name, url in assets.items():
        assert re.fullmatch(rf"/static/{re.escape(name.rsplit('.', 1)[0])}\.[0-9a-f]{{12}}\.{name.rsplit('.', 1)[1]}", url), url


def test_a_hashed_file_is_kept_for_a_year_and_more(page):
    response = Client().get(page_assets(page)["tdm.css"])
    assert response.status_code == 200
    cache = response["Cache-Control"]
    assert "immutable" in cache and "public" in cache
    assert int(re.search(r"max-age=(\d+)", cache).group(1)) >= 365 * 24 * 3600


def test_a_browser_that_accepts_gzip_gets_it_smaller(page):
    for name in ("tdm.css", "tdm.js"):
        url = page_assets(page)[name]
        plain = Client().get(url)
        packed = Client().get(url, HTTP_ACCEPT_ENCODING="gzip, deflate")
        assert plain.status_code == packed.status_code == 200
        body = b"".join(packed.streaming_content)
        assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
        assert gzip.decompress(body) == (SOURCE / name).read_bytes()
        assert len(body) < len((SOURCE / name).read_bytes()) / 2, name
        assert not plain.has_header("Content-Encoding")
        assert b"".join(plain.streaming_content) == (SOURCE / name).read_bytes()
        assert "script-src 'self'" in packed["Content-Security-Policy"]  # the policy on static files too


def test_an_unhashed_name_still_answers_but_briefly():
    """An old bookmark or a cached page of before: it opens, and is asked again soon."""
    response = Client().get("/static/tdm.js")
    assert response.status_code == 200 and "immutable" not in response["Cache-Control"]


def test_static_files_are_collected_again_only_when_a_source_changes(settings, tmp_path):
    sources, root = tmp_path / "src", tmp_path / "root"
    sources.mkdir()
    rules = "".join(f".table-{n} {{ color: white; }}\n" for n in range(50))  # big enough to be worth compressing
    (sources / "screen.css").write_text(rules)
    settings.STATICFILES_DIRS = [sources]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = root
    assert staticbuild.ensure_collected() is True
    first = [p.name for p in root.glob("screen.*.css")]
    assert staticbuild.ensure_collected() is False  # nothing changed: no work at start-up
    (sources / "screen.css").write_text(rules.replace("white", "yellow"))
    assert staticbuild.ensure_collected() is True
    names = {p.name for p in root.glob("screen.*.css")}
    assert len(first) == 1 and len(names) == 2 and (root / (first[0] + ".gz")).exists()
