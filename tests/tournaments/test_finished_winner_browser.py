"""Issue #28 item 17: after the finish the winner's entry reads "Winner" (it stayed "Playing":
nobody busts the winner), and the winner's phone shows no level to come."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.browser import browser, browser_page  # noqa: F401 (fixtures)
from tournaments.models import Entry, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture
def finished(make_tournament, make_person, cashier_actor, actor):
    """Four players, three busted one after another, the tournament finished."""
    from seating import services as seating
    from tournaments.cashier import services as cashier
    from tournaments.clock import services as clock_services
    from tournaments.setup import lifecycle

    t = make_tournament(name="Finale")
    entries = [cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(4)]
    lifecycle.start(t, actor=actor)
    clock_services.start_clock(t, actor=actor)
    for out in entries[1:]:
        seating.record_bust(t, [Entry.objects.get(pk=out.pk)], actor=actor)
    t.refresh_from_db()
    if t.status != Tournament.FINISHED:
        lifecycle.finish(t, actor=actor)
    winner = Entry.objects.get(pk=entries[0].pk)
    assert winner.place == 1 and winner.status == Entry.ACTIVE
    return t, winner


def test_the_winners_entry_reads_winner_on_the_tournament_page(finished, director):
    t, winner = finished
    client = Client()
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    row = next(r for r in page.split("<tr>") if f"<td>{winner.number}</td>" in r)
    assert "Vincitore" in row and "In gioco" not in row


def test_the_winners_phone_shows_the_win_and_no_level_to_come(finished, browser_page):
    t, winner = finished
    page = browser_page
    page.goto(page.base_url + f"/p/{winner.phone_token}/")
    expect(page.locator("#out-place")).to_have_text("You won the tournament!")
    expect(page.locator("#next")).to_have_text("—")
    expect(page.locator("#level-label")).to_have_text("")
    expect(page.locator("#blinds")).to_have_text("")
    expect(page.locator("#latereg")).to_have_text("Closed")  # as "Open" is written (issue #28 item 10)
