"""Issue #28 item 12: the lobby shows times in the room's time zone (``TIME_ZONE``), whatever
the TV's own clock is set to. A TV left on UTC showed 19:20 for a 20:20 start in Rome."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser import browser, browser_page  # noqa: F401 (fixtures)
from tournaments.models import DisplayScreen, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.mark.parametrize("tv_zone", ["UTC", "America/New_York"])
def test_a_tv_on_another_time_zone_shows_the_rooms_start_time(browser_page, make_tournament, settings, tv_zone):
    settings.TIME_ZONE = "Europe/Rome"
    rome = ZoneInfo("Europe/Rome")
    day = (timezone.now().astimezone(rome) + timedelta(days=3)).date()  # past the countdown's day: the time is shown
    start = datetime(day.year, day.month, day.day, 20, 20, tzinfo=rome)
    t = make_tournament(name="Serata", status=Tournament.PLANNED, start_at=start)
    DisplayScreen.objects.create(name="TV", tournament=t, token=f"tz-tv-{tv_zone.replace('/', '-')}", show={"sounds": False})

    tv = browser_page.context.browser.new_context(locale="it-IT", timezone_id=tv_zone, viewport={"width": 1920, "height": 1080})
    try:
        page = tv.new_page()
        page.goto(browser_page.base_url + f"/display/tz-tv-{tv_zone.replace('/', '-')}/")
        expect(page.locator("#start-time")).to_have_text("20:20")
        weekday = ["lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"][day.weekday()]
        expect(page.locator("#start-date")).to_contain_text(f"{weekday} {day.day}")
    finally:
        tv.close()
