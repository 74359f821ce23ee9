"""Bounty events (PAY-02) as a card room lives them, in Italian, in Chromium.

A PKO from the desk to the last bust: the desk sells the entries at buy-in + bounty + fee, the
floor tablet's bust dialog names who knocked each player out, the desk pays the bounties won
with a slip, the lobby screen shows the bounty panel, a player's phone (from his receipt's
link) shows his bounty and what he has won, and the reconciliation report (CSV) accounts for
every cent of the bounty money. Then a mystery bounty: from its paying stage a knockout on the
floor draws an envelope, and the lobby shows the draw.

The tournaments are created and started through the API (not the point here); every step a
user takes is a click in a page. Screenshots: test-artifacts/bounty-journey/NN-*.png.
Every expected amount is worked out by hand in the comments.
"""

import csv
import io
import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from payouts.models import BountyAward
from tests.browser import ARTIFACTS
from tests.conftest import client_for, make_user
from tests.test_journey_italian_browser import PHONE, Journey, login_in_italian, submit_login
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import BlindStructure, DisplayScreen, Entry, Person, Tournament
from tournaments.structures.services import ensure_builtin_structures

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "bounty-journey"
PLAYERS = [("Mario", "Rossi"), ("Giulia", "Bianchi"), ("Luca", "Ferrari"), ("Anna", "Ricci"), ("Paolo", "Rizzo")]


class BountyJourney(Journey):
    """The Italian journey's browser and checks (nothing raw, no English, no server or console
    error on any page), its screenshots in a folder of their own."""

    shots = SHOTS

    def __init__(self, browser, base_url):
        super().__init__(browser, base_url)
        SHOTS.mkdir(parents=True, exist_ok=True)
        for old in SHOTS.glob("*.png"):
            old.unlink()

    def shot(self, page, name, full_page=False, allow=()):
        self.check(page, allow)
        self.step += 1
        page.screenshot(path=str(SHOTS / f"{self.step:02d}-{name}.png"), full_page=full_page)


@pytest.fixture
def room(db):
    """The staff logins, the shipped structures and five regulars in the player database."""
    ensure_builtin_structures()
    for username, role in (("dora", "director"), ("carl", "cashier"), ("flo", "floor")):
        make_user(username, role)
    for first, last in PLAYERS:
        Person.objects.create(first_name=first, last_name=last)


def create(settings: dict, name: str, buy_in="50") -> Tournament:
    """The director sets the bounty event up through the API and opens registration."""
    director = director_api()
    structure = BlindStructure.objects.filter(name__startswith="Turbo").first()
    body = {
        "name": name,
        "start_at": "2026-11-24T20:00:00Z",
        "buy_in": buy_in,
        "starting_stack": 20000,
        "table_size": 6,
        "structure": structure.pk,
        "settings": settings,
    }
    r = director.post("/api/v1/tournaments/", body, format="json")
    assert r.status_code == 201, r.json()
    tid = r.json()["id"]
    assert director.post(f"/api/v1/tournaments/{tid}/open-registration/").status_code == 200
    return Tournament.objects.get(pk=tid)


def director_api():
    return client_for(get_user_model().objects.get(username="dora"))


def start(t: Tournament):
    r = director_api().post(f"/api/v1/tournaments/{t.pk}/start/", {"prestart_report_sent": True, "start_clock": True}, format="json")
    assert r.status_code == 200, r.json()


def staff_page(j, username, locale="it-IT"):
    """A staff login on a device of its own, in Italian (the login page's language picker)."""
    page = j.page(j.context(locale=locale))
    login_in_italian(page, j.base, username)
    submit_login(page)
    return page


def lobby(j, t: Tournament):
    screen = DisplayScreen.objects.create(name="TV sala", tournament=t, token=f"tv-bounty-{t.pk}")
    tv = j.page(j.context(locale="it-IT"))
    tv.goto(j.base + f"/display/{screen.token}/")
    expect(tv.locator("#screen")).to_have_attribute("data-state", re.compile("^(running|final_table)$"))  # one table: the final table
    return tv


