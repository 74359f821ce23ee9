"""Issue 28 items 18 and 19 at the Italian desk, in a real browser: a late entry at a formed final
table is stopped with the warning and sold only when the desk confirms; a search that finds nobody
says so and offers to add the person; an add-on for a player not in the tournament says why."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from seating.models import Table
from tests.browser import ARTIFACTS, answer_dialog, browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.models import Entry, Person, Tournament

from ..seating.test_support import started  # noqa: F401 (fixture)
from .test_late_entry_final_table import final_table  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_desk(page, t, user="cassa"):
    make_user(user, "cashier")
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, user, f"pw-{user}")
    page.goto(page.base_url + f"/desk/?t={t.pk}")


def pick(page, name):
    page.fill("#search", name[:4])
    page.click(f"#results li >> text={name}")


def test_a_late_entry_at_the_final_table_waits_for_the_desk_to_confirm(browser_page, final_table, make_person):
    t = final_table()
    late = make_person("Luca", "Tardivo")
    page = browser_page
    open_desk(page, t)
    pick(page, "Luca Tardivo")
    page.click("button[data-op=register]")
    dialog = page.locator("dialog.tdm-dialog[open]")
    expect(dialog).to_contain_text("Il tavolo finale è formato e non ha posti liberi")
    expect(dialog.locator("button[value=ok]")).to_have_text("Il direttore è d'accordo: vendi")
    expect(page.locator("#message.error")).to_contain_text("tavolo finale")
    page.screenshot(path=str(ARTIFACTS / "desk-final-table-warning.png"))
    answer_dialog(page, ok=False)  # not confirmed: nothing sold, no table opened
    assert not Entry.objects.filter(tournament=t, person=late).exists()
    assert list(Table.objects.filter(tournament=t, in_play=True).values_list("number", flat=True)) == [1]
    page.click("button[data-op=register]")
    with page.expect_popup() as popup:
        answer_dialog(page)
    popup.value.wait_for_load_state()
    expect(page.locator("#message.ok")).to_contain_text("Venduto")
    assert Entry.objects.get(tournament=t, person=late).status == Entry.ACTIVE


def test_a_search_that_finds_nobody_says_so_and_offers_to_add_the_person(browser_page, tournament):
    page = browser_page
    open_desk(page, tournament)
    page.fill("#search", "Zeno Cosini")
    expect(page.locator("#nobody-found")).to_contain_text("Nessuno trovato per “Zeno Cosini”.")
    page.click("#add-new-person")
    expect(page.locator("#newperson")).to_have_attribute("open", "")
    expect(page.locator("#personform [name=first_name]")).to_have_value("Zeno")
    expect(page.locator("#personform [name=last_name]")).to_have_value("Cosini")
    page.click("#personform button.primary")
    expect(page.locator("#player-name")).to_have_text("Zeno Cosini")
    assert Person.objects.filter(first_name="Zeno", last_name="Cosini").count() == 1


def test_an_addon_for_a_player_not_in_the_tournament_says_why(browser_page, make_tournament, person):
    page = browser_page
    tournament = make_tournament(addon_price=Decimal("50"), addon_chips=30000, addon_after_level=3)
    open_desk(page, tournament)
    pick(page, "Mario Rossi")
    expect(page.locator("button[data-op=addon]")).to_be_disabled()
    expect(page.locator("#not-now-addon")).to_have_text("Add-on: Mario Rossi non è iscritto a questo torneo: prima vendi un'iscrizione.")


def test_the_desk_opens_on_the_tournament_the_cashier_sells_in(browser_page, make_tournament, person):
    make_tournament(name="Martedì", status=Tournament.PLANNED, start_at=timezone.now() + timedelta(minutes=5))
    tonight = make_tournament(name="Stasera", start_at=timezone.now() + timedelta(hours=2))
    page = browser_page
    open_desk(page, tonight)
    page.goto(page.base_url + "/desk/")  # no tournament named: the one on sale, not the planned one listed first
    expect(page.locator("#tournament option:checked")).to_contain_text("Stasera")
