"""SEAT-01 / SEAT-04 manual draws (``draw_mode`` MANUAL): printed seat cards, the floor enters
who drew which card; the start and a table break's two steps, logged as the electronic draw."""

import pytest

from seating import replay, selectors, services
from seating.models import Bust, ManualDraw, PendingMove, Table
from tdmanager.errors import DomainError
from tournaments.draws import RNG_NAME
from tournaments.models import Entry, TournamentEvent
from tournaments.setup import lifecycle

from .test_support import add_entries, seat_map

pytestmark = pytest.mark.django_db


def manual(make_tournament, n, **kw):
    t = make_tournament(settings={"draw_mode": "MANUAL"}, **kw)
    entries = add_entries(t, n)
    return t, entries


def started_by_hand(make_tournament, actor, n, **kw):
    """A tournament of ``n`` started with a manual draw, every card entered as drawn."""
    t, entries = manual(make_tournament, n, **kw)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    d = ManualDraw.objects.get(tournament=t)
    for entry, (table, seat) in zip(entries, d.cards):
        services.enter_card(t, entry, table, seat, actor=actor)
    return t, entries


def test_a_manual_start_prints_cards_and_seats_the_players_on_the_cards_they_drew(make_tournament, actor):
    t, entries = manual(make_tournament, 12)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert seat_map(t) == {}  # nobody sits before the cards are entered
    d = ManualDraw.objects.get(tournament=t, status=ManualDraw.OPEN)
    assert len(d.cards) == 12 and sorted(map(tuple, d.cards)) == sorted({tuple(c) for c in d.cards})
    cards = [tuple(c) for c in reversed(d.cards)]  # the players drew them in reverse order
    for entry, (table, seat) in zip(entries[:-1], cards[:-1]):
        assert services.enter_card(t, entry, table, seat, actor=actor) is None
    assert seat_map(t) == {}
    out = services.enter_card(t, entries[-1], *cards[-1], actor=actor)
    assert out is not None
    got = seat_map(t)
    for entry, (table, seat) in zip(entries, cards):
        assert got[table][seat] == entry.pk
    draw = TournamentEvent.objects.get(tournament=t, action="seating.draw.initial")
    assert draw.payload["mode"] == "MANUAL"
    assert draw.payload["assignment"] == sorted([[e.pk, tb, s] for e, (tb, s) in zip(entries, cards)])
    assert set(draw.payload["buttons"]) == {str(n) for n in got}
    assert ManualDraw.objects.get(pk=d.pk).status == ManualDraw.DONE


def test_a_card_is_drawn_once_and_only_cards_of_the_draw_are_accepted(make_tournament, actor):
    t, entries = manual(make_tournament, 4)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    d = ManualDraw.objects.get(tournament=t)
    (t1, s1), (t2, s2) = d.cards[0], d.cards[1]
    services.enter_card(t, entries[0], t1, s1, actor=actor)
    with pytest.raises(DomainError) as exc:
        services.enter_card(t, entries[1], t1, s1, actor=actor)
    assert exc.value.code == "card_taken"
    with pytest.raises(DomainError) as exc:
        services.enter_card(t, entries[1], 7, 9, actor=actor)
    assert exc.value.code == "not_a_card"
    with pytest.raises(DomainError) as exc:
        services.enter_card(t, entries[0], t2, s2, actor=actor)
    assert exc.value.code == "card_entered"
    services.clear_card(t, entries[0], actor=actor, reason="misread")
    services.enter_card(t, entries[0], t2, s2, actor=actor)
    assert ManualDraw.objects.get(pk=d.pk).assigned[str(entries[0].pk)] == {"table": t2, "seat": s2}
    with pytest.raises(DomainError) as exc:
        services.draw(t, actor=actor)
    assert exc.value.code == "manual_draw_open"


def broken_table_three(make_tournament, actor):
    """18 players at three 6-max tables, drawn by hand; 2 + 1 + 3 busts: table 3 (3 left)
    is due to break into the 3 open seats of tables 1 and 2."""
    t, entries = started_by_hand(make_tournament, actor, 18, table_size=6)
    seats = seat_map(t)
    at = {n: list(seats[n].values()) for n in seats}
    services.record_bust(t, at[1][:2] + at[2][:1] + at[3][:3], actor=actor)
    return t, at[3]


