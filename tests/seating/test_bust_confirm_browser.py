"""A bust on the table map asks first, in the page; then its Undo is offered; an undo refused
because the tables changed since lists what to undo first and does it all on one click."""

import pytest
from playwright.sync_api import expect

from seating import services
from seating.models import Bust, PendingMove
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.eventlog.services import Actor
from tournaments.models import Entry

from .test_support import arrange, seat_map, started  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_tables(page, t, user):
    make_user(user, "floor")
    page.route("**/live/*/stream/**", lambda route: route.abort())  # no ASGI here: the page polls
    login(page, user, f"pw-{user}")
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")


def test_a_bust_asks_in_the_page_then_offers_its_undo(browser_page, started):
    page = browser_page
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    open_tables(page, t, "floor1")
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))  # a window.confirm would land here
    victim = Entry.objects.select_related("person").get(pk=layout[2][6])

    page.click(f'#table-2 tr[data-entry="{victim.pk}"] button.out')
    box = page.locator("#bust-confirm")
    expect(box).to_be_visible()
    expect(box).to_contain_text(f"{victim.person.full_name} #{victim.number}")
    expect(box).to_contain_text("table 2, seat 6")
    page.screenshot(path=str(ARTIFACTS / "seating-bust-confirm.png"))
    page.click("#bust-confirm-cancel")
    expect(box).to_be_hidden()
    assert Entry.objects.get(pk=victim.pk).status == Entry.ACTIVE  # Cancel: nothing recorded

    page.click(f'#table-2 tr[data-entry="{victim.pk}"] button.out')
    page.click("#bust-confirm-ok")
    banner = page.locator("#just-busted")
    expect(banner).to_contain_text(f"{victim.person.full_name} #{victim.number} is out (table 2, seat 6), place 18")
    assert Entry.objects.get(pk=victim.pk).status == Entry.BUSTED
    page.screenshot(path=str(ARTIFACTS / "seating-bust-undo-offered.png"))
    page.click("#undo-just-busted")
    expect(page.locator("ul.messages")).to_contain_text("Bust undone")
    expect(page.locator("#just-busted")).to_have_count(0)
    assert Entry.objects.get(pk=victim.pk).status == Entry.ACTIVE
    assert seat_map(t) == {n: dict(s) for n, s in layout.items()}
    assert dialogs == []  # never a browser pop-up


def test_ticked_players_are_named_and_nothing_ticked_sends_nothing(browser_page, started):
    page = browser_page
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    open_tables(page, t, "floor2")
    page.click("#table-1 form.bust-form button:not(.out):not([name])")  # "Ticked players out" with nobody ticked
    expect(page.locator("#bust-confirm")).to_contain_text("Tick the players who are out.")
    expect(page.locator("#bust-confirm-ok")).to_be_hidden()
    page.click("#bust-confirm-cancel")
    a, b = layout[1][2], layout[1][7]
    page.check(f'#table-1 tr[data-entry="{a}"] input[name=entries]')
    page.check(f'#table-1 tr[data-entry="{b}"] input[name=entries]')
    page.check("#table-1 input[name=same_hand]")
    page.click("#table-1 form.bust-form button:not(.out):not([name])")
    expect(page.locator("#bust-confirm-list li")).to_have_count(3)
    expect(page.locator("#bust-confirm-list")).to_contain_text("(same hand)")
    expect(page.locator("#bust-confirm-list")).to_contain_text("table 1, seat 2")
    expect(page.locator("#bust-confirm-list")).to_contain_text("table 1, seat 7")
    page.click("#bust-confirm-ok")
    expect(page.locator("ul.messages")).to_contain_text("out in place")
    assert Entry.objects.filter(pk__in=[a, b], status=Entry.BUSTED).count() == 2
    assert Bust.objects.filter(entry__in=[a, b]).values("hand_group").distinct().count() == 1  # one hand
    banner = page.locator("#just-busted")
    expect(banner).to_contain_text("(table 1, seat 2)")
    expect(banner).to_contain_text("(table 1, seat 7)")
    page.click("#undo-just-busted")  # one undo puts back both, recorded together
    expect(page.locator("ul.messages")).to_contain_text("Bust undone")
    assert Entry.objects.filter(pk__in=[a, b], status=Entry.ACTIVE).count() == 2


def test_an_undo_refused_lists_what_to_undo_first_and_undoes_all(browser_page, started, director):
    page = browser_page
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, capacity=10, big_blinds={1: (3, 2), 2: (5, 4)})
    actor = Actor(director, "test")
    first = services.record_bust(t, [layout[1][1]], actor=actor).busts[0]
    moved = services.move_player(t, layout[2][1], 1, 10, actor=actor, reason="wrong seat (SEAT-06)")
    later = services.record_bust(t, [layout[1][5]], actor=actor)
    open_tables(page, t, "floor3")
    page.click(f'#busts form:has(input[name=bust][value="{first.pk}"]) button')
    expect(page.locator("ul.messages")).to_contain_text("Undo first")
    panel = page.locator("#undo-first")
    expect(panel.locator("li")).to_have_count(2)
    expect(panel.locator("li").first).to_contain_text(f"#{later.event.pk}")
    expect(panel.locator("li").first).to_contain_text("out at table 1")
    expect(panel.locator("li").nth(1)).to_contain_text(f"#{moved.event.pk}")
    expect(panel.locator("li").nth(1)).to_contain_text("moved from table 2, seat 1 to table 1, seat 1")
    page.screenshot(path=str(ARTIFACTS / "seating-undo-first.png"), full_page=True)
    page.click("#undo-all")
    expect(page.locator("ul.messages")).to_contain_text("Later changes and the bust undone")
    assert not Bust.objects.filter(tournament=t, void="").exists()
    assert PendingMove.objects.get(pk=moved.move.pk).status == PendingMove.UNDONE
    assert seat_map(t) == {n: dict(s) for n, s in layout.items()}


def test_in_italian(browser_page, started):
    page = browser_page
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    open_tables(page, t, "floor4")
    victim = Entry.objects.select_related("person").get(pk=layout[1][4])
    page.click(f'#table-1 tr[data-entry="{victim.pk}"] button.out')
    box = page.locator("#bust-confirm")
    expect(box).to_contain_text("Registrare come fuori dal torneo?")
    expect(box).to_contain_text("tavolo 1, posto 4")
    expect(page.locator("#bust-confirm-ok")).to_have_text("Sì, fuori")
    page.screenshot(path=str(ARTIFACTS / "seating-bust-confirm-it.png"))
    page.click("#bust-confirm-ok")
    expect(page.locator("#just-busted")).to_contain_text(f"Registrato: {victim.person.full_name} #{victim.number} è fuori (tavolo 1, posto 4)")
    page.screenshot(path=str(ARTIFACTS / "seating-bust-undo-offered-it.png"))
