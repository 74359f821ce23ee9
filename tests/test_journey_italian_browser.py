"""Issue #14, "Done when": a small tournament run through the UI alone, in Italian, from the
cashier desk to the payout slips, as a card room lives it. The fixture only creates the staff
logins, the shipped blind structures and a few regulars already in the player database; every
other change is a click in a page. One screenshot per step: test-artifacts/journey/NN-*.png
(staff pages at 1920×1080, the player's phone at 390×844).

At every step the test checks what a user would notice: Italian texts, the right numbers,
money and numbers written the Italian way, no raw code (BUY_IN, NOT_STARTED…) and no English
word where Italian belongs; and that the pages never saw a server error (5xx) nor a console
error (a CSP refusal)."""

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser import ARTIFACTS
from tests.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "journey"
STAFF = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
# Codes and English words that must never reach an Italian page.
RAW = re.compile(
    r"\b(BUY_IN|RE_ENTRY|REBUY|ADD_ON|NOT_STARTED|RUNNING|PAUSED_|HAND_FOR_HAND|MISSED_ROUNDS|SOFT_PLAY|REGISTERING|PLANNED|"
    r"FINISHED|CASH|CARD|LOCKED|DRAFT|ACTIVE|BUSTED|FINAL_TABLE|None|null|undefined|NaN)\b"
)
ENGLISH_ANY_CASE = re.compile(
    r"\b(cash|card|paid|undone|rebought|prestart|standings|payments|reconciliation|rulings|slip|out|player|"
    r"players|table|seat|level|entries|winner|chips|dead)\b",
    re.IGNORECASE,
)
ENGLISH_DECIMALS = re.compile(r"(?<![\d.,])\d{1,3}(,\d{3})*\.\d{2}(?![\d.,])|\d{4,}[.,]\d{2}(?![\d.,])")  # 1,234.50 · 1234.50 · 2000,00
ENGLISH = re.compile(
    r"\b(Level|Players|Prize pool|Payouts?|Entries|Winner|Break|Table|Seat|Receipt|Cashier|Register|Sold|Start|Finish|"
    r"Running|Registering|Planned|Finished|Cash|Card|Total|Next|Average|Busted|Playing|Undo|Place|Amount|Paid|Slip|"
    r"Tournaments?|Clock|Blinds|director|cashier|controller)\b"
)


class Journey:
    """The browser, its staff logins (one context each, as on separate machines) and what
    every page saw: responses with a 5xx status and console errors."""

    shots = SHOTS

    def __init__(self, browser, base_url):
        self.base = base_url
        self.browser = browser  # the test process's Chromium (tests/browser.py): each login a context of its own
        self.server_errors, self.console_errors = [], []
        self.step = 0
        self.t0 = time.monotonic()
        self.shots.mkdir(parents=True, exist_ok=True)  # each walk its own folder (``shots``)
        for old in self.shots.glob("*.png"):
            old.unlink()

    def context(self, viewport=STAFF, locale="en-US"):
        ctx = self.browser.new_context(viewport=viewport, locale=locale)
        ctx.on("page", self.watch)
        # The live stream needs the ASGI server; Django's test server is WSGI: the pages poll.
        ctx.route("**/live/*/stream/**", lambda route: route.abort())
        ctx.route("**/p/*/stream/**", lambda route: route.abort())
        return ctx

    def page(self, ctx):
        page = ctx.new_page()
        page.set_default_timeout(15000)
        return page

    def watch(self, page):
        page.on("response", lambda r: self.server_errors.append(f"{r.status} {r.url}") if r.status >= 500 else None)
        page.on("console", lambda m: self.console_errors.append(f"{page.url}: {m.text}") if self.counts(m) else None)
        page.on("pageerror", lambda e: self.console_errors.append(f"{page.url}: {e}"))

    @staticmethod
    def counts(message):
        """A console error counts, but for the live streams this test turns away itself."""
        return message.type == "error" and "/stream/" not in (message.location or {}).get("url", "")

    def shot(self, page, name, full_page=False, allow=()):
        """The step's screenshot, once the page checks pass: nothing raw, no English, no error."""
        self.check(page, allow)
        self.step += 1
        print(f"{time.monotonic() - self.t0:6.1f} s  {self.step:02d}-{name}")
        page.screenshot(path=str(self.shots / f"{self.step:02d}-{name}.png"), full_page=full_page)

    def check(self, page, allow=()):
        page.wait_for_load_state("load")
        text = page.locator("body").inner_text()
        for word in allow:
            text = text.replace(word, "")
        assert not RAW.findall(text), f"{page.url}: raw codes {set(RAW.findall(text))}"
        assert not ENGLISH.findall(text), f"{page.url}: English words {set(ENGLISH.findall(text))}"
        assert not ENGLISH_ANY_CASE.findall(text), f"{page.url}: English words {set(ENGLISH_ANY_CASE.findall(text))}"
        for field in page.locator("textarea, input:not([type=hidden])").all():
            text += "\n" + (field.input_value() if field.is_visible() else "")
        wrong = [m.group(0) for m in ENGLISH_DECIMALS.finditer(text)]
        assert not wrong, f"{page.url}: numbers not written the Italian way {wrong}"
        assert self.server_errors == [], self.server_errors
        assert self.console_errors == [], self.console_errors

    def close(self):
        for context in self.browser.contexts:
            context.close()

    def drive(self, journey, failed: str = "failed"):
        """Drive ``journey(self)``; a failure leaves a screenshot of every page open, named
        ``<failed>-<n>.png`` in ``shots``; the contexts are closed either way."""
        try:
            journey(self)
        except Exception:
            for n, page in enumerate(p for ctx in self.browser.contexts for p in ctx.pages):
                page.screenshot(path=str(self.shots / f"{failed}-{n}.png"), full_page=True)
            raise
        finally:
            self.close()


