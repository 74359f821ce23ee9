"""SEAT-07: keep-apart pairs (every draw and balancing move honours them when it can, and a
change that cannot is flagged) and seats reserved by hand, out of the draw."""

import random

import pytest

from seating import engine, replay, services
from seating.models import Bust, KeepApart, PendingMove, SeatReservation, Table
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.models import Entry, Tournament, TournamentEvent
from tournaments.setup import lifecycle

from .test_support import add_entries, arrange, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def table_of(t, entry_id):
    return next(n for n, seats in seat_map(t).items() if entry_id in seats.values())


# --- the pure engine: a property over seeded draws ----------------------------------------


def test_a_keep_apart_pair_is_never_seated_together_in_200_seeded_draws_of_40_players_on_5_tables():
    players = list(range(1, 41))
    pairs = [(1, 2), (3, 4), (5, 40), (7, 8)]
    together_without = 0
    for seed in range(200):
        draw = engine.draw_seats(players, capacity=8, rng=random.Random(seed), apart=pairs)
        assert len(draw.tables) == 5 and sorted(len(t.seats) for t in draw.tables) == [8] * 5
        assert engine.apart_conflicts(draw.tables, pairs) == [], seed
        plain = engine.draw_seats(players, capacity=8, rng=random.Random(seed))
        together_without += bool(engine.apart_conflicts(plain.tables, pairs))
    assert together_without > 50  # without the constraint the same seeds do seat pairs together


def test_a_break_draw_keeps_a_pair_apart_when_another_seat_card_allows_it():
    # Table 3 breaks; the partner of its players sits at table 1; table 2 has room too.
    tables = [
        engine.Table(1, 9, {1: 100, 2: 101, 3: 102, 4: 103, 5: 104, 6: 105}, 1, 6),
        engine.Table(2, 9, {1: 200, 2: 201, 3: 202, 4: 203, 5: 204, 6: 205}, 1, 6),
        engine.Table(3, 9, {1: 300, 2: 301}, 1, 2),
    ]
    for seed in range(50):
        draw = engine.draw_break(tables, 3, random.Random(seed), apart=[(300, 100), (301, 205)])
        to = {m.player: m.to_table for m in draw.moves}
        assert to[300] != 1 and to[301] != 2, seed
        # the logged orders are the final ones: the player ranked i takes seat card i
        assert [(m.to_table, m.to_seat) for m in sorted(draw.moves, key=lambda m: [p for p, _ in draw.card_order].index(m.player))] == list(draw.seat_order)


def test_balancing_sends_the_mover_to_another_short_table_rather_than_to_his_partner():
    tables = [
        engine.Table(1, 9, {s: 10 + s for s in range(1, 10)}, 3, 2),
        engine.Table(2, 9, {s: 20 + s for s in range(1, 8)}, 3, 2),
        engine.Table(3, 9, {s: 30 + s for s in range(1, 8)}, 3, 2),
    ]
    plain = engine.plan_balance(tables, rng=random.Random(1))
    assert [(m.player, m.to_table) for m in plain] == [(14, 2)]  # the next big blind goes to table 2
    kept = engine.plan_balance(tables, rng=random.Random(1), apart=[(14, 25)])
    assert [(m.player, m.to_table) for m in kept] == [(14, 3)]


def test_a_late_seat_avoids_the_partners_table():
    tables = [engine.Table(1, 9, {1: 1, 2: 2}, 1, 2), engine.Table(2, 9, {1: 3, 2: 4}, 1, 2)]
    for seed in range(30):
        late = engine.draw_late_seat(tables, 99, random.Random(seed), apart=[(99, 3)])
        assert late.table == 1


# --- through the services ------------------------------------------------------------------


def test_the_initial_draw_keeps_pairs_apart_and_logs_it(make_tournament, actor):
    t = make_tournament()
    entries = add_entries(t, 16)
    services.add_keep_apart(t, entries[0].person, entries[1].person, actor=actor, reason="spouses")
    services.add_keep_apart(None, entries[2].person, entries[3].person, actor=actor, reason="partners", everywhere=True)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert table_of(t, entries[0].pk) != table_of(t, entries[1].pk)
    assert table_of(t, entries[2].pk) != table_of(t, entries[3].pk)
    assert TournamentEvent.objects.filter(tournament=t, action="seating.keep_apart.added").count() == 1
    assert not TournamentEvent.objects.filter(tournament=t, action="seating.keep_apart.unmet").exists()


