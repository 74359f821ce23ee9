"""Timed events and qualifying tables (FMT-13, 004): chip-count ranking at the time limit,
above every eliminated player; qualifying-table winners meet at the final table."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tdmanager.errors import DomainError
from tournaments.formats.models import QualifiedEntry, TimedEvent
from tournaments.formats.services import timed
from tournaments.models import ChipCount, LedgerRow, Tournament
from tournaments.setup import lifecycle

from .conftest import bust_in_order

pytestmark = pytest.mark.django_db


@pytest.fixture
def timed_event(make_tournament, actor):
    def make(name="Qualifier", minutes=120, **kw):
        t = make_tournament(name=name, format=Tournament.TIMED, field_cap=8, buy_in=Decimal("20"), fee=Decimal("5"), starting_stack=5000)
        timed.configure_timed(t, ends_at=timezone.now() + timedelta(minutes=minutes), actor=actor, **kw)
        return t

    return make


def test_qualifying_tables_to_the_final_table_by_chip_count(timed_event, field, actor, make_tournament):
    final = make_tournament(name="Final table", format=Tournament.TIMED, status=Tournament.PLANNED, starting_stack=10000, buy_in=Decimal("0"), fee=Decimal("0"))
    timed.configure_timed(final, ends_at=timezone.now() + timedelta(days=28, hours=2), actor=actor)
    tables = [timed_event(name=f"Qualifier {i}") for i in (1, 2)]
    group = timed.create_qualifier_group(name="Montegalda 2010", final=final, qualifiers=tables, actor=actor)
    winners = []
    for t in tables:
        es = field(t, 8)
        lifecycle.start(t, actor=actor)
        bust_in_order(es[:5])  # five out during the two hours
        with pytest.raises(DomainError) as e:  # play goes on until the two hours are up
            timed.finish_timed(t, actor=actor, counts=[{"entry": x.pk, "chips": 1} for x in es[5:]])
        assert e.value.code == "time_not_up"
        TimedEvent.objects.filter(tournament=t).update(ends_at=timezone.now() - timedelta(seconds=1))
        result = timed.finish_timed(
            t, actor=actor, counts=[{"entry": es[5].pk, "chips": 9000}, {"entry": es[6].pk, "chips": 21000}, {"entry": es[7].pk, "chips": 10000}]
        )
        assert [(s["entry"], s["place"]) for s in result["standings"]] == [(es[6].number, 1), (es[7].number, 2), (es[5].number, 3)]
        assert result["difference"] == 0 and result["chips_in_play"] == 40000
        places = {e.pk: e.place for e in t.entries.all()}
        assert [places[x.pk] for x in es] == [8, 7, 6, 5, 4, 3, 1, 2]  # the chip count ranks above every bust
        t.refresh_from_db()
        assert t.status == Tournament.FINISHED
        assert ChipCount.objects.filter(tournament=t, occasion="TIME_LIMIT").count() == 3
        winners.append(es[6].person_id)
    # The winners of the qualifying tables meet at the final, with the final's stack and no money.
    assert sorted(final.entries.values_list("person_id", flat=True)) == sorted(winners)
    assert set(final.entries.values_list("chips", flat=True)) == {10000}
    assert QualifiedEntry.objects.filter(entry__tournament=final, source=QualifiedEntry.QUALIFIER).count() == 2
    assert not LedgerRow.objects.filter(tournament=final).exists()
    assert all(q.final_entry_id for q in group.qualifiers.all())
    # The final is timed too: places 1–2 by chips at expiry.
    lifecycle.start(final, actor=actor)
    TimedEvent.objects.filter(tournament=final).update(ends_at=timezone.now())
    a, b = final.entries.order_by("number")
    timed.finish_timed(final, actor=actor, counts=[{"entry": a.pk, "chips": 6000}, {"entry": b.pk, "chips": 14000}])
    assert {e.pk: e.place for e in final.entries.all()} == {a.pk: 2, b.pk: 1}


def test_equal_stacks_at_the_time_limit_share_the_place(timed_event, field, actor):
    t = timed_event()
    es = field(t, 4)
    lifecycle.start(t, actor=actor)
    bust_in_order(es[:1])
    TimedEvent.objects.filter(tournament=t).update(ends_at=timezone.now())
    timed.finish_timed(t, actor=actor, counts=[{"entry": es[1].pk, "chips": 5000}, {"entry": es[2].pk, "chips": 5000}, {"entry": es[3].pk, "chips": 10000}])
    assert [e.place for e in t.entries.order_by("number")] == [4, 2, 2, 1]


def test_a_draw_settles_equal_stacks_when_the_house_says_so(timed_event, field, actor):
    t = timed_event(chip_tie="DRAW")
    es = field(t, 2)
    lifecycle.start(t, actor=actor)
    TimedEvent.objects.filter(tournament=t).update(ends_at=timezone.now())
    timed.finish_timed(t, actor=actor, counts=[{"entry": e.pk, "chips": 5000} for e in es])
    assert sorted(t.entries.values_list("place", flat=True)) == [1, 2]


def test_one_player_left_ends_a_timed_event_early(timed_event, field, actor):
    t = timed_event()
    es = field(t, 3)
    lifecycle.start(t, actor=actor)
    bust_in_order(es[:2])
    result = timed.finish_timed(t, actor=actor)
    assert result["by"] == "LAST_PLAYER"
    assert [e.place for e in t.entries.order_by("number")] == [3, 2, 1]


def test_every_player_still_in_must_be_counted(timed_event, field, actor):
    t = timed_event(minutes=0)
    es = field(t, 3)
    lifecycle.start(t, actor=actor)
    with pytest.raises(DomainError) as e:
        timed.finish_timed(t, actor=actor, counts=[{"entry": es[0].pk, "chips": 7000}])
    assert e.value.code == "counts_missing"
    assert not ChipCount.objects.filter(tournament=t).exists()


def test_last_player_mode_waits_for_one_player(timed_event, field, actor):
    t = timed_event(minutes=0, end_condition="LAST_PLAYER")
    field(t, 2)
    lifecycle.start(t, actor=actor)
    with pytest.raises(DomainError) as e:
        timed.finish_timed(t, actor=actor, counts=[])
    assert e.value.code == "players_left"


def test_the_prizes_due_follow_the_chip_count_ranking(make_tournament, field, actor):
    from payouts import selectors as payout_selectors

    t = make_tournament(name="Timed 10", format=Tournament.TIMED, buy_in=Decimal("100"), fee=Decimal("10"))
    timed.configure_timed(t, ends_at=timezone.now(), actor=actor)
    es = field(t, 10)
    lifecycle.start(t, actor=actor)
    bust_in_order(es[:7])
    timed.finish_timed(t, actor=actor, counts=[{"entry": e.pk, "chips": chips} for e, chips in zip(es[7:], (90000, 150000, 60000))])
    dues = payout_selectors.dues(t)
    assert sum(d["amount"] for d in dues) == payout_selectors.prize_pool(t) == Decimal("1000.00")
    best = max(dues, key=lambda d: d["amount"])
    assert best["entry_id"] == es[8].pk and best["place"] == 1  # the biggest stack at the time limit


def test_a_qualifier_won_after_the_final_started_is_seated_there(timed_event, field, actor, make_tournament):
    """Found by the simulated days (day seed 800014): the final table started with the first two
    qualifiers' winners; the third qualifying table finished later and sent its winner, who had an
    entry at the final but no seat ("players in without a seat"). A late qualifier is seated from
    the seat pool, as a late sale is."""
    from seating.models import Seat

    final = make_tournament(name="Final table", format=Tournament.TIMED, status=Tournament.PLANNED, starting_stack=10000, buy_in=Decimal("0"), fee=Decimal("0"))
    timed.configure_timed(final, ends_at=timezone.now() + timedelta(days=28, hours=2), actor=actor)
    tables = [timed_event(name=f"Qualifier {i}") for i in (1, 2, 3)]
    timed.create_qualifier_group(name="Montegalda", final=final, qualifiers=tables, actor=actor)
    for i, t in enumerate(tables):
        es = field(t, 4)
        lifecycle.start(t, actor=actor)
        TimedEvent.objects.filter(tournament=t).update(ends_at=timezone.now() - timedelta(seconds=1))
        timed.finish_timed(t, actor=actor, counts=[{"entry": x.pk, "chips": 5000 + n} for n, x in enumerate(es)])
        if i == 1:  # two winners: the final starts
            lifecycle.start(final, actor=actor, prestart_report_sent=True)
            final.refresh_from_db()
    late = final.entries.order_by("number").last()
    assert final.entries.count() == 3
    assert Seat.objects.filter(tournament=final, entry=late).exists()


def test_fmt13_a_count_naming_a_player_twice_is_refused_and_the_event_is_ended_once(timed_event, field, actor):
    t = timed_event(minutes=0)
    es = field(t, 3)
    lifecycle.start(t, actor=actor)
    twice = [{"entry": es[0].pk, "chips": 7000}, {"entry": es[0].pk, "chips": 3000}, {"entry": es[1].pk, "chips": 5000}, {"entry": es[2].pk, "chips": 3000}]
    with pytest.raises(DomainError) as e:
        timed.finish_timed(t, actor=actor, counts=twice)
    assert e.value.code == "duplicate_count"
    assert str(e.value.message) == f"Entry {es[0].number} is counted twice."
    assert not ChipCount.objects.filter(tournament=t).exists()
    t.refresh_from_db()
    assert t.status == Tournament.RUNNING
    counts = [{"entry": es[0].pk, "chips": 7000}, {"entry": es[1].pk, "chips": 5000}, {"entry": es[2].pk, "chips": 3000}]
    result = timed.finish_timed(t, actor=actor, counts=counts)
    assert [s["place"] for s in result["standings"]] == [1, 2, 3]
    with pytest.raises(DomainError) as e:
        timed.finish_timed(t, actor=actor, counts=counts)
    assert e.value.code == "already_finished"
    assert ChipCount.objects.filter(tournament=t, occasion="TIME_LIMIT").count() == 3


def qualifying_table_and_final(timed_event, make_tournament, actor):
    """One timed qualifying table linked to a timed final table (no money at the final)."""
    final = make_tournament(name="Final table", format=Tournament.TIMED, status=Tournament.PLANNED, starting_stack=10000, buy_in=Decimal("0"), fee=Decimal("0"))
    timed.configure_timed(final, ends_at=timezone.now() + timedelta(days=28, hours=2), actor=actor)
    table = timed_event(name="Qualifier 1")
    timed.create_qualifier_group(name="Montegalda", final=final, qualifiers=[table], actor=actor)
    return table, final


def test_fmt13_a_qualifying_tables_winner_is_sent_to_the_final_once(timed_event, field, actor, make_tournament, api, director):
    table, final = qualifying_table_and_final(timed_event, make_tournament, actor)
    es = field(table, 3)
    lifecycle.start(table, actor=actor)
    TimedEvent.objects.filter(tournament=table).update(ends_at=timezone.now() - timedelta(seconds=1))
    d = api(director)
    r = d.post(f"/api/v1/formats/timed/{table.pk}/finish/", {"counts": [{"entry": e.pk, "chips": c} for e, c in zip(es, (4000, 8000, 3000))]}, format="json")
    assert r.status_code == 200
    assert list(final.entries.values_list("person_id", flat=True)) == [es[1].person_id]  # the biggest stack: his seat at the final
    # Sending him again by hand is refused in words, and gives him no second entry.
    r = d.post(f"/api/v1/formats/timed/{table.pk}/send-winner/", {}, format="json")
    assert r.status_code == 409
    assert (r.json()["code"], r.json()["detail"]) == ("winner_sent", "This table's winner already has a seat at the final.")
    assert final.entries.count() == 1


def test_fmt13_equal_stacks_on_top_of_a_qualifying_table_send_nobody_and_the_table_plays_on(timed_event, field, actor, make_tournament, api, director):
    # Equal stacks share first place: the table has no single winner to send to the final, so
    # the director is told, and nothing of the end is kept.
    table, final = qualifying_table_and_final(timed_event, make_tournament, actor)
    es = field(table, 3)
    lifecycle.start(table, actor=actor)
    TimedEvent.objects.filter(tournament=table).update(ends_at=timezone.now() - timedelta(seconds=1))
    r = api(director).post(
        f"/api/v1/formats/timed/{table.pk}/finish/", {"counts": [{"entry": e.pk, "chips": c} for e, c in zip(es, (6000, 6000, 3000))]}, format="json"
    )
    assert r.status_code == 409
    assert (r.json()["code"], r.json()["detail"]) == ("winner_not_decided", "This table has no single winner yet.")
    table.refresh_from_db()
    assert table.status == Tournament.RUNNING
    assert not final.entries.exists()
    assert not ChipCount.objects.filter(tournament=table).exists()
    assert set(table.entries.values_list("place", flat=True)) == {None}


def test_fmt13_a_qualifying_table_cannot_end_once_its_final_is_over(timed_event, field, actor, make_tournament, api, director):
    table, final = qualifying_table_and_final(timed_event, make_tournament, actor)
    es = field(table, 2)
    lifecycle.start(table, actor=actor)
    lifecycle.cancel(final, actor=actor, reason="the final was called off")
    TimedEvent.objects.filter(tournament=table).update(ends_at=timezone.now() - timedelta(seconds=1))
    r = api(director).post(
        f"/api/v1/formats/timed/{table.pk}/finish/", {"counts": [{"entry": e.pk, "chips": c} for e, c in zip(es, (7000, 3000))]}, format="json"
    )
    assert r.status_code == 409
    assert (r.json()["code"], r.json()["detail"]) == ("final_over", "The final table has already been played.")
    table.refresh_from_db()
    assert table.status == Tournament.RUNNING
    assert not final.entries.exists()


def test_cr06_a_late_qualifier_joins_the_running_final_seated_with_the_finals_stack(timed_event, field, actor, make_tournament):
    from seating.models import Seat
    from tournaments.floor.services import chips_in_play
    from tournaments.models import ChipAdjustment, Entry

    final = make_tournament(name="Final table", format=Tournament.TIMED, status=Tournament.PLANNED, starting_stack=10000, buy_in=Decimal("0"), fee=Decimal("0"))
    timed.configure_timed(final, ends_at=timezone.now() + timedelta(days=28, hours=2), actor=actor)
    tables = [timed_event(name=f"Qualifier {i}") for i in (1, 2, 3)]
    timed.create_qualifier_group(name="Montegalda", final=final, qualifiers=tables, actor=actor)
    winners = []
    for i, t in enumerate(tables):
        es = field(t, 2)
        lifecycle.start(t, actor=actor)
        TimedEvent.objects.filter(tournament=t).update(ends_at=timezone.now() - timedelta(seconds=1))
        timed.finish_timed(t, actor=actor, counts=[{"entry": es[0].pk, "chips": 4000}, {"entry": es[1].pk, "chips": 6000}])
        winners.append(es[1])  # the bigger stack wins each table
        if i == 1:  # two winners: the final starts
            lifecycle.start(final, actor=actor, prestart_report_sent=True)
            final.refresh_from_db()
    entries = list(final.entries.order_by("number"))
    # Entries 1 and 2 were there at the start; the third table's winner came in late, as entry 3.
    assert [(e.number, e.person_id, e.is_late, e.person_entry_no, e.status, e.chips) for e in entries] == [
        (1, winners[0].person_id, False, 1, Entry.ACTIVE, 10000),
        (2, winners[1].person_id, False, 1, Entry.ACTIVE, 10000),
        (3, winners[2].person_id, True, 1, Entry.ACTIVE, 10000),
    ]
    late = entries[2]
    assert Seat.objects.filter(tournament=final, entry=late).count() == 1  # seated as a late sale is
    seated = final.events.get(action="seating.player.seated", payload__entry=late.pk)
    assert (seated.actor, seated.payload["entry_number"]) == (actor.user, 3)  # in the log, in the director's name
    q = QualifiedEntry.objects.get(entry=late)
    assert (q.source, q.from_tournament_id, q.from_entry_id, q.chips, q.created_by, q.bag) == (
        QualifiedEntry.QUALIFIER,
        tables[2].pk,
        winners[2].pk,
        10000,
        actor.user,
        None,
    )
    adj = ChipAdjustment.objects.get(entry=late)
    assert (adj.tournament_id, adj.kind, adj.chips, adj.created_by) == (final.pk, ChipAdjustment.CORRECTION, 10000, actor.user)
    assert adj.reason == f"qualified (QUALIFIER) from Qualifier 3 #{winners[2].number}"
    # CR-06: three stacks of 10,000 in play, no money.
    assert chips_in_play(final) == 30000
    assert not LedgerRow.objects.filter(tournament=final).exists()
