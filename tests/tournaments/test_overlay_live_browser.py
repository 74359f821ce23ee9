"""The overlay as deployed (the ASGI web server and Redis, the page on its live stream): a bust
recorded at the desk's side reaches the overlay's lower third within two seconds."""

import time
import uuid

import pytest
from playwright.sync_api import expect

from seating import services as seating
from tests.browser import new_page
from tests.servers import live_stack  # noqa: F401 (fixture)
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen
from tournaments.screens import services as screens

from ..seating.test_support import arrange, started  # noqa: F401 (fixture)
from .test_overlay_browser import STREAM

pytestmark = [pytest.mark.browser, pytest.mark.processes, pytest.mark.django_db(transaction=True)]


def test_a_bust_reaches_the_lower_third_within_two_seconds(live_stack, chromium_browser, started, director, actor):  # noqa: F811
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)})
    design = screens.save_layout(name="Stream " + uuid.uuid4().hex[:6], design=STREAM, actor=Actor(director, "test"))
    screen = DisplayScreen.objects.create(name="OBS", tournament=t, token="obs-" + uuid.uuid4().hex, layouts={"live": f"layout:{design.pk}"})
    page = new_page(chromium_browser, viewport=(1920, 1080))
    try:
        page.goto(live_stack["base"] + f"/overlay/{screen.token}/")
        expect(page.locator("#conn")).to_have_class("conn ok")  # on the live stream, not the 5 s look
        recorded = time.monotonic()
        seating.record_bust(t, [layout[1][2]], actor=actor)
        expect(page.locator("#lower-third")).to_be_visible(timeout=5000)
        took = time.monotonic() - recorded
        assert took <= 2.0, f"the lower third came {took:.2f} s after the bust"
    finally:
        page.context.close()
