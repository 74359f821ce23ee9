"""SEAT-01 / SEAT-04 / SEAT-07 through the API: the floor enters the cards drawn, the director
keeps people apart and gives seats by hand; refusals are 4xx ``{"code", "detail"}``."""

import re

import pytest

from seating.models import KeepApart, ManualDraw, SeatReservation
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