def test_a_pair_that_cannot_be_kept_apart_is_flagged(started, actor):
    t = started(10)  # tables of 5 and 5: the final table (9) forms on the next bust
    arrange(t, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4, 5]}, big_blinds={1: (2, 1), 2: (2, 1)})
    entries = list(Entry.objects.filter(tournament=t).order_by("number"))
    a, b = entries[0], entries[5]  # at tables 1 and 2
    services.add_keep_apart(t, a.person, b.person, actor=actor, reason="siblings")
    assert not TournamentEvent.objects.filter(tournament=t, action="seating.keep_apart.unmet").exists()
    victim = next(e for e in Entry.objects.filter(tournament=t, status=Entry.ACTIVE) if e.pk not in (a.pk, b.pk))
    services.record_bust(t, [victim], actor=actor)
    assert table_of(t, a.pk) == table_of(t, b.pk)  # one table left
    flag = TournamentEvent.objects.get(tournament=t, action="seating.keep_apart.unmet")
    assert flag.payload["pairs"] == [{"table": table_of(t, a.pk), "entries": sorted([a.pk, b.pk])}]


def test_a_pair_of_one_person_or_twice_is_refused(make_tournament, actor):
    t = make_tournament()
    e1, e2 = add_entries(t, 2)
    with pytest.raises(DomainError) as exc:
        services.add_keep_apart(t, e1.person, e1.person, actor=actor)
    assert exc.value.code == "same_person"
    services.add_keep_apart(t, e1.person, e2.person, actor=actor)
    with pytest.raises(DomainError) as exc:
        services.add_keep_apart(t, e2.person, e1.person, actor=actor)
    assert exc.value.code == "pair_exists"
    pair = KeepApart.objects.get()
    services.remove_keep_apart(t, pair, actor=actor, reason="mistake")
    assert not KeepApart.objects.exists()


def test_a_reserved_seat_is_out_of_the_draw_and_its_player_sits_there(make_tournament, actor):
    t = make_tournament()
    entries = add_entries(t, 12)
    res = services.reserve_seat(t, entries[5], 2, 1, actor=actor, reason="wheelchair access")
    assert res.reason == "wheelchair access"
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert seat_map(t)[2][1] == entries[5].pk
    draw = TournamentEvent.objects.get(tournament=t, action="seating.draw.initial")
    assert draw.payload["reserved"] == [[entries[5].pk, 2, 1]]
    assert entries[5].pk not in [e for e, _t, _s in draw.payload["assignment"]]
    assert sum(len(s) for s in seat_map(t).values()) == 12


def test_a_reservation_needs_a_reason_and_a_free_seat(make_tournament, actor):
    t = make_tournament()
    e1, e2 = add_entries(t, 2)
    with pytest.raises(DomainError) as exc:
        services.reserve_seat(t, e1, 1, 1, actor=actor, reason=" ")
    assert exc.value.code == "reason_required"
    services.reserve_seat(t, e1, 1, 1, actor=actor, reason="near the exit")
    with pytest.raises(DomainError) as exc:
        services.reserve_seat(t, e2, 1, 1, actor=actor, reason="also")
    assert exc.value.code == "seat_reserved"
    with pytest.raises(DomainError) as exc:
        services.reserve_seat(t, e2, 1, 12, actor=actor, reason="too far")
    assert exc.value.code == "bad_seat"
    assert SeatReservation.objects.count() == 1


def test_the_tv_table_keeps_its_mark_and_pairs_are_kept_apart_around_it(started, actor):
    t = started(18)
    services.set_tv_table(t, 1, True, actor=actor, reason="feature")
    a, b = Entry.objects.filter(tournament=t).order_by("number")[:2]
    services.add_keep_apart(t, a.person, b.person, actor=actor)
    late = add_entries(t, 1)[0]
    services.add_keep_apart(t, late.person, a.person, actor=actor)
    services.seat_new_entry(t, late, actor)
    assert table_of(t, late.pk) != table_of(t, a.pk)
    assert Table.objects.get(tournament=t, number=1).tv


