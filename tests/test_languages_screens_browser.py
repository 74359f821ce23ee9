"""The desk, a lobby screen and a phone page in German, Spanish and French, as Chromium shows
them: each in its language (the page's ``lang``, its words, its money), no console error; a
screenshot of each in test-artifacts/languages/<code>-<page>.png (the ones in docs/screenshots/
are these).

The cashier chooses the language once with the page's picker; the screen has its own; the
phone follows the browser's language."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page, login, new_page  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_axe_browser import RULES
from tournaments.models import DisplayScreen, Entry, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "languages"
#: (desk's button to sell, the lobby's word for the prize pool, the phone's word for the level)
#: an amount as the language groups it: 2.400,00 €, 2 400,00 € (a non-breaking space before the sign)
MONEY = {"de": r"\d{1,3}(\.\d{3})*,\d\d\u00a0€", "es": r"\d{1,3}(\.\d{3})*,\d\d\u00a0€", "fr": r"\d{1,3}([\u202f\xa0 ]\d{3})*,\d\d\u00a0€"}
WORDS = {"de": ("Anmelden", "Preispool", "Level"), "es": ("Inscribir", "Bote de premios", "Nivel"), "fr": ("Inscrire", "Prize pool", "Niveau")}


LANG_RULES = ["html-has-lang", "html-lang-valid", "valid-lang"]


def axe(page, where: str) -> list[str]:
    """What axe finds on the page: readable colours, labelled fields, and its language said
    right (the page's ``lang`` and every ``lang`` inside it)."""
    page.wait_for_load_state("load")
    result = Axe().run(page, options={"runOnly": {"type": "rule", "values": RULES + LANG_RULES}, "resultTypes": ["violations"]})
    return [f"{where}: {v['id']} {', '.join(n['target'])}" for v in result.response["violations"] for n in v["nodes"]]


@pytest.mark.parametrize("code", ["de", "es", "fr"])
def test_the_desk_a_lobby_screen_and_a_phone_in_each_language(code, browser_page, chromium_browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115 - the command's chatter
    t = Tournament.objects.get(name="Demo Sunday Re-entry")
    screen = DisplayScreen.objects.create(name="TV", tournament=t, token="tv-" + code, language=code)
    entry = t.entries.filter(status=Entry.ACTIVE).order_by("pk").first()
    errors = []

    page = browser_page
    page.set_viewport_size({"width": 1366, "height": 900})
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    make_user("kasse", "cashier")
    login(page, "kasse", "pw-kasse")
    page.select_option("select[name=language]", code)  # submits by itself; kept with the login
    expect(page.locator("html")).to_have_attribute("lang", code)
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    page.fill("#search", entry.person.last_name[:3])
    page.click(f"#results li >> text={entry.person.full_name}")
    expect(page.locator("button[data-op=register]")).to_contain_text(WORDS[code][0])
    # why a sale is not offered now, a label and its reason as the language writes them ("Inscrire : …")
    expect(page.locator("#not-now-register")).to_contain_text(WORDS[code][0] + (" : " if code == "fr" else ": "))
    page.screenshot(path=str(SHOTS / f"{code}-desk.png"))
    found = axe(page, "desk")

    tv = new_page(chromium_browser, viewport=(1920, 1080), locale="it-IT")  # an Italian TV: the screen's language wins
    tv.on("console", lambda m: errors.append(m.text) if m.type == "error" and "/stream/" not in (m.location or {}).get("url", "") else None)
    tv.context.route("**/live/*/stream/**", lambda route: route.abort())
    tv.goto(page.base_url + f"/display/{screen.token}/")
    expect(tv.locator("html")).to_have_attribute("lang", code)
    expect(tv.locator("body")).to_contain_text(WORDS[code][1], ignore_case=True)
    expect(tv.locator("#pool")).to_contain_text("€")  # the state arrived: the money as the language writes it
    assert re.fullmatch(MONEY[code], tv.locator("#pool").inner_text().strip()), tv.locator("#pool").inner_text()
    tv.screenshot(path=str(SHOTS / f"{code}-lobby.png"))
    found += axe(tv, "lobby screen")

    phone = new_page(chromium_browser, viewport=(390, 844), locale=f"{code}-{code.upper()}")
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" and "/stream/" not in (m.location or {}).get("url", "") else None)
    phone.context.route("**/p/*/stream/**", lambda route: route.abort())
    phone.goto(page.base_url + f"/p/{entry.phone_token}/")
    expect(phone.locator("html")).to_have_attribute("lang", code)
    expect(phone.locator("#phone-language-pick")).to_have_value(code)
    expect(phone.locator("body")).to_contain_text(WORDS[code][2])
    phone.screenshot(path=str(SHOTS / f"{code}-phone.png"), full_page=True)
    found += axe(phone, "phone page")
    assert found == []
    assert [e for e in errors if "stream" not in e] == []
