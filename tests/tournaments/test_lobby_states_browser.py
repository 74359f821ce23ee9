"""Issue #14: the lobby screen at 1920×1080 in every state of a tournament, one screenshot per
state (test-artifacts/lobby-<state>.png); "Next break in" counting down with the clock and
frozen while it is paused; a screen rotating between two tournaments."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from seating import services as seating
from tests.browser import ARTIFACTS, browser, browser_page  # noqa: F401 (fixtures)
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.live.snapshot import build_snapshot
from tournaments.models import DisplayScreen, StructureItem, Tournament
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def clock_text(seconds: float) -> str:
    """What TDMFormat.clock writes for a number of seconds."""
    import math

    sec = math.ceil(seconds)
    h, m, s = sec // 3600, sec % 3600 // 60, sec % 60
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def seconds(text: str) -> int:
    parts = [int(x) for x in text.split(":")]
    return sum(v * 60**i for i, v in enumerate(reversed(parts)))


def shot(page, state):
    expect(page.locator("#screen")).to_have_attribute("data-state", state)
    page.screenshot(path=str(ARTIFACTS / f"lobby-{state}.png"))


def test_every_state_of_a_tournament_has_its_lobby_picture(browser_page, make_tournament, make_person, director, cashier_user):
    page = browser_page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.route("**/live/*/stream/**", lambda route: route.abort())  # the polling fallback: one snapshot a load
    page.clock.install()  # the page's time is moved on by the test (run_for), never waited for
    actor, desk = Actor(director, "test"), Actor(cashier_user, "desk")
    t = make_tournament(name="Sunday Deepstack", status=Tournament.PLANNED, start_at=timezone.now() + timedelta(hours=2, minutes=30))
    DisplayScreen.objects.create(name="Lobby TV", tournament=t, token="lobby-states-tv", show={"sounds": False})
    url = page.base_url + "/display/lobby-states-tv/"

    page.goto(url)
    shot(page, "planned")
    expect(page.locator("#status")).to_have_text("COMING UP")
    expect(page.locator("#start-label")).to_have_text("Starts in")
    expect(page.locator("#start-time")).to_contain_text("2:2")  # 2:29:59 and counting
    expect(page.locator("#live-view")).to_be_hidden()

    lifecycle.open_registration(t, actor=actor)
    people = [
        make_person(first=f, last=last)
        for f, last in [
            ("Mario", "Rossi"),
            ("Giulia", "Bianchi"),
            ("Luca", "Ferrari"),
            ("Anna", "Ricci"),
            ("Paolo", "Rizzo"),
            ("Sara", "Conti"),
            ("Marco", "Gallo"),
            ("Elena", "Greco"),
            ("Davide", "Marino"),
            ("Chiara", "Costa"),
            ("Fabio", "Bruno"),
            ("Laura", "Fontana"),
        ]
    ]
    entries = [cashier.register(t, p, method="CASH", actor=desk).entry for p in people]
    page.goto(url)
    shot(page, "registering")
    expect(page.locator("#status")).to_have_text("REGISTRATION OPEN")
    expect(page.locator("#start-note")).to_have_text("Registration is open at the cash desk")
    expect(page.locator("#first-level")).to_contain_text("First level:")
    expect(page.locator("#entries")).to_have_text("12")

    lifecycle.start(t, actor=actor)  # the director left "start the clock too" unticked
    first = t.structure.items.order_by("position")[0]
    page.goto(url)
    shot(page, "waiting")
    expect(page.locator("#clock")).to_have_text(clock_text(first.minutes * 60))  # the level in full, not a red 00:00
    expect(page.locator("#clock")).not_to_have_class("clock low")
    expect(page.locator("#status")).to_have_text("STARTING SOON")
    expect(page.locator("#level-label")).to_have_text("Level 1")

    clock_services.start_clock(t, actor=actor)
    page.goto(url)
    shot(page, "running")
    expect(page.locator("#status")).to_have_text("")
    expect(page.locator("#badge")).to_be_hidden()
    # "Next break in" counts down with the clock: ten seconds on, ten seconds less, like the level.
    expect(page.locator("#next-break")).not_to_have_text("")
    # Both read at one instant of the page (two reads one after the other straddled a tick of the
    # page's real-time clock now and then: 4800 beside 1199).
    both = "() => ['#next-break', '#clock'].map(s => document.querySelector(s).textContent)"
    before, level_before = map(seconds, page.evaluate(both))
    page.clock.run_for(10_000)
    after, level_after = map(seconds, page.evaluate(both))
    assert 9 <= before - after <= 11 and before - after == level_before - level_after

    clock_services.pause(t, actor=actor, reason="dealer change")
    t.refresh_from_db()
    page.goto(url)
    shot(page, "paused")
    expect(page.locator("#status")).to_have_text("PAUSED")
    frozen = clock_text(build_snapshot(t)["clock"]["seconds_to_next_break"])
    expect(page.locator("#next-break")).to_have_text(frozen)
    level = page.locator("#clock").text_content()
    page.clock.run_for(10_000)  # paused: neither moves
    expect(page.locator("#next-break")).to_have_text(frozen)
    expect(page.locator("#clock")).to_have_text(level)

    clock_services.resume(t, actor=actor)
    first_break = next(i for i, it in enumerate(t.structure.items.order_by("position")) if it.kind == StructureItem.BREAK)
    clock_services.jump_to(t, first_break, actor=actor, reason="break")
    page.goto(url)
    shot(page, "break")
    expect(page.locator("#level-label")).to_have_text("BREAK")

    clock_services.jump_to(t, first_break + 1, actor=actor, reason="play")
    clock_services.start_hand_for_hand(t, actor=actor)
    page.goto(url)
    shot(page, "hand_for_hand")
    expect(page.locator("#status")).to_have_text("HAND FOR HAND — hand 1 · 12 left, 2 paid")  # 12 in, 15 % of 12 places paid

    clock_services.end_hand_for_hand(t, actor=actor)
    for e in entries[:5]:
        seating.record_bust(t, [{"entry": e.pk}], actor=actor)
    page.goto(url)
    shot(page, "final_table")
    expect(page.locator("#badge")).to_have_text("FINAL TABLE")
    expect(page.locator("#players")).to_have_text("7")

    for e in entries[5:11]:
        seating.record_bust(t, [{"entry": e.pk}], actor=actor)
    lifecycle.finish(t, actor=actor)
    page.goto(url)
    shot(page, "finished")
    expect(page.locator("#status")).to_have_text("FINISHED")
    expect(page.locator("#end-label")).to_have_text("Winner")
    expect(page.locator("#winner")).to_have_text("Laura F.")  # as every public page names players
    expect(page.locator("#winner-prize")).to_contain_text("€")
    expect(page.locator("#results li").first).to_contain_text("2.")
    expect(page.locator("#results li").first).to_contain_text("Fabio B.")
    expect(page.locator("#live-view")).to_be_hidden()
    expect(page.locator("#players")).to_be_hidden()  # no "Players 1" after the end

    other = make_tournament(name="Monday Turbo")
    cashier.register(other, make_person(), method="CASH", actor=desk)
    lifecycle.cancel(other, actor=actor, reason="too few players")
    DisplayScreen.objects.create(name="Bar TV", tournament=other, token="lobby-cancelled-tv", show={"sounds": False})
    page.goto(page.base_url + "/display/lobby-cancelled-tv/")
    shot(page, "cancelled")
    expect(page.locator("#end-label")).to_have_text("CANCELLED")
    expect(page.locator("#winner-prize")).to_contain_text("refunded")
    expect(page.locator("#pool")).to_be_hidden()


def test_a_lobby_screen_rotates_between_the_chosen_tournaments(browser_page, make_tournament, make_person, director, cashier_user):
    page = browser_page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.route("**/live/*/stream/**", lambda route: route.abort())
    actor = Actor(director, "test")
    main = make_tournament(name="Main Event")
    side = make_tournament(name="Side Turbo")
    for t in (main, side):
        for _ in range(3):
            cashier.register(t, make_person(), method="CASH", actor=Actor(cashier_user, "desk"))
    lifecycle.start(main, actor=actor, start_clock=True)
    screen = DisplayScreen.objects.create(name="Lobby", token="rotating-tv", show={"sounds": False}, rotate_seconds=5)
    screen.rotate.set([main, side])
    page.goto(page.base_url + "/display/rotating-tv/")
    expect(page.locator("#t-name")).to_have_text("Main Event")
    expect(page.locator("#rotation")).to_have_text("1 / 2")
    expect(page.locator("#screen")).to_have_attribute("data-state", "final_table")
    expect(page.locator("#t-name")).to_have_text("Side Turbo", timeout=9000)
    expect(page.locator("#screen")).to_have_attribute("data-state", "registering")  # its own live data, not the main event's
    expect(page.locator("#rotation")).to_have_text("2 / 2")
    page.screenshot(path=str(ARTIFACTS / "lobby-rotation.png"))
    expect(page.locator("#t-name")).to_have_text("Main Event", timeout=9000)


def test_the_director_picks_a_screens_rotation_on_the_displays_page(browser_page, make_tournament, make_person, director, cashier_user):
    """The displays page saves the rotation through the API; the lobby then turns between the
    chosen tournaments and writes every name (here a markup payload) as text, under the CSP."""
    from tests.browser import login
    from tests.conftest import make_user
    from tests.test_xss_browser import FIRST, LAST, Watch

    page = browser_page
    watch = Watch(page.context)
    watch.attach(page)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.route("**/live/*/stream/**", lambda route: route.abort())
    make_user("boss", "director")
    actor = Actor(director, "test")
    main = make_tournament(name=FIRST)
    side = make_tournament(name="Side Turbo")
    people = [make_person(first=LAST, last="Winner"), make_person(), make_person()]
    entries = [cashier.register(main, p, method="CASH", actor=Actor(cashier_user, "desk")).entry for p in people]
    lifecycle.start(main, actor=actor, start_clock=True)
    seating.record_bust(main, [{"entry": entries[1].pk}], actor=actor)
    seating.record_bust(main, [{"entry": entries[2].pk}], actor=actor)
    lifecycle.finish(main, actor=actor)
    screen = DisplayScreen.objects.create(name="Bar TV", token="bar-tv", show={"sounds": False})

    login(page, "boss", "pw-boss")
    page.goto(page.base_url + "/displays/")
    form = page.locator(f"form[data-screen='{screen.pk}']")
    form.locator(f"input[name=rotate][value='{main.pk}']").check()
    form.locator(f"input[name=rotate][value='{side.pk}']").check()
    form.locator("input[name=rotate_seconds]").fill("6")
    form.locator("button.primary").click()
    expect(form.locator("[data-msg]")).to_have_text("Saved: the screen follows within half a minute.")
    page.screenshot(path=str(ARTIFACTS / "lobby-displays-page.png"), full_page=True)
    watch.check(page, "displays page", texts=(FIRST, "Side Turbo"))
    screen.refresh_from_db()
    assert set(screen.rotate.values_list("pk", flat=True)) == {main.pk, side.pk} and screen.rotate_seconds == 6

    page.goto(page.base_url + "/display/bar-tv/")
    expect(page.locator("#screen")).to_have_attribute("data-state", "finished")
    expect(page.locator("#t-name")).to_have_text(FIRST)
    expect(page.locator("#winner")).to_have_text(f"{LAST} W.")
    watch.check(page, "lobby rotation (finished)", texts=(FIRST, f"{LAST} W."))
    expect(page.locator("#t-name")).to_have_text("Side Turbo", timeout=10000)
    expect(page.locator("#screen")).to_have_attribute("data-state", "registering")
    watch.check(page, "lobby rotation (registering)", texts=("Side Turbo",))


def test_the_lobby_in_italian(browser_page, make_tournament, make_person, director, cashier_user):
    page = browser_page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.route("**/live/*/stream/**", lambda route: route.abort())
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    actor = Actor(director, "test")
    t = make_tournament(name="Torneo della Domenica")
    people = [make_person(first="Giulia", last="Bianchi"), make_person(first="Mario", last="Rossi"), make_person(first="Anna", last="Ricci")]
    entries = [cashier.register(t, p, method="CASH", actor=Actor(cashier_user, "desk")).entry for p in people]
    DisplayScreen.objects.create(name="Lobby", tournament=t, token="it-lobby", show={"sounds": False})
    url = page.base_url + "/display/it-lobby/"
    lifecycle.start(t, actor=actor)
    page.goto(url)
    expect(page.locator("#screen")).to_have_attribute("data-state", "waiting")
    expect(page.locator("#level-label")).to_have_text("Livello 1")
    expect(page.locator("#notice")).to_have_text("Shuffle up and deal: l'orologio parte tra un attimo")
    page.screenshot(path=str(ARTIFACTS / "lobby-waiting-it.png"))
    clock_services.start_clock(t, actor=actor)
    seating.record_bust(t, [{"entry": entries[2].pk}], actor=actor)
    seating.record_bust(t, [{"entry": entries[1].pk}], actor=actor)
    lifecycle.finish(t, actor=actor)
    page.goto(url)
    expect(page.locator("#screen")).to_have_attribute("data-state", "finished")
    expect(page.locator("#end-label")).to_have_text("Vincitore")
    expect(page.locator("#winner")).to_have_text("Giulia B.")
    expect(page.locator("#results li").first).to_contain_text("Mario R.")
    page.screenshot(path=str(ARTIFACTS / "lobby-finished-it.png"))
