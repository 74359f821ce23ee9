"""Issue #28, money at the desk, in a real browser on the Italian desk: the supervisor types the
rate of the day the Italian way, a player pays in USD and CHF and the amount to pay is a number,
the shift shows the euros apart from the foreign notes, and a cancelled tournament's refunds are
handed out by the cashier from the desk (items 1–4)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser import ARTIFACTS, answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import ExchangeRate, LedgerRow
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def in_italian(page):
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])


def shift_rows(page):
    return page.locator("#shift tr").all_inner_texts()


def test_usd_on_the_italian_desk_shows_what_to_pay(browser_page, tournament, actor):
    cashier.set_exchange_rate("USD", "0.92", actor=actor)
    page = browser_page
    in_italian(page)
    login(page, "dora", "pw-dora")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    page.select_option("#tender", "USD")  # item 1: was "Da pagare: NaN USD (1 USD = 0.920000 EUR)"
    expect(page.locator("#tender-converted")).to_have_text("Da pagare: 119,57\u00a0$ (1 USD = 0,92 EUR)")


def test_foreign_tender_and_the_shift_on_the_italian_desk(browser_page, tournament, person, make_person):
    page = browser_page
    make_user("boss", "director")
    in_italian(page)
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    page.click("#rates summary")
    for currency, rate in (("CHF", "1,07"), ("USD", "0,92")):  # typed as an Italian cashier types it (item 2)
        page.select_option("#rateform select[name=currency]", currency)
        page.fill("#rateform input[name=rate]", rate)
        page.click("#rateform button")
        expect(page.locator("#tender-converted")).to_have_text(f"Cambio impostato: 1 {currency} = {rate} EUR")
    assert [str(r) for r in ExchangeRate.objects.order_by("id").values_list("rate", flat=True)] == ["1.070000", "0.920000"]
    page.select_option("#tender", "USD")  # item 1: a number to pay, written the Italian way
    expect(page.locator("#tender-converted")).to_have_text("Da pagare: 119,57\u00a0$ (1 USD = 0,92 EUR)")
    page.select_option("#tender", "CHF")
    expect(page.locator("#tender-converted")).to_have_text("Da pagare: 102,81 CHF (1 CHF = 1,07 EUR)")
    page.fill("#search", "ro")
    page.click("#results li >> text=Mario Rossi")
    with page.expect_popup() as popup:
        page.click("button[data-op=register]")
    popup.value.close()
    row = LedgerRow.objects.get(person=person)
    assert (row.tender_currency, str(row.tender_amount)) == ("CHF", "102.81")
    page.select_option("#tender", "")
    page.fill("#search", "")
    make_person("Giulia", "Bianchi")
    page.fill("#search", "bian")
    page.click("#results li >> text=Giulia Bianchi")
    with page.expect_popup() as popup:
        page.click("button[data-op=register]")
    popup.value.close()
    # Item 3: the euros in the drawer on the cash line, the CHF notes on their own line with their value.
    expect(page.locator("#shift tr.foreign")).to_have_text("Pagato in CHF: 102,81\u00a0CHF1110,00")
    expect(page.locator("#shift tr")).to_have_count(3)  # the shift is loaded again after the second sale
    assert shift_rows(page) == ["Contanti\t1\t110,00", "Pagato in CHF: 102,81\u00a0CHF\t1\t110,00", "Totale\t2\t220,00"]
    expect(page.locator("#sales li").nth(1)).to_contain_text("110,00\u00a0€ (Contanti, 102,81\u00a0CHF) — Mario Rossi")  # the notes taken
    page.screenshot(path=str(ARTIFACTS / "desk-italian-foreign-tender.png"))


def test_the_cashier_hands_out_a_cancelled_tournaments_refunds(browser_page, make_tournament, make_person):
    page = browser_page
    t = make_tournament(name="Torneo del lunedì")
    sold_by = Actor(make_user("carl", "cashier"), "desk-1")
    entries = [cashier.register(t, make_person(first, last), method="CASH", actor=sold_by).entry for first, last in (("Anna", "Ricci"), ("Paolo", "Rizzo"))]
    lifecycle.cancel(t, actor=Actor(make_user("dora", "director")), reason="troppo pochi giocatori")
    make_user("cleo", "cashier")
    in_italian(page)
    login(page, "cleo", "pw-cleo")
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    box = page.locator("#refunds-due")
    expect(box).to_be_visible()
    expect(box.locator("h2")).to_have_text("Rimborsi da consegnare")
    expect(page.locator("#refunds-list li")).to_have_count(2)
    expect(page.locator("#refunds-list li").first).to_contain_text(f"Anna Ricci — iscrizione #{entries[0].number} — 110,00\u00a0€")
    with page.expect_popup() as popup:
        page.locator("#refunds-list li").first.locator("button").click()
        answer_dialog(page)
    popup.value.close()
    row = LedgerRow.objects.get(kind=LedgerRow.REFUND)
    assert (row.entry_id, row.total, row.cashier.username, row.method) == (entries[0].pk, -110, "cleo", "CASH")
    expect(page.locator("#refunds-msg")).to_contain_text(f"#{row.receipt_number}")
    expect(page.locator("#refunds-list li")).to_have_count(1)
    expect(page.locator("#shift tr").first).to_have_text("Contanti1-110,00")
    expect(page.locator("#sales li").first).to_contain_text(f"#{row.receipt_number}")  # among this cashier's last rows
    expect(page.locator("#sales li").first).to_contain_text("-110,00\u00a0€")
    page.screenshot(path=str(ARTIFACTS / "desk-italian-refunds-due.png"))


def test_the_director_switches_the_jackpot_on_from_the_form_and_the_desk_sells_it(browser_page, make_tournament, actor):
    """Item 6: the form's "Jackpot progressivo" box, its fee typed the Italian way; the desk then
    offers the fee and counts it in what a USD player pays."""
    start = timezone.localtime() + timedelta(hours=2)  # whole minutes, as the form's field holds it
    tournament = make_tournament(start_at=start.replace(second=0, microsecond=0))
    cashier.set_exchange_rate("USD", "0.92", actor=actor)
    page = browser_page
    in_italian(page)
    login(page, "dora", "pw-dora")
    page.goto(page.base_url + f"/tournaments/{tournament.pk}/edit/")
    page.check("#id_jackpot")
    page.fill("#id_jackpot_fee", "2,50")
    page.click("form.card button.primary")
    page.wait_for_url(lambda url: "/edit/" not in url)
    page.goto(page.base_url + f"/desk/?t={tournament.pk}")
    expect(page.locator("#jackpot-line")).to_be_visible()
    expect(page.locator("#jackpot-fee")).to_have_text("2,50\u00a0€")
    page.check("#jackpot")
    page.select_option("#tender", "USD")
    expect(page.locator("#tender-converted")).to_have_text("Da pagare: 122,29\u00a0$ (1 USD = 0,92 EUR)")  # (110 + 2,50) / 0,92


def test_what_a_no_show_owes_reads_the_italian_way(browser_page, make_tournament, person):
    """The desk's other money lines (REG-09 amounts owed) in the page's language, not "110.00"."""
    from tournaments.cashier.services import registration

    t = make_tournament(rule_set="MONTEGALDA_004", buy_in="1000", fee="100")
    desk = Actor(make_user("cassa", "cashier"))
    entry = cashier.pre_register(t, person, actor=desk, channel="email")
    registration.mark_no_show(entry, actor=desk, reason="non arrivato")
    page = browser_page
    in_italian(page)
    login(page, "cassa", "pw-cassa")
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    page.fill("#search", "ro")
    page.click("#results li >> text=Mario Rossi")
    expect(page.locator("#owed-list")).to_contain_text("1.100,00\u00a0€")
