"""Document numbers at the desk in a real browser (issue #30 item 8): the search list shows them
masked; the check-in of an event that asks for the document shows the whole number on file, and
that read is in the access log."""

import pytest
from playwright.sync_api import expect

from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, TournamentEvent

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_desk_lists_the_document_masked_and_shows_it_whole_at_check_in(browser_page, make_tournament, person):
    page = browser_page
    t = make_tournament(rule_set="SANREMO_003")  # 003: check-in asks for the identity document
    desk = make_user("carla", "cashier")
    cashier.register(t, person, method="CASH", actor=Actor(desk))
    login(page, "carla", "pw-carla")
    page.goto(page.base_url + f"/desk/?t={t.pk}")
    page.fill("#search", "ross")
    result = page.locator("#results li >> text=Mario Rossi")
    expect(result).to_contain_text("•••••456")
    expect(result).not_to_contain_text("AB123456")
    result.click()
    page.click("button[data-desk=check-in]")
    expect(page.locator("dialog.tdm-dialog")).to_contain_text("Document number on file: AB123456")
    page.click("dialog.tdm-dialog button[value=ok]")
    expect(page.locator("#player-state")).to_contain_text("Checked in")
    assert Entry.objects.get(tournament=t, person=person).id_checked
    seen = TournamentEvent.objects.get(action="people.document.viewed")
    assert (seen.actor, seen.payload["person"], seen.payload["purpose"]) == (desk, person.pk, "check-in")