def test_balancing_passes_over_a_player_in_a_seat_given_by_hand():
    tables = [engine.Table(1, 9, {s: 10 + s for s in range(1, 10)}, 3, 2), engine.Table(2, 9, {s: 20 + s for s in range(1, 8)}, 3, 2)]
    assert [m.player for m in engine.plan_balance(tables, rng=random.Random(1))] == [14]  # the next big blind, seat 4
    moves = engine.plan_balance(tables, rng=random.Random(1), fixed={14})
    assert [(m.player, m.from_seat) for m in moves] == [(15, 5)]
    assert (engine.ReasonCode.MOVER_FIXED_SEAT, {"fixed_seat": 4, "seat": 5}) in [(c.code, c.params) for c in moves[0].reason.clauses()]


def test_a_reserved_player_keeps_his_seat_when_his_table_gives_a_player(make_tournament, actor):
    t = make_tournament()
    entries = add_entries(t, 17)  # 9 + 8
    services.reserve_seat(t, entries[0], 1, 5, actor=actor, reason="wheelchair")
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert seat_map(t)[1][5] == entries[0].pk
    services.set_big_blind(t, 1, 4, previous_big_blind_seat=3, actor=actor)  # seat 5 is the next big blind
    at2 = list(seat_map(t)[2].values())
    services.record_bust(t, at2[:1], actor=actor)  # 9 v 7: table 1 gives a player
    move = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    assert (move.from_table, move.from_seat) == (1, 6) and "given by hand" in move.reason_text


def test_a_seat_given_at_a_table_the_draw_does_not_open_does_not_stop_the_start(make_tournament, actor):
    t = make_tournament()
    entries = add_entries(t, 6)  # one table
    services.reserve_seat(t, entries[0], 3, 1, actor=actor, reason="quiet corner")
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert sorted(seat_map(t)) == [1] and sum(len(s) for s in seat_map(t).values()) == 6
    draw = TournamentEvent.objects.get(tournament=t, action="seating.draw.initial")
    assert draw.payload["reserved"] == []


def test_a_pair_added_while_they_sit_together_is_flagged_at_once(started, actor):
    t = started(10)
    arrange(t, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4, 5]}, big_blinds={1: (2, 1), 2: (2, 1)})
    a, b = list(Entry.objects.filter(tournament=t).order_by("number"))[:2]  # both at table 1
    services.add_keep_apart(t, a.person, b.person, actor=actor, reason="partners")
    flag = TournamentEvent.objects.get(tournament=t, action="seating.keep_apart.unmet")
    assert flag.payload["pairs"] == [{"table": 1, "entries": sorted([a.pk, b.pk])}]


def test_a_venue_wide_pair_added_while_a_tournament_runs_steers_its_next_late_seat(started, actor):
    t = started(18, table_size=10)  # 9 + 9, no constraint yet: the room never looked for any
    a = Entry.objects.filter(tournament=t).order_by("number").first()
    services.record_bust(t, [e for e in seat_map(t)[table_of(t, a.pk)].values() if e != a.pk][:1], actor=actor)  # 8 v 9
    late = add_entries(t, 1)[0]
    services.add_keep_apart(None, late.person, a.person, actor=actor, reason="partners", everywhere=True)
    services.seat_new_entry(t, late, actor)  # the pool is a's table (the shortest): not for his partner
    assert table_of(t, late.pk) != table_of(t, a.pk)
    assert sorted(len(s) for s in seat_map(t).values()) == [8, 10]  # balancing evens it out: a proposal
    move = PendingMove.objects.get(tournament=t, status=PendingMove.PROPOSED)
    assert move.to_table == table_of(t, a.pk)
    flagged = TournamentEvent.objects.filter(tournament=t, action="seating.keep_apart.unmet").exists()
    assert flagged == (move.entry_id == late.pk)  # only if the rule's mover is his partner, and then it says so


