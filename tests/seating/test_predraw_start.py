"""SEAT-02 through the start: after a draw in advance, the house's players per table at the
start, a keep-apart pair (SEAT-07) and a seat held for a registrant who has not paid yet reach
the start's draw, and the start forms no final table and waives no short table's halt."""

import pytest
from django.utils import timezone

from seating import engine, replay, services
from seating import predraw as engine_predraw
from seating.models import PreDrawSeat, Table
from seating.services import draws as draw_services
from tournaments.cashier import services as cashier
from tournaments.models import Person, Tournament
from tournaments.setup import lifecycle

from .test_support import add_entries, seat_map

pytestmark = pytest.mark.django_db


def told(t, rows: dict, session="1A"):
    """The draw in advance as the director's schedule told it: {entry: (table, seat)}."""
    PreDrawSeat.objects.bulk_create(
        [PreDrawSeat(tournament=t, entry_id=e, session=session, table=tb, seat=s, drawn_at=timezone.now()) for e, (tb, s) in rows.items()]
    )


def where(t) -> dict:
    return {e: (tb, s) for tb, seats in seat_map(t).items() for s, e in seats.items()}


def seed_where(wanted) -> int:
    """The first seed whose start, drawn without what the test gives the draw, would differ."""
    return next(s for s in range(500) if wanted(s))


def start_with_seed(monkeypatch, t, actor, seed):
    monkeypatch.setattr(draw_services, "draw_seed", lambda: seed)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    return t.events.get(action="seating.draw.initial")


def test_seat02_the_start_after_a_draw_in_advance_seats_the_houses_players_per_table_and_forms_no_final_table(make_tournament, actor, api, director):
    t = make_tournament(settings={"start_players_per_table": 4})  # 9-max tables, four a table to start
    add_entries(t, 8)
    services.predraw(t, ["1A"], actor=actor)
    schedule = {e: (tb, s) for e, tb, s in PreDrawSeat.objects.filter(tournament=t).values_list("entry_id", "table", "seat")}
    assert sorted({tb for tb, _s in schedule.values()}) == [1, 2]
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert where(t) == schedule  # every one where his schedule said: two tables of four
    tables = api(director).get(f"/api/v1/tournaments/{t.pk}/tables/").data
    # Eight players fit the final table, but no final table forms before a hand is played.
    assert [(tb["number"], tb["is_final"]) for tb in tables["tables"]] == [(1, False), (2, False)]
    assert not t.events.filter(action__in=("seating.final_table.formed", "seating.table.broken")).exists()
    start = t.events.get(action="seating.draw.initial")
    assert start.payload["max_players_per_table"] == 4
    r = api(director).get(f"/api/v1/tournaments/{t.pk}/draws/{start.pk}/replay/")
    assert r.status_code == 200 and r.data["matches"] is True, r.data


def test_seat07_a_late_player_kept_apart_from_one_seated_as_drawn_in_advance_sits_at_the_other_table(make_tournament, actor, monkeypatch):
    t = make_tournament(settings={"start_players_per_table": 2})
    a, c, b, d = add_entries(t, 4)
    told(t, {a.pk: (1, 1), c.pk: (2, 1)})  # b and d registered after the draw in advance
    services.add_keep_apart(t, a.person, b.person, actor=actor, reason="spouses")
    players = [a.pk, c.pk, b.pk, d.pk]

    def together_if_not_kept_apart(seed):
        out = engine_predraw.seat_as_predrawn(players, {a.pk: (1, 1), c.pk: (2, 1)}, capacity=9, rng=replay.rng_of(seed), max_players_per_table=2)
        return any(p == b.pk and tb.number == 1 for tb in out.tables for p in tb.seats.values())

    start = start_with_seed(monkeypatch, t, actor, seed_where(together_if_not_kept_apart))
    seats = where(t)
    assert seats[a.pk] == (1, 1) and seats[b.pk][0] == 2 and seats[d.pk][0] == 1
    assert [set(pair) for pair in start.payload["apart"]] == [{a.pk, b.pk}]
    assert start.payload["apart_swaps"] == 1
    assert not t.events.filter(action="seating.keep_apart.unmet").exists()


def test_seat02_a_seat_held_for_a_registrant_not_paid_yet_is_the_last_one_a_late_player_gets(make_tournament, make_person, actor, cashier_actor, monkeypatch):
    t = make_tournament()
    paid = add_entries(t, 8)
    unpaid = cashier.pre_register(t, make_person(), actor=cashier_actor)
    told(t, {**{e.pk: (1, s) for e, s in zip(paid[:7], range(1, 8), strict=True)}, unpaid.pk: (1, 8)})
    late = paid[7]  # registered after the draw in advance: the free seats are 8 (held) and 9
    refunded = cashier.register(t, make_person(), method="CASH", actor=cashier_actor).entry
    services.reserve_seat(t, refunded, 1, 9, actor=actor, reason="wheelchair")
    cashier.refund(refunded, reason="cannot come", actor=cashier_actor)  # his seat given by hand is not this draw's
    other = make_tournament(name="Side Event")
    services.reserve_seat(other, add_entries(other, 1)[0], 1, 9, actor=actor, reason="wheelchair")  # another event's seat

    def on_the_held_seat_if_not_held(seed):
        out = engine_predraw.seat_as_predrawn(
            [e.pk for e in paid], {e.pk: (1, s) for e, s in zip(paid[:7], range(1, 8), strict=True)}, capacity=9, rng=replay.rng_of(seed)
        )
        return out.assignments == [(late.pk, 1, 8)]

    start = start_with_seed(monkeypatch, t, actor, seed_where(on_the_held_seat_if_not_held))
    assert where(t)[late.pk] == (1, 9)
    assert start.payload["held"] == [[1, 8]]
    assert start.payload["reservations"] == []  # the other event's seat given by hand is not this draw's


