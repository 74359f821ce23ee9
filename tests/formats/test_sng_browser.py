"""A director creates a sit & go from the dashboard, the desk sells the last place in a real
browser, and the sit & go starts by itself (FMT-09, scenario 40)."""

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Clock, Person, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_sit_and_go_created_on_the_dashboard_starts_on_its_tenth_registration(browser_page, structure):
    page = browser_page
    boss = make_user("boss", "director")
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + "/formats/")
    page.click("#new-sng")
    page.fill("input[name=name]", "S&G Turbo 19:00")
    page.fill("input[name=buy_in]", "30")
    page.fill("input[name=fee]", "3")
    page.fill("input[name=starting_stack]", "5000")
    page.select_option("select[name=structure]", label=structure.name)
    page.click("#create")
    expect(page.locator("h1")).to_contain_text("S&G Turbo 19:00")
    expect(page.locator("h1 .badge")).to_have_text("Registering")
    t = Tournament.objects.get(name="S&G Turbo 19:00")
    assert (t.format, t.field_cap) == (Tournament.SNG, 10)

    desk = Actor(boss, "desk-1")
    for i in range(9):
        player = Person.objects.create(first_name=f"Seat{i}", last_name="Early")
        cashier.register(t, player, method="CASH", actor=desk)
    Person.objects.create(first_name="Zoe", last_name="Tenth")
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    page.fill("#search", "zo")
    page.click("#results li >> text=Zoe Tenth")
    with page.expect_popup() as popup_info:
        page.click("button[data-op=register]")
    popup_info.value.close()
    expect(page.locator("#message")).to_contain_text("Sold")

    page.goto(page.base_url + f"/tournaments/{t.pk}/")
    expect(page.locator("h1 .badge")).to_have_text("Running")
    page.screenshot(path=str(ARTIFACTS / "formats-sng-running.png"))
    t.refresh_from_db()
    assert t.status == Tournament.RUNNING and Clock.objects.get(tournament=t).status == Clock.RUNNING
    assert t.entries.count() == 10
