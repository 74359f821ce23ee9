"""In a real browser: the favicon answers 200, the manifest and its icons load under the CSP."""

import pytest

from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_favicon_and_the_manifest_icons_load_on_a_page(browser_page):
    page = browser_page
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    bad = []
    page.on("response", lambda r: bad.append((r.status, r.url)) if r.status >= 400 else None)
    make_user("tablet", "director")
    login(page, "tablet", "pw-tablet")
    page.goto(page.base_url + "/")
    checks = page.evaluate("""async () => {
        const out = {};
        for (const link of document.querySelectorAll("link[rel=icon], link[rel=apple-touch-icon], link[rel=manifest]")) {
            const r = await fetch(link.href);
            out[link.getAttribute("href")] = r.status;
            if (link.rel === "manifest") {
                const m = await r.json();
                out.start_url = m.start_url; out.display = m.display;
                for (const icon of m.icons) out[icon.src] = (await fetch(icon.src)).status;
            }
        }
        return out;
    }""")
    assert checks["/favicon.ico"] == 200 and checks["/manifest.webmanifest"] == 200
    assert checks["start_url"] == "/" and checks["display"] == "standalone"
    icon_statuses = [v for k, v in checks.items() if k.startswith("/static/icons/")]
    assert len(icon_statuses) >= 5 and set(icon_statuses) == {200}
    assert not [e for e in errors if "Content Security Policy" in e or "manifest" in e.lower()]  # the dashboard, under the CSP
    assert not [b for b in bad if "favicon" in b[1] or "manifest" in b[1] or "/icons/" in b[1]]
    page.screenshot(path=str(ARTIFACTS / "app-dashboard-with-icon.png"))
    # (the browser's own image viewer styles itself inline, which the CSP blocks: not our page)
    assert page.goto(page.base_url + "/static/icons/icon-512.png").status == 200
    page.screenshot(path=str(ARTIFACTS / "app-icon-512.png"))
    assert page.goto(page.base_url + "/favicon.ico").status == 200
