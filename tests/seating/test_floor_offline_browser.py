"""The floor through a Wi-Fi drop, in Chromium with the floor's service worker on: the table map
opened, the network cut, three busts and a slip confirmation tapped, the page reloaded without
network (all still waiting, said plainly), the network back: each action reaches the server once,
in the order tapped, and the map shows the server's state. The same bust tapped offline on two
tablets: the first to arrive stands, the other is refused with what happened instead."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from seating import services
from seating.models import Bust, PendingMove
from tests.browser import ARTIFACTS, answer_dialog, browser, browser_page, login, new_page, until  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_axe_browser import problems
from tournaments.eventlog.services import Actor
from tournaments.models import ChipCount, Entry, IdempotencyRecord, Penalty, TournamentEvent
from tournaments.staff import services as staff

from .test_support import arrange, started  # noqa: F401 (fixture)

User = get_user_model()
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_map(page, t, user, page_path="tables/"):
    """The table map (or another floor page of the event) on a tablet, kept by the floor's
    worker: it opens without network after this."""
    make_user(user, "floor")
    page.context.route("**/live/*/stream/**", lambda route: route.abort())  # no ASGI here: the page polls
    login(page, user, f"pw-{user}")
    page.goto(page.base_url + f"/tournaments/{t.pk}/{page_path}")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    until(page, "async () => !!(await caches.match(location.href))")  # the page itself is kept


def bust(page, entry):
    page.click(f'tr[data-entry="{entry}"] button.out')
    page.click("#bust-confirm-ok")
    expect(page.locator("#bust-confirm")).to_be_hidden()


def states(page):
    return page.locator("#floor-queue li").evaluate_all("(lis) => lis.map((li) => li.dataset.state)")


def test_actions_tapped_offline_wait_survive_a_reload_and_go_once_in_order(browser_page, started):
    page = browser_page
    t = started(16)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 8)}, big_blinds={1: (3, 2), 2: (5, 4)})
    services.record_bust(t, [layout[2][7]], actor=Actor(), table=2)  # 9 against 6: a balancing slip
    slip = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    out = [layout[2][3], layout[2][6], next(e for s, e in layout[1].items() if e != slip.entry_id)]
    names = {e.pk: e.person.full_name for e in Entry.objects.select_related("person").filter(pk__in=out)}
    open_map(page, t, "flo")
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/api/v1/" in r.url else None)

    page.context.set_offline(True)
    page.click(f'tr[data-move="{slip.pk}"] button.confirm-move')  # the player sat down where the slip says
    bust(page, out[0])
    bust(page, out[1])
    bust(page, out[2])
    status = page.locator("#floor-queue-status")
    expect(status).to_contain_text(re.compile(r"Offline since \d\d:\d\d"))
    expect(status).to_contain_text("4 actions waiting")
    assert states(page) == ["waiting"] * 4
    expect(page.locator("#floor-queue li").nth(1)).to_contain_text(names[out[0]])
    expect(page.locator(f'tr[data-entry="{out[0]}"]')).to_have_class(re.compile("queued-out"))  # struck through, still seated
    assert Entry.objects.filter(pk__in=out, status=Entry.BUSTED).count() == 0 and posts == []

    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.reload()  # without network: the worker's copy of the map, and the queue from IndexedDB
    expect(page.locator("h1")).to_contain_text(t.name)
    expect(page.locator("#floor-queue-status")).to_contain_text("4 actions waiting")
    assert states(page) == ["waiting"] * 4
    page.screenshot(path=str(ARTIFACTS / "floor-offline-waiting.png"))
    assert problems(page, "table map offline, actions waiting") == []
    assert errors == []
    assert Entry.objects.filter(pk__in=out, status=Entry.BUSTED).count() == 0

    page.context.set_offline(False)
    page.wait_for_function("() => Array.from(document.querySelectorAll('#floor-queue li')).every((li) => li.dataset.state === 'sent')")
    expect(page.locator("#floor-queue-status")).not_to_contain_text("waiting")
    busts = list(Bust.objects.filter(tournament=t).order_by("order").values_list("entry_id", flat=True))
    assert busts == [layout[2][7], *out]  # the one before the drop, then each tapped once, in the order tapped
    assert PendingMove.objects.get(pk=slip.pk).status == PendingMove.DONE
    kinds = {"seating.player.busted": "out", "seating.move.confirmed": "slip", "seating.moves.confirmed": "slip"}
    logged = TournamentEvent.objects.filter(tournament=t, action__in=kinds, id__gt=Bust.objects.get(entry=layout[2][7]).event_id).order_by("id")
    assert [kinds[e.action] for e in logged] == ["slip", "out", "out", "out"]
    assert all(e.payload.get("tapped_at") and e.payload["tapped_at"] < e.created_at.isoformat() for e in logged)
    assert IdempotencyRecord.objects.filter(user__username="flo").count() == 4
    for entry in out:  # the map took the server's state: the players out are off it
        expect(page.locator(f'#tables tr[data-entry="{entry}"]')).to_have_count(0)
    expect(page.locator(f'tr[data-move="{slip.pk}"]')).to_have_count(0)


def test_the_same_bust_on_two_tablets_offline_the_first_stands_the_other_is_told(browser_page, started):
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    rossi = Entry.objects.select_related("person").get(pk=layout[2][5])
    first = browser_page
    second = new_page(first.context.browser)
    second.base_url = first.base_url
    open_map(first, t, "table12")
    open_map(second, t, "table14")
    first.context.set_offline(True)
    second.context.set_offline(True)
    bust(first, rossi.pk)
    bust(second, rossi.pk)
    expect(second.locator("#floor-queue-status")).to_contain_text("1 action waiting")

    first.context.set_offline(False)
    expect(first.locator("#floor-queue li")).to_have_attribute("data-state", "sent")
    second.context.set_offline(False)
    refused = second.locator("#floor-queue li")
    expect(refused).to_have_attribute("data-state", "refused")
    stands = Bust.objects.get(entry=rossi)  # one bust: the first to arrive
    expect(refused).to_contain_text(f"{rossi.person.full_name} (#{rossi.number}) was already out at {timezone.localtime(stands.busted_at):%H:%M}")
    expect(refused).to_contain_text("recorded at table 2 by table12")
    expect(refused).to_contain_text("Nothing to do: the map shows the bust that stands.")
    expect(second.locator(f'#tables tr[data-entry="{rossi.pk}"]')).to_have_count(0)  # the map caught up
    assert Bust.objects.filter(entry=rossi).count() == 1
    second.screenshot(path=str(ARTIFACTS / "floor-offline-refused.png"))
    assert problems(second, "table map, a bust refused") == []
    second.get_by_role("button", name=f"Seen: Out: {rossi.person.full_name}").click()  # read: gone from the list
    expect(refused).to_have_count(0)


def test_an_ended_session_stops_the_queue_keeps_its_actions_for_the_next_login_and_logout_clears(browser_page, started):
    page = browser_page
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    out = layout[1][3]
    open_map(page, t, "early")
    page.context.set_offline(True)
    bust(page, out)
    expect(page.locator("#floor-queue-status")).to_contain_text("1 action waiting")
    Session.objects.all().delete()  # the tablet's login revoked while it was off the network
    page.context.set_offline(False)
    item = page.locator("#floor-queue li")
    expect(item).to_have_attribute("data-state", "refused")
    expect(item).to_contain_text("Not sent: the session of this tablet had ended.")
    assert Entry.objects.get(pk=out).status == Entry.ACTIVE  # nothing sent under no login

    make_user("late", "floor")
    login(page, "late", "pw-late")  # the next login on this tablet sees it, refused, never sent for him
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    expect(item).to_have_attribute("data-state", "refused")
    expect(item).to_contain_text("Out: ")
    assert Entry.objects.get(pk=out).status == Entry.ACTIVE
    page.get_by_role("button", name="Log out").click()
    # The login page is where the floor lands: the logout's own answer, or the map's next poll
    # refused once the session has ended, whichever navigates first.
    expect(page.locator("input[name=username]")).to_be_visible()
    login(page, "late", "pw-late")
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    expect(page.locator("h1")).to_contain_text(t.name)
    assert page.evaluate("async () => (await caches.keys()).filter((n) => n.startsWith('tdm-floor-pages-')).length") <= 1
    expect(page.locator("#floor-queue li")).to_have_count(0)  # logging out cleared the queue


def test_a_penalty_issued_offline_on_the_floor_tools_waits_and_goes_once(browser_page, started):
    page = browser_page
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    player = Entry.objects.select_related("person").get(pk=layout[2][2])
    open_map(page, t, "pen", f"floor/?entry={player.pk}")
    page.context.set_offline(True)
    form = page.locator("#penaltyform")
    form.locator("select[name=kind]").select_option("MISSED_HANDS")
    form.locator("input[name=amount]").fill("2")
    form.locator("button.primary").click()
    item = page.locator("#floor-queue li")
    expect(item).to_have_attribute("data-state", "waiting")
    expect(item).to_contain_text(f"Penalty: {player.person.display_name} (#{player.number})")
    assert Penalty.objects.filter(tournament=t).count() == 0
    page.context.set_offline(False)
    expect(item).to_have_attribute("data-state", "sent")
    penalty = Penalty.objects.get(tournament=t)
    assert penalty.entry_id == player.pk
    event = TournamentEvent.objects.filter(tournament=t, payload__has_key="tapped_at").get()
    assert event.created_at.isoformat() > event.payload["tapped_at"]


def test_a_chip_count_recorded_offline_on_the_floor_tools_waits_and_counts_once(browser_page, started):
    page = browser_page
    t = started(18)
    arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    open_map(page, t, "cnt", "floor/")
    stacks = page.locator("#count-players input[name=chips]")
    expect(stacks).to_have_count(9)  # table 1's seated players
    page.context.set_offline(True)
    for i in range(9):
        stacks.nth(i).fill(str(40000 + i))
    page.locator("#countform button.primary").click()
    item = page.locator("#floor-queue li")
    expect(item).to_have_attribute("data-state", "waiting")
    expect(item).to_contain_text("Chip count: table 1")
    assert ChipCount.objects.filter(tournament=t).count() == 0
    page.context.set_offline(False)
    expect(item).to_have_attribute("data-state", "sent")
    assert sorted(ChipCount.objects.filter(tournament=t).values_list("chips", flat=True)) == [40000 + i for i in range(9)]
    event = TournamentEvent.objects.filter(tournament=t, action="tournaments.chips.counted").get()
    assert event.created_at.isoformat() > event.payload["tapped_at"]
    expect(page.locator("#count-summary")).to_contain_text("9 / 18")  # the floor tools took the server's state


def test_a_slip_confirmed_offline_whose_player_went_out_meanwhile_is_refused_with_what_happened(browser_page, started):
    page = browser_page
    t = started(16)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 8)}, big_blinds={1: (3, 2), 2: (5, 4)})
    services.record_bust(t, [layout[2][7]], actor=Actor(), table=2)  # 9 against 6: a balancing slip
    slip = PendingMove.objects.select_related("entry__person").get(tournament=t, status=PendingMove.PROPOSED)
    open_map(page, t, "slips")
    page.context.set_offline(True)
    page.click(f'tr[data-move="{slip.pk}"] button.confirm-move')
    expect(page.locator("#floor-queue li")).to_have_attribute("data-state", "waiting")
    services.record_bust(t, [slip.entry_id], actor=Actor(), table=slip.from_table)  # another tablet, first
    out = Entry.objects.get(pk=slip.entry_id).busted_at
    page.context.set_offline(False)
    refused = page.locator("#floor-queue li")
    expect(refused).to_have_attribute("data-state", "refused")
    who = slip.entry.person.full_name
    expect(refused).to_contain_text(f"{who} (#{slip.entry.number}) is out since {timezone.localtime(out):%H:%M}: this move no longer applies.")
    expect(refused).to_contain_text("Nothing to confirm: the map shows the moves that stand now.")
    expect(page.locator(f'tr[data-move="{slip.pk}"]')).to_have_count(0)  # the map caught up


def kept(page, t):
    """The table map and an API read (every seated player's name) as the floor's worker keeps them:
    answered from its copy with the network gone, as the tablet would answer a reload."""
    api = f"/api/v1/tournaments/{t.pk}/tables/"
    assert page.evaluate(f"async () => (await fetch('{api}')).status") == 200  # through the worker: kept
    until(page, f"async () => !!(await caches.match('{api}', {{ ignoreVary: true }}))")
    return page.evaluate(
        """async ([map, api]) => {
          const names = await caches.keys(), out = {};
          for (const [k, url] of [["map", map], ["api", api]]) {
            let hit = null;
            for (const n of names) if (n.startsWith("tdm-floor-pages-")) hit = hit || await (await caches.open(n)).match(url, { ignoreVary: true });
            out[k] = hit ? await hit.text() : null;
          }
          return out;
        }""",
        [page.url, api],
    )


def offline_map(page, t):
    """The table map asked for with the network gone: what the tablet shows ("" when nothing)."""
    page.context.set_offline(True)
    try:
        page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    except PlaywrightError:  # no worker left to answer: the browser's own offline page
        return ""
    return page.content()


def test_a_logout_from_the_dashboard_leaves_nothing_of_the_login_on_the_tablet(browser_page, started):
    page = browser_page
    t = started(18)
    arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    name = Entry.objects.select_related("person").filter(tournament=t).first().person.full_name
    open_map(page, t, "dash")
    before = kept(page, t)
    assert name in before["map"] and name in before["api"]  # what a lost tablet would show

    page.goto(page.base_url + "/")  # the dashboard: not a floor page, no queue script of its own
    with page.expect_navigation():
        page.get_by_role("button", name="Log out").click()
    expect(page.locator("input[name=username]")).to_be_visible()

    assert page.evaluate("async () => (await caches.keys()).filter((n) => n.startsWith('tdm-floor-'))") == []
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 0
    shown = offline_map(page, t)
    assert name not in shown and t.name not in shown


def test_a_password_reset_empties_the_tablets_copy_at_its_next_answer_from_the_server(browser_page, started):
    page = browser_page
    t = started(18)
    arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    name = Entry.objects.select_related("person").filter(tournament=t).first().person.full_name
    open_map(page, t, "lost")
    before = kept(page, t)
    assert name in before["map"] and name in before["api"]

    staff.reset_password(User.objects.get(username="lost").pk, actor=Actor(), password="Nuova-Parola-2026!")  # on the office PC
    api = f"/api/v1/tournaments/{t.pk}/tables/"
    assert page.evaluate(f"async () => (await fetch('{api}')).status") in (401, 403)  # the tablet's next read: no session
    until(  # the worker threw its copy away on that answer
        page,
        """async () => { for (const n of await caches.keys()) if (n.startsWith("tdm-floor-pages-") && (await (await caches.open(n)).keys()).length) return false; return true; }""",
    )

    shown = offline_map(page, t)
    assert name not in shown and t.name not in shown
    assert "not kept on this tablet" in shown


def test_a_page_redirected_to_the_login_after_a_reset_leaves_nothing_readable(browser_page, started):
    page = browser_page
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    player = Entry.objects.select_related("person").get(pk=layout[1][3])
    open_map(page, t, "gone")
    page.context.set_offline(True)
    bust(page, player.pk)  # tapped offline: waits in the queue, with the player's name
    expect(page.locator("#floor-queue li")).to_contain_text(player.person.full_name)
    staff.reset_password(User.objects.get(username="gone").pk, actor=Actor(), password="Nuova-Parola-2026!")
    page.context.set_offline(False)
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")  # the server sends the tablet to the login page
    expect(page.locator("input[name=username]")).to_be_visible()
    until(page, "async () => (await caches.keys()).every((n) => !n.startsWith('tdm-floor-pages-'))")
    until(
        page,
        """() => new Promise((resolve) => {
          const open = indexedDB.open("tdm-floor", 1);
          open.onsuccess = () => { const r = open.result.transaction("actions").objectStore("actions").getAll(); r.onsuccess = () => resolve(r.result.every((a) => a.anonymous)); };
        })""",
    )
    stored = page.evaluate(
        """() => new Promise((resolve) => {
          const open = indexedDB.open("tdm-floor", 1);
          open.onsuccess = () => { const r = open.result.transaction("actions").objectStore("actions").getAll(); r.onsuccess = () => resolve(r.result); };
        })"""
    )
    assert len(stored) == 1 and player.person.full_name not in str(stored) and stored[0]["body"] is None
    assert stored[0]["label"] == "Out: … (table 1)" and stored[0]["state"] == "refused"
    shown = offline_map(page, t)
    assert player.person.full_name not in shown
    assert Entry.objects.get(pk=player.pk).status == Entry.ACTIVE  # never sent without a login


def test_a_logout_from_the_dashboard_asks_first_when_floor_actions_still_wait(browser_page, started):
    page = browser_page
    t = started(18)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 10)}, big_blinds={1: (3, 2), 2: (5, 4)})
    open_map(page, t, "ask")
    page.context.set_offline(True)
    bust(page, layout[1][2])  # waits on the tablet; the map is then closed before the network returns
    expect(page.locator("#floor-queue-status")).to_contain_text("1 action waiting")
    # Closed, not navigated away from: a page left for about:blank may live on a moment in its
    # old renderer, hear "online" and send its queue, which is right for the product but not
    # what this test is about.
    base_url, tab = page.base_url, page.context.new_page()
    page.close()
    page, page.base_url = tab, base_url
    page.set_default_timeout(15000)
    page.context.set_offline(False)
    page.goto(page.base_url + "/")
    page.get_by_role("button", name="Log out").click()
    dialog = page.locator("dialog.tdm-dialog[open]")
    expect(dialog).to_contain_text("1 actions have not reached the server yet: logging out drops them. Log out anyway?")
    answer_dialog(page, ok=False)  # kept: the floor opens the map again and it is sent
    expect(page.locator("nav form[action$='/logout/'] button")).to_be_visible()
    assert page.evaluate("async () => (await caches.keys()).some((n) => n.startsWith('tdm-floor-'))")
    page.get_by_role("button", name="Log out").click()
    with page.expect_navigation():
        answer_dialog(page, ok=True)
    expect(page.locator("input[name=username]")).to_be_visible()
    assert Entry.objects.get(pk=layout[1][2]).status == Entry.ACTIVE
