"""One room (issue #42): the physical tables every event shares. Events draw free tables of the
room in the house's order and show their numbers; a table broken in one event seats the next at
once; two events never hold one table; a draw the room cannot hold is refused with the number of
tables missing, and nothing of it is written."""

from decimal import Decimal

import pytest

from seating import selectors
from seating import services as seating
from seating.models import CardRoom, ManualDraw, RoomTable, Seat, Table
from seating.services import cardrooms
from tdmanager.errors import DomainError
from tournaments.cashier import services as cashier
from tournaments.formats.services import sitandgo
from tournaments.models import Entry, Tournament
from tournaments.setup import lifecycle


@pytest.fixture
def room(db, actor):
    """The main hall: tables 11 to 16 of 9 seats (taken nearest first: 11 first), 21 and 22 of 10."""
    hall = cardrooms.save_room("Sala principale", actor=actor)
    for n in range(11, 17):
        cardrooms.save_table(hall, n, seats=9, position=n, actor=actor)
    for n in (21, 22):
        cardrooms.save_table(hall, n, seats=10, position=n, actor=actor)
    return hall


def fill(t, make_person, actor, n):
    for _ in range(n):
        cashier.register(t, make_person(), method="CASH", actor=actor)


def in_play(t) -> list[int]:
    return sorted(Table.objects.filter(tournament=t, in_play=True).values_list("number", flat=True))


def held(t) -> list[int]:
    return sorted(RoomTable.objects.filter(held_by=t).values_list("number", flat=True))


def started(make_tournament, make_person, actor, players, **kw):
    t = make_tournament(**kw)
    fill(t, make_person, actor, players)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    return t


@pytest.mark.django_db
def test_two_events_in_one_room_get_disjoint_tables_in_the_house_order(room, make_tournament, make_person, actor):
    main = started(make_tournament, make_person, actor, 20, name="Main Event")  # 20 at 9-max: 3 tables
    side = started(make_tournament, make_person, actor, 12, name="Side Event")  # 2 tables
    assert in_play(main) == [11, 12, 13] and held(main) == [11, 12, 13]
    assert in_play(side) == [14, 15] and held(side) == [14, 15]
    # the numbers the staff see are the felt's: seats, the table map, the seat lookup
    assert sorted({number for number, _s in Seat.objects.filter(tournament=side).values_list("table__number", "number")}) == [14, 15]
    assert [tb["number"] for tb in selectors.table_map(side)["tables"]] == [14, 15]


@pytest.mark.django_db
def test_a_table_broken_in_one_event_seats_the_next_event(db, actor, make_tournament, make_person):
    small = cardrooms.save_room("Saletta", actor=actor)
    for n in (1, 2):
        cardrooms.save_table(small, n, seats=9, actor=actor)
    first = started(make_tournament, make_person, actor, 12, name="Early")  # two tables of 6
    assert held(first) == [1, 2]
    late = make_tournament(name="Late")
    fill(late, make_person, actor, 5)
    with pytest.raises(DomainError) as refused:
        lifecycle.start(late, actor=actor, prestart_report_sent=True)
    assert refused.value.code == "room_full" and refused.value.extra["missing"] == 1
    assert Tournament.objects.get(pk=late.pk).status == Tournament.REGISTERING  # nothing of the start written
    # three players out: nine fit at one table, the other table breaks and is free at once
    for entry in Entry.objects.filter(tournament=first).order_by("number")[:3]:
        seating.record_bust(first, [entry.pk], actor=actor)
    (kept,) = in_play(first)
    assert held(first) == [kept]
    lifecycle.start(late, actor=actor, prestart_report_sent=True)
    assert in_play(late) == held(late) == [3 - kept]


@pytest.mark.django_db
def test_a_sit_and_go_starting_by_itself_takes_a_free_ten_seat_table(room, structure, make_person, actor, cashier_actor):
    sng = sitandgo.create_sit_and_go(name="SNG 1", buy_in=Decimal(50), fee=Decimal(5), starting_stack=5000, structure=structure, actor=actor)
    fill(sng, make_person, cashier_actor, 10)  # the tenth sale starts it
    sng.refresh_from_db()
    assert sng.status == Tournament.RUNNING
    assert in_play(sng) == held(sng) == [21]  # a 10-max event takes a table of 10 seats, never one of 9


