"""A player whose names are scripts is printed as text on every page, in a real browser (#11).

He registers at the desk through the page, sits at the tables, is the player a balancing move
names, issues a penalty, reaches the money and is paid. On every page he appears on, the test
asserts that his names are shown literally, that none of the payloads ran (``window.__xss``),
that no dialog opened, that nothing asked for the ``<img src=x>`` URL, that no script failed
and that the Content-Security-Policy refused nothing: a refusal of our own code would mean a
page broke when its inline code moved to ``static/``.

The pages, in the order the test visits them, are EXPECTED_PAGES below.
"""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from payouts import services as payouts
from seating import services as seating
from seating.models import PendingMove
from tests.browser import ARTIFACTS, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.payouts.deal_stacks import stacks_in_play
from tests.seating.test_support import arrange
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen, Entry, Person
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
D = Decimal

FIRST = '<img src=x onerror="window.__xss=1">'
LAST = "<script>window.__xss=2</script>"
NICK = '"><svg onload=window.__xss=3>'
FULL = f"{FIRST} {LAST}"
ANNOUNCE = '<img src=x onerror="window.__xss=4"> final table at 22:00'

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI));
"""

EXPECTED_PAGES = [
    "receipt (?print=1)",
    "desk (new player, search, register)",
    "tables",
    "tables (refreshed by itself)",
    "move slip (?print=1)",
    "draw history",
    "public seat lookup",
    "tournament page",
    "clock (screen name and announcement)",
    "person page",
    "dashboard",
    "people (search)",
    "floor (penalty issued)",
    "lobby display",
    "deal calculator (calculated)",
    "payouts page (ranking)",
    "payouts due",
    "payout slip (?print=1)",
    "payouts due (paid)",
]


class Watch:
    """Everything the browser reports that a test of this kind must never see."""

    def __init__(self, context, dialogs=True):
        """``dialogs=False``: the test answers the dialogs it expects itself."""
        self.console, self.errors, self.dialogs, self.requests = [], [], [], []
        self.watch_dialogs = dialogs
        self.checked = []  # the pages check() passed, in order
        context.add_init_script(WATCH)
        context.on("page", self.attach)
        context.on("request", lambda r: self.requests.append(r.url))

    def attach(self, page):
        page.on("console", lambda m: self.console.append(f"{page.url}: {m.text}") if "Content Security Policy" in m.text else None)
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        if self.watch_dialogs:
            page.on("dialog", self.dialog)

    def dialog(self, d):
        self.dialogs.append(f"{d.type}: {d.message}")
        d.dismiss()

    def check(self, page, name, texts=(FIRST,), blocked_elsewhere=()):
        """The page shows ``texts`` literally, and nothing ran, opened or was refused (but for
        requests to ``blocked_elsewhere``: another origin the policy rightly refuses)."""
        page.wait_for_load_state("load")
        body = page.locator("body").inner_text()
        for text in texts:
            assert text in body, f"{name}: {text!r} not shown as text"
        assert page.evaluate("window.__xss") is None, f"{name}: a payload ran"
        refused = [v for v in page.evaluate("window.__csp") if not any(v.endswith(" " + url) for url in blocked_elsewhere)]
        assert refused == [], f"{name}: CSP refused {refused}"
        assert page.locator("img[src=x], svg[onload], script:not([src]):not([type='application/json'])").count() == 0, name
        self.console = [m for m in self.console if not any(url in m for url in blocked_elsewhere)]
        assert self.console == [], self.console
        assert self.errors == [], self.errors
        assert self.dialogs == [], self.dialogs
        assert not [u for u in self.requests if re.search(r"/x(\?|$)", u)], f"{name}: the <img src=x> was requested"
        self.checked.append(name)


def test_a_player_named_like_a_script_is_text_everywhere(browser_page, make_tournament, make_person):
    page = browser_page
    watch = Watch(page.context)
    watch.attach(page)
    boss = make_user("boss", "director", is_staff=True, is_superuser=True)
    actor = Actor(boss, "test")
    # The public seat lookup shows whole names here (a house choice; the default shows an initial).
    t = make_tournament(name="Main Event", table_size=10, settings={"seat_lookup_names": "FULL"})
    for _ in range(17):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    login(page, "boss", "pw-boss")
    # The stream needs the ASGI server; Django's live server is WSGI: the pages poll instead.
    page.route("**/live/*/stream/**", lambda route: route.abort())

    # --- the desk: he is created and registered through the page; the receipt opens ---
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    page.click("#newperson summary")
    page.fill("#personform input[name=first_name]", FIRST)
    page.fill("#personform input[name=last_name]", LAST)
    page.fill("#personform input[name=nickname]", NICK)
    page.click("#personform button")
    expect(page.locator("#player-name")).to_have_text(f"{FULL} ({NICK})")
    with page.expect_popup() as popup:
        page.click("button[data-op=register]")
    receipt = popup.value
    receipt.wait_for_load_state()
    expect(receipt.locator("#receipt-player")).to_have_text(FULL)
    watch.check(receipt, "receipt (?print=1)", texts=(FULL,))
    receipt.close()
    expect(page.locator("#message")).to_contain_text("Sold")
    page.fill("#search", "img")
    expect(page.locator("#results li").first).to_contain_text(f"{FULL} ({NICK})")
    watch.check(page, "desk (new player, search, register)", texts=(f"{FULL} ({NICK})",))
    evil = Person.objects.get(first_name=FIRST)
    entry = Entry.objects.get(tournament=t, person=evil)

    # --- seated: 10 + 8 players, he is the next big blind at the full table, so he moves ---
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    others = list(t.entries.exclude(pk=entry.pk).order_by("number").values_list("pk", flat=True))
    layout = {1: {s: others.pop(0) for s in range(1, 11) if s != 4}, 2: {s: others.pop(0) for s in range(1, 9)}}
    layout[1][4] = entry.pk
    arrange(t, layout, big_blinds={1: (3, 2), 2: (5, 4)})
    seating.set_big_blind(t, 1, 3, previous_big_blind_seat=2, actor=actor)
    move = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    assert move.entry_id == entry.pk
    DisplayScreen.objects.create(name=ANNOUNCE, tournament=t, token="xss-tv", show={"sounds": False}, announcement=ANNOUNCE)

    # --- the tables page, then its live refresh (the fragment is parsed, never assigned) ---
    with page.expect_response(lambda r: f"/live/{t.pk}/state/" in r.url):
        page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    expect(page.locator("#moves tr.move")).to_contain_text(FULL)
    expect(page.locator(f'#table-1 tr[data-entry="{entry.pk}"] td.player a[href*=draws]')).to_have_text(FULL)
    watch.check(page, "tables", texts=(FULL,))
    before = page.locator("#table-2 .next-hand").inner_text()
    seating.set_big_blind(t, 2, 6, previous_big_blind_seat=5, actor=actor)
    expect(page.locator("#table-2 .next-hand")).not_to_have_text(before, timeout=15000)  # polled every 5 s
    expect(page.locator(f'#table-1 tr[data-entry="{entry.pk}"] td.player a[href*=draws]')).to_have_text(FULL)
    expect(page.locator("#moves tr.move")).to_contain_text(FULL)
    watch.check(page, "tables (refreshed by itself)", texts=(FULL,))

    pages = [
        (f"/tournaments/{t.pk}/tables/slips/?ids={move.pk}&print=1", "move slip (?print=1)", (FULL,)),
        (f"/tournaments/{t.pk}/tables/draws/{entry.pk}/", "draw history", (FULL,)),
        (f"/seats/{t.pk}/?q=%3Cimg", "public seat lookup", (FULL,)),  # the start of the name, as a player types it
        (f"/tournaments/{t.pk}/", "tournament page", (f"{FULL} ({NICK})",)),
        (f"/tournaments/{t.pk}/clock/", "clock (screen name and announcement)", (ANNOUNCE,)),
        (f"/people/{evil.pk}/", "person page", (f"{FULL} ({NICK})",)),
        ("/", "dashboard", ("Main Event",)),
    ]
    for url, name, texts in pages:
        page.goto(page.base_url + url)
        watch.check(page, name, texts=texts)

    # --- people: the list the script reads again as one types ---
    page.goto(page.base_url + "/people/")
    page.fill("#q", "img")
    expect(page.locator("#people tbody tr")).to_have_count(1)
    expect(page.locator("#people tbody tr td").nth(1)).to_have_text(NICK)
    watch.check(page, "people (search)", texts=(FULL, NICK))

    # --- floor: a penalty for him; the list is built by the script ---
    page.goto(page.base_url + f"/tournaments/{t.pk}/floor/?entry={entry.pk}")
    page.select_option("#penaltyform select[name=kind]", "MISSED_HANDS")
    page.fill("#penaltyform input[name=amount]", "2")
    page.click("#penaltyform button.primary")
    expect(page.locator("#f-msg")).to_contain_text(FULL)
    expect(page.locator("#penalties tbody tr")).to_contain_text(FULL)
    watch.check(page, "floor (penalty issued)", texts=(FULL,))

    # --- the lobby display: moves, announcement, payouts and the rotating seat lookup ---
    page.goto(page.base_url + "/display/xss-tv/")
    expect(page.locator("#moves")).to_contain_text(FULL)
    expect(page.locator("#announce")).to_have_text(ANNOUNCE)
    expect(page.locator("#payouts li").first).to_be_visible()
    expect(page.locator("#seats span").first).to_contain_text(FULL, timeout=20000)  # a page every 8 s
    expect(page.locator("#clock")).not_to_have_text("--:--")
    watch.check(page, "lobby display", texts=(FULL, ANNOUNCE))
    page.screenshot(path=str(ARTIFACTS / "xss-display.png"))

    # --- a second event: he makes the final three, a deal is worked out, he wins and is paid ---
    t2 = make_tournament(name="Turbo", buy_in=D("100"), fee=D("10"))
    mine = cashier.register(t2, evil, method="CASH", actor=actor).entry
    rest = [cashier.register(t2, make_person(), method="CASH", actor=actor).entry for _ in range(9)]
    payouts.edit_payout_table(t2, [{"place": 1, "amount": "500"}, {"place": 2, "amount": "300"}, {"place": 3, "amount": "200"}], actor=actor)
    payouts.lock_payout_table(t2, actor=actor)
    for place, e in zip(range(10, 3, -1), rest[2:]):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    page.goto(page.base_url + f"/tournaments/{t2.pk}/payouts/deal/")
    for pk, chips in stacks_in_play([mine, *rest[:2]], (500000, 300000, 200000)).items():  # the chips in play, all of them
        page.fill(f"input[name=stack-{pk}]", str(chips))
    page.click("#calculate")
    expect(page.locator(f"#compare tbody tr[data-entry='{mine.pk}'] td").first).to_have_text(FULL)
    watch.check(page, "deal calculator (calculated)", texts=(FULL,))

    mine.status, mine.place = Entry.BUSTED, 1
    mine.save()
    payouts.sign_off_ranking(t2, actor=actor)
    payouts.sign_off_ranking(t2, actor=Actor(make_user("ctrl", "controller")))
    page.goto(page.base_url + f"/tournaments/{t2.pk}/payouts/")
    watch.check(page, "payouts page (ranking)", texts=(FULL,))
    page.goto(page.base_url + f"/payouts/due/?t={t2.pk}")
    row = page.locator(f"tr[data-entry='{mine.pk}']")
    expect(row.locator("input[name=payee]")).to_have_value(FULL)
    watch.check(page, "payouts due", texts=(FULL,))
    with page.expect_popup() as popup:
        row.locator("button").click()
    slip = popup.value
    slip.wait_for_load_state()
    expect(slip.locator("#slip-winner")).to_have_text(FULL)
    expect(slip.locator("#slip-payee")).to_have_text(FULL)
    watch.check(slip, "payout slip (?print=1)", texts=(FULL,))
    slip.close()
    expect(page.locator("#pay-message")).to_contain_text(FULL)
    watch.check(page, "payouts due (paid)", texts=(FULL,))

    assert watch.checked == EXPECTED_PAGES


def test_api_docs_and_admin_work_under_the_policy(browser_page):
    page = browser_page
    watch = Watch(page.context)
    watch.attach(page)
    make_user("boss", "director", is_staff=True, is_superuser=True)
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + "/api/docs/")
    expect(page.locator("#swagger-ui .opblock").first).to_be_visible(timeout=60000)  # the schema is generated
    watch.check(page, "Swagger UI", texts=("/api/v1/",))
    # ReDoc's search runs in a blob: worker, which the policy allows on that page alone.
    with page.expect_worker(timeout=60000) as worker:
        page.goto(page.base_url + "/api/redoc/")
    assert worker.value.url.startswith("blob:")
    expect(page.locator(".api-content h1").first).to_be_visible(timeout=60000)  # a 340 kB schema, parsed by ReDoc
    # Its styles apply: the three-column layout is ReDoc's injected CSS, not the browser default.
    assert page.locator(".menu-content").evaluate("e => getComputedStyle(e).position") == "sticky"
    # ReDoc's footer logo comes from cdn.redoc.ly: refused (nothing leaves the room's network).
    watch.check(page, "ReDoc", texts=("people",), blocked_elsewhere=("https://cdn.redoc.ly/redoc/logo-mini.svg",))
    page.goto(page.base_url + "/admin/")
    expect(page.locator("#site-name")).to_be_visible()
    watch.check(page, "admin", texts=("Django administration",))
