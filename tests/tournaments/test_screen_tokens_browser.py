"""A lobby screen in a real browser stops showing the tournament once its link is revoked from
the screens page (issue #30 item 9): no stale clock left running on a TV nobody controls."""

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page  # noqa: F401 (fixtures)
from tournaments.models import DisplayScreen

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_revoked_screen_stops_showing_the_tournament(browser_page, make_tournament, director):
    t = make_tournament(name="Revoked Screen Event")
    screen = DisplayScreen.objects.create(name="Bar TV", tournament=t, token="revoke-me-tv", show={"sounds": False})
    tv = browser_page
    tv.goto(tv.base_url + "/display/revoke-me-tv/")
    expect(tv.locator("body")).to_contain_text("Revoked Screen Event")
    # the director, in a browser of his own (the TV has no login), revokes the link
    desk_context = tv.context.browser.new_context()
    desk = desk_context.new_page()
    desk.goto(tv.base_url + "/login/")
    desk.fill("input[name=username]", director.get_username())
    desk.fill("input[name=password]", "pw-" + director.get_username())
    desk.click("button.primary")
    desk.goto(tv.base_url + "/displays/")
    desk.click("button[value=revoke]")
    desk.locator("dialog.tdm-dialog button.primary").click()
    expect(desk.locator("body")).to_contain_text("Link revoked")
    desk.screenshot(path=str(ARTIFACTS / "screens-link-revoked.png"), full_page=True)
    screen.refresh_from_db()
    assert screen.token_revoked_at is not None
    expect(tv.locator("body")).not_to_contain_text("Revoked Screen Event", timeout=20_000)
    tv.screenshot(path=str(ARTIFACTS / "screen-after-revoke.png"))
    desk_context.close()
