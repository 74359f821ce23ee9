"""The deal page in Italian: the stacks come from the floor's last counts, scaled to the chips in
play and said so; a stack mistyped is refused by "Calcola" with how many chips are missing."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from payouts import services
from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_axe_browser import problems
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.floor import services as floor
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
D = Decimal


def test_the_deal_page_starts_from_the_last_counts_and_refuses_chips_that_do_not_add_up(browser_page, make_tournament, make_person):
    page = browser_page
    boss = make_user("boss", "director")
    t = make_tournament(name="Finale", buy_in=D("100"), fee=D("10"))
    entries = [cashier.register(t, make_person(), method="CARD", actor=Actor(boss)).entry for _ in range(24)]  # 720.000 in play
    services.edit_payout_table(t, [{"place": i, "amount": a} for i, a in enumerate(["1200", "700", "500"], 1)], actor=Actor(boss))
    services.lock_payout_table(t, actor=Actor(boss))
    for place, e in zip(range(24, 3, -1), entries[3:]):
        e.status, e.place = Entry.BUSTED, place
        e.save()
    three = entries[:3]
    floor.record_chip_counts(t, [{"entry": e.pk, "chips": c} for e, c in zip(three, (300_000, 200_000, 160_000))], occasion="BREAK", actor=Actor(boss))
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, "boss", "pw-boss")
    page.goto(page.base_url + f"/tournaments/{t.pk}/payouts/deal/")

    expect(page.locator("#counts-note")).to_contain_text("Stima: gli ultimi conteggi del floor")
    expect(page.locator(f"input[name=stack-{three[0].pk}]")).to_have_value("327273")
    expect(page.locator("#stacks-total")).to_contain_text("i conti tornano")
    last = page.locator(f"input[name=stack-{three[2].pk}]")
    last.fill("30000")
    expect(page.locator("#stacks-total")).to_contain_text("ne mancano 144.545")
    page.get_by_role("button", name="Calcola").click()
    expect(page.locator("#deal-message")).to_contain_text("ma in gioco ce ne sono 720.000: ne mancano 144.545")
    expect(page.locator("#results")).to_be_hidden()
    last.fill("174545")
    page.get_by_role("button", name="Calcola").click()
    expect(page.locator("#results")).to_be_visible()
    assert problems(page, "deal page") == []
