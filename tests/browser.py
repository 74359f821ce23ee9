"""Playwright + Debian chromium for browser tests (no browser download: /usr/bin/chromium)."""

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.getenv("TDM_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
]


def chromium_missing() -> bool:
    return not (Path(CHROMIUM).exists() or shutil.which("chromium"))


@pytest.fixture
def browser_page(live_server, monkeypatch):
    """A fresh page in headless chromium, pointed at the live server."""
    if chromium_missing():
        pytest.skip("Debian chromium is not installed (./tdm test installs it when run as root)")
    # Playwright's sync API runs an event loop in this thread; the ORM calls made by the test
    # itself are synchronous and safe here.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"), args=ARGS)
        context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-US")
        page = context.new_page()
        page.set_default_timeout(15000)
        page.base_url = live_server.url
        try:
            yield page
        finally:
            context.close()
            browser.close()


def login(page, username, password):
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    page.wait_for_url(lambda url: "/login/" not in url)
