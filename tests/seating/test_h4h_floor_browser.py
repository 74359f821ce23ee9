"""Issue #28 item 16: the floor's table map says when hand-for-hand is on (it showed nothing),
live: announced, its hand number, and gone when it ends."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tournaments.models import Entry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_table_map_shows_hand_for_hand_while_it_is_on(browser_page, make_tournament, make_person, cashier_actor, actor, floor_user):
    from tournaments.cashier import services as cashier
    from tournaments.clock import services as clock_services
    from tournaments.setup import lifecycle

    t = make_tournament(name="Bolla")
    for _ in range(14):
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor)
    assert Entry.objects.filter(tournament=t, status=Entry.ACTIVE).count() == 14
    page = browser_page
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, floor_user.username, "pw-" + floor_user.username)
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    banner = page.locator("#h4h-banner")
    expect(page.locator("#seating-map")).to_be_visible()
    expect(banner).to_be_hidden()

    clock_services.start_hand_for_hand(t, actor=actor)
    expect(banner).to_be_visible()
    expect(banner).to_have_text("Mano per mano: mano 1. Ogni tavolo segnala la sua mano quando è finita.")

    clock_services.end_hand_for_hand(t, actor=actor)
    expect(banner).to_be_hidden()
