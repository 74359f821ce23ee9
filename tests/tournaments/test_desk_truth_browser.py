"""The desk in a real browser: the person meant comes first, and the shift and the last sales
are the server's (they update after a sale and survive a reload)."""

import time

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, LedgerRow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sim1_is_listed_first_and_enter_takes_it(browser_page, tournament, make_person):
    for i in range(12):  # their phones all hold a 1
        make_person(f"Player{i}", f"Amato{i}", phone=f"+39 331 {i:03d} 1111")
    make_person("Simone", "Abate", nickname="sim10")
    sim = make_person("Simona", "Neri", nickname="sim1")
    page = browser_page
    make_user("desk", "cashier")
    login(page, "desk", "pw-desk")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    # Enter right after the last letter takes the person meant, never a line of the list shown
    # for the letters before (the answer for "sim1" is awaited, not the one for "sim").
    page.fill("#search", "sim")
    expect(page.locator("#results li").first).to_contain_text("Simone Abate (sim10)")  # both start with "sim": by name
    held = []

    def late(route):  # the answer for "sim1" is late
        held.append(route)

    page.route("**/api/v1/people/?q=sim1&*", late)
    with page.expect_request("**/api/v1/people/?q=sim1&*"):  # it may leave after Enter returns
        page.locator("#search").press_sequentially("1")
        page.press("#search", "Enter")
    # Playwright runs the route handler on a message behind the request's: each round trip to the
    # page lets it through.
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.evaluate("0")
    assert held
    expect(page.locator("#player")).to_be_hidden()  # Enter waits: it does not take Simone from the older list
    for route in held:
        route.continue_()
    expect(page.locator("#player-name")).to_have_text("Simona Neri (sim1)")
    page.unroute("**/api/v1/people/?q=sim1&*", late)

    page.fill("#search", "sim1")
    expect(page.locator("#results li").first).to_contain_text("Simona Neri (sim1)")
    expect(page.locator("#results li")).to_have_count(2)
    expect(page.locator("#results li[aria-selected=true]")).to_have_text("Simona Neri (sim1)")  # marked: Enter takes it
    page.screenshot(path=str(ARTIFACTS / "desk-search-sim1.png"))
    page.press("#search", "Enter")
    expect(page.locator("#results li")).to_have_count(0)
    expect(page.locator("#player-name")).to_have_text("Simona Neri (sim1)")
    page.fill("#search", "")
    page.fill("#search", "ri")
    expect(page.locator("#results li").first).to_contain_text("Simona Neri")  # the only one holding "ri": Neri
    assert Entry.objects.filter(person=sim).count() == 0


def test_the_shift_updates_after_a_sale_and_the_last_sales_survive_a_reload(browser_page, tournament, make_person):
    make_person("Mario", "Rossi")
    make_person("Giulia", "Bianchi")
    page = browser_page
    make_user("desk2", "cashier")
    login(page, "desk2", "pw-desk2")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    expect(page.locator("#shift tr.total")).to_contain_text("0.00")
    expect(page.locator("#no-sales")).to_be_visible()

    def sell(name, method):
        page.select_option("#method", method)
        page.fill("#search", name)
        page.click(f"#results li >> text={name}")
        with page.expect_popup() as popup:
            page.click("button[data-op=register]")
        popup.value.close()
        expect(page.locator("#message")).to_contain_text("Sold")

    sell("Mario Rossi", "CASH")
    expect(page.locator("#shift tr.total")).to_contain_text("110.00")
    sell("Giulia Bianchi", "CARD")
    expect(page.locator("#shift tr.total")).to_contain_text("220.00")
    expect(page.locator("#shift")).to_contain_text("Card")
    expect(page.locator("#sales li")).to_have_count(2)

    page.reload()  # nothing lives only in the page
    expect(page.locator("#sales li")).to_have_count(2)
    expect(page.locator("#sales li").first).to_contain_text("Giulia Bianchi")
    expect(page.locator("#sales li").nth(1)).to_contain_text("Mario Rossi")
    expect(page.locator("#sales li").nth(1)).to_contain_text("Buy-in")
    expect(page.locator("#shift tr.total")).to_contain_text("220.00")
    page.screenshot(path=str(ARTIFACTS / "desk-after-reload.png"))

    first = LedgerRow.objects.get(person__last_name="Rossi")
    page.locator(f"#sales li[data-receipt='{first.receipt_number}'] button.reverse").click()
    answer_dialog(page, "wrong player")
    expect(page.locator("#sales li").first).to_contain_text("Reversal")
    expect(page.locator(f"#sales li[data-receipt='{first.receipt_number}']")).to_contain_text("reversed by receipt")
    expect(page.locator(f"#sales li[data-receipt='{first.receipt_number}'] button.reverse")).to_have_count(0)
    expect(page.locator("#shift tr.total")).to_contain_text("110.00")
    assert Entry.objects.get(pk=first.entry_id).status == Entry.CANCELLED
    page.screenshot(path=str(ARTIFACTS / "desk-reversed-after-reload.png"))


def test_a_retry_after_a_lost_answer_keeps_the_key_even_if_the_method_changed(browser_page, tournament, make_person):
    """The sale went through but its answer was lost; the cashier switches to card and clicks
    again: the same key goes out, the server refuses it as another request, nothing is
    charged twice, and the desk shows the sale that was made."""
    person = make_person("Mario", "Rossi")
    page = browser_page
    make_user("desk3", "cashier")
    login(page, "desk3", "pw-desk3")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    page.fill("#search", "rossi")
    page.click("#results li >> text=Mario Rossi")
    keys = []

    def lose_the_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        route.fetch()
        route.abort("connectionreset")

    page.route("**/api/v1/cashier/register/", lose_the_answer)
    page.click("button[data-op=register]")
    expect(page.locator("#message.error")).to_contain_text("No answer from the server")
    page.unroute("**/api/v1/cashier/register/")

    def remember(route):
        keys.append(route.request.headers.get("idempotency-key"))
        route.continue_()

    page.route("**/api/v1/cashier/register/", remember)
    page.select_option("#method", "CARD")
    page.click("button[data-op=register]")
    expect(page.locator("#message.error")).to_contain_text("different request")
    assert keys[0] and keys[0] == keys[1]
    expect(page.locator("#sales li")).to_have_count(1)
    expect(page.locator("#shift tr.total")).to_contain_text("110.00")
    assert LedgerRow.objects.filter(tournament=tournament).count() == 1
    assert Entry.objects.filter(tournament=tournament, person=person).count() == 1


def test_last_sales_and_shift_in_italian(browser_page, tournament, make_person):
    user = make_user("desk4", "cashier")
    actor = Actor(user, "desk-4")
    sale = cashier.register(tournament, make_person("Mario", "Rossi"), method="CASH", actor=actor)
    cashier.register(tournament, make_person("Giulia", "Bianchi"), method="CARD", actor=actor)
    cashier.reverse(sale.row, reason="giocatore sbagliato", actor=actor)
    page = browser_page
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, "desk4", "pw-desk4")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    expect(page.locator("#sales li")).to_have_count(3)
    expect(page.locator(f"#sales li[data-receipt='{sale.row.receipt_number}']")).to_contain_text("stornata dalla ricevuta")
    expect(page.locator("#sales li").nth(1)).to_contain_text("110,00\u00a0€")
    expect(page.locator("#shift tr.total")).to_contain_text("110,00")
    page.screenshot(path=str(ARTIFACTS / "desk-last-sales-it.png"))
