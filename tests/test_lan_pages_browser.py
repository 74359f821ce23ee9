"""What a device is told it can and cannot do, in Chromium: the table map and the phone's notices
card opened over plain HTTP by the room's name say why the offline app and the notices are not
there, and where they are; the trust page's check; axe on the trust page.

The live server is ``http://localhost``, which browsers treat as a secure page. To see what a
tablet sees on the room's Wi-Fi over plain HTTP, a Chromium of this module's own resolves
``tdm.sala`` to the live server (``--host-resolver-rules``): ``http://tdm.sala:PORT`` is not secure.
"""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser import ARGS, browser, browser_page, chromium_path, login, new_page  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_axe_browser import problems
from tests.test_axe_walk_browser import AXE, findings
from tests.test_lan_pages import HOSTS, make_ca
from tournaments.cashier import services as cashier

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOM = "https://tdm.sala:8443"


@pytest.fixture
def sala(chromium_browser, live_server, settings):
    """A page of a Chromium that opens the live server as ``http://tdm.sala:PORT`` (not secure)."""
    settings.ALLOWED_HOSTS = HOSTS
    own = chromium_browser.browser_type.launch(executable_path=chromium_path(), args=[*ARGS, "--host-resolver-rules=MAP tdm.sala 127.0.0.1"])
    try:
        page = new_page(own)
        page.base_url = f"http://tdm.sala:{urlsplit(live_server.url).port}"
        yield page
    finally:
        own.close()


def test_the_table_map_over_plain_http_says_why_there_is_no_offline_app(sala, settings, make_tournament):
    settings.TDM_ROOM_URL = ROOM
    t = make_tournament()
    make_user("flo", "floor")
    login(sala, "flo", "pw-flo")
    sala.goto(sala.base_url + f"/tournaments/{t.pk}/tables/")
    assert sala.evaluate("() => window.isSecureContext") is False
    notice = sala.locator("#floor-offline-unable")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(f"Offline mode needs the secure address: open {ROOM}")
    expect(notice.locator(f'a[href="{ROOM}/tournaments/{t.pk}/tables/"]')).to_be_visible()
    expect(notice.locator('[data-why=insecure] a[href="/trust/"]')).to_be_visible()
    assert problems(sala, "table map over plain HTTP") == []

    settings.TDM_ROOM_URL = ""
    sala.reload()
    expect(sala.locator("#floor-offline-unable")).to_contain_text("Offline mode needs a secure (https) address: ask the director.")


def test_the_table_map_on_a_secure_page_says_nothing(browser_page, make_tournament):
    t = make_tournament()
    make_user("flo", "floor")
    login(browser_page, "flo", "pw-flo")
    browser_page.goto(browser_page.base_url + f"/tournaments/{t.pk}/tables/")
    browser_page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    expect(browser_page.locator("#floor-offline-unable")).to_be_hidden()


def test_the_phones_notices_card_over_plain_http_names_the_cause(sala, settings, tournament, make_person, cashier_actor):
    token = cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor).entry.phone_token
    sala.goto(sala.base_url + f"/p/{token}/")
    card = sala.locator("#push-card")
    expect(card).to_be_visible()
    expect(sala.locator("#push-status")).to_contain_text("not on a secure (https) address")
    expect(sala.locator("#push-status")).not_to_contain_text("This browser cannot receive notices")
    expect(sala.locator("#push-button")).to_be_hidden()

    settings.TDM_PUBLIC_URL = "https://torneo.example.org"
    sala.reload()
    expect(sala.locator("#push-status")).to_contain_text("Open it at its secure address")
    expect(sala.locator(f'#push-secure a[href="https://torneo.example.org/p/{token}/"]')).to_be_visible()


def test_the_check_over_plain_http_says_this_page_has_no_offline_app(sala, settings, live_server, tmp_path):
    settings.VAR_DIR, settings.TDM_LAN = tmp_path, True
    make_ca(tmp_path)
    settings.TDM_ROOM_URL = live_server.url  # the secure address stands in: the device reaches it
    sala.goto(sala.base_url + "/trust/")
    sala.click("#trust-check-button")
    result = sala.locator("#trust-result")
    expect(result).to_contain_text("This device trusts the room's secure address.")
    expect(result).to_contain_text("Offline mode of the floor's pages: not here, because this page is not on a secure address.")
    expect(result).to_contain_text("Notices: not here")

    settings.TDM_ROOM_URL = "https://tdm.sala:9"  # nothing answers there: as a certificate not trusted
    sala.reload()
    sala.click("#trust-check-button")
    expect(result).to_contain_text("does not trust the room's secure address yet")


def test_the_trust_page_reads_well_in_both_languages_with_and_without_the_room(browser_page, settings, tmp_path, live_server):
    page = browser_page
    page.context.add_init_script(path=str(AXE))  # the whole walk's reading too (WCAG A and AA)
    settings.TDM_LAN, settings.TDM_ROOM_URL = False, ""
    page.goto(page.base_url + "/trust/")
    found = problems(page, "trust page, no room") + findings(page, "trust page, no room")
    settings.VAR_DIR, settings.TDM_LAN, settings.TDM_ROOM_URL = tmp_path, True, live_server.url
    make_ca(tmp_path)
    page.goto(page.base_url + "/trust/")
    page.click("#trust-check-button")
    expect(page.locator("#trust-result")).to_contain_text("Offline mode of the floor's pages: available on this page.")
    found += problems(page, "trust page") + findings(page, "trust page")
    with page.expect_navigation():
        page.select_option("select[name=language]", "it")
    expect(page.locator("h1")).not_to_contain_text("Trust the room")
    page.click("#trust-check-button")
    expect(page.locator("#trust-result li")).to_have_count(3)
    found += problems(page, "trust page, Italian") + findings(page, "trust page, Italian")
    assert found == []
