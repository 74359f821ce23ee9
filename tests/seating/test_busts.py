"""Eliminations and finishing places (ELM-01..06, RULES scenarios 3 and 6), hand-for-hand
grouping, the winner, undo, and a rolled-back change never remembered."""

from datetime import UTC, datetime

import pytest

from seating import selectors, services
from seating.models import Bust, PendingMove, Table
from tdmanager.errors import DomainError
from tdmanager.transactions import unit_of_work
from tournaments import signals
from tournaments.clock import services as clock_services
from tournaments.eventlog.services import Actor
from tournaments.models import Entry, Tournament, TournamentEvent
from tournaments.setup import lifecycle
from tournaments.signals import announce

from .test_support import add_entries, arrange, blinds, counts, seat_map, started  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def place(entry):
    return Entry.objects.get(pk=getattr(entry, "pk", entry)).place


def test_a_bust_records_who_where_when_and_the_place(started, actor):
    t = started(20)
    entry = t.entries.get(number=7)
    where = selectors.seat_of(entry)
    out = services.record_bust(t, [entry], actor=actor)
    entry.refresh_from_db()
    assert entry.status == Entry.BUSTED and entry.place == 20 and entry.busted_at is not None
    bust = Bust.objects.get(entry=entry)
    assert (bust.table_number, bust.seat_number, bust.reported_by, bust.place) == (where["table"], where["seat"], actor.user, 20)
    assert out.event.action == "seating.player.busted" and selectors.seat_of(entry) is None
    second = t.entries.get(number=8)
    services.record_bust(t, [second], actor=actor)
    assert place(second) == 19  # ELM-03: different tables or hands, by time


def test_scenario_6_two_out_on_one_hand_at_one_table_are_ranked_by_starting_stack(started, actor):
    t = started(60)
    a, b = list(seat_map(t)[3].values())[:2]
    out = services.record_bust(t, [{"entry": b, "starting_stack": 8000}, {"entry": a, "starting_stack": 12000}], actor=actor, table=3, same_hand=True)
    assert (place(a), place(b)) == (59, 60)
    assert {(x.entry_id, x.place, x.shared_with) for x in out.busts} == {(a, 59, 1), (b, 60, 1)}
    assert len({x.hand_group for x in out.busts}) == 1


def test_equal_or_unknown_starting_stacks_on_one_hand_share_the_better_place(started, actor):
    t = started(30)
    a, b = list(seat_map(t)[1].values())[:2]
    services.record_bust(t, [{"entry": a}, {"entry": b}], actor=actor, same_hand=True)
    assert place(a) == place(b) == 29
    assert set(Bust.objects.values_list("shared_with", flat=True)) == {2}
    c, d = list(seat_map(t)[2].values())[:2]
    services.record_bust(t, [{"entry": c, "starting_stack": 5000}, {"entry": d, "starting_stack": 5000}], actor=actor, same_hand=True)
    assert place(c) == place(d) == 27


def test_players_out_on_one_hand_must_be_at_one_table(started, actor):
    t = started(20)
    with pytest.raises(DomainError) as e:
        services.record_bust(t, [seat_map(t)[1][min(seat_map(t)[1])], seat_map(t)[2][min(seat_map(t)[2])]], actor=actor, same_hand=True)
    assert e.value.code == "same_hand_one_table"
    with pytest.raises(DomainError) as e:
        services.record_bust(t, [seat_map(t)[1][min(seat_map(t)[1])]], actor=actor, table=2)
    assert e.value.code == "not_at_table"


@pytest.fixture
def hand_for_hand(started, actor):
    def make(**kw):
        t = started(20, **kw)
        clock_services.start_clock(t, actor=actor)
        clock_services.start_hand_for_hand(t, actor=actor, reason="bubble")
        return t

    return make


