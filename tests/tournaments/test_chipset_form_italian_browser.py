"""Issue #28, item 9 on screen: the Italian chip-set form names the refused row and column in
words (never a JSON dict, never 2^63) and takes "2.000" as an Italian writes two thousand."""

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tournaments.models import ChipSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_italian_chip_set_form_names_the_field_in_words(browser_page, director):
    page = browser_page
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, "dora", "pw-dora")
    page.goto(page.base_url + "/chipsets/")
    expect(page.locator("textarea[name=rows]")).to_have_attribute("placeholder", "100 bianco 2000")
    page.fill("input[name=name]", "Casa")
    page.fill("textarea[name=rows]", "25 verde 2.000\n100 nero 99999999999999999999")
    page.click("#chipsetform button.primary")
    message = page.locator("#cs-msg")
    expect(message).to_have_text("Tagli, riga 2, Quantità posseduta: Al massimo 1.000.000.000.")
    page.screenshot(path=str(ARTIFACTS / "chipset-form-error-it.png"))
    assert "{" not in message.inner_text() and not ChipSet.objects.exists()
    page.fill("textarea[name=rows]", "25 verde 2.000\n100 nero 1.500")
    page.click("#chipsetform button.primary")
    expect(page.locator("main")).to_contain_text("2.000")
    assert sorted(ChipSet.objects.get(name="Casa").denominations.values_list("value", "quantity")) == [(25, 2000), (100, 1500)]
