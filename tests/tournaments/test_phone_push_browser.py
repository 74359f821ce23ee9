"""The phone page's "Notify me" in Chromium: the button subscribes this phone through the page's
script and the server keeps the subscription with the kinds ticked; unticking one changes them;
"Stop notices" deletes it; the service worker shows a notice the push service delivers (Chromium's
DevTools protocol delivers it). Headless Chromium has no
push service of its own: its push manager is stubbed to hand back a subscription of the test's
own (its keys, an endpoint at the test's own push service on loopback)."""

import json

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, until  # noqa: F401 (fixtures)
from tests.pushservice import PushService, browser_keys
from tests.test_axe_browser import problems
from tournaments.models import PushSubscription

from ..seating.test_support import add_entries

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The push manager as a browser with a push service has it: subscribe() once permission is
# granted, getSubscription(), and the subscription's toJSON() and unsubscribe().
STUB = """
(() => {
  const made = %s;
  let held = null;
  const wrap = (info) => ({ endpoint: info.endpoint, toJSON: () => JSON.parse(JSON.stringify(info)), unsubscribe: async () => { held = null; return true; } });
  PushManager.prototype.subscribe = async function (options) {
    if (!options || !options.applicationServerKey || !options.userVisibleOnly) throw new Error("bad options");
    window.__applicationServerKey = Array.from(new Uint8Array(options.applicationServerKey)).length;
    held = wrap(made);
    return held;
  };
  PushManager.prototype.getSubscription = async function () { return held; };
})();
"""


@pytest.fixture
def service(settings):
    server = PushService()
    settings.TDM_PUSH_ENDPOINTS = ["127.0.0.1"]
    yield server
    server.close()


def test_notify_me_subscribes_this_phone_and_stop_deletes_it(browser_page, make_tournament, service):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    t = make_tournament(name="Sunday Special", table_size=10, settings={"bounty": "FIXED", "bounty_amount": "20"})
    (entry,) = add_entries(t, 1)
    _key, _auth, keys = browser_keys()
    subscription = {"endpoint": service.origin + "/ok/phone", "expirationTime": None, "keys": keys}
    page.context.grant_permissions(["notifications"], origin=page.base_url)
    page.add_init_script(STUB % json.dumps(subscription))

    page.goto(page.base_url + f"/p/{entry.phone_token}/")
    button = page.get_by_role("button", name="Notify me")
    expect(button).to_be_visible()
    expect(page.locator("#push-status")).to_contain_text('Tap "Notify me"')
    expect(page.get_by_label("A move: my table breaks or is balanced")).to_be_checked()
    assert problems(page, "phone page, notices offered") == []
    button.click()
    expect(page.get_by_role("button", name="Stop notices")).to_be_visible()
    expect(page.locator("#push-status")).to_contain_text("This phone is told your seat")
    assert page.evaluate("window.__applicationServerKey") == 65  # the installation's public key, decoded
    sub = PushSubscription.objects.get()
    assert sub.endpoint == subscription["endpoint"] and sub.person_id == entry.person_id and sub.language == "en"
    assert sub.kinds == [
        "seat",
        "move",
        "final_table",
        "starts_soon",
        "reg_closes",
        "break_ends",
        "announcement",
        "in_money",
        "busted",
        "bounty",
        "prize_ready",
    ]

    with page.expect_response(lambda r: r.url.endswith("/push/") and r.request.method == "POST") as answer:
        page.get_by_label("A bounty won").uncheck()
    assert answer.value.status == 201
    sub.refresh_from_db()
    assert sub.kinds == ["seat", "move", "final_table", "starts_soon", "reg_closes", "break_ends", "announcement", "in_money", "busted", "prize_ready"]
    assert problems(page, "phone page, notices on") == []

    page.get_by_role("button", name="Stop notices").click()
    expect(page.get_by_role("button", name="Notify me")).to_be_visible()
    expect(page.locator("#push-status")).to_contain_text('Tap "Notify me"')
    assert not PushSubscription.objects.exists()


def test_the_service_worker_shows_a_delivered_notice(browser_page, make_tournament, service):
    page = browser_page
    t = make_tournament(name="Sunday Special", table_size=10)
    (entry,) = add_entries(t, 1)
    page.context.grant_permissions(["notifications"], origin=page.base_url)
    page.goto(page.base_url + f"/p/{entry.phone_token}/")
    expect(page.locator("#push-card")).to_be_visible()
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    cdp = page.context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(100):
        if any(r["scopeURL"].endswith("/p/") for r in registrations):
            break
        page.wait_for_timeout(50)
    (reg,) = [r for r in registrations if r["scopeURL"].endswith("/p/")][:1]
    notice = {"title": "Sunday Special", "body": "Table 3 breaks: go to table 1, seat 7", "url": f"/p/{entry.phone_token}/", "tag": f"seat-{entry.pk}"}
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": page.base_url, "registrationId": reg["registrationId"], "data": json.dumps(notice)})
    ready = "navigator.serviceWorker.ready"
    until(page, f"async () => (await (await {ready}).getNotifications()).length > 0")
    shown = page.evaluate(f"async () => (await (await {ready}).getNotifications()).map((x) => [x.title, x.body, x.tag])")
    assert shown == [["Sunday Special", "Table 3 breaks: go to table 1, seat 7", f"seat-{entry.pk}"]]


# A push service the phone cannot reach: permission granted, and the browser's subscribe()
# refused with its own words in English.
REFUSING = """
(() => {
  PushManager.prototype.subscribe = async function () { throw new DOMException("Registration failed - permission denied", "AbortError"); };
  PushManager.prototype.getSubscription = async function () { return null; };
})();
"""


def test_a_push_service_that_refuses_is_said_in_the_players_language_and_only_what_the_event_sends_is_offered(browser_page, make_tournament, service):
    """In Italian, in an event without bounties: "A bounty won" is not offered, a subscription
    keeps only what the event can send, and a push service that refuses is told in the player's
    words (never the browser's "Registration failed - permission denied"), the button usable again."""
    page = browser_page.context.browser.new_context(locale="it-IT").new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    t = make_tournament(name="Serata", table_size=10)
    (entry,) = add_entries(t, 1)
    page.context.grant_permissions(["notifications"], origin=browser_page.base_url)
    page.add_init_script(REFUSING)
    page.goto(browser_page.base_url + f"/p/{entry.phone_token}/")
    button = page.get_by_role("button", name="Avvisami")
    expect(button).to_be_visible()
    expect(page.locator("#push-kinds")).not_to_contain_text("taglia")  # no bounty in this event
    button.click()
    status = page.locator("#push-status")
    expect(status).to_contain_text("Il servizio di avvisi di questo telefono non ha risposto")
    expect(status).not_to_contain_text("Registration failed")
    expect(button).to_be_enabled()
    assert not PushSubscription.objects.exists()
    assert problems(page, "phone page, push service refused") == []

    # the API keeps to what the event can send, whatever a phone asks for
    _key, _auth, keys = browser_keys()
    body = {"endpoint": service.origin + "/ok/other", "keys": keys, "kinds": ["seat", "bounty"]}
    answer = page.request.post(browser_page.base_url + f"/p/{entry.phone_token}/push/", data=json.dumps(body), headers={"Content-Type": "application/json"})
    assert answer.status == 201 and answer.json()["kinds"] == ["seat"]
    page.context.close()