def test_while_running_a_seat_given_by_hand_moves_a_seated_player_or_is_held_for_a_late_one(started, actor):
    t = started(16, table_size=10)  # 8 + 8
    seats = seat_map(t)
    player = seats[1][min(seats[1])]
    free = next(s for s in range(1, 11) if s not in seats[2])
    services.reserve_seat(t, player, 2, free, actor=actor, reason="needs the seat by the aisle")
    assert seat_map(t)[2][free] == player  # moved there by hand, with his chips
    assert TournamentEvent.objects.filter(tournament=t, action="seating.player.moved", payload__entry=player).exists()
    late = add_entries(t, 1)[0]
    hold = next(s for s in range(1, 11) if s not in seat_map(t)[1])
    services.reserve_seat(t, late, 1, hold, actor=actor, reason="wheelchair")
    assert hold in Table.objects.get(tournament=t, number=1).locked_seats  # the pool cannot give it away
    services.seat_new_entry(t, late, actor)
    assert seat_map(t)[1][hold] == late.pk
    assert hold not in Table.objects.get(tournament=t, number=1).locked_seats


def test_a_held_seat_goes_back_to_the_pool_when_its_reservation_is_removed(started, actor):
    t = started(16, table_size=10)
    late = add_entries(t, 1)[0]
    hold = next(s for s in range(1, 11) if s not in seat_map(t)[2])
    res = services.reserve_seat(t, late, 2, hold, actor=actor, reason="hearing aid")
    assert hold in Table.objects.get(tournament=t, number=2).locked_seats
    services.remove_reservation(t, res, actor=actor, reason="not needed")
    assert hold not in Table.objects.get(tournament=t, number=2).locked_seats
    assert not SeatReservation.objects.exists()


def test_seat07_a_pair_added_through_the_api_while_they_sit_together_is_flagged_in_the_directors_name(started, api, director):
    t = started(10)
    arrange(t, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4, 5]}, big_blinds={1: (2, 1), 2: (2, 1)})
    a, b, c = list(Entry.objects.filter(tournament=t).order_by("number").select_related("person"))[:3]  # all at table 1
    url = f"/api/v1/tournaments/{t.pk}/seating/keep-apart/"
    r = api(director).post(url, {"person_a": a.person.pk, "person_b": b.person.pk, "reason": "partners"}, format="json")
    assert r.status_code == 201, r.data
    rows = [row for row in api(director).get(f"/api/v1/tournaments/{t.pk}/events/").json() if row["action"] == "seating.keep_apart.unmet"]
    assert [(row["actor_label"], row["sentence"], row["payload"]) for row in rows] == [
        (
            director.get_username(),
            "A keep-apart pair had to be seated at the same table",
            {"pairs": [{"table": 1, "entries": sorted([a.pk, b.pk])}], "added": True},
        )
    ]
    # someone the room does not know: refused in words, naming no one, and nothing added
    for person_a, person_b in ((a.person.pk, 999_999), (999_999, c.person.pk)):
        r = api(director).post(url, {"person_a": person_a, "person_b": person_b, "reason": "partners"}, format="json")
        assert (r.status_code, r.json()["code"], r.json()["detail"]) == (400, "unknown_person", "No such person.")
    assert KeepApart.objects.count() == 1


def test_a_late_player_sits_in_the_seat_held_for_him_and_the_log_says_it_was_given_by_hand(started, actor, api, director):
    t = started(16, table_size=10)
    entries = list(Entry.objects.filter(tournament=t).order_by("number"))
    arrange(t, {1: [1, 2, 3, 4, 5, 6, 7, 8], 2: [1, 2, 3, 4, 5, 6, 7, 8]}, big_blinds={1: (1, 8), 2: (5, 4)})
    Table.objects.filter(tournament=t, number=1).update(big_blind_twice=True)  # the big blind posts again alone
    services.record_bust(t, [entries[15]], actor=actor)  # table 2 seat 8 is out, 16th of 16
    assert Entry.objects.get(pk=entries[15].pk).place == 16
    late = add_entries(t, 1, names=["Wanda"])[0]
    services.reserve_seat(t, late, 1, 9, actor=actor, reason="wheelchair")
    services.seat_new_entry(t, late, actor)
    assert seat_map(t)[1][9] == late.pk
    table = Table.objects.get(tournament=t, number=1)
    # the table's blinds stay where they were; only the held seat's lock is lifted
    assert (table.big_blind_seat, table.previous_big_blind_seat, table.big_blind_twice, table.locked, table.locked_seats) == (1, 8, True, False, [])
    assert Entry.objects.get(pk=entries[15].pk).place == 17  # one more player in the field
    rows = [row for row in api(director).get(f"/api/v1/tournaments/{t.pk}/events/").json() if row["action"] == "seating.player.seated"]
    assert len(rows) == 1
    payload = rows[0]["payload"]
    # seat 9 lies between the next button (seat 8, the last big blind) and the small blind (seat 1): he waits for the button
    assert {k: payload[k] for k in ("entry", "name", "entry_number", "table", "seat", "new_table", "wait_for_button", "revived", "reserved", "reason")} == {
        "entry": late.pk,
        "name": "Wanda Test",
        "entry_number": 17,
        "table": 1,
        "seat": 9,
        "new_table": False,
        "wait_for_button": True,
        "revived": False,
        "reserved": True,
        "reason": {"code": "SEAT_RESERVED", "params": {"table": 1, "seat": 9}},
    }
    assert rows[0]["actor_label"] == actor.label


