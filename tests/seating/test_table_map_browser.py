"""The floor records a bust on the table map in a real browser, sees the proposed move with
its reason, and confirms it."""

import pytest
from playwright.sync_api import expect

from seating.models import PendingMove
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.models import Entry

from .test_support import arrange, counts, started  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_floor_busts_a_player_then_confirms_the_balancing_move(browser_page, started):
    page = browser_page
    t = started(19, table_size=10)
    layout = arrange(t, {1: range(1, 11), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    make_user("floor1", "floor")
    # The live stream needs the ASGI server; here the page falls back to polling.
    page.route("**/live/*/stream/**", lambda route: route.abort())
    login(page, "floor1", "pw-floor1")
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    expect(page.locator("#no-moves")).to_be_visible()
    victim = Entry.objects.select_related("person").get(pk=layout[2][6])
    page.click(f'#table-2 tr[data-entry="{victim.pk}"] button.out')
    page.click("#bust-confirm-ok")  # a bust asks first
    expect(page.locator("ul.messages")).to_contain_text("out in place 19")
    mover = Entry.objects.select_related("person").get(pk=layout[1][4])
    row = page.locator("#moves tr.move")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(mover.person.full_name)
    expect(row).to_contain_text("T1 · S4")
    expect(row).to_contain_text("T2 · S")
    expect(row.locator("td.reason")).to_contain_text("next big blind at table 1 (seat 4)")
    page.screenshot(path=str(ARTIFACTS / "seating-table-map-move.png"), full_page=True)
    move = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    row.locator("button.confirm-move").click()
    expect(page.locator("ul.messages")).to_contain_text("Move confirmed.")
    expect(page.locator("#no-moves")).to_be_visible()
    expect(page.locator(f'#table-2 tr[data-seat="{move.to_seat}"]')).to_contain_text(mover.person.full_name)
    assert counts(t) == {1: 9, 2: 9}
    assert PendingMove.objects.get(pk=move.pk).status == PendingMove.DONE
    page.screenshot(path=str(ARTIFACTS / "seating-table-map.png"), full_page=True)
