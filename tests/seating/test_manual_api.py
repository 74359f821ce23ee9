"""SEAT-01 / SEAT-04 / SEAT-07 through the API: the floor enters the cards drawn, the director
keeps people apart and gives seats by hand; refusals are 4xx ``{"code", "detail"}``."""

import re

import pytest

from seating import services
from seating.models import Bust, KeepApart, ManualDraw, SeatReservation
from tournaments.models import Entry, TournamentEvent
from tournaments.setup import lifecycle

from .test_manual_draws import broken_table_three
from .test_support import add_entries, seat_map

pytestmark = pytest.mark.django_db


def url(t, path=""):
    return f"/api/v1/tournaments/{t.pk}/seating/{path}"


def test_the_floor_enters_every_card_and_the_map_shows_the_seats(api, make_tournament, actor, floor_user, cashier_user):
    t = make_tournament(settings={"draw_mode": "MANUAL"})
    entries = add_entries(t, 5)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    draws = api(floor_user).get(url(t, "manual-draw/")).json()["draws"]
    assert len(draws) == 1 and draws[0]["left"] == 5 and len(draws[0]["cards"]) == 5
    cards = [(c["table"], c["seat"]) for c in draws[0]["cards"]]
    body = {"entry": entries[0].pk, "table": cards[0][0], "seat": cards[0][1]}
    assert api(cashier_user).post(url(t, "manual-draw/"), body, format="json").status_code == 403
    r = api(floor_user).post(url(t, "manual-draw/"), body, format="json")
    assert r.status_code == 201 and r.json()["applied"] is False and r.json()["draws"][0]["left"] == 4
    r = api(floor_user).post(url(t, "manual-draw/"), {**body, "entry": entries[1].pk}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "card_taken" and r.json()["detail"]
    r = api(floor_user).post(url(t, "manual-draw/"), {"entry": entries[1].pk, "table": 9, "seat": 9}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "not_a_card"
    r = api(floor_user).post(url(t, "manual-draw/clear/"), {"entry": entries[0].pk, "reason": "misread"}, format="json")
    assert r.status_code == 200 and r.json()["draws"][0]["left"] == 5
    for entry, (table, seat) in zip(entries, cards):
        r = api(floor_user).post(url(t, "manual-draw/"), {"entry": entry.pk, "table": table, "seat": seat}, format="json")
        assert r.status_code == 201
    assert r.json()["applied"] is True and r.json()["draws"] == []
    tables = api(floor_user).get(f"/api/v1/tournaments/{t.pk}/tables/").json()
    seated = {(tb["number"], s["seat"]): s["entry"] for tb in tables["tables"] for s in tb["seats"] if s["entry"]}
    assert seated == {card: e.pk for e, card in zip(entries, cards)}
    assert TournamentEvent.objects.filter(tournament=t, action="seating.seat_card.entered").count() == 6
    assert ManualDraw.objects.get(tournament=t).status == ManualDraw.DONE


def test_the_director_keeps_two_people_apart_and_gives_a_seat_by_hand(api, make_tournament, director, floor_user):
    t = make_tournament()
    e1, e2, e3 = add_entries(t, 3)
    pair = {"person_a": e1.person_id, "person_b": e2.person_id, "reason": "spouses"}
    assert api(floor_user).post(url(t, "keep-apart/"), pair, format="json").status_code == 403
    r = api(director).post(url(t, "keep-apart/"), pair, format="json")
    assert r.status_code == 201 and r.json()["keep_apart"][0]["names"] == [e1.person.full_name, e2.person.full_name]
    r = api(director).post(url(t, "keep-apart/"), {**pair, "person_b": e1.person_id}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "same_person"
    assert api(floor_user).get(url(t, "keep-apart/")).json()["keep_apart"][0]["reason"] == "spouses"
    res = {"entry": e3.pk, "table": 1, "seat": 4, "reason": "wheelchair"}
    assert api(floor_user).post(url(t, "reservations/"), res, format="json").status_code == 403
    r = api(director).post(url(t, "reservations/"), res, format="json")
    assert r.status_code == 201 and r.json()["reservations"][0]["seat"] == 4
    r = api(director).post(url(t, "reservations/"), {**res, "reason": ""}, format="json")
    assert r.status_code == 400
    pair_id = KeepApart.objects.get().pk
    assert api(director).delete(url(t, f"keep-apart/{pair_id}/")).status_code == 204  # as the schema says (issue #30)
    assert api(director).delete(url(t, f"reservations/{SeatReservation.objects.get().pk}/")).status_code == 204
    assert not KeepApart.objects.exists() and not SeatReservation.objects.exists()
    assert api(floor_user).get(url(t, "keep-apart/")).json()["keep_apart"] == []
    assert seat_map(t) == {}


def test_a_manual_break_through_the_api_needs_the_high_card(api, make_tournament, actor, floor_user):
    t, at3 = broken_table_three(make_tournament, actor)
    draws = api(floor_user).get(url(t, "manual-draw/")).json()["draws"]
    assert [d["kind"] for d in draws] == ["BREAK"] and draws[0]["table"] == 3 and draws[0]["left"] == 3
    cards = [(c["table"], c["seat"]) for c in draws[0]["cards"]]
    movers = at3[3:]
    r = api(floor_user).post(url(t, "manual-draw/"), {"entry": movers[0], "table": cards[0][0], "seat": cards[0][1]}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bad_card"
    for entry, (table, seat), card in zip(movers, cards, ["Q♦", "3s", "Kc"]):
        r = api(floor_user).post(url(t, "manual-draw/"), {"entry": entry, "table": table, "seat": seat, "card": card}, format="json")
        assert r.status_code == 201
    data = r.json()
    assert data["applied"] is True and data["broken"] == [3]
    assert {(m["entry"], m["to_table"], m["to_seat"]) for m in data["moves"]} == {(e, *c) for e, c in zip(movers, cards)}
    broken = TournamentEvent.objects.get(tournament=t, action="seating.table.broken")
    assert broken.payload["card_order"] == [[movers[2], "K♣"], [movers[0], "Q♦"], [movers[1], "3♠"]]


def test_the_constraints_page_keeps_people_apart_and_gives_seats_by_hand(client, make_tournament, director, floor_user):
    t = make_tournament()
    e1, e2, e3 = add_entries(t, 3)
    page = f"/tournaments/{t.pk}/tables/constraints/"
    client.force_login(floor_user)
    assert client.get(page).status_code == 200
    client.post(page, {"op": "pair", "entry_a": e1.number, "entry_b": e2.number, "reason": "spouses"})
    assert not KeepApart.objects.exists()  # the floor reads, the director decides
    client.force_login(director)
    r = client.post(page, {"op": "pair", "entry_a": e1.number, "entry_b": e2.number, "reason": "spouses"}, follow=True)
    assert "are kept apart" in r.content.decode()
    assert KeepApart.objects.get().tournament_id == t.pk
    r = client.post(page, {"op": "reserve", "entry_number": e3.number, "table": 1, "seat": 2, "reason": "near the exit"}, follow=True)
    body = r.content.decode()
    assert "Seat reserved for #3." in body and "near the exit" in body and f"{e1.person.full_name} — {e2.person.full_name}" in body
    r = client.post(page, {"op": "pair", "entry_a": 99, "entry_b": e2.number}, follow=True)
    assert "No such entry number." in r.content.decode()


def test_the_seat_cards_print_as_a_pdf_one_card_a_page_or_a4_sheets(client, make_tournament, actor, floor_user):
    t = make_tournament(settings={"draw_mode": "MANUAL"})
    add_entries(t, 20)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    client.force_login(floor_user)
    slips = client.get(f"/tournaments/{t.pk}/tables/seat-cards.pdf")
    assert slips.status_code == 200 and slips["Content-Type"] == "application/pdf" and slips.content.startswith(b"%PDF")
    sheets = client.get(f"/tournaments/{t.pk}/tables/seat-cards.pdf?size=a4")
    assert sheets.status_code == 200 and sheets.content.startswith(b"%PDF")
    assert re.findall(rb"/Count (\d+)", sheets.content) == [b"2"]  # 20 cards: two sheets of 18
    assert re.findall(rb"/Count (\d+)", slips.content) == [b"20"]  # one card a page


def test_the_floor_enters_a_break_on_the_manual_draw_page(client, make_tournament, actor, floor_user):
    t, at3 = broken_table_three(make_tournament, actor)
    page = f"/tournaments/{t.pk}/tables/manual-draw/"
    client.force_login(floor_user)
    body = client.get(page).content.decode()
    assert "Table 3 breaks: seat cards (step 1) and high cards (step 2)" in body and 'name="card"' in body
    brk = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK)
    numbers = dict(Entry.objects.filter(pk__in=at3[3:]).values_list("pk", "number"))
    for entry, (table, seat), card in zip(at3[3:], brk.cards, ["9h", "Jd", "4c"]):
        r = client.post(page, {"op": "enter", "entry_number": numbers[entry], "table": table, "seat": seat, "card": card}, follow=True)
    assert "the draw is applied" in r.content.decode()
    assert 3 not in seat_map(t)
    r = client.post(page, {"op": "enter", "entry_number": numbers[at3[3]], "table": 1, "seat": 1, "card": "AS"}, follow=True)
    assert "no card to draw" in r.content.decode()


def events(api, user, t, action) -> list[dict]:
    """The tournament's log as the events API reads it, oldest first, of one action."""
    rows = api(user).get(f"/api/v1/tournaments/{t.pk}/events/?limit=500").json()
    return [row for row in reversed(rows) if row["action"] == action]


def test_a_card_for_a_player_who_has_none_to_draw_is_refused_and_says_why(api, make_tournament, actor, floor_user):
    t = make_tournament(settings={"draw_mode": "MANUAL"})
    add_entries(t, 4)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    (late,) = add_entries(t, 1)  # paid after the cards were printed: none of them is his
    r = api(floor_user).post(url(t, "manual-draw/"), {"entry": late.pk, "table": 1, "seat": 1}, format="json")
    assert r.status_code == 400
    assert r.json() == {"code": "not_in_draw", "detail": "This player has no card to draw in an open manual draw."}


def test_a_card_of_a_break_whose_bust_was_undone_is_refused_as_void(api, make_tournament, actor, floor_user):
    t, at3 = broken_table_three(make_tournament, actor)
    table, seat = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK).cards[0]
    bust = Bust.objects.filter(tournament=t, void="").order_by("order").first()
    services.undo_bust(t, bust, actor=actor, reason="wrong player")
    body = {"entry": at3[3], "table": table, "seat": seat, "card": "AS"}
    r = api(floor_user).post(url(t, "manual-draw/"), body, format="json")
    assert r.status_code == 409
    assert r.json() == {"code": "manual_draw_stale", "detail": "Table 3 no longer breaks: this manual draw is void."}


def test_the_log_of_a_manual_start_reads_as_the_electronic_draw_with_the_seat_given_by_hand_and_a_late_player(
    api, make_tournament, actor, floor_user, director
):
    t = make_tournament(settings={"draw_mode": "MANUAL"})
    ada, bea, cleo, dan = add_entries(t, 4)
    services.reserve_seat(t, dan, 1, 9, actor=actor, reason="wheelchair")
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    (draw,) = api(floor_user).get(url(t, "manual-draw/")).json()["draws"]
    cards = [(c["table"], c["seat"]) for c in draw["cards"]]
    assert len(cards) == 3 and (1, 9) not in cards
    (eve,) = add_entries(t, 1)  # paid while the cards are drawn: she has no card
    for entry, (table, seat) in zip([ada, bea, cleo], cards):
        r = api(floor_user).post(url(t, "manual-draw/"), {"entry": entry.pk, "table": table, "seat": seat}, format="json")
    assert r.status_code == 201 and r.json()["applied"] is True
    (table,) = api(floor_user).get(f"/api/v1/tournaments/{t.pk}/tables/").json()["tables"]
    seated = {s["seat"]: s["entry"] for s in table["seats"] if s["entry"]}
    assert {seat: seated[seat] for seat in [9, *(s for _tb, s in cards)]} == {9: dan.pk, **{s: e.pk for e, (_tb, s) in zip([ada, bea, cleo], cards)}}
    assert eve.pk in seated.values() and len(seated) == 5  # she sits from the seat pool, as a late entry
    assert (table["number"], table["is_final"], table["halt_waived"]) == (1, False, False)

    (start,) = events(api, director, t, "seating.draw.initial")
    assert start["sentence"] == "Seats drawn: 4 players at 1 table" and start["actor_label"] == "flo"
    p = start["payload"]
    assert {k: p[k] for k in ("mode", "manual_draw", "rng", "redraw", "reason", "reserved", "table_order", "players", "tables", "capacity")} == {
        "mode": "MANUAL",
        "manual_draw": draw["id"],
        "rng": "manual draw: seat cards drawn by hand (SEAT-01); the buttons: secrets.SystemRandom (OS CSPRNG) seeds random.Random",
        "redraw": False,
        "reason": "",
        "reserved": [[dan.pk, 1, 9]],
        "table_order": [1],
        "players": 4,
        "tables": 1,
        "capacity": 9,
    }
    assert p["assignment"] == sorted([e.pk, tb, s] for e, (tb, s) in zip([ada, bea, cleo], cards))
    # As the electronic start's log: no before/after copy of the tables.
    assert sorted(p) == sorted(
        [
            "mode",
            "manual_draw",
            "rng",
            "redraw",
            "reason",
            "assignment",
            "reserved",
            "buttons",
            "button_cards",
            "seed",
            "table_order",
            "players",
            "tables",
            "capacity",
        ]
    )
    (late,) = events(api, director, t, "seating.player.seated")
    assert late["payload"]["entry"] == eve.pk and late["payload"]["table"] == 1 and late["actor_label"] == "flo"


def test_players_refunded_while_the_cards_are_drawn_are_not_waited_for_nor_seated_and_no_table_breaks_before_a_hand(api, make_tournament, actor, floor_user):
    t = make_tournament(settings={"draw_mode": "MANUAL"})
    entries = add_entries(t, 10)
    services.reserve_seat(t, entries[9], 1, 9, actor=actor, reason="wheelchair")
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    (draw,) = api(floor_user).get(url(t, "manual-draw/")).json()["draws"]
    cards = [(c["table"], c["seat"]) for c in draw["cards"]]
    at_one, at_two = [c for c in cards if c[0] == 1], [c for c in cards if c[0] == 2]
    assert (len(at_one), len(at_two)) == (4, 5) and (1, 9) not in cards  # 5 a table, one of table 1 given by hand
    # The player given a seat by hand and two who were to draw are refunded before the draw ends.
    Entry.objects.filter(pk__in=[e.pk for e in entries[7:]]).update(status=Entry.CANCELLED)
    drawn = at_one[:2] + at_two  # two cards of table 1 stay in the box
    for entry, (table, seat) in zip(entries[:7], drawn):
        r = api(floor_user).post(url(t, "manual-draw/"), {"entry": entry.pk, "table": table, "seat": seat}, format="json")
    assert r.status_code == 201 and r.json()["applied"] is True and r.json()["draws"] == []
    room = api(floor_user).get(f"/api/v1/tournaments/{t.pk}/tables/").json()
    seated = {(tb["number"], s["seat"]): s["entry"] for tb in room["tables"] for s in tb["seats"] if s["entry"]}
    assert seated == {card: e.pk for e, card in zip(entries[:7], drawn)}  # nobody refunded sits
    # 7 players would fit one table, but no table breaks before a hand is played; table 1, three
    # players short, holds play until it is balanced (BAL-02): nobody waived it.
    assert [(tb["number"], tb["is_final"], tb["halt_waived"]) for tb in room["tables"]] == [(1, False, False), (2, False, False)]
    assert room["halted"] == [1]


def test_the_log_of_a_manual_break_names_the_draw_the_table_and_the_players_moved(api, make_tournament, actor, floor_user, director):
    t, at3 = broken_table_three(make_tournament, actor)
    brk = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK)
    movers = at3[3:]
    for entry, (table, seat), card in zip(movers, brk.cards, ["5d", "Jh", "Js"]):
        r = api(floor_user).post(url(t, "manual-draw/"), {"entry": entry, "table": table, "seat": seat, "card": card}, format="json")
    assert r.status_code == 201 and r.json()["applied"] is True
    (done,) = events(api, director, t, "seating.manual_draw.completed")
    assert done["sentence"] == "Flo completed the manual seat draw" and done["actor_label"] == "flo"
    # the players moved, highest card first: J♠, J♥, 5♦
    assert {k: done["payload"][k] for k in ("manual_draw", "kind", "table", "moved")} == {
        "manual_draw": brk.pk,
        "kind": "BREAK",
        "table": 3,
        "moved": [movers[2], movers[1], movers[0]],
    }
    (broken,) = events(api, director, t, "seating.table.broken")
    assert broken["sentence"] == "Table 3 broken: 3 players moved"
    assert (broken["payload"]["table"], broken["payload"]["mode"], broken["payload"]["manual_draw"]) == (3, "MANUAL", brk.pk)


def test_the_manual_draw_page_enters_each_card_into_the_draw_its_form_names(client, make_tournament, actor, floor_user):
    t, at3 = broken_table_three(make_tournament, actor)
    page = f"/tournaments/{t.pk}/tables/manual-draw/"
    client.force_login(floor_user)
    brk = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK)
    assert f'<input type="hidden" name="draw" value="{brk.pk}">' in client.get(page).content.decode()
    numbers = dict(Entry.objects.filter(pk__in=at3[3:]).values_list("pk", "number"))
    for entry, (table, seat), card in zip(at3[3:], brk.cards, ["2s", "3s", "4s"]):
        form = {"op": "enter", "draw": brk.pk, "entry_number": numbers[entry], "table": table, "seat": seat, "card": card}
        r = client.post(page, form, follow=True)
    assert "Last card entered: the draw is applied, the players are seated." in r.content.decode()
    assert {e: (tb, s) for tb, seats in seat_map(t).items() for s, e in seats.items() if e in at3[3:]} == {e: tuple(c) for e, c in zip(at3[3:], brk.cards)}


