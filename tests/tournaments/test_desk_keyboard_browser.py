"""The desk with the keyboard only (#39): the search is a combobox, ArrowDown picks the line
Enter takes, and after a pick or a sale the focus is back where the next action starts."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def focused(page) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.dataset.op || document.activeElement.tagName")


def test_a_sale_from_the_keyboard_alone(browser_page, tournament, make_person):
    make_person("Mario", "Rossi")
    giulia = make_person("Giulia", "Rossini")
    page = browser_page
    make_user("desk", "cashier")
    login(page, "desk", "pw-desk")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    assert focused(page) == "search"  # the page opens in the search
    page.keyboard.type("ross")
    search = page.locator("#search")
    expect(page.locator("#results [role=option]")).to_have_count(2)
    expect(search).to_have_attribute("aria-expanded", "true")
    expect(search).to_have_attribute("aria-activedescendant", "result-0")
    page.keyboard.press("ArrowDown")  # the second line: Giulia Rossini
    expect(search).to_have_attribute("aria-activedescendant", "result-1")
    expect(page.locator("#result-1")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#result-1")).to_contain_text("Giulia Rossini")
    page.keyboard.press("Enter")
    expect(page.locator("#player-name")).to_have_text("Giulia Rossini")
    expect(search).to_have_attribute("aria-expanded", "false")
    assert focused(page) == "search"  # not <body>: the list it was in is gone

    page.keyboard.press("Tab")  # "New player"
    page.keyboard.press("Tab")
    assert focused(page) == "register"
    with page.expect_popup() as receipt:
        page.keyboard.press("Enter")
    receipt.value.close()
    expect(page.locator("#message")).to_contain_text("Sold")
    expect(search).to_be_focused()  # the next sale starts with the next name
    assert Entry.objects.filter(tournament=tournament, person=giulia).count() == 1


def test_escape_closes_the_list_and_nobody_found_offers_the_new_player_form(browser_page, tournament, make_person):
    make_person("Mario", "Rossi")
    page = browser_page
    make_user("desk", "cashier")
    login(page, "desk", "pw-desk")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    page.keyboard.type("ross")
    expect(page.locator("#results [role=option]")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator("#results [role=option]")).to_have_count(0)
    expect(page.locator("#search")).to_have_attribute("aria-expanded", "false")
    page.fill("#search", "Anna Verdi")
    expect(page.locator("#nobody-found")).to_contain_text("Anna Verdi")
    page.click("#add-new-person")
    expect(page.get_by_label("First name")).to_have_value("Anna")
    expect(page.get_by_label("Last name")).to_have_value("Verdi")
