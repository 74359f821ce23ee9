"""SEAT-01, SEAT-02, SEAT-04, SEAT-07: how a player's seats were assigned, as the floor and the
director read it (the API's draw history): every draw and move that placed him, what each one
drew, when and by whom."""

import pytest

from seating import selectors, services
from seating.models import ManualDraw, PendingMove
from tournaments.cashier import services as cashier
from tournaments.models import Entry, Tournament
from tournaments.setup import lifecycle

from .test_support import add_entries, arrange, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def history(api, user, t, entry_id) -> list[dict]:
    r = api(user).get(f"/api/v1/tournaments/{t.pk}/entries/{entry_id}/draws/")
    assert r.status_code == 200, r.data
    return r.json()


def logged(event) -> dict:
    """What the history says of the event itself: its action, time and who did it."""
    return {"action": event.action, "at": event.created_at.isoformat(), "by": event.actor_label}


def named(event) -> list[list]:
    """The logged card order with each player as the floor knows him ("First Last #number")."""
    people = {e.pk: f"{e.person.first_name} {e.person.last_name} #{e.number}" for e in Entry.objects.select_related("person")}
    return [[p, card, people[p]] for p, card in event.payload["card_order"]]


def test_seat01_the_history_shows_the_ticket_the_seat_and_the_button_draw_of_the_start(api, started, floor_user, django_assert_num_queries):
    t = started(12)
    draw = t.events.get(action="seating.draw.initial")
    for number in (1, 3):  # tickets count from 1, in entry number order
        entry = t.entries.get(number=number)
        seat = selectors.seat_of(entry)
        table = str(seat["table"])
        assert len(draw.payload["button_cards"][table]) >= 2 and draw.payload["buttons"][table] in [s for s, _c in draw.payload["button_cards"][table]]
        assert history(api, floor_user, t, entry.pk) == [
            {
                "kind": "initial",
                "table": seat["table"],
                "seat": seat["seat"],
                "ticket": number,
                "tickets": 12,
                "button": draw.payload["buttons"][table],
                "button_cards": draw.payload["button_cards"][table],
                "manual": False,
                **logged(draw),
            }
        ]
    # The start, the seats from the pool and the slips: one read each, no names to look up.
    with django_assert_num_queries(3):
        selectors.draw_history(t, entry)


def test_seat01_the_history_shows_the_seat_pool_draw_of_a_late_player_and_why(api, started, floor_user, make_person, cashier_actor):
    t = started(17, late_reg_closes_after_level=6)
    sale = cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    seat = selectors.seat_of(sale.entry)
    # Another late player: his draw is not in this one's history (it may move this one, a slip).
    cashier.register(t, make_person(), method="CASH", actor=cashier_actor)
    seated = t.events.get(action="seating.player.seated", payload__entry=sale.entry.pk)
    item, *later = history(api, floor_user, t, sale.entry.pk)
    assert item == {
        "kind": "late",
        "table": seat["table"],
        "seat": seat["seat"],
        "reason": item["reason"],
        "reason_code": "LATE_SEAT_POOL",
        **logged(seated),
    }
    assert item["reason"].startswith("seat pool: ") and f"drew table {seat['table']}, seat {seat['seat']} at random" in item["reason"]
    assert [i["kind"] for i in later if i["kind"] == "late"] == []


def test_seat04_the_history_of_a_broken_tables_player_shows_both_steps_with_names(api, started, floor_user, actor, django_assert_num_queries):
    t = started(21, table_size=10)
    arrange(t, {1: range(1, 9), 2: range(1, 9), 3: range(1, 6)}, big_blinds={1: (1, 8), 2: (2, 1), 3: (1, 5)})
    mover = seat_map(t)[3][1]
    services.record_bust(t, [seat_map(t)[3][2]], actor=actor)
    broken = t.events.get(action="seating.table.broken")
    slip = PendingMove.objects.select_related("entry__person").get(entry_id=mover)
    start, brk = history(api, floor_user, t, mover)
    assert start["kind"] == "initial" and start["action"] == "seating.draw.initial"  # the start first, then the break
    assert brk == {
        "kind": "break",
        "move": selectors.move_dict(slip),
        "table": slip.to_table,
        "seat": slip.to_seat,
        "reason": slip.reason_text,
        "reason_code": slip.reason_code,
        "seat_order": broken.payload["seat_order"],
        "card_order": named(broken),
        "button_seat": None,
        "button_cards": None,
        "manual": False,
        **logged(broken),
    }
    assert len(brk["seat_order"]) == 4 and len(brk["card_order"]) == 4 and slip.card in brk["reason"]
    # The start, the seats from the pool, the slips with their events, and the names: four reads.
    entry = Entry.objects.get(pk=mover)
    with django_assert_num_queries(4):
        selectors.draw_history(t, entry)