def test_scenario_3_busts_in_one_hand_for_hand_hand_at_different_tables_share(hand_for_hand, actor):
    t = hand_for_hand()  # rule set TDA: SHARE (RP-8-A)
    a = seat_map(t)[1][min(seat_map(t)[1])]
    b = seat_map(t)[2][min(seat_map(t)[2])]
    c = seat_map(t)[3][min(seat_map(t)[3])]
    services.record_bust(t, [{"entry": a, "starting_stack": 4000}], actor=actor)
    assert place(a) == 20
    services.record_bust(t, [{"entry": b, "starting_stack": 9000}], actor=actor)
    services.record_bust(t, [{"entry": c, "starting_stack": 1000}], actor=actor)
    assert place(a) == place(b) == place(c) == 18  # all three tied for 18th–20th
    assert set(Bust.objects.filter(entry__in=[a, b, c]).values_list("h4h_hand", "shared_with")) == {(1, 3)}
    # Every table reports the hand complete: the next hand-for-hand hand is a new group.
    for number in selectors.table_numbers(t):
        services.hand_completed(t, number, actor=actor)
    d = seat_map(t)[1][max(seat_map(t)[1])]
    services.record_bust(t, [d], actor=actor)
    assert place(d) == 17 and place(a) == 18


def test_sanremo_ranks_hand_for_hand_busts_by_starting_stack(hand_for_hand, actor):
    t = hand_for_hand(rule_set="SANREMO_003")
    a = seat_map(t)[1][min(seat_map(t)[1])]
    b = seat_map(t)[2][min(seat_map(t)[2])]
    services.record_bust(t, [{"entry": a, "starting_stack": 4000}], actor=actor)
    services.record_bust(t, [{"entry": b, "starting_stack": 9000}], actor=actor)
    assert (place(b), place(a)) == (19, 20)
    c = seat_map(t)[3][min(seat_map(t)[3])]
    out = services.record_bust(t, [{"entry": c, "starting_stack": 6000}], actor=actor)
    assert (place(b), place(c), place(a)) == (18, 19, 20)
    services.undo_bust(t, out.busts[0], actor=actor, reason="wrong player")
    assert (place(b), place(c), place(a)) == (19, None, 20)  # the places recomputed keep the rule set's ranking


def test_hand_completed_reports_the_table_to_the_hand_for_hand_clock(hand_for_hand, actor):
    t = hand_for_hand()
    out = services.hand_completed(t, 1, actor=actor)
    assert out.hand_for_hand == {"hand": 1, "waiting": [2, 3], "next_hand_started": False, "hand_for_hand_ended": False}


def test_the_last_player_left_is_first_and_cannot_be_busted(started, actor):
    t = started(3)
    a, b, c = (e.pk for e in t.entries.order_by("number"))
    services.record_bust(t, [a], actor=actor)
    out = services.record_bust(t, [b], actor=actor)
    assert out.winner == c and place(c) == 1 and (place(b), place(a)) == (2, 3)
    assert [s["place"] for s in selectors.standings(t)] == [1, 2, 3]
    with pytest.raises(DomainError) as e:
        services.record_bust(t, [c], actor=actor)
    assert e.value.code == "last_player"
    services.undo_bust(t, Bust.objects.get(entry=b), actor=actor, reason="wrong player")
    assert place(c) is None and place(b) is None and place(a) == 3


def test_undo_restores_the_seat_map_exactly(started, actor):
    t = started(20)
    services.set_big_blind(t, 1, min(seat_map(t)[1]), actor=actor)
    before, positions = seat_map(t), blinds(t)
    entry = seat_map(t)[1][max(seat_map(t)[1])]
    out = services.record_bust(t, [entry], actor=actor)
    assert seat_map(t) != before
    services.undo_bust(t, out.busts[0], actor=actor, reason="misread the board")
    assert seat_map(t) == before and blinds(t) == positions
    e = Entry.objects.get(pk=entry)
    assert (e.status, e.place, e.busted_at) == (Entry.ACTIVE, None, None)
    assert Bust.objects.get(pk=out.busts[0].pk).void == Bust.UNDONE
    assert TournamentEvent.objects.get(tournament=t, action="seating.bust.undone").payload["reason"] == "misread the board"
    with pytest.raises(DomainError) as e:
        services.undo_bust(t, out.busts[0], actor=actor)
    assert e.value.code == "already_void"


