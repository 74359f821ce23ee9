"""Issue #15: live screens cost the same whatever the field.

The lobby snapshot carries what a lobby shows (clock, blinds, stats, payouts, announcements,
the first moves) in under 16 KiB and the same number of queries at 50 and at 2,000 seated
players; the rotating seat lookup pages through ``/live/<pk>/seats/``, whose ``seats_version``
changes when somebody is seated, moved or out, and not when the clock ticks or a hand is played.
"""

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from seating import services as seating
from seating.models import PendingMove, Seat
from tests.seating.test_support import add_entries
from tournaments.clock import services as clock_services
from tournaments.live.snapshot import MAX_ANNOUNCEMENTS, build_snapshot
from tournaments.models import DisplayScreen, LedgerRow
from tournaments.people.names import public_name
from tournaments.phone.views import phone_state
from tournaments.setup import lifecycle

pytestmark = pytest.mark.django_db

LIMIT = 16 * 1024


def running(make_tournament, actor, n, **kw):
    """A running tournament of ``n`` paid, seated players with its clock started (rows in bulk,
    then the real start, which draws the seats)."""
    t = make_tournament(**kw)
    entries = add_entries(t, n)
    LedgerRow.objects.bulk_create(
        [
            LedgerRow(
                tournament=t,
                entry=e,
                person_id=e.person_id,
                kind=LedgerRow.BUY_IN,
                prize_amount=t.buy_in,
                fee_amount=t.fee,
                chips=t.starting_stack,
                receipt_number=10**9 + t.pk * 10**5 + i,
            )
            for i, e in enumerate(entries)
        ],
        batch_size=1000,
    )
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    clock_services.start_clock(t, actor=actor)
    t.refresh_from_db()
    return t


def built(t):
    with CaptureQueriesContext(connection) as ctx:
        snap = build_snapshot(t.pk)
    return snap, len(ctx.captured_queries), len(json.dumps(snap, default=str).encode())


def test_the_snapshot_is_small_and_costs_the_same_queries_at_50_and_at_2000_players(make_tournament, actor):
    small = running(make_tournament, actor, 50, name="Small")
    big = running(make_tournament, actor, 2000, name="Big")
    build_snapshot(small.pk), build_snapshot(big.pk)  # warm: the structure's cache, the house rules
    s, s_queries, s_size = built(small)
    b, b_queries, b_size = built(big)
    assert b_queries == s_queries, (s_queries, b_queries)
    assert s_size < LIMIT and b_size < LIMIT, (s_size, b_size)
    # ... and it still says what a lobby shows about the big field.
    assert (b["players_left"], b["entries"], b["tables_in_play"]) == (2000, 2000, 223)
    assert b["average_stack"] == big.starting_stack and b["chips_in_play"] == 2000 * big.starting_stack
    assert b["prize_pool"] == "200000.00" and b["places_paid"] > 200 and b["payouts"][0]["places"] == "1"
    assert b["payout_bands"] >= len(b["payouts"]) and b["seats_version"] > 0
    assert b["clock"]["status"] == "RUNNING" and b["lobby_state"] == "running"
    assert "seats" not in b and "tables" not in b  # the seats are paged (/live/<pk>/seats/)

    # A player's phone gets its own seat from its own query, the same cost in either field.
    def phone(t, snap):
        seat = Seat.objects.filter(tournament=t).select_related("table").order_by("-entry_id").first()
        with CaptureQueriesContext(connection) as ctx:
            state = phone_state(seat.entry_id, snap)
        assert state["seat"] == {"table": seat.table.number, "seat": seat.number} and "seats" not in state
        return len(ctx.captured_queries)

    assert phone(small, s) == phone(big, b)


def test_what_could_grow_is_capped_and_counted(make_tournament, actor):
    t = running(make_tournament, actor, 60)
    seated = list(Seat.objects.filter(tournament=t).values_list("entry_id", "table__number", "number")[:40])
    PendingMove.objects.bulk_create(
        [PendingMove(tournament=t, entry_id=e, from_table=table, from_seat=seat, to_table=1, to_seat=1) for e, table, seat in seated]
    )
    for i in range(MAX_ANNOUNCEMENTS + 3):
        DisplayScreen.objects.create(name=f"TV {i}", tournament=t, token=f"cap-{i}", announcement=f"Notice {i:02d} " + "x" * 280)
    snap, _queries, size = built(t)
    assert len(snap["moves"]) == 30 and snap["moves_pending"] == 40
    assert snap["announcements"][:MAX_ANNOUNCEMENTS] == [f"Notice {i:02d} " + "x" * 280 for i in range(MAX_ANNOUNCEMENTS)]
    assert size < LIMIT


