"""The staff page in a browser, in Italian: a director adds a dealer and reads his first password
once, disables a cashier, and is refused disabling himself, the last director; axe reads the page."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login, new_page  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_axe_browser import problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_staff_page_in_italian(browser_page):
    make_user("boss", "director")
    make_user("carl", "cashier")
    page = new_page(browser_page.context.browser, locale="it-IT")
    page.base_url = browser_page.base_url
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + "/staff/")
    expect(page.locator("h1")).to_have_text("Personale")
    assert problems(page, "staff") == []
    form = page.locator("#add-login")
    form.get_by_label("Nome utente").fill("dario")
    form.get_by_label("Ruolo").select_option(label="dealer")
    with page.expect_navigation():
        form.get_by_role("button", name="Aggiungi").click()
    expect(page.locator("#shown-password")).to_contain_text("La prima password, mostrata una volta sola")
    password = page.locator("#password-once").input_value()
    assert get_user_model().objects.get(username="dario").check_password(password)
    assert problems(page, "staff, a password shown") == []
    with page.expect_navigation():
        page.get_by_role("button", name="Disattiva carl").click()
    expect(page.locator("ul.messages")).to_contain_text("Utenza carl disattivata")
    expect(page.get_by_role("button", name="Riattiva carl")).to_be_visible()
    assert problems(page, "staff, a login disabled") == []
    with page.expect_navigation():
        page.get_by_role("button", name="Disattiva boss").click()
    expect(page.locator("ul.messages")).to_contain_text("L'ultimo direttore non può essere disattivato")
    assert get_user_model().objects.get(username="boss").is_active
