"""Issue 28 item 19: a late entry sold once the final table is formed (REG-04, BAL-09).

A late entry takes an eliminated player's seat (003 Art. 4.4); once the final table is formed with
no open seat, a sale would open a new table and balancing would move players off the final table.
House setting ``late_entry_at_final_table``: ASK (default: 409 ``final_table_formed`` until the desk
confirms), REFUSE, ALLOW. Every entry path goes through ``cashier.check_admission``."""

import pytest

from payouts.models import Ticket
from seating import services as seating
from seating.models import PendingMove, Seat, Table
from tests.conftest import client_for
from tournaments.models import Entry, Tournament

from ..seating.test_support import add_entries, counts, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def final_table(started, actor):
    """A running 9-handed tournament whose final table was just formed, 9 players at table 1."""

    def make(**settings):
        t = started(11, settings=settings)
        seating.record_bust(t, [next(iter(seat_map(t)[2].values()))], actor=actor)  # 6 and 4
        (move,) = PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED)
        seating.confirm_move(t, move, actor=actor)
        seating.record_bust(t, [next(iter(seat_map(t)[1].values()))], actor=actor)  # the 10th: the final table
        assert counts(t) == {1: 9} and Table.objects.get(tournament=t, number=1).is_final
        for m in PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED):
            seating.confirm_move(t, m, actor=actor)  # everyone sat down at the final table
        return t

    return make


def sell(client, t, person, **extra):
    return client.post("/api/v1/cashier/register/", {"tournament": t.pk, "person": person.pk, "method": "CASH", **extra}, format="json")


def tables_in_play(t):
    return sorted(Table.objects.filter(tournament=t, in_play=True).values_list("number", flat=True))


def test_a_sale_at_a_full_final_table_is_refused_until_the_desk_confirms(final_table, cashier_user, make_person):
    t = final_table()
    desk = client_for(cashier_user)
    late = make_person("Luca", "Tardi")
    r = sell(desk, t, late)
    assert r.status_code == 409 and r.data["code"] == "final_table_formed" and r.data["confirmable"] is True
    assert "final table" in r.data["detail"]
    assert tables_in_play(t) == [1] and not t.entries.filter(person=late).exists()  # nothing sold, no table opened
    r = sell(desk, t, late, confirm_final_table=True)
    assert r.status_code == 201, r.data
    assert t.entries.get(person=late).status == Entry.ACTIVE and len(tables_in_play(t)) == 2  # the director's choice: a new table


def test_the_refusal_is_in_italian_on_the_italian_desk(final_table, cashier_user, make_person):
    t = final_table()
    r = client_for(cashier_user).post(
        "/api/v1/cashier/register/", {"tournament": t.pk, "person": make_person().pk, "method": "CASH"}, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert r.status_code == 409 and "tavolo finale" in r.data["detail"]


def test_refuse_refuses_even_a_confirmed_sale(final_table, cashier_user, make_person):
    t = final_table(late_entry_at_final_table="REFUSE")
    r = sell(client_for(cashier_user), t, make_person(), confirm_final_table=True)
    assert r.status_code == 409 and r.data["code"] == "final_table_formed" and r.data["confirmable"] is False
    assert tables_in_play(t) == [1]


def test_allow_sells_as_before(final_table, cashier_user, make_person):
    t = final_table(late_entry_at_final_table="ALLOW")
    r = sell(client_for(cashier_user), t, make_person())
    assert r.status_code == 201 and len(tables_in_play(t)) == 2


def test_an_open_seat_at_the_final_table_takes_the_late_entry_without_a_question(final_table, cashier_user, actor, make_person):
    t = final_table()
    seating.record_bust(t, [next(iter(seat_map(t)[1].values()))], actor=actor)  # 8 left at the final table
    late = make_person()
    r = sell(client_for(cashier_user), t, late)
    assert r.status_code == 201, r.data
    assert tables_in_play(t) == [1] and Seat.objects.get(entry=t.entries.get(person=late)).table.number == 1


def test_a_reentry_and_a_rebuy_that_brings_a_busted_player_back_ask_too(final_table, cashier_user, make_person):
    t = final_table()
    Tournament.objects.filter(pk=t.pk).update(
        format=Tournament.REBUY, max_entries_per_player=3, rebuy_price=100, rebuy_fee=10, rebuy_chips=30000, rebuy_until_level=3
    )
    out = t.entries.filter(status=Entry.BUSTED).first()
    desk = client_for(cashier_user)
    r = desk.post("/api/v1/cashier/reenter/", {"tournament": t.pk, "person": out.person_id, "method": "CASH"}, format="json")
    assert r.status_code == 409 and r.data["code"] == "final_table_formed"
    r = desk.post("/api/v1/cashier/rebuy/", {"entry": out.pk, "method": "CASH"}, format="json")
    assert r.status_code == 409 and r.data["code"] == "final_table_formed"
    assert tables_in_play(t) == [1]


def test_before_the_final_table_a_late_entry_is_sold_as_always(started, cashier_user, make_person):
    t = started(11)
    r = sell(client_for(cashier_user), t, make_person())
    assert r.status_code == 201


def test_a_ticket_redeemed_at_the_full_final_table_asks_too(final_table, cashier_user, make_person):
    t = final_table()
    holder = make_person()
    voucher = Ticket.objects.create(holder=holder, target=t, value=t.entry_price)
    desk = client_for(cashier_user)
    r = desk.post(f"/api/v1/payouts/tickets/{voucher.pk}/redeem/", {"id_checked": True}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "final_table_formed"
    assert not t.entries.filter(person=holder).exists() and tables_in_play(t) == [1]
    r = desk.post(f"/api/v1/payouts/tickets/{voucher.pk}/redeem/", {"confirm_final_table": True, "id_checked": True}, format="json")
    assert r.status_code == 201 and t.entries.get(person=holder).status == Entry.ACTIVE


def test_reg04_a_locked_open_seat_or_a_locked_final_table_is_no_room_for_a_late_entry(final_table, cashier_user, actor, make_person):
    # 8 left at the final table: seat s is open. Locked, or at a locked table, it takes nobody:
    # the sale asks, as at a full final table; unlocked, the late entry sits there.
    t = final_table()
    out = Seat.objects.filter(tournament=t).order_by("number").first()
    s = out.number
    seating.record_bust(t, [out.entry_id], actor=actor)
    desk = client_for(cashier_user)
    seating.lock_seat(t, 1, s, True, actor=actor, reason="broken chair")
    r = sell(desk, t, make_person())
    assert r.status_code == 409 and r.data["code"] == "final_table_formed" and r.data["confirmable"] is True
    seating.lock_seat(t, 1, s, False, actor=actor, reason="chair replaced")
    seating.lock_table(t, 1, True, actor=actor, reason="cameras being set")
    r = sell(desk, t, make_person())
    assert r.status_code == 409 and r.data["code"] == "final_table_formed"
    seating.lock_table(t, 1, False, actor=actor, reason="cameras ready")
    late = make_person()
    r = sell(desk, t, late)
    assert r.status_code == 201, r.data
    assert tables_in_play(t) == [1] and Seat.objects.get(entry=t.entries.get(person=late)).number == s