def login_in_italian(page, base, username):
    """The login page in Italian through the language picker of the page (the product's own
    switch: Django's set_language, remembered in a cookie), then the login."""
    page.goto(base + "/login/")
    page.select_option("select[name=language]", "it")  # submits by itself
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator("h1")).to_have_text("Accedi")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-" + username)


def submit_login(page):
    page.click("button.primary")
    page.wait_for_url(lambda url: "/login/" not in url)


@pytest.fixture
def room(db):
    """A card room on its first evening: staff logins, the shipped structures, a few regulars."""
    from tournaments.models import Person
    from tournaments.structures.services import ensure_builtin_structures

    ensure_builtin_structures()
    make_user("dora", "director")
    make_user("carl", "cashier")
    make_user("flo", "floor")
    make_user("cora", "controller")
    regulars = [("Mario", "Rossi", "mrossi"), ("Giulia", "Bianchi", ""), ("Luca", "Ferrari", "luc2"), ("Anna", "Ricci", ""), ("Paolo", "Rizzo", "")]
    for first, last, nick in regulars:
        Person.objects.create(first_name=first, last_name=last, nickname=nick)


def test_a_small_tournament_from_the_desk_to_the_payout_slips_in_italian(live_server, room, chromium_browser):
    Journey(chromium_browser, live_server.url).drive(run)


