"""SEAT-01 / SEAT-04: what the floor reads of an open manual draw (the API's answer, the page,
the seat cards to reprint): each seat card and who drew it, each player and whether he has
drawn, the count of cards left."""

import pytest

from seating import services
from seating.models import Bust, ManualDraw
from tournaments.models import Entry
from tournaments.setup import lifecycle

from .test_manual_draws import broken_table_three, manual
from .test_support import add_entries

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/{}/seating/manual-draw/"


def test_the_open_start_draw_lists_each_card_who_drew_it_and_who_is_left(api, make_tournament, actor, floor_user, client, director):
    t = make_tournament(settings={"draw_mode": "MANUAL"})
    ada, bea, cleo, dan = add_entries(t, 4, names=["Ada", "Bea", "Cleo", "Dan"])
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    d = ManualDraw.objects.get(tournament=t, status=ManualDraw.OPEN)
    cards = [tuple(c) for c in d.cards]
    api(floor_user).post(URL.format(t.pk), {"entry": bea.pk, "table": cards[2][0], "seat": cards[2][1]}, format="json")
    # Dan is refunded before he draws: he is no longer one of the players to draw.
    Entry.objects.filter(pk=dan.pk).update(status=Entry.CANCELLED)

    got = api(floor_user).get(URL.format(t.pk)).json()

    empty = {"entry": None, "entry_number": None, "name": "", "card": ""}
    assert got == {
        "draws": [
            {
                "id": d.pk,
                "kind": "INITIAL",
                "status": "OPEN",
                "table": None,
                "cards": [
                    {"table": tb, "seat": s, **({"entry": bea.pk, "entry_number": 2, "name": "Bea Test", "card": ""} if i == 2 else empty)}
                    for i, (tb, s) in enumerate(cards)
                ],
                "players": [
                    {"entry": ada.pk, "entry_number": 1, "name": "Ada Test", "drawn": False},
                    {"entry": bea.pk, "entry_number": 2, "name": "Bea Test", "drawn": True},
                    {"entry": cleo.pk, "entry_number": 3, "name": "Cleo Test", "drawn": False},
                ],
                "left": 2,
            }
        ]
    }
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/tables/manual-draw/").content.decode()
    assert "2 cards left" in page and "Bea Test #2" in page and "Dan Test" not in page


def test_the_open_break_draw_lists_the_seat_cards_the_high_cards_and_the_players_of_the_table(api, make_tournament, actor, floor_user):
    t, at3 = broken_table_three(make_tournament, actor)
    brk = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK, status=ManualDraw.OPEN)
    movers = [e for e, _seat in brk.players]
    first = movers[1]
    body = {"entry": first, "table": brk.cards[0][0], "seat": brk.cards[0][1], "card": "kh"}
    assert api(floor_user).post(URL.format(t.pk), body, format="json").status_code == 201

    got = api(floor_user).get(URL.format(t.pk)).json()

    number = dict(Entry.objects.filter(pk__in=movers).values_list("pk", "number"))
    name = {e: f"Player{number[e]:03d} Test" for e in movers}
    assert sorted(movers) == sorted(at3[3:])
    assert got == {
        "draws": [
            {
                "id": brk.pk,
                "kind": "BREAK",
                "status": "OPEN",
                "table": 3,
                "cards": [
                    {"table": brk.cards[0][0], "seat": brk.cards[0][1], "entry": first, "entry_number": number[first], "name": name[first], "card": "K♥"},
                    *({"table": tb, "seat": s, "entry": None, "entry_number": None, "name": "", "card": ""} for tb, s in brk.cards[1:]),
                ],
                "players": [{"entry": e, "entry_number": number[e], "name": name[e], "drawn": e == first} for e in movers],
                "left": 2,
            }
        ]
    }


def test_the_seat_cards_of_a_draw_already_applied_can_be_printed_again_by_its_number(make_tournament, actor, client, director):
    t, entries = manual(make_tournament, 3)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    d = ManualDraw.objects.get(tournament=t)
    for entry, (table, seat) in zip(entries, d.cards):
        services.enter_card(t, entry, table, seat, actor=actor)
    assert ManualDraw.objects.get(pk=d.pk).status == ManualDraw.DONE
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/tables/seat-cards/").content.decode()
    assert "No manual draw is open" in page and 'class="seat-card"' not in page
    page = client.get(f"/tournaments/{t.pk}/tables/seat-cards/?draw={d.pk}").content.decode()
    assert f'id="draw-{d.pk}"' in page and page.count('class="seat-card"') == 3
    assert all(f'data-table="{tb}" data-seat="{s}"' in page for tb, s in d.cards)


def test_a_void_break_stays_off_the_list_while_another_events_table_of_that_number_breaks(api, make_tournament, actor, floor_user):
    """Each event lists its own open breaks: one whose bust was undone is void (its table 3 is
    no longer locked) even while another event's table 3 is locked for its own break."""
    t, _ = broken_table_three(make_tournament, actor)
    other, _ = broken_table_three(make_tournament, actor)
    services.undo_bust(t, Bust.objects.filter(tournament=t, void="").order_by("order").first(), actor=actor, reason="wrong player")
    assert api(floor_user).get(URL.format(t.pk)).json() == {"draws": []}
    (still,) = api(floor_user).get(URL.format(other.pk)).json()["draws"]
    assert (still["kind"], still["table"], still["left"]) == ("BREAK", 3, 3)