def test_seat04_the_history_shows_the_final_table_draw_and_its_button(api, started, floor_user, actor):
    t = started(12)  # two tables of 6; at 9 players left the final table forms
    for entry in list(seat_map(t)[1].values())[:3]:
        services.record_bust(t, [{"entry": entry}], actor=actor)
    final = t.events.get(action="seating.final_table.formed")
    slip = PendingMove.objects.filter(tournament=t, kind=PendingMove.FINAL_TABLE).select_related("entry__person").first()
    item = history(api, floor_user, t, slip.entry_id)[-1]
    assert final.payload["button_seat"] and final.payload["button_cards"]
    assert item == {
        "kind": "final_table",
        "move": selectors.move_dict(slip),
        "table": slip.to_table,
        "seat": slip.to_seat,
        "reason": slip.reason_text,
        "reason_code": slip.reason_code,
        "seat_order": final.payload["seat_order"],
        "card_order": named(final),
        "button_seat": final.payload["button_seat"],
        "button_cards": final.payload["button_cards"],
        "manual": False,
        **logged(final),
    }


def test_seat02_seat07_the_history_shows_a_seat_drawn_in_advance_and_one_given_by_hand(make_tournament, api, floor_user, actor):
    t = make_tournament(status=Tournament.REGISTERING)
    entries = add_entries(t, 11)
    services.predraw(t, ["1A"], actor=actor)
    given = entries[4]
    services.reserve_seat(t, given, 2, 1, actor=actor, reason="wheelchair access")
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    start = t.events.get(action="seating.draw.initial")
    kept = start.payload["predrawn"][0]
    for entry_id, payload_key, extra in ((kept[0], "predrawn", {"predrawn": True, "session": "1A"}), (given.pk, "reserved", {"reserved": True})):
        ((_e, table, seat),) = [row for row in start.payload[payload_key] if row[0] == entry_id]
        assert selectors.seat_of(Entry.objects.get(pk=entry_id)) == {**selectors.seat_of(Entry.objects.get(pk=entry_id)), "table": table, "seat": seat}
        assert history(api, floor_user, t, entry_id) == [
            {
                "kind": "initial",
                "table": table,
                "seat": seat,
                **extra,
                "button": start.payload["buttons"][str(table)],
                "button_cards": start.payload["button_cards"][str(table)],
                **logged(start),
            }
        ]
        assert start.payload["button_cards"][str(table)]


def manual_start(make_tournament, actor, n, **kw):
    """A start drawn by hand: every player takes the next printed seat card."""
    t = make_tournament(settings={"draw_mode": "MANUAL"}, **kw)
    entries = add_entries(t, n)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    for entry, (table, seat) in zip(entries, ManualDraw.objects.get(tournament=t).cards):
        services.enter_card(t, entry, table, seat, actor=actor)
    return t, entries


