"""The room in a browser, in Italian (issue #42): the director reads the room map (events, players,
dealers), pushes the dealers and takes a table out of service; a dealer's page shows his table and
his next push, and a bust at another table is refused while one at his own is recorded."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from seating.models import DealerAssignment, RoomTable
from seating.services import cardrooms, dealers
from tests.browser import answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def italian(page):
    ctx = page.context.browser.new_context(viewport={"width": 1366, "height": 900}, locale="it-IT")
    p = ctx.new_page()
    p.set_default_timeout(15000)
    p.base_url = page.base_url
    p.route("**/live/*/stream/**", lambda route: route.abort())
    return p


def test_the_room_map_and_a_dealers_page_in_italian(browser_page, make_tournament, make_person):
    boss = make_user("boss", "director")
    anna, marco = make_user("anna", "dealer", first_name="Anna"), make_user("marco", "dealer", first_name="Marco")
    actor = Actor(boss, "test")
    hall = cardrooms.save_room("Sala principale", actor=actor)
    for n in (11, 12, 13):
        cardrooms.save_table(hall, n, seats=9, position=n, actor=actor)
    now = timezone.now()
    for u in (anna, marco):
        dealers.add_shift(hall, u, now - timedelta(hours=1), now + timedelta(hours=6), actor=actor)
    t = make_tournament(name="Torneo delle 21")
    for _ in range(14):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)  # two tables: 11 and 12

    page = italian(browser_page)
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + "/room/")
    expect(page.locator("h1")).to_contain_text("Sala principale")
    expect(page.locator("#room-table-11")).to_contain_text("Torneo delle 21")
    expect(page.locator("#room-table-13")).to_contain_text("Libero")
    expect(page.locator("#room-table-11")).to_contain_text("Nessun dealer")
    with page.expect_navigation():
        page.get_by_role("button", name="Cambia ora").click()
    expect(page.locator("ul.messages")).to_contain_text("Cambio dei dealer fatto.")
    expect(page.locator("#room-table-11")).to_contain_text("Dealer:")
    expect(page.locator("#next-push")).to_contain_text("Prossimo cambio alle")
    card = page.locator("#room-table-13")
    card.get_by_label("Perché fuori servizio").fill("panno strappato")
    with page.expect_navigation():
        card.get_by_role("button", name="Fuori servizio").click()
    expect(page.locator("ul.messages")).to_contain_text("Il tavolo 13 è fuori servizio.")
    expect(page.locator("#room-table-13")).to_contain_text("panno strappato")
    assert RoomTable.objects.get(room=hall, number=13).out_of_service == "panno strappato"

    at = {a.dealer_id: a.table for a in DealerAssignment.objects.filter(room=hall, ends_at__isnull=True, kind="DEAL")}
    mine = at[anna.pk]
    other = next(n for n in (11, 12) if n != mine)
    dealer = italian(browser_page)
    login(dealer, "anna", "pw-anna")
    dealer.goto(dealer.base_url + f"/tournaments/{t.pk}/dealer/")
    expect(dealer.locator("#my-assignment")).to_contain_text(f"Dai le carte al tavolo {mine}")
    expect(dealer.locator("#my-next-push")).to_contain_text("Prossimo cambio alle")
    expect(dealer.locator("#dealer-table")).to_have_attribute("data-table", str(mine))  # his table, chosen for him
    dealer.goto(dealer.base_url + f"/tournaments/{t.pk}/dealer/?table={other}")
    seat = dealer.locator("#dealer-table tr[data-seat] button.out").first
    seat.click()
    with dealer.expect_navigation():
        answer_dialog(dealer)
    expect(dealer.locator("ul.messages")).to_contain_text(f"Dai le carte al tavolo {mine}: segnala da lì.")
    assert not Entry.objects.filter(tournament=t, status=Entry.BUSTED).exists()
    dealer.goto(dealer.base_url + f"/tournaments/{t.pk}/dealer/?table={mine}")
    dealer.locator("#dealer-table tr[data-seat] button.out").first.click()
    with dealer.expect_navigation():
        answer_dialog(dealer)
    assert Entry.objects.filter(tournament=t, status=Entry.BUSTED).count() == 1
