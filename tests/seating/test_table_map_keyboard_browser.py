"""The table map with the keyboard only (#39): a table is a few keys away, a bust asks with the
focus on Cancel, and after it the keyboard is at the bust just recorded, one key from its Undo
and two from the table it came from."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.models import Entry

from .test_support import arrange, started  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tab_to(page, selector: str, most: int) -> int:
    """Press Tab until ``selector`` has the focus; how many presses it took (at most ``most``)."""
    for n in range(1, most + 1):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return n
    raise AssertionError(f"{selector} not reached in {most} Tabs (at {page.evaluate('document.activeElement.outerHTML.slice(0, 120)')})")


def floor_at_three_full_tables(page, started):
    """Three full tables of nine, and a floor person at their map (the live stream down: the map
    polls)."""
    t = started(27)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10), 3: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4), 3: (7, 6)})
    make_user("floorkb", "floor")
    page.route("**/live/*/stream/**", lambda route: route.abort())
    login(page, "floorkb", "pw-floorkb")
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    return t, layout


def test_a_bust_at_table_three_from_the_keyboard(browser_page, started):
    page = browser_page
    t, layout = floor_at_three_full_tables(page, started)
    victim = Entry.objects.select_related("person").get(pk=layout[3][1])

    tab_to(page, 'nav.table-jumps a[href="#table-3"]', 40)  # past the menu and the moves, not past tables 1 and 2
    page.keyboard.press("Enter")
    expect(page.locator("#table-3")).to_be_focused()
    tab_to(page, f'#table-3 tr[data-entry="{victim.pk}"] button.out', 5)  # seat 1: its name, ⚖, its box, its stack, Out
    page.keyboard.press("Enter")
    expect(page.locator("#bust-confirm")).to_be_visible()
    expect(page.locator("#bust-confirm-cancel")).to_be_focused()  # Enter now would record nothing
    page.keyboard.press("Tab")
    expect(page.locator("#bust-confirm-ok")).to_be_focused()
    page.keyboard.press("Enter")

    expect(page.locator("#just-busted")).to_contain_text(f"{victim.person.full_name} #{victim.number} is out (table 3, seat 1)")
    expect(page.locator("#just-busted")).to_be_focused()
    assert Entry.objects.get(pk=victim.pk).status == Entry.BUSTED
    page.keyboard.press("Tab")
    expect(page.locator("#undo-just-busted")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#back-to-table")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#table-3")).to_be_focused()  # the next bust at that table starts here


def test_the_keyboard_stays_on_a_players_out_button_when_the_map_refreshes_under_it(browser_page, started, actor):
    # The floor has tabbed along a player's row to Out; a bust at another table refreshes the
    # map: the focus stays on that player's Out, not back at the top of his table.
    from seating import services

    page = browser_page
    t, layout = floor_at_three_full_tables(page, started)
    player = layout[3][2]
    out = page.locator(f'#table-3 tr[data-entry="{player}"] button.out')
    out.focus()
    expect(out).to_be_focused()
    services.record_bust(t, [layout[1][1]], actor=actor)
    page.evaluate("document.dispatchEvent(new CustomEvent('tdm:queue-sent'))")  # the map reloads now
    expect(page.locator(f'#table-1 tr[data-entry="{layout[1][1]}"]')).to_have_count(0)
    expect(out).to_be_focused()