def entries(t: Tournament) -> dict[str, Entry]:
    """The entries by the player's first name (read to pick them in the pages)."""
    return {e.person.first_name: e for e in Entry.objects.filter(tournament=t).select_related("person")}


def reconciliation_csv(page, base: str, tid: int) -> dict[str, str]:
    """The reconciliation report as the director downloads it (CSV, in Italian): amount by line."""
    r = page.request.get(base + f"/tournaments/{tid}/payouts/reports/reconciliation.csv")
    assert r.ok, r.status
    return {row[0]: row[1] for row in csv.reader(io.StringIO(r.text())) if len(row) >= 2}


BOUNTY_LINES = (
    "Denaro delle taglie incassato (separato dal montepremi)",
    "… taglie pagate",
    "… taglie vinte, non ancora ritirate",
    "… ancora sulle taglie dei giocatori in gioco",
    "… taglie trattenute dalla casa",
    "Differenza sulle taglie non spiegata",
)


def bounty_lines(lines: dict) -> tuple:
    return tuple(lines[label] for label in BOUNTY_LINES)


def run_journey(live_server, browser, journey, name: str):
    """Drive ``journey`` in Debian chromium; a failure leaves a screenshot of every page open."""
    BountyJourney(browser, live_server.url).drive(journey, failed=f"failed-{name}")


def test_a_pko_from_the_desk_to_the_last_bust_in_italian(live_server, room, chromium_browser):
    run_journey(live_server, chromium_browser, pko_journey, "pko")


