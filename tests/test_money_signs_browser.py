"""The pages' script writes money as the server does: the sign from the server's table, where the
page's language puts it (``TDM.money``). French groups with the browser's narrow no-break space
(Intl), as every number the pages' script writes."""

import pytest

from tests.browser import chromium_browser, new_page  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: (1234.56 EUR, 1234.56 CHF, -5 EUR) as each language's page writes them
WRITTEN = {
    "it": ("1.234,56\u00a0€", "1.234,56\u00a0CHF", "-5,00\u00a0€"),
    "de": ("1.234,56\u00a0€", "1.234,56\u00a0CHF", "-5,00\u00a0€"),
    "es": ("1.234,56\u00a0€", "1.234,56\u00a0CHF", "-5,00\u00a0€"),
    "fr": ("1\u202f234,56\u00a0€", "1\u202f234,56\u00a0CHF", "-5,00\u00a0€"),
    "en": ("€1,234.56", "CHF\u00a01,234.56", "-€5.00"),
}


@pytest.mark.parametrize("code", ["it", "de", "es", "fr", "en"])
def test_the_page_s_script_writes_money_as_the_language_does(code, live_server, chromium_browser):  # noqa: F811
    page = new_page(chromium_browser, locale=code)
    page.goto(live_server.url + "/login/")
    assert page.evaluate("document.documentElement.lang") == code
    shown = page.evaluate('[TDM.money("1234.56", "EUR"), TDM.money(1234.56, "CHF"), TDM.money("-5", "EUR"), TDM.money("7")]')
    assert shown == [*WRITTEN[code], "7,00" if code != "en" else "7.00"]