def test_a_manual_break_holds_the_seat_cards_and_applies_both_steps_the_floor_entered(make_tournament, actor):
    t, at2 = broken_table_three(make_tournament, actor)
    brk = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK, status=ManualDraw.OPEN)
    assert brk.table == 3 and len(brk.cards) == 3 and {c[0] for c in brk.cards} == {1, 2}
    assert sorted(seat_map(t)[3].values()) == sorted(at2[3:])  # they wait at their table
    movers = at2[3:]
    high = ["2♣", "A♠", "KH"]  # the second mover has the highest card
    for entry, (table, seat), card in zip(movers, brk.cards, high):
        services.enter_card(t, entry, table, seat, card=card, actor=actor)
    assert 3 not in seat_map(t)
    for entry, (table, seat) in zip(movers, brk.cards):
        assert seat_map(t)[table][seat] == entry
    broken = TournamentEvent.objects.get(tournament=t, action="seating.table.broken")
    assert broken.payload["mode"] == "MANUAL"
    assert broken.payload["card_order"] == [[movers[1], "A♠"], [movers[2], "K♥"], [movers[0], "2♣"]]
    assert broken.payload["seat_order"] == [brk.cards[1], brk.cards[2], brk.cards[0]]
    slips = PendingMove.objects.filter(tournament=t, kind=PendingMove.BREAK)
    assert {(s.entry_id, s.to_table, s.to_seat) for s in slips} == {(e, c[0], c[1]) for e, c in zip(movers, brk.cards)}


def test_a_break_card_must_be_a_playing_card_and_unique(make_tournament, actor):
    t, at2 = broken_table_three(make_tournament, actor)
    brk = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK)
    with pytest.raises(DomainError) as exc:
        services.enter_card(t, at2[3], *brk.cards[0], card="XZ", actor=actor)
    assert exc.value.code == "bad_card"
    services.enter_card(t, at2[3], *brk.cards[0], card="as", actor=actor)
    with pytest.raises(DomainError) as exc:
        services.enter_card(t, at2[4], *brk.cards[1], card="A♠", actor=actor)
    assert exc.value.code == "card_taken"
    assert Entry.objects.filter(tournament=t, status=Entry.ACTIVE).count() == 12


def test_the_draw_history_says_the_seat_was_drawn_by_hand(make_tournament, actor, client, director):
    t, entries = manual(make_tournament, 3)
    services.reserve_seat(t, entries[2], 1, 9, actor=actor, reason="wheelchair")
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    d = ManualDraw.objects.get(tournament=t)
    assert len(d.cards) == 2 and [1, 9] not in d.cards  # the reserved seat is not a card
    for entry, (table, seat) in zip(entries, d.cards):
        services.enter_card(t, entry, table, seat, actor=actor)
    assert seat_map(t)[1][9] == entries[2].pk
    client.force_login(director)
    page = client.get(f"/tournaments/{t.pk}/tables/draws/{entries[0].pk}/").content.decode()
    assert 'class="draw-manual"' in page and "shuffled by the computer" not in page
    page = client.get(f"/tournaments/{t.pk}/tables/draws/{entries[2].pk}/").content.decode()
    assert 'class="draw-reserved"' in page and "table 1, seat 9" in page


def test_a_manual_break_whose_bust_is_undone_is_void_and_replaced_when_the_table_is_due_again(make_tournament, actor):
    t, at3 = broken_table_three(make_tournament, actor)
    brk = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK)
    bust = Bust.objects.filter(tournament=t, void="").order_by("order").first()
    services.undo_bust(t, bust, actor=actor, reason="wrong player")
    assert not Table.objects.get(tournament=t, number=3).locked  # the tables are as before the bust
    with pytest.raises(DomainError) as exc:
        services.enter_card(t, at3[3], *brk.cards[0], card="AS", actor=actor)
    assert exc.value.code == "manual_draw_stale"
    assert selectors.manual_draws(t) == []  # nothing left to enter
    # When the table is due again, a new draw replaces the void one.
    undone = list(Bust.objects.filter(tournament=t, void=Bust.UNDONE).order_by("order").values_list("entry_id", flat=True))
    services.record_bust(t, undone, actor=actor)
    assert ManualDraw.objects.get(pk=brk.pk).status == ManualDraw.CANCELLED
    assert ManualDraw.objects.filter(tournament=t, kind=ManualDraw.BREAK, status=ManualDraw.OPEN, table=3).count() == 1


