"""Playwright + Debian chromium for browser tests (no browser download: /usr/bin/chromium)."""

import contextlib
import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.getenv("TDM_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def chromium_path():
    if Path(CHROMIUM).exists():
        return CHROMIUM
    return shutil.which("chromium")


@contextlib.contextmanager
def open_browser(viewport=(1366, 900)):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=ARGS)
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, locale="en-US")
        page = context.new_page()
        page.set_default_timeout(15000)
        try:
            yield page
        finally:
            context.close()
            browser.close()


@pytest.fixture
def browser(monkeypatch):
    """A page in headless chromium (no server attached)."""
    if not chromium_path():
        pytest.skip("Debian chromium is not installed (./tdm test installs it when run as root)")
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # synchronous and safe here.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with open_browser() as page:
        try:
            yield page
        finally:
            _close_connections_opened_beside_playwright()


def _close_connections_opened_beside_playwright():
    """The test's own ORM calls made while Playwright's sync API runs open their connection in a
    context Django's test teardown does not see: closed here (given back to PostgreSQL's pool),
    or the test database cannot be dropped at the end of the run. A connection inside a test's
    transaction is left to the test's rollback."""
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


@pytest.fixture
def browser_page(live_server, browser):
    """A page pointed at Django's live test server."""
    browser.base_url = live_server.url
    return browser


def login(page, username, password):
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    page.wait_for_url(lambda url: "/login/" not in url)


def answer_dialog(page, text=None, ok=True):
    """Answer the page's in-page dialog (static/tdm.js TDM.ask / TDM.confirm, a <dialog>, never
    the browser's prompt()): type ``text`` into its field if given, then OK (or Cancel). Waits
    until that dialog is gone (the page may open the next one at once: a reason after a value)."""
    from playwright.sync_api import Error as PlaywrightError

    dialog = page.locator("dialog.tdm-dialog[open]")
    dialog.wait_for(state="visible")
    answered = dialog.element_handle()
    if text is not None:
        dialog.locator("[name=answer]").fill(text)
    dialog.locator("button[value=ok]" if ok else "button[value=cancel]").click()
    try:
        answered.wait_for_element_state("hidden")
    except PlaywrightError as exc:  # the answer submitted a form: the page, and its dialog, are gone
        if "not attached" not in str(exc):
            raise
