"""Issue #15: the lobby screen's rotating seat lookup pages through /live/<pk>/seats/.

A field bigger than one page (48 seats): the screen shows 12 names every 8 seconds in
alphabetical order, fetches the second page when it has shown the first, starts again at the
first after the last, and asks again only when the snapshot's ``seats_version`` changed (a bust).
"""

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from seating import services as seating
from seating.models import Seat
from tests.browser import ARTIFACTS, browser, browser_page  # noqa: F401 (fixtures)
from tests.seating.test_support import add_entries
from tournaments.clock import services as clock_services
from tournaments.models import DisplayScreen
from tournaments.people.names import public_name
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def shown_seats(t):
    """What the lookup should show, in its order: "name table/seat" (names as public pages show them)."""
    rows = Seat.objects.filter(tournament=t).values_list("entry__person__first_name", "entry__person__last_name", "table__number", "number")
    return [
        f"{name} {table}/{seat}"
        for name, table, seat in sorted(((public_name(f, last), table, seat) for f, last, table, seat in rows), key=lambda r: r[0].lower())
    ]


def test_the_lobby_seat_lookup_pages_through_a_field_bigger_than_a_page(browser_page, make_tournament, actor):
    page = browser_page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.route("**/live/*/stream/**", lambda route: route.abort())  # the polling fallback: the test moves the time on
    # The page's time stands still but for the test's run_for: an installed clock otherwise flows on
    # by itself, and on a loaded machine the screen's own 8-second turn came between the test's
    # steps (a turn shown twice, or skipped).
    now = datetime.now(UTC).replace(microsecond=0)
    page.clock.install(time=now)
    page.clock.pause_at(now + timedelta(seconds=1))
    t = make_tournament(name="Big Field", table_size=10)
    add_entries(t, 60, names=[f"Zed{(i * 37) % 60:02d}" if i % 2 else f"amy{(i * 37) % 60:02d}" for i in range(60)])
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor)
    DisplayScreen.objects.create(name="Lobby", tournament=t, token="seats-paging-tv", show={"sounds": False})
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/seats/" in r.url else None)

    expected = shown_seats(t)
    assert len(expected) == 60 and expected[0].startswith("amy") and expected[-1].startswith("Zed")
    page.goto(page.base_url + "/display/seats-paging-tv/")
    box = page.locator("#seats span")
    start = 0
    while start < 60:  # each turn goes on where the last stopped, as many as the footer holds (at most 12)
        expect(box.first).to_have_text(expected[start])
        turn = box.all_text_contents()
        assert 0 < len(turn) <= 12 and turn == expected[start : start + len(turn)]
        start += len(turn)
        page.clock.run_for(8000)
    expect(box.first).to_have_text(expected[0])  # after the last, the top again
    pages = [re.search(r"[?&]page=(\d+)", url).group(1) for url in asked]
    assert pages == ["1", "2", "1"], asked  # one request a page, none while a page is being shown

    # The screen shows the first turn of page 1 now. A player of its next turn busts: the next
    # snapshot has a newer seats_version, so the screen asks for its page again and its next
    # turn shows the field without him or her.
    first_turn = len(box.all_text_contents())
    victim = expected[first_turn + 1]
    gone = next(
        s
        for s in Seat.objects.filter(tournament=t).select_related("entry__person", "table")
        if f"{public_name(s.entry.person.first_name, s.entry.person.last_name)} {s.table.number}/{s.number}" == victim
    )
    seating.record_bust(t, [gone.entry_id], actor=actor)
    page.clock.run_for(5000)  # the page polls the snapshot
    expect(page.locator("#players")).to_have_text("59")  # the new snapshot is shown
    page.clock.run_for(8000)
    now = shown_seats(t)
    assert len(now) == 59 and victim not in now
    expect(box.first).to_have_text(now[first_turn])
    assert box.all_text_contents() == now[first_turn : first_turn + box.count()]
    assert len(asked) == 4 and "page=1&" in asked[-1], asked
    page.screenshot(path=str(ARTIFACTS / "lobby-seat-pages.png"))