def test_a_manual_redraw_cancels_the_cards_printed_before_and_logs_the_new_cards_with_its_reason(make_tournament, actor, api, director):
    t, entries = manual(make_tournament, 12)
    t.settings = {"draw_mode": "MANUAL", "start_players_per_table": 5}
    t.save(update_fields=["settings"])
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    first = ManualDraw.objects.get(tournament=t, status=ManualDraw.OPEN)
    services.draw(t, actor=actor, redraw=True, reason="cards mixed up")
    first.refresh_from_db()
    assert first.status == ManualDraw.CANCELLED and first.done_at is not None
    again = ManualDraw.objects.get(tournament=t, status=ManualDraw.OPEN)
    # at most five a table at the start: twelve players on three tables of four
    tables = sorted(tb for tb, _s in again.cards)
    assert tables == [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    rows = [row for row in api(director).get(f"/api/v1/tournaments/{t.pk}/events/").json() if row["action"] == "seating.manual_draw.opened"]
    assert len(rows) == 2
    row = max(rows, key=lambda r: r["id"])
    assert row["actor_label"] == actor.label
    assert {k: row["payload"][k] for k in ("kind", "players", "reserved", "redraw", "reason")} == {
        "kind": "INITIAL",
        "players": [e.pk for e in entries],
        "reserved": [],
        "redraw": True,
        "reason": "cards mixed up",
    }
    assert sorted(map(tuple, row["payload"]["cards"])) == sorted(map(tuple, again.cards))


def test_a_manual_start_leaves_another_events_open_seat_cards_alone(make_tournament, actor):
    first, entries = manual(make_tournament, 6, name="Main Event")
    lifecycle.start(first, actor=actor, prestart_report_sent=True)
    other, _ = manual(make_tournament, 6, name="Side Event")
    lifecycle.start(other, actor=actor, prestart_report_sent=True)
    d = ManualDraw.objects.get(tournament=first)
    assert d.status == ManualDraw.OPEN and [x["id"] for x in selectors.manual_draws(first)] == [d.pk]
    for entry, (table, seat) in zip(entries, d.cards, strict=True):
        services.enter_card(first, entry, table, seat, actor=actor)
    assert {e for seats in seat_map(first).values() for e in seats.values()} == {e.pk for e in entries}


def test_a_manual_redraw_leaves_the_cards_already_applied_as_done(make_tournament, actor):
    t, entries = manual(make_tournament, 3)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    d = ManualDraw.objects.get(tournament=t)
    for entry, (table, seat) in zip(entries, d.cards, strict=True):
        services.enter_card(t, entry, table, seat, actor=actor)
    applied = ManualDraw.objects.get(pk=d.pk)
    services.draw(t, actor=actor, redraw=True, reason="the cards were shown before the draw")
    [shown] = selectors.manual_draws(t, draw_id=d.pk)  # its cards printed again by its number
    assert shown["status"] == ManualDraw.DONE
    assert ManualDraw.objects.get(pk=d.pk).done_at == applied.done_at
    assert ManualDraw.objects.filter(tournament=t, status=ManualDraw.OPEN).count() == 1


def test_seat04_a_manual_break_holds_the_seat_cards_it_chose_among_more_open_seats_and_logs_them(make_tournament, actor):
    """Table 3 (three left) breaks into four open seats, two at table 1 and two at table 2: the
    machine chooses three seat cards (step 1) and holds those seats, and the breaking table, until
    the floor has entered the cards; the opening is logged in the director's name with the
    players who draw, the cards and the random source, and replays."""
    t, entries = started_by_hand(make_tournament, actor, 18, table_size=6)
    seats = seat_map(t)
    at = {n: [seats[n][s] for s in sorted(seats[n])] for n in seats}
    services.record_bust(t, at[1][:2] + at[2][:2] + at[3][:3], actor=actor)  # 4, 4 and 3 left
    brk = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK, status=ManualDraw.OPEN)
    assert brk.table == 3 and len(brk.cards) == 3
    open_seats = {(n, s) for n in (1, 2) for s in range(1, 7) if s not in seat_map(t)[n]}
    assert len(open_seats) == 4 and {tuple(c) for c in brk.cards} < open_seats
    page = {table["number"]: table for table in selectors.table_map(t)["tables"]}
    for n in (1, 2):
        assert page[n]["locked_seats"] == sorted(s for tb, s in brk.cards if tb == n)
    assert page[3]["locked"] is True and page[3]["players"] == 3
    opened = TournamentEvent.objects.get(tournament=t, action="seating.manual_draw.opened", payload__kind="BREAK")
    assert opened.actor_label == actor.label
    assert {k: opened.payload[k] for k in ("kind", "table", "cards", "players", "rng")} == {
        "kind": "BREAK",
        "table": 3,
        "cards": brk.cards,
        "players": at[3][3:],
        "rng": RNG_NAME,
    }
    assert replay.replay(opened.action, opened.payload).matches


def test_bal09_the_final_table_ends_a_manual_break_still_open(make_tournament, actor):
    """Table 3's break by hand is still open (no card entered) when six more players go out at
    tables 1 and 2: the six left form the final table (6-max), everybody drawn again. The break's draw is over: a card
    entered for it is refused as for a player with no draw, not as a void break."""
    t, at3 = broken_table_three(make_tournament, actor)
    brk = ManualDraw.objects.get(tournament=t, kind=ManualDraw.BREAK, status=ManualDraw.OPEN)
    seats = seat_map(t)
    out = services.record_bust(t, list(seats[1].values())[:3] + list(seats[2].values())[:3], actor=actor)
    assert out.final_table is not None and sorted(seat_map(t)[out.final_table].values()) == sorted(
        list(seats[1].values())[3:] + list(seats[2].values())[3:] + at3[3:]
    )
    assert ManualDraw.objects.get(pk=brk.pk).status == ManualDraw.CANCELLED
    with pytest.raises(DomainError) as exc:
        services.enter_card(t, at3[3], *brk.cards[0], card="AS", actor=actor)
    assert (exc.value.code, str(exc.value.message)) == ("not_in_draw", "This player has no card to draw in an open manual draw.")