def test_undoing_a_bust_that_broke_a_table_puts_the_table_back(started, actor):
    t = started(21, table_size=10)
    arrange(t, {1: range(1, 9), 2: range(1, 9), 3: range(1, 6)}, big_blinds={1: (1, 8), 2: (2, 1), 3: (1, 5)})
    before, positions = seat_map(t), blinds(t)
    out = services.record_bust(t, [seat_map(t)[3][2]], actor=actor)  # 4 left at table 3: the 4 open seats take them
    assert out.broken == [3] and counts(t) == {1: 10, 2: 10}
    services.undo_bust(t, out.busts[0], actor=actor, reason="wrong table")
    assert seat_map(t) == before and blinds(t) == positions
    assert Table.objects.get(tournament=t, number=3).in_play
    slips = PendingMove.objects.filter(tournament=t, kind=PendingMove.BREAK)
    assert slips.count() == 4 and set(slips.values_list("status", flat=True)) == {PendingMove.UNDONE}


def test_undo_is_refused_once_the_table_has_changed(started, actor):
    t = started(20)
    entry = seat_map(t)[1][min(seat_map(t)[1])]
    out = services.record_bust(t, [entry], actor=actor)
    mover = seat_map(t)[2][min(seat_map(t)[2])]
    free = next(s for s in range(1, 10) if s not in seat_map(t)[1])
    services.move_player(t, mover, 1, free, actor=actor, reason="wrong seat (SEAT-06)")
    with pytest.raises(DomainError) as e:
        services.undo_bust(t, out.busts[0], actor=actor)
    assert e.value.code == "seat_map_changed" and "1" in str(e.value.message)


def test_a_player_removed_by_a_penalty_is_out_in_order_of_removal(started, actor):
    t = started(12)
    entry = t.entries.get(number=2)
    announce(signals.entry_removed, t, actor, entry=entry, reason="DISQUALIFICATION")  # as the penalty service does
    entry.refresh_from_db()
    assert entry.status == Entry.BUSTED and entry.place == 12 and selectors.seat_of(entry) is None
    assert Bust.objects.get(entry=entry).kind == Bust.REMOVED


def test_a_rolled_back_change_is_never_remembered(started, actor):
    t = started(20)
    before = seat_map(t)
    entry = seat_map(t)[1][min(seat_map(t)[1])]
    with pytest.raises(RuntimeError, match="the desk crashed"), unit_of_work():
        services.record_bust(t, [entry], actor=actor)
        raise RuntimeError("the desk crashed")
    assert seat_map(t) == before
    services.record_bust(t, [entry], actor=actor)  # the player is seated again in the services' eyes too
    assert place(entry) == 20 and sum(counts(t).values()) == 19


def test_a_satellite_is_told_after_every_bust(started, actor, monkeypatch):
    from payouts import services as payout_services

    calls = []
    monkeypatch.setattr(payout_services, "after_bust", lambda t, actor: calls.append(t.pk))
    t = started(10, format="SATELLITE")
    services.record_bust(t, [t.entries.get(number=1)], actor=actor)
    assert calls == [t.pk]


def test_a_second_hand_for_hand_session_does_not_join_the_first_ones_hand(hand_for_hand, actor):
    t = hand_for_hand()
    a = seat_map(t)[1][min(seat_map(t)[1])]
    services.record_bust(t, [a], actor=actor)  # hand-for-hand hand 1
    clock_services.end_hand_for_hand(t, actor=actor)
    b = seat_map(t)[2][min(seat_map(t)[2])]
    services.record_bust(t, [b], actor=actor)  # normal play
    clock_services.start_hand_for_hand(t, actor=actor)  # hand 1 again
    c = next(iter(seat_map(t)[1].values()))
    services.record_bust(t, [c], actor=actor)
    assert (place(a), place(b), place(c)) == (20, 19, 18)
    services.recompute_places(t)
    assert (place(a), place(b), place(c)) == (20, 19, 18)


