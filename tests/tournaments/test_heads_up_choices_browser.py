"""Issue #29 items 7 and 8 in the browser: the floor page offers the two readings of a heads-up
penalty with their hands (PEN-06, C28); the clock page's director cuts player P's clock-call time
to 10 s and the next call on P counts 10 s (CLK-10, scenario 33)."""

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Penalty
from tournaments.setup import lifecycle


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_director_picks_the_heads_up_reading_and_cuts_p_to_ten_seconds(browser_page, make_tournament, make_person, director):
    actor = Actor(director, "test")
    t = make_tournament(rule_set="HEADS_UP_001", table_size=2)
    p = cashier.register(t, make_person("Paolo", "Bianchi"), method="CASH", actor=actor).entry
    cashier.register(t, make_person("Quinto", "Verdi"), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor)
    make_user("boss", "director")
    page = browser_page
    login(page, "boss", "pw-boss")

    page.goto(page.base_url + f"/tournaments/{t.pk}/floor/?entry={p.pk}")
    page.select_option("select[name=kind]", "MISSED_ROUNDS")
    page.fill("input[name=amount]", "3")
    readings = page.locator("#heads-up-reading")
    expect(readings).to_contain_text("= 6 hands")
    expect(readings).to_contain_text("= 3 hands")
    page.click("#penaltyform button.primary")  # no reading chosen: refused, both offered
    expect(page.locator("#f-msg.error")).to_contain_text("6 hands")
    page.check("input[name=heads_up_reading][value=BLINDS_PAID]")
    page.click("#penaltyform button.primary")
    expect(page.locator("#f-msg.ok")).to_contain_text("Missed rounds")
    assert Penalty.objects.get(entry=p).hands_total == 3
    page.screenshot(path=str(ARTIFACTS / "heads-up-penalty-reading.png"))

    page.goto(page.base_url + f"/tournaments/{t.pk}/clock/")
    expect(page.locator("#shot-preset")).to_have_value("HEADS_UP")
    page.select_option("#calltimeform select[name=entry]", str(p.pk))
    page.fill("#calltimeform input[name=seconds]", "10")
    page.fill("#calltimeform input[name=reason]", "repeated delay")
    page.click("#calltimeform button")
    expect(page.locator("#c-msg.ok")).to_be_visible()
    page.fill("#shot-table", "1")
    page.select_option("#shot-entry", str(p.pk))
    page.click("#shot-start")
    expect(page.locator("#shot-time")).to_have_text("10 s")
    assert t.events.filter(action="tournaments.clock.call_time_set", payload__seconds=10).count() == 1
