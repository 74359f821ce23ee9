"""Seat draws through the services: the start (SEAT-01, SEAT-08), late seats (SEAT-03, 05),
cancellations, rebuys after a bust and the director's redraw."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from seating import selectors, services
from seating.models import Bust, PendingMove, Seat, Table
from tdmanager.errors import DomainError
from tdmanager.transactions import unit_of_work
from tournaments.cashier import services as cashier
from tournaments.models import Entry, LedgerRow, Tournament, TournamentEvent
from tournaments.setup import lifecycle

from .test_support import add_entries, arrange, counts, player_at, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def test_the_start_draws_every_paid_entry_into_even_tables_with_a_button_each(started):
    t = started(20)
    assert counts(t) == {1: 7, 2: 7, 3: 6}
    seated = [e for seats in seat_map(t).values() for e in seats.values()]
    playing = set(t.entries.filter(status=Entry.ACTIVE).values_list("pk", flat=True))
    assert sorted(seated) == sorted(playing)
    draw = TournamentEvent.objects.get(tournament=t, action="seating.draw.initial")
    assert sorted(e for e, _t, _s in draw.payload["assignment"]) == sorted(playing)  # the logged permutation
    for table in Table.objects.filter(tournament=t):
        button = draw.payload["buttons"][str(table.number)]
        cards = {seat: card for seat, card in draw.payload["button_cards"][str(table.number)]}
        assert button in seat_map(t)[table.number] and set(cards) == set(seat_map(t)[table.number])
        assert table.big_blind_seat is not None  # the first hand's blinds follow from the button
    entry = t.entries.get(number=5)
    table, seat = next((n, s) for n, seats in seat_map(t).items() for s, e in seats.items() if e == entry.pk)
    assert selectors.seat_of(entry) == {"table": table, "seat": seat}


def test_pre_registered_unpaid_entries_are_not_drawn(make_tournament, make_person, actor, cashier_actor):
    t = make_tournament()
    add_entries(t, 4)
    reserved = cashier.pre_register(t, make_person(), actor=cashier_actor)
    lifecycle.start(t, actor=actor)
    assert selectors.seat_of(reserved) is None
    assert sum(counts(t).values()) == 4


def test_a_sale_before_the_start_seats_nobody(tournament, person, cashier_actor):
    entry = cashier.register(tournament, person, method="CASH", actor=cashier_actor).entry
    assert selectors.seat_of(entry) is None and not Seat.objects.exists()


def test_a_late_registration_is_seated_at_once_and_the_receipt_shows_table_and_seat(started, person, cashier_actor, client, cashier_user):
    t = started(17, late_reg_closes_after_level=6)  # tables of 9 and 8
    sale = cashier.register(t, person, method="CASH", actor=cashier_actor)
    seat = selectors.seat_of(sale.entry)
    assert seat is not None and seat["table"] == 2  # the seat pool is the shortest table (SEAT-03)
    assert counts(t) == {1: 9, 2: 9}
    event = TournamentEvent.objects.get(tournament=t, action="seating.player.seated")
    assert event.payload["entry"] == sale.entry.pk and event.payload["reason"]["code"] == "LATE_SEAT_POOL"
    client.force_login(cashier_user)
    page = client.get(f"/desk/receipt/{sale.row.receipt_number}/").content.decode()
    assert f'id="receipt-seat">{seat["table"]} / {seat["seat"]}<' in page


def test_when_every_table_is_full_a_new_table_opens(started, make_person, cashier_actor):
    t = started(18, late_reg_closes_after_level=6)
    assert counts(t) == {1: 9, 2: 9}
    entry = cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry
    assert selectors.seat_of(entry)["table"] == 3
    assert counts(t)[3] == 1
    # The lone player's table is balanced from the full ones (BAL-01): moves are proposed.
    moves = PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED)
    assert moves.count() == 5 and {m.to_table for m in moves} == {3}


@pytest.mark.parametrize("broken", [1, 2])
def test_a_table_opened_for_a_late_seat_takes_the_number_of_a_table_broken_before(started, make_person, cashier_actor, actor, broken):
    # Three tables of 9, the one to break holding 6 and the others 13: a bust there leaves 5,
    # exactly the open seats elsewhere (BAL-06), so the two left are full and the next late
    # registrant opens a table again, under the lowest number not in play, the broken one's.
    t = started(19, late_reg_closes_after_level=6)
    sizes = {1: 7, 2: 7, 3: 6} | {broken: 6}
    arrange(t, {n: range(1, k + 1) for n, k in sizes.items()})
    services.record_bust(t, [player_at(t, broken)], actor=actor)
    assert counts(t) == {n: 9 for n in (1, 2, 3) if n != broken}
    entry = cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry
    assert selectors.seat_of(entry)["table"] == broken
    assert sorted(counts(t)) == [1, 2, 3]


def test_a_re_entry_draws_a_seat_from_the_pool(started, make_person, cashier_actor, actor):
    t = started(0, format=Tournament.REENTRY, max_entries_per_player=2, late_reg_closes_after_level=6, min_players=0)
    people = [make_person() for _ in range(10)]
    entries = [cashier.register(t, p, method="CASH", actor=cashier_actor).entry for p in people]
    assert sum(counts(t).values()) == 10
    services.record_bust(t, [entries[0]], actor=actor)
    # Nine left at a full final table: the house asks first (late_entry_at_final_table), the director agrees.
    again = cashier.reenter(t, people[0], method="CASH", actor=cashier_actor, confirm_final_table=True).entry
    assert again.pk != entries[0].pk and selectors.seat_of(again) is not None
    assert sum(counts(t).values()) == 10
    # The late entry pushes the earlier bust one place down: 11 entries, first out is 11th.
    assert Entry.objects.get(pk=entries[0].pk).place == 11


def test_a_late_entry_moves_every_earlier_bust_down_one_place_in_statements_that_do_not_grow_with_the_busts(started, make_person, cashier_actor, actor):
    t = started(40, late_reg_closes_after_level=6)

    def bust_some(k):
        for table in list(seat_map(t))[:k]:
            services.record_bust(t, [next(iter(seat_map(t)[table].values()))], actor=actor)
        pair = list(seat_map(t)[max(seat_map(t))].values())[:2]  # two on one hand, equal stacks: a shared place
        services.record_bust(t, [{"entry": e} for e in pair], actor=actor, same_hand=True)

    def places():
        return {b.entry_id: (b.place, b.shared_with, Entry.objects.get(pk=b.entry_id).place) for b in Bust.objects.filter(tournament=t)}

    def statements():
        """Statements the server ran to give every bust its place again (a statement sent
        once per row counts its rows)."""
        Bust.objects.filter(tournament=t).update(place=None)
        Entry.objects.filter(tournament=t, status=Entry.BUSTED).update(place=None)
        with unit_of_work(), CaptureQueriesContext(connection) as sent:
            services.recompute_places(t)
        return sum(int(q["sql"].split(" times: ")[0]) if " times: " in q["sql"] else 1 for q in sent.captured_queries)

    bust_some(2)
    few = statements()
    bust_some(3)
    if connection.vendor == "postgresql":  # each a round trip to the server (SQLite's run in the process)
        assert statements() == few  # 9 busts cost what 4 did
    before = places()
    assert any(shared == 2 for _p, shared, _e in before.values())
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    assert places() == {e: (p + 1, shared, p + 1) for e, (p, shared, _e) in before.items()}
    assert Entry.objects.filter(tournament=t, status=Entry.ACTIVE, place__isnull=False).count() == 0


def test_a_rebuy_after_a_bust_seats_the_player_again_and_voids_his_bust(started, actor, cashier_actor):
    t = started(12, format=Tournament.REBUY, rebuy_price=100, rebuy_chips=30000, rebuy_until_level=4)
    out = t.entries.get(number=3)
    services.record_bust(t, [out], actor=actor)
    assert Entry.objects.get(pk=out.pk).place == 12 and selectors.seat_of(out) is None
    cashier.rebuy(Entry.objects.get(pk=out.pk), method="CASH", actor=cashier_actor)
    out.refresh_from_db()
    assert out.status == Entry.ACTIVE and out.place is None and selectors.seat_of(out) is not None
    assert Bust.objects.get(entry=out).void == Bust.REBOUGHT
    nxt = t.entries.get(number=4)
    services.record_bust(t, [nxt], actor=actor)
    assert Entry.objects.get(pk=nxt.pk).place == 12


def test_a_reversed_buy_in_frees_the_seat(started, person, cashier_actor):
    t = started(10, late_reg_closes_after_level=6)
    sale = cashier.register(t, person, method="CASH", actor=cashier_actor)
    assert selectors.seat_of(sale.entry) is not None
    cashier.reverse(LedgerRow.objects.get(pk=sale.row.pk), reason="wrong player", actor=cashier_actor)
    assert selectors.seat_of(sale.entry) is None and sum(counts(t).values()) == 10
    assert TournamentEvent.objects.filter(tournament=t, action="seating.seat.released", payload__entry=sale.entry.pk).exists()


def test_the_director_can_redraw_before_the_first_bust_only(started, actor):
    t = started(12)
    with pytest.raises(DomainError) as e:
        services.draw(t, actor=actor)
    assert e.value.code == "already_drawn"
    with pytest.raises(DomainError) as e:
        services.draw(t, actor=actor, redraw=True, reason="")
    assert e.value.code == "reason_required"
    services.draw(t, actor=actor, redraw=True, reason="tickets dropped on the floor")
    assert sum(counts(t).values()) == 12
    assert TournamentEvent.objects.filter(tournament=t, action="seating.draw.initial").count() == 2
    services.record_bust(t, [t.entries.get(number=1)], actor=actor)
    with pytest.raises(DomainError) as e:
        services.draw(t, actor=actor, redraw=True, reason="again")
    assert e.value.code == "busts_recorded"


def test_a_late_seat_is_never_a_seat_a_proposed_move_is_about_to_fill(started, actor, make_person, cashier_actor):
    t = started(18, table_size=10, late_reg_closes_after_level=6)
    arrange(t, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})  # RULES scenario 10
    services.set_big_blind(t, 2, 5, actor=actor)  # any change re-plans: 10 and 8 → one move
    move = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    entry = cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry
    seat = selectors.seat_of(entry)
    assert seat["table"] == 2 and seat["seat"] != move.to_seat
    # 10 and 9 now: the move is no longer needed.
    assert counts(t) == {1: 10, 2: 9}
    assert PendingMove.objects.get(pk=move.pk).status == PendingMove.SUPERSEDED


def test_cancelling_the_tournament_gives_every_seat_back_without_moving_anyone(tournament, make_person, cashier_actor, actor):
    for _ in range(12):
        cashier.register(tournament, make_person(), method="CASH", actor=cashier_actor)
    lifecycle.start(tournament, actor=actor)
    assert sum(counts(tournament).values()) == 12
    lifecycle.cancel(tournament, actor=actor, reason="power cut")  # every entry refunded
    assert not Seat.objects.filter(tournament=tournament).exists()
    assert not Table.objects.filter(tournament=tournament, in_play=True).exists()
    assert not PendingMove.objects.filter(tournament=tournament).exists()