def test_a_busted_player_who_rebuys_sits_in_the_seat_held_for_him_and_his_bust_no_longer_counts(started, actor, cashier_actor):
    t = started(12, format=Tournament.REBUY, rebuy_price=100, rebuy_chips=30000, rebuy_until_level=4)
    arrange(t, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6]}, big_blinds={1: (2, 1), 2: (2, 1)})
    out = t.entries.get(number=3)  # table 1 seat 3
    services.record_bust(t, [out], actor=actor)
    assert Entry.objects.get(pk=out.pk).place == 12
    services.reserve_seat(t, out, 2, 8, actor=actor, reason="by the aisle")
    cashier.rebuy(Entry.objects.get(pk=out.pk), method="CASH", actor=cashier_actor)
    out.refresh_from_db()
    assert (out.status, out.place, seat_map(t)[2][8]) == (Entry.ACTIVE, None, out.pk)
    assert Bust.objects.get(entry=out).void == Bust.REBOUGHT
    seated = TournamentEvent.objects.get(tournament=t, action="seating.player.seated", payload__entry=out.pk)
    assert (seated.payload["revived"], seated.payload["reserved"], seated.payload["table"], seated.payload["seat"]) == (True, True, 2, 8)
    nxt = t.entries.get(number=4)
    services.record_bust(t, [nxt], actor=actor)
    assert Entry.objects.get(pk=nxt.pk).place == 12  # twelve players again: the next one out is twelfth


def test_the_seat_given_by_hand_at_a_table_of_four_a_table_start_is_kept(make_tournament, actor):
    t = make_tournament(settings={"start_players_per_table": 4})  # 9-max tables, eight players: two tables of four
    add_entries(t, 8)
    given = t.entries.order_by("number").last()
    services.reserve_seat(t, given, 2, 3, actor=actor, reason="wheelchair")
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert seat_map(t)[2][3] == given.pk
    start = t.events.get(action="seating.draw.initial")
    assert start.payload["reserved"] == [[given.pk, 2, 3]]  # not drawn: the seat given by hand (SEAT-07)


def unmet_flags(t) -> list:
    return [e.payload["pairs"] for e in TournamentEvent.objects.filter(tournament=t, action="seating.keep_apart.unmet").order_by("pk")]


def test_seat07_the_final_table_flags_the_pair_it_seats_together_once_and_not_a_pair_already_together(started, actor):
    """Ten players at three tables; one out forms the final table at table 1. The pair coming from
    tables 2 and 3 is flagged once; the pair already together at table 1 was flagged when it was
    added, and is not flagged again."""
    t = started(10)
    arrange(t, {1: [1, 2, 3, 4], 2: [1, 2, 3], 3: [1, 2, 3]}, big_blinds={1: (2, 1), 2: (2, 1), 3: (2, 1)})
    e = list(Entry.objects.filter(tournament=t).order_by("number"))  # 1–4 at table 1, 5–7 at 2, 8–10 at 3
    services.add_keep_apart(t, e[0].person, e[1].person, actor=actor, reason="spouses")
    services.add_keep_apart(t, e[4].person, e[7].person, actor=actor, reason="partners")
    assert unmet_flags(t) == [[{"table": 1, "entries": sorted([e[0].pk, e[1].pk])}]]
    out = services.record_bust(t, [e[2].pk], actor=actor)
    assert out.final_table == 1
    assert unmet_flags(t)[1:] == [[{"table": 1, "entries": sorted([e[4].pk, e[7].pk])}]]


