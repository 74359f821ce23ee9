"""The dealers of a room (issue #42): a roster, pushes that rotate them, a table that opens asks
for one and a table that breaks sends its dealer to the pool; a dealer reports only from the
table he is assigned; the shift report counts his minutes; the floor sees the next push."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from seating import selectors
from seating import services as seating
from seating.models import DealerAssignment, RoomTable, Table
from seating.services import cardrooms, dealers
from tdmanager.errors import DomainError
from tests.conftest import make_user
from tournaments.cashier import services as cashier
from tournaments.eventlog.services import Actor
from tournaments.models import Entry
from tournaments.setup import lifecycle

from .test_support import seat_map


@pytest.fixture
def hall(db, actor):
    room = cardrooms.save_room("Sala principale", actor=actor)
    for n in range(1, 9):
        cardrooms.save_table(room, n, seats=9, position=n, actor=actor)
    return room


@pytest.fixture
def crew(db, hall, actor):
    """Four dealers on the roster from an hour ago for eight hours."""
    now = timezone.now()
    users = [make_user(name, "dealer", first_name=name.title()) for name in ("anna", "marco", "luca", "sara")]
    for u in users:
        dealers.add_shift(hall, u, now - timedelta(hours=1), now + timedelta(hours=7), actor=actor)
    return users


def start(make_tournament, make_person, actor, players, **kw):
    t = make_tournament(**kw)
    for _ in range(players):
        cashier.register(t, make_person(), method="CASH", actor=actor)
    lifecycle.start(t, actor=actor, prestart_report_sent=True)
    return t


def dealing(room) -> dict[int, int]:
    return {a.table: a.dealer_id for a in DealerAssignment.objects.filter(room=room, ends_at__isnull=True, kind="DEAL")}


@pytest.mark.django_db
def test_a_push_gives_every_table_a_dealer_and_the_next_moves_each_to_another(hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 27)  # three tables: 1, 2, 3
    now = timezone.now()
    dealers.push(hall, actor=actor, now=now)
    first = dealing(hall)
    assert sorted(first) == [1, 2, 3] and len(set(first.values())) == 3
    assert DealerAssignment.objects.filter(room=hall, ends_at__isnull=True, kind="POOL").count() == 1
    dealers.push(hall, actor=actor, now=now + timedelta(minutes=30))
    second = dealing(hall)
    assert sorted(second) == [1, 2, 3]
    for table, dealer in second.items():
        assert first.get(table) != dealer  # never the same table twice in a row
    report = {r["dealer"]: r for r in selectors.dealer_report(hall.pk, now - timedelta(hours=1), now + timedelta(hours=1), now=now + timedelta(minutes=60))}
    assert sum(r["dealt"] for r in report.values()) == 3 * 60  # three tables dealt for an hour
    assert all(sum(x["minutes"] for x in r["tables"]) == r["dealt"] for r in report.values())


@pytest.mark.django_db
def test_a_dealer_goes_on_his_break_after_two_hours(hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 27)
    now = timezone.now()
    for k in range(6):  # three hours of pushes
        dealers.push(hall, actor=actor, now=now + timedelta(minutes=30 * k))
    breaks = DealerAssignment.objects.filter(room=hall, kind="BREAK")
    assert breaks.exists()
    for r in selectors.dealer_report(hall.pk, now - timedelta(hours=1), now + timedelta(hours=4), now=now + timedelta(minutes=180)):
        assert r["dealt"] <= 180  # nobody dealt the three hours through


@pytest.mark.django_db
def test_a_table_that_opens_asks_for_a_dealer_and_one_that_breaks_sends_him_to_the_pool(hall, crew, make_tournament, make_person, actor):
    t = start(make_tournament, make_person, actor, 18)  # two full tables: 1, 2
    dealers.push(hall, actor=actor)
    assert sorted(dealing(hall)) == [1, 2]
    cashier.register(t, make_person(), method="CASH", actor=actor)  # every seat taken: table 3 opens
    assert sorted(dealing(hall)) == [1, 2, 3]
    for entry in Entry.objects.filter(tournament=t, status=Entry.ACTIVE).order_by("number")[:2]:
        seating.record_bust(t, [entry.pk], actor=actor)  # 17 left: fits two tables, one breaks
    playing = sorted(Table.objects.filter(tournament=t, in_play=True).values_list("number", flat=True))
    assert sorted(dealing(hall)) == playing and len(playing) == 2
    assert DealerAssignment.objects.filter(room=hall, ends_at__isnull=True, kind="POOL").count() == 2


@pytest.mark.django_db
def test_a_dealer_reports_only_from_his_table(hall, crew, make_tournament, make_person, actor):
    t = start(make_tournament, make_person, actor, 18)
    dealers.push(hall, actor=actor)
    mine = dealing(hall)
    dealer_at_1 = next(u for u in crew if u.pk == mine[1])
    as_dealer = Actor(dealer_at_1, "dealer tablet")
    at_2 = Entry.objects.filter(tournament=t, seat__table__number=2).first()
    with pytest.raises(DomainError) as refused:
        seating.record_bust(t, [at_2.pk], table=2, actor=as_dealer)
    assert refused.value.code == "not_your_table" and "1" in str(refused.value.message)
    with pytest.raises(DomainError):
        seating.hand_completed(t, 2, actor=as_dealer)
    at_1 = Entry.objects.filter(tournament=t, seat__table__number=1).first()
    seating.record_bust(t, [at_1.pk], table=1, actor=as_dealer)  # his own table
    pool_dealer = next(u for u in crew if u.pk not in mine.values())
    with pytest.raises(DomainError) as refused:
        seating.hand_completed(t, 1, actor=Actor(pool_dealer, "tablet"))
    assert refused.value.code == "not_your_table"
    seating.hand_completed(t, 2, actor=actor)  # the floor and the director report anywhere


@pytest.mark.django_db
def test_the_next_push_is_shown_in_advance(hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 18)
    now = timezone.now()
    dealers.push(hall, actor=actor, now=now)
    before = dealing(hall)
    plan = dealers.preview(hall, now + timedelta(minutes=5))
    assert plan["at"] == now + timedelta(minutes=30)
    moves = {m["dealer_id"]: m for m in plan["moves"]}
    dealers.push(hall, actor=actor, now=now + timedelta(minutes=30))
    after = dealing(hall)
    assert {m["to"]: d for d, m in moves.items() if m["kind"] == "DEAL"} == after  # the push did what was announced
    assert after != before


@pytest.mark.django_db
def test_pushes_come_when_due(hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 9)
    now = timezone.now()
    assert dealers.push_when_due(now) == 1  # never pushed: due
    assert dealers.push_when_due(now + timedelta(minutes=10)) == 0
    assert dealers.push_when_due(now + timedelta(minutes=30)) == 1


@pytest.mark.django_db
def test_the_roster_takes_dealers_only(hall, director, actor):
    floor = make_user("piero", "floor")
    now = timezone.now()
    with pytest.raises(DomainError) as refused:
        dealers.add_shift(hall, floor, now, now + timedelta(hours=4), actor=actor)
    assert refused.value.extra["field"] == "dealer"
    anna = make_user("anna", "dealer")
    with pytest.raises(DomainError):
        dealers.add_shift(hall, anna, now, now - timedelta(hours=1), actor=actor)
    dealers.add_shift(hall, anna, now, now + timedelta(hours=4), actor=actor)
    with pytest.raises(DomainError) as refused:
        dealers.add_shift(hall, anna, now + timedelta(hours=1), now + timedelta(hours=5), actor=actor)
    assert refused.value.code == "shift_overlaps"


@pytest.mark.django_db
def test_the_dealers_api_and_the_shift_report(api, director, floor_user, hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 18)
    floor = api(floor_user)
    r = floor.post(f"/api/v1/rooms/{hall.pk}/push/", format="json")
    assert r.status_code == 200 and r.json()["uncovered"] == []
    r = floor.get(f"/api/v1/rooms/{hall.pk}/dealers/")
    assert r.status_code == 200
    now_at = [x["now"] for x in r.json()["roster"]]
    assert sorted(n["table"] for n in now_at if n and n["kind"] == "DEAL") == [1, 2]
    assert floor.get(f"/api/v1/rooms/{hall.pk}/dealers/report/").status_code == 403  # payroll is the director's
    r = api(director).get(f"/api/v1/rooms/{hall.pk}/dealers/report/")
    assert r.status_code == 200 and len(r.json()["dealers"]) == 4
    r = api(director).put(f"/api/v1/rooms/{hall.pk}/rotation/", {"push_minutes": 5, "break_after": 120, "break_minutes": 20}, format="json")
    assert r.status_code == 400 and "push_minutes" in r.json()["fields"]
    assert (
        api(director).put(f"/api/v1/rooms/{hall.pk}/rotation/", {"push_minutes": 20, "break_after": 120, "break_minutes": 20}, format="json").status_code == 200
    )
    shift = r.json() and floor.get(f"/api/v1/rooms/{hall.pk}/dealers/").json()["roster"][0]["shift"]
    assert floor.delete(f"/api/v1/rooms/{hall.pk}/dealers/{shift}/").status_code == 200


@pytest.mark.django_db
def test_the_shift_report_as_csv_and_pdf_and_the_room_screen(client, director, floor_user, hall, crew, make_tournament, make_person, actor):
    start(make_tournament, make_person, actor, 18)
    dealers.push(hall, actor=actor)
    client.force_login(director)
    csv_text = client.get(f"/room/{hall.pk}/dealers.csv").content.decode()
    assert csv_text.splitlines()[0].startswith("Dealer,") and len(csv_text.splitlines()) == 1 + len(crew)
    assert client.get(f"/room/{hall.pk}/dealers.pdf").content.startswith(b"%PDF")
    client.force_login(floor_user)
    assert client.get(f"/room/{hall.pk}/dealers.csv").status_code == 403  # payroll is the director's
    screen = client.get(f"/room/{hall.pk}/screen/").content.decode()
    assert "/static/roomscreen." in screen and "refresh" not in screen and "room-table-1" in screen and "<form" not in screen


@pytest.mark.django_db
def test_an_event_that_ends_gives_back_its_tables_and_sends_their_dealers_to_the_pool(hall, crew, make_tournament, make_person, actor):
    """Day seed 7100 of the simulator: a timed event finished, its dealers stayed at its tables."""
    t = start(make_tournament, make_person, actor, 3)
    dealers.push(hall, actor=actor)
    assert sorted(dealing(hall)) == [1]
    for entry in Entry.objects.filter(tournament=t).order_by("number")[:2]:
        seating.record_bust(t, [entry.pk], actor=actor)  # the winner is left at his table
    t.refresh_from_db()
    if t.status != t.FINISHED:
        lifecycle.finish(t, actor=actor)
    assert dealing(hall) == {}
    assert not RoomTable.objects.filter(room=hall, held_by__isnull=False).exists()
    assert DealerAssignment.objects.filter(room=hall, ends_at__isnull=True, kind="POOL").count() == len(crew)


def test_an_ended_events_busts_and_moves_stand_once_its_tables_are_given_away(hall, crew, make_tournament, make_person, actor, client, director):
    """Day seed 4810094 of the simulator: the last busts of a finished event undone brought its
    players back to tables the room had given to the next event, and a dealer to a table nobody
    played at. Once an event has ended, its busts and its moves stand."""
    t = start(make_tournament, make_person, actor, 12)  # two tables of six
    tables = seat_map(t)
    free = next(n for n in range(1, 10) if n not in tables[1])
    moved = seating.move_player(t, min(tables[2].values()), 1, free, actor=actor, reason="special needs")
    out = seating.record_bust(t, [min(tables[1].values())], actor=actor)
    lifecycle.finish(t, actor=actor)  # the director ends it (a deal among those left)
    nxt = start(make_tournament, make_person, actor, 8)
    dealers.push(hall, actor=actor)
    room_before = [(tb["number"], tb["state"], (tb["event"] or {}).get("id"), (tb["dealer"] or {}).get("id")) for tb in selectors.room_map(hall.pk)["tables"]]
    assert (1, "IN_USE", nxt.pk) == room_before[0][:3]
    for undo in (lambda: seating.undo_bust(t, out.busts[0], actor=actor), lambda: seating.undo_move(t, moved.move, actor=actor)):
        with pytest.raises(DomainError) as refused:
            undo()
        assert refused.value.code == "tournament_closed"
    after = [(tb["number"], tb["state"], (tb["event"] or {}).get("id"), (tb["dealer"] or {}).get("id")) for tb in selectors.room_map(hall.pk)["tables"]]
    assert after == room_before
    assert Entry.objects.get(pk=out.busts[0].entry_id).status == Entry.BUSTED
    assert set(dealing(hall)) == {1}  # the next event's one table: no dealer sent to a table of the ended one
    client.force_login(director)  # the page of the bust just recorded, opened again: no Undo to be refused
    page = client.get(f"/tournaments/{t.pk}/tables/?bust={out.busts[0].pk}")
    assert page.status_code == 200 and 'id="undo-just-busted"' not in page.content.decode()


@pytest.mark.django_db
def test_a_dealer_who_moved_rooms_reports_from_his_table_in_the_new_one(hall, make_tournament, make_person, actor):
    """Yesterday Ivo was in the hall's pool, and the hall was not pushed again after his shift
    there ended; today he deals in the side room. His reports there count and his row in the hall
    is closed (found by a simulated day, seed 7201: every report of a dealer rostered in a second
    room refused as "not dealing a table now")."""
    ivo = make_user("ivo", "dealer", first_name="Ivo")
    now = timezone.now()
    with time_machine.travel(now - timedelta(hours=20), tick=False):
        dealers.add_shift(hall, ivo, timezone.now(), timezone.now() + timedelta(hours=8), actor=actor)
        dealers.push(hall, actor=actor)  # no event playing: Ivo waits in the pool
    side = cardrooms.save_room("Sala laterale", actor=actor)
    for n in (1, 2):
        cardrooms.save_table(side, n, seats=9, position=n, actor=actor)
    dealers.add_shift(side, ivo, now - timedelta(hours=1), now + timedelta(hours=7), actor=actor)
    t = start(make_tournament, make_person, actor, 8, settings={"room": side.pk})
    dealers.push(side, actor=actor)
    assert dealing(side) == {1: ivo.pk}
    seating.hand_completed(t, 1, actor=Actor(ivo, "dealer tablet"))  # refused before: his pool row in the hall
    assert not DealerAssignment.objects.filter(room=hall, dealer=ivo, ends_at__isnull=True).exists()