def test_the_last_two_out_marked_simultaneous_share_second_and_the_winner_stays_first(started, actor):
    t = started(3, table_size=2)
    tables = seat_map(t)
    lone = next(n for n, seats in tables.items() if len(seats) == 1)
    a = tables[lone][min(tables[lone])]
    services.record_bust(t, [a], actor=actor)
    b, c = sorted(e for seats in seat_map(t).values() for e in seats.values())
    services.record_bust(t, [b], actor=actor)
    assert (place(a), place(b), place(c)) == (3, 2, 1)
    busts = list(Bust.objects.filter(entry_id__in=[a, b]))
    assert len({x.table_number for x in busts}) == 2  # out at different tables
    services.mark_simultaneous(t, busts, actor=actor, reason="called out together")
    assert (place(a), place(b), place(c)) == (2, 2, 1)  # the winner keeps his first place
    assert [s["place"] for s in selectors.standings(t)] == [1, 2, 2]


@pytest.mark.parametrize("status", ["FINISHED", "CANCELLED"])
def test_an_ended_tournaments_busts_can_no_longer_be_undone(started, actor, status):
    t = started(20)
    out = services.record_bust(t, [seat_map(t)[1][min(seat_map(t)[1])]], actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=status)
    with pytest.raises(DomainError) as e:
        services.undo_bust(t, out.busts[0], actor=actor)
    assert (e.value.code, str(e.value.message)) == ("tournament_closed", "This tournament has ended: its busts and moves can no longer be undone.")
    assert Bust.objects.get(pk=out.busts[0].pk).void == "" and place(out.busts[0].entry_id) == 20


def test_a_bust_undone_already_is_refused_saying_so(started, actor):
    t = started(20)
    out = services.record_bust(t, [seat_map(t)[1][min(seat_map(t)[1])]], actor=actor)
    services.undo_bust(t, out.busts[0], actor=actor)
    with pytest.raises(DomainError) as e:
        services.undo_bust(t, out.busts[0], actor=actor)
    assert (e.value.code, str(e.value.message)) == ("already_void", "This bust has already been undone or bought back.")


def test_a_player_tapped_out_again_is_told_who_recorded_him_where_and_when(started, make_tournament, actor):
    """ELM-01: the second tablet is told about the bust of the player it tapped, not the latest
    bust of the room; a bust the clock recorded (no one signed it) is told without a name, and a
    player who also plays another event is not sent to his seat there as if he had re-entered."""
    t = started(30)  # four tables, none broken by two busts
    a = seat_map(t)[1][min(seat_map(t)[1])]
    b = seat_map(t)[2][min(seat_map(t)[2])]
    side = make_tournament(name="Side event")  # a's player sits in a side event too
    Entry.objects.create(tournament=side, person=Entry.objects.get(pk=a).person, number=1, status=Entry.ACTIVE, chips=side.starting_stack)
    add_entries(side, 9)
    lifecycle.start(side, actor=actor, prestart_report_sent=True)
    services.record_bust(t, [a], actor=actor, now=datetime(2026, 3, 14, 20, 35, tzinfo=UTC))  # 21:35 in Rome
    services.record_bust(t, [b], actor=actor, now=datetime(2026, 3, 14, 20, 41, tzinfo=UTC))
    c = seat_map(t)[3][min(seat_map(t)[3])]
    services.record_bust(t, [c], actor=Actor(None, "clock"), now=datetime(2026, 3, 14, 20, 50, tzinfo=UTC))
    first, by_clock = Entry.objects.get(pk=a), Entry.objects.get(pk=c)

    with pytest.raises(DomainError) as e:
        services.record_bust(t, [a], actor=actor)
    assert e.value.as_dict() == {
        "code": "already_out",
        "detail": f"{first.person.full_name} (#{first.number}) was already out at 21:35, recorded at table 1 by dora.",
        "entry": a,
        "busted_at": "2026-03-14T20:35:00+00:00",
        "table": 1,
        "reported_by": "dora",
        "bust": Bust.objects.get(entry=a).pk,
    }
    with pytest.raises(DomainError) as e:
        services.record_bust(t, [c], actor=actor, table=3)
    assert (e.value.code, str(e.value.message), e.value.extra["reported_by"]) == (
        "already_out",
        f"{by_clock.person.full_name} (#{by_clock.number}) was already out at 21:50, recorded at table 3.",
        "",
    )


