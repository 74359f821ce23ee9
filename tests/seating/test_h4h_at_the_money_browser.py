"""In Italian, while the hand that burst the bubble is still played at another table: the lobby,
the director's clock page and a player's phone speak of the money, never "12 rimasti, 12
pagati" under hand-for-hand as if it were the bubble; once the last table reports, they show
play as usual."""

import pytest
from playwright.sync_api import expect

from seating import services as seating
from seating.models import Seat
from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen, Entry
from tournaments.phone.views import phone_path
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def player_at(t, table: int) -> int:
    return Seat.objects.filter(tournament=t, table__number=table).order_by("number").values_list("entry_id", flat=True).first()


def test_the_screens_speak_of_the_money_while_the_bubble_hand_ends(browser_page, make_tournament, make_person):
    page = browser_page
    boss = make_user("boss", "director")
    actor = Actor(boss, "test")
    t = make_tournament(name="Serata", settings={"percent_paid": 75})  # 16 entries: 12 paid
    for _ in range(16):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor)
    while t.entries.filter(status=Entry.ACTIVE).count() > 13:
        seating.record_bust(t, [player_at(t, 1 + t.entries.filter(status=Entry.ACTIVE).count() % 2)], actor=actor)
    clock_services.start_hand_for_hand(t, actor=actor, reason="bolla")
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
