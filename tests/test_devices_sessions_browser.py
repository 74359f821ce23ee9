"""The devices page in Italian lists the browsers logged in beside the API logins, each with its
last use, and ends one with a button named for what it does ("Disconnetti questo dispositivo",
not the header's "Esci"): that browser's next page asks for the login again."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.test_axe_browser import problems
from tournaments.models import BrowserSession
from tournaments.staff import logins

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0"


def italian_page(page, user_agent=None):
    extra = {"user_agent": user_agent} if user_agent else {}
    ctx = page.context.browser.new_context(viewport={"width": 1366, "height": 900}, locale="it-IT", **extra)
    p = ctx.new_page()
    p.set_default_timeout(15000)
    p.base_url = page.base_url
    p.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    return p


def test_browsers_and_api_logins_are_listed_and_one_browser_logged_out(browser_page, cashier_user):
    logins.issue_token(cashier_user, device="Tablet cassa 2")
    desk = italian_page(browser_page, FIREFOX)  # the desk's PC, left logged in
    login(desk, "carl", "pw-carl")
    phone = italian_page(browser_page)
    login(phone, "carl", "pw-carl")
    phone.goto(phone.base_url + "/devices/")

    browsers = phone.locator("#browsers tbody tr")
    expect(browsers).to_have_count(2)
    expect(phone.locator("#browsers tr.current")).to_contain_text("questo browser")
    desk_row = browsers.filter(has_text="Firefox · Windows")
    expect(desk_row.locator("td").nth(2)).not_to_be_empty()  # its last use
    expect(phone.locator("#devices tbody tr")).to_contain_text("Tablet cassa 2")
    expect(phone.get_by_role("button", name="Esci", exact=True)).to_have_count(1)  # the header's logout, alone
    expect(phone.get_by_role("button", name="Disconnetti questo dispositivo", exact=False)).to_have_count(3)
    assert problems(phone, "the devices page") == []

    with phone.expect_navigation():
        desk_row.get_by_role("button", name="Disconnetti questo dispositivo: Firefox · Windows").click()
    expect(phone.locator("ul.messages")).to_contain_text("Dispositivo disconnesso: Firefox · Windows")
    expect(phone.locator("#browsers tbody tr")).to_have_count(1)
    assert BrowserSession.objects.filter(user=cashier_user).count() == 1
    desk.goto(desk.base_url + "/desk/")
    assert "/login/" in desk.url  # the desk's PC is logged out
    phone.goto(phone.base_url + "/desk/")
    assert "/login/" not in phone.url  # this one is not