def test_the_snapshot_reads_the_field_and_the_side_pools_once_and_the_formats_with_the_tournament(make_tournament, actor):
    """A running event's snapshot is rebuilt after every change: what one part has read, the
    others do not read again (the field's count, the side pools), and the event formats' links
    come with the tournament's row. The figures are the ones the payouts page shows."""
    from decimal import Decimal

    from payouts import selectors as payouts
    from payouts.models import SidePool

    t = running(make_tournament, actor, 60)
    SidePool.objects.create(tournament=t, kind=SidePool.CHIP_LEADER, name="Chip leader", key="cl", from_ledger=False, from_prize_pool=Decimal("50"))
    build_snapshot(t.pk)  # warm: the structure's cache

    with CaptureQueriesContext(connection) as ctx:
        snap = build_snapshot(t.pk)
    sql = [q["sql"] for q in ctx.captured_queries]

    def reading(table):
        return [q for q in sql if f'FROM "{table}"' in q]

    assert len([q for q in reading("tournaments_entry") if "COUNT(" in q]) == 1, reading("tournaments_entry")
    assert len(reading("payouts_sidepool")) == 1, reading("payouts_sidepool")
    assert reading("formats_multidayevent") == reading("formats_flight") == [], sql
    page = payouts.display_summary(t)  # the payouts page's own reads, each on its own
    assert snap["entries"] == 60 and snap["places_paid"] == page["places_paid"] == 9
    assert snap["prize_pool"] == page["prize_pool"] == "5950.00"  # 60 × 100 less the chip leader's 50
    assert [p["name"] for p in snap["side_pools"]] == ["Chip leader"] and snap["payouts"] == page["payouts"]

    # PAY-04 counting players: the field is not the entries the snapshot counted.
    person = t.entries.order_by("pk").first().person_id
    t.entries.filter(pk__in=list(t.entries.order_by("pk").values_list("pk", flat=True)[1:21])).update(person_id=person)
    t.settings = {**(t.settings or {}), "places_paid_counts": "PLAYERS"}
    t.save(update_fields=["settings"])
    snap = build_snapshot(t.pk)
    assert snap["entries"] == 60 and snap["places_paid"] == payouts.display_summary(t)["places_paid"] == 6  # 15 % of 40 players


def seats(client, t, page=1, size=None, token="seats-tv"):
    query = f"?token={token}&page={page}" + (f"&size={size}" if size else "")
    r = client.get(f"/live/{t.pk}/seats/{query}")
    assert r.status_code == 200, r.status_code
    return r.json()


def test_the_seat_lookup_pages_through_every_seated_player_by_name(make_tournament, actor):
    t = running(make_tournament, actor, 30)
    DisplayScreen.objects.create(name="TV", tournament=t, token="seats-tv")
    client = Client()
    first = seats(client, t, 1, size=12)
    assert (first["page"], first["pages"], first["size"], first["total"]) == (1, 3, 12, 30)
    rows = first["seats"] + seats(client, t, 2, size=12)["seats"] + seats(client, t, 3, size=12)["seats"]
    expected = sorted(
        (
            (public_name(first, last), table, seat)  # as every public page names players
            for first, last, table, seat in Seat.objects.filter(tournament=t).values_list(
                "entry__person__first_name", "entry__person__last_name", "table__number", "number"
            )
        ),
        key=lambda r: r[0].lower(),
    )
    assert [(r["name"], r["table"], r["seat"]) for r in rows] == expected
    assert seats(client, t, 4, size=12)["seats"] == []  # past the end: the screen starts again at page 1
    assert len(seats(client, t)["seats"]) == 30  # a page of 48 unless asked for fewer
    assert seats(client, t, size=500)["size"] == 200 and seats(client, t, page="x")["page"] == 1
    assert first["seats_version"] == build_snapshot(t.pk)["seats_version"] > 0


def test_the_seats_version_changes_with_a_bust_and_a_move_not_with_the_clock_or_a_hand(make_tournament, actor):
    t = running(make_tournament, actor, 20, table_size=10)
    DisplayScreen.objects.create(name="TV", tournament=t, token="seats-tv")
    client = Client()
    v0 = seats(client, t)["seats_version"]

    clock_services.pause(t, actor=actor)
    clock_services.resume(t, actor=actor)
    clock_services.jump_to(t, 1, actor=actor, reason="test")
    seating.hand_completed(t, 1, actor=actor)  # the blinds move on: nobody moves
    assert seats(client, t)["seats_version"] == v0 == build_snapshot(t.pk)["seats_version"]

    at_1 = list(Seat.objects.filter(tournament=t, table__number=1).values_list("entry_id", flat=True))
    out = seating.record_bust(t, [at_1[0]], actor=actor)
    page = seats(client, t)
    v1 = page["seats_version"]
    assert v1 > v0 and page["total"] == 19 and at_1[0] not in Seat.objects.values_list("entry_id", flat=True)
    assert build_snapshot(t.pk)["seats_version"] == v1

    out = seating.record_bust(t, [at_1[1]], actor=actor)  # 8 against 10: one player moves (balancing)
    (slip,) = out.proposed
    v2 = seats(client, t)["seats_version"]
    assert v2 > v1
    seating.confirm_moves(t, [slip.pk], actor=actor)
    page = seats(client, t)
    assert page["seats_version"] > v2
    mover = next(r for r in page["seats"] if (r["table"], r["seat"]) == (slip.to_table, slip.to_seat))
    assert mover["name"] == public_name(slip.entry.person.first_name, slip.entry.person.last_name)


def test_the_tables_of_a_hand_for_hand_hand_are_in_the_snapshot_only_during_one(make_tournament, actor):
    t = running(make_tournament, actor, 25)
    assert "h4h_tables" not in build_snapshot(t.pk)
    clock_services.start_hand_for_hand(t, actor=actor)
    snap = build_snapshot(t.pk)
    assert snap["h4h_tables"] == [1, 2, 3] and snap["h4h_done"] == [] and snap["lobby_state"] == "hand_for_hand"