def run(j):
    base = j.base
    # ---- The director logs in (the language picker of the page: Italian) and creates the event.
    dctx = j.context()
    director = j.page(dctx)
    login_in_italian(director, base, "dora")
    j.shot(director, "director-login")
    submit_login(director)
    expect(director.locator("nav .who")).to_have_text("dora · direttore")

    director.goto(base + "/tournaments/new/")
    expect(director.locator("h1")).to_have_text("Nuovo torneo")
    start = timezone.localtime(timezone.now() + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M")
    director.fill("input[name=name]", "Torneo del Giovedì")
    director.fill("input[name=start_at]", start)
    director.fill("input[name=buy_in]", "150")
    director.fill("input[name=starting_stack]", "20000")
    director.fill("input[name=table_size]", "6")
    director.select_option("select[name=structure]", label="Turbo (15 min, 20k stack)")
    j.shot(director, "new-tournament", full_page=True)
    director.click("form.card button.primary")
    expect(director.locator("ul.messages")).to_contain_text("Torneo salvato")
    expect(director.locator("h1 .badge")).to_have_text("Programmato")
    director.click("button[name=op][value=open]")
    expect(director.locator("h1 .badge")).to_have_text("Iscrizioni aperte")
    expect(director.locator("main")).to_contain_text("150,00 + 15,00\u00a0€")  # the statutory fee, 10 %
    j.shot(director, "registration-open")
    tid = int(re.search(r"/tournaments/(\d+)/", director.url).group(1))

    # ---- The cashier sells the entries at the desk: regulars found by name, two new players.
    cctx = j.context()
    desk = j.page(cctx)
    login_in_italian(desk, base, "carl")
    submit_login(desk)
    desk.goto(base + f"/desk/?t={tid}")
    expect(desk.locator("#tournament option:checked")).to_contain_text("Torneo del Giovedì — 150,00+15,00\u00a0€ (Iscrizioni aperte)")
    expect(desk.locator("#no-sales")).to_have_text("Ancora nessuna vendita in questo torneo.")

    receipts = []

    def sell(shot_receipt=False):
        with desk.expect_popup() as popup:
            desk.click("button[data-op=register]")
        receipt = popup.value
        receipt.wait_for_load_state()
        expect(receipt.locator("#receipt-total")).to_have_text("165,00\u00a0€")
        receipts.append(receipt.locator("#receipt-phone-link").text_content())
        if shot_receipt:
            expect(receipt.locator("#receipt")).to_contain_text("Conserva questa ricevuta")
            assert receipt.evaluate("document.querySelector('#receipt-phone img').naturalWidth") > 0  # the QR code
            j.shot(receipt, "receipt-with-qr", full_page=True)
        receipt.close()
        expect(desk.locator("#message")).to_contain_text(f"Venduto — Ricevuta #{len(receipts)} — 165,00\u00a0€")

    for n, (query, name) in enumerate(
        [("ross", "Mario Rossi (mrossi)"), ("bianc", "Giulia Bianchi"), ("luc2", "Luca Ferrari (luc2)"), ("ricci", "Anna Ricci"), ("rizzo", "Paolo Rizzo")]
    ):
        desk.fill("#search", query)
        expect(desk.locator("#results li").first).to_contain_text(name)
        if n == 0:
            j.shot(desk, "desk-search")
        desk.press("#search", "Enter")
        expect(desk.locator("#player-name")).to_have_text(name)
        expect(desk.locator("#player-status")).to_have_text("Non iscritto a questo torneo")
        sell(shot_receipt=n == 0)
    for first, last in [("Sara", "Conti"), ("Marco", "Gallo"), ("Elena", "Greco")]:
        desk.click("#newperson summary")
        desk.fill("#personform input[name=first_name]", first)
        desk.fill("#personform input[name=last_name]", last)
        if first == "Sara":
            j.shot(desk, "desk-new-player")
        desk.click("#personform button.primary")
        expect(desk.locator("#player-name")).to_have_text(f"{first} {last}")
        sell()
    expect(desk.locator("#sales li")).to_have_count(8)
    expect(desk.locator("#shift tr.total")).to_contain_text("1.320,00")
    expect(desk.locator("#sales li").first).to_contain_text("Buy-in 165,00\u00a0€ (Contanti) — Elena Greco")
    j.shot(desk, "desk-eight-sold")

    # ---- The director starts the tournament, the clock with it: the seats are drawn.
    director.reload()
    expect(director.locator("#prize-collected")).to_have_text("1.200,00\u00a0€")
    expect(director.locator("input[name=start_clock]")).to_be_checked()
    director.click("button[name=op][value=start]")
    expect(director.locator("h1 .badge")).to_have_text("In corso")
    expect(director.locator("#event-log")).to_contain_text("Posti sorteggiati: 8 giocatori a 2 tavoli")
    j.shot(director, "started")

    director.goto(base + f"/tournaments/{tid}/clock/")
    expect(director.locator("#c-level")).to_contain_text("Livello 1 · In corso")
    director.fill("#screenform input[name=name]", "TV sala")
    director.click("#screenform button.primary")
    expect(director.locator("#screens li")).to_contain_text("TV sala")
    expect(director.locator("tr.break").first).to_contain_text("Cambio fiches: si tolgono le fiches da T100")
    j.shot(director, "clock-running")
    display_url = director.locator("#screens li a").first.get_attribute("href")

    tv = j.page(j.context(locale="it-IT"))  # the lobby TV: no login, the screen's address
    tv.goto(base + display_url)
    expect(tv.locator("#screen")).to_have_attribute("data-state", "running")
    expect(tv.locator("#level-label")).to_have_text("Livello 1")
    expect(tv.locator("#players")).to_have_text("8")
    expect(tv.locator("#pool")).to_contain_text("1.200,00")
    first = tv.locator("#clock").text_content()
    expect(tv.locator("#clock")).not_to_have_text(first)  # counting down
    j.shot(tv, "lobby-running")

    # ---- The player's phone, from the receipt's short link.
    phone = j.page(j.context(viewport=PHONE, locale="it-IT"))
    phone.goto(receipts[0])
    expect(phone.locator("#who")).to_contain_text("Mario Rossi")
    expect(phone.locator("#seat-box")).to_be_visible()
    expect(phone.locator("#level-label")).to_have_text("Livello 1")
    expect(phone.locator("#players")).to_have_text("8 / 8")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    j.shot(phone, "phone-seat", full_page=True)

    # ---- The desk finds a player's seat.
    desk.goto(base + f"/desk/?t={tid}")
    desk.fill("#search", "ross")
    expect(desk.locator("#results li").first).to_contain_text("Mario Rossi (mrossi)")
    desk.press("#search", "Enter")
    expect(desk.locator("#player-status")).to_have_text(re.compile(r"^In gioco, entry #1 — T[12] · P[1-6]$"))
    j.shot(desk, "desk-player-seated")

    # ---- The floor: the tables as drawn; a bust asks first, one is undone.
    fctx = j.context(locale="it-IT")
    floor = j.page(fctx)
    floor.goto(base + "/login/")
    floor.fill("input[name=username]", "flo")
    floor.fill("input[name=password]", "pw-flo")
    submit_login(floor)
    floor.goto(base + f"/tournaments/{tid}/tables/")
    expect(floor.locator(".table-card")).to_have_count(2)
    j.shot(floor, "tables-drawn")
    expect(floor.locator("#table-1 tr[data-entry] td.num").nth(1)).to_have_text("20.000")  # the stack, grouped

    def seated(table=None):
        rows = floor.locator(f"#table-{table} tr[data-entry]" if table else "#tables tr[data-entry]")
        return rows

    def bust(row, shot=None):
        name = row.locator("td.player a").first.text_content()
        row.locator("button.out").click()
        box = floor.locator("#bust-confirm")
        expect(box).to_be_visible()
        expect(box.locator("h2")).to_have_text("Registrare come fuori dal torneo?")
        expect(box).to_contain_text(name)
        if shot:
            j.shot(floor, shot)
        floor.click("#bust-confirm-ok")
        expect(floor.locator("#just-busted")).to_contain_text(f"Registrato: {name}")
        return name

    out = []  # the players out, first out first
    victim = seated(2).first
    name = bust(victim, shot="bust-confirm")
    expect(floor.locator("#just-busted")).to_contain_text("è fuori (tavolo 2, posto")
    expect(floor.locator("#just-busted")).to_contain_text("posizione 8")
    j.shot(floor, "bust-undo-offered")
    floor.click("#undo-just-busted")
    expect(floor.locator("ul.messages")).to_contain_text("Eliminazione annullata")
    expect(floor.locator("#tables tr[data-entry]")).to_have_count(8)
    expect(floor.locator("#busts")).to_contain_text("eliminazione annullata")
    out.append(bust(seated(2).first))
    # Seven left: the final table (7-handed for a 6-max event) is drawn; every player has a slip.
    moves = floor.locator("#moves tr.move")
    expect(moves).to_have_count(7)
    expect(floor.locator("#moves-count")).to_have_text("7")
    expect(moves.first.locator(".tag")).to_have_text("tavolo finale")
    expect(moves.first.locator("a.button")).to_have_text("Biglietto")
    j.shot(floor, "final-table-draw")
    for n in range(7, 0, -1):
        moves.first.locator("button.confirm-move").click()
        expect(floor.locator("ul.messages")).to_contain_text("Spostamento confermato")
        expect(moves).to_have_count(n - 1)
    expect(floor.locator(".table-card")).to_have_count(1)
    expect(floor.locator(".table-card h2")).to_contain_text("Tavolo finale · Tavolo 1")

    # ---- The director sends the room on a break from the clock page; the lobby follows.
    director.goto(base + f"/tournaments/{tid}/clock/")
    director.click("button[data-op=jump]")
    dialog = director.locator("dialog.tdm-dialog[open]")
    expect(dialog.locator("select[name=answer] option").first).to_have_text("Livello 1")
    brk = dialog.locator("select[name=answer] option", has_text="Pausa").first.text_content()
    dialog.locator("select[name=answer]").select_option(label=brk)
    dialog.locator("button[value=ok]").click()
    reason = director.locator("dialog.tdm-dialog[open] textarea[name=answer]")
    reason.fill("pausa anticipata: tavolo finale")
    director.locator("dialog.tdm-dialog[open] button[value=ok]").click()
    expect(director.locator("#c-level")).to_contain_text("Pausa")
    tv.reload()
    expect(tv.locator("#level-label")).to_have_text("PAUSA")
    expect(tv.locator("#players")).to_have_text("7")
    # The shipped structure's break says its colour-up in Italian (issue #14), on the lobby and the clock page;
    # on the lobby in a line of its own, the blinds and the ante hidden (issue #28 item 13).
    expect(tv.locator("#break-note")).to_have_text("Cambio fiches: si tolgono le fiches da T100")
    expect(tv.locator("#blinds-row")).to_be_hidden()
    expect(director.locator("#c-blinds")).to_have_text("Cambio fiches: si tolgono le fiches da T100")
    j.shot(tv, "lobby-break")

    # Back from the break: the next level.
    director.click("button[data-op=jump]")
    dialog.locator("select[name=answer]").select_option(
        index=director.locator("dialog.tdm-dialog[open] select[name=answer] option").evaluate_all("(opts) => opts.findIndex((o) => o.selected) + 1")
    )
    dialog.locator("button[value=ok]").click()
    director.locator("dialog.tdm-dialog[open] textarea[name=answer]").fill("fine della pausa")
    director.locator("dialog.tdm-dialog[open] button[value=ok]").click()
    expect(director.locator("#c-level")).to_contain_text("Livello")
    j.shot(director, "clock-after-break")

    # ---- The floor plays it down to heads-up, then the winner.
    floor.reload()
    while seated().count() > 2:
        out.append(bust(seated().first))
    tv.reload()
    expect(tv.locator("#players")).to_have_text("2")
    j.shot(tv, "lobby-heads-up")
    out.append(bust(seated().first, shot="last-bust-confirm"))
    winner = seated().first.locator("td.player a").first.text_content()
    j.shot(floor, "winner-left")

    # ---- Finishing: the director confirms; the clock stops, the lobby shows the winner.
    director.goto(base + f"/tournaments/{tid}/")
    director.click("button[name=op][value=finish]")
    confirm = director.locator("dialog.tdm-dialog[open]")
    expect(confirm).to_contain_text("Chiudere il torneo? L'orologio si ferma")
    j.shot(director, "finish-confirm")
    confirm.locator("button[value=ok]").click()
    expect(director.locator("h1 .badge")).to_have_text("Terminato")
    runner_up = director.locator("tr:has(a[href^='/people/'])", has_text=out[-1])  # the entries table
    expect(runner_up.locator("td").nth(2)).to_have_text("Fuori")  # one word for everyone, not the masculine "Eliminato"
    expect(runner_up.locator("td").nth(6)).to_have_text("2")
    expect(director.locator("#event-log")).to_contain_text("Dora ha concluso il torneo")
    expect(director.locator("#event-log")).to_contain_text("Dora ha fermato definitivamente l'orologio")
    j.shot(director, "finished")
    director.goto(base + f"/tournaments/{tid}/clock/")
    expect(director.locator("#c-level")).to_contain_text("· Terminato")  # the clock stopped with the tournament
    tv.reload()
    expect(tv.locator("#screen")).to_have_attribute("data-state", "finished")
    expect(tv.locator("#end-label")).to_have_text("Vincitore")

    def public(name):  # the lobby names players as every public page does: "Sara C."
        first, last = name.rsplit(" ", 1)
        return f"{first} {last[0]}."

    expect(tv.locator("#winner")).to_have_text(public(winner))
    expect(tv.locator("#results li").first).to_contain_text(public(out[-1]))
    j.shot(tv, "lobby-winner")

    # ---- Payouts: the director pays two places instead of one, locks the table and signs the
    # ranking; the administrative controller signs too; the cashier pays the prizes.
    director.goto(base + f"/tournaments/{tid}/payouts/")
    expect(director.locator("#pool-total")).to_have_text("1.200,00\u00a0€")
    # Registration closed, so the table was made and locked then (PAY-05): the director unlocks it first.
    expect(director.locator("#table-state")).to_have_text("Bloccata e pubblicata")
    director.fill("#unlock-form input[name=reason]", "due premi, deciso prima dell'inizio")
    director.click("#unlock-table")
    expect(director.locator("#prize-lines")).to_have_value("1 1.200,00")  # the automatic proposal, written the Italian way
    director.fill("#prize-lines", "1 800,00\n2 400,00")  # as an Italian director types amounts
    director.fill("#table input[name=reason]", "due premi, deciso prima dell'inizio")
    director.click("#table button[value=edit]")
    expect(director.locator("ul.messages")).to_contain_text("Fatto.")
    expect(director.locator("#prize-lines")).to_have_value("1 800,00\n2 400,00")
    director.click("#lock-table")
    expect(director.locator("#table-state")).to_have_text("Bloccata e pubblicata")
    expect(director.locator("#ladder tbody tr")).to_have_count(2)
    expect(director.locator("#ladder tbody tr").first).to_contain_text("800,00")
    expect(director.locator("#places-paid")).to_contain_text("8 · 2 posizioni pagate (25%)")
    director.click("#sign-ranking")
    expect(director.locator("#signoff-status")).to_contain_text("dora (direttore")
    j.shot(director, "payouts-signed-by-director", full_page=True)

    kctx = j.context(locale="it-IT")
    controller = j.page(kctx)
    controller.goto(base + "/login/")
    controller.fill("input[name=username]", "cora")
    controller.fill("input[name=password]", "pw-cora")
    submit_login(controller)
    controller.goto(base + f"/tournaments/{tid}/payouts/")
    controller.click("#sign-ranking")
    expect(controller.locator("#signoff-status")).to_contain_text("Sbloccata per il pagamento.")
    ranking = controller.locator("#ranking tbody tr")
    expect(ranking.first).to_contain_text(winner)
    expect(ranking.first).to_contain_text("800,00")
    expect(ranking.nth(1)).to_contain_text(out[-1])
    expect(ranking.nth(1)).to_contain_text("400,00")
    j.shot(controller, "payouts-released", full_page=True)

    desk.goto(base + f"/payouts/due/?t={tid}")
    rows = desk.locator("table.due tbody tr")
    expect(rows).to_have_count(2)
    j.shot(desk, "payouts-due")
    for n, (name, amount) in enumerate([(winner, "800,00"), (out[-1], "400,00")]):
        row = desk.locator(f"table.due tbody tr[data-name='{name}']")
        expect(row.locator("td.amount")).to_have_text(f"{amount}\u00a0€")
        with desk.expect_popup() as popup:
            row.locator("button.primary").click()
        slip = popup.value
        slip.wait_for_load_state()
        expect(desk.locator("#pay-message")).to_have_text(f"Pagato: {name} {amount}")
        expect(slip.locator("#slip-winner")).to_have_text(name)
        expect(slip.locator("#slip-place")).to_have_text(str(n + 1))
        expect(slip.locator("#slip-amount")).to_have_text(f"{amount}\u00a0€")
        expect(slip.locator("#slip-method")).to_have_text("Contanti")
        j.shot(slip, f"payout-slip-place-{n + 1}")
        slip.close()
    desk.reload()
    expect(desk.locator("table.due tbody")).to_contain_text("Niente da pagare")
    j.shot(desk, "payouts-all-paid")

    second_event_cancelled(j, director, desk)
    assert j.server_errors == [] and j.console_errors == [], (j.server_errors, j.console_errors)  # nothing after the last step either


def second_event_cancelled(j, director, desk):
    """A second event the same evening (issue #28): the director switches the jackpot on from the
    form and types the day's CHF rate the Italian way; a player pays in Swiss francs with the
    jackpot fee, the shift keeps the francs apart from the euros; the event is cancelled and the
    cashier hands the refund out at the desk, on her own shift."""
    base = j.base
    director.goto(base + "/tournaments/new/")
    director.fill("input[name=name]", "Torneo serale")
    director.fill("input[name=start_at]", timezone.localtime(timezone.now() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"))
    director.fill("input[name=buy_in]", "100")
    director.fill("input[name=starting_stack]", "20000")
    director.fill("input[name=table_size]", "6")
    director.select_option("select[name=structure]", label="Turbo (15 min, 20k stack)")
    director.check("input[name=jackpot]")  # "Jackpot progressivo"
    director.fill("input[name=jackpot_fee]", "5,00")
    director.click("form.card button.primary")
    expect(director.locator("ul.messages")).to_contain_text("Torneo salvato")
    director.click("button[name=op][value=open]")
    expect(director.locator("h1 .badge")).to_have_text("Iscrizioni aperte")
    tid2 = int(re.search(r"/tournaments/(\d+)/", director.url).group(1))
    director.goto(base + f"/desk/?t={tid2}")
    director.click("#rates summary")
    director.select_option("#rateform select[name=currency]", "CHF")
    director.fill("#rateform input[name=rate]", "1,05")
    director.click("#rateform button")
    expect(director.locator("#tender-converted")).to_have_text("Cambio impostato: 1 CHF = 1,05 EUR")

    desk.goto(base + f"/desk/?t={tid2}")
    methods = desk.locator("#shift tr:not(.foreign):not(.total)")

    def cells():  # cell by cell: inner_text of a row depends on whether it is laid out yet
        return [row.locator("td").all_text_contents() for row in methods.all()]

    euros = cells()  # the euros in the drawer (and the cards) before the franc sale
    expect(desk.locator("#jackpot-fee")).to_have_text("5,00\u00a0€")
    desk.check("#jackpot")
    desk.select_option("#tender", "CHF")
    expect(desk.locator("#tender-converted")).to_have_text("Da pagare: 109,53 CHF (1 CHF = 1,05 EUR)")  # (100 + 10 + 5) / 1,05
    desk.fill("#search", "ricci")
    desk.press("#search", "Enter")
    expect(desk.locator("#player-name")).to_have_text("Anna Ricci")
    with desk.expect_popup() as popup:
        desk.click("button[data-op=register]")
    receipt = popup.value
    receipt.wait_for_load_state()
    expect(receipt.locator("#receipt-tendered")).to_have_text("109,53\u00a0CHF")
    receipt.close()
    expect(desk.locator("#shift tr.foreign")).to_have_text(re.compile(r"Pagato in CHF: 109,53\sCHF\s*1\s*115,00"))
    assert cells() == euros  # the francs are not counted among the euros
    j.shot(desk, "desk-francs-and-jackpot")

    director.goto(base + f"/tournaments/{tid2}/")
    director.fill("input[name=reason]", "troppo pochi giocatori")
    director.click("button[name=op][value=cancel]")
    confirm = director.locator("dialog.tdm-dialog[open]")
    expect(confirm).to_contain_text("Annullare il torneo?")
    confirm.locator("button[value=ok]").click()
    expect(director.locator("h1 .badge")).to_have_text("Annullato")
    expect(director.locator("#refunds-due-note")).to_contain_text("Rimborsi ancora da consegnare alla cassa: 1 (115,00\u00a0€).")
    j.shot(director, "cancelled-refunds-due")

    desk.select_option("#tender", "")
    desk.goto(base + f"/desk/?t={tid2}")
    expect(desk.locator("#refunds-list li")).to_have_count(1)
    expect(desk.locator("#refunds-list li")).to_contain_text("Anna Ricci — iscrizione #1 — 115,00\u00a0€")
    j.shot(desk, "desk-refunds-due")
    with desk.expect_popup() as popup:
        desk.locator("#refunds-list li button").click()
        confirm = desk.locator("dialog.tdm-dialog[open]")
        expect(confirm).to_contain_text("Rimborso di 115,00\u00a0€ per Anna Ricci: consegnarlo ora?")
        confirm.locator("button[value=ok]").click()
    popup.value.close()
    expect(desk.locator("#refunds-msg")).to_contain_text("Rimborsato — ricevuta")
    expect(desk.locator("#refunds-none")).to_have_text("Tutti i rimborsi sono stati pagati.")
    expect(desk.locator("#sales li").first).to_contain_text("-115,00\u00a0€ (Contanti) — Anna Ricci")
    j.shot(desk, "desk-refund-paid")
