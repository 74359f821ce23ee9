"""Issue #39 item 7: the lobby TV at 1920×1080 with a league, a big field and its payouts. A
10-row league is shown in full (on the classic layout it takes turns with the payouts, on the
same cells), and nothing on the screen is wider or taller than its box."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, browser, browser_page  # noqa: F401 (fixtures)
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.formats.services import series as series_service
from tournaments.models import DisplayScreen, Entry
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

#: Every box of the screen whose content runs past it: wider than its box, or taller than a box
#: that clips (a cut payout ladder, a cut league, a figure cut at the edge of the stats).
OVERFLOWING = """() => [...document.querySelectorAll('#screen, #screen *')]
  .filter((el) => el.offsetParent !== null && el.clientWidth > 0 && getComputedStyle(el).textOverflow !== 'ellipsis')
  .filter((el) => el.scrollWidth > el.clientWidth + 1
    || (getComputedStyle(el).overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 1))
  .map((el) => (el.id || el.className || el.tagName) + ' ' + el.scrollWidth + 'x' + el.scrollHeight + ' in ' + el.clientWidth + 'x' + el.clientHeight)"""

#: The league's rows a viewer sees: inside the screen and inside the league's block, not cut.
LEAGUE_ROWS_SEEN = """() => {
  const side = document.querySelector('.block[data-kind="league"]').getBoundingClientRect();
  return [...document.querySelectorAll('#league li')].filter((li) => {
    const r = li.getBoundingClientRect();
    return li.offsetParent !== null && r.height > 0 && r.top >= side.top && r.bottom <= side.bottom && r.bottom <= innerHeight;
  }).map((li) => li.textContent);
}"""


def played_league(make_tournament, make_person, actor, cashier_actor, players=12):
    """A league with one event scored: ``players`` people, the first listed first."""
    league = series_service.create_series(name="Thursday Night Poker League", scoring="LINEAR", cycle_length=None, actor=actor)
    people = [make_person(first="Massimiliano", last=f"Casalegno-Bertolini{n}") for n in range(players)]
    t = make_tournament(name="League night 1")
    entries = [cashier.register(t, p, method="CASH", actor=cashier_actor).entry for p in people]
    lifecycle.start(t, actor=actor)
    start = timezone.now() - timedelta(hours=2)
    for i, e in enumerate(reversed(entries[1:])):
        Entry.objects.filter(pk=e.pk).update(status=Entry.BUSTED, busted_at=start + timedelta(minutes=i))
    for place, e in enumerate(entries, start=1):
        Entry.objects.filter(pk=e.pk).update(place=place)
    lifecycle.finish(t, actor=actor)
    series_service.attach(league, t, actor=actor)
    series_service.score_tournament(t, actor=actor)
    return league, people


def test_a_ten_row_league_is_seen_in_full_and_nothing_overflows_at_1920x1080(browser_page, make_tournament, make_person, actor, cashier_actor):
    page = browser_page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.route("**/live/*/stream/**", lambda route: route.abort())
    page.clock.install()
    league, _people = played_league(make_tournament, make_person, actor, cashier_actor)
    t = make_tournament(name="League night 2", buy_in=Decimal("1000"), starting_stack=1_000_000)
    series_service.attach(league, t, actor=actor)
    for _ in range(120):  # a big field: big numbers in the stats, a long payout ladder
        cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor)
    DisplayScreen.objects.create(name="Lobby TV", tournament=t, token="lobby-fits-tv", show={"sounds": False})

    page.goto(page.base_url + "/display/lobby-fits-tv/")
    expect(page.locator("#league-box")).to_be_attached()
    expect(page.locator("#league li")).to_have_count(10)
    expect(page.locator("#chips")).not_to_have_text("")
    seen = set()
    for turn in range(3):  # the payouts' and the league's turns (every 12 s): the league in full in one of them
        seen |= set(page.evaluate(LEAGUE_ROWS_SEEN))
        assert page.evaluate(OVERFLOWING) == [], f"turn {turn}"
        page.screenshot(path=str(ARTIFACTS / f"lobby-league-turn{turn}.png"))
        page.clock.run_for(12_000)
        if len(page.evaluate(LEAGUE_ROWS_SEEN)) == 10:  # readable from afar: not below the labels' size
            assert page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('#league')).fontSize)") >= 0.024 * 1080
    assert len(seen) == 10, sorted(seen)