@pytest.mark.django_db
def test_a_draw_the_room_cannot_hold_is_refused_with_the_tables_missing(room, make_tournament, make_person, actor):
    t = make_tournament(name="Too big")
    fill(t, make_person, actor, 80)  # 9 tables of 9: the room has 8 that fit (two of them 10-seat)
    with pytest.raises(DomainError) as refused:
        lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert refused.value.code == "room_full" and refused.value.extra["missing"] == 1
    assert "1" in str(refused.value.message)
    assert not RoomTable.objects.filter(held_by__isnull=False).exists()


@pytest.mark.django_db
def test_a_table_out_of_service_is_never_drawn_and_cannot_be_taken_out_while_played(room, make_tournament, make_person, actor):
    cardrooms.set_out_of_service(room, 11, "panno strappato", actor=actor)
    t = started(make_tournament, make_person, actor, 10)
    assert in_play(t) == [12, 13]
    with pytest.raises(DomainError) as refused:
        cardrooms.set_out_of_service(room, 12, "shuffler", actor=actor)
    assert refused.value.code == "table_in_use"
    with pytest.raises(DomainError) as refused:
        cardrooms.set_out_of_service(room, 14, "", actor=actor)
    assert refused.value.code == "reason_required"


@pytest.mark.django_db
def test_late_registration_opens_the_rooms_next_free_table(room, make_tournament, make_person, actor):
    t = started(make_tournament, make_person, actor, 9)  # one full table: 11
    other = started(make_tournament, make_person, actor, 9, name="Other")  # 12
    fill(t, make_person, actor, 1)  # every seat of 11 taken: a table opens, the room's next free one
    assert in_play(t) == held(t) == [11, 13]
    assert held(other) == [12]


@pytest.mark.django_db
def test_two_events_never_hold_one_table_even_if_a_draw_names_it(room, make_tournament, make_person, actor):
    t = started(make_tournament, make_person, actor, 9)
    other = make_tournament(name="Other")
    with pytest.raises(DomainError) as refused:
        cardrooms.take(other.pk, room.pk, [11, 12])
    assert refused.value.code == "table_taken" and refused.value.extra["tables"] == [11]
    assert held(t) == [11] and held(other) == []


@pytest.mark.django_db
def test_a_finished_event_holds_nothing(db, actor, make_tournament, make_person):
    hall = cardrooms.save_room("Sala", actor=actor)
    cardrooms.save_table(hall, 5, seats=9, actor=actor)
    t = started(make_tournament, make_person, actor, 2)
    seating.record_bust(t, [Entry.objects.filter(tournament=t).order_by("number").first().pk], actor=actor)
    t.refresh_from_db()
    if t.status != Tournament.FINISHED:
        lifecycle.finish(t, actor=actor)
    nxt = started(make_tournament, make_person, actor, 4, name="Next")
    assert in_play(nxt) == held(nxt) == [5]


@pytest.mark.django_db
def test_a_draw_in_advance_keeps_the_rooms_tables_for_the_event_until_it_starts(room, make_tournament, make_person, actor):
    t = make_tournament(name="Predrawn")
    fill(t, make_person, actor, 12)
    seating.predraw(t, ["1A"], actor=actor)
    assert sorted(RoomTable.objects.filter(reserved_for=t).values_list("number", flat=True)) == [11, 12]
    other = started(make_tournament, make_person, actor, 9, name="Meanwhile")
    assert in_play(other) == [13]  # the kept tables are not the others' to take
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert in_play(t) == held(t) == [11, 12]
    assert not RoomTable.objects.filter(reserved_for=t).exists()


@pytest.mark.django_db
def test_the_draw_with_the_rooms_numbers_replays(room, make_tournament, make_person, actor):
    from tournaments.eventlog.actions import Action
    from tournaments.models import TournamentEvent

    t = started(make_tournament, make_person, actor, 20)
    ev = TournamentEvent.objects.get(tournament=t, action=Action.SEATING_DRAW_INITIAL)
    assert ev.payload["table_numbers"] == [11, 12, 13]
    assert selectors.draw_replay(t, ev.pk)["matches"] is True


