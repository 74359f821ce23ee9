"""Issue #16, PEN-03 in the browser: a penalty of 2 rounds at a 6-player table counts down with
the table's own "Hand completed" taps on the table map and ends by itself."""

import re

import pytest
from playwright.sync_api import expect

from seating import selectors as seating_selectors
from seating import services as seating
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Penalty
from tournaments.setup import lifecycle


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_two_penalty_rounds_at_six_players_count_down_with_the_hand_completed_taps(browser_page, make_tournament, make_person, director):
    actor = Actor(director, "test")
    t = make_tournament(table_size=6)
    entries = [cashier.register(t, make_person(), method="CASH", actor=actor).entry for _ in range(6)]
    lifecycle.start(t, actor=actor)
    victim = entries[2]
    table = seating_selectors.seat_of(victim)["table"]
    seating.set_big_blind(t, table, 1, actor=actor)
    make_user("floorie", "floor")
    page = browser_page
    login(page, "floorie", "pw-floorie")

    # The floor gives 2 rounds between two hands: the next hand dealt is the first one missed.
    page.goto(page.base_url + f"/tournaments/{t.pk}/floor/?entry={victim.pk}")
    page.select_option("select[name=kind]", "MISSED_ROUNDS")
    page.select_option("select[name=reason_code]", "ABUSIVE_CONDUCT")
    page.fill("input[name=amount]", "2")
    page.check("input[name=between_hands]")
    page.click("#penaltyform button.primary")
    expect(page.locator("#f-msg.ok")).to_contain_text("Missed rounds: 12 of 12 hands left")

    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    tag = page.locator(f"#table-{table} tr[data-entry='{victim.pk}'] .tag.penalty")
    expect(tag).to_have_attribute("data-hands-left", "12")
    hand = page.locator(f"#table-{table} button[name=op][value=hand]")
    misdeal = page.locator(f"#table-{table} button[name=op][value=misdeal]")
    for left in range(11, 0, -1):
        hand.click()
        expect(tag).to_have_attribute("data-hands-left", str(left))
        expect(tag).to_contain_text(f"Missed rounds: {left} of 12 hands left")
        if left == 6:
            misdeal.click()  # the re-deal is the same hand: nothing is served
            expect(page.locator(".message.ok, .messages")).to_contain_text("misdeal")
            expect(tag).to_have_attribute("data-hands-left", "6")
            page.screenshot(path=str(ARTIFACTS / "penalty-countdown-table-map.png"))
    hand.click()
    expect(page.locator(f"#table-{table} tr[data-entry='{victim.pk}']")).to_be_visible()
    expect(tag).to_have_count(0)  # served: it ended by itself
    page.screenshot(path=str(ARTIFACTS / "penalty-served-table-map.png"))
    assert Penalty.objects.get(entry=victim).status == Penalty.SERVED


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_time_suspension_held_by_the_paused_clock_shows_on_the_floor_page_and_the_table_map(browser_page, make_tournament, make_person, director):
    from django.utils import timezone

    from tournaments.clock import services as clock_services
    from tournaments.floor import services as floor

    actor = Actor(director, "test")
    t = make_tournament(table_size=6, rule_set="SANREMO_003")
    entries = [cashier.register(t, make_person(), method="CASH", actor=actor).entry for _ in range(6)]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    now = timezone.now()
    clock_services.start_clock(t, actor=actor, now=now)
    floor.issue_penalty(t, entries[0], kind="TIME_SUSPENSION", reason_code="LATE_SEAT_TAKING", minutes=10, actor=actor, now=now)
    clock_services.pause(t, actor=actor, reason="dinner")
    make_user("floorie", "floor")
    page = browser_page
    login(page, "floorie", "pw-floorie")
    page.goto(page.base_url + f"/tournaments/{t.pk}/floor/")
    left = page.locator("#penalties tr >> td.left")
    expect(left).to_have_text(re.compile(r"Time suspension: (10:00|9:\d\d) left · clock paused"))
    # CR-05 on the same page: a table coloured up, the text to announce comes back.
    table = seating_selectors.seat_of(entries[0])["table"]
    page.fill("#colorupform input[name=table]", str(table))
    page.fill("#colorupform input[name=from_denomination]", "25")
    page.fill("#colorupform input[name=to_denomination]", "100")
    page.click("#colorupform button.primary")
    expect(page.locator("#colorup-msg.ok")).to_contain_text(f"Colour-up at table {table}: T25 chips are exchanged for T100")
    page.screenshot(path=str(ARTIFACTS / "penalty-suspension-floor.png"), full_page=True)
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    tag = page.locator(f"#table-{table} tr[data-entry='{entries[0].pk}'] .tag.penalty")
    expect(tag).to_contain_text("clock paused")
