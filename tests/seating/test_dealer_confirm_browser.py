"""The dealer's «Player out» in a browser (#39 items 4 and 8): it asks first, the question names
the player and is the dialog's accessible name, the dialog opens on Cancel (Enter alone takes
nobody out), and the bust recorded names the player and offers its Undo."""

import pytest
from playwright.sync_api import expect

from tests.browser import answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry
from tournaments.setup import lifecycle

from .test_support import seat_map

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_player_out_asks_first_and_can_be_taken_back(browser_page, make_tournament, make_person):
    page = browser_page
    page.route("**/live/*/stream/**", lambda route: route.abort())
    boss, _dealer = make_user("boss", "director"), make_user("deal", "dealer")
    t = make_tournament(name="Evento", table_size=9)
    for _ in range(12):
        cashier.register(t, make_person(), method="CASH", actor=Actor(boss, "test"))
    lifecycle.start(t, actor=Actor(boss, "test"), prestart_report_sent=True)
    seats = seat_map(t)[1]
    seat = min(seats)
    out = Entry.objects.select_related("person").get(pk=seats[seat])
    login(page, "deal", "pw-deal")
    page.goto(page.base_url + f"/tournaments/{t.pk}/dealer/?table=1")
    button = page.locator(f"tr[data-seat='{seat}'] button.out")

    button.click()
    dialog = page.locator("dialog.tdm-dialog[open]")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_accessible_name(f"{out.person.full_name} #{out.number} is out?")
    expect(dialog.locator("button[value=cancel]")).to_be_focused()
    page.keyboard.press("Enter")  # on Cancel: nobody goes out
    expect(dialog).to_have_count(0)
    assert Entry.objects.get(pk=out.pk).status == Entry.ACTIVE

    button.click()
    with page.expect_navigation():
        answer_dialog(page)
    expect(page.locator("ul.messages")).to_contain_text(f"{out.person.full_name} #{out.number} out in place 12")
    assert Entry.objects.get(pk=out.pk).status == Entry.BUSTED
    with page.expect_navigation():
        page.click("#undo-just-busted")
    expect(page.locator("ul.messages")).to_contain_text("back in their seats")
    assert Entry.objects.get(pk=out.pk).status == Entry.ACTIVE
