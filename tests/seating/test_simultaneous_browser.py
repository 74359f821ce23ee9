"""ELM-03 in a real browser: the floor ticks two busts from different tables in the last busts,
gives the reason, and sees them share the place with a "simultaneous" badge."""

import pytest
from playwright.sync_api import expect

from seating import services
from seating.models import Bust
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user

from .test_support import seat_map, started  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_floor_marks_two_busts_simultaneous_on_the_tables_page(browser_page, started, actor):
    page = browser_page
    t = started(20)
    tables = seat_map(t)
    a, b = (tables[n][max(tables[n])] for n in sorted(tables)[:2])
    services.record_bust(t, [a], actor=actor)
    services.record_bust(t, [b], actor=actor)
    make_user("floor9", "floor")
    page.route("**/live/*/stream/**", lambda route: route.abort())
    login(page, "floor9", "pw-floor9")
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    for bust in Bust.objects.filter(entry_id__in=[a, b]):
        page.check(f'#busts input[name=busts][value="{bust.pk}"]')
    page.fill("#simultaneous-form input[name=reason]", "called out at the same moment")
    page.click("#simultaneous-form button")
    expect(page.locator("ul.messages")).to_contain_text("Marked simultaneous")
    expect(page.locator("#busts .badge")).to_have_count(2)
    expect(page.locator("#busts")).to_contain_text("19 (shared by 2)")
    page.locator("aside").first.screenshot(path=str(ARTIFACTS / "seating-simultaneous-busts.png"))
