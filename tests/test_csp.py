"""The Content-Security-Policy and the rule that no data ever becomes markup (#11).

The header is checked on every kind of page; the templates and scripts are read as text so that
an inline script, an inline handler or an HTML sink cannot come back unnoticed.
"""

import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.test import Client

from tdmanager import csp
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen
from tournaments.setup import lifecycle

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_DIRS = [ROOT / "templates"] + [p for p in ROOT.glob("*/templates") if p.is_dir()] + [p for p in ROOT.glob("*/*/templates") if p.is_dir()]
TEMPLATES = sorted(p for d in TEMPLATE_DIRS for p in d.rglob("*.html"))
SCRIPTS = sorted((ROOT / "static").glob("*.js"))
PYTHON = sorted(p for app in ("tdmanager", "tournaments", "seating", "payouts") for p in (ROOT / app).rglob("*.py"))


def directives(header: str) -> dict:
    out = {}
    for part in header.split(";"):
        name, *sources = part.split()
        out[name] = sources
    return out


def assert_strict(response, url):
    header = response.get("Content-Security-Policy")
    assert header, f"{url}: no Content-Security-Policy"
    d = directives(header)
    assert d["script-src"] == ["'self'"], f"{url}: script-src {d['script-src']}"
    assert d["default-src"] == ["'self'"] and d["object-src"] == ["'none'"] and d["frame-ancestors"] == ["'none'"], url
    assert d["base-uri"] == ["'self'"] and d["form-action"] == ["'self'"], url
    assert "'unsafe-inline'" not in d["style-src"] and "'unsafe-eval'" not in header, f"{url}: {header}"
    return d


