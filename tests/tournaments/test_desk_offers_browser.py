"""The Italian desk offers what the event sells, now, to this player: on a re-entry PKO without
rebuys or add-on there is no Rebuy, "Rebuy dichiarato" or Add-on; a player already seated is not
offered Iscrivi, Preiscrivi or a re-entry, each refusal's reason shown. A rebuy event shows its
rebuy, and its add-on refused outside the break, with the reason."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tests.test_axe_browser import problems
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import LedgerRow, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_italian_desk_offers_what_the_event_sells_to_this_player_now(browser_page, make_tournament, person):
    page = browser_page
    desk = Actor(make_user("carl", "cashier"), "test")
    pko = make_tournament(name="PKO Re-entry", format=Tournament.REENTRY, max_entries_per_player=3, settings={"bounty": "PKO", "bounty_amount": "50"})
    rebuys = make_tournament(
        name="Rebuy Night", status=Tournament.RUNNING, format=Tournament.REBUY, rebuy_price=Decimal("50"), rebuy_chips=30000, rebuy_until_level=3
    )
    rebuys.addon_price, rebuys.addon_chips, rebuys.addon_after_level = Decimal("50"), 30000, 3
    rebuys.save()
    for t in (pko, rebuys):
        cashier.register(t, person, method=LedgerRow.CASH, actor=desk)
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, "carl", "pw-carl")

    page.goto(page.base_url + f"/desk/?t={pko.pk}")
    page.fill("#search", "ro")
    page.click("#results li >> text=Mario Rossi")
    buttons = page.locator("#player .buttons")
    for op in ("rebuy", "declare-rebuy", "addon"):  # the event never sells them
        expect(buttons.locator(f"button[data-op={op}]")).to_be_hidden()
    for op in ("register", "preregister", "reenter"):
        expect(buttons.locator(f"button[data-op={op}]")).to_be_disabled()
    reasons = page.locator("#not-now li")
    expect(reasons).to_have_text(
        [
            "Iscrivi: Mario Rossi sta già giocando in questo torneo.",
            "Preiscrivi: Mario Rossi è già iscritto.",
            "Re-entry: Mario Rossi sta ancora giocando: il re-entry è possibile solo dopo l'eliminazione.",
        ]
    )
    expect(buttons.locator("button[data-op=register]")).to_have_attribute("aria-describedby", "not-now-register")

    page.select_option("#tournament", str(rebuys.pk))  # the other event: its rebuy is on sale
    expect(buttons.locator("button[data-op=rebuy]")).to_be_enabled()
    expect(buttons.locator("button[data-op=declare-rebuy]")).to_be_enabled()
    expect(buttons.locator("button[data-op=addon]")).to_be_disabled()
    expect(page.locator("#not-now-addon")).to_have_text("Add-on: L'add-on si vende solo durante la pausa dopo il livello 3.")
    assert problems(page, "desk with refusals") == []  # the reasons readable beside the disabled buttons