def pko_journey(j):
    """A PKO: €50 buy-in + €25 bounty + €5 fee (the statutory 10 % of the buy-in) = €80 a sale.
    Half of a bounty won in cash, rounded down to €1; the rest onto the eliminator's own bounty;
    a split pot's bounty shared equally, what rounding leaves to the house.

    Mario (A), Giulia (B), Luca (C), Anna (D), Paolo (E): five heads of 25, 125 taken in.
    1. Giulia out to Mario: 25 → 12 cash (12.50 rounded down), 13 onto Mario's head (38).
    2. Luca out, a split pot won by Anna and Paolo: 12.50 each rounded down to 12 and 12, €1 to
       the house; each 12 → 6 cash and 6 onto the head (31 each).
    3. The desk pays Mario his 12. Paid 12 + owed 12 + on heads 38 + 31 + 31 = 100 + house 1 = 125.
    4. Mario out to Anna: 38 → 19 cash, 19 onto Anna's head (50).
    5. Paolo out to Anna, the last bust: 31 → 15 cash (15.50 rounded down), 16 onto her head
       (66), and she wins her own 66: Anna is owed 6 + 19 + 15 + 66 = 106.
    6. The desk pays Anna her 106. Paid 118 + owed 6 (Paolo) + on heads 0 + house 1 = 125.
    """
    base = j.base
    t = create({"bounty": "PKO", "bounty_amount": "25", "bounty_remainder": "HOUSE"}, "PKO del martedì")
    tid = t.pk

    # ---- The desk sells five entries: the price says buy-in + bounty + fee.
    desk = staff_page(j, "carl")
    desk.goto(base + f"/desk/?t={tid}")
    option = desk.locator("#tournament option:checked")
    expect(option).to_contain_text("PKO del martedì")
    expect(option).to_contain_text(re.compile(r"50,00 \+ 25,00 \w+ \+ 5,00\u00a0€"))  # buy-in + bounty + fee
    receipts = {}
    for n, (first, last) in enumerate(PLAYERS):
        desk.fill("#search", last.lower())
        expect(desk.locator("#results li").first).to_contain_text(f"{first} {last}")
        desk.press("#search", "Enter")
        expect(desk.locator("#player-name")).to_have_text(f"{first} {last}")
        with desk.expect_popup() as popup:
            desk.click("button[data-op=register]")
        receipt = popup.value
        receipt.wait_for_load_state()
        expect(receipt.locator("#receipt-total")).to_have_text("80,00\u00a0€")  # 50 + 25 + 5
        expect(receipt.locator("#receipt-bounty")).to_have_text("25,00\u00a0€")
        if n == 0:
            j.shot(receipt, "receipt-with-bounty", full_page=True)
        receipts[first] = receipt.locator("#receipt-phone-link").text_content()
        receipt.close()
        expect(desk.locator("#message")).to_contain_text(f"Ricevuta #{n + 1} — 80,00\u00a0€")
    expect(desk.locator("#shift tr.total")).to_contain_text("400,00")  # 5 × 80
    j.shot(desk, "desk-five-sold")

    start(t)
    e = entries(t)
    number = {name: entry.number for name, entry in e.items()}

    # ---- The lobby screen: the bounty panel, 125 in the bounties' own pool, apart from the prizes.
    tv = lobby(j, t)
    expect(tv.locator("#bounty-panel")).to_be_visible()
    expect(tv.locator("#bounty-kind")).to_have_text("knockout progressivo")
    expect(tv.locator("#bounty-pool")).to_have_text("125,00\u00a0€")
    expect(tv.locator("#pool")).to_contain_text("250,00")  # the prize pool: 5 × 50, no bounty in it
    expect(tv.locator("#bounty-top li")).to_have_count(5)  # five heads of 25
    j.shot(tv, "lobby-bounty-panel")

    # ---- The floor tablet: each bust names who knocked the player out.
    floor = staff_page(j, "flo")
    floor.goto(base + f"/tournaments/{tid}/tables/")
    expect(floor.locator("#tables tr[data-entry]")).to_have_count(5)

    def bust(out, *eliminators, shot=None):
        victim = e[out]
        full = f"{out} {victim.person.last_name}"
        floor.locator(f"#tables tr[data-entry='{victim.pk}'] button.out").click()
        box = floor.locator("#bust-confirm")
        expect(box).to_be_visible()
        expect(box.locator("legend")).to_have_text(f"{full} #{number[out]} — per mano di")
        for n, name in enumerate(eliminators):
            if n:
                box.locator("button.add-eliminator").click()
            box.locator(".eliminator-row").nth(n).locator("select").select_option(str(e[name].pk))
        if shot:
            j.shot(floor, shot)
        floor.click("#bust-confirm-ok")
        banner = floor.locator("#just-busted")
        expect(banner).to_contain_text(f"Registrato: {full} #{number[out]} è fuori")
        return banner

    # 1. Giulia out to Mario: 12 cash, 13 onto his bounty.
    banner = bust("Giulia", "Mario", shot="bust-eliminated-by")
    expect(banner).to_contain_text(f"Per mano di Mario Rossi #{number['Mario']}: vince 12,00\u00a0€ (e 13,00\u00a0€ sulla taglia).")
    j.shot(floor, "bust-banner-bounty-won")
    # 2. Luca out, a split pot: Anna and Paolo 6 each in cash, 6 each onto their bounties.
    banner = bust("Luca", "Anna", "Paolo")
    expect(banner).to_contain_text(f"Per mano di Anna Ricci #{number['Anna']}: vince 6,00\u00a0€ (e 6,00\u00a0€ sulla taglia).")
    expect(banner).to_contain_text(f"Per mano di Paolo Rizzo #{number['Paolo']}: vince 6,00\u00a0€ (e 6,00\u00a0€ sulla taglia).")
    # The table map shows each bounty by the player: Mario 38, Anna and Paolo 31.
    for name, amount in (("Mario", "38,00\u00a0€"), ("Anna", "31,00\u00a0€"), ("Paolo", "31,00\u00a0€")):
        expect(floor.locator(f"#tables tr[data-entry='{e[name].pk}'] .tag.bounty")).to_have_text(amount)
    j.shot(floor, "tables-with-bounties")

    # ---- The desk pays Mario his bounty: the payouts due list it, one click, a slip.
    desk.goto(base + f"/payouts/due/?t={tid}")
    due = desk.locator("tr.bounty-due")
    expect(due).to_have_count(3)  # Mario 12, Anna 6, Paolo 6
    expect(desk.locator("tr.bounty-due[data-name='Mario Rossi'] td.amount")).to_have_text("12,00\u00a0€")
    expect(desk.locator("tr.bounty-due[data-name='Anna Ricci'] td.amount")).to_have_text("6,00\u00a0€")
    j.shot(desk, "due-bounties")
    slip = pay(desk, "Mario Rossi", "12,00")
    j.shot(slip, "bounty-slip-mario")
    slip.close()

    # ---- Mario's phone, from his receipt's link: his bounty, what he won and collected.
    phone = j.page(j.context(viewport=PHONE, locale="it-IT"))
    phone.goto(receipts["Mario"])
    expect(phone.locator("#who")).to_contain_text("Mario Rossi")
    expect(phone.locator("#phone-bounty")).to_be_visible()
    expect(phone.locator("#phone-bounty-head")).to_have_text("38,00\u00a0€")
    expect(phone.locator("#phone-bounty-won")).to_have_text("12,00\u00a0€")
    expect(phone.locator("#phone-bounty-knockouts")).to_have_text("Eliminazioni: 1")
    expect(phone.locator("#phone-bounty-collect")).to_have_text("Ritirato: 12,00\u00a0€")
    j.shot(phone, "phone-bounty-mario", full_page=True)
    paolo = j.page(j.context(viewport=PHONE, locale="it-IT"))
    paolo.goto(receipts["Paolo"])
    expect(paolo.locator("#phone-bounty-head")).to_have_text("31,00\u00a0€")
    expect(paolo.locator("#phone-bounty-collect")).to_have_text("Da ritirare alla cassa: 6,00\u00a0€")

    # ---- The lobby: what the knockouts have won so far (12 + 6 + 6), the biggest bounties first.
    expect(tv.locator("#bounty-paid")).to_have_text("24,00\u00a0€")
    expect(tv.locator("#bounty-top li").first).to_contain_text("Mario R.")  # as the lobby's public lists name players
    expect(tv.locator("#bounty-top li").first).to_contain_text("38,00\u00a0€")
    expect(tv.locator("#bounty-top li")).to_have_count(3)
    j.shot(tv, "lobby-bounties-after-two-knockouts")

    # ---- The reconciliation in the middle of the event: 125 = 12 paid + 12 owed + 100 on heads + 1 house.
    director = staff_page(j, "dora")
    director.goto(base + f"/tournaments/{tid}/payouts/")
    for field, amount in (("taken-in", "125,00"), ("paid-out", "12,00"), ("owed", "12,00"), ("on-heads", "100,00"), ("house", "1,00")):
        expect(director.locator(f"#bounty-{field}")).to_have_text(f"{amount}\u00a0€")
    j.shot(director, "payouts-page-bounties", full_page=True)
    assert bounty_lines(reconciliation_csv(director, base, tid)) == ("125.00", "12.00", "12.00", "100.00", "1.00", "0.00")

    # ---- Down to the last player: Anna knocks out Mario, then Paolo.
    floor.reload()
    banner = bust("Mario", "Anna")
    expect(banner).to_contain_text(f"Per mano di Anna Ricci #{number['Anna']}: vince 19,00\u00a0€ (e 19,00\u00a0€ sulla taglia).")
    banner = bust("Paolo", "Anna", shot="last-bust")
    expect(banner).to_contain_text(f"Per mano di Anna Ricci #{number['Anna']}: vince 15,00\u00a0€ (e 16,00\u00a0€ sulla taglia).")
    expect(floor.locator("#busts")).to_contain_text(f"per mano di Anna Ricci #{number['Anna']}")
    j.shot(floor, "winner-left")

    # ---- The desk pays Anna 6 + 19 + 15 + her own 66 = 106; Paolo's 6 is still due.
    desk.goto(base + f"/payouts/due/?t={tid}")
    expect(desk.locator("tr.bounty-due")).to_have_count(2)
    expect(desk.locator("tr.bounty-due[data-name='Paolo Rizzo'] td.amount")).to_have_text("6,00\u00a0€")
    slip = pay(desk, "Anna Ricci", "106,00")
    lines = [(dt.strip(), dd.strip()) for dt, dd in zip(slip.locator("dt.bounty-line").all_inner_texts(), slip.locator("dd.bounty-line").all_inner_texts())]
    assert lines == [
        ("Ha eliminato Luca Ferrari", "6,00\u00a0€"),
        ("Ha eliminato Mario Rossi", "19,00\u00a0€"),
        ("Ha eliminato Paolo Rizzo", "15,00\u00a0€"),
        ("Taglia propria (vincitore)", "66,00\u00a0€"),
    ]
    j.shot(slip, "bounty-slip-anna")
    slip.close()
    desk.reload()
    expect(desk.locator("tr.bounty-due")).to_have_count(1)
    j.shot(desk, "due-after-payments")

    # ---- Phones and lobby at the end.
    phone.reload()
    expect(phone.locator("#phone-bounty-won")).to_have_text("12,00\u00a0€")
    expect(phone.locator("#phone-bounty-head-box")).to_be_hidden()  # out: no bounty on his head
    anna = j.page(j.context(viewport=PHONE, locale="it-IT"))
    anna.goto(receipts["Anna"])
    expect(anna.locator("#phone-bounty-won")).to_have_text("106,00\u00a0€")
    expect(anna.locator("#phone-bounty-knockouts")).to_have_text("Eliminazioni: 3")  # Luca (shared), Mario, Paolo
    expect(anna.locator("#phone-bounty-collect")).to_have_text("Ritirato: 106,00\u00a0€")
    j.shot(anna, "phone-bounty-anna", full_page=True)
    # won by the players: 12 + 6 + 6 + 19 + 15 + 66 = 124 (the house's 1 is nobody's)
    expect(tv.locator("#bounty-paid")).to_have_text("124,00\u00a0€")
    expect(tv.locator("#bounty-pool")).to_have_text("125,00\u00a0€")
    j.shot(tv, "lobby-bounties-at-the-end")

    # ---- The reconciliation at the end, to the cent: 125 = 118 paid + 6 owed + 0 on heads + 1 house.
    lines = reconciliation_csv(director, base, tid)
    assert bounty_lines(lines) == ("125.00", "118.00", "6.00", "0.00", "1.00", "0.00")
    assert lines["Entrate: quote taglia (separate dal montepremi)"] == "125.00"
    assert j.server_errors == [] and j.console_errors == [], (j.server_errors, j.console_errors)


