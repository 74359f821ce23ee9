"""Issue #28 items 14 and 16 on screen: the floor page names the chip set's stacks in words
("starting", "rebuy", "addon" were its raw keys), and the clock page does not propose
hand-for-hand at the bubble when one table is left."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tournaments.models import ChipDenomination, ChipSet, Entry, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def italian(page, user):
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, user.username, "pw-" + user.username)


def test_the_stack_check_names_the_stacks_in_italian(browser_page, make_tournament, director):
    cs = ChipSet.objects.create(name="Set del casinò")
    for value, qty in ((100, 3000), (500, 2000), (1000, 2000), (5000, 1000)):
        ChipDenomination.objects.create(chip_set=cs, value=value, quantity=qty)
    t = make_tournament(
        name="Rebuy",
        status=Tournament.RUNNING,
        format=Tournament.REBUY,
        rebuy_price=Decimal("50"),
        rebuy_chips=30000,
        addon_price=Decimal("20"),
        addon_chips=20000,
        chip_set=cs,
    )
    page = browser_page
    italian(page, director)
    page.goto(page.base_url + f"/tournaments/{t.pk}/floor/")
    check = page.locator("#stack-check")
    expect(check).to_contain_text("Stack iniziale 30.000")
    expect(check).to_contain_text("Stack del rebuy 30.000")
    expect(check).to_contain_text("Stack dell'add-on 20.000")
    assert "starting" not in check.text_content() and "addon" not in check.text_content()
    # each stack one whole sentence of its language, the colour-ups another
    expect(check).to_contain_text("Stack iniziale 30.000: T100 × 40, T500 × 16, T1.000 × 8, T5.000 × 2 ✓, 6 rack per tavolo · ")
    expect(check).to_contain_text("Cambi colore: T500 dopo il livello 12, T1.000 dopo il livello 19")


def test_no_hand_for_hand_proposal_at_the_bubble_with_one_table_left(browser_page, make_tournament, make_person, cashier_actor, actor, director):
    from seating import services as seating
    from tournaments.cashier import services as cashier
    from tournaments.clock import services as clock_services
    from tournaments.setup import lifecycle

    t = make_tournament(name="Bolla a un tavolo")
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(6)]
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor)
    from tournaments.live.snapshot import build_snapshot

    for e in entries[::-1]:
        snap = build_snapshot(t)
        if snap["players_left"] == snap["places_paid"] + 1:
            break
        seating.record_bust(t, [Entry.objects.get(pk=e.pk)], actor=actor)
    snap = build_snapshot(t)
    assert snap["players_left"] == snap["places_paid"] + 1 and snap["tables_in_play"] == 1  # the bubble, one table
    page = browser_page
    italian(page, director)
    page.goto(page.base_url + f"/tournaments/{t.pk}/clock/")
    expect(page.locator("#c-level")).to_contain_text("Livello")
    expect(page.locator("#h4h-proposal")).to_be_hidden()