def test_seat07_a_break_flags_the_player_who_can_only_sit_beside_a_partner(started, actor):
    """Table 1 (three left) breaks into tables 2 and 3; its first player is kept apart from a
    player at each: wherever he goes he sits beside a partner, and that is flagged."""
    t = started(17)
    arrange(t, {1: [1, 2, 3], 2: range(1, 8), 3: range(1, 8)}, big_blinds={1: (2, 1), 2: (2, 1), 3: (2, 1)})
    e = list(Entry.objects.filter(tournament=t).order_by("number"))  # 1–3 at table 1, 4–10 at 2, 11–17 at 3
    services.add_keep_apart(t, e[0].person, e[3].person, actor=actor, reason="partners")
    services.add_keep_apart(t, e[0].person, e[10].person, actor=actor, reason="partners")
    out = services.record_bust(t, [e[9].pk], actor=actor)
    assert out.broken == [1]
    there = table_of(t, e[0].pk)
    partner = e[3].pk if there == 2 else e[10].pk
    assert unmet_flags(t) == [[{"table": there, "entries": sorted([e[0].pk, partner])}]]


def test_seat07_a_balancing_move_that_must_seat_a_pair_together_is_flagged_with_its_slip(started, actor):
    """Ten at table 1, eight at table 2; whoever moves from table 1 is kept apart from the first
    player of table 2: the proposed move is flagged, naming the pair, the table and the slip."""
    t = started(18, table_size=10)
    arrange(t, {1: range(1, 11), 2: range(1, 9)}, big_blinds={1: (3, 2), 2: (5, 4)})
    e = list(Entry.objects.filter(tournament=t).order_by("number"))  # 1–10 at table 1, 11–18 at 2
    for player in e[:10]:
        services.add_keep_apart(t, player.person, e[10].person, actor=actor, reason="same club")
    services.set_big_blind(t, 1, 3, previous_big_blind_seat=2, actor=actor, reason="confirmed at the table")
    (move,) = PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED)
    assert move.to_table == 2
    assert unmet_flags(t) == [[{"table": 2, "entries": sorted([move.entry_id, e[10].pk]), "move": move.pk}]]


def test_seat07_a_balancing_move_sent_past_a_partners_table_replays_with_the_pair(started, actor):
    """Nine, seven and seven: table 1's next big blind would go to table 2, where his partner
    sits; he goes to table 3. The proposal's log keeps the pair, so the plan replays as made."""
    t = started(23)
    layout = arrange(t, {1: range(1, 10), 2: range(1, 8), 3: range(1, 8)}, big_blinds={1: (3, 2), 2: (3, 2), 3: (3, 2)})
    mover, partner = Entry.objects.get(pk=layout[1][4]), Entry.objects.get(pk=layout[2][5])
    services.add_keep_apart(t, mover.person, partner.person, actor=actor, reason="partners")
    services.set_big_blind(t, 1, 3, previous_big_blind_seat=2, actor=actor, reason="confirmed at the table")
    (move,) = PendingMove.objects.filter(tournament=t, status=PendingMove.PROPOSED)
    assert (move.entry_id, move.from_table, move.to_table) == (mover.pk, 1, 3)
    proposed = TournamentEvent.objects.get(tournament=t, action="seating.moves.proposed")
    assert proposed.payload["apart"] == [sorted([mover.pk, partner.pk])]
    assert replay.replay(proposed.action, proposed.payload).matches


def test_seat07_venue_wide_pairs_known_before_an_events_first_seating_keep_its_start_apart(make_tournament, actor):
    # The pairs are the venue's, added before this event ever seated anyone: its seat map is
    # created by the start's draw, and must know from the first draw that there are pairs to read.
    t = make_tournament()
    entries = add_entries(t, 16)
    pairs = [(entries[i], entries[i + 1]) for i in range(0, 12, 2)]
    for a, b in pairs:
        services.add_keep_apart(None, a.person, b.person, actor=actor, reason="partners", everywhere=True)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert sorted(len(seats) for seats in seat_map(t).values()) == [8, 8]
    assert [table_of(t, a.pk) != table_of(t, b.pk) for a, b in pairs] == [True] * 6
    assert not TournamentEvent.objects.filter(tournament=t, action="seating.keep_apart.unmet").exists()