def pay(desk, name: str, amount: str):
    """The desk pays a player's bounties from the payouts due: the slip opens to be printed."""
    row = desk.locator(f"tr.bounty-due[data-name='{name}']")
    expect(row.locator("td.amount")).to_have_text(f"{amount}\u00a0€")
    with desk.expect_popup() as popup:
        row.locator("button.primary").click()
    slip = popup.value
    slip.wait_for_load_state()
    expect(desk.locator("#pay-message")).to_have_text(f"Pagato: {name} {amount}")
    expect(slip.locator("#slip-winner")).to_have_text(name)
    expect(slip.locator("#slip-amount")).to_have_text(f"{amount}\u00a0€")
    expect(slip.locator("#slip-method")).to_have_text("Contanti")
    return slip


def test_a_mystery_bounty_draws_its_envelopes_on_the_screen(live_server, room, chromium_browser):
    run_journey(live_server, chromium_browser, mystery_journey, "mystery")


ENVELOPES = ["50.00", "25.00", "15.00", "10.00"]  # 4 × €25 of bounty money = 100


def mystery_journey(j):
    """A mystery bounty of €25 a head, paid from level 2: four players, €100 in four envelopes
    of 50, 25, 15 and 10. A knockout in level 1 draws nothing; from level 2 each draws one
    envelope at random, whose number and amount the lobby shows over the clock with the winner."""
    base = j.base
    t = create({"bounty": "MYSTERY", "bounty_amount": "25", "mystery_from": {"level": 2}}, "Mystery del martedì")
    desk = Actor(make_user("bea", "cashier"), "desk-2")
    for person in Person.objects.exclude(first_name="Paolo"):
        cashier.register(t, person, method="CASH", actor=desk)
    start(t)
    e = entries(t)

    # The director fills the envelopes on the payouts page: 50 + 25 + 15 + 10 = 100 taken in.
    director = staff_page(j, "dora")
    director.goto(base + f"/tournaments/{t.pk}/payouts/")
    expect(director.locator("#bounty-taken-in")).to_have_text("100,00\u00a0€")
    director.fill("#envelopes-form textarea[name=envelopes]", "50 25 15 10")
    director.click("#envelopes-form button")
    expect(director.locator("#envelopes-status")).to_contain_text("100,00\u00a0€")
    j.shot(director, "mystery-envelopes-set", full_page=True)
    assert [str(a) for a in t.__class__.objects.get(pk=t.pk).settings["mystery_envelopes"]] == ENVELOPES
    number = {name: entry.number for name, entry in e.items()}

    tv = lobby(j, t)
    expect(tv.locator("#bounty-panel")).to_be_visible()
    expect(tv.locator("#bounty-kind")).to_have_text("mystery")
    expect(tv.locator("#mystery-left")).to_have_text("4 · 100,00\u00a0€")
    expect(tv.locator("#mystery-draw")).to_be_hidden()

    floor = staff_page(j, "flo")
    floor.goto(base + f"/tournaments/{t.pk}/tables/")

    def bust(out, by):
        victim = e[out]
        floor.locator(f"#tables tr[data-entry='{victim.pk}'] button.out").click()
        box = floor.locator("#bust-confirm")
        expect(box).to_be_visible()
        box.locator(".eliminator-row select").first.select_option(str(e[by].pk))
        floor.click("#bust-confirm-ok")
        banner = floor.locator("#just-busted")
        expect(banner).to_contain_text(f"{out} {victim.person.last_name} #{number[out]} è fuori")
        return banner

    # Level 1: Giulia out to Mario, before the paying stage: no envelope, nothing won.
    banner = bust("Giulia", "Mario")
    expect(banner).to_contain_text(f"Per mano di Mario Rossi #{number['Mario']}.")
    expect(banner).not_to_contain_text("busta")
    assert not BountyAward.objects.filter(tournament=t, envelope__isnull=False).exists()

    # Level 2: the paying stage. Luca out to Anna: one envelope drawn.
    r = director_api().post(f"/api/v1/tournaments/{t.pk}/clock/jump/", {"item_index": 1, "reason": "livello 2"}, format="json")
    assert r.status_code == 200, r.json()
    floor.reload()
    banner = bust("Luca", "Anna")
    drawn = BountyAward.objects.get(tournament=t, knocked_out=e["Luca"])
    amount = Decimal(ENVELOPES[drawn.envelope - 1])  # the envelope's amount as the director listed it
    italian = f"{amount:.2f}".replace(".", ",") + "\u00a0€"
    expect(banner).to_contain_text(f"Per mano di Anna Ricci #{number['Anna']}: busta {drawn.envelope}, vince {italian}.")
    j.shot(floor, "mystery-draw-on-the-floor")

    # The lobby shows the draw over the clock: the envelope, its amount, the winner.
    draw = tv.locator("#mystery-draw")
    expect(draw).to_be_visible()
    expect(tv.locator("#mystery-draw-envelope")).to_have_text(f"busta {drawn.envelope}")
    expect(tv.locator("#mystery-draw-amount")).to_have_text(italian)
    expect(tv.locator("#mystery-draw-names")).to_have_text("Anna R.")
    left = Decimal("100") - amount
    expect(tv.locator("#mystery-left")).to_have_text("3 · " + f"{left:.2f}".replace(".", ",") + "\u00a0€")
    expect(tv.locator("#mystery-last")).to_have_text(f"Ultima busta: n. {drawn.envelope}, {italian} a Anna R.")
    j.shot(tv, "mystery-draw-on-the-lobby")