def test_a_player_moved_by_hand_to_a_breaking_table_draws_its_card_though_his_old_tables_draw_is_void(api, client, make_tournament, actor, floor_user):
    t, at3 = broken_table_three(make_tournament, actor)
    services.undo_bust(t, Bust.objects.filter(tournament=t, void="").order_by("order").first(), actor=actor, reason="wrong player")
    void = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK, table=3)  # table 3 no longer breaks
    seats = seat_map(t)  # three full tables of 6 again
    services.record_bust(t, [seats[1][s] for s in (1, 2, 3, 4)], actor=actor)
    services.move_player(t, at3[3], 1, 1, actor=actor, reason="too noisy at table 3")
    services.record_bust(t, [seats[2][1], seats[2][2]], actor=actor)  # 3, 4 and 5 players: table 1 breaks
    brk = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK, table=1, status=ManualDraw.OPEN)
    assert ManualDraw.objects.get(pk=void.pk).status == ManualDraw.OPEN and at3[3] in [e for e, _s in void.players]
    (live,) = api(floor_user).get(url(t, "manual-draw/")).json()["draws"]
    assert (live["id"], live["table"]) == (brk.pk, 1)
    players = [at3[3], seats[1][5], seats[1][6]]
    assert sorted(e for e, _s in brk.players) == sorted(players)
    (first, second, third) = brk.cards
    r = api(floor_user).post(url(t, "manual-draw/"), {"entry": at3[3], "table": first[0], "seat": first[1], "card": "Kd"}, format="json")
    assert r.status_code == 201 and r.json()["applied"] is False
    # The other two on the page, whose form names the live draw.
    client.force_login(floor_user)
    page = f"/tournaments/{t.pk}/tables/manual-draw/"
    numbers = dict(Entry.objects.filter(pk__in=players).values_list("pk", "number"))
    for entry, (table, seat), card in zip(players[1:], [second, third], ["Qd", "Jd"]):
        form = {"op": "enter", "draw": brk.pk, "entry_number": numbers[entry], "table": table, "seat": seat, "card": card}
        r = client.post(page, form, follow=True)
    assert "Last card entered: the draw is applied, the players are seated." in r.content.decode()
    where = {e: (tb, s) for tb, row in seat_map(t).items() for s, e in row.items()}
    assert 1 not in seat_map(t) and [where[e] for e in players] == [tuple(first), tuple(second), tuple(third)]