def test_seat01_seat04_the_history_says_when_the_cards_were_drawn_by_hand(make_tournament, api, floor_user, actor):
    t, entries = manual_start(make_tournament, actor, 18, table_size=6)
    start = t.events.get(action="seating.draw.initial")
    (item,) = history(api, floor_user, t, entries[0].pk)
    assert item["kind"] == "initial" and item["manual"] is True and item["button"] == start.payload["buttons"][str(item["table"])]
    seats = seat_map(t)
    at = {n: list(seats[n].values()) for n in seats}
    services.record_bust(t, at[1][:2] + at[2][:1] + at[3][:3], actor=actor)
    brk = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK, status=ManualDraw.OPEN)
    for entry, (table, seat), card in zip(at[3][3:], brk.cards, ["2♣", "A♠", "KH"]):
        services.enter_card(t, entry, table, seat, card=card, actor=actor)
    broken = t.events.get(action="seating.table.broken")
    moved = history(api, floor_user, t, at[3][4])[-1]
    assert moved["kind"] == "break" and moved["manual"] is True and moved["card_order"] == named(broken)
    assert moved["card_order"][0][1] == "A♠"


def test_seat01_a_move_by_hand_and_a_seat_after_a_rebuy_follow_the_start_in_the_order_they_happened(
    api, started, floor_user, actor, cashier_actor, django_assert_num_queries
):
    # Thirteen players: seven at one table, six at the other. He sits at the table of seven, so
    # after his bust the tables are even and his seat from the pool (the table breaking next
    # left out) makes seven and six again: no balancing slip follows him.
    t = started(13, format=Tournament.REBUY, rebuy_price=100, rebuy_chips=30000, rebuy_until_level=4)
    (seven,) = (seats for seats in seat_map(t).values() if len(seats) == 7)
    player = t.entries.get(pk=min(seven.values()))
    where = selectors.seat_of(player)
    other = where["table"]  # another seat at his table: the tables stay balanced, no slip drawn
    free = next(s for s in range(1, t.table_size + 1) if s not in seat_map(t)[other])
    services.move_player(t, player, other, free, actor=actor, reason="TD decision")
    services.record_bust(t, [player], actor=actor)
    cashier.rebuy(Entry.objects.get(pk=player.pk), method="CASH", actor=cashier_actor)
    moved = t.events.get(action="seating.player.moved")
    seated = t.events.get(action="seating.player.seated", payload__entry=player.pk)
    slip = PendingMove.objects.select_related("entry__person", "done_by").get(entry=player)
    client = api(floor_user)
    # Who confirmed the move and whom it moved come with the slips' read (the user's roles, the
    # tournament, the entry, and the three reads of the history).
    with django_assert_num_queries(6):
        client.get(f"/api/v1/tournaments/{t.pk}/entries/{player.pk}/draws/")
    start, by_hand, again = history(api, floor_user, t, player.pk)
    assert start["kind"] == "initial" and start["table"] == where["table"] and start["seat"] == where["seat"]
    assert by_hand == {
        "kind": "manual",
        "move": selectors.move_dict(slip),
        "table": other,
        "seat": free,
        "reason": "TD decision",
        "reason_code": "",
        **logged(moved),
    }
    assert by_hand["move"]["done_by"] == actor.user.get_username()
    seat = selectors.seat_of(player)
    assert again["kind"] == "late" and (again["table"], again["seat"]) == (seat["table"], seat["seat"]) and again["action"] == seated.action


def test_seat01_the_history_costs_the_same_reads_however_many_times_he_was_moved(api, started, floor_user, actor, django_assert_num_queries):
    t = started(13)
    (seven,) = (seats for seats in seat_map(t).values() if len(seats) == 7)
    player = t.entries.get(pk=min(seven.values()))
    table = selectors.seat_of(player)["table"]
    client = api(floor_user)
    client.get(f"/api/v1/tournaments/{t.pk}/entries/{player.pk}/draws/")  # the floor's roles, read once
    for moves in (1, 2, 3):
        free = next(s for s in range(1, t.table_size + 1) if s not in seat_map(t)[table])
        services.move_player(t, player, table, free, actor=actor, reason=f"TD decision {moves}")
        # the tournament, the entry, the start draws, the seats from the pool, the slips
        with django_assert_num_queries(5):
            r = client.get(f"/api/v1/tournaments/{t.pk}/entries/{player.pk}/draws/")
        assert [(i["kind"], i.get("reason")) for i in r.json()] == [("initial", None), *(("manual", f"TD decision {n}") for n in range(1, moves + 1))]