def test_a_player_bought_back_in_leaves_the_others_out_in_their_places(started, actor, cashier_actor):
    """ELM-01: a rebuy after his bust voids his bust only; the player out after him moves down to
    the last place, and the busts of another event running beside it are not touched."""
    from tournaments.cashier import services as cashier

    side = started(10)
    lone = seat_map(side)[1][min(seat_map(side)[1])]
    services.record_bust(side, [lone], actor=actor)
    t = started(20, format=Tournament.REBUY, rebuy_price=100, rebuy_chips=30000, rebuy_until_level=4)
    a = seat_map(t)[1][min(seat_map(t)[1])]
    b = seat_map(t)[2][min(seat_map(t)[2])]
    services.record_bust(t, [a], actor=actor)
    services.record_bust(t, [b], actor=actor)
    assert (place(a), place(b)) == (20, 19)

    cashier.rebuy(Entry.objects.get(pk=a), method="CASH", actor=cashier_actor)

    assert Entry.objects.get(pk=a).status == Entry.ACTIVE and place(a) is None
    assert [(s["entry"], s["place"]) for s in selectors.standings(t)] == [(b, 20)]
    assert Bust.objects.get(entry=b).void == "" and Bust.objects.get(entry=a).void == Bust.REBOUGHT
    assert place(lone) == 10 and [s["place"] for s in selectors.standings(side)] == [10]


def test_players_banned_once_seated_or_out_still_count_in_the_field(started, actor):
    """REG-05 keeps out of the field only a paid entry of a banned person that never sat down:
    one banned while playing plays on, one banned after his bust keeps his place, and the
    places recomputed after an undo count them both."""
    from tournaments.models import Person

    t = started(20)
    playing = seat_map(t)[1][min(seat_map(t)[1])]
    out = seat_map(t)[2][min(seat_map(t)[2])]
    undone = seat_map(t)[3][min(seat_map(t)[3])]
    services.record_bust(t, [out], actor=actor)
    last = services.record_bust(t, [undone], actor=actor).busts[0]
    Person.objects.filter(entries__pk__in=[playing, out]).update(banned=True)

    services.undo_bust(t, last, actor=actor, reason="wrong player")

    assert (place(out), place(undone), place(playing)) == (20, None, None)
    assert [(s["entry"], s["place"]) for s in selectors.standings(t)] == [(out, 20)]


def test_a_rebuy_taken_back_puts_his_bust_back_and_the_last_one_left_wins(started, actor, cashier_actor):
    """ELM-01: three players, the first out rebought and the second went out; his rebuy is taken
    back (sold by mistake): he is out again in his first place in the order, and the one player
    left is first."""
    from tournaments.cashier import services as cashier
    from tournaments.models import LedgerRow

    t = started(3, format=Tournament.REBUY, rebuy_price=100, rebuy_chips=30000, rebuy_until_level=4)
    a, b, c = (e.pk for e in t.entries.order_by("number"))
    services.record_bust(t, [a], actor=actor)
    sale = cashier.rebuy(Entry.objects.get(pk=a), method="CASH", actor=cashier_actor)
    services.record_bust(t, [b], actor=actor)
    assert (place(a), place(b), place(c)) == (None, 3, None)

    cashier.reverse(LedgerRow.objects.get(pk=sale.row.pk), reason="sold to the wrong player", actor=cashier_actor)

    assert (place(a), place(b), place(c)) == (3, 2, 1)
    assert [(s["entry"], s["place"]) for s in selectors.standings(t)] == [(c, 1), (b, 2), (a, 3)]