@pytest.fixture
def site(db, make_tournament, make_person, director):
    """A running tournament with a seated player, a receipt and a lobby screen."""
    actor = Actor(director, "test")
    t = make_tournament()
    rows = [cashier.register(t, make_person(), method="CASH", actor=actor) for _ in range(3)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    DisplayScreen.objects.create(name="TV", tournament=t, token="csp-tv", show={"sounds": False})
    return t, rows[0]


def test_every_page_carries_the_strict_policy(site, director):
    t, sale = site
    entry, person = sale.entry, sale.entry.person
    director.is_staff = director.is_superuser = True
    director.save()
    client = Client()
    client.force_login(director)
    pages = [
        "/",
        "/desk/",
        f"/desk/receipt/{sale.row.receipt_number}/",
        f"/desk/receipt/{sale.row.receipt_number}/?print=1",
        "/people/",
        f"/people/{person.pk}/",
        "/structures/",
        "/chipsets/",
        "/tournaments/new/",
        f"/tournaments/{t.pk}/",
        f"/tournaments/{t.pk}/edit/",
        f"/tournaments/{t.pk}/clock/",
        f"/tournaments/{t.pk}/floor/",
        f"/tournaments/{t.pk}/tables/",
        f"/tournaments/{t.pk}/tables/?fragment=1",
        f"/tournaments/{t.pk}/tables/slips/",
        f"/tournaments/{t.pk}/tables/draws/{entry.pk}/",
        f"/seats/{t.pk}/?q=pl",
        f"/tournaments/{t.pk}/payouts/",
        f"/tournaments/{t.pk}/payouts/deal/",
        "/payouts/due/",
        "/formats/",
        "/formats/sit-and-go/new/",
        "/display/csp-tv/",
        "/api/docs/",
        "/admin/",
        "/api/v1/people/",
        f"/live/{t.pk}/state/",
        "/static/tdm.js",
        f"/p/{entry.phone_token}/",
        f"/p/{entry.phone_token}/qr.svg",
        "/tournaments/overview/",
        "/tournaments/templates/",
    ]
    for url in pages:
        r = client.get(url)
        assert r.status_code == 200, url
        assert_strict(r, url)
    # Errors and the pages of somebody logged out carry it too.
    assert_strict(Client().get("/login/"), "/login/")
    assert_strict(Client().get("/desk/"), "/desk/ (redirect)")
    assert_strict(client.get("/tournaments/999999/"), "404")


def test_redoc_alone_allows_inline_styles_and_blob_workers_never_inline_script(db, director):
    client = Client()
    client.force_login(director)
    r = client.get("/api/redoc/")
    d = directives(r["Content-Security-Policy"])
    assert d["script-src"] == ["'self'"] and d["object-src"] == ["'none'"] and d["img-src"] == ["'self'", "data:"]
    assert d["style-src"] == ["'self'", "'unsafe-inline'"] and d["worker-src"] == ["'self'", "blob:"]
    html = r.content.decode()
    assert "<script>" not in html and "<style" not in html and "fonts.googleapis.com" not in html
    assert directives(client.get("/api/docs/")["Content-Security-Policy"])["style-src"] == ["'self'"]  # only that view


def test_swagger_ui_loads_its_init_script_from_our_origin(db, director):
    client = Client()
    client.force_login(director)
    html = client.get("/api/docs/").content.decode()
    assert re.search(r'<script src="/api/docs/\?[^"]*script=', html) and not re.search(r"<script>|<style", html)
    js = client.get("/api/docs/?script=")
    assert js.status_code == 200 and js["Content-Type"].startswith("application/javascript") and b"SwaggerUIBundle(" in js.content


def test_script_src_is_never_widened():
    with pytest.raises(ValueError):
        csp.build({"script-src": ["'unsafe-inline'"]})


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_templates_have_no_inline_code_and_no_unescaped_data(path):
    text = path.read_text()
    assert not INLINE_SCRIPT.search(text), "inline <script>: move the code to static/, pass data with json_script"
    assert not HANDLER.search(text), "inline event handler: bind it in a static script (data- attribute)"
    assert not re.search(r"<style|\sstyle=", text, re.I), "inline style: use a class in static/*.css"
    assert "javascript:" not in text.lower()
    assert not re.search(r"\|\s*safe\b|\|\s*safeseq\b|autoescape\s+off", text), "unescaped output"


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_scripts_never_write_html(path):
    code = path.read_text()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", 'setTimeout("', ".html("):
        assert sink not in code, f"{path.name} uses {sink}: build nodes with textContent / createElement"
    assert not re.search(r"\.on[a-z]+\s*=\s*[\"']", code), "string event handlers"


def test_python_never_marks_data_safe():
    for path in PYTHON:
        text = path.read_text()
        if path.name == "test_csp.py":
            continue
        assert not re.search(r"\bmark_safe\(|\bSafeString\(|\bSafeText\(", text), f"{path}: marks text as safe markup"


def test_json_strings_escapes_quotes_and_markup():
    out = Template('{% load tdm_data %}{% json_strings "x" %}\na: {{ v }}\nb: say "hi" </script><b>\n{% endjson_strings %}').render(
        Context({"v": "l'<img src=x>"})
    )
    assert out.startswith('<script id="x" type="application/json">') and out.count("</script>") == 1
    assert "<img" not in out and "<b>" not in out
    import json

    body = out[len('<script id="x" type="application/json">') : -len("</script>")]
    assert json.loads(body) == {"a": "l'<img src=x>", "b": 'say "hi" </script><b>'}


def test_the_display_gets_its_panels_as_json_not_as_code(site):
    html = Client().get("/display/csp-tv/").content.decode()
    assert '<script id="display-panels" type="application/json">' in html
    assert '<script id="display-i18n" type="application/json">' in html
    assert "window.TDM_DISPLAY" not in html


def test_the_cashier_sees_the_policy_too(site):
    make_user("cash", "cashier")
    client = Client()
    client.login(username="cash", password="pw-cash")
    assert_strict(client.get("/desk/"), "/desk/ (cashier)")


def test_no_other_site_may_load_our_responses(client):
    """Swagger's init script carries the CSRF token: another site must not load it as a script."""
    for url in ("/login/", "/api/docs/?script", "/api/schema/", "/static/tdm.js"):
        assert client.get(url)["Cross-Origin-Resource-Policy"] == "same-origin", url
