"""A screen as a stream's overlay in Chromium at OBS's 1920×1080: screenshotted without a
backdrop it is transparent where no block is and drawn where its blocks are; a bust appears as
the lower third with its place and leaves after its seconds; with the stream's delay it appears
that many seconds later, never before."""

import io
import time
import uuid

import pytest
from playwright.sync_api import expect

from seating import services as seating
from tests.browser import ARTIFACTS, browser, browser_page, login, new_page  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_axe_browser import problems
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen, Entry
from tournaments.people.names import public_name
from tournaments.screens import services as screens

from ..seating.test_support import arrange, started  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The clock top left, the lower third along the bottom: the rest of the picture is the video.
STREAM = {
    "theme": {"background": "#101828", "text": "#fafafa", "accent": "#ffcc00"},
    "blocks": [
        {"kind": "clock", "x": 0, "y": 0, "w": 5, "h": 4},
        {"kind": "lastbust", "x": 0, "y": 20, "w": 12, "h": 4},
    ],
}


@pytest.fixture
def overlay(started, director, actor):  # noqa: F811
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)})
    design = screens.save_layout(name="Stream " + uuid.uuid4().hex[:6], design=STREAM, actor=Actor(director, "test"))
    screen = DisplayScreen.objects.create(name="OBS", tournament=t, token="obs-" + uuid.uuid4().hex, layouts={"live": f"layout:{design.pk}"}, bust_seconds=3)
    return t, layout, screen


def open_overlay(page, screen):
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(page.base_url + f"/overlay/{screen.token}/")
    # the first state comes the stream's delay late, as every later one
    expect(page.locator('.block[data-kind="clock"] #clock')).not_to_have_text("--:--", timeout=(screen.overlay_delay + 10) * 1000)


def alpha_at(png: bytes, x: int, y: int) -> int:
    from PIL import Image

    return Image.open(io.BytesIO(png)).convert("RGBA").getpixel((x, y))[3]


def test_the_overlay_is_transparent_where_no_block_is_and_a_bust_is_a_lower_third(browser_page, overlay, actor):
    page = browser_page
    t, layout, screen = overlay
    open_overlay(page, screen)
    assert page.evaluate("() => getComputedStyle(document.body).cursor") == "none"
    assert page.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight && document.scrollingElement.scrollWidth <= innerWidth")
    shot = page.screenshot(omit_background=True)
    assert alpha_at(shot, 960, 540) == 0 and alpha_at(shot, 1900, 20) == 0  # the video shows through
    assert alpha_at(shot, 40, 40) == 255  # the clock's block
    assert alpha_at(shot, 200, 1000) == 0  # the lower third waits for a bust
    assert page.locator("#sound-test").count() == 0

    out = layout[1][3]
    seating.record_bust(t, [out], actor=actor)
    seen = time.monotonic()
    third = page.locator("#lower-third")
    expect(third).to_be_visible(timeout=10000)  # this test server has no stream: the page's 5 s look
    person = Entry.objects.get(pk=out).person
    expect(page.locator("#lt-name")).to_have_text(public_name(person.first_name, person.last_name))
    expect(page.locator("#lt-place")).to_have_text("Out in place 18")
    shot = page.screenshot(omit_background=True, path=str(ARTIFACTS / "overlay-lower-third.png"))
    assert alpha_at(shot, 200, 1000) == 255
    assert problems(page, "stream overlay with a lower third") == []
    expect(third).to_be_hidden(timeout=10000)  # its seconds (3) over
    assert time.monotonic() - seen >= 3 - 0.5


def test_with_the_streams_delay_the_bust_shows_that_much_later(browser_page, overlay, actor):
    """A stream 30 seconds behind the room (over ~30 s: the delay is what is tested). The bust,
    recorded as the overlay opens, shows no earlier than 30 seconds later, with the state of
    that moment; the overlay's first state itself comes 30 seconds late."""
    page = browser_page
    t, layout, screen = overlay
    screen.overlay_delay, screen.bust_seconds = 30, 30
    screen.save()
    page.set_viewport_size({"width": 1920, "height": 1080})
    opened = time.monotonic()
    page.goto(page.base_url + f"/overlay/{screen.token}/")
    recorded = time.monotonic()
    seating.record_bust(t, [layout[2][4]], actor=actor)
    third = page.locator("#lower-third")
    expect(page.locator("#clock")).not_to_have_text("--:--", timeout=45000)
    assert time.monotonic() - opened >= 30 - 0.5
    expect(third).to_be_visible(timeout=15000)
    assert time.monotonic() - recorded >= 30 - 0.5  # never before the viewers see the hand


