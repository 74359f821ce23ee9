"""In Italian, while the hand that burst the bubble is still played at another table: the lobby,
the director's clock page and a player's phone speak of the money, never "12 rimasti, 12
pagati" under hand-for-hand as if it were the bubble; once the last table reports, they show
play as usual."""

import pytest
from playwright.sync_api import expect

from seating import services as seating
from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen, Entry
from tournaments.phone.views import phone_path

from .test_support import at_the_bubble_on_two_tables, player_at

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_screens_speak_of_the_money_while_the_bubble_hand_ends(browser_page, make_tournament, make_person):
    page = browser_page
    boss = make_user("boss", "director")
    actor = Actor(boss, "test")
    t = at_the_bubble_on_two_tables(make_tournament, make_person, actor)  # 7 and 6 left, 12 paid
    seating.record_bust(t, [player_at(t, 1)], actor=actor, table=1)  # the 13th out: 12 left, 12 paid
    seating.hand_completed(t, 1, actor=actor)  # table 2 still plays the hand
    DisplayScreen.objects.create(name="Lobby", tournament=t, token="money-lobby", show={"sounds": False})
    phone = t.entries.filter(status=Entry.ACTIVE).first()
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])

    page.goto(page.base_url + "/display/money-lobby/")
    status = page.locator("#status")
    expect(status).to_have_text("MANO PER MANO — ultima mano (1) · 12 rimasti, tutti a premio")
    page.goto(page.base_url + phone_path(phone))
    expect(page.locator("#status")).to_have_text("Mano per mano, in zona premi")
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + f"/tournaments/{t.pk}/clock/")
    summary = page.locator("#h4h-summary")
    expect(summary).to_contain_text("Mano per mano: zona premi raggiunta (12 rimasti, tutti pagati); finisce da sola quando ogni tavolo ha finito questa mano")
    expect(summary).not_to_contain_text("12 pagati")

    seating.hand_completed(t, 2, actor=actor)  # the hand is over everywhere: hand-for-hand too
    expect(summary).to_be_hidden()
    page.goto(page.base_url + "/display/money-lobby/")
    expect(page.locator("#screen")).not_to_have_attribute("data-state", "hand_for_hand")
    expect(status).not_to_contain_text("MANO PER MANO")