def test_a_redraw_by_hand_is_logged_as_a_redraw_with_its_reason_once_its_cards_are_in(api, make_tournament, actor, floor_user, director):
    t = make_tournament(settings={"draw_mode": "MANUAL"})
    entries = add_entries(t, 4)

    def enter_every_card():
        (draw,) = api(floor_user).get(url(t, "manual-draw/")).json()["draws"]
        for entry, card in zip(entries, draw["cards"]):
            body = {"entry": entry.pk, "table": card["table"], "seat": card["seat"]}
            assert api(floor_user).post(url(t, "manual-draw/"), body, format="json").status_code == 201
        return draw["id"]

    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    start = enter_every_card()
    services.draw(t, actor=actor, redraw=True, reason="the cards were not shuffled")  # before the first bust
    assert seat_map(t) == {}  # nobody sits until the new cards are in
    redraw = enter_every_card()
    assert sorted(e for row in seat_map(t).values() for e in row.values()) == sorted(e.pk for e in entries)
    first, again = events(api, director, t, "seating.draw.initial")
    assert (first["payload"]["manual_draw"], first["payload"]["redraw"], first["payload"]["reason"]) == (start, False, "")
    assert (again["payload"]["manual_draw"], again["payload"]["redraw"], again["payload"]["reason"]) == (redraw, True, "the cards were not shuffled")