FINAL = {
    "theme": {"background": "#101828", "text": "#fafafa", "accent": "#ffcc00"},
    "blocks": [
        {"kind": "finaltable", "x": 0, "y": 0, "w": 8, "h": 12},
        {"kind": "payjumps", "x": 16, "y": 0, "w": 8, "h": 6},
        {"kind": "ticker", "x": 0, "y": 22, "w": 24, "h": 2},
    ],
}


def test_the_final_table_shows_the_chips_typed_on_the_floor_tools_and_the_pay_jumps(browser_page, started, director, actor):  # noqa: F811
    page = browser_page
    t = started(8)
    arrange(t, {1: range(1, 9)})
    design = screens.save_layout(name="Final " + uuid.uuid4().hex[:6], design=FINAL, actor=Actor(director, "test"))
    screen = DisplayScreen.objects.create(name="OBS final", tournament=t, token="obs-" + uuid.uuid4().hex, layouts={"live": f"layout:{design.pk}"})
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(page.base_url + f"/overlay/{screen.token}/")
    rows = page.locator("#final-table li")
    expect(rows).to_have_count(8)
    expect(rows.nth(3)).to_contain_text("—")  # no count yet: no stack guessed

    # the floor types the final table's counts on the floor tools, between hands
    make_user("cnt", "floor")
    tools = new_page(page.context.browser)
    tools.base_url = page.base_url
    login(tools, "cnt", "pw-cnt")
    tools.goto(tools.base_url + f"/tournaments/{t.pk}/floor/")
    stacks = tools.locator("#count-players input[name=chips]")
    expect(stacks).to_have_count(8)
    for i, chips in enumerate((30000, 15000, 30000, 120000, 30000, 30000, 30000, 30000)):  # seats 1 to 8
        stacks.nth(i).fill(str(chips))
    tools.locator("#countform button.primary").click()
    expect(tools.locator("#count-summary")).to_contain_text("8 / 8")  # the server took them
    expect(rows.nth(3)).to_contain_text("120,000", timeout=10000)
    expect(rows.nth(3)).to_have_class("leader")
    expect(rows.nth(1)).to_contain_text("15,000")
    expect(rows.nth(1)).not_to_have_class("leader")
    expect(rows.nth(3).locator("small")).to_have_text(" 1,200 BB")  # 120,000 at blinds 50/100
    expect(rows.nth(1).locator("small")).to_have_text(" 150 BB")

    # eight left, only the winner paid here: the next place that pays is the first
    expect(page.locator("#pay-jumps li")).to_have_text(["Place 1: €0.00"])
    expect(page.locator("#ticker-text")).to_have_text("1: €0.00")
    assert problems(page, "stream overlay at the final table") == []


def test_a_reloaded_overlay_shows_the_lobby_tvs_clock_to_the_second(browser_page, overlay, actor):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.clock import services as clock

    page = browser_page
    t, _layout, screen = overlay
    clock.start_clock(t, actor=actor, now=timezone.now() - timedelta(minutes=7, seconds=13))  # mid-level
    tv = page.context.new_page()
    tv.goto(page.base_url + f"/display/{screen.token}/")
    open_overlay(page, screen)
    page.reload()  # OBS's "refresh when active"
    expect(page.locator("#clock")).not_to_have_text("--:--")
    # both count from the level's end as an absolute time against the server's clock. Each page
    # ticks at its own fraction of a second: when the one not yet ticked (its reading the higher)
    # reaches the other's reading, the other still shows it (a clock a second late would find the
    # other already a second further)
    read = "() => document.getElementById('clock').textContent"
    a, b = tv.evaluate(read), page.evaluate(read)
    (behind, ahead), shown = ((tv, page), b) if a > b else ((page, tv), a)
    behind.wait_for_function("(v) => document.getElementById('clock').textContent === v", arg=shown, timeout=3000)
    assert ahead.evaluate(read) == shown and shown.startswith("12:4"), (a, b, shown)
