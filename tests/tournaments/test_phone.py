"""The player's phone page (issue #14): the receipt's QR code leads to a page for that entry
alone, keyed by an unguessable token, with the seat, a move to make, the clock, the field, the
payout ladder and the place once out."""

import base64
import json
import re
import zlib
from decimal import Decimal

import pytest
from django.test import Client

from payouts import services as payouts
from seating import services as seating
from seating.models import PendingMove
from seating.selectors import seat_of
from tournaments.cashier import services as cashier
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.live.snapshot import build_snapshot
from tournaments.models import Entry, LedgerRow
from tournaments.setup import lifecycle

from ..seating.test_support import arrange, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def pdf_text(content: bytes) -> bytes:
    """The drawing operators of a reportlab PDF (its streams are ASCII85 + Flate encoded)."""
    out = b""
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", content, re.S):
        data = m.group(1).strip()
        out += zlib.decompress(base64.a85decode(data[:-2] if data.endswith(b"~>") else data))
    return out


def state(token):
    response = Client().get(f"/p/{token}/state/")
    assert response.status_code == 200
    return response.json()


def test_a_sale_gives_the_entry_an_unguessable_token_and_the_receipt_links_to_it(tournament, make_person, cashier_actor, director):
    a = cashier.register(tournament, make_person("Anna", "Bianchi"), method="CASH", actor=cashier_actor)
    b = cashier.register(tournament, make_person("Bruno", "Verdi"), method="CASH", actor=cashier_actor)
    ta, tb = a.entry.phone_token, b.entry.phone_token
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", ta) and ta != tb
    assert ta not in (str(a.entry.pk), str(a.entry.number)) and len(set(ta)) > 8  # random, not the id
    client = Client()
    client.force_login(director)
    page = client.get(f"/desk/receipt/{a.row.receipt_number}/").content.decode()
    assert f"http://testserver/p/{ta}/" in page and f"/p/{ta}/qr.svg" in page
    qr = Client().get(f"/p/{ta}/qr.svg")  # the QR code comes from our own origin, no login
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content
    pdf = client.get(f"/desk/receipt/{a.row.receipt_number}.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    drawn = pdf_text(pdf.content)
    assert f"http://testserver/p/{ta}/".encode() in drawn and drawn.count(b" re") > 100  # the link and the QR code's modules
    api = client.get(f"/api/v1/cashier/receipts/{a.row.receipt_number}/")
    assert api.json()["phone_url"] == f"http://testserver/p/{ta}/"
    assert LedgerRow.objects.get(entry=a.entry).receipt_number == a.row.receipt_number


def test_the_ledger_gives_the_phone_page_only_to_the_cashier_and_the_director(
    api, tournament, person, make_person, cashier_actor, cashier_user, director, floor_user, controller_user
):
    """Issue #40 item 5: the link opens the player's page (name, seat, place, prizes) to whoever
    holds it; the roles that read the ledger but do not hand a player his receipt get none."""
    sale = cashier.register(tournament, person, method="CASH", actor=cashier_actor)
    token = sale.entry.phone_token
    ledger, receipt = f"/api/v1/tournaments/{tournament.pk}/ledger/", f"/api/v1/cashier/receipts/{sale.row.receipt_number}/"
    for user in (floor_user, controller_user):
        r = api(user).get(ledger)
        assert r.status_code == 200 and len(r.json()) == 1, user
        assert token not in r.content.decode() and r.json()[0]["phone_url"] is None, user
    floor_receipt = api(floor_user).get(receipt)
    assert floor_receipt.status_code == 200 and token not in floor_receipt.content.decode()
    floor = Client()
    floor.force_login(floor_user)  # the floor reads a receipt's page and its PDF: no link, no QR code
    page = floor.get(f"/desk/receipt/{sale.row.receipt_number}/")
    assert page.status_code == 200 and sale.row.tournament.name in page.content.decode() and token not in page.content.decode()
    pdf = floor.get(f"/desk/receipt/{sale.row.receipt_number}.pdf")
    assert pdf.status_code == 200 and token.encode() not in pdf_text(pdf.content)
    for user in (cashier_user, director):
        assert api(user).get(ledger).json()[0]["phone_url"] == f"http://testserver/p/{token}/", user
        assert api(user).get(receipt).json()["phone_url"] == f"http://testserver/p/{token}/", user
    sold = api(cashier_user).post("/api/v1/cashier/register/", {"tournament": tournament.pk, "person": make_person().pk, "method": "CASH"}, format="json")
    assert sold.status_code == 201 and sold.json()["receipt"]["phone_url"].startswith("/p/")  # the desk's own answer keeps it


def test_the_token_is_the_key_an_id_a_number_or_a_guess_is_a_404(tournament, person, cashier_actor):
    sale = cashier.register(tournament, person, method="CASH", actor=cashier_actor)
    for guess in (str(sale.entry.pk), str(sale.entry.number), sale.entry.phone_token[:-1] + "x", "a" * 22, "x" * 40):
        for suffix in ("", "state/", "stream/", "qr.svg"):
            assert Client().get(f"/p/{guess}/{suffix}").status_code == 404, (guess, suffix)
    assert Client().get(f"/p/{sale.entry.phone_token}/").status_code == 200


def test_before_the_start_the_page_says_seats_come_with_the_draw(tournament, person, cashier_actor):
    sale = cashier.register(tournament, person, method="CASH", actor=cashier_actor)
    s = state(sale.entry.phone_token)
    assert s["seat"] is None and s["move"] is None and s["entry"]["status"] == "ACTIVE"
    assert s["tournament"]["name"] == tournament.name and s["players_left"] == 1
    html = Client().get(f"/p/{sale.entry.phone_token}/").content.decode()
    assert "Mario Rossi" in html and "Seats are drawn when the tournament starts" in html


def test_the_page_shows_the_seat_the_clock_the_field_and_the_ladder_and_nobody_elses_seat(started, actor):
    t = started(18, table_size=9)
    clock_services.start_clock(t, actor=actor)
    entry = t.entries.get(number=5)
    s = state(entry.phone_token)
    seat = seat_of(entry)
    assert s["seat"] == seat and s["entry"]["number"] == 5
    assert s["clock"]["status"] == "RUNNING" and s["clock"]["level_number"] == 1 and s["clock"]["big_blind"] > 0
    assert s["players_left"] == 18 and s["entries"] == 18
    assert s["payouts"] and s["payouts"] == build_snapshot(t)["payouts"]  # the ladder the lobby shows
    # Only this entry's data: no seat list, no other player's name or move.
    assert "seats" not in s and "moves" not in s and "tables" not in s
    other = t.entries.get(number=6).person
    assert other.first_name not in json.dumps(s)
    html = Client().get(f"/p/{entry.phone_token}/").content.decode()
    assert other.first_name not in html
    assert f'id="seat-table">{seat["table"]}<' in html and f'id="seat-seat">{seat["seat"]}<' in html


def test_a_pending_move_says_where_to_go(started, actor):
    t = started(18, table_size=10)
    layout = arrange(t, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    seating.set_big_blind(t, 1, 3, previous_big_blind_seat=2, actor=actor, reason="confirmed at the table")
    move = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    mover = Entry.objects.get(pk=move.entry_id)
    s = state(mover.phone_token)
    assert s["move"] == {"kind": "BALANCE", "from_table": 1, "from_seat": 4, "to_table": 2, "to_seat": move.to_seat}
    assert s["seat"] == {"table": 1, "seat": 4}
    html = Client().get(f"/p/{mover.phone_token}/").content.decode()
    assert f"Go to table 2, seat {move.to_seat}" in html
    bystander = Entry.objects.get(pk=layout[2][1])
    assert state(bystander.phone_token)["move"] is None  # somebody else's move is not shown
    seating.confirm_move(t, move, actor=actor)
    assert state(mover.phone_token)["move"] is None and state(mover.phone_token)["seat"] == {"table": 2, "seat": move.to_seat}


def test_once_out_the_page_shows_the_place_and_the_prize(tournament, make_person, cashier_actor, actor):
    first, second, third = (cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor).entry for _ in range(3))
    t = tournament
    # Three entries of 100: a pool of 300, paid 200 / 100 to the first two places.
    payouts.edit_payout_table(t, [{"place": 1, "amount": "200"}, {"place": 2, "amount": "100"}], actor=actor)
    lifecycle.start(tournament, actor=actor, prestart_report_sent=True)
    seating.record_bust(t, [third], actor=actor)
    s = state(third.phone_token)
    assert s["entry"]["status"] == "BUSTED" and s["entry"]["place"] == 3 and s["seat"] is None
    assert s["players_left"] == 2 and s["average_stack"] == 45000  # three stacks of 30,000 in play
    assert s["prizes"] == []  # 3rd is out of the money
    seating.record_bust(t, [second], actor=actor)
    s2, s1 = state(second.phone_token), state(first.phone_token)
    assert s2["entry"]["place"] == 2 and s1["entry"]["place"] == 1
    assert [(p["kind"], Decimal(p["amount"])) for p in s2["prizes"]] == [("CASH", Decimal("100"))]
    assert [(p["kind"], Decimal(p["amount"])) for p in s1["prizes"]] == [("CASH", Decimal("200"))]


def test_a_cancelled_entry_has_no_page(tournament, person, cashier_actor, director):
    sale = cashier.register(tournament, person, method="CASH", actor=cashier_actor)
    cashier.reverse(sale.row, reason="wrong player", actor=Actor(director, "desk"))
    assert Client().get(f"/p/{sale.entry.phone_token}/").status_code == 404
