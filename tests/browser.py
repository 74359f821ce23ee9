"""Playwright + Debian chromium for browser tests (no browser download: /usr/bin/chromium).

One Playwright driver and one Chromium serve every browser test of a test process (of an xdist
worker): each test gets a new browser context (its own cookies, storage and pages), which costs
a fraction of a new browser (0.4 s against 1.5 s).
"""

import asyncio
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


class SharedChromium:
    """The test process's Playwright and Chromium, started at the first browser test.

    Playwright's sync API keeps its event loop marked as running in this thread between its
    calls, and Django refuses ORM calls while a loop runs in the thread. With the driver alive for
    the whole session, a non-browser test run after a browser test would be refused: so between
    browser tests the loop is parked (``asyncio.events._set_running_loop``, the hook the event
    loop implementations use) and a browser test takes it back (``in_use``). Inside a browser
    test, the test's ORM calls run beside Playwright's loop, as they always did
    (DJANGO_ALLOW_ASYNC_UNSAFE)."""

    def __init__(self):
        self._playwright = None
        self._browser = None
        self._loop = None

    def _start(self):
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(executable_path=chromium_path(), args=ARGS)
        self._loop = asyncio.get_running_loop()  # Playwright's: its sync calls mark it running

    @contextlib.contextmanager
    def in_use(self):
        """The browser, for one test; started on first use, started again if it died."""
        if self._loop is not None:
            asyncio.events._set_running_loop(self._loop)
        try:
            if self._browser is None or not self._browser.is_connected():
                self.stop()
                self._start()
            yield self._browser
        finally:
            if self._loop is not None:
                asyncio.events._set_running_loop(None)

    def stop(self):
        if self._playwright is None:
            return
        asyncio.events._set_running_loop(self._loop)
        try:
            with contextlib.suppress(Exception):  # a browser that died has nothing left to close
                self._browser.close()
            self._playwright.stop()  # its loop ends here: nothing to park afterwards
        finally:
            self._playwright = self._browser = self._loop = None
            asyncio.events._set_running_loop(None)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """A test that drives Chromium is a browser test whether or not its module says so, so that
    ``-m "not browser"`` (CI's PostgreSQL leg, .ci/run) leaves every one of them out."""
    for item in items:
        if "chromium" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium():
    """The shared Chromium (see ``SharedChromium``); a test takes it with ``chromium.in_use()``."""
    if not chromium_path():
        pytest.skip("Debian chromium is not installed (./tdm test installs it when run as root)")
    shared = SharedChromium()
    yield shared
    shared.stop()


@pytest.fixture
def chromium_browser(chromium, monkeypatch):
    """The shared Chromium for a test that makes its own contexts; the test closes them."""
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # synchronous and safe here.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with chromium.in_use() as shared:
        try:
            yield shared
        finally:
            for context in shared.contexts:  # what the test left open: the next test starts clean
                with contextlib.suppress(Exception):
                    context.close()
            _close_connections_opened_beside_playwright()


def new_page(browser, viewport=(1366, 900), locale="en-US"):
    """A page in a new context of ``browser`` (its own cookies and storage)."""
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


@pytest.fixture
def browser(chromium_browser):
    """A page in headless chromium (no server attached)."""
    return new_page(chromium_browser)


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


def until(page, check):
    """Wait until ``check`` (the source of an async function run in the page) comes true.
    ``wait_for_function`` does not wait for a promise (a promise is truthy at once): the check
    runs in the background and its last answer is what is polled."""
    page.evaluate("() => { window.__untilDone = false; window.__untilRun = null; }")
    page.wait_for_function(
        "() => { const w = window; if (!w.__untilRun) w.__untilRun = (" + check + ")().then("
        "(v) => { w.__untilDone = !!v; w.__untilRun = null; }, () => { w.__untilRun = null; }); return w.__untilDone; }"
    )