def test_seat02_a_table_left_short_by_refunds_since_the_draw_in_advance_is_not_let_play_on_short(make_tournament, actor, cashier_actor, api, director):
    t = make_tournament()
    entries = add_entries(t, 14)
    # Told in advance: nine at table 1, nine at table 2; four of table 2's were refunded since.
    told(t, {**{e.pk: (1, s) for e, s in zip(entries[:9], range(1, 10), strict=True)}, **{e.pk: (2, s) for e, s in zip(entries[9:], range(1, 6), strict=True)}})
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.RUNNING
    tables = api(director).get(f"/api/v1/tournaments/{t.pk}/tables/").data["tables"]
    assert [tb["halt_waived"] for tb in tables] == [False, False]
    assert list(Table.objects.filter(tournament=t, in_play=True).order_by("number").values_list("number", "halt_waived")) == [(1, False), (2, False)]


def test_seat02_the_start_names_the_later_sessions_and_the_first_in_its_refusal_word_for_word(
    make_tournament, make_person, actor, cashier_actor, api, director
):
    t = make_tournament()
    first, second, third, fourth = add_entries(t, 4)
    unpaid = cashier.pre_register(t, make_person(), actor=cashier_actor)
    told(t, {first.pk: (1, 1)}, session="Mon")  # the first session, one row: the fourth player registered since
    told(t, {second.pk: (1, 1), unpaid.pk: (1, 2)}, session="Wed")  # not paid: he is not seated by the start
    told(t, {third.pk: (1, 1)}, session="Tue")
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/start/", {}, format="json")
    assert r.status_code == 409 and r.data["code"] == "predraw_later_session", r.data
    assert r.data["detail"] == (
        "2 paid players were drawn in advance into a later session (Wed, Tue) and the start seats the first session (Mon) only: "
        "draw the sessions again, or confirm that the later sessions' players are seated now by the draw."
    )
    PreDrawSeat.objects.filter(entry=third).delete()
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/start/", {}, format="json")
    assert r.status_code == 409 and r.data["detail"] == (
        "1 paid player was drawn in advance into a later session (Wed) and the start seats the first session (Mon) only: "
        "draw the sessions again, or confirm that the later sessions' players are seated now by the draw."
    ), r.data
    r = api(director).post(f"/api/v1/tournaments/{t.pk}/start/", {"seat_later_sessions": True}, format="json")
    assert r.status_code == 200, r.data
    start = t.events.get(action="seating.draw.initial")
    assert start.payload["predraw_session"] == "Mon" and start.payload["later_sessions"] == [[second.pk, "Wed"]]
    seats = where(t)
    assert seats[first.pk] == (1, 1) and fourth.pk in seats and second.pk in seats and third.pk in seats and unpaid.pk not in seats


def test_seat07_a_pair_kept_apart_is_drawn_at_two_tables_at_an_ordinary_start(make_tournament, actor, monkeypatch):
    t = make_tournament(settings={"start_players_per_table": 2})  # four players: two tables of two
    a, c, d, b = add_entries(t, 4)
    services.add_keep_apart(t, a.person, b.person, actor=actor, reason="spouses")

    def together_if_not_kept_apart(seed):
        out = engine.draw_seats([a.pk, c.pk, d.pk, b.pk], capacity=9, rng=replay.rng_of(seed), max_players_per_table=2)
        return any({a.pk, b.pk} <= set(tb.seats.values()) for tb in out.tables)

    start = start_with_seed(monkeypatch, t, actor, seed_where(together_if_not_kept_apart))
    seats = where(t)
    assert seats[a.pk][0] != seats[b.pk][0]
    assert start.payload["apart_swaps"] == 1 and "predraw_session" not in start.payload


def test_seat02_a_draw_in_advance_none_of_whose_first_session_is_here_leaves_the_start_an_ordinary_draw(make_tournament, actor, cashier_actor):
    t = make_tournament()
    gone = cashier.register(t, Person.objects.create(first_name="Gone", last_name="Away"), method="CASH", actor=cashier_actor).entry
    told(t, {gone.pk: (1, 5)})
    cashier.refund(gone, reason="cannot come", actor=cashier_actor)  # the only one drawn in advance
    add_entries(t, 6)  # registered since
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    start = t.events.get(action="seating.draw.initial")
    assert "predraw_session" not in start.payload and len(start.payload["assignment"]) == 6