@pytest.mark.django_db
def test_without_a_room_an_event_numbers_its_own_tables(make_tournament, make_person, actor):
    assert not CardRoom.objects.exists()
    t = started(make_tournament, make_person, actor, 20)
    assert in_play(t) == [1, 2, 3]


@pytest.mark.django_db
def test_the_director_keeps_the_inventory_through_the_api_and_the_floor_reads_the_map(api, director, floor_user, make_tournament, make_person, actor):
    boss, floor = api(director), api(floor_user)
    assert floor.post("/api/v1/rooms/", {"name": "Sala"}, format="json").status_code == 403
    r = boss.post("/api/v1/rooms/", {"name": "Sala"}, format="json")
    assert r.status_code == 201
    rid = r.json()["id"]
    for number, seats in ((3, 9), (4, 9), (5, 6)):
        assert boss.post(f"/api/v1/rooms/{rid}/tables/", {"number": number, "seats": seats}, format="json").status_code == 201
    r = boss.post(f"/api/v1/rooms/{rid}/tables/", {"number": 6, "seats": 11}, format="json")
    assert r.status_code == 400 and "seats" in r.json()["fields"]
    r = boss.post(f"/api/v1/rooms/{rid}/tables/5/out-of-service/", {}, format="json")
    assert r.status_code == 400 and "reason" in r.json()["fields"]
    assert boss.post(f"/api/v1/rooms/{rid}/tables/5/out-of-service/", {"reason": "feltro da cambiare"}, format="json").status_code == 200
    assert floor.post(f"/api/v1/rooms/{rid}/tables/5/back-in-service/", {}, format="json").status_code == 403
    r = boss.post(f"/api/v1/rooms/{rid}/tables/9/reserve/", {"tournament": 1}, format="json")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    t = started(make_tournament, make_person, actor, 10, name="Serata")  # two 9-seat tables: 3 and 4
    r = floor.get(f"/api/v1/rooms/{rid}/")
    assert r.status_code == 200
    tables = {tb["number"]: tb for tb in r.json()["tables"]}
    assert tables[3]["state"] == tables[4]["state"] == "IN_USE" and tables[3]["event"]["name"] == "Serata"
    assert tables[3]["players"] + tables[4]["players"] == 10
    assert tables[5]["state"] == "OUT_OF_SERVICE" and tables[5]["out_of_service"] == "feltro da cambiare"
    assert sum(1 for tb in tables.values() if tb["breaks_next"]) == 1  # the table its event breaks next
    assert r.json()["counts"] == {"FREE": 0, "IN_USE": 2, "RESERVED": 0, "OUT_OF_SERVICE": 1}
    r = boss.delete(f"/api/v1/rooms/{rid}/tables/3/")
    assert r.status_code == 409 and r.json()["code"] == "table_in_use" and "Serata" in r.json()["detail"]
    assert boss.patch(f"/api/v1/rooms/{rid}/tables/8/", {"seats": 9}, format="json").status_code == 404
    assert held(t) == [3, 4]


