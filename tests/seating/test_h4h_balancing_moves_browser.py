"""In Italian, at the bubble: a player goes out at table 1 while table 2 still plays the
hand-for-hand hand. The floor's map shows the balancing move off table 2 waiting for the hand,
with no player and no active «Fatto», and the lobby shows it after the hand; once table 2 has
reported, the map shows the move with its player and «Fatto». That hand reached the money:
the director's clock page says hand-for-hand has ended, without an empty tables' heading."""

import pytest
from playwright.sync_api import expect

from seating import services as seating
from seating.models import PendingMove, Seat
from tests.browser import browser, browser_page, login  # noqa: F401 (fixtures)
from tests.conftest import make_user
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen

from .test_support import at_the_bubble_on_two_tables, player_at

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_h4h_balancing_move_waits_for_the_hand_then_shows_its_player(browser_page, make_tournament, make_person):
    page = browser_page
    boss = make_user("boss", "director")
    actor = Actor(boss, "test")
    t = at_the_bubble_on_two_tables(make_tournament, make_person, actor)  # 7 and 6 left, 12 paid
    DisplayScreen.objects.create(name="Lobby", tournament=t, token="h4h-moves-lobby", show={"sounds": False})
    page.context.add_cookies([{"name": "django_language", "value": "it", "url": page.base_url}])
    login(page, "boss", "pw-boss")

    counts = {}
    for number in Seat.objects.filter(tournament=t).values_list("table__number", flat=True):
        counts[number] = counts.get(number, 0) + 1
    short, full = sorted(counts, key=counts.get)
    assert (counts[short], counts[full]) == (6, 7)
    seating.record_bust(t, [player_at(t, short)], actor=actor, table=short)  # the 13th out: 12 left, 12 paid; 5 against 7
    seating.hand_completed(t, short, actor=actor)  # the table that lost a player has finished; the other plays on
    page.goto(page.base_url + f"/tournaments/{t.pk}/tables/")
    waiting = page.locator("#moves tr.move.waiting")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("in attesa della mano")
    expect(waiting).to_contain_text(f"Mano per mano: il tavolo {full} sta ancora giocando la mano. Chi si sposta viene scelto quando l'ha finita.")
    expect(waiting.locator("button.confirm-move")).to_be_disabled()
    expect(page.locator("#moves tr.move:not(.waiting)")).to_have_count(0)

    lobby = page.context.new_page()
    lobby.goto(page.base_url + "/display/h4h-moves-lobby/")
    expect(lobby.locator("#moves")).to_have_text(f"Spostamento dal tavolo {full} al tavolo {short}: dopo la mano")

    seating.hand_completed(t, full, actor=actor)  # the hand is over everywhere: the move now, and the money
    move = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    row = page.locator(f"#moves tr.move[data-move='{move.pk}']")
    expect(row).to_be_visible()  # the map follows by itself
    expect(page.locator("#moves tr.move.waiting")).to_have_count(0)
    expect(row.locator("td").first).to_contain_text(f"#{move.entry.number}")
    expect(row.get_by_role("button", name="Fatto")).to_be_enabled()
    expect(lobby.locator("#moves")).to_contain_text(f"{full}/{move.from_seat} → {short}/{move.to_seat}")

    page.goto(page.base_url + f"/tournaments/{t.pk}/clock/")
    ended = page.locator("#h4h-ended")
    expect(ended).to_have_text("Mano per mano terminato: al premio")
    expect(page.get_by_role("heading", name="Tavoli in mano per mano")).to_be_hidden()
    expect(page.locator("#h4h-summary")).to_be_hidden()
