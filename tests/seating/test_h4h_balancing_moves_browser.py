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
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.models import DisplayScreen, Entry
from tournaments.setup import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def player_at(t, table: int) -> int:
    return Seat.objects.filter(tournament=t, table__number=table).order_by("number").values_list("entry_id", flat=True).first()


def test_the_h4h_balancing_move_waits_for_the_hand_then_shows_its_player(browser_page, make_tournament, make_person):
    page = browser_page
    boss = make_user("boss", "director")
    actor = Actor(boss, "test")
    t = make_tournament(name="Serata", settings={"percent_paid": 75})  # 16 entries: 12 paid
    for _ in range(16):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor)
    while t.entries.filter(status=Entry.ACTIVE).count() > 13:  # 7 and 6 left at tables 1 and 2, no move to make
        seating.record_bust(t, [player_at(t, 1 + t.entries.filter(status=Entry.ACTIVE).count() % 2)], actor=actor)
    assert not PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED).exists()
    clock_services.start_hand_for_hand(t, actor=actor, reason="bolla")
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