@pytest.mark.django_db
def test_the_room_page_in_italian(client, director, floor_user, make_tournament, make_person, actor):
    from django.utils import translation

    hall = cardrooms.save_room("Sala principale", actor=actor)
    for n in (1, 2):
        cardrooms.save_table(hall, n, seats=9, actor=actor)
    started(make_tournament, make_person, actor, 6, name="Torneo delle 21")
    client.force_login(floor_user)
    with translation.override("it"):
        page = client.get("/room/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert "Sala principale" in page and "Torneo delle 21" in page and "6 giocatori" in page and "Libero" in page
        assert 'name="op" value="out"' not in page  # the floor reads the map; the director keeps the inventory
        assert client.post("/room/", {"op": "add_room", "name": "Saletta"}).status_code == 403
        client.force_login(director)
        r = client.post(f"/room/{hall.pk}/", {"op": "out", "number": "2", "reason": ""}, HTTP_ACCEPT_LANGUAGE="it", follow=True)
        assert "Indica perché il tavolo è fuori servizio." in r.content.decode()
        r = client.post(f"/room/{hall.pk}/", {"op": "out", "number": "2", "reason": "panno"}, HTTP_ACCEPT_LANGUAGE="it", follow=True)
        assert "Il tavolo 2 è fuori servizio." in r.content.decode()
        assert RoomTable.objects.get(number=2).out_of_service == "panno"


def main_hall_and_side_room(actor):
    """The main hall (tables 1 and 2) and, after it in the house's order, the side room (51 and 52)."""
    main = cardrooms.save_room("Sala principale", actor=actor, position=1)
    side = cardrooms.save_room("Saletta", actor=actor, position=2)
    for n in (1, 2):
        cardrooms.save_table(main, n, seats=9, actor=actor)
    for n in (51, 52):
        cardrooms.save_table(side, n, seats=9, actor=actor)
    return main, side


@pytest.mark.django_db
def test_a_full_main_hall_overflows_into_the_side_room(db, actor, make_tournament, make_person):
    main, side = main_hall_and_side_room(actor)
    first = started(make_tournament, make_person, actor, 10, name="First")  # both tables of the main hall
    second = started(make_tournament, make_person, actor, 10, name="Second")  # the side room's two
    assert in_play(first) == [1, 2] and in_play(second) == [51, 52]
    late = make_tournament(name="Late", settings={"room": main.pk})  # set to play in the main hall: it waits for it
    fill(late, make_person, actor, 3)
    with pytest.raises(DomainError) as refused:
        lifecycle.start(late, actor=actor, prestart_report_sent=True)
    assert refused.value.code == "room_full"


@pytest.mark.django_db
def test_a_table_kept_for_an_event_is_the_first_its_draw_takes(room, make_tournament, make_person, actor):
    t = make_tournament(name="Kept")
    fill(t, make_person, actor, 12)
    cardrooms.reserve(room, 15, t, actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert in_play(t) == held(t) == [11, 15]  # the kept table, then the house's order


def saletta(actor, tables=(1, 2)):
    small = cardrooms.save_room("Saletta", actor=actor)
    for n in tables:
        cardrooms.save_table(small, n, seats=9, actor=actor)
    return small


@pytest.mark.django_db
def test_an_event_asked_to_wait_starts_by_itself_when_a_table_is_free(db, actor, make_tournament, make_person):
    from tournaments.models import Clock, WaitingStart

    saletta(actor)
    first = started(make_tournament, make_person, actor, 12, name="Early")  # both tables
    late = make_tournament(name="Late")
    fill(late, make_person, actor, 5)
    t = lifecycle.start(late, actor=actor, prestart_report_sent=True, start_clock=True, when_room_full=lifecycle.WAIT)
    assert t.status == Tournament.REGISTERING and Tournament.objects.get(pk=late.pk).status == Tournament.REGISTERING
    assert WaitingStart.objects.get(tournament=late).missing == 1
    assert in_play(late) == held(late) == [] and not Seat.objects.filter(tournament=late).exists()  # nothing drawn
    assert lifecycle.start_waiting() == 0  # still full: it waits on
    assert Tournament.objects.get(pk=late.pk).status == Tournament.REGISTERING
    for entry in Entry.objects.filter(tournament=first).order_by("number")[:3]:  # a table of Early breaks
        seating.record_bust(first, [entry.pk], actor=actor)
    assert lifecycle.start_waiting() == 1
    late.refresh_from_db()
    assert late.status == Tournament.RUNNING and in_play(late) == held(late) == [3 - in_play(first)[0]]
    assert Clock.objects.get(tournament=late).status == Clock.RUNNING  # started as asked: the clock too
    assert not WaitingStart.objects.filter(tournament=late).exists()
    assert late.events.filter(action="tournaments.tournament.started", payload__waited=True).count() == 1


@pytest.mark.django_db
def test_a_start_that_waits_tries_again_at_once_when_a_table_is_given_back(
    db, actor, make_tournament, make_person, django_capture_on_commit_callbacks, settings
):
    from unittest import mock

    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # a broker: the task is sent (the send is mocked)
    small = saletta(actor, tables=(1,))
    late = make_tournament(name="Late")
    fill(late, make_person, actor, 12)  # two tables, the room has one
    lifecycle.start(late, actor=actor, when_room_full=lifecycle.WAIT)
    with mock.patch.object(lifecycle, "signature") as sent, django_capture_on_commit_callbacks(execute=True):
        cardrooms.set_out_of_service(small, 1, "panno", actor=actor)
    assert sent.call_count == 0  # a table taken away frees nothing
    with mock.patch.object(lifecycle, "signature") as sent, django_capture_on_commit_callbacks(execute=True):
        cardrooms.back_in_service(small, 1, actor=actor)
        cardrooms.save_table(small, 2, seats=9, actor=actor)
    assert sent.call_args_list[0].args == (lifecycle.START_WAITING,)
    assert lifecycle.start_waiting() == 1


@pytest.mark.django_db
def test_a_sit_and_go_that_fills_in_a_full_room_sells_its_last_seat_and_waits(db, actor, structure, make_tournament, make_person, cashier_actor):
    from tournaments.models import Clock, WaitingStart

    small = cardrooms.save_room("Saletta", actor=actor)
    cardrooms.save_table(small, 7, seats=10, actor=actor)
    busy = started(make_tournament, make_person, actor, 8, name="Busy", table_size=10)
    assert held(busy) == [7]
    sng = sitandgo.create_sit_and_go(name="SNG 1", buy_in=Decimal(50), fee=Decimal(5), starting_stack=5000, structure=structure, actor=actor)
    fill(sng, make_person, cashier_actor, 10)  # the tenth sale stands: the room has no table for it yet
    sng.refresh_from_db()
    assert sng.status == Tournament.REGISTERING and sng.entries.filter(status=Entry.ACTIVE).count() == 10
    assert WaitingStart.objects.get(tournament=sng).missing == 1
    lifecycle.finish(busy, actor=actor)
    assert lifecycle.start_waiting() == 1
    sng.refresh_from_db()
    assert sng.status == Tournament.RUNNING and in_play(sng) == held(sng) == [7]
    assert Clock.objects.get(tournament=sng).status == Clock.RUNNING


@pytest.mark.django_db
def test_a_waiting_start_stopped_cancelled_or_refused_waits_no_more(db, actor, make_tournament, make_person):
    from tournaments.models import WaitingStart

    small = saletta(actor, tables=(1,))
    stopped, refused, cancelled = (make_tournament(name=name, min_players=3) for name in ("Stopped", "Refused", "Cancelled"))
    for t in (stopped, refused, cancelled):
        fill(t, make_person, actor, 12)
        lifecycle.start(t, actor=actor, when_room_full=lifecycle.WAIT)
    assert WaitingStart.objects.count() == 3
    lifecycle.stop_waiting(stopped, actor=actor)
    lifecycle.cancel(cancelled, actor=actor, reason="pioggia")
    for entry in list(refused.entries.order_by("number"))[2:]:
        cashier.refund(entry, reason="gone home", actor=actor)
    cardrooms.save_table(small, 2, seats=9, actor=actor)
    assert lifecycle.start_waiting() == 0
    assert not WaitingStart.objects.exists()
    assert {t.status for t in Tournament.objects.filter(pk__in=[stopped.pk, refused.pk])} == {Tournament.REGISTERING}
    assert refused.events.filter(action="tournaments.start.wait_refused", payload__code="below_minimum").exists()
    assert stopped.events.filter(action="tournaments.start.wait_stopped").exists()


@pytest.mark.django_db
def test_wait_for_tables_through_the_api_and_the_page(api, director, client, actor, make_tournament, make_person):
    from django.utils import translation

    saletta(actor, tables=(1,))
    t = make_tournament(name="Serata")
    fill(t, make_person, actor, 12)
    boss = api(director)
    r = boss.post(f"/api/v1/tournaments/{t.pk}/start/", {"when_room_full": "later"}, format="json")
    assert r.status_code == 400 and "when_room_full" in r.json()["fields"]
    r = boss.post(f"/api/v1/tournaments/{t.pk}/start/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "room_full" and r.json()["missing"] == 1
    r = boss.post(f"/api/v1/tournaments/{t.pk}/start/", {"when_room_full": "wait", "start_clock": True}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "REGISTERING" and r.json()["waiting_for_tables"]["missing"] == 1
    assert boss.get(f"/api/v1/tournaments/{t.pk}/").json()["waiting_for_tables"]["missing"] == 1
    client.force_login(director)
    with translation.override("it"):
        page = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert "In attesa di tavoli liberi" in page and "manca 1 tavolo" in page
        r = client.post(f"/tournaments/{t.pk}/", {"op": "stop-waiting"}, HTTP_ACCEPT_LANGUAGE="it", follow=True)
        assert "In attesa di tavoli liberi" not in r.content.decode()
    assert boss.get(f"/api/v1/tournaments/{t.pk}/").json()["waiting_for_tables"] is None
    r = client.post(f"/tournaments/{t.pk}/", {"op": "start", "wait_for_tables": "1"}, HTTP_ACCEPT_LANGUAGE="it", follow=True)
    assert "In attesa di tavoli liberi" in r.content.decode()
    r = boss.post(f"/api/v1/tournaments/{t.pk}/stop-waiting/", format="json")
    assert r.status_code == 200 and r.json()["waiting_for_tables"] is None


@pytest.mark.django_db
def test_events_that_started_before_the_room_are_brought_to_its_tables_of_the_same_numbers(api, director, client, actor, make_tournament, make_person):
    from django.utils import translation

    from seating.models import SeatingState

    early = started(make_tournament, make_person, actor, 12, name="Early")  # no room yet: tables 1 and 2 of its own
    other = started(make_tournament, make_person, actor, 6, name="Other")  # its own table 1 too
    big = started(make_tournament, make_person, actor, 8, name="Big", table_size=10)  # one table of 10 seats
    assert in_play(early) == [1, 2] and in_play(other) == [1] and in_play(big) == [1]
    hall = cardrooms.save_room("Sala", actor=actor)
    for n in (1, 2):
        cardrooms.save_table(hall, n, seats=9, actor=actor)
    client.force_login(director)
    with translation.override("it"):
        page = client.get(f"/room/{hall.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert "Early" in page and 'value="bring_in"' in page
        r = client.post(f"/room/{hall.pk}/", {"op": "bring_in"}, HTTP_ACCEPT_LANGUAGE="it", follow=True)
    text = r.content.decode()
    assert "Early ora gioca ai tavoli 1, 2 di questa sala." in text
    assert "Other mantiene i propri numeri: il tavolo 1 della sala non è libero." in text
    assert held(early) == in_play(early) == [1, 2] and held(other) == held(big) == []
    assert SeatingState.objects.get(tournament=early).card_room_id == hall.pk
    shown = {tb["number"]: tb for tb in selectors.room_map(hall.pk)["tables"]}
    assert shown[1]["event"]["name"] == "Early" and shown[1]["players"] + shown[2]["players"] == 12
    lifecycle.finish(early, actor=actor)  # the room has 1 and 2 back: Other takes 1 first, then Big finds it taken
    boss = api(director)
    answer = boss.post(f"/api/v1/rooms/{hall.pk}/bring-in/", format="json").json()
    assert [e["name"] for e in answer["brought_in"]] == ["Other"]
    assert answer["left"] == [{"id": big.pk, "name": "Big", "code": "taken", "tables": [1]}]
    assert held(other) == [1]
    side, far = cardrooms.save_room("Saletta", actor=actor), cardrooms.save_room("Terza", actor=actor)
    cardrooms.save_table(side, 1, seats=9, actor=actor)
    cardrooms.save_table(far, 5, seats=10, actor=actor)
    assert boss.post(f"/api/v1/rooms/{side.pk}/bring-in/", format="json").json()["left"] == [{"id": big.pk, "name": "Big", "code": "too_small", "tables": [1]}]
    assert boss.post(f"/api/v1/rooms/{far.pk}/bring-in/", format="json").json()["left"] == [{"id": big.pk, "name": "Big", "code": "not_in_room", "tables": [1]}]
    assert held(big) == []


def test_tables_one_to_twelve_are_added_in_one_step_on_the_page_and_through_the_api(api, client, director, floor_user, actor, make_tournament, make_person):
    hall = cardrooms.save_room("Sala", actor=actor)
    cardrooms.save_table(hall, 3, seats=10, zone="TV", actor=actor)
    client.force_login(director)
    r = client.post(f"/room/{hall.pk}/", {"op": "add_tables", "first": "1", "last": "12", "seats": "9"}, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    page = r.content.decode()
    assert "Tables 1 to 12 added." in page and "Already in the room, left as they were: 3." in page
    tables = dict(RoomTable.objects.filter(room=hall).values_list("number", "seats"))
    assert sorted(tables) == list(range(1, 13)) and tables[3] == 10 and {tables[n] for n in tables if n != 3} == {9}
    # through the API: a second room's floor, 1 to 8 of 8 seats; a range backwards or too long is refused whole
    side = cardrooms.save_room("Saletta", actor=actor)
    url = f"/api/v1/rooms/{side.pk}/tables/range/"
    assert api(floor_user).post(url, {"first": 1, "last": 8}, format="json").status_code == 403
    r = api(director).post(url, {"first": 8, "last": 1}, format="json")
    assert r.status_code == 400 and r.json()["field"] == "last"
    assert api(director).post(url, {"first": 1, "last": 500}, format="json").status_code == 400
    r = api(director).post(url, {"first": 1, "last": 8, "seats": 8}, format="json")
    assert r.status_code == 201 and r.json()["added"] == list(range(1, 9)) and r.json()["kept"] == []
    assert list(RoomTable.objects.filter(room=side).order_by("number").values_list("number", "seats")) == [(n, 8) for n in range(1, 9)]
    # an event drawn in the hall plays at the new tables, in their order
    t = started(make_tournament, make_person, actor, 20, name="Main Event")
    assert in_play(t) == [1, 2, 3] and held(t) == [1, 2, 3]


@pytest.mark.django_db
def test_a_manual_start_keeps_the_tables_its_seat_cards_name_until_the_cards_are_in(room, make_tournament, make_person, actor):
    t = make_tournament(name="By hand", settings={"draw_mode": "MANUAL"})
    fill(t, make_person, actor, 12)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    d = ManualDraw.objects.get(tournament=t, status=ManualDraw.OPEN)
    assert sorted({tb for tb, _s in d.cards}) == [11, 12]  # the room's first tables, on the printed cards
    assert sorted(RoomTable.objects.filter(reserved_for=t).values_list("number", flat=True)) == [11, 12]
    other = started(make_tournament, make_person, actor, 9, name="Meanwhile")
    assert in_play(other) == [13]  # the tables on the cards are not the others' to take


@pytest.mark.django_db
def test_an_event_set_to_a_zone_of_the_room_draws_that_zones_tables_first(room, make_tournament, make_person, actor):
    for n in (15, 16):
        cardrooms.save_table(room, n, seats=9, position=n, zone="TV", actor=actor)
    t = started(make_tournament, make_person, actor, 12, name="Televised", settings={"room_zone": "TV"})
    assert in_play(t) == held(t) == [15, 16]  # its zone first, though tables 11 and 12 come first in the house's order


@pytest.mark.django_db
def test_an_event_whose_tables_are_kept_in_the_main_hall_plays_there_not_in_the_side_room(db, actor, make_tournament, make_person):
    main, side = main_hall_and_side_room(actor)
    t = make_tournament(name="Kept")
    fill(t, make_person, actor, 10)
    for n in (1, 2):
        cardrooms.reserve(main, n, t, actor=actor)  # the main hall's two tables, kept for it
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    assert in_play(t) == held(t) == [1, 2]


@pytest.mark.django_db
def test_late_registration_read_by_another_process_opens_the_rooms_next_free_table(room, make_tournament, make_person, actor):
    from seating.services import room as room_module

    t = started(make_tournament, make_person, actor, 9)  # one full table: 11
    room_module.forget(t.pk)  # the next sale is served by another process, which reads the seat map anew
    fill(t, make_person, actor, 1)
    assert in_play(t) == held(t) == [11, 12]
